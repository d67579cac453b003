#include "lower/inject_prefetch.h"

#include <loom/ir_operator.h>

#include "analysis/bounds.h"
#include "ir/ir_mutator.h"
#include "ir/substitute.h"
#include "lower/loop_names.h"
#include "support/error.h"

namespace loom {
namespace internal {

namespace {

struct Target {
    PrefetchDirective directive;
    std::string from_loop;
};

class InjectPrefetch : public IRMutator {
public:
    InjectPrefetch(const std::map<std::string, Function> &env) : env(env) {
        for (const auto &kv : env) {
            const Function &f = kv.second;
            for (int k = 0; k <= (int)f.updates().size(); k++) {
                const Definition &d = k == 0 ? f.definition() : f.updates()[k - 1];
                const std::string prefix = stage_prefix(f.name(), k);
                for (const PrefetchDirective &p : d.schedule.prefetches) {
                    targets[prefix + p.at].push_back({p, prefix + p.from});
                }
            }
        }
    }

    bool empty() const { return targets.empty(); }

    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = targets.find(op->name);
        if (it == targets.end()) return s;
        const For *loop = s.as<For>();
        Stmt body = loop->body;
        for (const Target &t : it->second) {
            Stmt p = prefetch_stmt(t, loop->body);
            if (p.defined()) body = Block::make(p, body);
        }
        return loop->with_body(body);
    }

private:
    Stmt prefetch_stmt(const Target &t, const Stmt &body) {
        const PrefetchDirective &d = t.directive;
        Expr from = Variable::make(Int(32), t.from_loop);
        Stmt ahead = substitute(t.from_loop, from + cast(Int(32), d.offset), body);
        Box b = box_required(ahead, d.name);
        if (b.empty()) return Stmt();
        for (const Interval &i : b) {
            if (!i.min.defined() || !i.max.defined() || Interval::is_neg_inf(i.min) ||
                Interval::is_pos_inf(i.max)) {
                return Stmt(); // an unbounded box: nothing sensible to prefetch
            }
        }
        Type t_elem;
        IntrusivePtr<RefCounted> func;
        Call::CallType call_type = Call::Halide;
        if (d.param.defined()) {
            t_elem = d.param.type();
            call_type = Call::Image;
        } else {
            auto f = env.find(d.name);
            if (f == env.end()) return Stmt();
            t_elem = f->second.output_types()[0];
            func = f->second.get_contents();
        }
        std::vector<Expr> mins, maxs;
        for (const Interval &i : b) {
            mins.push_back(i.min);
            maxs.push_back(i.max);
        }
        Expr guard;
        if (d.param.defined() && d.strategy != PrefetchBoundStrategy::NonFaulting) {
            for (size_t k = 0; k < b.size(); k++) {
                Expr bmin = Variable::make(Int(32), d.name + ".min." + std::to_string(k));
                Expr bmax =
                    bmin + Variable::make(Int(32), d.name + ".extent." + std::to_string(k)) - 1;
                if (d.strategy == PrefetchBoundStrategy::Clamp) {
                    mins[k] = clamp(mins[k], bmin, bmax);
                    maxs[k] = clamp(maxs[k], bmin, bmax);
                } else {
                    Expr inside = mins[k] >= bmin && maxs[k] <= bmax;
                    guard = guard.defined() ? (guard && inside) : inside;
                }
            }
        }
        // One prefetch per row of dimension 0, over loops of the other dimensions.
        const std::string loop = d.name + ".prefetch." + t.from_loop;
        std::vector<Expr> coords = {mins[0]};
        for (size_t k = 1; k < b.size(); k++) {
            coords.push_back(Variable::make(Int(32), loop + "." + std::to_string(k)));
        }
        Expr element = Call::make(t_elem, d.name, coords, call_type, func, 0, d.param);
        Expr bytes = (maxs[0] - mins[0] + 1) * t_elem.bytes();
        Stmt s =
            Evaluate::make(Call::make(Int(32), Call::prefetch, {element, bytes}, Call::Intrinsic));
        for (size_t k = 1; k < b.size(); k++) {
            s = For::make(loop + "." + std::to_string(k), mins[k], maxs[k] - mins[k] + 1,
                          ForType::Serial, DeviceAPI::None, s);
        }
        if (guard.defined()) s = IfThenElse::make(guard, s);
        return s;
    }

    const std::map<std::string, Function> &env;
    std::map<std::string, std::vector<Target>> targets;
};

} // namespace

Stmt inject_prefetch(const Stmt &s, const std::map<std::string, Function> &env) {
    InjectPrefetch inject(env);
    if (inject.empty()) return s;
    return inject.mutate(s);
}

} // namespace internal
} // namespace loom
