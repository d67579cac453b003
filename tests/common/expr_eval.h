#ifndef LOOM_TESTS_COMMON_EXPR_EVAL_H
#define LOOM_TESTS_COMMON_EXPR_EVAL_H

/// \file A header-only reference evaluator of IR Exprs (scalars and vectors) over variable
/// bindings, for tests. It implements Loom's semantics (DESIGN.md §4) directly and shares no
/// code with the simplifier or the arith layer, so it can check them:
///  - integers wrap to their width; Int(32) overflow (which the compiler may assume never
///    happens) sets `int32_overflow`; division and modulo are Euclidean and x / 0 == x % 0 == 0;
///  - float32 arithmetic is done in float, float64 in double; min(a, b) is a < b ? a : b and
///    max(a, b) is a > b ? a : b; float % is a - b * floor(a / b);
///  - casts: int->int wraps, to bool is != 0, float->int truncates (NaN or out of range sets
///    `undefined`), int->float rounds once;
///  - select evaluates both sides; shifts by a negative signed amount shift the other way and
///    shifting by the bit width or more sets `undefined`; abs and absd of ints give the unsigned
///    type of the same width.
/// Evaluate an Expr with `ExprEval ev; ev.bind("x", ExprEval::scalar_int(Int(32), 3)); ev.eval(e)`.

#include "ir/ir.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace loom {
namespace test {

using internal::Call;

/// One lane of a value; the field used depends on the type's code.
struct Lane {
    int64_t i = 0;  ///< Int
    uint64_t u = 0; ///< UInt (incl. bool)
    double f = 0;   ///< Float (float32 values are exactly representable floats)
};

/// A scalar or vector value of an IR type.
struct Value {
    Type type;
    std::vector<Lane> lanes;

    int64_t as_int(int lane = 0) const {
        return type.is_int() ? lanes[lane].i : (int64_t)lanes[lane].u;
    }
    /// Bitwise identity per lane (all NaNs count as equal).
    bool identical(const Value &o) const {
        if (type != o.type || lanes.size() != o.lanes.size()) return false;
        for (size_t k = 0; k < lanes.size(); k++) {
            if (type.is_float()) {
                double a = lanes[k].f, b = o.lanes[k].f;
                if (std::isnan(a) && std::isnan(b)) continue;
                if (std::memcmp(&a, &b, sizeof(double)) != 0) return false;
            } else if (type.is_int()) {
                if (lanes[k].i != o.lanes[k].i) return false;
            } else if (lanes[k].u != o.lanes[k].u) {
                return false;
            }
        }
        return true;
    }
    std::string to_string() const {
        std::ostringstream os;
        if (lanes.size() > 1) os << "<";
        for (size_t k = 0; k < lanes.size(); k++) {
            if (k) os << ", ";
            if (type.is_float()) {
                os.precision(17);
                os << lanes[k].f;
            } else if (type.is_int()) {
                os << lanes[k].i;
            } else {
                os << lanes[k].u;
            }
        }
        if (lanes.size() > 1) os << ">";
        return os.str();
    }
};

class ExprEval {
public:
    /// Set when an Int(32) add, sub, mul, div or ramp overflowed (wrapped).
    bool int32_overflow = false;
    /// Set on undefined behaviour: float->int conversion of NaN or of an out-of-range value,
    /// shift by the bit width or more.
    bool undefined = false;

    void bind(const std::string &name, const Value &v) { vars[name] = v; }
    void unbind(const std::string &name) { vars.erase(name); }
    /// The current binding of `name`, or null.
    const Value *find(const std::string &name) const {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : &it->second;
    }
    void clear_flags() { int32_overflow = undefined = false; }

    static Value scalar_int(Type t, int64_t v) {
        Value r{t, {Lane()}};
        set_int(t, r.lanes[0], v);
        return r;
    }
    static Value scalar_uint(Type t, uint64_t v) {
        Value r{t, {Lane()}};
        r.lanes[0].u = wrap_u(v, t.bits());
        return r;
    }
    static Value scalar_float(Type t, double v) {
        Value r{t, {Lane()}};
        r.lanes[0].f = t.bits() == 32 ? (double)(float)v : v;
        return r;
    }

