#include "simplify/const_fold.h"

#include <cmath>
#include <cstring>

namespace loom {
namespace internal {

namespace {

using i128 = __int128;
using u128 = unsigned __int128;

int64_t wrap_i(int64_t v, int bits) {
    if (bits >= 64) return v;
    uint64_t u = (uint64_t)v << (64 - bits);
    return (int64_t)u >> (64 - bits);
}
uint64_t wrap_u(uint64_t v, int bits) { return bits >= 64 ? v : (v & ((uint64_t(1) << bits) - 1)); }

bool foldable_type(Type t) {
    if (t.is_int_or_uint()) return true;
    return t.code() == Type::Float && (t.bits() == 32 || t.bits() == 64);
}

/// The value as an exact 128-bit integer (ints and uints only).
i128 wide(const ConstVal &v) { return v.type.is_int() ? (i128)v.i : (i128)v.u; }

/// An integer ConstVal of type t holding `v` reduced modulo 2^bits.
ConstVal from_wide(Type t, i128 v, bool *overflow) {
    ConstVal r;
    r.type = t;
    uint64_t low = (uint64_t)(u128)v;
    if (t.is_int()) {
        r.i = wrap_i((int64_t)low, t.bits());
        if (overflow && t.bits() == 32 && (i128)r.i != v) *overflow = true;
    } else {
        r.u = wrap_u(low, t.bits());
    }
    return r;
}

ConstVal from_bool(bool b) {
    ConstVal r;
    r.type = Bool();
    r.u = b;
    return r;
}

/// Folds a comparison of two constants of one type (ints widened to i128, or floats).
template <typename T>
bool fold_comparison(IRNodeType op, T a, T b, ConstVal *out) {
    switch (op) {
    case IRNodeType::EQ:
        *out = from_bool(a == b);
        return true;
    case IRNodeType::NE:
        *out = from_bool(a != b);
        return true;
    case IRNodeType::LT:
        *out = from_bool(a < b);
        return true;
    case IRNodeType::LE:
        *out = from_bool(a <= b);
        return true;
    case IRNodeType::GT:
        *out = from_bool(a > b);
        return true;
    case IRNodeType::GE:
        *out = from_bool(a >= b);
        return true;
    default:
        return false;
    }
}

double round_to(Type t, double v) { return t.bits() == 32 ? (double)(float)v : v; }

bool fold_scalar(IRNodeType op, const ConstVal &x, const ConstVal &y, ConstVal *out,
                 bool *overflow) {
    Type t = x.type;
    if (t.is_float()) {
        double r;
        bool is32 = t.bits() == 32;
        double a = x.f, b = y.f;
        switch (op) {
        case IRNodeType::Add:
            r = is32 ? (double)((float)a + (float)b) : a + b;
            break;
        case IRNodeType::Sub:
            r = is32 ? (double)((float)a - (float)b) : a - b;
            break;
        case IRNodeType::Mul:
            r = is32 ? (double)((float)a * (float)b) : a * b;
            break;
        case IRNodeType::Div:
            r = is32 ? (double)((float)a / (float)b) : a / b;
            break;
        case IRNodeType::Mod:
            // a - b * floor(a / b), each step rounded to the type.
            if (is32) {
                float q = std::floor((float)a / (float)b);
                float p = (float)b * q;
                r = (double)((float)a - p);
            } else {
                double q = std::floor(a / b);
                double p = b * q;
                r = a - p;
            }
            break;
        case IRNodeType::Min:
            r = a < b ? a : b;
            break;
        case IRNodeType::Max:
            r = a > b ? a : b;
            break;
        default:
            return fold_comparison(op, a, b, out);
        }
        out->type = t;
        out->f = round_to(t, r);
        return true;
    }
    i128 a = wide(x), b = wide(y);
    switch (op) {
    case IRNodeType::Add:
        *out = from_wide(t, a + b, overflow);
        return true;
    case IRNodeType::Sub:
        *out = from_wide(t, a - b, overflow);
        return true;
    case IRNodeType::Mul:
        if (t.is_int() && t.bits() <= 32) {
            *out = from_wide(t, a * b, overflow);
        } else {
            // 64-bit operands: the product modulo 2^128 keeps the low 64 bits right.
            *out = from_wide(t, (i128)((u128)a * (u128)b), overflow);
        }
        return true;
    case IRNodeType::Div:
    case IRNodeType::Mod: {
        if (b == 0) {
            *out = from_wide(t, 0, overflow);
            return true;
        }
        i128 q = a / b, r = a % b;
        if (r < 0) {
            // Euclidean: make the remainder non-negative.
            if (b > 0) {
                q -= 1;
                r += b;
            } else {
                q += 1;
                r -= b;
            }
        }
        *out = from_wide(t, op == IRNodeType::Div ? q : r, overflow);
        return true;
    }
    case IRNodeType::Min:
        *out = from_wide(t, a < b ? a : b, overflow);
        return true;
    case IRNodeType::Max:
        *out = from_wide(t, a > b ? a : b, overflow);
        return true;
    case IRNodeType::And:
        *out = from_bool(a && b);
        return true;
    case IRNodeType::Or:
        *out = from_bool(a || b);
        return true;
    default:
        return fold_comparison(op, a, b, out);
    }
}

uint64_t bits_of(const ConstVal &v) {
    Type t = v.type;
    if (t.is_float()) {
        if (t.bits() == 32) {
            float f = (float)v.f;
            uint32_t b;
            std::memcpy(&b, &f, 4);
            return b;
        }
        uint64_t b;
        std::memcpy(&b, &v.f, 8);
        return b;
    }
    return wrap_u(t.is_int() ? (uint64_t)v.i : v.u, t.bits());
}

ConstVal from_bits(Type t, uint64_t b) {
    ConstVal r;
    r.type = t;
    if (t.is_float()) {
        if (t.bits() == 32) {
            uint32_t b32 = (uint32_t)b;
            float f;
            std::memcpy(&f, &b32, 4);
            r.f = f;
        } else {
            std::memcpy(&r.f, &b, 8);
        }
    } else if (t.is_int()) {
        r.i = wrap_i((int64_t)b, t.bits());
    } else {
        r.u = wrap_u(b, t.bits());
    }
    return r;
}

} // namespace

bool as_const_val(const Expr &e, ConstVal *v) {
    if (!e.defined()) return false;
    const Expr *s = &e;
    if (const Broadcast *b = e.as<Broadcast>()) s = &b->value;
    if (const IntImm *i = s->as<IntImm>()) {
        v->type = i->type;
        v->i = i->value;
        return true;
    }
    if (const UIntImm *u = s->as<UIntImm>()) {
        v->type = u->type;
        v->u = u->value;
        return true;
    }
    if (const FloatImm *f = s->as<FloatImm>()) {
        if (!foldable_type(f->type)) return false;
        v->type = f->type;
        v->f = f->value;
        return true;
    }
    return false;
}

Expr make_const_val(Type t, const ConstVal &v) {
    Type e = t.element_of();
    Expr c;
    if (e.is_int())
        c = IntImm::make(e, v.type.is_int() ? v.i : (int64_t)v.u);
    else if (e.is_uint())
        c = UIntImm::make(e, v.type.is_int() ? (uint64_t)v.i : v.u);
    else
        c = FloatImm::make(e, v.f);
    return t.is_vector() ? Broadcast::make(c, t.lanes()) : c;
}

Expr fold_binary(IRNodeType op, const Expr &a, const Expr &b, bool *int32_overflow) {
    ConstVal x, y, r;
    if (!as_const_val(a, &x) || !as_const_val(b, &y)) return Expr();
    if (x.type != y.type) return Expr();
    if (!fold_scalar(op, x, y, &r, int32_overflow)) return Expr();
    Type t = r.type.with_lanes(a.type().lanes());
    return make_const_val(t, r);
}

Expr fold_not(const Expr &a) {
    ConstVal x;
    if (!as_const_val(a, &x) || !x.type.is_bool()) return Expr();
    x.u = !x.u;
    return make_const_val(a.type(), x);
}

Expr fold_cast(Type t, const Expr &a) {
    ConstVal x;
    Type to = t.element_of();
    if (!as_const_val(a, &x) || !foldable_type(to)) return Expr();
    Type from = x.type;
    ConstVal r;
    r.type = to;
    if (to.is_bool()) {
        r.u = from.is_float() ? (x.f != 0) : from.is_int() ? (x.i != 0) : (x.u != 0);
    } else if (to.is_float()) {
        // Convert in one rounding step directly to the target precision.
        if (from.is_float())
            r.f = round_to(to, x.f);
        else if (from.is_int())
            r.f = to.bits() == 32 ? (double)(float)x.i : (double)x.i;
        else
            r.f = to.bits() == 32 ? (double)(float)x.u : (double)x.u;
    } else if (from.is_float()) {
        double v = std::trunc(x.f);
        double lo = to.is_int() ? -std::ldexp(1.0, to.bits() - 1) : 0.0;
        double hi = to.is_int() ? std::ldexp(1.0, to.bits() - 1) : std::ldexp(1.0, to.bits());
        // Out-of-range conversions are undefined behaviour: leave them to run time.
        if (std::isnan(v) || v < lo || v >= hi) return Expr();
        if (to.is_int())
            r.i = (int64_t)v;
        else
            r.u = (uint64_t)v;
    } else {
        uint64_t bits = from.is_int() ? (uint64_t)x.i : x.u;
        if (to.is_int())
            r.i = wrap_i((int64_t)bits, to.bits());
        else
            r.u = wrap_u(bits, to.bits());
    }
    return make_const_val(t, r);
}

Expr fold_reinterpret(Type t, const Expr &a) {
    ConstVal x;
    if (!as_const_val(a, &x) || !foldable_type(t.element_of())) return Expr();
    if (t.lanes() != a.type().lanes() || t.bits() != x.type.bits()) return Expr();
    return make_const_val(t, from_bits(t.element_of(), bits_of(x)));
}

Expr fold_intrinsic(const Call *op, const std::vector<Expr> &args) {
    std::vector<ConstVal> v(args.size());
    for (size_t i = 0; i < args.size(); i++) {
        if (!as_const_val(args[i], &v[i])) return Expr();
    }
    Type t = op->type;
    Type st = t.element_of();
    if (!foldable_type(st) || v.empty()) return Expr();
    Type at = v[0].type;
    auto result = [&](const ConstVal &r) { return make_const_val(t, r); };
    if (op->is_intrinsic(Call::bitwise_and) || op->is_intrinsic(Call::bitwise_or) ||
        op->is_intrinsic(Call::bitwise_xor)) {
        if (v.size() != 2 || st.is_float()) return Expr();
        uint64_t a = bits_of(v[0]), b = bits_of(v[1]);
        uint64_t r = op->is_intrinsic(Call::bitwise_and)  ? (a & b)
                     : op->is_intrinsic(Call::bitwise_or) ? (a | b)
                                                          : (a ^ b);
        return result(from_bits(st, r));
    }
    if (op->is_intrinsic(Call::bitwise_not)) {
        if (st.is_float()) return Expr();
        return result(from_bits(st, ~bits_of(v[0])));
    }
    if (op->is_intrinsic(Call::shift_left) || op->is_intrinsic(Call::shift_right)) {
        if (v.size() != 2 || st.is_float()) return Expr();
        Type bt = v[1].type;
        if (bt.is_float()) return Expr();
        int64_t amount;
        if (bt.is_int()) {
            amount = v[1].i;
        } else {
            if (v[1].u >= 64) return Expr();
            amount = (int64_t)v[1].u;
        }
        bool left = op->is_intrinsic(Call::shift_left);
        if (amount < 0) {
            // A negative signed amount shifts the other way (Halide's semantics).
            if (amount < -64) return Expr();
            left = !left;
            amount = -amount;
        }
        if (amount >= st.bits()) return Expr();
        if (left) return result(from_bits(st, bits_of(v[0]) << amount));
        ConstVal r;
        r.type = st;
        if (st.is_int())
            r.i = v[0].i >> amount;
        else
            r.u = v[0].u >> amount;
        return result(r);
    }
    if (op->is_intrinsic(Call::abs)) {
        ConstVal r;
        r.type = st;
        if (at.is_float()) {
            r.f = std::fabs(v[0].f);
        } else if (at.is_int()) {
            uint64_t m = v[0].i < 0 ? (uint64_t)0 - (uint64_t)v[0].i : (uint64_t)v[0].i;
            if (st.is_int())
                r.i = wrap_i((int64_t)m, st.bits());
            else
                r.u = wrap_u(m, st.bits());
        } else {
            r.u = v[0].u;
        }
        return result(r);
    }
    if (op->is_intrinsic(Call::absd)) {
        if (v.size() != 2) return Expr();
        ConstVal r;
        r.type = st;
        if (at.is_float()) {
            ConstVal d;
            if (!fold_scalar(IRNodeType::Sub, v[0], v[1], &d, nullptr)) return Expr();
            r.f = round_to(st, std::fabs(d.f));
        } else {
            i128 a = wide(v[0]), b = wide(v[1]);
            i128 d = a > b ? a - b : b - a;
            r = from_wide(st, d, nullptr);
        }
        return result(r);
    }
    if (op->is_intrinsic(Call::count_leading_zeros) ||
        op->is_intrinsic(Call::count_trailing_zeros) || op->is_intrinsic(Call::popcount)) {
        if (at.is_float()) return Expr();
        uint64_t b = bits_of(v[0]);
        int w = at.bits(), c = 0;
        if (op->is_intrinsic(Call::popcount)) {
            for (int i = 0; i < w; i++) c += (b >> i) & 1;
        } else if (op->is_intrinsic(Call::count_leading_zeros)) {
            for (int i = w - 1; i >= 0 && !((b >> i) & 1); i--) c++;
        } else {
            for (int i = 0; i < w && !((b >> i) & 1); i++) c++;
        }
        return result(from_wide(st, c, nullptr));
    }
    return Expr();
}

bool const_int_value(const Expr &e, int64_t *v) {
    ConstVal c;
    if (!as_const_val(e, &c)) return false;
    if (c.type.is_int()) {
        *v = c.i;
        return true;
    }
    if (c.type.is_uint() && c.u <= (uint64_t)INT64_MAX) {
        *v = (int64_t)c.u;
        return true;
    }
    return false;
}

} // namespace internal
} // namespace loom
