#include "lower/storage_folding.h"

#include <loom/ir_operator.h>

#include "analysis/bounds.h"
#include "arith/monotonic.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/compute_path.h"
#include "lower/lower_utils.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <sstream>

namespace loom {
namespace internal {

namespace {

/// Puts `check` right before the `produce f; consume f` block.
class CheckBeforeBlock : public IRMutator {
public:
    CheckBeforeBlock(const Stmt &block, const Stmt &check) : block(block), check(check) {}

protected:
    using IRMutator::visit;
    Stmt visit(const Block *op) override {
        if (op == block.get()) return Block::make(check, Stmt(op));
        return IRMutator::visit(op);
    }

private:
    Stmt block, check;
};

/// Adds `before` at the start and `after` at the end of the body of every loop `loop`.
class WrapLoopBody : public IRMutator {
public:
    WrapLoopBody(const std::string &loop, const Stmt &before, const Stmt &after)
        : loop(loop), before(before), after(after) {}

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt s = IRMutator::visit(op);
        if (op->name != loop) return s;
        const For *f = s.as<For>();
        return f->with_body(Block::make({before, f->body, after}));
    }

private:
    std::string loop;
    Stmt before, after;
};

/// A lower (upper) bound of e where every Select in an additive, min/max or constant-scaled
/// position is replaced by the min (max) of its branches; e unchanged elsewhere.
Expr widen_selects(const Expr &e, bool upper) {
    if (const Select *op = e.as<Select>()) {
        Expr t = widen_selects(op->true_value, upper), f = widen_selects(op->false_value, upper);
        return upper ? Max::make(t, f) : Min::make(t, f);
    }
    if (const Add *op = e.as<Add>()) {
        return Add::make(widen_selects(op->a, upper), widen_selects(op->b, upper));
    }
    if (const Sub *op = e.as<Sub>()) {
        return Sub::make(widen_selects(op->a, upper), widen_selects(op->b, !upper));
    }
    if (const Min *op = e.as<Min>()) {
        return Min::make(widen_selects(op->a, upper), widen_selects(op->b, upper));
    }
    if (const Max *op = e.as<Max>()) {
        return Max::make(widen_selects(op->a, upper), widen_selects(op->b, upper));
    }
    if (const Mul *op = e.as<Mul>()) {
        const int64_t *c = as_const_int(op->b);
        if (c && *c >= 0) return Mul::make(widen_selects(op->a, upper), op->b);
        if (c) return Mul::make(widen_selects(op->a, !upper), op->b);
    }
    if (const Div *op = e.as<Div>()) {
        const int64_t *c = as_const_int(op->b);
        if (c && *c > 0) return Div::make(widen_selects(op->a, upper), op->b);
    }
    return e;
}

int64_t next_power_of_two(int64_t v) {
    int64_t p = 1;
    while (p < v) p *= 2;
    return p;
}

Stmt fold_function(const Realize *op, const Function &f) {
    ComputePath path = find_compute_path(op->body, f);
    auto explicit_factor = [&](const std::string &var) -> Expr {
        for (const StorageDim &sd : f.schedule().storage_dims) {
            if (sd.var == var && sd.fold_factor.defined()) return sd.fold_factor;
        }
        return Expr();
    };
    // Stored at its compute level: there is nothing to fold (Halide ignores fold_storage then).
    if (!path.found || path.loop_index < 0) return op;

    Box touched = box_touched(path.block, f.name());
    if ((int)touched.size() != f.dimensions()) return op;

    // What one iteration of loop `index` touches in each dimension, and how it moves along the
    // loop. The sliding window's select(first iteration, ...) is widened to both branches (a
    // superset of what is touched, which is what a safe fold needs), and the loops inside
    // `index` are bounded by their ranges.
    struct DimFootprint {
        Expr min, max;
        Monotonic dir = Monotonic::Unknown;
    };
    const int innermost = path.loop_index;
    auto footprints = [&](int index) {
        ComputePath at = path;
        at.loop_index = index;
        Scope inner;
        for (int i = index + 1; i <= innermost; i++) {
            const ComputePathNode &n = at.nodes[i];
            if (!n.is_loop()) continue;
            Expr lo = at.expand(n.min, i), hi = at.expand(n.min + n.extent - 1, i);
            inner[n.name] = Interval(bounds_of_expr_in_scope(lo, inner).min,
                                     bounds_of_expr_in_scope(hi, inner).max);
        }
        const std::string &v = at.nodes[index].name;
        std::vector<DimFootprint> dims(f.dimensions());
        for (int d = 0; d < f.dimensions(); d++) {
            if (!touched[d].is_bounded()) {
                dims[d].dir = Monotonic::Constant; // never folded; leaves the choice to the others
                continue;
            }
            Expr tmin = widen_selects(at.expand(touched[d].min, (int)at.nodes.size()), false);
            Expr tmax = widen_selects(at.expand(touched[d].max, (int)at.nodes.size()), true);
            if (!inner.empty()) {
                tmin = bounds_of_expr_in_scope(tmin, inner).min;
                tmax = bounds_of_expr_in_scope(tmax, inner).max;
                if (!tmin.defined() || !tmax.defined()) continue;
            }
            DimFootprint &fp = dims[d];
            fp.min = simplify(tmin);
            fp.max = simplify(tmax);
            fp.dir = is_monotonic(fp.min, v);
            Monotonic dmax = is_monotonic(fp.max, v);
            if (fp.dir == Monotonic::Constant) {
                fp.dir = dmax;
            } else if (dmax != Monotonic::Constant && dmax != fp.dir) {
                fp.dir = Monotonic::Unknown;
            }
        }
        return dims;
    };
    // Fold along the outermost loop where the region moves one way (or stays put). The sliding
    // window reuses values across the iterations of every loop it slid over, so a fold along a
    // loop inside one of those would overwrite values a later iteration of the outer loop still
    // reads (stored at root and computed per pixel, the rows slide down the image: fold the rows,
    // not the columns of one row).
    int fold_loop = innermost;
    std::vector<DimFootprint> dims;
    for (int i = 0; i <= innermost; i++) {
        if (!path.nodes[i].is_loop()) continue;
        dims = footprints(i);
        bool any_unknown = false;
        for (const DimFootprint &fp : dims)
            any_unknown = any_unknown || fp.dir == Monotonic::Unknown;
        if (!any_unknown || i == innermost) {
            fold_loop = i;
            break;
        }
    }
    const std::string &v = path.nodes[fold_loop].name;

    Stmt body = op->body;
    Region bounds = op->bounds;
    bool folded_auto = false;
    for (int d = f.dimensions() - 1; d >= 0; d--) {
        const std::string &var = f.args()[d];
        Expr forced = explicit_factor(var);
        if (!forced.defined() && (folded_auto || f.has_extern_definition())) continue;
        if (!touched[d].is_bounded()) continue;
        Expr tmin = dims[d].min, tmax = dims[d].max;
        Monotonic dir = dims[d].dir;
        if (!path.all_serial || dir == Monotonic::Unknown) {
            user_assert(!forced.defined())
                << "Can't fold storage of " << f.name() << " in dimension " << var << " by "
                << forced << ": the region of " << f.name() << " accessed per iteration of loop "
                << v
                << (path.all_serial ? " does not move monotonically along it"
                                    : " is shared by the iterations of a parallel or vectorized "
                                      "loop between its store and compute levels")
                << ". Folding needs a serial loop along which the region only moves one way; "
                << "remove the fold_storage, or store " << f.name() << " at its compute level.\n";
            continue;
        }
        if (!forced.defined() && dir == Monotonic::Constant) continue; // nothing moves
        Expr footprint = simplify(tmax - tmin + 1);
        const int64_t *c = as_const_int(footprint);
        if (!c) {
            Interval b = bounds_of_expr_in_scope(footprint);
            if (b.has_upper_bound()) {
                Expr hi = simplify(b.max);
                c = as_const_int(hi);
                if (c) footprint = hi;
            }
        }
        Expr factor;
        if (forced.defined()) {
            factor = forced;
            const int64_t *fc = as_const_int(forced);
            if (c && fc && *c > *fc) {
                std::ostringstream msg;
                msg << "The fold factor (" << *fc << ") of dimension " << var << " of " << f.name()
                    << " is too small to store the required region accessed by loop " << v << " ("
                    << *c << "). Use fold_storage(" << var << ", " << *c << ") or more.\n";
                throw CompileError(msg.str());
            }
            if (!c || !fc) {
                Expr extent = simplify(tmax - tmin + 1);
                Stmt check = AssertStmt::make(
                    extent <= forced,
                    runtime_error_call("halide_error_fold_factor_too_small",
                                       {Expr(f.name()), Expr(var), forced, Expr(v), extent}));
                body = CheckBeforeBlock(path.block, check).mutate(body);
            }
        } else {
            if (!c) continue; // symbolic footprint: no automatic fold
            factor = Expr((int32_t)next_power_of_two(*c));
            folded_auto = true;
        }
        body = change_coordinates(body, f.name(), [&](std::vector<Expr> args) {
            args[d] = Mod::make(args[d], factor);
            return args;
        });
        bounds[d] = Range(Expr(0), factor);
        if (f.schedule().async) {
            // An async producer runs ahead of its consumer (src/lower/async_producers.h): it
            // must not overwrite rows the consumer still reads. The semaphore counts the free
            // rows of the fold: each iteration of the fold loop the producer takes the rows it
            // adds to the region (all of it the first time), and the consumer gives back, when
            // done, the rows the next iteration no longer reads.
            const Expr loop_var = Variable::make(Int(32), v);
            auto at = [&](const Expr &e, const Expr &iteration) {
                return simplify(substitute(v, iteration, e));
            };
            Expr first = loop_var == path.nodes[fold_loop].min;
            Expr whole = tmax - tmin + 1;
            Expr added = dir == Monotonic::Decreasing ? at(tmin, loop_var - 1) - tmin
                                                      : tmax - at(tmax, loop_var - 1);
            Expr freed = dir == Monotonic::Decreasing ? tmax - at(tmax, loop_var + 1)
                                                      : at(tmin, loop_var + 1) - tmin;
            const std::string sema = f.name() + ".folding_semaphore." + std::to_string(d);
            Stmt take = acquire_semaphore(sema, simplify(max(select(first, whole, added), 0)));
            Stmt give = release_semaphore(sema, simplify(max(freed, 0)));
            body = allocate_semaphore(sema, factor, WrapLoopBody(v, take, give).mutate(body));
        }
    }
    if (body.same_as(op->body)) return op;
    return Realize::make(op->name, op->types, op->memory_type, bounds, op->condition, body);
}

class StorageFolding : public IRMutator {
public:
    explicit StorageFolding(const std::map<std::string, Function> &env) : env(env) {}

protected:
    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env.find(op->name);
        if (it == env.end()) return s;
        return fold_function(s.as<Realize>(), it->second);
    }

private:
    const std::map<std::string, Function> &env;
};

} // namespace

Stmt storage_folding(const Stmt &s, const std::map<std::string, Function> &env) {
    return StorageFolding(env).mutate(s);
}

} // namespace internal
} // namespace loom
