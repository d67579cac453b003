#ifndef LOOM_LANG_WRAPPERS_H
#define LOOM_LANG_WRAPPERS_H

/// \file Wrappers (Func::in, Func::clone_in, ImageParam::in): the directives record a wrapper
/// Func in the wrapped Func's FuncSchedule::wrappers (or, for an input, in a table keyed by its
/// Parameter); lowering substitutes the calls. The user's definitions are never changed: the
/// substitution works on copies of the pipeline's Functions (same names), made only when some
/// Func of the pipeline has a wrapper.

#include "ir/parameter.h"
#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The pipeline `outputs` with every call replaced by its wrapper where one applies: a call
/// from g to f goes to f's wrapper for g (f.in(g), f.clone_in(g)), else to f's global wrapper
/// (f.in()), except inside f's own wrappers; reads of an input likewise. `env` receives every
/// Function reachable from the returned outputs. When nothing is wrapped, the outputs are
/// returned as they are and env is find_transitive_calls(outputs).
std::vector<Function> substitute_wrappers(const std::vector<Function> &outputs,
                                          std::map<std::string, Function> *env);

/// The wrappers of the input `p` (ImageParam::in), for find_transitive_calls (so the pipeline
/// notices when they are rescheduled).
std::vector<Function> parameter_wrappers(const Parameter &p);

/// The wrappers of the input `p` by key (the calling Func's name, "" for every caller), for
/// serialization.
std::map<std::string, Function> parameter_wrapper_map(const Parameter &p);

/// Records `w` as the wrapper of the input `p` for `key`, unless `p` has one there already (a
/// deserialized pipeline whose input is bound to the caller's ImageParam then uses the
/// caller's wrapper, which reads the same input).
void add_parameter_wrapper(const Parameter &p, const std::string &key, const Function &w);

} // namespace internal
} // namespace loom

#endif
