#ifndef LOOM_DRIVER_AOT_HEADER_H
#define LOOM_DRIVER_AOT_HEADER_H

/// \file The C header of an ahead-of-time pipeline: valid C99 and C++, declaring the entry
/// points aot_llvm.h describes with Halide's argument names (`_input_buffer`, `_gain`).

#include "driver/module_contents.h"

#include <string>

namespace loom {
namespace internal {

/// The C name of argument a in generated prototypes: "_" + name (characters other than
/// letters, digits and '_' become '_'), plus "_buffer" for buffers.
std::string c_argument_name(const LoweredArgument &a);

/// The C type of a scalar argument ("float", "int32_t", "void *"; 16-bit floats as uint16_t).
std::string c_scalar_type(Type t);

/// The extern "C" declarations of m's entry points (the pipeline, its argv form and metadata
/// when m has them), with the attribute macros they use; needs halide_buffer_t declared.
std::string entry_point_declarations(const ModuleContents &m);

/// The header text for m; the include guard is derived from `file_name` (its last path
/// component), as Halide does: "dir/pipe.h" -> HALIDE__pipe_h.
std::string aot_header_text(const ModuleContents &m, const std::string &file_name);

} // namespace internal
} // namespace loom

#endif
