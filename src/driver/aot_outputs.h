#ifndef LOOM_DRIVER_AOT_OUTPUTS_H
#define LOOM_DRIVER_AOT_OUTPUTS_H

/// \file Helpers of ahead-of-time compilation shared by Module (module.cpp) and the
/// Pipeline/Func compile_to_* members (pipeline_aot.cpp, func_aot.cpp).

#include <loom/argument.h>
#include <loom/module.h>
#include <loom/target.h>

#include "lang/function.h"
#include "lower/add_image_checks.h"
#include "lower/lowered_func.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Lowers the pipeline computing `outputs` as the function `fn_name` (a C identifier) and
/// matches its parameters to `args`, the user's argument list: the public function takes the
/// user's arguments in their order, then the outputs. Arguments the pipeline does not use are
/// allowed; a parameter it uses that `args` lacks is a CompileError ("Generated code refers to
/// parameter p, which was not found in the argument list."), except a Buffer used directly in
/// the algorithm, whose contents are compiled in. A listed argument whose kind, type or
/// dimensions differ from the pipeline's parameter of that name is a CompileError too.
Module make_aot_module(const std::vector<Function> &outputs,
                       const std::vector<Requirement> &requirements,
                       const std::vector<Argument> &args, const std::string &fn_name,
                       const Target &target, LinkageType linkage);

/// The lowered statement as compile_to_lowered_stmt writes it: a comment with the function
/// and its arguments, then the body; with `html`, the page of stmt_html.h (`env`, the
/// pipeline's Funcs, names the directives behind the loops).
std::string lowered_stmt_text(const LoweredFunc &f, bool html,
                              const std::map<std::string, Function> &env = {});

/// An archive with a symbol table holding one member, `object`, named `member`, in the format of
/// the target's OS (GNU for Linux, BSD/Darwin for macOS and iOS, COFF for Windows).
std::string static_library_bytes(const std::string &member, const std::string &object,
                                 const Target &target);

} // namespace internal
} // namespace loom

#endif