    Value eval(const Expr &e) {
        using namespace internal;
        if (!e.defined()) throw std::runtime_error("eval of undefined Expr");
        Type t = e.type();
        switch (e.node_type()) {
        case IRNodeType::IntImm:
            return scalar_int(t, e.as<IntImm>()->value);
        case IRNodeType::UIntImm:
            return scalar_uint(t, e.as<UIntImm>()->value);
        case IRNodeType::FloatImm:
            return scalar_float(t, e.as<FloatImm>()->value);
        case IRNodeType::Variable: {
            auto it = vars.find(e.as<Variable>()->name);
            if (it == vars.end()) {
                throw std::runtime_error("unbound variable " + e.as<Variable>()->name);
            }
            if (it->second.type != t) throw std::runtime_error("variable type mismatch");
            return it->second;
        }
        case IRNodeType::Cast:
            return cast(t, eval(e.as<Cast>()->value));
        case IRNodeType::Reinterpret:
            return reinterpret(t, eval(e.as<Reinterpret>()->value));
        case IRNodeType::Add:
            return binary(t, e.as<Add>()->a, e.as<Add>()->b, '+');
        case IRNodeType::Sub:
            return binary(t, e.as<Sub>()->a, e.as<Sub>()->b, '-');
        case IRNodeType::Mul:
            return binary(t, e.as<Mul>()->a, e.as<Mul>()->b, '*');
        case IRNodeType::Div:
            return binary(t, e.as<Div>()->a, e.as<Div>()->b, '/');
        case IRNodeType::Mod:
            return binary(t, e.as<Mod>()->a, e.as<Mod>()->b, '%');
        case IRNodeType::Min:
            return binary(t, e.as<Min>()->a, e.as<Min>()->b, 'm');
        case IRNodeType::Max:
            return binary(t, e.as<Max>()->a, e.as<Max>()->b, 'M');
        case IRNodeType::EQ:
            return compare(e.as<EQ>()->a, e.as<EQ>()->b, 0);
        case IRNodeType::NE:
            return compare(e.as<NE>()->a, e.as<NE>()->b, 1);
        case IRNodeType::LT:
            return compare(e.as<LT>()->a, e.as<LT>()->b, 2);
        case IRNodeType::LE:
            return compare(e.as<LE>()->a, e.as<LE>()->b, 3);
        case IRNodeType::GT:
            return compare(e.as<GT>()->b, e.as<GT>()->a, 2);
        case IRNodeType::GE:
            return compare(e.as<GE>()->b, e.as<GE>()->a, 3);
        case IRNodeType::And:
        case IRNodeType::Or: {
            bool is_and = e.node_type() == IRNodeType::And;
            Value a = is_and ? eval(e.as<And>()->a) : eval(e.as<Or>()->a);
            Value b = is_and ? eval(e.as<And>()->b) : eval(e.as<Or>()->b);
            for (size_t k = 0; k < a.lanes.size(); k++) {
                a.lanes[k].u =
                    is_and ? (a.lanes[k].u & b.lanes[k].u) : (a.lanes[k].u | b.lanes[k].u);
            }
            return a;
        }
        case IRNodeType::Not: {
            Value a = eval(e.as<Not>()->a);
            for (Lane &l : a.lanes) l.u = !l.u;
            return a;
        }
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            Value c = eval(op->condition), tv = eval(op->true_value), fv = eval(op->false_value);
            Value r = fv;
            for (size_t k = 0; k < r.lanes.size(); k++) {
                bool pick = c.lanes.size() == 1 ? c.lanes[0].u : c.lanes[k].u;
                if (pick) r.lanes[k] = tv.lanes[k];
            }
            return r;
        }
        case IRNodeType::Ramp: {
            const Ramp *op = e.as<Ramp>();
            Value base = eval(op->base), stride = eval(op->stride);
            // Lane i is base + i * stride, computed exactly and then wrapped (or rounded).
            Value r{t, {}};
            Type st = base.type.element_of();
            for (int i = 0; i < op->lanes; i++) {
                for (size_t k = 0; k < base.lanes.size(); k++) {
                    Lane l;
                    const Lane &b = base.lanes[k], &s = stride.lanes[k];
                    if (st.is_float()) {
                        Lane idx;
                        idx.f = i;
                        l = lane_op(st, b, lane_op(st, idx, s, '*'), '+');
                    } else {
                        __int128 bv = st.is_int() ? (__int128)b.i : (__int128)b.u;
                        __int128 sv = st.is_int() ? (__int128)s.i : (__int128)s.u;
                        __int128 v = bv + sv * i;
                        if (st.is_int()) {
                            l.i = wrap_i((int64_t)(uint64_t)(unsigned __int128)v, st.bits());
                            if (is_i32(st) && (__int128)l.i != v) int32_overflow = true;
                        } else {
                            l.u = wrap_u((uint64_t)(unsigned __int128)v, st.bits());
                        }
                    }
                    r.lanes.push_back(l);
                }
            }
            return r;
        }
        case IRNodeType::Broadcast: {
            const Broadcast *op = e.as<Broadcast>();
            Value v = eval(op->value);
            Value r{t, {}};
            for (int i = 0; i < op->lanes; i++) {
                for (const Lane &l : v.lanes) r.lanes.push_back(l);
            }
            return r;
        }
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            Value v = eval(op->value);
            auto it = vars.find(op->name);
            bool had = it != vars.end();
            Value saved = had ? it->second : Value();
            vars[op->name] = v;
            Value r = eval(op->body);
            if (had)
                vars[op->name] = saved;
            else
                vars.erase(op->name);
            return r;
        }
        case IRNodeType::Call:
            return call(e.as<Call>(), t);
        case IRNodeType::Shuffle: {
            const Shuffle *op = e.as<Shuffle>();
            std::vector<Lane> all;
            for (const Expr &v : op->vectors) {
                Value x = eval(v);
                all.insert(all.end(), x.lanes.begin(), x.lanes.end());
            }
            Value r{t, {}};
            for (int i : op->indices) r.lanes.push_back(all[i]);
            return r;
        }
        case IRNodeType::VectorReduce: {
            const VectorReduce *op = e.as<VectorReduce>();
            Value v = eval(op->value);
            int out = t.lanes(), factor = (int)v.lanes.size() / out;
            Type st = t.element_of();
            Value r{t, {}};
            for (int i = 0; i < out; i++) {
                Value acc{st, {v.lanes[i * factor]}};
                for (int j = 1; j < factor; j++) {
                    Value x{st, {v.lanes[i * factor + j]}};
                    char c = op->op == VectorReduce::Add   ? '+'
                             : op->op == VectorReduce::Mul ? '*'
                             : op->op == VectorReduce::Min ? 'm'
                             : op->op == VectorReduce::Max ? 'M'
                             : op->op == VectorReduce::And ? '&'
                                                           : '|';
                    acc = arith(st, acc, x, c);
                }
                r.lanes.push_back(acc.lanes[0]);
            }
            return r;
        }
        default:
            throw std::runtime_error(std::string("eval: unsupported node ") +
                                     internal::node_type_name(e.node_type()));
        }
    }

