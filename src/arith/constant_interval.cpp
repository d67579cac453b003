#include "arith/constant_interval.h"

#include "ir/ir_visitor.h"
#include "support/error.h"

#include <algorithm>
#include <limits>
#include <ostream>

namespace loom {
namespace internal {

namespace {

/// An interval end as an extended integer: a finite int64, or -inf / +inf. Bound arithmetic
/// happens on these so that overflow and unboundedness need no special cases in the operators.
struct Ext {
    int64_t v = 0;
    int inf = 0; ///< -1: -inf, +1: +inf, 0: finite

    static Ext finite(int64_t x) { return {x, 0}; }
    static Ext pos_inf() { return {0, 1}; }
    static Ext neg_inf() { return {0, -1}; }
    int sign() const { return inf ? inf : (v > 0) - (v < 0); }
};

Ext lo_of(const ConstantInterval &i) { return i.min_defined ? Ext::finite(i.min) : Ext::neg_inf(); }
Ext hi_of(const ConstantInterval &i) { return i.max_defined ? Ext::finite(i.max) : Ext::pos_inf(); }

bool ext_less(const Ext &a, const Ext &b) {
    if (a.inf != b.inf) return a.inf < b.inf;
    return a.inf == 0 && a.v < b.v;
}
Ext ext_min(const Ext &a, const Ext &b) { return ext_less(b, a) ? b : a; }
Ext ext_max(const Ext &a, const Ext &b) { return ext_less(a, b) ? b : a; }

Ext ext_add(const Ext &a, const Ext &b) {
    if (a.inf || b.inf) {
        // -inf + +inf only arises for ends that are never both taken; callers pair min with min.
        return a.inf ? a : b;
    }
    int64_t r;
    if (__builtin_add_overflow(a.v, b.v, &r)) return a.v > 0 ? Ext::pos_inf() : Ext::neg_inf();
    return Ext::finite(r);
}

Ext ext_neg(const Ext &a) {
    if (a.inf) return {0, -a.inf};
    if (a.v == std::numeric_limits<int64_t>::min()) return Ext::pos_inf();
    return Ext::finite(-a.v);
}

Ext ext_mul(const Ext &a, const Ext &b) {
    int s = a.sign() * b.sign();
    // An infinite end times zero is zero: the interval's values are all finite.
    if (s == 0) return Ext::finite(0);
    if (a.inf || b.inf) return {0, s};
    int64_t r;
    if (__builtin_mul_overflow(a.v, b.v, &r)) return {0, s};
    return Ext::finite(r);
}

ConstantInterval from_ext(const Ext &lo, const Ext &hi) {
    ConstantInterval r;
    r.min_defined = lo.inf == 0;
    r.min = r.min_defined ? lo.v : 0;
    r.max_defined = hi.inf == 0;
    r.max = r.max_defined ? hi.v : 0;
    return r;
}

/// Floor division by a positive divisor (never overflows).
int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b, r = a % b;
    return (r != 0 && r < 0) ? q - 1 : q;
}

/// a / b for a divisor range [b0, b1] with b0 >= 1 (b1 may be +inf): Euclidean division by a
/// positive divisor is floor division, monotone in a, and in b with the direction given by a's
/// sign, so the extremes come from the ends.
ConstantInterval div_positive(const ConstantInterval &a, int64_t b0, Ext b1) {
    Ext lo, hi;
    if (!a.min_defined) {
        lo = Ext::neg_inf();
    } else if (a.min >= 0) {
        lo = b1.inf ? Ext::finite(0) : Ext::finite(floor_div(a.min, b1.v));
    } else {
        lo = Ext::finite(floor_div(a.min, b0));
    }
    if (!a.max_defined) {
        hi = Ext::pos_inf();
    } else if (a.max >= 0) {
        hi = Ext::finite(floor_div(a.max, b0));
    } else {
        hi = b1.inf ? Ext::finite(-1) : Ext::finite(floor_div(a.max, b1.v));
    }
    return from_ext(lo, hi);
}

int64_t type_max_int64(Type t) {
    if (t.is_int())
        return t.bits() >= 64 ? std::numeric_limits<int64_t>::max()
                              : (int64_t(1) << (t.bits() - 1)) - 1;
    return t.bits() >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << t.bits()) - 1;
}

} // namespace

