#include "lower/bounds_inference.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"
#include "lower/output_buffers.h"
#include "lower/required_regions.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <functional>
#include <set>
#include <utility>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// The For named `name` in s (null when absent).
const For *find_loop(const Stmt &s, const std::string &name) {
    const For *found = nullptr;
    class Finder : public IRVisitor {
    public:
        Finder(const std::string &n, const For *&f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (!found && op->name == name) {
                found = op;
                return;
            }
            IRVisitor::visit(op);
        }

    private:
        const std::string &name;
        const For *&found;
    } finder(name, found);
    finder.dispatch(s);
    return found;
}

Expr str(const std::string &s) { return Expr(s); }

/// The `produce name` (or `consume name`) node in `s`, looking through the nested produce
/// (consume) nodes of a fused group (compute_with: produce f { produce g { ... } }); null if
/// s is not such a chain.
const ProducerConsumer *find_in_chain(const Stmt &s, const std::string &name, bool is_producer) {
    const ProducerConsumer *p = s.as<ProducerConsumer>();
    while (p && p->is_producer == is_producer && p->name != name) {
        p = p->body.as<ProducerConsumer>();
    }
    return p && p->is_producer == is_producer ? p : nullptr;
}

/// The loops and lets between a Realize and the `produce f; consume f` block of a Func stored
/// outside its compute level, outermost first.
struct PathNode {
    std::string name;
    Expr min, extent; ///< a For's bounds (extent undefined for a LetStmt)
    Expr value;       ///< a LetStmt's value
};

/// Finds the `produce f; consume f` Block inside a Realize body and replaces it by what
/// `replace` makes of it, recording the loops and lets on the way. Lets the callback leaves in
/// `loop_lets` go at the top of the body of the innermost loop on the way instead.
class ReplaceComputeBlock : public IRMutator {
public:
    ReplaceComputeBlock(const std::string &f, std::function<Stmt(const Block *)> replace)
        : f(f), replace(std::move(replace)) {}
    std::vector<PathNode> path;
    bool found = false;
    std::vector<std::pair<std::string, Expr>> loop_lets;

    /// The index in `path` of its innermost loop (path.size() when there is none).
    size_t innermost_loop() const {
        for (size_t i = path.size(); i-- > 0;) {
            if (path[i].extent.defined()) return i;
        }
        return path.size();
    }

protected:
    using IRMutator::visit;
    Stmt visit(const Block *op) override {
        if (found) return op;
        const ProducerConsumer *p = find_in_chain(op->first, f, true);
        if (p) {
            found = true;
            path = stack;
            return replace(op);
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const For *op) override {
        if (found) return op;
        stack.push_back({op->name, op->min, op->extent, Expr()});
        Stmt s = IRMutator::visit(op);
        stack.pop_back();
        if (found && !loop_lets.empty() && innermost_loop() == stack.size()) {
            const For *loop = s.as<For>();
            Stmt body = loop->body;
            for (auto l = loop_lets.rbegin(); l != loop_lets.rend(); ++l) {
                body = LetStmt::make(l->first, simplify(l->second), body);
            }
            loop_lets.clear();
            return loop->with_body(body);
        }
        return s;
    }
    Stmt visit(const LetStmt *op) override {
        if (found) return op;
        stack.push_back({op->name, Expr(), Expr(), op->value});
        Stmt s = IRMutator::visit(op);
        stack.pop_back();
        return s;
    }

private:
    std::string f;
    std::function<Stmt(const Block *)> replace;
    std::vector<PathNode> stack;
};

/// Index of pure dimension `var` of f (-1 if none).
int dim_of(const Function &f, const std::string &var) {
    for (int d = 0; d < f.dimensions(); d++) {
        if (f.args()[d] == var) return d;
    }
    return -1;
}

class BoundsInference : public IRMutator {
public:
    explicit BoundsInference(const CallGraph &graph)
        : env(graph.env), fusion(graph.fusion), func_bounds(graph.value_bounds) {
        for (const Function &o : graph.outputs) output_names.insert(o.name());
    }

protected:
    using IRMutator::visit;

    /// What one `produce f; consume f` block needs: the stage bound lets (outermost first), the
    /// runtime checks of explicit bounds, and the box of f touched per execution of the block
    /// (in terms of the let names).
    struct ComputeBounds {
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Stmt> checks;
        Box touched;
    };

