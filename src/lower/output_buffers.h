#ifndef LOOM_LOWER_OUTPUT_BUFFERS_H
#define LOOM_LOWER_OUTPUT_BUFFERS_H

/// \file The output buffers of a Func: their argument names in compiled code and the Parameter
/// behind Func::output_buffer(s) (which carries user constraints such as set_min/set_stride).

#include "lang/function.h"

#include <string>

namespace loom {
namespace internal {

/// "f" for a single-valued Func, "f.<i>" for element i of a Tuple-valued one.
std::string output_buffer_name(const Function &f, int i);

/// The buffer Parameter of output i of f, made on first request (Func::output_buffer()).
Parameter output_buffer_parameter(const Function &f, int i);

/// The Parameter of output i of f if output_buffer_parameter was ever called for it, else an
/// undefined Parameter. Lowering checks its constraints.
Parameter find_output_buffer_parameter(const Function &f, int i);

} // namespace internal
} // namespace loom

#endif