ConstantInterval ConstantInterval::everything() { return ConstantInterval(); }
ConstantInterval ConstantInterval::single_point(int64_t v) { return {v, true, v, true}; }
ConstantInterval ConstantInterval::bounded(int64_t lo, int64_t hi) { return {lo, true, hi, true}; }
ConstantInterval ConstantInterval::bounded_below(int64_t lo) { return {lo, true, 0, false}; }
ConstantInterval ConstantInterval::bounded_above(int64_t hi) { return {0, false, hi, true}; }

ConstantInterval ConstantInterval::bounds_of_type(Type t) {
    if (t.is_int()) {
        int64_t hi = type_max_int64(t);
        return bounded(-hi - 1, hi);
    }
    if (t.is_uint()) {
        if (t.bits() >= 64) return bounded_below(0);
        return bounded(0, type_max_int64(t));
    }
    return everything();
}

bool ConstantInterval::is_subset_of(const ConstantInterval &o) const {
    bool lo_ok = !o.min_defined || (min_defined && min >= o.min);
    bool hi_ok = !o.max_defined || (max_defined && max <= o.max);
    return lo_ok && hi_ok;
}

bool ConstantInterval::within(Type t) const {
    if (!t.is_int_or_uint()) return true;
    return is_subset_of(bounds_of_type(t));
}

void ConstantInterval::include(const ConstantInterval &o) { *this = make_union(*this, o); }

void ConstantInterval::include(int64_t v) { include(single_point(v)); }

ConstantInterval ConstantInterval::make_union(const ConstantInterval &a,
                                              const ConstantInterval &b) {
    return from_ext(ext_min(lo_of(a), lo_of(b)), ext_max(hi_of(a), hi_of(b)));
}

ConstantInterval ConstantInterval::make_intersection(const ConstantInterval &a,
                                                     const ConstantInterval &b) {
    return from_ext(ext_max(lo_of(a), lo_of(b)), ext_min(hi_of(a), hi_of(b)));
}

ConstantInterval ConstantInterval::cast_to(Type t) const {
    if (t.is_bool()) {
        if (is_single_point(0)) return single_point(0);
        if (!contains(0)) return single_point(1);
        return bounded(0, 1);
    }
    if (!t.is_int_or_uint()) return everything();
    return within(t) ? *this : bounds_of_type(t);
}

ConstantInterval ConstantInterval::fit_to(Type t) const {
    if (!t.is_int_or_uint()) return everything();
    if (t.is_bool()) return make_intersection(*this, bounded(0, 1));
    // The range of uint64 has no int64 upper bound, so an unbounded max may be a wrapped
    // value: only a bounded interval is known not to wrap.
    if (t.is_uint() && t.bits() >= 64 && !max_defined) return bounds_of_type(t);
    return within(t) ? *this : bounds_of_type(t);
}

bool ConstantInterval::operator==(const ConstantInterval &o) const {
    return min_defined == o.min_defined && max_defined == o.max_defined &&
           (!min_defined || min == o.min) && (!max_defined || max == o.max);
}

ConstantInterval operator+(const ConstantInterval &a, const ConstantInterval &b) {
    return from_ext(ext_add(lo_of(a), lo_of(b)), ext_add(hi_of(a), hi_of(b)));
}

ConstantInterval operator-(const ConstantInterval &a) {
    return from_ext(ext_neg(hi_of(a)), ext_neg(lo_of(a)));
}

ConstantInterval operator-(const ConstantInterval &a, const ConstantInterval &b) {
    return a + (-b);
}

ConstantInterval operator*(const ConstantInterval &a, const ConstantInterval &b) {
    Ext p[4] = {ext_mul(lo_of(a), lo_of(b)), ext_mul(lo_of(a), hi_of(b)),
                ext_mul(hi_of(a), lo_of(b)), ext_mul(hi_of(a), hi_of(b))};
    Ext lo = p[0], hi = p[0];
    for (const Ext &x : p) {
        lo = ext_min(lo, x);
        hi = ext_max(hi, x);
    }
    return from_ext(lo, hi);
}

