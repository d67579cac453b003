#ifndef LOOM_LANG_EXTERN_DEFINITION_H
#define LOOM_LANG_EXTERN_DEFINITION_H

/// \file The placeholder pure definition of an extern stage, and the names it shares with the
/// lowering of extern stages (src/lower/extern_stages.h).
///
/// define_extern gives f(_0, ..., _n) the placeholder value
///   loom_extern_stage(g(f.extern.a0.min.0, ...), g(f.extern.a0.max.0, ...), p, in.buffer)
/// (an impure intrinsic of f's type): for each Func argument i, a call at the lower and at the
/// upper corner of the region the extern asks for, given by the free variables
/// "<f>.extern.a<i>.min.<d>" / ".max.<d>"; Expr arguments as they are; buffer arguments as
/// their handles. So the call graph, the
/// realization order, the argument inference and bounds inference see f's inputs and the
/// region of each one that f reads, in terms of the bounds-query results; the lowering defines
/// those variables and replaces the placeholder by the call.

#include "lang/function.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The intrinsic of the placeholder value.
constexpr const char *extern_stage_marker = "loom_extern_stage";

/// "<f>.extern.a<arg>.min.<d>" (or ".max.<d>"): the bounds-query result for argument `arg`.
std::string extern_query_bound(const std::string &f, int arg, bool is_max, int d);

/// The Parameter of a buffer argument (BufferArg / ImageParamArg).
Parameter extern_buffer_parameter(const ExternFuncArgument &a);
/// The Variable "<name>.buffer" (Handle, carrying the Parameter) of a buffer argument: buffers
/// are passed to the extern as they are, in the bounds query too (as in Halide: the query
/// learns nothing about them, except from a bounds-query buffer the pipeline was given).
Expr extern_buffer_handle(const ExternFuncArgument &a);

/// The placeholder values of extern Function f (one per output type).
std::vector<Expr> extern_placeholder_values(const Function &f);

/// The reads of the Func arguments of extern f at the corners of the queried regions.
std::vector<Expr> extern_region_reads(const Function &f);

} // namespace internal
} // namespace loom

#endif
