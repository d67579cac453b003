#ifndef LOOM_CODEGEN_C_C_OPS_H
#define LOOM_CODEGEN_C_C_OPS_H

/// \file The C back end's operations, as text: the C99 spelling of the IR's scalar semantics
/// (Euclidean division, wrapping narrow arithmetic, Halide's shifts, lerp, saturating and
/// widening intrinsics, ...) and the vector operations built on them.
///
/// Scalar values are C expressions of the element's C type (bool as `bool`). A helper that
/// would repeat an operand's text (min, division, shifts) is a `static inline` function,
/// defined once per module, so operands are evaluated once.
///
/// Vectors. A vector of N lanes of element type T has the C type `loom_<tag>`, tag = "v<N><t>"
/// with t one of i8 ... i64, u8 ... u64, f32, f64, b (bool lanes, stored as uint8_t 0 or 1).
/// The type comes from the SIMD mapping header chosen when the C is compiled
/// (src/codegen/c/simd/README.md): `LOOM_VECTOR_TYPE(tag, N, ctype)` defines it with
/// `loom_<tag>_load(const ctype *)` and `loom_<tag>_store(ctype *, loom_<tag>)` (unaligned,
/// dense; bool lanes through `LOOM_BOOL_VECTOR_TYPE(tag, N)`, whose registers may be wider than
/// their uint8_t storage), unless the header claims the type itself with `LOOM_HAVE_TYPE_<tag>`.
/// Types whose lane count is not a power of two are structs of lanes, defined here.
///
/// Every other vector operation is a function `loom_<result tag>_<op>[_<argument tags>]` whose
/// default definition, written here, runs the scalar semantics lane by lane through load and
/// store. A mapping header replaces one for all types with a macro `LOOM_OP_<op>` (given the
/// function's name, the result's type, lane C type and lanes, then each argument's type and lane
/// C type), or for one type by defining `LOOM_HAVE_<function name>` and the function. Results are
/// the same either way: the defaults define them.

#include "ir/ir.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The C type of a scalar of type t: int8_t ... uint64_t, float, double, bool, void *.
/// float16, bfloat16 and vectors are a CompileError (`what` names the value for the message).
std::string c_scalar_type(Type t, const std::string &what = "a value");
/// The C type t is stored as in memory: bool as uint8_t, otherwise c_scalar_type.
std::string c_storage_type(Type t, const std::string &what = "a value");
/// A C identifier made of s: letters, digits and '_' kept, anything else '_'.
std::string c_identifier_of(const std::string &s);
/// A C string literal holding s.
std::string c_string_literal(const std::string &s);

/// The definitions generated C needs before its functions, each once, in the order first
/// asked for (a definition's dependencies are always asked for before it).
class CDefinitions {
public:
    /// Adds `text` under `name` unless a definition of that name exists.
    void add(const std::string &name, const std::string &text);
    bool has(const std::string &name) const { return names_.count(name) != 0; }
    /// All definitions, in order.
    std::string text() const;

private:
    std::set<std::string> names_;
    std::vector<std::string> texts_;
};

/// Builders of C text for the IR's operations. One instance serves one module.
class COps {
public:
    explicit COps(CDefinitions &defs) : defs_(defs) {}

    // ---- Constants ----
    std::string int_literal(Type t, int64_t v) const;
    std::string uint_literal(Type t, uint64_t v) const;
    std::string float_literal(Type t, double v) const;