ConstantInterval operator/(const ConstantInterval &a, const ConstantInterval &b) {
    bool have = false;
    ConstantInterval result;
    auto add_part = [&](const ConstantInterval &part) {
        result = have ? ConstantInterval::make_union(result, part) : part;
        have = true;
    };
    if (b.contains(0)) add_part(ConstantInterval::single_point(0));
    // Positive divisors [max(b.min, 1), b.max].
    if (!b.max_defined || b.max >= 1) {
        int64_t b0 = b.min_defined ? std::max<int64_t>(b.min, 1) : 1;
        add_part(div_positive(a, b0, hi_of(b)));
    }
    // Negative divisors: a / b == -(a / -b) for Euclidean division.
    if (!b.min_defined || b.min <= -1) {
        int64_t hi = b.max_defined ? std::min<int64_t>(b.max, -1) : -1;
        Ext nb1 = ext_neg(lo_of(b)); // the largest |b|
        // A smaller smallest-|b| only widens the result, so INT64_MIN may use INT64_MAX.
        int64_t b0 =
            hi == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -hi;
        add_part(-div_positive(a, b0, nb1));
    }
    return result;
}

ConstantInterval operator%(const ConstantInterval &a, const ConstantInterval &b) {
    if (b.is_single_point(0)) return ConstantInterval::single_point(0);
    // Largest |b|; the result is in [0, |b| - 1] (x % 0 == 0 also lies there).
    Ext mag = ext_max(ext_neg(lo_of(b)), hi_of(b));
    Ext hi = mag.inf ? mag : Ext::finite(mag.v - 1);
    if (a.min_defined && a.min >= 0) {
        // For non-negative a, a % b <= a; and when a < every |b|, a % b == a.
        hi = ext_min(hi, hi_of(a));
        bool b_excludes_zero = !b.contains(0);
        Ext min_mag = b.min_defined && b.min > 0   ? Ext::finite(b.min)
                      : b.max_defined && b.max < 0 ? ext_neg(hi_of(b))
                                                   : Ext::finite(0);
        if (b_excludes_zero && a.max_defined && ext_less(Ext::finite(a.max), min_mag)) return a;
    }
    if (b.is_single_point() && a.is_bounded()) {
        // a range that stays within one period of a constant modulus maps to a range.
        // |b| of INT64_MIN does not fit: leave that case to the general bound below.
        int64_t m = b.min == INT64_MIN ? 0 : (b.min < 0 ? -b.min : b.min);
        if (m > 0 && floor_div(a.min, m) == floor_div(a.max, m)) {
            int64_t lo = a.min - floor_div(a.min, m) * m;
            return ConstantInterval::bounded(lo, lo + (a.max - a.min));
        }
    }
    return from_ext(Ext::finite(0), hi);
}

ConstantInterval min(const ConstantInterval &a, const ConstantInterval &b) {
    return from_ext(ext_min(lo_of(a), lo_of(b)), ext_min(hi_of(a), hi_of(b)));
}

ConstantInterval max(const ConstantInterval &a, const ConstantInterval &b) {
    return from_ext(ext_max(lo_of(a), lo_of(b)), ext_max(hi_of(a), hi_of(b)));
}

ConstantInterval abs(const ConstantInterval &a) {
    if (a.min_defined && a.min >= 0) return a;
    if (a.max_defined && a.max <= 0) return -a;
    return from_ext(Ext::finite(0), ext_max(ext_neg(lo_of(a)), hi_of(a)));
}

std::ostream &operator<<(std::ostream &os, const ConstantInterval &i) {
    os << "[";
    if (i.min_defined)
        os << i.min;
    else
        os << "-inf";
    os << ", ";
    if (i.max_defined)
        os << i.max;
    else
        os << "inf";
    return os << "]";
}

namespace {

/// Bounds of an expression tree, with Let bindings pushed onto a local scope.
class BoundsOf {
public:
    explicit BoundsOf(const std::map<std::string, ConstantInterval> &s) : scope(s) {}

