#include "arith/modulus_remainder.h"

#include "support/error.h"

#include <limits>
#include <ostream>

namespace loom {
namespace internal {

namespace {

using i128 = __int128;

const ModulusRemainder unknown(1, 0);

int64_t gcd64(int64_t a, int64_t b) {
    // Works on magnitudes held in i128 so that INT64_MIN causes no trouble.
    i128 x = a < 0 ? -(i128)a : (i128)a, y = b < 0 ? -(i128)b : (i128)b;
    while (y != 0) {
        i128 t = x % y;
        x = y;
        y = t;
    }
    return x > std::numeric_limits<int64_t>::max() ? 1 : (int64_t)x;
}

i128 emod(i128 a, i128 m) {
    i128 r = a % m;
    return r < 0 ? r + m : r;
}

bool fits(i128 v) {
    return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

/// Builds a normalized fact from 128-bit parts, or `unknown` when they do not fit.
ModulusRemainder make_mr(i128 m, i128 r) {
    if (m < 0) m = -m;
    if (m != 0) r = emod(r, m);
    if (!fits(m) || !fits(r)) return unknown;
    return ModulusRemainder((int64_t)m, (int64_t)r);
}

i128 floor_div128(i128 a, i128 b) {
    i128 q = a / b, r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

} // namespace

ModulusRemainder normalize(const ModulusRemainder &a) { return make_mr(a.modulus, a.remainder); }

bool operator==(const ModulusRemainder &a, const ModulusRemainder &b) {
    ModulusRemainder x = normalize(a), y = normalize(b);
    return x.modulus == y.modulus && x.remainder == y.remainder;
}

ModulusRemainder operator+(const ModulusRemainder &a, const ModulusRemainder &b) {
    i128 m = gcd64(a.modulus, b.modulus);
    return make_mr(m, (i128)a.remainder + b.remainder);
}

ModulusRemainder operator-(const ModulusRemainder &a, const ModulusRemainder &b) {
    i128 m = gcd64(a.modulus, b.modulus);
    return make_mr(m, (i128)a.remainder - b.remainder);
}

ModulusRemainder operator*(const ModulusRemainder &a, const ModulusRemainder &b) {
    if (a.modulus == 0)
        return make_mr((i128)a.remainder * b.modulus, (i128)a.remainder * b.remainder);
    if (b.modulus == 0)
        return make_mr((i128)b.remainder * a.modulus, (i128)b.remainder * a.remainder);
    // (m1 k + r1)(m2 j + r2) = m1 m2 kj + m1 r2 k + m2 r1 j + r1 r2.
    i128 p1 = (i128)a.modulus * b.modulus, p2 = (i128)a.modulus * b.remainder,
         p3 = (i128)b.modulus * a.remainder;
    if (!fits(p1) || !fits(p2) || !fits(p3)) return unknown;
    int64_t m = gcd64(gcd64((int64_t)p1, (int64_t)p2), (int64_t)p3);
    if (m == 0) return make_mr(0, (i128)a.remainder * b.remainder);
    return make_mr(m, emod((i128)a.remainder, m) * emod((i128)b.remainder, m));
}

ModulusRemainder operator/(const ModulusRemainder &a, const ModulusRemainder &b) {
    if (b.modulus != 0) return unknown;
    i128 c = b.remainder;
    if (c == 0) return ModulusRemainder(0, 0); // x / 0 == 0
    if (a.modulus == 0) {
        // Euclidean: floor for positive divisors, -(a / -c) for negative ones.
        i128 q = c > 0 ? floor_div128(a.remainder, c) : -floor_div128(a.remainder, -c);
        return make_mr(0, q);
    }
    i128 d = c < 0 ? -c : c;
    if (a.modulus % d != 0) return unknown;
    // c divides the modulus: (m k + r) / d == (m / d) k + r / d for positive d.
    i128 r = floor_div128(a.remainder, d);
    return c > 0 ? make_mr(a.modulus / d, r) : make_mr(a.modulus / d, -r);
}

ModulusRemainder operator%(const ModulusRemainder &a, const ModulusRemainder &b) {
    // A non-constant divisor could be zero (x % 0 == 0), which keeps no residue of x.
    if (b.modulus != 0) return unknown;
    i128 c = b.remainder;
    if (c == 0) return ModulusRemainder(0, 0); // x % 0 == 0
    i128 d = c < 0 ? -c : c;
    if (a.modulus == 0) return make_mr(0, emod(a.remainder, d));
    int64_t g = gcd64(a.modulus, (int64_t)(d > std::numeric_limits<int64_t>::max() ? 1 : d));
    if (g == d) return make_mr(0, emod(a.remainder, d));
    return make_mr(g, a.remainder);
}

ModulusRemainder unify(const ModulusRemainder &a, const ModulusRemainder &b) {
    i128 diff = (i128)a.remainder - b.remainder;
    if (!fits(diff)) return unknown;
    int64_t m = gcd64(gcd64(a.modulus, b.modulus), (int64_t)diff);
    if (m == 0) return make_mr(0, a.remainder);
    return make_mr(m, a.remainder);
}

ModulusRemainder intersect(const ModulusRemainder &a, const ModulusRemainder &b) {
    ModulusRemainder x = normalize(a), y = normalize(b);
    if (x.modulus == 0) return x;
    if (y.modulus == 0) return y;
    // Solve v = x.r (mod x.m), v = y.r (mod y.m) by the extended Euclidean algorithm.
    i128 m1 = x.modulus, m2 = y.modulus;
    i128 old_r = m1, r = m2, old_s = 1, s = 0;
    while (r != 0) {
        i128 q = old_r / r, t = old_r - q * r;
        old_r = r;
        r = t;
        t = old_s - q * s;
        old_s = s;
        s = t;
    }
    i128 g = old_r; // g = gcd, old_s * m1 = g (mod m2)
    i128 diff = (i128)y.remainder - x.remainder;
    if (diff % g != 0) return a; // contradictory facts
    i128 l = m1 / g * m2;
    if (!fits(l)) return a;
    i128 k = emod(emod(diff / g, m2 / g) * emod(old_s, m2 / g), m2 / g);
    return make_mr(l, (i128)x.remainder + m1 * k);
}

std::ostream &operator<<(std::ostream &os, const ModulusRemainder &m) {
    return os << m.modulus << "k + " << m.remainder;
}

namespace {

bool analysed(Type t) { return t.is_int() && t.bits() == 32; }

class AlignmentOf {
public:
    explicit AlignmentOf(const std::map<std::string, ModulusRemainder> &s) : scope(s) {}

    ModulusRemainder get(const Expr &e) {
        switch (e.node_type()) {
        case IRNodeType::IntImm:
            return make_mr(0, e.as<IntImm>()->value);
        case IRNodeType::UIntImm: {
            uint64_t v = e.as<UIntImm>()->value;
            return v <= (uint64_t)std::numeric_limits<int64_t>::max() ? make_mr(0, (int64_t)v)
                                                                      : unknown;
        }
        case IRNodeType::Variable: {
            auto it = scope.find(e.as<Variable>()->name);
            return it == scope.end() ? unknown : normalize(it->second);
        }
        case IRNodeType::Cast: {
            const Cast *op = e.as<Cast>();
            // A conversion that keeps every value keeps the facts about it.
            Type from = op->value.type(), to = e.type();
            if (from.is_int_or_uint() && to.is_int_or_uint() && !to.is_bool() &&
                to.can_represent(from)) {
                return get(op->value);
            }
            return unknown;
        }
        case IRNodeType::Broadcast:
            return get(e.as<Broadcast>()->value);
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            ModulusRemainder v = get(op->value);
            auto old = scope.find(op->name);
            bool had = old != scope.end();
            ModulusRemainder saved = had ? old->second : unknown;
            scope[op->name] = v;
            ModulusRemainder r = get(op->body);
            if (had)
                scope[op->name] = saved;
            else
                scope.erase(op->name);
            return r;
        }
        case IRNodeType::Min:
            return unify(get(e.as<Min>()->a), get(e.as<Min>()->b));
        case IRNodeType::Max:
            return unify(get(e.as<Max>()->a), get(e.as<Max>()->b));
        case IRNodeType::Select:
            return unify(get(e.as<Select>()->true_value), get(e.as<Select>()->false_value));
        case IRNodeType::Call: {
            const Call *op = e.as<Call>();
            if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
                op->is_intrinsic(Call::promise_clamped) ||
                op->is_intrinsic(Call::unsafe_promise_clamped)) {
                return get(op->args[0]);
            }
            return unknown;
        }
        default:
            break;
        }
        // Arithmetic facts only hold without wrap-around.
        if (!analysed(e.type().element_of())) return unknown;
        switch (e.node_type()) {
        case IRNodeType::Add:
            return get(e.as<Add>()->a) + get(e.as<Add>()->b);
        case IRNodeType::Sub:
            return get(e.as<Sub>()->a) - get(e.as<Sub>()->b);
        case IRNodeType::Mul:
            return get(e.as<Mul>()->a) * get(e.as<Mul>()->b);
        case IRNodeType::Div:
            return get(e.as<Div>()->a) / get(e.as<Div>()->b);
        case IRNodeType::Mod:
            return get(e.as<Mod>()->a) % get(e.as<Mod>()->b);
        case IRNodeType::Ramp: {
            const Ramp *op = e.as<Ramp>();
            // Lane i is base + i * stride for every i in [0, lanes).
            return get(op->base) + get(op->stride) * unknown;
        }
        default:
            return unknown;
        }
    }

private:
    std::map<std::string, ModulusRemainder> scope;
};

} // namespace

ModulusRemainder modulus_remainder(const Expr &e,
                                   const std::map<std::string, ModulusRemainder> &scope) {
    internal_assert(e.defined()) << "modulus_remainder of an undefined Expr\n";
    AlignmentOf a(scope);
    return a.get(e);
}

bool reduce_expr_modulo(const Expr &e, int64_t modulus, int64_t *remainder,
                        const std::map<std::string, ModulusRemainder> &scope) {
    if (modulus <= 0) return false;
    ModulusRemainder mr = modulus_remainder(e, scope);
    if (mr.modulus == 0 || mr.modulus % modulus == 0) {
        *remainder = (int64_t)emod(mr.remainder, modulus);
        return true;
    }
    return false;
}

} // namespace internal
} // namespace loom
