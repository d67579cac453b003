#include "lower/inline.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "support/error.h"
#include "support/util.h"

#include <map>

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
        body = substitute(direct, body);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            body = Let::make(it->first, it->second, body);
        }
        return body;
    }

private:
    const Function &f;
    std::vector<Expr> values;
};

/// A 32-bit integer mixing step (an avalanche hash: every input bit affects every output bit).
Expr mix32(Expr x) {
    Type u32 = UInt(32);
    auto xor_ = [](Expr a, Expr b) {
        return Call::make(a.type(), Call::bitwise_xor, {a, b}, Call::PureIntrinsic);
    };
    auto shr = [&](Expr a, int n) {
        return Call::make(a.type(), Call::shift_right, {a, make_const(u32, (uint64_t)n)},
                          Call::PureIntrinsic);
    };
    x = xor_(x, shr(x, 16));
    x = Mul::make(x, make_const(u32, (uint64_t)0x7feb352dULL));
    x = xor_(x, shr(x, 15));
    x = Mul::make(x, make_const(u32, (uint64_t)0x846ca68bULL));
    x = xor_(x, shr(x, 16));
    return x;
}

} // namespace

Stmt inline_function(const Stmt &s, const Function &f) { return Inliner(f).mutate(s); }
Expr inline_function(const Expr &e, const Function &f) { return Inliner(f).mutate(e); }

Expr lower_random(const Expr &e, const std::vector<Expr> &coords) {
    return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
        const Call *c = x.as<Call>();
        if (!c || !c->is_intrinsic(Call::random)) return Expr();
        Type u32 = UInt(32);
        Expr h = make_const(u32, (uint64_t)0x9e3779b9ULL);
        auto absorb = [&](const Expr &v) {
            Expr w = v.type() == u32 ? v : Cast::make(u32, v);
            h = mix32(Add::make(h, w));
        };
        for (const Expr &a : c->args) absorb(a);
        for (const Expr &a : coords) absorb(a);
        Type t = c->type;
        if (t.is_float()) {
            // The top 24 bits scaled to [0, 1): exactly representable in a float32.
            Expr top = Call::make(u32, Call::shift_right, {h, make_const(u32, (uint64_t)8)},
                                  Call::PureIntrinsic);
            Expr r = Mul::make(Cast::make(Float(32), top), make_const(Float(32), 1.0 / 16777216.0));
            return t == Float(32) ? r : Cast::make(t, r);
        }
        if (t == u32) return h;
        if (t.bits() == 32) return Reinterpret::make(t, h);
        return Cast::make(t, h);
    });
}

} // namespace internal
} // namespace loom
