// Bindings of <loom/ir_operator.h> and <loom/integer_ops.h>: the free functions that build
// Exprs (math, select and mux, min/max/clamp, conversions, saturating and bit operations, print
// and require, random numbers), with the names and arguments of Halide's Python module.
//
// Every argument goes through to_expr, so Python numbers follow py_util.h's rules as in
// Halide's bindings: a number becomes an Expr before the C++ function sees it, so
// `hl.max(u8_expr, 1)` is int32 (while `u8_expr + 1`, an operator, stays uint8).
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// min(*args) / max(*args): folded from the right, as Halide's bindings do, so the printed
/// Expr matches (max(a, max(b, c))).
template <typename Op>
Expr fold_right(const nb::args &args, const char *name, Op op) {
    if (args.size() < 2) {
        throw nb::value_error((std::string(name) + "() must have at least 2 arguments").c_str());
    }
    size_t pos = args.size() - 1;
    Expr value = to_expr(args[pos]);
    while (pos-- > 0) value = op(to_expr(args[pos]), value);
    return value;
}

/// select(c0, v0, c1, v1, ..., default): an Expr, or a Python tuple of Exprs when the values
/// are Tuples (Python tuples or lists); each condition is then an Expr or a Tuple.
nb::object multiway_select(const nb::args &args) {
    size_t n = args.size();
    if (n < 3) throw nb::value_error("select() must have at least 3 arguments");
    if (n % 2 == 0) throw nb::value_error("select() must have an odd number of arguments");
    size_t pos = n - 1;
    if (is_tuple_like(args[pos])) {
        Tuple value = to_tuple(args[pos]);
        while (pos > 0) {
            Tuple true_value = to_tuple(args[pos - 1]);
            nb::handle condition = args[pos - 2];
            value = is_tuple_like(condition) ? select(to_tuple(condition), true_value, value)
                                             : select(to_expr(condition), true_value, value);
            pos -= 2;
        }
        return tuple_to_python(value);
    }
    Expr value = to_expr(args[pos]);
    while (pos > 0) {
        value = select(to_expr(args[pos - 2]), to_expr(args[pos - 1]), value);
        pos -= 2;
    }
    return nb::cast(value);
}

/// mux(index, values): an Expr for a list of Expr-likes or a Tuple; a Tuple for a list of
/// Tuples (element-wise), as in Halide's bindings.
nb::object multiplex(nb::handle index, nb::handle values) {
    Expr i = to_expr(index);
    if (nb::isinstance<Tuple>(values)) return nb::cast(mux(i, nb::cast<Tuple>(values)));
    std::vector<nb::handle> items;
    for (nb::handle h : values) items.push_back(h);
    if (!items.empty() && is_tuple_like(items[0])) {
        std::vector<Tuple> tuples;
        for (nb::handle h : items) tuples.push_back(to_tuple(h));
        return nb::cast(mux(i, tuples));
    }
    std::vector<Expr> exprs;
    for (nb::handle h : items) exprs.push_back(to_expr(h));
    return nb::cast(mux(i, exprs));
}

/// The arguments of print and require: a str is printed as it is, anything else is an Expr.
std::vector<Expr> print_args(const nb::args &args, size_t first = 0) {
    std::vector<Expr> out;
    for (size_t i = first; i < args.size(); i++) {
        if (nb::isinstance<nb::str>(args[i])) {
            out.push_back(Expr(nb::cast<std::string>(args[i])));
        } else {
            out.push_back(to_expr(args[i]));
        }
    }
    return out;
}

Expr optional_expr(nb::handle h) { return h.is_none() ? Expr() : to_expr(h); }

} // namespace