    ConstantInterval bounds(const Expr &e) {
        Type t = e.type();
        if (!t.is_int_or_uint()) return ConstantInterval::everything();
        ConstantInterval r = visit(e);
        return r.fit_to(t);
    }

private:
    std::map<std::string, ConstantInterval> scope;

    ConstantInterval type_bounds(const Expr &e) {
        return ConstantInterval::bounds_of_type(e.type());
    }

    static const int64_t *const_int_arg(const Expr &e, int64_t *storage) {
        if (const IntImm *i = e.as<IntImm>()) {
            *storage = i->value;
            return storage;
        }
        if (const UIntImm *u = e.as<UIntImm>()) {
            if (u->value <= (uint64_t)std::numeric_limits<int64_t>::max()) {
                *storage = (int64_t)u->value;
                return storage;
            }
        }
        return nullptr;
    }

    ConstantInterval visit_call(const Call *op, const Expr &e) {
        Type t = e.type();
        auto arg = [&](int i) { return bounds(op->args[i]); };
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
            op->is_intrinsic(Call::strict_float)) {
            return arg(0);
        }
        if (op->is_intrinsic(Call::promise_clamped) ||
            op->is_intrinsic(Call::unsafe_promise_clamped)) {
            ConstantInterval v = arg(0);
            if (op->args.size() == 3) {
                ConstantInterval lo = arg(1), hi = arg(2);
                ConstantInterval range = ConstantInterval::make_union(lo, hi);
                ConstantInterval r = ConstantInterval::make_intersection(v, range);
                if (!r.is_empty()) return r;
            }
            return v;
        }
        if (op->is_intrinsic(Call::abs) && op->args[0].type().is_int_or_uint()) {
            return abs(arg(0)).cast_to(t);
        }
        if (op->is_intrinsic(Call::absd) && op->args[0].type().is_int_or_uint()) {
            return abs(arg(0) - arg(1)).cast_to(t);
        }
        if ((op->is_intrinsic(Call::count_leading_zeros) ||
             op->is_intrinsic(Call::count_trailing_zeros) || op->is_intrinsic(Call::popcount)) &&
            t.is_int_or_uint()) {
            return ConstantInterval::bounded(0, op->args[0].type().bits());
        }
        if (op->is_intrinsic(Call::bitwise_and) && t.is_int_or_uint()) {
            ConstantInterval a = arg(0), b = arg(1);
            bool a_pos = a.min_defined && a.min >= 0, b_pos = b.min_defined && b.min >= 0;
            // x & y with one operand non-negative lies in [0, that operand].
            if (a_pos && b_pos) return ConstantInterval::bounded(0, std::min(a.max, b.max));
            if (a_pos) return ConstantInterval::bounded(0, a.max);
            if (b_pos) return ConstantInterval::bounded(0, b.max);
            return type_bounds(e);
        }
        if (op->is_intrinsic(Call::bitwise_or) && t.is_int_or_uint()) {
            ConstantInterval a = arg(0), b = arg(1);
            if (a.min_defined && a.min >= 0 && b.min_defined && b.min >= 0 && a.max_defined &&
                b.max_defined) {
                // Both non-negative: x | y >= max(x, y) and stays below the next power of two.
                int64_t m = std::max(a.max, b.max);
                int64_t p = 1;
                while (p <= m && p < (int64_t(1) << 62)) p <<= 1;
                if (p > m) return ConstantInterval::bounded(std::max(a.min, b.min), p - 1);
            }
            return type_bounds(e);
        }
        if ((op->is_intrinsic(Call::shift_right) || op->is_intrinsic(Call::shift_left)) &&
            t.is_int_or_uint()) {
            int64_t s;
            const int64_t *c = const_int_arg(op->args[1], &s);
            if (c && *c >= 0 && *c < t.bits() && *c < 62) {
                ConstantInterval f = ConstantInterval::single_point(int64_t(1) << *c);
                ConstantInterval a = arg(0);
                if (op->is_intrinsic(Call::shift_right)) return a / f;
                return (a * f).within(t) ? a * f : type_bounds(e);
            }
            return type_bounds(e);
        }
        return type_bounds(e);
    }

