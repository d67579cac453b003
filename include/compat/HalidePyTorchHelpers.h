#ifndef LOOM_COMPAT_HALIDE_PYTORCH_HELPERS_H
#define LOOM_COMPAT_HALIDE_PYTORCH_HELPERS_H

/// \file PyTorch tensors as Runtime::Buffers, for the wrappers that
/// OutputFileType::pytorch_wrapper writes (and for hand-written extensions): Halide 21's
/// HalidePyTorchHelpers.h names. Needs ATen (a C++ extension's include path); libloom is not
/// involved.
///
///     at::Tensor t = torch::rand({3, 480, 640});         // c, y, x
///     Halide::Runtime::Buffer<float> b = Halide::PyTorch::wrap<float>(t);
///     // b.dim(0) is x (640), b.dim(2) is c (3): PyTorch's last dimension is the first.

#include <ATen/ATen.h>

#include "HalideBuffer.h"

#include <cstdint>
#include <vector>

/// Halide's checks, as c10::Errors naming the tensor.
#define HLPT_CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")
#define HLPT_CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
#define HLPT_CHECK_DEVICE(x, dev)                                                                  \
    TORCH_CHECK((x).is_cuda() && (x).get_device() == (dev),                                        \
                #x " must be a CUDA tensor on device " #dev)

namespace Halide {
namespace PyTorch {

/// The tensor's sizes, last dimension first (the Buffer's dimension order).
inline std::vector<int> get_dims(const at::Tensor &tensor) {
    std::vector<int> dims;
    for (int i = (int)tensor.dim() - 1; i >= 0; i--) dims.push_back((int)tensor.size(i));
    return dims;
}

/// Checks that the tensor holds elements of C++ type T (a c10::Error naming it otherwise).
template <typename T>
inline void check_type(const at::Tensor &tensor, const char *name = "tensor") {
    const at::ScalarType want = c10::CppTypeToScalarType<T>::value;
    TORCH_CHECK(tensor.scalar_type() == want, name, " has dtype ", tensor.scalar_type(),
                ", but the pipeline takes ", want);
}

/// A Buffer over the tensor's memory (no copy; the tensor must outlive it), its dimensions in
/// reverse order with the tensor's strides, so views (transposes, slices) pass as they are. The
/// tensor must be on the CPU and hold T.
template <typename T>
inline Runtime::Buffer<T> wrap(at::Tensor &tensor, const char *name = "tensor") {
    TORCH_CHECK(tensor.device().is_cpu(), name, " is on ", tensor.device(),
                "; Loom's PyTorch wrappers take CPU tensors");
    check_type<T>(tensor, name);
    const int d = (int)tensor.dim();
    std::vector<halide_dimension_t> shape(d);
    for (int i = 0; i < d; i++) {
        const int t = d - 1 - i;
        TORCH_CHECK(tensor.size(t) <= INT32_MAX && tensor.stride(t) <= INT32_MAX &&
                        tensor.stride(t) >= INT32_MIN,
                    name, ": dimension ", t, " is too large for a 32-bit buffer");
        shape[i] = halide_dimension_t(0, (int32_t)tensor.size(t), (int32_t)tensor.stride(t));
    }
    return Runtime::Buffer<T>(tensor.data_ptr<T>(), shape);
}

} // namespace PyTorch
} // namespace Halide

#endif