void define_ir_operator(nb::module_ &m) {
    // Functions of one, two and three Exprs, taking any Expr-like (Python numbers included).
#define LOOM_PY_UNARY(name, doc)                                                                   \
    m.def(                                                                                         \
        #name, [](nb::handle a) { return loom::name(to_expr(a)); }, doc);
#define LOOM_PY_BINARY(name, doc)                                                                  \
    m.def(                                                                                         \
        #name, [](nb::handle a, nb::handle b) { return loom::name(to_expr(a), to_expr(b)); },      \
        doc);
#define LOOM_PY_TERNARY(name, doc)                                                                 \
    m.def(                                                                                         \
        #name,                                                                                     \
        [](nb::handle a, nb::handle b, nb::handle c) {                                             \
            return loom::name(to_expr(a), to_expr(b), to_expr(c));                                 \
        },                                                                                         \
        doc);

    // Math: integer arguments are computed in float32, float64 stays float64.
    LOOM_PY_UNARY(sqrt, "Square root.")
    LOOM_PY_UNARY(exp, "e to the power x.")
    LOOM_PY_UNARY(log, "Natural logarithm.")
    LOOM_PY_BINARY(pow, "x to the power y (float; an integer x is converted to float32).")
    LOOM_PY_UNARY(sin, "Sine (radians).")
    LOOM_PY_UNARY(cos, "Cosine (radians).")
    LOOM_PY_UNARY(tan, "Tangent (radians).")
    LOOM_PY_UNARY(asin, "Arcsine.")
    LOOM_PY_UNARY(acos, "Arccosine.")
    LOOM_PY_UNARY(atan, "Arctangent.")
    LOOM_PY_BINARY(atan2, "The angle of the point (x, y): atan2(y, x).")
    LOOM_PY_UNARY(sinh, "Hyperbolic sine.")
    LOOM_PY_UNARY(cosh, "Hyperbolic cosine.")
    LOOM_PY_UNARY(tanh, "Hyperbolic tangent.")
    LOOM_PY_UNARY(asinh, "Inverse hyperbolic sine.")
    LOOM_PY_UNARY(acosh, "Inverse hyperbolic cosine.")
    LOOM_PY_UNARY(atanh, "Inverse hyperbolic tangent.")
    LOOM_PY_UNARY(erf, "The error function.")
    LOOM_PY_BINARY(hypot, "sqrt(x * x + y * y).")
    LOOM_PY_UNARY(floor, "The largest integral value not above x (a float).")
    LOOM_PY_UNARY(ceil, "The smallest integral value not below x (a float).")
    LOOM_PY_UNARY(round, "The nearest integral value (halves to even), a float.")
    LOOM_PY_UNARY(trunc, "x rounded toward zero (a float).")
    LOOM_PY_UNARY(is_nan, "Whether a float is NaN.")
    LOOM_PY_UNARY(is_inf, "Whether a float is infinite.")
    LOOM_PY_UNARY(is_finite, "Whether a float is neither NaN nor infinite.")
    LOOM_PY_UNARY(fast_inverse, "An approximation of 1 / x (float32).")
    LOOM_PY_UNARY(fast_inverse_sqrt, "An approximation of 1 / sqrt(x) (float32).")
    LOOM_PY_BINARY(fast_pow, "An approximation of pow(x, y) (float32).")
    LOOM_PY_UNARY(fast_exp, "An approximation of exp(x) (float32).")
    LOOM_PY_UNARY(fast_log, "An approximation of log(x) (float32).")
    LOOM_PY_UNARY(fast_sin, "An approximation of sin(x) (float32).")
    LOOM_PY_UNARY(fast_cos, "An approximation of cos(x) (float32).")
    // Halide's fract is x - trunc(x) (so an integer x gives a float32 0).
    m.def(
        "fract",
        [](nb::handle a) {
            Expr x = to_expr(a);
            return x - trunc(x);
        },
        "x - trunc(x): the fractional part, with x's sign.");

    // Other arithmetic.
    LOOM_PY_UNARY(abs, "Absolute value; unsigned for a signed integer (so abs(INT_MIN) is exact).")
    LOOM_PY_BINARY(absd, "|a - b| without overflow; unsigned for integers.")
    LOOM_PY_TERNARY(lerp, "zero_val * (1 - weight) + one_val * weight; an unsigned weight is a "
                          "fraction of its type's maximum.")
    LOOM_PY_TERNARY(clamp, "max(min(a, max_val), min_val); the bounds must fit a's type.")
    LOOM_PY_UNARY(popcount, "The number of set bits.")
    LOOM_PY_UNARY(count_leading_zeros, "The number of zero bits above the highest set bit.")
    LOOM_PY_UNARY(count_trailing_zeros, "The number of zero bits below the lowest set bit.")
    LOOM_PY_BINARY(div_round_to_zero, "Integer division rounding toward zero (C's /).")
    LOOM_PY_BINARY(mod_round_to_zero, "The remainder of div_round_to_zero (C's %).")
    LOOM_PY_BINARY(saturating_add, "a + b clamped to the type's range.")
    LOOM_PY_BINARY(saturating_sub, "a - b clamped to the type's range.")
    LOOM_PY_BINARY(widening_add, "a + b in a type of twice the width.")
    LOOM_PY_BINARY(widening_mul, "a * b in a type of twice the width.")
    LOOM_PY_BINARY(halving_add, "(a + b) / 2 without overflow.")
    LOOM_PY_BINARY(rounding_halving_add, "(a + b + 1) / 2 without overflow.")
    LOOM_PY_TERNARY(mul_shift_right,
                    "(a * b) >> q computed in double width, saturated to a's type.")
    m.def(
        "logical_not", [](nb::handle a) { return !to_expr(a); }, "Logical not of a bool.");
    m.def(
        "min",
        [](nb::args args) {
            return fold_right(args, "min", [](Expr a, Expr b) { return min(a, b); });
        },
        "The smallest of two or more values.");
    m.def(
        "max",
        [](nb::args args) {
            return fold_right(args, "max", [](Expr a, Expr b) { return max(a, b); });
        },
        "The largest of two or more values.");

    // Selection.
    m.def("select", &multiway_select,
          "select(c0, v0, c1, v1, ..., default): the value of the first true condition. Values "
          "may be Tuples (or Python tuples), giving a tuple of Exprs.");
    m.def("mux", &multiplex, "values[index], the last value when the index is out of range.");
    m.def(
        "scatter", [](nb::handle args) { return scatter(to_exprs(args)); },
        "Several store locations at once, on the left of an update definition.");
    m.def(
        "gather", [](nb::handle args) { return gather(to_exprs(args)); },
        "Several values at once, stored at the places a scatter on the left names.");

    // Conversions and bits.
    m.def(
        "cast", [](const Type &t, nb::handle e) { return cast(t, to_expr(e)); },
        "Value conversion to type t (wrapping for integers).");
    m.def(
        "reinterpret", [](const Type &t, nb::handle e) { return reinterpret(t, to_expr(e)); },
        "The bits of e read as type t (of the same size).");
    m.def(
        "saturating_cast",
        [](const Type &t, nb::handle e) { return saturating_cast(t, to_expr(e)); },
        "Conversion to t clamping to its range.");
    m.def(
        "extract_bits",
        [](const Type &t, nb::handle e, nb::handle lsb) {
            return extract_bits(t, to_expr(e), to_expr(lsb));
        },
        "The bits of e from bit lsb upwards, as a value of type t.");
    m.def(
        "concat_bits", [](nb::handle e) { return concat_bits(to_exprs(e)); },
        "The bits of the values side by side, the first least significant.");
    m.def(
        "undef", [](const Type &t) { return undef(t); },
        "In an update definition, leaves the Func's value unchanged.");

    // Hints.
    LOOM_PY_UNARY(likely,
                  "The value, telling the compiler that this branch of a select is the likely one.")
    LOOM_PY_UNARY(likely_if_innermost, "likely, for the innermost loop only.")
    LOOM_PY_UNARY(strict_float, "The value, computed with strict IEEE float semantics.")
    m.def(
        "unsafe_promise_clamped",
        [](nb::handle v, nb::handle lo, nb::handle hi) {
            return unsafe_promise_clamped(to_expr(v), optional_expr(lo), optional_expr(hi));
        },
        nb::arg("value"), nb::arg("min").none(), nb::arg("max").none(),
        "`value`, promising that it lies in [min, max] (None: unbounded on that side).");
    m.def("user_context_value", &user_context_value,
          "The user context pointer the pipeline was called with (a handle).");
#undef LOOM_PY_UNARY
#undef LOOM_PY_BINARY
#undef LOOM_PY_TERNARY

    // Printing and checks.
    m.def(
        "print", [](nb::args args) { return print(print_args(args)); },
        "Prints the arguments (Exprs and strs) when evaluated; returns the first.");
    m.def(
        "print_when",
        [](nb::handle condition, nb::args args) {
            return print_when(to_expr(condition), print_args(args));
        },
        nb::arg("condition"), nb::arg("args"), "Like print, but only when the condition is true.");
    m.def(
        "require",
        [](nb::handle condition, nb::handle value, nb::args args) {
            std::vector<Expr> all{to_expr(value)};
            for (const Expr &e : print_args(args)) all.push_back(e);
            return require(to_expr(condition), all);
        },
        nb::arg("condition"), nb::arg("value"), nb::arg("args"),
        "`value` when the condition holds; otherwise the pipeline fails with the remaining "
        "arguments as its message.");

    // Random numbers.
    m.def(
        "random_float", [](nb::handle seed) { return random_float(optional_expr(seed)); },
        nb::arg("seed").none() = nb::none());
    m.def(
        "random_int", [](nb::handle seed) { return random_int(optional_expr(seed)); },
        nb::arg("seed").none() = nb::none());
    m.def(
        "random_uint", [](nb::handle seed) { return random_uint(optional_expr(seed)); },
        nb::arg("seed").none() = nb::none());
}

} // namespace python
} // namespace loom
