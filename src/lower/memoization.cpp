#include "lower/memoization.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "lower/lower_utils.h"
#include "support/error.h"

#include <set>

namespace loom {
namespace internal {

namespace {

/// A scalar as the 8 bytes of a uint64 key field.
Expr key_field(const Expr &e) {
    Type t = e.type();
    if (t.is_float()) return Reinterpret::make(UInt(64), Cast::make(Float(64), e));
    if (t.is_handle()) return Reinterpret::make(UInt(64), e);
    return Cast::make(UInt(64), e);
}

/// FNV-1a: a stable 64-bit hash of the Func's name.
uint64_t name_hash(const std::string &s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h;
}

/// The scalar Params that f's values depend on, through every Func it calls, by name.
std::map<std::string, Parameter> scalar_params(const Function &f) {
    std::map<std::string, Parameter> out;
    std::set<std::string> seen;
    std::vector<Function> todo = {f};
    auto scan = [&](const Expr &e) {
        if (!e.defined()) return;
        visit_exprs(e, [&](const Expr &x) {
            if (const Variable *v = x.as<Variable>()) {
                if (v->param.defined() && !v->param.is_buffer()) out[v->name] = v->param;
            } else if (const Call *c = x.as<Call>()) {
                if (c->call_type == Call::Halide && c->func.defined()) {
                    Function g(c->func);
                    if (!seen.count(g.name())) todo.push_back(g);
                }
            }
            return true;
        });
    };
    while (!todo.empty()) {
        Function g = todo.back();
        todo.pop_back();
        if (!seen.insert(g.name()).second) continue;
        std::vector<const Definition *> defs = {&g.definition()};
        for (const Definition &u : g.updates()) defs.push_back(&u);
        for (const Definition *d : defs) {
            for (const Expr &e : d->args) scan(e);
            for (const Expr &e : d->values) scan(e);
            scan(d->predicate);
            if (d->rdom.defined()) {
                for (const ReductionVariable &rv : d->rdom.domain()) {
                    scan(rv.min);
                    scan(rv.extent);
                }
            }
        }
        for (const ExternFuncArgument &a : g.extern_arguments()) {
            if (a.is_expr()) scan(a.expr);
        }
    }
    return out;
}

class InjectMemoization : public IRMutator {
public:
    explicit InjectMemoization(const std::map<std::string, Function> &env) : env(env) {}

    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        // The production inside sees the realized region through these bounds.
        auto old = realized.find(op->name);
        Region saved;
        bool had = old != realized.end();
        if (had) saved = old->second;
        realized[op->name] = op->bounds;
        Stmt s = IRMutator::visit(op);
        if (had) {
            realized[op->name] = saved;
        } else {
            realized.erase(op->name);
        }
        return s;
    }

    Stmt visit(const ProducerConsumer *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env.find(op->name);
        if (!op->is_producer || it == env.end() || !it->second.schedule().memoized) return s;
        const Function &f = it->second;
        const std::string p = f.name() + ".memoize.";

        std::vector<Expr> mins, extents;
        std::vector<Expr> key = {make_const(UInt(64), name_hash(f.name()))};
        auto rb = realized.find(f.name());
        internal_assert(rb != realized.end()) << "memoized " << f.name() << " has no Realize\n";
        for (const Range &r : rb->second) {
            mins.push_back(r.min);
            extents.push_back(r.extent);
            key.push_back(key_field(r.min));
            key.push_back(key_field(r.extent));
        }
        for (const auto &kv : scalar_params(f)) {
            key.push_back(key_field(Variable::make(kv.second.type(), kv.first, kv.second)));
        }
        const Expr &eviction = f.schedule().memoize_eviction_key;

        std::vector<Expr> buffers;
        for (int k = 0; k < f.outputs(); k++) {
            buffers.push_back(Variable::make(Handle(), p + "buffer." + std::to_string(k)));
        }
        Expr key_ptr = Variable::make(Handle(), p + "key");
        Expr key_size = Expr((int)(8 * key.size()));
        Expr tuple = Variable::make(Handle(), p + "buffers");
        Expr n = Expr(f.outputs());
        Expr lookup =
            Call::make(Int(32), "halide_memoization_cache_lookup",
                       {null_handle(), key_ptr, key_size, buffers[0], n, tuple}, Call::Extern);
        Expr store = Call::make(Int(32), "halide_memoization_cache_store",
                                {null_handle(), key_ptr, key_size, buffers[0], n, tuple,
                                 make_bool(eviction.defined()),
                                 eviction.defined() ? key_field(eviction) : make_zero(UInt(64))},
                                Call::Extern);
        Expr miss = Variable::make(Int(32), p + "miss");
        Stmt body = IfThenElse::make(miss != 0, Block::make(s, Evaluate::make(store)));
        body = LetStmt::make(p + "miss", lookup, body);
        body = LetStmt::make(
            p + "buffers", Call::make(Handle(), Call::make_struct, buffers, Call::Intrinsic), body);
        for (int k = f.outputs() - 1; k >= 0; k--) {
            std::string host = f.outputs() == 1 ? f.name() : f.name() + "." + std::to_string(k);
            body = LetStmt::make(p + "buffer." + std::to_string(k),
                                 make_buffer(Variable::make(Handle(), host), f.output_types()[k],
                                             mins, extents, dense_strides(extents)),
                                 body);
        }
        body = LetStmt::make(p + "key",
                             Call::make(Handle(), Call::make_struct, key, Call::Intrinsic), body);
        return body;
    }

private:
    const std::map<std::string, Function> &env;
    std::map<std::string, Region> realized;
};

} // namespace

Stmt inject_memoization(const Stmt &s, const std::vector<Function> &outputs,
                        const std::map<std::string, Function> &env) {
    bool any = false;
    for (const auto &kv : env) {
        const Function &f = kv.second;
        if (!f.schedule().memoized) continue;
        for (const Function &o : outputs) {
            user_assert(!o.same_as(f))
                << "Func " << f.name() << " is memoized but is an output of the pipeline; "
                << "Loom memoizes only Funcs computed inside it. Memoize a Func the output "
                << "reads (e.g. wrap it: out(x) = " << f.name() << "(x)).\n";
        }
        user_assert(f.schedule().compute_level.is_root())
            << "Func " << f.name() << " is memoized but not computed at the root; memoize() "
            << "needs " << f.name() << ".compute_root().\n";
        any = true;
    }
    if (!any) return s;
    return InjectMemoization(env).mutate(s);
}

} // namespace internal
} // namespace loom