    /// bound/bound_extent/align_bounds/align_extent applied to the region f must compute.
    void apply_bounds(const Function &f, Box &region, ComputeBounds &cb) {
        for (const Bound &b : f.schedule().bounds) {
            int d = dim_of(f, b.var);
            if (d < 0) continue;
            Interval req = region[d];
            Interval r = req;
            if (b.extent.defined()) {
                Expr mn = b.min.defined() ? b.min : req.min;
                r = Interval(mn, simplify(mn + b.extent - 1));
                // What consumers need must fit in the bound (Halide's words and argument order).
                Expr ok =
                    b.min.defined() ? (req.min >= r.min && req.max <= r.max) : (req.max <= r.max);
                cb.checks.push_back(AssertStmt::make(
                    simplify(ok), runtime_error_call("halide_error_explicit_bounds_too_small",
                                                     {str(b.var), str(f.name()), r.min, r.max,
                                                      req.min, req.max})));
            }
            if (b.modulus.defined()) {
                Expr m = b.modulus;
                if (b.remainder.defined()) {
                    Expr rem = b.remainder;
                    Expr mn = ((r.min - rem) / m) * m + rem;
                    Expr end = ((r.max - rem + m) / m) * m + rem;
                    r = Interval(simplify(mn), simplify(end - 1));
                } else {
                    Expr ext = ((r.max - r.min + m) / m) * m;
                    r = Interval(r.min, simplify(r.min + ext - 1));
                }
            }
            region[d] = r;
        }
    }

    ComputeBounds compute_bounds(const Function &f, const ProducerConsumer *produce,
                                 const ProducerConsumer *consume) {
        ComputeBounds cb;
        const bool is_output = output_names.count(f.name()) > 0;
        const int dims = f.dimensions();
        Box region = box_required(consume->body, f.name(), {}, &func_bounds);
        check_bounded(region, consume->body, f.name(), "Func", func_bounds);
        // Both sides of a Select are evaluated (a vector select loads every lane), so the
        // storage must also cover what the consumers may load where a Select's condition
        // narrowed what they need, as Halide's realizations do. Only the dimensions where that
        // is provably more (the union's unsimplified bounds would cost precision wherever the
        // storage is bounded again) and bounded (not a data-dependent index a condition guards).
        Box loaded = box_loaded(consume->body, f.name(), {}, &func_bounds);
        for (size_t d = 0; d < loaded.size() && d < region.size(); d++) {
            if (can_prove(loaded[d].min >= region[d].min && loaded[d].max <= region[d].max)) {
                loaded[d] = Interval();
            }
        }
        if (is_output) {
            // An output covers its whole buffer, plus whatever other outputs read of it.
            const std::string buf = output_buffer_name(f, 0);
            Box out;
            for (int d = 0; d < dims; d++) {
                Expr mn = var(buf + ".min." + std::to_string(d));
                Expr ext = var(buf + ".extent." + std::to_string(d));
                out.emplace_back(mn, simplify(mn + ext - 1));
            }
            region = box_union(out, region);
        }
        if (region.empty()) {
            // Not read by anything here: compute nothing.
            for (int d = 0; d < dims; d++) region.emplace_back(Expr(0), Expr(-1));
        }
        internal_assert((int)region.size() == dims)
            << "bounds_inference: box of " << f.name() << " has " << region.size() << " dims\n";
        apply_bounds(f, region, cb);

        // Stages, last to first. `lets` is outermost first.
        std::vector<std::pair<std::string, Expr>> &lets = cb.lets;
        const int n = num_stages(f);
        std::vector<Stmt> nests(n);
        for (int k = 0; k < n; k++) {
            // A stage sharing loops with others (compute_with) has no nest of its own; its
            // requirements are those of the nest it has when computed alone.
            if (fusion.find(f.name(), k) >= 0) {
                nests[k] = build_provide_loop_nest(f, k);
                continue;
            }
            nests[k] = find_loop(produce->body, outermost_loop_name(f.name(), k));
            internal_assert(nests[k].defined())
                << "bounds_inference: no loop nest for stage " << k << " of " << f.name() << "\n";
        }
        for (int k = n - 1; k >= 0; k--) {
            const Definition &def = stage_definition(f, k);
            const std::string prefix = stage_prefix(f.name(), k);
            for (int d = 0; d < dims; d++) {
                std::string v;
                if (k == 0) {
                    v = f.args()[d];
                } else if (const Variable *a = def.args[d].as<Variable>()) {
                    if (!a->reduction_domain.defined() && !a->param.defined()) v = a->name;
                }
                if (v.empty()) continue;
                lets.emplace_back(prefix + v + ".min", region[d].min);
                lets.emplace_back(prefix + v + ".max", region[d].max);
            }
            if (k > 0) {
                // Stage k reads f (at least at the points it updates): the earlier stages must
                // have computed all of it.
                Box reads = box_required(nests[k], f.name(), {}, &func_bounds);
                check_bounded(reads, nests[k], f.name(), "Func", func_bounds);
                region = box_union(region, reads);
                // Refer to the region through fresh names so expressions stay small.
                for (int d = 0; d < dims; d++) {
                    std::string base = prefix + "required." + std::to_string(d);
                    lets.emplace_back(base + ".min", region[d].min);
                    lets.emplace_back(base + ".max", region[d].max);
                    region[d] = Interval(var(base + ".min"), var(base + ".max"));
                }
            }
        }
        // Storage: every point read (region) or written (each stage's provides), and what
        // Selects may load beyond what the consumers must read (see `loaded` above).
        cb.touched = region;
        for (int d = 0; d < (int)loaded.size(); d++) {
            if (loaded[d].is_bounded())
                cb.touched[d] = Interval::make_union(cb.touched[d], loaded[d]);
        }
        for (int k = 0; k < n; k++) {
            Box provided = box_provided(nests[k], f.name(), {}, &func_bounds);
            check_bounded(provided, nests[k], f.name(), "Func", func_bounds);
            cb.touched = box_union(cb.touched, provided);
        }
        return cb;
    }

