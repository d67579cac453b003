#ifndef LOOM_ANALYSIS_BOUNDS_H
#define LOOM_ANALYSIS_BOUNDS_H

/// \file Bounds inference by interval arithmetic: the range of values an Expr takes given the
/// ranges of its free variables, and the region of each Func or buffer a Stmt reads or writes.
/// Lowering's bounds inference (src/lower/bounds_inference.cpp) is built on these. Examples are
/// in tests/unit/analysis/bounds_test.cpp.
///
///   bounds_of_expr_in_scope(x*2 + 1, {x: [0, 9]})                  == [1, 19]
///   bounds_of_expr_in_scope(clamp(g(x), 0, 99), {})                == [0, 99]
///   boxes_required(for y in [0,10): for x in [0,20): out(x,y) = f(x-1,y) + f(x+1,y))["f"]
///                                                                  == {[-1, 20], [0, 9]}

#include "analysis/interval.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// Known bounds of named variables (loop variables, parameters, let-bound names).
using Scope = std::map<std::string, Interval>;
/// One Interval per dimension of a Func or buffer.
using Box = std::vector<Interval>;

/// Bounds of the values Funcs compute, keyed by (Func name, Tuple element): what a call
/// f(...) can return. Lowering fills it from the Funcs' definitions (func_value_bounds in
/// src/lower/bounds_inference.h), so out(x) = in(idx(x)) with idx(x) = clamp(x * 3, 0, 10)
/// reads in over [0, 10]. Calls to Funcs without an entry are bounded by their type only.
using FuncValueBounds = std::map<std::pair<std::string, int>, Interval>;

/// The interval of values of e, given the bounds of its free variables in scope. Works for Int,
/// UInt, Float and Bool expressions, scalar or vector (lanes are folded into one scalar
/// interval of e's element type). Variables not in scope are their own bounds [v, v]. Values the
/// analysis cannot bound get their type's range for narrow and unsigned types (uint8 data in
/// [0, 255]) and no bound for Int(32), Int(64) and floats; calls to Funcs also get what
/// `func_bounds` (when given) says of them. The result is simplified.
Interval bounds_of_expr_in_scope(const Expr &e, const Scope &scope = Scope(),
                                 const FuncValueBounds *func_bounds = nullptr);

/// scope with the variables that `cond` compares against a bound narrowed to where `cond` has
/// the given value: for an Int scope variable x in [0, 99], (x < 10, true) gives [0, 9] and
/// (x < 10, false) gives [10, 99]. Handles <, <=, >, >=, == with a variable on either side,
/// !, && (true), || (false) and likely(). Under a likely() condition a symbolic bound that may
/// or may not win is kept as min(likely(old), new) (max for a lower bound), the form
/// partition_loops finds steady states by (a GuardWithIf tile's region). Other conditions
/// leave the scope unchanged.
Scope scope_with_condition(const Scope &scope, const Expr &cond, bool value);

/// The range of values of type t: [t.min, t.max] for integers narrower than 32 bits and every
/// unsigned type, UInt(32) and UInt(64) included (Bool is [false, true]). Int(32), Int(64), floats
/// and handles are everything(): Loom assumes no overflow in their arithmetic, so their range
/// gives no useful bound.
Interval bounds_of_type(Type t);

/// The region of each Func (Call::Halide) and input buffer (Call::Image) read by e or s, keyed by
/// the Call's name. Loops inside s widen the box by their variable's range, Let/LetStmt values
/// are tracked, and the branches of IfThenElse/Select are unioned (their conditions are used to
/// narrow a loop variable's range when they compare it with a bound, e.g. `if (x < 10)`).
/// Every function here takes an optional FuncValueBounds for the coordinates read from Funcs.
std::map<std::string, Box> boxes_required(const Expr &e, const Scope &scope = Scope(),
                                          const FuncValueBounds *func_bounds = nullptr);
std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &scope = Scope(),
                                          const FuncValueBounds *func_bounds = nullptr);
/// The region of each Func written by a Provide in s, keyed by the Provide's name.
std::map<std::string, Box> boxes_provided(const Stmt &s, const Scope &scope = Scope(),
                                          const FuncValueBounds *func_bounds = nullptr);
/// Both: the union of what is read and written, per name.
std::map<std::string, Box> boxes_touched(const Stmt &s, const Scope &scope = Scope(),
                                         const FuncValueBounds *func_bounds = nullptr);
/// The boxes of `names` only, read or written by s (keyed as boxes_touched; a name s does not
/// touch has no entry): one walk of the statements touching them, bounding only the lets and
/// loops their coordinates depend on, where boxes_touched(s) bounds every access's.
std::map<std::string, Box> boxes_touched_of(const Stmt &s, const std::set<std::string> &names,
                                            const Scope &scope = Scope(),
                                            const FuncValueBounds *func_bounds = nullptr);
/// The region of `name` read by s (an empty Box when s does not read it).
Box box_required(const Stmt &s, const std::string &name, const Scope &scope = Scope(),
                 const FuncValueBounds *func_bounds = nullptr);
/// box_required with the branches of every Select unioned without narrowing by its condition:
/// the region s may load of `name`, both sides of a Select being evaluated (a Func's storage
/// must cover it, as Halide's realizations do, even where only the narrowed region is computed).
Box box_loaded(const Stmt &s, const std::string &name, const Scope &scope = Scope(),
               const FuncValueBounds *func_bounds = nullptr);
/// box_loaded of each of `names` (keyed as boxes_touched_of).
std::map<std::string, Box> boxes_loaded_of(const Stmt &s, const std::set<std::string> &names,
                                           const Scope &scope = Scope(),
                                           const FuncValueBounds *func_bounds = nullptr);
/// The region of `name` written by s (an empty Box when s does not write it).
Box box_provided(const Stmt &s, const std::string &name, const Scope &scope = Scope(),
                 const FuncValueBounds *func_bounds = nullptr);
/// The region of `name` read or written by s (an empty Box when s does not touch it).
Box box_touched(const Stmt &s, const std::string &name, const Scope &scope = Scope(),
                const FuncValueBounds *func_bounds = nullptr);

/// The per-dimension union of two boxes. An empty Box is the identity; otherwise both must have
/// the same number of dimensions.
Box box_union(const Box &a, const Box &b);
/// The per-dimension intersection of two boxes of the same dimensionality.
Box box_intersection(const Box &a, const Box &b);
/// Whether every dimension of b is bounded on both sides.
bool box_is_bounded(const Box &b);

/// Prints "{[min0, max0], [min1, max1]}".
std::ostream &operator<<(std::ostream &os, const Box &b);

} // namespace internal
} // namespace loom

#endif