    ConstantInterval visit(const Expr &e) {
        switch (e.node_type()) {
        case IRNodeType::IntImm:
            return ConstantInterval::single_point(e.as<IntImm>()->value);
        case IRNodeType::UIntImm: {
            uint64_t v = e.as<UIntImm>()->value;
            if (v <= (uint64_t)std::numeric_limits<int64_t>::max()) {
                return ConstantInterval::single_point((int64_t)v);
            }
            return ConstantInterval::bounded_below(std::numeric_limits<int64_t>::max());
        }
        case IRNodeType::Cast: {
            const Cast *op = e.as<Cast>();
            Type from = op->value.type();
            if (from.is_int_or_uint()) return bounds(op->value).cast_to(e.type());
            return type_bounds(e);
        }
        case IRNodeType::Variable: {
            const Variable *op = e.as<Variable>();
            auto it = scope.find(op->name);
            if (it != scope.end()) return it->second;
            return type_bounds(e);
        }
        case IRNodeType::Add:
            return bounds(e.as<Add>()->a) + bounds(e.as<Add>()->b);
        case IRNodeType::Sub:
            return bounds(e.as<Sub>()->a) - bounds(e.as<Sub>()->b);
        case IRNodeType::Mul:
            return bounds(e.as<Mul>()->a) * bounds(e.as<Mul>()->b);
        case IRNodeType::Div:
            return bounds(e.as<Div>()->a) / bounds(e.as<Div>()->b);
        case IRNodeType::Mod:
            return bounds(e.as<Mod>()->a) % bounds(e.as<Mod>()->b);
        case IRNodeType::Min:
            return min(bounds(e.as<Min>()->a), bounds(e.as<Min>()->b));
        case IRNodeType::Max:
            return max(bounds(e.as<Max>()->a), bounds(e.as<Max>()->b));
        case IRNodeType::EQ:
        case IRNodeType::NE:
        case IRNodeType::LT:
        case IRNodeType::LE:
        case IRNodeType::GT:
        case IRNodeType::GE:
        case IRNodeType::And:
        case IRNodeType::Or:
        case IRNodeType::Not:
            return ConstantInterval::bounded(0, 1);
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            return ConstantInterval::make_union(bounds(op->true_value), bounds(op->false_value));
        }
        case IRNodeType::Ramp: {
            const Ramp *op = e.as<Ramp>();
            return bounds(op->base) +
                   bounds(op->stride) * ConstantInterval::bounded(0, op->lanes - 1);
        }
        case IRNodeType::Broadcast:
            return bounds(e.as<Broadcast>()->value);
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            ConstantInterval v = bounds(op->value);
            auto old = scope.find(op->name);
            bool had = old != scope.end();
            ConstantInterval saved = had ? old->second : ConstantInterval();
            scope[op->name] = v;
            ConstantInterval r = bounds(op->body);
            if (had)
                scope[op->name] = saved;
            else
                scope.erase(op->name);
            return r;
        }
        case IRNodeType::Call:
            return visit_call(e.as<Call>(), e);
        case IRNodeType::Shuffle: {
            const Shuffle *op = e.as<Shuffle>();
            ConstantInterval r = bounds(op->vectors[0]);
            for (size_t i = 1; i < op->vectors.size(); i++) r.include(bounds(op->vectors[i]));
            return r;
        }
        case IRNodeType::VectorReduce: {
            const VectorReduce *op = e.as<VectorReduce>();
            ConstantInterval v = bounds(op->value);
            int64_t factor = op->value.type().lanes() / e.type().lanes();
            switch (op->op) {
            case VectorReduce::Add:
                return v * ConstantInterval::single_point(factor);
            case VectorReduce::Min:
            case VectorReduce::Max:
            case VectorReduce::And:
            case VectorReduce::Or:
                return v;
            default:
                return type_bounds(e);
            }
        }
        default:
            return type_bounds(e);
        }
    }
};

} // namespace

ConstantInterval constant_integer_bounds(const Expr &e,
                                         const std::map<std::string, ConstantInterval> &scope) {
    internal_assert(e.defined()) << "constant_integer_bounds of an undefined Expr\n";
    BoundsOf b(scope);
    return b.bounds(e);
}

} // namespace internal
} // namespace loom
