// The expression-building operators of <loom/ir_operator.h>, with Halide's operand coercion.

#include <loom/ir_operator.h>

#include "ir/ir.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "support/error.h"

#include <atomic>
#include <cmath>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

void check_defined(const Expr &e, const char *op) {
    user_assert(e.defined()) << "Operand of " << op << " is an undefined Expr.\n";
}

void check_not_handle(const Expr &e, const char *op) {
    user_assert(!e.type().is_handle()) << "Can't do arithmetic on handle types: " << op << " of "
                                       << e << " of type " << e.type() << ".\n";
}

/// Broadcasts a scalar operand to the other's lanes; two vectors must agree.
void match_lanes(Expr &a, Expr &b, const char *op) {
    int la = a.type().lanes(), lb = b.type().lanes();
    if (la == lb) return;
    if (la == 1) {
        a = Broadcast::make(a, lb);
    } else if (lb == 1) {
        b = Broadcast::make(b, la);
    } else {
        user_error << "Can't combine vectors of " << la << " and " << lb << " lanes in " << op
                   << ".\n";
    }
}

/// An int literal as a constant of `other`'s type (broadcast for vectors).
Expr int_literal(const Expr &other, int64_t v, const char *op) {
    check_defined(other, op);
    check_not_handle(other, op);
    check_representable(other.type(), v);
    return make_const(other.type(), v);
}

/// A float literal next to `other`: of other's type when that is a 32- or 64-bit float;
/// otherwise float32, and `other` is converted to float32 too (Halide 21 makes the literal a
/// float32 Expr, which a 16-bit float widens to). `single` says the literal was a C++ float.
Expr float_literal(Expr &other, double v, bool single, const char *op) {
    check_defined(other, op);
    check_not_handle(other, op);
    Type t = other.type();
    if (!t.is_float() || t.bits() < 32) {
        t = Float(32, t.lanes());
        other = cast(t, other);
    }
    return make_const(t, single ? (double)(float)v : v);
}

/// Scalar constant conversion with the semantics of Cast; undefined when it cannot be done
/// exactly here (out-of-range float to int is undefined behaviour, narrow floats are left to
/// the back end).
Expr fold_constant_cast(Type t, const Expr &a) {
    Type from = a.type();
    bool plain_float_t = t.code() == Type::Float && (t.bits() == 32 || t.bits() == 64);
    if (t.is_bool()) {
        if (const IntImm *i = a.as<IntImm>()) return make_bool(i->value != 0);
        if (const UIntImm *u = a.as<UIntImm>()) return make_bool(u->value != 0);
        if (const FloatImm *f = a.as<FloatImm>()) return make_bool(f->value != 0);
        return Expr();
    }
    if (t.is_int_or_uint()) {
        if (const IntImm *i = a.as<IntImm>()) return make_const(t, i->value);
        if (const UIntImm *u = a.as<UIntImm>()) return make_const(t, u->value);
        if (const FloatImm *f = a.as<FloatImm>()) {
            double v = std::trunc(f->value);
            if (!std::isfinite(v)) return Expr();
            if (t.is_int() && t.can_represent(v)) return make_const(t, (int64_t)v);
            if (t.is_uint() && t.can_represent(v)) return make_const(t, (uint64_t)v);
        }
        return Expr();
    }
    if (plain_float_t) {
        const double limit = 9007199254740992.0; // 2^53: integers below convert exactly to double
        if (const IntImm *i = a.as<IntImm>()) {
            if (std::fabs((double)i->value) <= limit) return make_const(t, (double)i->value);
        } else if (const UIntImm *u = a.as<UIntImm>()) {
            if ((double)u->value <= limit) return make_const(t, (double)u->value);
        } else if (const FloatImm *f = a.as<FloatImm>()) {
            bool plain_float_from = from.code() == Type::Float;
            if (plain_float_from) return make_const(t, f->value);
        }
    }
    return Expr();
}

Type unsigned_of(Type t) { return t.is_int() ? t.with_code(Type::UInt) : t; }

Expr pure_intrinsic(Type t, const char *name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::PureIntrinsic);
}

/// The int/uint check of bitwise, bit-count and similar operators.
void check_integer(const Expr &e, const char *op) {
    check_defined(e, op);
    user_assert(e.type().is_int_or_uint())
        << "The argument of " << op << " must be an integer or bool, but " << e << " has type "
        << e.type() << ".\n";
}

/// The operands of two-argument integer intrinsics, matched like arithmetic.
void integer_operands(Expr &a, Expr &b, const char *op) {
    check_integer(a, op);
    check_integer(b, op);
    match_types(a, b);
}

} // namespace

