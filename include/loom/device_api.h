#ifndef LOOM_DEVICE_API_H
#define LOOM_DEVICE_API_H

/// \file DeviceAPI: where a loop or an extern stage runs (Halide's DeviceAPI). Loom compiles for
/// the host CPU; the GPU values are declared so Halide programs that mention them compile, and
/// using them is a CompileError. Numbered as Halide's.

#include <cstdint>

namespace loom {

/// The device a loop or an extern stage runs on.
enum class DeviceAPI : uint8_t {
    None, ///< inherit from the enclosing code (the host at the top level)
    Host, ///< the CPU
    Default_GPU,
    CUDA,
    OpenCL,
    Metal,
    Hexagon,
    HexagonDma,
    D3D12Compute,
    Vulkan,
    WebGPU
};

} // namespace loom

#endif
