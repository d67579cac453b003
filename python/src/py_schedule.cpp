// Bindings of <loom/schedule.h>, <loom/memory_type.h> and <loom/device_api.h>: the enums the
// scheduling directives take (with Halide's Python names and values), VarOrRVar and LoopLevel.
// Registered before Func, whose directives use them as default arguments.
#include "py_util.h"

namespace loom {
namespace python {

void define_schedule(nb::module_ &m) {
    nb::enum_<TailStrategy>(m, "TailStrategy",
                            "What a split does when the factor does not divide the extent.")
        .value("RoundUp", TailStrategy::RoundUp)
        .value("GuardWithIf", TailStrategy::GuardWithIf)
        .value("Predicate", TailStrategy::Predicate)
        .value("PredicateLoads", TailStrategy::PredicateLoads)
        .value("PredicateStores", TailStrategy::PredicateStores)
        .value("ShiftInwards", TailStrategy::ShiftInwards)
        .value("ShiftInwardsAndBlend", TailStrategy::ShiftInwardsAndBlend)
        .value("RoundUpAndBlend", TailStrategy::RoundUpAndBlend)
        .value("Auto", TailStrategy::Auto);

    nb::enum_<PrefetchBoundStrategy>(m, "PrefetchBoundStrategy",
                                     "What a prefetch does with the part of its region outside "
                                     "the buffer.")
        .value("Clamp", PrefetchBoundStrategy::Clamp)
        .value("GuardWithIf", PrefetchBoundStrategy::GuardWithIf)
        .value("NonFaulting", PrefetchBoundStrategy::NonFaulting);

    nb::enum_<LoopAlignStrategy>(m, "LoopAlignStrategy",
                                 "How compute_with lines up fused loops of different extents.")
        .value("AlignStart", LoopAlignStrategy::AlignStart)
        .value("AlignEnd", LoopAlignStrategy::AlignEnd)
        .value("NoAlign", LoopAlignStrategy::NoAlign)
        .value("Auto", LoopAlignStrategy::Auto);

    nb::enum_<Partition>(m, "Partition", "Whether a loop may be partitioned (Stage.partition).")
        .value("Auto", Partition::Auto)
        .value("Never", Partition::Never)
        .value("Always", Partition::Always);

    nb::enum_<MemoryType>(m, "MemoryType", "Where a Func's storage lives (Func.store_in).")
        .value("Auto", MemoryType::Auto)
        .value("Heap", MemoryType::Heap)
        .value("Stack", MemoryType::Stack)
        .value("Register", MemoryType::Register)
        .value("GPUShared", MemoryType::GPUShared)
        .value("GPUTexture", MemoryType::GPUTexture)
        .value("LockedCache", MemoryType::LockedCache)
        .value("VTCM", MemoryType::VTCM)
        .value("AMXTile", MemoryType::AMXTile);

    // `None` is a Python keyword: getattr(loom.DeviceAPI, "None"), as with Halide's bindings.
    nb::enum_<DeviceAPI>(m, "DeviceAPI", "The device a loop or an extern stage runs on.")
        .value("None", DeviceAPI::None)
        .value("Host", DeviceAPI::Host)
        .value("Default_GPU", DeviceAPI::Default_GPU)
        .value("CUDA", DeviceAPI::CUDA)
        .value("OpenCL", DeviceAPI::OpenCL)
        .value("Metal", DeviceAPI::Metal)
        .value("Hexagon", DeviceAPI::Hexagon)
        .value("HexagonDma", DeviceAPI::HexagonDma)
        .value("D3D12Compute", DeviceAPI::D3D12Compute)
        .value("Vulkan", DeviceAPI::Vulkan)
        .value("WebGPU", DeviceAPI::WebGPU);

    nb::class_<VarOrRVar>(m, "VarOrRVar",
                          "A loop named by a Var, an RVar or a one-dimensional RDom; the "
                          "scheduling directives accept any of the three directly.")
        .def(nb::init<const std::string &, bool>(), nb::arg("name"), nb::arg("is_rvar"))
        .def(nb::init<const Var &>(), nb::arg("var"))
        .def(nb::init<const RVar &>(), nb::arg("rvar"))
        .def(nb::init<const RDom &>(), nb::arg("rdom"))
        .def("name", &VarOrRVar::name)
        .def_ro("var", &VarOrRVar::var)
        .def_ro("rvar", &VarOrRVar::rvar)
        .def_ro("is_rvar", &VarOrRVar::is_rvar)
        .def("__repr__", [](const VarOrRVar &v) {
            return std::string("<loom.VarOrRVar ") + (v.is_rvar ? "RVar '" : "Var '") + v.name() +
                   "'>";
        });
    nb::implicitly_convertible<Var, VarOrRVar>();
    nb::implicitly_convertible<RVar, VarOrRVar>();
    nb::implicitly_convertible<RDom, VarOrRVar>();

    // Loom's LoopLevel is a value, so it has no set() (Halide's mutates a shared level in place).
    nb::class_<LoopLevel>(m, "LoopLevel",
                          "Where a Func is computed or stored: inlined, the root, or inside the "
                          "loop over a Var or RVar of a Func's stage.")
        .def(nb::init<>())
        .def(nb::init<const Func &, const VarOrRVar &, int>(), nb::arg("func"), nb::arg("var"),
             nb::arg("stage_index") = -1)
        .def_static("inlined", &LoopLevel::inlined)
        .def_static("root", &LoopLevel::root)
        .def("is_inlined", &LoopLevel::is_inlined)
        .def("is_root", &LoopLevel::is_root)
        .def("func", &LoopLevel::func)
        .def("var", &LoopLevel::var)
        .def("stage_index", &LoopLevel::stage_index)
        .def("__eq__",
             [](const LoopLevel &a, const LoopLevel &b) {
                 return a.is_inlined() == b.is_inlined() && a.is_root() == b.is_root() &&
                        a.func() == b.func() && a.var() == b.var() &&
                        a.stage_index() == b.stage_index();
             })
        .def("__hash__",
             [](const LoopLevel &l) {
                 return nb::hash(nb::make_tuple(l.is_inlined(), l.is_root(), l.func(), l.var(),
                                                l.stage_index()));
             })
        .def("__repr__", [](const LoopLevel &l) -> std::string {
            if (l.is_inlined()) return "<loom.LoopLevel inlined>";
            if (l.is_root()) return "<loom.LoopLevel root>";
            return "<loom.LoopLevel " + l.func() + "." + l.var() + ">";
        });
}

} // namespace python
} // namespace loom