namespace internal {

void check_representable(Type t, int64_t v) {
    user_assert(!t.is_handle()) << "Integer constant " << v
                                << " would be converted to a handle type.\n";
    if (t.can_represent(v)) return;
    std::ostringstream changed;
    if (t.is_int_or_uint() || (t.is_float() && (t.bits() == 32 || t.bits() == 64))) {
        changed << ", changing its value to " << make_const(t.element_of(), v);
    }
    user_error << "Integer constant " << v << " would be converted to " << t << changed.str()
               << ". Cast the other operand to a wider type first if this is intended.\n";
}

void match_types(Expr &a, Expr &b) {
    user_assert(a.defined() && b.defined()) << "Operand of an arithmetic operator is an "
                                               "undefined Expr.\n";
    if (a.type() == b.type()) return;
    user_assert(!a.type().is_handle() && !b.type().is_handle())
        << "Can't do arithmetic on handle types: " << a << " (" << a.type() << ") and " << b << " ("
        << b.type() << ").\n";
    match_lanes(a, b, "an arithmetic operator");
    Type ta = a.type(), tb = b.type();
    if (ta == tb) return;
    if (ta.is_float() || tb.is_float()) {
        // The float operand's type wins; between two floats, the wider, and between float16
        // and bfloat16, the second operand's (as in Halide 21).
        if (!ta.is_float() || (tb.is_float() && tb.bits() >= ta.bits())) {
            a = cast(tb, a);
        } else {
            b = cast(ta, b);
        }
    } else if (ta.is_uint() && tb.is_uint()) {
        if (ta.bits() > tb.bits()) {
            b = cast(ta, b);
        } else {
            a = cast(tb, a);
        }
    } else {
        // int with int or uint (bools included): a signed type of the wider width.
        Type t = Int(std::max(ta.bits(), tb.bits()), ta.lanes());
        a = cast(t, a);
        b = cast(t, b);
    }
}

void match_types_bitwise(Expr &a, Expr &b, const char *op_name) {
    user_assert(a.defined() && b.defined()) << op_name << " of an undefined Expr.\n";
    user_assert(a.type().is_int_or_uint())
        << "The first argument to " << op_name << " must be an integer or bool, but " << a
        << " has type " << a.type() << ".\n";
    user_assert(b.type().is_int_or_uint())
        << "The second argument to " << op_name << " must be an integer or bool, but " << b
        << " has type " << b.type() << ".\n";
    match_lanes(a, b, op_name);
    // As in Halide 21: mixing signed and unsigned operands is an error (which of the two
    // meanings was intended cannot be guessed); the narrower operand widens to the wider.
    user_assert(a.type().is_int() == b.type().is_int())
        << "The arguments to " << op_name << " must both be signed or both be unsigned, but " << a
        << " has type " << a.type() << " and " << b << " has type " << b.type()
        << ". Cast one of them to the other's type.\n";
    if (a.type().bits() < b.type().bits()) {
        a = cast(b.type(), a);
    } else if (a.type() != b.type()) {
        b = cast(a.type(), b);
    }
}

Expr raise_to_integer_power(Expr e, int64_t p) {
    if (p == 0) return make_one(e.type());
    if (p == 1) return e;
    if (p < 0) return Div::make(make_one(e.type()), raise_to_integer_power(e, -p));
    Expr half = raise_to_integer_power(e, p / 2);
    Expr sq = Mul::make(half, half);
    return p % 2 ? Mul::make(sq, e) : sq;
}

} // namespace internal

// ---- Arithmetic, comparisons, min and max: one macro line gives the seven overloads. ----
#define LOOM_BINARY_OPERATOR(fn, Node, name)                                                       \
    Expr fn(Expr a, Expr b) {                                                                      \
        check_defined(a, name);                                                                    \
        check_defined(b, name);                                                                    \
        match_types(a, b);                                                                         \
        return Node::make(std::move(a), std::move(b));                                             \
    }                                                                                              \
    Expr fn(Expr a, int b) {                                                                       \
        Expr c = int_literal(a, b, name);                                                          \
        return Node::make(std::move(a), std::move(c));                                             \
    }                                                                                              \
    Expr fn(int a, Expr b) {                                                                       \
        Expr c = int_literal(b, a, name);                                                          \
        return Node::make(std::move(c), std::move(b));                                             \
    }                                                                                              \
    Expr fn(Expr a, float b) {                                                                     \
        Expr c = float_literal(a, b, true, name);                                                  \
        return Node::make(std::move(a), std::move(c));                                             \
    }                                                                                              \
    Expr fn(float a, Expr b) {                                                                     \
        Expr c = float_literal(b, a, true, name);                                                  \
        return Node::make(std::move(c), std::move(b));                                             \
    }                                                                                              \
    Expr fn(Expr a, double b) {                                                                    \
        Expr c = float_literal(a, b, false, name);                                                 \
        return Node::make(std::move(a), std::move(c));                                             \
    }                                                                                              \
    Expr fn(double a, Expr b) {                                                                    \
        Expr c = float_literal(b, a, false, name);                                                 \
        return Node::make(std::move(c), std::move(b));                                             \
    }
LOOM_BINARY_OPERATOR(operator+, Add, "operator+")
LOOM_BINARY_OPERATOR(operator-, Sub, "operator-")
LOOM_BINARY_OPERATOR(operator*, Mul, "operator*")
LOOM_BINARY_OPERATOR(operator/, Div, "operator/")
LOOM_BINARY_OPERATOR(operator%, Mod, "operator%")
LOOM_BINARY_OPERATOR(operator<, LT, "operator<")
LOOM_BINARY_OPERATOR(operator<=, LE, "operator<=")
LOOM_BINARY_OPERATOR(operator>, GT, "operator>")
LOOM_BINARY_OPERATOR(operator>=, GE, "operator>=")
LOOM_BINARY_OPERATOR(operator==, EQ, "operator==")
LOOM_BINARY_OPERATOR(operator!=, NE, "operator!=")
LOOM_BINARY_OPERATOR(min, Min, "min")
LOOM_BINARY_OPERATOR(max, Max, "max")
#undef LOOM_BINARY_OPERATOR

