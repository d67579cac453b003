#ifndef LOOM_IR_OPERATOR_H
#define LOOM_IR_OPERATOR_H

/// \file The operators and free functions that build expressions (Halide's IROperator.h).
///
/// Operand coercion follows Halide's `match_types`:
/// - An int literal takes the other operand's type; it is an error when that type cannot
///   represent the literal (`u8 + 300`, `u8 + (-1)`; cast the Expr to a wider type first).
/// - A float literal (or double literal) takes the other operand's type when that is a 32- or
///   64-bit float; an integer or 16-bit float operand is then cast to float32 (`u8 * 0.5f` and
///   `f16 * 0.5f` are float32: Halide makes the literal a float32 Expr).
/// - Two Exprs of different types: a scalar is broadcast to the other's lanes; if one is a
///   float, the other is cast to it (the wider float wins; float16 with bfloat16 gives the
///   second operand's type); two uints give the wider uint;
///   otherwise (int with int or uint, including bool) both become an int of the wider width
///   (`u8 + i8` is int8, `u32 + i16` is int32, `bool + i32` is int32).
/// - Handles and undefined Exprs are errors.
/// No operator simplifies: `x + 1` builds Add(x, 1). The only folding is Halide's: `&&`/`||`
/// with a C++ bool, casts and negation of constants.

