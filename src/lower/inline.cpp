#include "lower/inline.h"

#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "simplify/cse.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <functional>
#include <map>
#include <unordered_map>
#include <utility>

namespace loom {
namespace internal {

namespace {

/// Whether substituting e in several places costs nothing worth a Let.
bool is_cheap(const Expr &e) {
    if (is_const(e) || e.as<Variable>()) return true;
    if (const Add *a = e.as<Add>()) return (a->a.as<Variable>() && is_const(a->b));
    if (const Sub *s = e.as<Sub>()) return (s->a.as<Variable>() && is_const(s->b));
    return false;
}

/// e with the coordinates of its Func and buffer calls simplified: substituting x - 1 for x
/// in g(x + 1) gives g((x - 1) + 1), which is g(x), and calls at one point must look alike for
/// the inliner to share their values (and for CSE to find them). A stencil of stencils
/// inlined into each other otherwise names each point once per path to it.
Expr fold_call_coordinates(const Expr &e) {
    return mutate_exprs_post(e, [](const Expr &x) -> Expr {
        const Call *c = x.as<Call>();
        if (!c || (c->call_type != Call::Halide && c->call_type != Call::Image)) return Expr();
        std::vector<Expr> args = c->args;
        bool changed = false;
        for (Expr &a : args) {
            if (is_const(a) || a.as<Variable>()) continue;
            Expr folded = simplify(a);
            changed = changed || !folded.same_as(a);
            a = folded;
        }
        if (!changed) return Expr();
        return Call::make(c->type, c->name, args, c->call_type, c->func, c->value_index, c->param);
    });
}

class Inliner : public IRMutator {
public:
    explicit Inliner(const Function &f) : f(f) {
        internal_assert(f.updates().empty())
            << "Can't inline " << f.name() << ": it has update definitions\n";
        std::vector<Expr> coords;
        for (const std::string &a : f.args()) coords.push_back(Variable::make(Int(32), a));
        for (const Expr &v : f.definition().values) values.push_back(lower_random(v, coords));
    }

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halide || op->name != f.name()) return IRMutator::visit(op);
        std::vector<Expr> args = mutate(op->args);
        internal_assert(args.size() == f.args().size())
            << "Call to " << f.name() << " with " << args.size() << " args\n";
        internal_assert(op->value_index >= 0 && op->value_index < (int)values.size());
        Expr body = values[op->value_index];
        std::map<std::string, Expr> direct;
        std::vector<std::pair<std::string, Expr>> lets;
        for (size_t i = 0; i < args.size(); i++) {
            if (is_cheap(args[i])) {
                direct[f.args()[i]] = args[i];
            } else {
                // A fresh name, so it cannot capture a variable of the caller's arguments.
                std::string n = unique_name(f.name() + "." + f.args()[i]);
                direct[f.args()[i]] = Variable::make(Int(32), n);
                lets.emplace_back(n, args[i]);
            }
        }
        body = fold_call_coordinates(substitute(direct, body));
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            body = Let::make(it->first, it->second, body);
        }
        note_point(args);
        return body;
    }

    /// A definition that calls f at the same point several times (select(g(x) > 0, g(x),
    /// -g(x))) gets f's body once per call; along a chain of such Funcs inlined into each
    /// other that doubles or triples per Func (a chain of 100 ran out of memory). The repeated
    /// parts are then named once (CSE, which Halide's inliner runs after every inlining), so
    /// each step finds one call per distinct point again. Only then: calls at distinct points
    /// leave nothing to share, and eliminating over a large inlined stencil is costly.
    Stmt visit(const Provide *op) override {
        std::unordered_multimap<uint64_t, std::vector<Expr>> outer_points;
        std::swap(points, outer_points);
        bool outer_repeated = repeated_point;
        repeated_point = false;
        Stmt s = IRMutator::visit(op);
        if (repeated_point) s = common_subexpression_elimination(s);
        std::swap(points, outer_points);
        repeated_point = outer_repeated;
        return s;
    }

private:
    const Function &f;
    std::vector<Expr> values;
    /// The points f was inlined at in the current Provide, by hash, and whether one repeated.
    std::unordered_multimap<uint64_t, std::vector<Expr>> points;
    bool repeated_point = false;