private:
    std::map<std::string, Value> vars;

    static int64_t wrap_i(int64_t v, int bits) {
        if (bits >= 64) return v;
        uint64_t u = (uint64_t)v << (64 - bits);
        return (int64_t)u >> (64 - bits);
    }
    static uint64_t wrap_u(uint64_t v, int bits) {
        return bits >= 64 ? v : (v & ((uint64_t(1) << bits) - 1));
    }
    static void set_int(Type t, Lane &l, int64_t v) { l.i = wrap_i(v, t.bits()); }

    static bool is_i32(Type t) { return t.is_int() && t.bits() == 32; }

    double round_to(Type t, double v) const { return t.bits() == 32 ? (double)(float)v : v; }

    /// Euclidean quotient and remainder of exact (128-bit) integers, b != 0.
    static void euclid(__int128 a, __int128 b, __int128 *q, __int128 *r) {
        __int128 qq = a / b, rr = a % b;
        if (rr < 0) {
            if (b > 0) {
                qq -= 1;
                rr += b;
            } else {
                qq += 1;
                rr -= b;
            }
        }
        *q = qq;
        *r = rr;
    }

    /// Float arithmetic of lane_op in precision F; % is a - b * floor(a / b).
    template <typename F>
    static F float_op(F a, F b, char op) {
        switch (op) {
        case '+':
            return a + b;
        case '-':
            return a - b;
        case '*':
            return a * b;
        case '/':
            return a / b;
        case '%': {
            F q = std::floor(a / b);
            F p = b * q;
            return a - p;
        }
        case 'm':
            return a < b ? a : b;
        case 'M':
            return a > b ? a : b;
        default:
            throw std::runtime_error("bad float op");
        }
    }

    /// One lane of a binary arithmetic op ('+', '-', '*', '/', '%', 'm' (min), 'M' (max),
    /// '&', '|' (bool reductions)) on values of scalar type t.
    Lane lane_op(Type t, const Lane &x, const Lane &y, char op) {
        Lane r;
        if (t.is_float()) {
            // Each step rounds to the type: float32 arithmetic in float, float64 in double.
            r.f = t.bits() == 32 ? (double)float_op<float>((float)x.f, (float)y.f, op)
                                 : float_op<double>(x.f, y.f, op);
            return r;
        }
        // Integers: compute exactly in 128 bits, then wrap.
        __int128 a = t.is_int() ? (__int128)x.i : (__int128)x.u;
        __int128 b = t.is_int() ? (__int128)y.i : (__int128)y.u;
        __int128 v = 0;
        switch (op) {
        case '+':
            v = a + b;
            break;
        case '-':
            v = a - b;
            break;
        case '*': {
            // Avoid signed 128-bit overflow for 64-bit operands: multiply as unsigned.
            unsigned __int128 p = (unsigned __int128)a * (unsigned __int128)b;
            v = (__int128)p;
            if (is_i32(t)) v = a * b;
            break;
        }
        case '/':
        case '%':
            if (b == 0) {
                v = 0;
            } else {
                __int128 q, rem;
                euclid(a, b, &q, &rem);
                v = op == '/' ? q : rem;
            }
            break;
        case 'm':
            v = a < b ? a : b;
            break;
        case 'M':
            v = a > b ? a : b;
            break;
        case '&':
            v = a & b;
            break;
        case '|':
            v = a | b;
            break;
        default:
            throw std::runtime_error("bad int op");
        }
        if (t.is_int()) {
            int64_t w = wrap_i((int64_t)(uint64_t)(unsigned __int128)v, t.bits());
            if (is_i32(t) && (__int128)w != v) int32_overflow = true;
            r.i = w;
        } else {
            r.u = wrap_u((uint64_t)(unsigned __int128)v, t.bits());
        }
        return r;
    }

    Value arith(Type t, const Value &a, const Value &b, char op) {
        Value r{t, {}};
        Type st = t.element_of();
        for (size_t k = 0; k < a.lanes.size(); k++)
            r.lanes.push_back(lane_op(st, a.lanes[k], b.lanes[k], op));
        return r;
    }

    Value binary(Type t, const Expr &ea, const Expr &eb, char op) {
        Value a = eval(ea), b = eval(eb);
        return arith(t, a, b, op);
    }

    /// kind: 0 ==, 1 !=, 2 <, 3 <=
    Value compare(const Expr &ea, const Expr &eb, int kind) {
        Value a = eval(ea), b = eval(eb);
        Type st = a.type.element_of();
        Value r{Bool(a.type.lanes()), {}};
        for (size_t k = 0; k < a.lanes.size(); k++) {
            bool eq, lt;
            const Lane &x = a.lanes[k], &y = b.lanes[k];
            if (st.is_float()) {
                eq = x.f == y.f;
                lt = x.f < y.f;
            } else if (st.is_int()) {
                eq = x.i == y.i;
                lt = x.i < y.i;
            } else {
                eq = x.u == y.u;
                lt = x.u < y.u;
            }
            bool v = kind == 0 ? eq : kind == 1 ? !eq : kind == 2 ? lt : (lt || eq);
            Lane l;
            l.u = v;
            r.lanes.push_back(l);
        }
        return r;
    }

    Lane cast_lane(Type to, Type from, const Lane &x) {
        Lane r;
        if (to.is_bool()) {
            r.u = from.is_float() ? (x.f != 0) : from.is_int() ? (x.i != 0) : (x.u != 0);
            return r;
        }
        if (to.is_float()) {
            if (from.is_float()) {
                r.f = round_to(to, x.f);
            } else if (from.is_int()) {
                r.f = to.bits() == 32 ? (double)(float)x.i : (double)x.i;
            } else {
                r.f = to.bits() == 32 ? (double)(float)x.u : (double)x.u;
            }
            return r;
        }
        if (from.is_float()) {
            double v = std::trunc(x.f);
            double lo = to.is_int() ? -std::ldexp(1.0, to.bits() - 1) : 0.0;
            double hi = to.is_int() ? std::ldexp(1.0, to.bits() - 1) : std::ldexp(1.0, to.bits());
            if (std::isnan(v) || v < lo || v >= hi) {
                undefined = true;
                return r;
            }
            if (to.is_int())
                r.i = (int64_t)v;
            else
                r.u = (uint64_t)v;
            return r;
        }
        // Integer to integer: take the value modulo 2^bits.
        uint64_t bits = from.is_int() ? (uint64_t)x.i : x.u;
        if (to.is_int())
            r.i = wrap_i((int64_t)bits, to.bits());
        else
            r.u = wrap_u(bits, to.bits());
        return r;
    }

    Value cast(Type t, const Value &v) {
        Value r{t, {}};
        for (const Lane &l : v.lanes)
            r.lanes.push_back(cast_lane(t.element_of(), v.type.element_of(), l));
        return r;
    }

    static uint64_t lane_bits(Type st, const Lane &l) {
        if (st.is_float()) {
            if (st.bits() == 32) {
                float f = (float)l.f;
                uint32_t b;
                std::memcpy(&b, &f, 4);
                return b;
            }
            uint64_t b;
            std::memcpy(&b, &l.f, 8);
            return b;
        }
        return wrap_u(st.is_int() ? (uint64_t)l.i : l.u, st.bits());
    }
    static Lane lane_from_bits(Type st, uint64_t b) {
        Lane l;
        if (st.is_float()) {
            if (st.bits() == 32) {
                uint32_t b32 = (uint32_t)b;
                float f;
                std::memcpy(&f, &b32, 4);
                l.f = f;
            } else {
                std::memcpy(&l.f, &b, 8);
            }
        } else if (st.is_int()) {
            l.i = wrap_i((int64_t)b, st.bits());
        } else {
            l.u = wrap_u(b, st.bits());
        }
        return l;
    }

    Value reinterpret(Type t, const Value &v) {
        // Only same-lane-count reinterprets are supported (the common case).
        if (t.lanes() != v.type.lanes()) throw std::runtime_error("lane-changing reinterpret");
        Value r{t, {}};
        for (const Lane &l : v.lanes)
            r.lanes.push_back(lane_from_bits(t.element_of(), lane_bits(v.type.element_of(), l)));
        return r;
    }

    Value call(const internal::Call *op, Type t) {
        const std::string &n = op->name;
        auto is = [&](const char *name) { return op->is_intrinsic(name); };
        if (is(Call::likely) || is(Call::likely_if_innermost) || is(Call::strict_float) ||
            is(Call::promise_clamped) || is(Call::unsafe_promise_clamped)) {
            // The promise is evaluated for its value only.
            return eval(op->args[0]);
        }
        if (is(Call::if_then_else)) {
            Value c = eval(op->args[0]);
            if (c.lanes.size() == 1) {
                if (c.lanes[0].u) return eval(op->args[1]);
                if (op->args.size() > 2) return eval(op->args[2]);
                throw std::runtime_error("if_then_else without else");
            }
        }
        std::vector<Value> a;
        for (const Expr &x : op->args) a.push_back(eval(x));
        Type st = t.element_of();
        Value r{t, {}};
        size_t lanes = t.lanes();
        for (size_t k = 0; k < lanes; k++) {
            Lane l;
            auto bits0 = [&]() { return lane_bits(a[0].type.element_of(), a[0].lanes[k]); };
            auto bits1 = [&]() { return lane_bits(a[1].type.element_of(), a[1].lanes[k]); };
            Type at = a.empty() ? st : a[0].type.element_of();
            if (is(Call::bitwise_and)) {
                l = lane_from_bits(st, bits0() & bits1());
            } else if (is(Call::bitwise_or)) {
                l = lane_from_bits(st, bits0() | bits1());
            } else if (is(Call::bitwise_xor)) {
                l = lane_from_bits(st, bits0() ^ bits1());
            } else if (is(Call::bitwise_not)) {
                l = lane_from_bits(st, ~bits0());
            } else if (is(Call::shift_left) || is(Call::shift_right)) {
                Type bt = a[1].type.element_of();
                int64_t amount = bt.is_int() ? a[1].lanes[k].i : (int64_t)a[1].lanes[k].u;
                if (bt.is_uint() && a[1].lanes[k].u > 1000) amount = 1000;
                bool left = is(Call::shift_left);
                if (amount < 0) {
                    left = !left;
                    amount = amount < -1000 ? 1000 : -amount;
                }
                if (amount >= st.bits()) {
                    undefined = true;
                    amount = 0;
                }
                if (left) {
                    l = lane_from_bits(st, bits0() << amount);
                } else if (st.is_int()) {
                    l.i = a[0].lanes[k].i >> amount;
                } else {
                    l.u = a[0].lanes[k].u >> amount;
                }
            } else if (is(Call::abs)) {
                if (at.is_float()) {
                    l.f = std::fabs(a[0].lanes[k].f);
                } else if (at.is_int()) {
                    int64_t v = a[0].lanes[k].i;
                    l.u = wrap_u(v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, st.bits());
                } else {
                    l.u = a[0].lanes[k].u;
                }
            } else if (is(Call::absd)) {
                if (at.is_float()) {
                    Lane d = lane_op(at, a[0].lanes[k], a[1].lanes[k], '-');
                    l.f = std::fabs(d.f);
                } else {
                    __int128 x =
                        at.is_int() ? (__int128)a[0].lanes[k].i : (__int128)a[0].lanes[k].u;
                    __int128 y =
                        at.is_int() ? (__int128)a[1].lanes[k].i : (__int128)a[1].lanes[k].u;
                    __int128 d = x > y ? x - y : y - x;
                    l.u = wrap_u((uint64_t)d, st.bits());
                }
            } else if (is(Call::count_leading_zeros) || is(Call::count_trailing_zeros) ||
                       is(Call::popcount)) {
                uint64_t b = bits0();
                int w = at.bits(), c = 0;
                if (is(Call::popcount)) {
                    for (int i = 0; i < w; i++) c += (b >> i) & 1;
                } else if (is(Call::count_leading_zeros)) {
                    for (int i = w - 1; i >= 0 && !((b >> i) & 1); i--) c++;
                } else {
                    for (int i = 0; i < w && !((b >> i) & 1); i++) c++;
                }
                if (st.is_int())
                    l.i = c;
                else
                    l.u = c;
            } else if (is(Call::div_round_to_zero) || is(Call::mod_round_to_zero)) {
                __int128 x = at.is_int() ? (__int128)a[0].lanes[k].i : (__int128)a[0].lanes[k].u;
                __int128 y = at.is_int() ? (__int128)a[1].lanes[k].i : (__int128)a[1].lanes[k].u;
                __int128 v = y == 0 ? 0 : is(Call::div_round_to_zero) ? x / y : x % y;
                if (st.is_int())
                    l.i = wrap_i((int64_t)v, st.bits());
                else
                    l.u = wrap_u((uint64_t)v, st.bits());
            } else {
                throw std::runtime_error("eval: unsupported call " + n);
            }
            r.lanes.push_back(l);
        }
        return r;
    }
};

} // namespace test
} // namespace loom

#endif
