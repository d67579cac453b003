#ifndef LOOM_LOWER_CHECK_DEVICE_APIS_H
#define LOOM_LOWER_CHECK_DEVICE_APIS_H

/// \file Refuses schedules that place loops or copies on a device the pipeline cannot use, before
/// any lowering: GPU loops (gpu_blocks, gpu_threads, gpu_lanes, gpu_tile, gpu_single_thread),
/// hexagon() and copy_to_device(). A device the target has no feature for is Halide's error
/// ("Schedule for Func f requires <Default_GPU> but no compatible target feature is enabled in
/// target ..."); a device the target enables is refused too, since Loom generates code for CPUs
/// only so far. Programs that schedule GPU loops only when `target.has_gpu_feature()` therefore
/// build and run on CPU targets. Tests: tests/compat/halide_device_api.cpp.

#include "lang/function.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

/// CompileError for the first Func in env scheduled on a device `target` cannot compile for.
void check_device_apis(const std::map<std::string, Function> &env, const Target &target);

} // namespace internal
} // namespace loom

#endif