#include <loom/expr.h>

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {

// ---- Arithmetic ----
/// Sum, difference, product. Integer overflow wraps for every type but int32, whose overflow
/// the compiler may assume does not happen.
Expr operator+(Expr a, Expr b);
Expr operator+(Expr a, int b);
Expr operator+(int a, Expr b);
Expr operator+(Expr a, float b);
Expr operator+(float a, Expr b);
Expr operator+(Expr a, double b);
Expr operator+(double a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator-(Expr a, int b);
Expr operator-(int a, Expr b);
Expr operator-(Expr a, float b);
Expr operator-(float a, Expr b);
Expr operator-(Expr a, double b);
Expr operator-(double a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator*(Expr a, int b);
Expr operator*(int a, Expr b);
Expr operator*(Expr a, float b);
Expr operator*(float a, Expr b);
Expr operator*(Expr a, double b);
Expr operator*(double a, Expr b);
/// Quotient. On integers it rounds toward negative infinity for a positive divisor (Euclidean
/// division: the remainder is never negative); division by zero gives zero.
Expr operator/(Expr a, Expr b);
Expr operator/(Expr a, int b);
Expr operator/(int a, Expr b);
Expr operator/(Expr a, float b);
Expr operator/(float a, Expr b);
Expr operator/(Expr a, double b);
Expr operator/(double a, Expr b);
/// Euclidean remainder: never negative for integers; modulo zero gives zero. On floats,
/// a - b * floor(a / b).
Expr operator%(Expr a, Expr b);
Expr operator%(Expr a, int b);
Expr operator%(int a, Expr b);
Expr operator%(Expr a, float b);
Expr operator%(float a, Expr b);
Expr operator%(Expr a, double b);
Expr operator%(double a, Expr b);
/// Negation (0 - a); a constant operand is negated directly.
Expr operator-(Expr a);

/// Compound assignment: the right side is cast to the left side's type (no widening).
Expr &operator+=(Expr &a, Expr b);
Expr &operator-=(Expr &a, Expr b);
Expr &operator*=(Expr &a, Expr b);
Expr &operator/=(Expr &a, Expr b);

// ---- Comparisons (Bool result with the operands' lanes) ----
#define LOOM_DECLARE_CMP(op)                                                                       \
    Expr operator op(Expr a, Expr b);                                                              \
    Expr operator op(Expr a, int b);                                                               \
    Expr operator op(int a, Expr b);                                                               \
    Expr operator op(Expr a, float b);                                                             \
    Expr operator op(float a, Expr b);                                                             \
    Expr operator op(Expr a, double b);                                                            \
    Expr operator op(double a, Expr b);
/// Comparisons; operands are matched like arithmetic operands.
LOOM_DECLARE_CMP(<)
LOOM_DECLARE_CMP(<=)
LOOM_DECLARE_CMP(>)
LOOM_DECLARE_CMP(>=)
LOOM_DECLARE_CMP(==)
LOOM_DECLARE_CMP(!=)
#undef LOOM_DECLARE_CMP

// ---- Logic (Bool operands) ----
/// Logical and/or of Bool Exprs; with a C++ bool the result folds (`a && true` is `a`).
Expr operator&&(Expr a, Expr b);
Expr operator&&(Expr a, bool b);
Expr operator&&(bool a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator||(Expr a, bool b);
Expr operator||(bool a, Expr b);
/// Logical not of a Bool Expr.
Expr operator!(Expr a);

// ---- Bitwise (integer or bool operands) ----
/// Bitwise and/or/xor. Both operands must be signed or both unsigned (a CompileError
/// otherwise, as in Halide); of different widths, the narrower is cast to the wider type. An
/// int literal takes the other operand's type (it must fit).
Expr operator&(Expr a, Expr b);
Expr operator&(Expr a, int b);
Expr operator&(int a, Expr b);
Expr operator|(Expr a, Expr b);
Expr operator|(Expr a, int b);
Expr operator|(int a, Expr b);
Expr operator^(Expr a, Expr b);
Expr operator^(Expr a, int b);
Expr operator^(int a, Expr b);
/// Bitwise complement.
Expr operator~(Expr a);
/// Shifts. The result has the first operand's type, widened to the amount's width when that is
/// wider (u8 << i16 is uint16, as in Halide); the amount is converted to that width keeping its
/// signedness, and a negative signed amount shifts the other way.
/// Right shifts of signed values are arithmetic.
Expr operator<<(Expr a, Expr b);
Expr operator<<(Expr a, int b);
Expr operator<<(int a, Expr b);
Expr operator>>(Expr a, Expr b);
Expr operator>>(Expr a, int b);
Expr operator>>(int a, Expr b);

// ---- Conversions ----
/// Value conversion to `t` (a scalar `t` adopts a vector operand's lanes; a scalar operand
/// is broadcast to a vector `t`). Constants are converted directly.
Expr cast(Type t, Expr a);
/// Value conversion to the Loom type of T.
template <typename T>
Expr cast(Expr a) {
    return cast(type_of<T>(), std::move(a));
}
/// Reinterpret the bits of `e` as type `t` (same total bit count).
Expr reinterpret(Type t, Expr e);
template <typename T>
Expr reinterpret(Expr e) {
    return reinterpret(type_of<T>(), std::move(e));
}
/// Conversion that clamps to the range of `t` instead of wrapping.
Expr saturating_cast(Type t, Expr e);
template <typename T>
Expr saturating_cast(Expr e) {
    return saturating_cast(type_of<T>(), std::move(e));
}

namespace internal {
/// True when every type in Ts converts to Expr.
template <typename... Ts>
struct all_convertible_to_expr : std::true_type {};
template <typename T, typename... Ts>
struct all_convertible_to_expr<T, Ts...>
    : std::integral_constant<bool, std::is_convertible<T, Expr>::value &&
                                       all_convertible_to_expr<Ts...>::value> {};
} // namespace internal

// ---- Selection ----
/// condition ? true_value : false_value, evaluating both. An int literal value takes the
/// other value's type; otherwise the types must match. A vector condition broadcasts scalar
/// values.
Expr select(Expr condition, Expr true_value, Expr false_value);
/// select(c1, v1, c2, v2, ..., default): the value of the first true condition.
template <typename... Args, typename = typename std::enable_if<
                                internal::all_convertible_to_expr<Args...>::value>::type>
Expr select(Expr c1, Expr v1, Expr c2, Expr v2, Args &&...rest) {
    return select(std::move(c1), std::move(v1),
                  select(std::move(c2), std::move(v2), std::forward<Args>(rest)...));
}
/// values[index]: select(index == 0, values[0], index == 1, values[1], ..., values.back()), so
/// an out-of-range index gives the last value.
Expr mux(const Expr &index, const std::vector<Expr> &values);
Expr mux(const Expr &index, std::initializer_list<Expr> values);

/// Several stores and loads at once in an update definition (Halide's scatter and gather):
/// f(x, scatter(3, 4)) = gather(1, 2) stores 1 at (x, 3) and 2 at (x, 4). Each is a vector of
/// its arguments (scalars of one type; integer constants take the others' type), and
/// operations on it distribute over the elements; every value is computed before any is
/// stored, and stores to the same place happen left to right (the last wins), so
/// f(scatter(3, 5)) = f(gather(5, 3)) swaps two elements.
Expr scatter(const std::vector<Expr> &args);
Expr gather(const std::vector<Expr> &args);
template <typename... Args>
Expr scatter(const Expr &e, const Args &...rest) {
    return scatter(std::vector<Expr>{e, Expr(rest)...});
}
template <typename... Args>
Expr gather(const Expr &e, const Args &...rest) {
    return gather(std::vector<Expr>{e, Expr(rest)...});
}

// ---- Min, max, clamp ----
/// Minimum / maximum, operands matched like arithmetic operands.
Expr min(Expr a, Expr b);
Expr min(Expr a, int b);
Expr min(int a, Expr b);
Expr min(Expr a, float b);
Expr min(float a, Expr b);
Expr min(Expr a, double b);
Expr min(double a, Expr b);
Expr max(Expr a, Expr b);
Expr max(Expr a, int b);
Expr max(int a, Expr b);
Expr max(Expr a, float b);
Expr max(float a, Expr b);
Expr max(Expr a, double b);
Expr max(double a, Expr b);
/// min/max of three or more values, left to right: min(min(a, b), c, ...).
template <typename A, typename B, typename C, typename... Rest,
          typename = typename std::enable_if<
              internal::all_convertible_to_expr<A, B, C, Rest...>::value>::type>
Expr min(A &&a, B &&b, C &&c, Rest &&...rest) {
    return min(min(std::forward<A>(a), std::forward<B>(b)), std::forward<C>(c),
               std::forward<Rest>(rest)...);
}
template <typename A, typename B, typename C, typename... Rest,
          typename = typename std::enable_if<
              internal::all_convertible_to_expr<A, B, C, Rest...>::value>::type>
Expr max(A &&a, B &&b, C &&c, Rest &&...rest) {
    return max(max(std::forward<A>(a), std::forward<B>(b)), std::forward<C>(c),
               std::forward<Rest>(rest)...);
}
/// max(min(a, max_val), min_val). The bounds are converted to a's type and must fit it
/// exactly (clamp(u8, 0, 300) is an error).
Expr clamp(Expr a, const Expr &min_val, const Expr &max_val);

// ---- Other arithmetic ----
/// Absolute value; for signed integers the result is the unsigned type of the same width (so
/// abs(INT_MIN) is exact). abs of an unsigned value is the value.
Expr abs(Expr a);
/// |a - b| computed without overflow; unsigned result for integers.
Expr absd(Expr a, Expr b);
/// zero_val * (1 - weight) + one_val * weight. An unsigned integer weight is scaled by its
/// type's maximum; float values need a float weight.
Expr lerp(Expr zero_val, Expr one_val, Expr weight);
/// Bit counts of an integer (result has the argument's type).
Expr popcount(Expr x);
Expr count_leading_zeros(Expr x);
Expr count_trailing_zeros(Expr x);
/// Integer division and modulo rounding toward zero (C semantics), instead of Euclidean.
Expr div_round_to_zero(Expr x, Expr y);
Expr mod_round_to_zero(Expr x, Expr y);
/// Integer add/subtract that clamp to the type's range instead of wrapping.
Expr saturating_add(Expr a, Expr b);
Expr saturating_sub(Expr a, Expr b);
/// Add/multiply into a type of twice the width, so the result cannot overflow.
Expr widening_add(Expr a, Expr b);
Expr widening_mul(Expr a, Expr b);
/// (a + b) / 2 and (a + b + 1) / 2 without overflow.
Expr halving_add(Expr a, Expr b);
Expr rounding_halving_add(Expr a, Expr b);
/// (a * b) >> q computed in double width, narrowed back to a's type with saturation.
Expr mul_shift_right(Expr a, Expr b, Expr q);

// ---- Hints ----
/// The expression's value, telling the compiler this branch is the likely one.
Expr likely(Expr e);
/// Like likely, but only for the innermost loop.
Expr likely_if_innermost(Expr e);
/// `value`, promising (without a check) that it lies in [min, max]; an undefined bound means
/// unbounded on that side.
Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max);
/// Evaluates `e` with strict IEEE float semantics: each float operation inside rounds as
/// written. Elsewhere the compiler may contract a * b + c into one fused multiply-add,
/// reassociate sums and products, multiply by a reciprocal and ignore the sign of zero (as
/// Halide does, except that NaN and infinity are not assumed away: is_nan and is_inf see the
/// true value). Target::StrictFloat makes the whole pipeline strict.
Expr strict_float(Expr e);
/// The user context pointer the pipeline was called with (a handle): the JITUserContext of a
/// JIT call, the __user_context argument of an AOT one (null without the user_context
/// feature). Mostly passed to extern functions.
Expr user_context_value();
/// An undefined value of type t: in an update definition, leaves the Func's value unchanged.
Expr undef(Type t);
template <typename T>
Expr undef() {
    return undef(type_of<T>());
}

// ---- Printing and checks ----
namespace internal {
/// One argument of print/require as an Expr: Exprs (and what converts to them), strings,
/// C++ numbers.
template <typename T>
Expr print_arg(T &&x) {
    using D = typename std::decay<T>::type;
    if constexpr (std::is_same<D, Expr>::value) {
        return x;
    } else if constexpr (std::is_convertible<D, const char *>::value) {
        return Expr(std::string((const char *)x));
    } else if constexpr (std::is_same<D, std::string>::value) {
        return Expr(x);
    } else if constexpr (std::is_same<D, bool>::value) {
        return cast(Bool(), Expr((int32_t)x));
    } else if constexpr (std::is_integral<D>::value) {
        if constexpr (std::is_signed<D>::value) {
            if constexpr (sizeof(D) <= 4)
                return Expr((int32_t)x);
            else
                return Expr((int64_t)x);
        } else {
            if constexpr (sizeof(D) <= 4)
                return Expr((uint32_t)x);
            else
                return Expr((uint64_t)x);
        }
    } else if constexpr (std::is_same<D, float>::value) {
        return Expr(x);
    } else if constexpr (std::is_floating_point<D>::value) {
        return Expr((double)x);
    } else {
        return Expr(std::forward<T>(x));
    }
}
inline void collect_print_args(std::vector<Expr> &) {}
template <typename T, typename... Rest>
void collect_print_args(std::vector<Expr> &out, T &&first, Rest &&...rest) {
    out.push_back(print_arg(std::forward<T>(first)));
    collect_print_args(out, std::forward<Rest>(rest)...);
}
template <typename T>
struct is_expr_vector : std::is_same<typename std::decay<T>::type, std::vector<Expr>> {};
} // namespace internal

/// Prints the arguments (separated by spaces, ending in a newline) when evaluated, and returns
/// the first argument.
Expr print(const std::vector<Expr> &args);
template <typename A, typename... Rest,
          typename = typename std::enable_if<!internal::is_expr_vector<A>::value>::type>
Expr print(A &&first, Rest &&...rest) {
    std::vector<Expr> args;
    internal::collect_print_args(args, std::forward<A>(first), std::forward<Rest>(rest)...);
    return print(args);
}
/// Like print, but prints only when `condition` is true.
Expr print_when(Expr condition, const std::vector<Expr> &args);
template <typename A, typename... Rest,
          typename = typename std::enable_if<!internal::is_expr_vector<A>::value>::type>
Expr print_when(Expr condition, A &&first, Rest &&...rest) {
    std::vector<Expr> args;
    internal::collect_print_args(args, std::forward<A>(first), std::forward<Rest>(rest)...);
    return print_when(std::move(condition), args);
}
/// `value` when `condition` holds; otherwise the pipeline fails with an error whose message
/// is the remaining arguments (args[0] is the value).
Expr require(Expr condition, const std::vector<Expr> &args);
template <typename... Rest>
Expr require(Expr condition, Expr value, Rest &&...message) {
    std::vector<Expr> args{std::move(value)};
    internal::collect_print_args(args, std::forward<Rest>(message)...);
    return require(std::move(condition), args);
}

// ---- Random numbers ----
/// A pseudo-random value that is a fixed function of the Func's coordinates (and the seed, an
/// Int(32), when given): uniform in [0, 1) for random_float; any 32-bit value for the others.
/// Each call makes a new, independent stream.
Expr random_float(Expr seed = Expr());
Expr random_uint(Expr seed = Expr());
Expr random_int(Expr seed = Expr());

// ---- Math (integer arguments are converted to float32; float64 stays float64) ----
/// Math functions. Each becomes a call to "<name>_f32" or "<name>_f64" (float16 arguments
/// are computed in float32 and converted back). pow with a constant integer exponent is a
/// product in x's own type instead (pow(x, 2) is x * x, an integer for an integer x).
Expr sqrt(Expr x);
Expr exp(Expr x);
Expr log(Expr x);
Expr pow(Expr x, Expr y);
Expr sin(Expr x);
Expr cos(Expr x);
Expr tan(Expr x);
Expr asin(Expr x);
Expr acos(Expr x);
Expr atan(Expr x);
Expr atan2(Expr y, Expr x);
Expr sinh(Expr x);
Expr cosh(Expr x);
Expr tanh(Expr x);
Expr asinh(Expr x);
Expr acosh(Expr x);
Expr atanh(Expr x);
Expr erf(Expr x);
Expr hypot(Expr x, Expr y);
/// Rounding to an integral float value; an integer argument is just converted to float32.
/// round() rounds halfway cases to even.
Expr floor(Expr x);
Expr ceil(Expr x);
Expr round(Expr x);
Expr trunc(Expr x);
/// Classification of float values (Bool result).
Expr is_nan(Expr x);
Expr is_inf(Expr x);
Expr is_finite(Expr x);
/// Fast approximations (float32 only); the back end may compute them exactly.
Expr fast_inverse(Expr x);
Expr fast_inverse_sqrt(Expr x);
Expr fast_pow(Expr x, Expr y);
Expr fast_exp(Expr x);
Expr fast_log(Expr x);
Expr fast_sin(Expr x);
Expr fast_cos(Expr x);

namespace internal {
/// Halide's operand coercion for arithmetic and comparisons (see the file comment).
void match_types(Expr &a, Expr &b);
/// The coercion of bitwise operators; `op_name` names the operator in errors.
void match_types_bitwise(Expr &a, Expr &b, const char *op_name);
/// Throws a CompileError unless `t` represents the integer literal `v` exactly.
void check_representable(Type t, int64_t v);
/// e^p by repeated squaring (1 / e^-p for negative p).
Expr raise_to_integer_power(Expr e, int64_t p);
} // namespace internal

} // namespace loom

#endif