Expr operator-(Expr a) {
    check_defined(a, "unary operator-");
    check_not_handle(a, "unary operator-");
    user_assert(!a.type().is_bool()) << "Can't negate the bool " << a << "; use ! instead.\n";
    if (const IntImm *i = a.as<IntImm>())
        return make_const(a.type(), (int64_t)(0 - (uint64_t)i->value));
    if (const FloatImm *f = a.as<FloatImm>()) return make_const(a.type(), -f->value);
    Expr zero = make_zero(a.type());
    return Sub::make(std::move(zero), std::move(a));
}

#define LOOM_COMPOUND(op, Node, name)                                                              \
    Expr &operator op(Expr &a, Expr b) {                                                           \
        check_defined(a, name);                                                                    \
        check_defined(b, name);                                                                    \
        check_not_handle(a, name);                                                                 \
        Type t = a.type();                                                                         \
        a = Node::make(std::move(a), cast(t, std::move(b)));                                       \
        return a;                                                                                  \
    }
LOOM_COMPOUND(+=, Add, "operator+=")
LOOM_COMPOUND(-=, Sub, "operator-=")
LOOM_COMPOUND(*=, Mul, "operator*=")
LOOM_COMPOUND(/=, Div, "operator/=")
#undef LOOM_COMPOUND

// ---- Logic ----
namespace {
void check_bool(const Expr &e, const char *op) {
    check_defined(e, op);
    user_assert(e.type().is_bool()) << "The operands of " << op << " must be bool, but " << e
                                    << " has type " << e.type() << ".\n";
}
} // namespace

Expr operator&&(Expr a, Expr b) {
    check_bool(a, "operator&&");
    check_bool(b, "operator&&");
    match_lanes(a, b, "operator&&");
    return And::make(std::move(a), std::move(b));
}
Expr operator&&(Expr a, bool b) {
    check_bool(a, "operator&&");
    return b ? a : make_zero(a.type());
}
Expr operator&&(bool a, Expr b) { return std::move(b) && a; }

Expr operator||(Expr a, Expr b) {
    check_bool(a, "operator||");
    check_bool(b, "operator||");
    match_lanes(a, b, "operator||");
    return Or::make(std::move(a), std::move(b));
}
Expr operator||(Expr a, bool b) {
    check_bool(a, "operator||");
    return b ? make_one(a.type()) : a;
}
Expr operator||(bool a, Expr b) { return std::move(b) || a; }

Expr operator!(Expr a) {
    check_bool(a, "operator!");
    return Not::make(std::move(a));
}

// ---- Bitwise ----
#define LOOM_BITWISE(op, intrinsic, name)                                                          \
    Expr operator op(Expr a, Expr b) {                                                             \
        match_types_bitwise(a, b, name);                                                           \
        Type t = a.type();                                                                         \
        return pure_intrinsic(t, Call::intrinsic, {std::move(a), std::move(b)});                   \
    }                                                                                              \
    Expr operator op(Expr a, int b) {                                                              \
        check_integer(a, name);                                                                    \
        Expr c = int_literal(a, b, name);                                                          \
        return std::move(a) op std::move(c);                                                       \
    }                                                                                              \
    Expr operator op(int a, Expr b) {                                                              \
        check_integer(b, name);                                                                    \
        Expr c = int_literal(b, a, name);                                                          \
        return std::move(c) op std::move(b);                                                       \
    }
LOOM_BITWISE(&, bitwise_and, "bitwise and")
LOOM_BITWISE(|, bitwise_or, "bitwise or")
LOOM_BITWISE(^, bitwise_xor, "bitwise xor")
#undef LOOM_BITWISE

Expr operator~(Expr a) {
    check_integer(a, "bitwise not");
    Type t = a.type();
    return pure_intrinsic(t, Call::bitwise_not, {std::move(a)});
}

namespace {
Expr make_shift(Expr a, Expr b, const char *intrinsic, const char *name) {
    check_integer(a, name);
    check_integer(b, name);
    match_lanes(a, b, name);
    // As in Halide 21: a value narrower than the amount widens to the amount's width (u8 << i16
    // is uint16), and the amount takes the value's width, keeping its own signedness.
    if (!a.type().is_bool() && a.type().bits() < b.type().bits()) {
        Type wide = a.type().with_bits(b.type().bits());
        a = cast(wide, std::move(a));
    }
    Type t = a.type();
    Type amount = b.type().with_bits(t.bits());
    if (b.type().is_bool()) amount = t.with_code(Type::UInt);
    if (b.type() != amount) b = cast(amount, std::move(b));
    return pure_intrinsic(t, intrinsic, {std::move(a), std::move(b)});
}

/// An int literal shift amount: of the value's type when it fits (as Halide), else signed.
Expr shift_amount_literal(const Expr &a, int b, const char *name) {
    check_integer(a, name);
    Type t = a.type();
    if (!t.can_represent((int64_t)b)) t = t.with_code(Type::Int);
    check_representable(t, b);
    return make_const(t, (int64_t)b);
}
} // namespace