    /// The lets defining "<f>.<v>.min_realized/.extent_realized" from the touched box, with
    /// bound_storage (checked at run time) and align_storage applied.
    std::vector<std::pair<std::string, Expr>> realized_lets(const Function &f, const Box &touched,
                                                            std::vector<Stmt> &checks) {
        std::vector<std::pair<std::string, Expr>> lets;
        const bool is_output = output_names.count(f.name()) > 0;
        for (int d = 0; d < f.dimensions(); d++) {
            const std::string &a = f.args()[d];
            const std::string base = f.name() + "." + a;
            // An empty box (max < min: computed inside the guarded-out tail of a GuardWithIf
            // split, where the consumer needs nothing) is an empty realization, not a negative
            // size (fuzz seed 34: halide_malloc of a "negative" size).
            Expr extent = simplify(Max::make(touched[d].max + 1 - touched[d].min, 0));
            for (const StorageDim &sd : f.schedule().storage_dims) {
                if (sd.var != a || is_output) continue;
                if (sd.bound.defined()) {
                    checks.push_back(AssertStmt::make(
                        simplify(extent <= sd.bound),
                        runtime_error_call("halide_error_storage_bound_too_small",
                                           {str(f.name()), str(a), sd.bound, extent})));
                    extent = sd.bound;
                }
                if (sd.alignment.defined()) {
                    extent = simplify(((extent + sd.alignment - 1) / sd.alignment) * sd.alignment);
                }
            }
            lets.emplace_back(base + ".min_realized", touched[d].min);
            lets.emplace_back(base + ".extent_realized", extent);
        }
        return lets;
    }

    static Stmt wrap(Stmt s, const std::vector<std::pair<std::string, Expr>> &lets) {
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            s = LetStmt::make(l->first, simplify(l->second), s);
        }
        return s;
    }

