#ifndef LOOM_TESTS_UNIT_LANG2_TEST_EVAL_H
#define LOOM_TESTS_UNIT_LANG2_TEST_EVAL_H

// A tiny reference interpreter for the integer front-end IR the lang2 tests build: it evaluates
// an Expr with its free variables bound to constants, follows calls to pure Funcs through their
// definitions and reads bound buffers through their Parameters. It is written from Halide's
// documented semantics (Euclidean division and modulo, division by zero is zero, wrapping
// casts), independently of the simplifier, so boundary conditions can be checked point by
// point against naive C++.

#include <loom/buffer.h>

#include "ir/ir.h"
#include "lang/function.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace lang2_test {

using namespace loom;
using namespace loom::internal;

inline int64_t wrap(Type t, int64_t v) {
    if (t.is_bool()) return v != 0;
    if (t.bits() >= 64) return v;
    uint64_t mask = (uint64_t(1) << t.bits()) - 1;
    uint64_t u = uint64_t(v) & mask;
    if (t.is_int() && (u >> (t.bits() - 1))) u |= ~mask; // sign-extend
    return int64_t(u);
}

inline int64_t div_euclid(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b, r = a % b;
    if (r < 0) q += (b > 0) ? -1 : 1;
    return q;
}

inline int64_t mod_euclid(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    if (r < 0) r += (b > 0) ? b : -b;
    return r;
}

class Evaluator {
public:
    std::map<std::string, int64_t> env;

    int64_t eval(const Expr &e) {
        if (const IntImm *op = e.as<IntImm>()) return op->value;
        if (const UIntImm *op = e.as<UIntImm>()) return (int64_t)op->value;
        if (const Variable *op = e.as<Variable>()) {
            auto it = env.find(op->name);
            if (it != env.end()) return it->second;
            if (op->param.defined() && !op->param.is_buffer()) {
                return wrap(op->type, scalar_of(op->param));
            }
            throw std::runtime_error("unbound variable " + op->name);
        }
        if (const Cast *op = e.as<Cast>()) return wrap(op->type, eval(op->value));
        if (const Add *op = e.as<Add>()) return wrap(op->type, eval(op->a) + eval(op->b));
        if (const Sub *op = e.as<Sub>()) return wrap(op->type, eval(op->a) - eval(op->b));
        if (const Mul *op = e.as<Mul>()) return wrap(op->type, eval(op->a) * eval(op->b));
        if (const Div *op = e.as<Div>())
            return wrap(op->type, div_euclid(eval(op->a), eval(op->b)));
        if (const Mod *op = e.as<Mod>())
            return wrap(op->type, mod_euclid(eval(op->a), eval(op->b)));
        if (const Min *op = e.as<Min>()) return std::min(eval(op->a), eval(op->b));
        if (const Max *op = e.as<Max>()) return std::max(eval(op->a), eval(op->b));
        if (const EQ *op = e.as<EQ>()) return eval(op->a) == eval(op->b);
        if (const NE *op = e.as<NE>()) return eval(op->a) != eval(op->b);
        if (const LT *op = e.as<LT>()) return eval(op->a) < eval(op->b);
        if (const LE *op = e.as<LE>()) return eval(op->a) <= eval(op->b);
        if (const GT *op = e.as<GT>()) return eval(op->a) > eval(op->b);
        if (const GE *op = e.as<GE>()) return eval(op->a) >= eval(op->b);
        if (const And *op = e.as<And>()) return eval(op->a) && eval(op->b);
        if (const Or *op = e.as<Or>()) return eval(op->a) || eval(op->b);
        if (const Not *op = e.as<Not>()) return !eval(op->a);
        if (const Select *op = e.as<Select>()) {
            return eval(op->condition) ? eval(op->true_value) : eval(op->false_value);
        }
        if (const Let *op = e.as<Let>()) {
            int64_t v = eval(op->value);
            auto saved = env;
            env[op->name] = v;
            int64_t r = eval(op->body);
            env = saved;
            return r;
        }
        if (const Call *op = e.as<Call>()) return eval_call(op);
        throw std::runtime_error("test evaluator: unsupported node");
    }

private:
    static int64_t scalar_of(const Parameter &p) {
        Type t = p.type();
        if (t.is_bool()) return p.scalar<bool>();
        if (t == Int(8)) return p.scalar<int8_t>();
        if (t == Int(16)) return p.scalar<int16_t>();
        if (t == Int(32)) return p.scalar<int32_t>();
        if (t == Int(64)) return p.scalar<int64_t>();
        if (t == UInt(8)) return p.scalar<uint8_t>();
        if (t == UInt(16)) return p.scalar<uint16_t>();
        if (t == UInt(32)) return p.scalar<uint32_t>();
        if (t == UInt(64)) return (int64_t)p.scalar<uint64_t>();
        throw std::runtime_error("test evaluator: non-integer parameter");
    }

    int64_t eval_call(const Call *op) {
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
            op->is_intrinsic(Call::promise_clamped) ||
            op->is_intrinsic(Call::unsafe_promise_clamped)) {
            return eval(op->args[0]);
        }
        if (op->is_intrinsic(Call::abs)) {
            int64_t v = eval(op->args[0]);
            return wrap(op->type, v < 0 ? -v : v);
        }
        if (op->call_type == Call::Halide) {
            Function f(op->func);
            const Definition &d = f.definition();
            if (!f.updates().empty()) throw std::runtime_error("test evaluator: update");
            std::map<std::string, int64_t> inner;
            for (size_t i = 0; i < f.args().size(); i++) inner[f.args()[i]] = eval(op->args[i]);
            auto saved = env;
            env = inner;
            int64_t r = eval(d.values[op->value_index]);
            env = saved;
            return r;
        }
        if (op->call_type == Call::Image) {
            Buffer<void> b = op->param.buffer();
            if (!b.defined()) throw std::runtime_error("test evaluator: unbound " + op->name);
            if (Type(b.type()) != Int(32)) throw std::runtime_error("test evaluator: not int32");
            Buffer<int32_t> ib(b);
            std::vector<int> pos;
            for (const Expr &a : op->args) pos.push_back((int)eval(a));
            for (int i = 0; i < ib.dimensions(); i++) {
                if (pos[i] < ib.dim(i).min() || pos[i] > ib.dim(i).max()) {
                    throw std::runtime_error("test evaluator: read of " + op->name +
                                             " out of bounds in dimension " + std::to_string(i) +
                                             " at " + std::to_string(pos[i]));
                }
            }
            return ib(pos.data());
        }
        throw std::runtime_error("test evaluator: unsupported call " + op->name);
    }
};

} // namespace lang2_test

#endif