Expr operator<<(Expr a, Expr b) {
    return make_shift(std::move(a), std::move(b), Call::shift_left, "shift left");
}
Expr operator<<(Expr a, int b) {
    Expr c = shift_amount_literal(a, b, "shift left");
    return std::move(a) << std::move(c);
}
Expr operator<<(int a, Expr b) {
    check_integer(b, "shift left");
    Expr c = int_literal(b, a, "shift left");
    return std::move(c) << std::move(b);
}
Expr operator>>(Expr a, Expr b) {
    return make_shift(std::move(a), std::move(b), Call::shift_right, "shift right");
}
Expr operator>>(Expr a, int b) {
    Expr c = shift_amount_literal(a, b, "shift right");
    return std::move(a) >> std::move(c);
}
Expr operator>>(int a, Expr b) {
    check_integer(b, "shift right");
    Expr c = int_literal(b, a, "shift right");
    return std::move(c) >> std::move(b);
}

// ---- Conversions ----
Expr cast(Type t, Expr a) {
    user_assert(a.defined()) << "cast of an undefined Expr.\n";
    if (t.is_scalar() && a.type().is_vector()) t = t.with_lanes(a.type().lanes());
    if (a.type() == t) return a;
    user_assert(t.is_handle() == a.type().is_handle())
        << "Can't cast " << a << " of type " << a.type() << " to " << t
        << ": handles convert only to handles.\n";
    if (t.is_vector()) {
        if (a.type().is_scalar())
            return Broadcast::make(cast(t.element_of(), std::move(a)), t.lanes());
        if (const Broadcast *b = a.as<Broadcast>()) {
            Type inner = t.with_lanes(b->value.type().lanes());
            return Broadcast::make(cast(inner, b->value), b->lanes);
        }
        user_assert(t.lanes() == a.type().lanes()) << "Can't cast " << a << " of type " << a.type()
                                                   << " to " << t << ": the lane counts differ.\n";
    } else if (!t.is_handle()) {
        Expr folded = fold_constant_cast(t, a);
        if (folded.defined()) return folded;
    }
    return Cast::make(t, std::move(a));
}

Expr reinterpret(Type t, Expr e) {
    user_assert(e.defined()) << "reinterpret of an undefined Expr.\n";
    if (t.is_scalar() && e.type().is_vector() && t.bits() != e.type().bits() * e.type().lanes()) {
        t = t.with_lanes(e.type().lanes());
    }
    if (e.type() == t) return e;
    user_assert(t.bits() * t.lanes() == e.type().bits() * e.type().lanes())
        << "reinterpret can't change the number of bits: " << e << " of type " << e.type() << " to "
        << t << ".\n";
    return Reinterpret::make(t, std::move(e));
}

Expr saturating_cast(Type t, Expr e) {
    user_assert(e.defined()) << "saturating_cast of an undefined Expr.\n";
    if (t.is_scalar() && e.type().is_vector()) t = t.with_lanes(e.type().lanes());
    Type from = e.type();
    if (from == t) return e;
    user_assert(!t.is_handle() && !from.is_handle())
        << "saturating_cast can't convert " << from << " to " << t << ".\n";
    // Expanded into clamps and a cast, so later passes (bounds, simplification) see the range.
    if (t.is_float() || t.can_represent(from)) return cast(t, std::move(e));
    auto int_min = [](Type x) -> int64_t {
        if (!x.is_int()) return 0;
        return x.bits() >= 64 ? INT64_MIN : -((int64_t)1 << (x.bits() - 1));
    };
    auto int_max = [](Type x) -> uint64_t {
        int value_bits = x.is_int() ? x.bits() - 1 : x.bits();
        return value_bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << value_bits) - 1;
    };
    int64_t t_min = int_min(t);
    uint64_t t_max = int_max(t);
    if (from.is_float()) {
        // The integer minimum is a power of two, exact in any float. The maximum may round up
        // to the next power of two; values from there on saturate.
        e = Max::make(e, make_const(from, (double)t_min));
        Expr hi = make_const(from, (double)t_max);
        return Select::make(GE::make(e, hi), t.max(), Cast::make(t, e));
    }
    // Integer to a narrower range: clamp to the bounds that lie inside the source range.
    if (t_max < int_max(from)) e = Min::make(e, make_const(from, t_max));
    if (t_min > int_min(from)) e = Max::make(e, make_const(from, t_min));
    return cast(t, std::move(e));
}

// ---- Selection ----
namespace {
/// An int constant next to a value of another type takes that type (it must fit).
void coerce_int_literal(Expr &lit, const Expr &other) {
    if (lit.type() == other.type()) return;
    if (const int64_t *v = as_const_int(lit)) {
        if (lit.type().element_of() == Int(32) && !other.type().is_handle()) {
            check_representable(other.type(), *v);
            lit = make_const(other.type(), *v);
        }
    }
}
} // namespace

