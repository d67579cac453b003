#ifndef LOOM_DRIVER_PYTORCH_WRAPPER_H
#define LOOM_DRIVER_PYTORCH_WRAPPER_H

/// \file OutputFileType::pytorch_wrapper: a C++ header for PyTorch extensions that declares an
/// ahead-of-time pipeline and defines `<name>_th_(at::Tensor &..., scalars...)`, which wraps
/// each tensor in a Runtime::Buffer without copying (HalidePyTorchHelpers.h) and calls the
/// pipeline, throwing a c10::Error when it fails. Shaped like Halide 21's, for CPU targets.

#include "driver/module_contents.h"

#include <string>

namespace loom {
namespace internal {

/// The wrapper's text for m. A CompileError when m targets a GPU or takes an argument whose
/// type has no PyTorch dtype.
std::string pytorch_wrapper_text(const ModuleContents &m);

} // namespace internal
} // namespace loom

#endif