    void note_point(const std::vector<Expr> &args) {
        uint64_t h = 0;
        for (const Expr &a : args) h = h * 31 + hash_expr(a);
        auto range = points.equal_range(h);
        for (auto it = range.first; it != range.second && !repeated_point; ++it) {
            bool same = true;
            for (size_t i = 0; i < args.size() && same; i++) same = equal(args[i], it->second[i]);
            repeated_point = same;
        }
        points.emplace(h, args);
    }
};

/// Builds a chain of Lets computing a hash, each step naming its result so no subexpression is
/// duplicated (the hash uses each intermediate value twice).
class HashChain {
public:
    /// The current value (a Variable bound by the chain, or the start constant).
    Expr value;
    explicit HashChain(Expr start) : value(start) {}

    /// value = f(value), named.
    void step(const std::function<Expr(Expr)> &f) {
        std::string n = unique_name(std::string("random.h"));
        Expr v = f(value);
        lets.emplace_back(n, v);
        value = Variable::make(v.type(), n);
    }
    /// One round of a 32-bit avalanche mix (every input bit affects every output bit).
    void mix() {
        Type u32 = UInt(32);
        auto xor_shr = [u32](int n) {
            return [u32, n](Expr x) {
                Expr sh = Call::make(u32, Call::shift_right, {x, make_const(u32, (uint64_t)n)},
                                     Call::PureIntrinsic);
                return Call::make(u32, Call::bitwise_xor, {x, sh}, Call::PureIntrinsic);
            };
        };
        step(xor_shr(16));
        step([u32](Expr x) { return Mul::make(x, make_const(u32, (uint64_t)0x7feb352dULL)); });
        step(xor_shr(15));
        step([u32](Expr x) { return Mul::make(x, make_const(u32, (uint64_t)0x846ca68bULL)); });
        step(xor_shr(16));
    }
    /// Wraps `body` in the chain's Lets.
    Expr wrap(Expr body) const {
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            body = Let::make(it->first, it->second, body);
        }
        return body;
    }

private:
    std::vector<std::pair<std::string, Expr>> lets;
};

} // namespace

Stmt inline_function(const Stmt &s, const Function &f) { return Inliner(f).mutate(s); }
Expr inline_function(const Expr &e, const Function &f) { return Inliner(f).mutate(e); }

Expr lower_random(const Expr &e, const std::vector<Expr> &coords) {
    return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
        const Call *c = x.as<Call>();
        if (!c || !c->is_intrinsic(Call::random)) return Expr();
        Type u32 = UInt(32);
        HashChain h(make_const(u32, (uint64_t)0x9e3779b9ULL));
        auto absorb = [&](const Expr &v) {
            Expr w = v.type() == u32 ? v : Cast::make(u32, v);
            h.step([&](Expr x) { return Add::make(x, w); });
            h.mix();
        };
        for (const Expr &a : c->args) absorb(a);
        for (const Expr &a : coords) absorb(a);
        Type t = c->type;
        Expr result;
        if (t.is_float()) {
            // The top 24 bits scaled to [0, 1): exactly representable in a float32.
            Expr top = Call::make(u32, Call::shift_right, {h.value, make_const(u32, (uint64_t)8)},
                                  Call::PureIntrinsic);
            result = Mul::make(Cast::make(Float(32), top), make_const(Float(32), 1.0 / 16777216.0));
            if (t != Float(32)) result = Cast::make(t, result);
        } else if (t == u32) {
            result = h.value;
        } else if (t.bits() == 32) {
            result = Reinterpret::make(t, h.value);
        } else {
            result = Cast::make(t, h.value);
        }
        return h.wrap(result);
    });
}

} // namespace internal
} // namespace loom