Expr select(Expr condition, Expr true_value, Expr false_value) {
    user_assert(condition.defined() && true_value.defined() && false_value.defined())
        << "select of an undefined Expr.\n";
    user_assert(condition.type().is_bool())
        << "The first argument to a select must be a bool, but " << condition << " has type "
        << condition.type() << ".\n";
    coerce_int_literal(true_value, false_value);
    coerce_int_literal(false_value, true_value);
    if (true_value.type().element_of() != false_value.type().element_of()) {
        // A float literal with another float type follows the other value.
        if (true_value.as<FloatImm>() && false_value.type().is_float()) {
            true_value = cast(false_value.type().element_of(), true_value);
        } else if (false_value.as<FloatImm>() && true_value.type().is_float()) {
            false_value = cast(true_value.type().element_of(), false_value);
        }
    }
    user_assert(true_value.type().element_of() == false_value.type().element_of())
        << "The second and third arguments to a select do not have a matching type: " << true_value
        << " has type " << true_value.type() << " but " << false_value << " has type "
        << false_value.type() << ".\n";
    match_lanes(true_value, false_value, "select");
    int lanes = true_value.type().lanes();
    if (condition.type().is_vector() && lanes == 1) {
        lanes = condition.type().lanes();
        true_value = Broadcast::make(true_value, lanes);
        false_value = Broadcast::make(false_value, lanes);
    }
    user_assert(condition.type().is_scalar() || condition.type().lanes() == lanes)
        << "select condition " << condition << " has " << condition.type().lanes()
        << " lanes but the values have " << lanes << ".\n";
    return Select::make(std::move(condition), std::move(true_value), std::move(false_value));
}

Expr mux(const Expr &index, const std::vector<Expr> &values) {
    user_assert(index.defined()) << "mux with an undefined index.\n";
    user_assert(!values.empty()) << "mux needs at least one value.\n";
    user_assert(index.type().is_int_or_uint()) << "The index of mux must be an integer, but "
                                               << index << " has type " << index.type() << ".\n";
    Expr result = values.back();
    for (size_t i = values.size() - 1; i-- > 0;) {
        result = select(index == (int)i, values[i], result);
    }
    return result;
}

Expr mux(const Expr &index, std::initializer_list<Expr> values) {
    return mux(index, std::vector<Expr>(values));
}

namespace {

/// The vector of `args` for scatter and gather.
Expr scatter_gather(const char *what, const std::vector<Expr> &args) {
    user_assert(!args.empty()) << what << " needs at least one value.\n";
    // The type of the first argument that is not an integer literal (Int(32) if all are).
    Type t = Int(32);
    for (const Expr &a : args) {
        user_assert(a.defined()) << what << " of an undefined Expr.\n";
        if (!a.as<IntImm>()) {
            t = a.type();
            break;
        }
    }
    std::vector<Expr> elems;
    for (const Expr &a : args) {
        user_assert(a.type().is_scalar()) << "The arguments of " << what << " must be scalars, but "
                                          << a << " has " << a.type().lanes() << " lanes.\n";
        Expr e = a.as<IntImm>() && a.type() != t ? cast(t, a) : a;
        user_assert(e.type() == t)
            << "The arguments of " << what << " must have one type, but " << args[0] << " has type "
            << args[0].type() << " and " << a << " has type " << a.type() << ".\n";
        elems.push_back(e);
    }
    return elems.size() == 1 ? elems[0] : Shuffle::make_concat(elems);
}

} // namespace

Expr scatter(const std::vector<Expr> &args) { return scatter_gather("scatter", args); }
Expr gather(const std::vector<Expr> &args) { return scatter_gather("gather", args); }

Expr clamp(Expr a, const Expr &min_val, const Expr &max_val) {
    user_assert(a.defined() && min_val.defined() && max_val.defined())
        << "clamp of an undefined Expr.\n";
    check_not_handle(a, "clamp");
    Type t = a.type();
    Expr lo = lossless_cast(t.with_lanes(min_val.type().lanes()), min_val);
    user_assert(lo.defined()) << "clamp of " << a << " of type " << t << " with a minimum bound "
                              << min_val << " of type " << min_val.type()
                              << " that may not fit that type.\n";
    Expr hi = lossless_cast(t.with_lanes(max_val.type().lanes()), max_val);
    user_assert(hi.defined()) << "clamp of " << a << " of type " << t << " with a maximum bound "
                              << max_val << " of type " << max_val.type()
                              << " that may not fit that type.\n";
    if (t.is_vector()) {
        if (lo.type().is_scalar()) lo = Broadcast::make(lo, t.lanes());
        if (hi.type().is_scalar()) hi = Broadcast::make(hi, t.lanes());
    }
    user_assert(lo.type() == t && hi.type() == t)
        << "clamp bounds have different lanes from the value " << a << ".\n";
    return Max::make(Min::make(std::move(a), std::move(hi)), std::move(lo));
}

// ---- Other arithmetic ----
Expr abs(Expr a) {
    check_defined(a, "abs");
    check_not_handle(a, "abs");
    Type t = a.type();
    if (t.is_uint()) return a;
    return pure_intrinsic(unsigned_of(t), Call::abs, {std::move(a)});
}

Expr absd(Expr a, Expr b) {
    check_defined(a, "absd");
    check_defined(b, "absd");
    match_types(a, b);
    Type t = a.type();
    if (t.is_float()) return abs(Sub::make(std::move(a), std::move(b)));
    return pure_intrinsic(unsigned_of(t), Call::absd, {std::move(a), std::move(b)});
}