    /// s inside `lets` (outermost first), whose values are already simplified.
    static Stmt wrap_as_is(Stmt s, const std::vector<std::pair<std::string, Expr>> &lets) {
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            s = LetStmt::make(l->first, l->second, s);
        }
        return s;
    }

    static Stmt with_checks(const std::vector<Stmt> &checks, Stmt s) {
        if (checks.empty()) return s;
        std::vector<Stmt> all = checks;
        all.push_back(s);
        return Block::make(all);
    }

    Stmt visit(const Realize *op) override {
        auto it = env.find(op->name);
        if (it == env.end()) return IRMutator::visit(op);
        const Function &f = it->second;

        // Inner realizations first: their bounds are what this one's consumers loop over.
        Stmt body = mutate(op->body);
        const Block *block = body.as<Block>();
        const ProducerConsumer *produce =
            block ? find_in_chain(block->first, f.name(), true) : nullptr;
        const ProducerConsumer *consume =
            block ? find_in_chain(block->rest, f.name(), false) : nullptr;
        if (produce && consume) {
            // The bound lets of the consumers realized right inside (they open f's consume
            // body) move out in front of f's: they depend on nothing f defines, and f's
            // region, computed from the consumers' loops, then refers to their names
            // (f.s0.x.min = g.s0.x.min - 1, as in Halide) instead of repeating their values,
            // which grew with every stage of a pipeline.
            std::vector<std::pair<std::string, Expr>> consumer_lets;
            if (block->rest.as<ProducerConsumer>() == consume) {
                Stmt inner = consume->body;
                while (const LetStmt *l = inner.as<LetStmt>()) {
                    consumer_lets.emplace_back(l->name, l->value);
                    inner = l->body;
                }
                if (!consumer_lets.empty()) {
                    body = Block::make(block->first,
                                       ProducerConsumer::make_consume(consume->name, inner));
                    block = body.as<Block>();
                    produce = find_in_chain(block->first, f.name(), true);
                    consume = block->rest.as<ProducerConsumer>();
                }
            }
            // Stored where it is computed: every let of f goes around the Realize.
            ComputeBounds cb = compute_bounds(f, produce, consume);
            std::vector<Stmt> checks = cb.checks;
            std::vector<std::pair<std::string, Expr>> lets = cb.lets;
            for (const auto &l : realized_lets(f, cb.touched, checks)) lets.push_back(l);
            Stmt result = Realize::make(op->name, op->types, op->memory_type, op->bounds,
                                        op->condition, body);
            return wrap_as_is(wrap(with_checks(checks, result), lets), consumer_lets);
        }

        // Stored outside the compute level: the stage lets go at the top of the body of the
        // compute loop (they depend on the loops in between), ahead of the lets of the Funcs
        // computed at that loop before f, whose regions depend on f's (h.compute_at(g, y) and
        // f.store_root().compute_at(g, y), f reading h); or around `produce f; consume f` when
        // they use a let defined inside that loop. The storage covers the touched region over
        // every iteration of those loops.
        ComputeBounds cb;
        ReplaceComputeBlock replace(f.name(), [&](const Block *b) {
            cb = compute_bounds(f, find_in_chain(b->first, f.name(), true),
                                find_in_chain(b->rest, f.name(), false));
            std::set<std::string> inner;
            for (size_t i = replace.innermost_loop() + 1; i < replace.path.size(); i++) {
                inner.insert(replace.path[i].name);
            }
            bool movable = replace.innermost_loop() < replace.path.size();
            for (size_t i = 0; movable && i < cb.lets.size(); i++) {
                movable = !expr_uses_vars(cb.lets[i].second, inner);
            }
            if (!movable) return wrap(with_checks(cb.checks, Stmt(b)), cb.lets);
            replace.loop_lets = cb.lets;
            return with_checks(cb.checks, Stmt(b));
        });
        body = replace.mutate(body);
        internal_assert(replace.found)
            << "bounds_inference: realize " << f.name() << " has no produce; consume block\n";
        // The touched box in terms of the loops and lets between the Realize and the block.
        Box touched = cb.touched;
        for (auto l = cb.lets.rbegin(); l != cb.lets.rend(); ++l) {
            for (Interval &i : touched) {
                i.min = substitute(l->first, l->second, i.min);
                i.max = substitute(l->first, l->second, i.max);
            }
        }
        Scope scope;
        for (const PathNode &p : replace.path) {
            if (p.extent.defined()) {
                Interval lo = bounds_of_expr_in_scope(p.min, scope, &func_bounds);
                Interval hi =
                    bounds_of_expr_in_scope(simplify(p.min + p.extent - 1), scope, &func_bounds);
                scope[p.name] = Interval(lo.min, hi.max);
            } else {
                scope[p.name] = bounds_of_expr_in_scope(p.value, scope, &func_bounds);
            }
        }
        for (Interval &i : touched) {
            Interval lo = bounds_of_expr_in_scope(simplify(i.min), scope, &func_bounds);
            Interval hi = bounds_of_expr_in_scope(simplify(i.max), scope, &func_bounds);
            i = Interval(lo.min, hi.max);
        }
        check_bounded(touched, body, f.name(), "Func", func_bounds);
        std::vector<Stmt> checks;
        std::vector<std::pair<std::string, Expr>> lets = realized_lets(f, touched, checks);
        Stmt result =
            Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
        return wrap(with_checks(checks, result), lets);
    }

private:
    const std::map<std::string, Function> &env;
    const Fusion &fusion;
    const FuncValueBounds &func_bounds;
    std::set<std::string> output_names;
};

} // namespace

Stmt bounds_inference(const Stmt &s, const CallGraph &graph) {
    return BoundsInference(graph).mutate(s);
}

} // namespace internal
} // namespace loom