    // ---- Scalars (element types; operands are C expressions of c_scalar_type) ----
    /// a op b for op in + - *, with the IR's wrapping for narrow and 64-bit integers.
    std::string arith(char op, Type t, const std::string &a, const std::string &b);
    /// Euclidean (or, round_to_zero, C's) division and modulus; a zero divisor gives zero.
    std::string div(Type t, const std::string &a, const std::string &b, bool round_to_zero = false);
    std::string mod(Type t, const std::string &a, const std::string &b, bool round_to_zero = false);
    std::string min(Type t, const std::string &a, const std::string &b);
    std::string max(Type t, const std::string &a, const std::string &b);
    /// a op b for op in < <= > >= == !=: a bool.
    std::string compare(const std::string &op, Type t, const std::string &a, const std::string &b);
    std::string cast(Type from, Type to, const std::string &v);
    std::string reinterpret(Type from, Type to, const std::string &v);
    /// The intrinsics with scalar semantics (Call::abs, shift_left, lerp, saturating_add, ...)
    /// and the math functions ("sqrt_f32", ...); `types` are the arguments' types. Returns ""
    /// when `name` is neither.
    std::string call(const std::string &name, Type rt, const std::vector<Type> &types,
                     const std::vector<std::string> &args);

    // ---- Vectors ----
    /// The tag "v8f32" of vector type t.
    static std::string tag(Type t);
    /// The C type of vector type t (defined on first use).
    std::string vector_type(Type t);
    /// A call of the vector operation `op` of result type rt on `args` (of `types`, vectors or
    /// scalars), defining it on first use with a lane-by-lane default whose lane k computes
    /// `lane(scalar args)`, the arguments being lane k of each vector and the scalars as given.
    std::string vector_op(const std::string &op, Type rt, const std::vector<Type> &types,
                          const std::vector<std::string> &args,
                          const std::function<std::string(const std::vector<std::string> &)> &lane);
    /// The lane-wise vector form of a scalar operation `scalar(types, args)` (arith, call, ...).
    std::string
    lanewise(const std::string &op, Type rt, const std::vector<Type> &types,
             const std::vector<std::string> &args,
             const std::function<std::string(const std::vector<Type> &,
                                             const std::vector<std::string> &)> &scalar);
    /// Dense load and store of `lanes` elements at p (a pointer to the element's storage type).
    std::string load(Type t, const std::string &p);
    std::string store(Type t, const std::string &p, const std::string &v);
    /// Gather p[index[k]] (index an Int(32) or Int(64) vector) of the lanes where `mask` (empty:
    /// all) holds, zero elsewhere; scatter in lane order.
    std::string gather(Type t, const std::string &p, Type index_type, const std::string &index,
                       const std::string &mask = "");
    std::string scatter(Type t, const std::string &p, Type index_type, const std::string &index,
                        const std::string &v, const std::string &mask = "");
    std::string broadcast(Type t, const std::string &scalar);
    std::string ramp(Type t, const std::string &base, const std::string &stride);
    /// Lane i of v as a scalar; a vector from scalars.
    std::string extract(Type t, const std::string &v, int i);
    /// The reduction of each group of `value_type.lanes() / rt.lanes()` adjacent lanes.
    std::string reduce(const std::string &op, Type rt, Type value_type, const std::string &v);
    /// Lanes `indices` of the concatenation of `vectors` (of `types`).
    std::string shuffle(Type rt, const std::vector<Type> &types,
                        const std::vector<std::string> &vectors, const std::vector<int> &indices);

private:
    std::string helper(const std::string &name, const std::string &text);
    std::string div_mod_helper(bool is_mod, bool round_to_zero, Type t);
    std::string min_max_helper(bool is_min, Type t);
    std::string shift_helper(bool left, Type ta, Type tb);
    std::string lerp_helper(Type t, Type wt);
    std::string saturating_cast_helper(Type from, Type to);
    std::string saturating_add_sub_helper(bool add, Type t);
    std::string halving_helper(const std::string &name, Type t);
    std::string mul_shift_right_helper(bool rounding, Type rt, Type ta, Type tb, Type tq);
    std::string bit_count_helper(const std::string &name, Type t);
    std::string abs_helper(bool diff, Type t, Type rt);
    std::string math(const std::string &fn, Type rt, const std::vector<Type> &types,
                     const std::vector<std::string> &args);
    std::string intrinsic(const std::string &name, Type rt, const std::vector<Type> &types,
                          const std::vector<std::string> &args);

    CDefinitions &defs_;
};

} // namespace internal
} // namespace loom

#endif