Expr lerp(Expr zero_val, Expr one_val, Expr weight) {
    user_assert(zero_val.defined() && one_val.defined() && weight.defined())
        << "lerp of an undefined Expr.\n";
    coerce_int_literal(zero_val, one_val);
    coerce_int_literal(one_val, zero_val);
    user_assert(zero_val.type() == one_val.type() ||
                zero_val.type().element_of() == one_val.type().element_of())
        << "Can't lerp between " << zero_val << " of type " << zero_val.type() << " and " << one_val
        << " of type " << one_val.type() << ".\n";
    match_lanes(zero_val, one_val, "lerp");
    Type t = zero_val.type();
    check_not_handle(zero_val, "lerp");
    if (t.is_float()) {
        // Float values take a float weight of their own type, or an unsigned integer weight
        // read as a fraction of its maximum (as Halide: uint8 255 is 1); constants convert
        // directly.
        if (is_const(weight) && !weight.type().is_float()) {
            weight = cast(t.element_of(), weight);
        }
        user_assert(weight.type().is_float() || weight.type().is_uint())
            << "A lerp weight must be a float or an unsigned integer when the values are "
               "floats, but "
            << weight << " has type " << weight.type() << ".\n";
        if (weight.type().is_float()) {
            weight = cast(t.element_of().with_lanes(weight.type().lanes()), weight);
        }
    } else {
        user_assert(weight.type().is_uint() || weight.type().is_float())
            << "A lerp weight must be an unsigned integer or a float, but " << weight
            << " has type " << weight.type() << ".\n";
        if (const double *w = as_const_float(weight)) {
            user_assert(*w >= 0 && *w <= 1)
                << "A constant lerp weight must lie in [0, 1], but it is " << *w << ".\n";
        }
    }
    if (weight.type().lanes() != t.lanes()) {
        user_assert(weight.type().is_scalar())
            << "lerp weight " << weight << " has different lanes from its values.\n";
        weight = Broadcast::make(weight, t.lanes());
    }
    return pure_intrinsic(t, Call::lerp,
                          {std::move(zero_val), std::move(one_val), std::move(weight)});
}

Expr popcount(Expr x) {
    check_integer(x, "popcount");
    Type t = x.type();
    return pure_intrinsic(t, Call::popcount, {std::move(x)});
}
Expr count_leading_zeros(Expr x) {
    check_integer(x, "count_leading_zeros");
    Type t = x.type();
    return pure_intrinsic(t, Call::count_leading_zeros, {std::move(x)});
}
Expr count_trailing_zeros(Expr x) {
    check_integer(x, "count_trailing_zeros");
    Type t = x.type();
    return pure_intrinsic(t, Call::count_trailing_zeros, {std::move(x)});
}

namespace {
/// A two-operand integer intrinsic; `widens` gives a result of twice the operands' width.
Expr integer_intrinsic(const char *name, Expr a, Expr b, bool widens) {
    integer_operands(a, b, name);
    user_assert(!widens || a.type().bits() <= 32)
        << name << " of 64-bit values has no wider result type.\n";
    Type t = widens ? a.type().widen() : a.type();
    return pure_intrinsic(t, name, {std::move(a), std::move(b)});
}
} // namespace

Expr div_round_to_zero(Expr x, Expr y) {
    return integer_intrinsic(Call::div_round_to_zero, std::move(x), std::move(y), false);
}
Expr mod_round_to_zero(Expr x, Expr y) {
    return integer_intrinsic(Call::mod_round_to_zero, std::move(x), std::move(y), false);
}
Expr saturating_add(Expr a, Expr b) {
    return integer_intrinsic(Call::saturating_add, std::move(a), std::move(b), false);
}
Expr saturating_sub(Expr a, Expr b) {
    return integer_intrinsic(Call::saturating_sub, std::move(a), std::move(b), false);
}
Expr widening_add(Expr a, Expr b) {
    return integer_intrinsic(Call::widening_add, std::move(a), std::move(b), true);
}
Expr widening_mul(Expr a, Expr b) {
    return integer_intrinsic(Call::widening_mul, std::move(a), std::move(b), true);
}
Expr halving_add(Expr a, Expr b) {
    return integer_intrinsic(Call::halving_add, std::move(a), std::move(b), false);
}
Expr rounding_halving_add(Expr a, Expr b) {
    return integer_intrinsic(Call::rounding_halving_add, std::move(a), std::move(b), false);
}
Expr mul_shift_right(Expr a, Expr b, Expr q) {
    integer_operands(a, b, "mul_shift_right");
    check_integer(q, "mul_shift_right");
    Type t = a.type();
    if (const int64_t *v = as_const_int(q)) {
        q = make_const(UInt(t.bits(), t.lanes()), *v);
    } else {
        q = cast(UInt(t.bits(), t.lanes()), q);
    }
    return pure_intrinsic(t, Call::mul_shift_right, {std::move(a), std::move(b), std::move(q)});
}

