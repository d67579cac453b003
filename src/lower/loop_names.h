#ifndef LOOM_LOWER_LOOP_NAMES_H
#define LOOM_LOWER_LOOP_NAMES_H

/// \file The names of the loops and bound variables lowering makes: the one owner of the scheme.
///
///  - stage k of Func f (0: the pure definition, k: update k - 1) has the prefix "f.s<k>.";
///  - its loop over the schedule dim v (a Var, an RVar or a split/fuse product such as "x.xo")
///    is the For "f.s<k>.v", its root the For "f.s<k>.__outermost" (extent 1);
///  - a loop shared by stages computed with each other (compute_with) is named after the stage
///    that owns it with "fused." before its last component ("f.s0.fused.y", "f.s0.x.fused.xo");
///  - bounds: "<loop>.loop_min" / ".loop_max" / ".loop_extent" (build_provide_loop_nest),
///    "f.s<k>.v.min" / ".max" (bounds_inference), "f.v.min_realized" / ".extent_realized".
/// Messages show a loop as the user wrote it: describe_loop("f.s0.x.xi") is "x.xi of f".
/// Tests: tests/unit/lower/loop_names_test.cpp.

#include "lang/fusion.h"

#include <string>

namespace loom {
namespace internal {

/// "<f>.s<stage>." — the prefix of stage `stage`'s loop and bound variables.
std::string stage_prefix(const std::string &func, int stage);

/// The For at the root of a stage's loop nest: "<f>.s<stage>.__outermost".
std::string outermost_loop_name(const std::string &func, int stage);

/// A stage loop's name taken apart. `stage` is -1 when the name is not "<f>.s<k>.<var>".
struct LoopName {
    std::string func;
    int stage = -1;
    std::string var; ///< "x", "x.xo", "fused.y", "__outermost", ...
    bool valid() const { return stage >= 0; }
};

/// Splits `name` at its first ".s<digits>.".
LoopName parse_loop_name(const std::string &name);

/// "x.xi of f" for "f.s0.x.xi", for messages; other names as they are.
std::string describe_loop(const std::string &name);

/// "g, y" for the loop "g.s0.y" ("g, Var::outermost()" for its root), the arguments of the
/// compute_at / store_at that names it, for messages.
std::string loop_level_text(const std::string &name);

/// The name of a loop shared by stages computed with each other: "fused." before the last
/// component of the owner's loop ("f.s0." + "y" -> "f.s0.fused.y", "x.xo" -> "f.s0.x.fused.xo").
std::string fused_loop_name(const std::string &prefix, const std::string &loop);

/// The name of the For that runs loop `dim` (an index into the stage's dims) of stage `stage` of
/// f: "<prefix><var>" unless that loop is shared with stages computed with it (then its fused
/// name; the __outermost of a stage computed with another is that of the root of its tree).
std::string stage_loop_name(const Fusion &fusion, const Function &f, int stage, int dim);

} // namespace internal
} // namespace loom

#endif
