// Bindings of <loom/func.h>: Func (definitions with `f[x, y] = ...`, realization, scheduling),
// FuncRef, FuncTupleElementRef and Stage. The scheduling directives have Halide's Python names
// and argument names: those Func and Stage share, then Stage's alone (rfactor) and Func's alone
// (compute and storage placement, wrappers, memory, tracing).
#include "py_pipeline.h"

#include <loom/scratchpad.h>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace loom {
namespace python {

namespace {

/// f[key] (see call_with_key).
FuncRef func_ref(const Func &f, nb::handle key) { return call_with_key(f, key); }

/// A definition's right-hand side: a Tuple for a Tuple or a Python tuple or list, else an
/// Expr. A FuncRef stays one, so a Func of several outputs can be copied whole.
template <typename Ref>
Stage assign(Ref ref, nb::handle value) {
    if (is_tuple_like(value)) return ref = to_tuple(value);
    if (FuncRef *r = nullptr; nb::try_cast<FuncRef *>(value, r) && r) return ref = *r;
    return ref = to_expr(value);
}

/// The value of an update operator (`f[x] += v`): a Tuple for a tuple, else an Expr.
template <typename Op>
Stage update(const FuncRef &ref, nb::handle value, Op op) {
    FuncRef r = ref;
    if (is_tuple_like(value)) return op(r, to_tuple(value));
    return op(r, to_expr(value));
}

// ---- Scheduling directives ----

using V = const VarOrRVar &;
using E = const Expr &;
using VarList = const std::vector<VarOrRVar> &;
using ExprList = const std::vector<Expr> &;
using AlignList = const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &;

/// A binding of a directive that returns *this in C++: it returns `self`, the same Python
/// object, so `f.split(...).vectorize(...)` keeps working on f (a new wrapper would do too,
/// but `is` and attributes set on the object would not survive).
template <typename C, typename... Args>
auto returns_self(C &(C::*method)(Args...)) {
    return [method](nb::handle_t<C> self, Args... args) -> nb::typed<nb::object, C> {
        (nb::inst_ptr<C>(self)->*method)(args...);
        return nb::borrow(self);
    };
}

/// A loop named in a list or in *args: a VarOrRVar, Var, RVar or RDom.
VarOrRVar loop_of(nb::handle h) {
    if (VarOrRVar *v = nullptr; nb::try_cast<VarOrRVar *>(h, v) && v) return *v;
    return to_var_or_rvar(h);
}

/// The items of `f(a, b, c)` or of `f([a, b, c])`.
std::vector<nb::handle> varargs_items(const nb::args &args) {
    std::vector<nb::handle> items;
    if (args.size() == 1 &&
        (nb::isinstance<nb::list>(args[0]) || nb::isinstance<nb::tuple>(args[0]))) {
        for (nb::handle h : args[0]) items.push_back(h);
    } else {
        for (nb::handle h : args) items.push_back(h);
    }
    return items;
}

/// The directives Func and Stage share (each Func directive applies to its pure definition).
template <typename C>
void add_loop_directives(nb::class_<C> &cls) {
    const TailStrategy tail = TailStrategy::Auto;
    const DeviceAPI gpu = DeviceAPI::Default_GPU;
    cls.def("split", returns_self(nb::overload_cast<V, V, V, E, TailStrategy>(&C::split)),
            nb::arg("old"), nb::arg("outer"), nb::arg("inner"), nb::arg("factor"),
            nb::arg("tail") = tail)
        .def("vectorize", returns_self(nb::overload_cast<V>(&C::vectorize)), nb::arg("var"))
        .def("vectorize", returns_self(nb::overload_cast<V, E, TailStrategy>(&C::vectorize)),
             nb::arg("var"), nb::arg("factor"), nb::arg("tail") = tail)
        .def("parallel", returns_self(nb::overload_cast<V>(&C::parallel)), nb::arg("var"))
        .def("parallel", returns_self(nb::overload_cast<V, E, TailStrategy>(&C::parallel)),
             nb::arg("var"), nb::arg("task_size"), nb::arg("tail") = tail)
        .def("unroll", returns_self(nb::overload_cast<V>(&C::unroll)), nb::arg("var"))
        .def("unroll", returns_self(nb::overload_cast<V, E, TailStrategy>(&C::unroll)),
             nb::arg("var"), nb::arg("factor"), nb::arg("tail") = tail)
        .def("serial", returns_self(&C::serial), nb::arg("var"))
        .def("partition", returns_self(&C::partition), nb::arg("var"), nb::arg("partition_policy"))
        .def("never_partition", returns_self(&C::never_partition), nb::arg("vars"))
        .def("always_partition", returns_self(&C::always_partition), nb::arg("vars"))
        .def("never_partition_all", returns_self(&C::never_partition_all))
        .def("always_partition_all", returns_self(&C::always_partition_all))
        .def(
            "reorder",
            [](nb::handle_t<C> self, const nb::args &args) -> nb::typed<nb::object, C> {
                std::vector<VarOrRVar> vars;
                for (nb::handle h : varargs_items(args)) vars.push_back(loop_of(h));
                nb::inst_ptr<C>(self)->reorder(vars);
                return nb::borrow(self);
            },
            "Reorder the loops, innermost first: reorder(x, y, z) or reorder([x, y, z]).")
        .def("tile",
             returns_self(nb::overload_cast<V, V, V, V, V, V, E, E, TailStrategy>(&C::tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("xo"), nb::arg("yo"), nb::arg("xi"), nb::arg("yi"),
             nb::arg("xfactor"), nb::arg("yfactor"), nb::arg("tail") = tail)
        .def("tile", returns_self(nb::overload_cast<V, V, V, V, E, E, TailStrategy>(&C::tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("xi"), nb::arg("yi"), nb::arg("xfactor"),
             nb::arg("yfactor"), nb::arg("tail") = tail)
        .def("tile",
             returns_self(
                 nb::overload_cast<VarList, VarList, VarList, ExprList, TailStrategy>(&C::tile)),
             nb::arg("previous"), nb::arg("outers"), nb::arg("inners"), nb::arg("factors"),
             nb::arg("tail") = tail)
        .def("tile",
             returns_self(nb::overload_cast<VarList, VarList, VarList, ExprList,
                                            const std::vector<TailStrategy> &>(&C::tile)),
             nb::arg("previous"), nb::arg("outers"), nb::arg("inners"), nb::arg("factors"),
             nb::arg("tails"))
        .def("tile",
             returns_self(nb::overload_cast<VarList, VarList, ExprList, TailStrategy>(&C::tile)),
             nb::arg("previous"), nb::arg("inners"), nb::arg("factors"), nb::arg("tail") = tail)
        .def("fuse", returns_self(&C::fuse), nb::arg("inner"), nb::arg("outer"), nb::arg("fused"))
        .def("rename", returns_self(&C::rename), nb::arg("old_name"), nb::arg("new_name"));

    cls.def("gpu_threads", returns_self(nb::overload_cast<V, DeviceAPI>(&C::gpu_threads)),
            nb::arg("thread_x"), nb::arg("device_api") = gpu)
        .def("gpu_threads", returns_self(nb::overload_cast<V, V, DeviceAPI>(&C::gpu_threads)),
             nb::arg("thread_x"), nb::arg("thread_y"), nb::arg("device_api") = gpu)
        .def("gpu_threads", returns_self(nb::overload_cast<V, V, V, DeviceAPI>(&C::gpu_threads)),
             nb::arg("thread_x"), nb::arg("thread_y"), nb::arg("thread_z"),
             nb::arg("device_api") = gpu)
        .def("gpu_lanes", returns_self(&C::gpu_lanes), nb::arg("thread_x"),
             nb::arg("device_api") = gpu)
        .def("gpu_single_thread", returns_self(&C::gpu_single_thread), nb::arg("device_api") = gpu)
        .def("gpu_blocks", returns_self(nb::overload_cast<V, DeviceAPI>(&C::gpu_blocks)),
             nb::arg("block_x"), nb::arg("device_api") = gpu)
        .def("gpu_blocks", returns_self(nb::overload_cast<V, V, DeviceAPI>(&C::gpu_blocks)),
             nb::arg("block_x"), nb::arg("block_y"), nb::arg("device_api") = gpu)
        .def("gpu_blocks", returns_self(nb::overload_cast<V, V, V, DeviceAPI>(&C::gpu_blocks)),
             nb::arg("block_x"), nb::arg("block_y"), nb::arg("block_z"),
             nb::arg("device_api") = gpu)
        .def("gpu", returns_self(nb::overload_cast<V, V, DeviceAPI>(&C::gpu)), nb::arg("block_x"),
             nb::arg("thread_x"), nb::arg("device_api") = gpu)
        .def("gpu", returns_self(nb::overload_cast<V, V, V, V, DeviceAPI>(&C::gpu)),
             nb::arg("block_x"), nb::arg("block_y"), nb::arg("thread_x"), nb::arg("thread_y"),
             nb::arg("device_api") = gpu)
        .def("gpu", returns_self(nb::overload_cast<V, V, V, V, V, V, DeviceAPI>(&C::gpu)),
             nb::arg("block_x"), nb::arg("block_y"), nb::arg("block_z"), nb::arg("thread_x"),
             nb::arg("thread_y"), nb::arg("thread_z"), nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(nb::overload_cast<V, V, V, E, TailStrategy, DeviceAPI>(&C::gpu_tile)),
             nb::arg("x"), nb::arg("bx"), nb::arg("tx"), nb::arg("x_size"), nb::arg("tail") = tail,
             nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(nb::overload_cast<V, V, E, TailStrategy, DeviceAPI>(&C::gpu_tile)),
             nb::arg("x"), nb::arg("tx"), nb::arg("x_size"), nb::arg("tail") = tail,
             nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(
                 nb::overload_cast<V, V, V, V, V, V, E, E, TailStrategy, DeviceAPI>(&C::gpu_tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("bx"), nb::arg("by"), nb::arg("tx"), nb::arg("ty"),
             nb::arg("x_size"), nb::arg("y_size"), nb::arg("tail") = tail,
             nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(
                 nb::overload_cast<V, V, V, V, E, E, TailStrategy, DeviceAPI>(&C::gpu_tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("tx"), nb::arg("ty"), nb::arg("x_size"),
             nb::arg("y_size"), nb::arg("tail") = tail, nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(
                 nb::overload_cast<V, V, V, V, V, V, V, V, V, E, E, E, TailStrategy, DeviceAPI>(
                     &C::gpu_tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("z"), nb::arg("bx"), nb::arg("by"), nb::arg("bz"),
             nb::arg("tx"), nb::arg("ty"), nb::arg("tz"), nb::arg("x_size"), nb::arg("y_size"),
             nb::arg("z_size"), nb::arg("tail") = tail, nb::arg("device_api") = gpu)
        .def("gpu_tile",
             returns_self(nb::overload_cast<V, V, V, V, V, V, E, E, E, TailStrategy, DeviceAPI>(
                 &C::gpu_tile)),
             nb::arg("x"), nb::arg("y"), nb::arg("z"), nb::arg("tx"), nb::arg("ty"), nb::arg("tz"),
             nb::arg("x_size"), nb::arg("y_size"), nb::arg("z_size"), nb::arg("tail") = tail,
             nb::arg("device_api") = gpu)
        .def("hexagon", returns_self(&C::hexagon), nb::arg("x") = VarOrRVar(Var::outermost()));

    cls.def("allow_race_conditions", returns_self(&C::allow_race_conditions))
        .def("atomic", returns_self(&C::atomic), nb::arg("override_associativity_test") = false)
        .def("prefetch",
             returns_self(
                 nb::overload_cast<const Func &, V, V, Expr, PrefetchBoundStrategy>(&C::prefetch)),
             nb::arg("func"), nb::arg("at"), nb::arg("from"), nb::arg("offset") = Expr(1),
             nb::arg("strategy") = PrefetchBoundStrategy::GuardWithIf)
        .def("prefetch",
             returns_self(
                 nb::overload_cast<const OutputImageParam &, V, V, Expr, PrefetchBoundStrategy>(
                     &C::prefetch)),
             nb::arg("image"), nb::arg("at"), nb::arg("from"), nb::arg("offset") = Expr(1),
             nb::arg("strategy") = PrefetchBoundStrategy::GuardWithIf)
        .def("specialize", &C::specialize, nb::arg("condition"))
        .def("specialize_fail", &C::specialize_fail, nb::arg("message"))
        .def("compute_with",
             returns_self(nb::overload_cast<const Stage &, V, AlignList>(&C::compute_with)),
             nb::arg("stage"), nb::arg("var"), nb::arg("align"))
        .def("compute_with",
             returns_self(nb::overload_cast<const Stage &, V, LoopAlignStrategy>(&C::compute_with)),
             nb::arg("stage"), nb::arg("var"), nb::arg("align") = LoopAlignStrategy::Auto)
        .def("compute_with",
             returns_self(nb::overload_cast<LoopLevel, AlignList>(&C::compute_with)),
             nb::arg("loop_level"), nb::arg("align"))
        .def("compute_with",
             returns_self(nb::overload_cast<LoopLevel, LoopAlignStrategy>(&C::compute_with)),
             nb::arg("loop_level"), nb::arg("align") = LoopAlignStrategy::Auto);
}

/// The directives of Func alone: where it is computed and stored, its bounds and storage,
/// wrappers, memory, asynchrony and tracing.
void add_func_directives(nb::class_<Func> &func) {
    using F = const Func &;
    func.def("compute_root", returns_self(&Func::compute_root))
        .def("compute_inline", returns_self(&Func::compute_inline))
        .def("compute_at", returns_self(nb::overload_cast<F, const Var &>(&Func::compute_at)),
             nb::arg("f"), nb::arg("var"))
        .def("compute_at", returns_self(nb::overload_cast<F, const RVar &>(&Func::compute_at)),
             nb::arg("f"), nb::arg("rvar"))
        .def("compute_at", returns_self(nb::overload_cast<LoopLevel>(&Func::compute_at)),
             nb::arg("loop_level"))
        .def("store_root", returns_self(&Func::store_root))
        .def("store_at", returns_self(nb::overload_cast<F, const Var &>(&Func::store_at)),
             nb::arg("f"), nb::arg("var"))
        .def("store_at", returns_self(nb::overload_cast<F, const RVar &>(&Func::store_at)),
             nb::arg("f"), nb::arg("rvar"))
        .def("store_at", returns_self(nb::overload_cast<LoopLevel>(&Func::store_at)),
             nb::arg("loop_level"))
        .def("hoist_storage", returns_self(nb::overload_cast<F, const Var &>(&Func::hoist_storage)),
             nb::arg("f"), nb::arg("var"))
        .def("hoist_storage",
             returns_self(nb::overload_cast<F, const RVar &>(&Func::hoist_storage)), nb::arg("f"),
             nb::arg("rvar"))
        .def("hoist_storage", returns_self(nb::overload_cast<LoopLevel>(&Func::hoist_storage)),
             nb::arg("loop_level"))
        .def("hoist_storage_root", returns_self(&Func::hoist_storage_root))
        .def("unscheduled", returns_self(&Func::unscheduled));

    func.def("bound", returns_self(&Func::bound), nb::arg("var"), nb::arg("min"), nb::arg("extent"))
        .def("bound_extent", returns_self(&Func::bound_extent), nb::arg("var"), nb::arg("extent"))
        .def("set_estimate", returns_self(&Func::set_estimate), nb::arg("var"), nb::arg("min"),
             nb::arg("extent"))
        .def("set_estimates", returns_self(&Func::set_estimates), nb::arg("estimates"))
        .def("align_bounds", returns_self(&Func::align_bounds), nb::arg("var"), nb::arg("modulus"),
             nb::arg("remainder") = Expr(0))
        .def("align_extent", returns_self(&Func::align_extent), nb::arg("var"), nb::arg("modulus"))
        .def("bound_storage", returns_self(&Func::bound_storage), nb::arg("dim"), nb::arg("bound"))
        .def("align_storage", returns_self(&Func::align_storage), nb::arg("dim"),
             nb::arg("alignment"))
        .def("fold_storage", returns_self(&Func::fold_storage), nb::arg("dim"), nb::arg("extent"),
             nb::arg("fold_forward") = true)
        .def(
            "reorder_storage",
            [](nb::handle_t<Func> self, const nb::args &args) -> nb::typed<nb::object, Func> {
                std::vector<Var> dims;
                for (nb::handle h : varargs_items(args)) dims.push_back(nb::cast<Var>(h));
                nb::inst_ptr<Func>(self)->reorder_storage(dims);
                return nb::borrow(self);
            },
            "Store the dimensions in this order, innermost first: reorder_storage(x, y) or "
            "reorder_storage([x, y]).")
        .def("store_in", returns_self(&Func::store_in), nb::arg("memory_type"))
        .def(
            "store_in",
            [](nb::handle_t<Func> self, const Scratchpad &memory) -> nb::typed<nb::object, Func> {
                nb::inst_ptr<Func>(self)->store_in(memory);
                return nb::borrow(self);
            },
            nb::arg("scratchpad"), "Store this Func in a declared Scratchpad (Loom's extension).");

    // `in` is a Python keyword: Halide's bindings call it in_.
    func.def("in_", nb::overload_cast<F>(&Func::in), nb::arg("f"))
        .def("in_", nb::overload_cast<const std::vector<Func> &>(&Func::in), nb::arg("fs"))
        .def("in_", nb::overload_cast<>(&Func::in))
        .def("clone_in", nb::overload_cast<F>(&Func::clone_in), nb::arg("f"))
        .def("clone_in", nb::overload_cast<const std::vector<Func> &>(&Func::clone_in),
             nb::arg("fs"))
        .def("copy_to_device", &Func::copy_to_device,
             nb::arg("device_api") = DeviceAPI::Default_GPU)
        .def("copy_to_host", &Func::copy_to_host)
        .def("memoize", returns_self(&Func::memoize), nb::arg("eviction_key") = EvictionKey())
        // `async` is a Python keyword: Halide's bindings call it async_.
        .def("async_", returns_self(&Func::async))
        .def("ring_buffer", returns_self(&Func::ring_buffer), nb::arg("extent"))
        .def("trace_loads", returns_self(&Func::trace_loads))
        .def("trace_stores", returns_self(&Func::trace_stores))
        .def("trace_realizations", returns_self(&Func::trace_realizations))
        .def("add_trace_tag", returns_self(&Func::add_trace_tag), nb::arg("trace_tag"));
}

} // namespace

void define_func(nb::module_ &m) {
    // Registered first: default arguments of Func's methods below.
    nb::enum_<StmtOutputFormat>(m, "StmtOutputFormat", "compile_to_lowered_stmt's format.")
        .value("Text", StmtOutputFormat::Text)
        .value("HTML", StmtOutputFormat::HTML);
    nb::class_<EvictionKey>(m, "EvictionKey",
                            "A tag of a memoized Func's cache entries (Func.memoize).")
        .def(nb::init<const Expr &>(), nb::arg("expr") = Expr())
        .def("expr", &EvictionKey::expr);

    nb::class_<Stage> stage(m, "Stage", "One definition of a Func (pure or update), to schedule.");
    stage.def(nb::init_implicit<const Func &>(), nb::arg("func"))
        .def("name", &Stage::name)
        .def("dump_argument_list", &Stage::dump_argument_list)
        .def("stage_index", &Stage::stage_index)
        .def("__repr__", [](const Stage &s) { return "<loom.Stage '" + s.name() + "'>"; });

    nb::class_<FuncTupleElementRef> tuple_ref(m, "FuncTupleElementRef",
                                              "One element of a call to a Func of several "
                                              "outputs: f[x][i].");
    tuple_ref.def("index", &FuncTupleElementRef::index)
        .def("__repr__", [](const FuncTupleElementRef &r) {
            return "<loom.FuncTupleElementRef " + expr_repr(Expr(r)) + ">";
        });
    add_expr_operators(tuple_ref);
    nb::implicitly_convertible<FuncTupleElementRef, Expr>();

    nb::class_<FuncRef> ref(m, "FuncRef", "A call to a Func: f[x, y].");
    ref.def("size", &FuncRef::size)
        .def("__len__", &FuncRef::size)
        .def("__getitem__", &FuncRef::operator[], nb::arg("index"))
        .def("__repr__",
             [](const FuncRef &r) { return "<loom.FuncRef " + expr_repr(Expr(r)) + ">"; });
    add_expr_operators(ref);
    // `f[x] += v` runs __iadd__ (which defines the update) and then Func.__setitem__ with the
    // Stage it returns, which does nothing.
    ref.def("__iadd__",
            [](const FuncRef &r, nb::handle v) {
                return update(r, v, [](FuncRef &a, const auto &b) { return a += b; });
            })
        .def("__isub__",
             [](const FuncRef &r, nb::handle v) {
                 return update(r, v, [](FuncRef &a, const auto &b) { return a -= b; });
             })
        .def("__imul__",
             [](const FuncRef &r, nb::handle v) {
                 return update(r, v, [](FuncRef &a, const auto &b) { return a *= b; });
             })
        .def("__itruediv__", [](const FuncRef &r, nb::handle v) {
            return update(r, v, [](FuncRef &a, const auto &b) { return a /= b; });
        });
    nb::implicitly_convertible<FuncRef, Expr>();

    nb::class_<Func> func(m, "Func", "A pure function over an infinite integer domain.");
    func.def(nb::init<>())
        .def(nb::init<const std::string &>(), nb::arg("name"))
        .def(nb::init<const Type &, int, const std::string &>(), nb::arg("required_type"),
             nb::arg("required_dimensions"), nb::arg("name"))
        .def(nb::init<const std::vector<Type> &, int, const std::string &>(),
             nb::arg("required_types"), nb::arg("required_dimensions"), nb::arg("name"))
        .def(
            "__init__", [](Func *self, const Expr &e) { new (self) Func(e); }, nb::arg("expr"))
        .def(
            "__init__", [](Func *self, const Buffer<void> &b) { new (self) Func(b); },
            nb::arg("buffer"))
        .def(
            "__init__", [](Func *self, const ImageParam &p) { new (self) Func(p); },
            nb::arg("image_param"))
        .def("__getitem__", &func_ref, nb::arg("key"))
        .def("__setitem__",
             [](Func &f, nb::handle key, nb::handle value) {
                 // The Stage of an update operator, already defined by FuncRef.__iadd__ & co.
                 if (nb::isinstance<Stage>(value)) return;
                 assign(func_ref(f, key), value);
             })
        .def("__call__", [](const Func &f, nb::args args) { return func_ref(f, nb::tuple(args)); })
        .def("name", &Func::name)
        .def("defined", &Func::defined)
        .def("dimensions", &Func::dimensions)
        .def("args", &Func::args)
        .def("type", &Func::type)
        .def("types", &Func::types)
        .def("output_type", &Func::type)
        .def("output_types", &Func::types)
        .def("outputs", &Func::outputs)
        .def("value", &Func::value)
        .def("values", &Func::values)
        .def("num_update_definitions", &Func::num_update_definitions)
        .def("has_update_definition", &Func::has_update_definition)
        .def("update", &Func::update, nb::arg("idx") = 0)
        .def("update_args", &Func::update_args, nb::arg("idx") = 0)
        .def("update_value", &Func::update_value, nb::arg("idx") = 0)
        .def("update_values", &Func::update_values, nb::arg("idx") = 0)
        .def("rvars", &Func::rvars, nb::arg("idx") = 0)
        .def("is_extern", &Func::is_extern)
        .def("extern_function_name", &Func::extern_function_name)
        .def("define_extern",
             nb::overload_cast<const std::string &, const std::vector<ExternFuncArgument> &,
                               const std::vector<Type> &, const std::vector<Var> &, NameMangling,
                               DeviceAPI>(&Func::define_extern),
             nb::arg("function_name"), nb::arg("params"), nb::arg("types"), nb::arg("arguments"),
             nb::arg("mangling") = NameMangling::Default, nb::arg("device_api") = DeviceAPI::Host)
        .def("define_extern",
             nb::overload_cast<const std::string &, const std::vector<ExternFuncArgument> &, Type,
                               const std::vector<Var> &, NameMangling, DeviceAPI>(
                 &Func::define_extern),
             nb::arg("function_name"), nb::arg("params"), nb::arg("type"), nb::arg("arguments"),
             nb::arg("mangling") = NameMangling::Default, nb::arg("device_api") = DeviceAPI::Host)
        .def("define_extern",
             nb::overload_cast<const std::string &, const std::vector<ExternFuncArgument> &,
                               const std::vector<Type> &, int, NameMangling, DeviceAPI>(
                 &Func::define_extern),
             nb::arg("function_name"), nb::arg("params"), nb::arg("types"),
             nb::arg("dimensionality"), nb::arg("mangling") = NameMangling::Default,
             nb::arg("device_api") = DeviceAPI::Host)
        .def("define_extern",
             nb::overload_cast<const std::string &, const std::vector<ExternFuncArgument> &, Type,
                               int, NameMangling, DeviceAPI>(&Func::define_extern),
             nb::arg("function_name"), nb::arg("params"), nb::arg("type"),
             nb::arg("dimensionality"), nb::arg("mangling") = NameMangling::Default,
             nb::arg("device_api") = DeviceAPI::Host)
        .def("print_loop_nest", &Func::print_loop_nest)
        .def("infer_arguments", &Func::infer_arguments)
        .def("output_buffer", &Func::output_buffer)
        .def("output_buffers", &Func::output_buffers)
        .def(
            "compile_to_module",
            [](Func &f, const std::vector<Argument> &args, const std::string &fn_name,
               const std::optional<Target> &target) {
                Target t = target ? *target : get_target_from_environment();
                nb::gil_scoped_release release;
                return f.compile_to_module(args, fn_name, t);
            },
            nb::arg("arguments"), nb::arg("fn_name") = "", nb::arg("target") = nb::none())
        .def("__repr__", [](const Func &f) { return "<loom.Func '" + f.name() + "'>"; });
    add_realize_methods(func);
    add_compile_methods(func);
    add_loop_directives(func);
    add_loop_directives(stage);
    add_func_directives(func);
    stage.def("unscheduled", &Stage::unscheduled)
        .def("rfactor",
             nb::overload_cast<const std::vector<std::pair<RVar, Var>> &>(&Stage::rfactor),
             nb::arg("preserved"))
        .def("rfactor", nb::overload_cast<const RVar &, const Var &>(&Stage::rfactor), nb::arg("r"),
             nb::arg("v"));
    // An ImageParam stands for its Func wherever one is expected, as in C++.
    nb::implicitly_convertible<ImageParam, Func>();
}

} // namespace python
} // namespace loom