// ---- Hints ----
Expr likely(Expr e) {
    check_defined(e, "likely");
    Type t = e.type();
    return pure_intrinsic(t, Call::likely, {std::move(e)});
}
Expr likely_if_innermost(Expr e) {
    check_defined(e, "likely_if_innermost");
    Type t = e.type();
    return pure_intrinsic(t, Call::likely_if_innermost, {std::move(e)});
}
Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    check_defined(value, "unsafe_promise_clamped");
    Type t = value.type();
    Expr lo = min.defined() ? lossless_cast(t, min) : t.min();
    Expr hi = max.defined() ? lossless_cast(t, max) : t.max();
    user_assert(lo.defined() && hi.defined())
        << "unsafe_promise_clamped of " << value << " of type " << t
        << " with bounds that may not fit that type.\n";
    return pure_intrinsic(t, Call::unsafe_promise_clamped, {value, lo, hi});
}
Expr strict_float(Expr e) {
    check_defined(e, "strict_float");
    Type t = e.type();
    return pure_intrinsic(t, Call::strict_float, {std::move(e)});
}
Expr user_context_value() { return Variable::make(Handle(), "__user_context"); }

Expr undef(Type t) { return Call::make(t, Call::undef, {}, Call::Intrinsic); }

// ---- Printing and checks ----
namespace {
/// The args with " " between them and a final "\n", as one stringify call (a char*).
Expr combine_strings(const std::vector<Expr> &args) {
    std::vector<Expr> parts;
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined()) << "print of an undefined Expr.\n";
        parts.push_back(args[i]);
        parts.push_back(Expr(std::string(i + 1 < args.size() ? " " : "\n")));
    }
    return Call::make(Handle(), Call::stringify, parts, Call::PureIntrinsic);
}

Expr user_context() { return Variable::make(Handle(), "__user_context"); }
} // namespace

Expr print(const std::vector<Expr> &args) {
    user_assert(!args.empty() && args[0].defined()) << "print needs at least one argument.\n";
    Expr call =
        Call::make(Int(32), "halide_print", {user_context(), combine_strings(args)}, Call::Extern);
    return Call::make(args[0].type(), Call::return_second, {call, args[0]}, Call::PureIntrinsic);
}

Expr print_when(Expr condition, const std::vector<Expr> &args) {
    user_assert(condition.defined() && condition.type().is_bool())
        << "The condition of print_when must be a bool.\n";
    Expr p = print(args);
    return Call::make(p.type(), Call::if_then_else, {std::move(condition), p, args[0]},
                      Call::PureIntrinsic);
}

Expr require(Expr condition, const std::vector<Expr> &args) {
    user_assert(condition.defined()) << "require of an undefined condition.\n";
    user_assert(condition.type().is_bool())
        << "The condition of require must be a bool, but " << condition << " has type "
        << condition.type() << ".\n";
    user_assert(!args.empty() && args[0].defined()) << "require of an undefined value.\n";
    std::ostringstream text;
    text << condition;
    std::vector<Expr> message(args.begin() + 1, args.end());
    Expr message_str = message.empty() ? Expr(std::string()) : combine_strings(message);
    Expr error = Call::make(Int(32), "halide_error_requirement_failed",
                            {user_context(), Expr(text.str()), message_str}, Call::Extern);
    // The failure value only has to have the right type: the pipeline stops there.
    Expr failure = cast(args[0].type(), error);
    return Call::make(args[0].type(), Call::require,
                      {likely(std::move(condition)), args[0], failure}, Call::PureIntrinsic);
}

// ---- Random numbers ----
namespace {
/// Each random call gets its own id, so two calls with equal seeds are independent.
Expr random_call(Type t, const Expr &seed, const char *fn) {
    static std::atomic<int> counter{0};
    std::vector<Expr> args;
    if (seed.defined()) {
        user_assert(seed.type() == Int(32))
            << "The seed passed to " << fn << " must have type int32, but " << seed << " has type "
            << seed.type() << ".\n";
        args.push_back(seed);
    }
    args.push_back(Expr((int32_t)counter++));
    return Call::make(t, Call::random, args, Call::PureIntrinsic);
}
} // namespace

Expr random_float(Expr seed) { return random_call(Float(32), seed, "random_float"); }
Expr random_uint(Expr seed) { return random_call(UInt(32), seed, "random_uint"); }
Expr random_int(Expr seed) {
    return reinterpret(Int(32), random_call(UInt(32), seed, "random_int"));
}

