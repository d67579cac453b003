#include "lower/check_device_apis.h"

#include "ir/ir_printer.h"
#include "support/error.h"

namespace loom {
namespace internal {

namespace {

/// The device a loop of this kind and API runs on: a GPU loop without an explicit API runs on
/// the default GPU; None when the loop runs where its enclosing code does.
DeviceAPI loop_device(const Dim &d) {
    bool gpu = d.for_type == ForType::GPUBlock || d.for_type == ForType::GPUThread ||
               d.for_type == ForType::GPULane;
    if (d.device_api == DeviceAPI::None && gpu) return DeviceAPI::Default_GPU;
    return d.device_api;
}

void check_device(const std::string &func, DeviceAPI d, const Target &target) {
    if (d == DeviceAPI::None || d == DeviceAPI::Host) return;
    user_assert(target.supports_device_api(d))
        << "Schedule for Func " << func << " requires <" << d
        << "> but no compatible target feature is enabled in target " << target.to_string() << "\n";
    DeviceAPI api = d == DeviceAPI::Default_GPU ? get_default_device_api_for_target(target) : d;
    user_assert(api == DeviceAPI::CUDA || api == DeviceAPI::OpenCL)
        << "Schedule for Func " << func << " places it on <" << api << ">, which target "
        << target.to_string()
        << " enables, but Loom generates GPU code for CUDA and OpenCL only. Compile for a target "
           "with the cuda or opencl feature instead.\n";
}

void check_definition(const std::string &func, const Definition &def, const Target &target) {
    for (const Dim &d : def.schedule.dims) check_device(func, loop_device(d), target);
    for (const Specialization &s : def.specializations) {
        check_definition(func, s.definition, target);
    }
}

} // namespace

void check_device_apis(const std::map<std::string, Function> &env, const Target &target) {
    for (const auto &[name, f] : env) {
        check_device(name, f.schedule().device_copy, target);
        if (!f.has_pure_definition()) continue;
        check_definition(name, f.definition(), target);
        for (const Definition &u : f.updates()) check_definition(name, u, target);
    }
}

} // namespace internal
} // namespace loom