// ---- Math ----
namespace {
/// Converts a math argument: float64 stays, other floats and integers become float32.
/// Returns the type the call returns in: float16 for a float16 argument, but float32 for a
/// bfloat16 one, as in Halide 21.
Type math_arg(Expr &x, const char *fn) {
    user_assert(x.defined()) << fn << " of an undefined Expr.\n";
    user_assert(!x.type().is_handle()) << "Can't call " << fn << " on the handle " << x << ".\n";
    Type t = x.type();
    if (t.element_of() == Float(64)) return t;
    Type result = t.is_float() && !t.is_bfloat() ? t : Float(32, t.lanes());
    x = cast(Float(32, t.lanes()), x);
    return result;
}

std::string math_name(const char *fn, const Expr &converted) {
    return std::string(fn) + (converted.type().bits() == 64 ? "_f64" : "_f32");
}

Expr math1(const char *fn, Expr x) {
    Type result = math_arg(x, fn);
    Type ct = x.type();
    Expr call = Call::make(ct, math_name(fn, x), {x}, Call::PureExtern);
    return result == ct ? call : cast(result, call);
}

Expr math2(const char *fn, Expr x, Expr y) {
    Type rx = math_arg(x, fn);
    Type ry = math_arg(y, fn);
    match_lanes(x, y, fn);
    // The wider computation type wins.
    if (x.type().bits() != y.type().bits()) {
        if (x.type().bits() < y.type().bits()) {
            x = cast(y.type(), x);
        } else {
            y = cast(x.type(), y);
        }
    }
    Type ct = x.type();
    Type result = rx.bits() >= ry.bits() ? rx : ry;
    result = result.with_lanes(ct.lanes());
    Expr call = Call::make(ct, math_name(fn, x), {x, y}, Call::PureExtern);
    return result == ct ? call : cast(result, call);
}

Expr float_only1(const char *fn, Expr x) {
    user_assert(x.defined()) << fn << " of an undefined Expr.\n";
    user_assert(x.type().element_of() != Float(64))
        << fn << " only works on float32, but " << x << " has type " << x.type() << ".\n";
    return math1(fn, std::move(x));
}

Expr classify(const char *fn, Expr x) {
    user_assert(x.defined()) << fn << " of an undefined Expr.\n";
    user_assert(x.type().is_float())
        << fn << " only works on floats, but " << x << " has type " << x.type() << ".\n";
    Type t = x.type();
    if (t.element_of() != Float(64)) x = cast(Float(32, t.lanes()), x);
    return Call::make(Bool(t.lanes()), math_name(fn, x), {x}, Call::PureExtern);
}

Expr rounding(const char *fn, Expr x) {
    user_assert(x.defined()) << fn << " of an undefined Expr.\n";
    // Integers are already integral.
    if (x.type().is_int_or_uint()) return cast(Float(32, x.type().lanes()), x);
    return math1(fn, std::move(x));
}
} // namespace

Expr sqrt(Expr x) { return math1("sqrt", std::move(x)); }
Expr exp(Expr x) { return math1("exp", std::move(x)); }
Expr log(Expr x) { return math1("log", std::move(x)); }
Expr sin(Expr x) { return math1("sin", std::move(x)); }
Expr cos(Expr x) { return math1("cos", std::move(x)); }
Expr tan(Expr x) { return math1("tan", std::move(x)); }
Expr asin(Expr x) { return math1("asin", std::move(x)); }
Expr acos(Expr x) { return math1("acos", std::move(x)); }
Expr atan(Expr x) { return math1("atan", std::move(x)); }
Expr sinh(Expr x) { return math1("sinh", std::move(x)); }
Expr cosh(Expr x) { return math1("cosh", std::move(x)); }
Expr tanh(Expr x) { return math1("tanh", std::move(x)); }
Expr asinh(Expr x) { return math1("asinh", std::move(x)); }
Expr acosh(Expr x) { return math1("acosh", std::move(x)); }
Expr atanh(Expr x) { return math1("atanh", std::move(x)); }
Expr erf(Expr x) { return math1("erf", std::move(x)); }
Expr atan2(Expr y, Expr x) { return math2("atan2", std::move(y), std::move(x)); }
Expr hypot(Expr x, Expr y) { return math2("hypot", std::move(x), std::move(y)); }

Expr pow(Expr x, Expr y) {
    user_assert(x.defined() && y.defined()) << "pow of an undefined Expr.\n";
    if (const int64_t *p = as_const_int(y)) {
        // Halide expands constant integer powers into multiplications in x's own type: an
        // integer product for an integer x, a 16-bit float's rounding for a 16-bit float.
        return raise_to_integer_power(x, *p);
    }
    return math2("pow", std::move(x), std::move(y));
}

Expr floor(Expr x) { return rounding("floor", std::move(x)); }
Expr ceil(Expr x) { return rounding("ceil", std::move(x)); }
Expr round(Expr x) {
    // Halide 21 rounds a bfloat16 in its own type (every integer it rounds to fits in it).
    const bool bfloat = x.defined() && x.type().is_bfloat();
    Type t = bfloat ? x.type() : Type();
    Expr r = rounding("round", std::move(x));
    return bfloat ? cast(t, r) : r;
}
Expr trunc(Expr x) { return rounding("trunc", std::move(x)); }

Expr is_nan(Expr x) { return classify("is_nan", std::move(x)); }
Expr is_inf(Expr x) { return classify("is_inf", std::move(x)); }
Expr is_finite(Expr x) { return classify("is_finite", std::move(x)); }

Expr fast_inverse(Expr x) { return float_only1("fast_inverse", std::move(x)); }
Expr fast_inverse_sqrt(Expr x) { return float_only1("fast_inverse_sqrt", std::move(x)); }
Expr fast_exp(Expr x) { return float_only1("fast_exp", std::move(x)); }
Expr fast_log(Expr x) { return float_only1("fast_log", std::move(x)); }
Expr fast_sin(Expr x) { return float_only1("fast_sin", std::move(x)); }
Expr fast_cos(Expr x) { return float_only1("fast_cos", std::move(x)); }
Expr fast_pow(Expr x, Expr y) {
    user_assert(x.defined() && y.defined()) << "fast_pow of an undefined Expr.\n";
    user_assert(x.type().element_of() != Float(64) && y.type().element_of() != Float(64))
        << "fast_pow only works on float32.\n";
    return math2("fast_pow", std::move(x), std::move(y));
}

} // namespace loom
