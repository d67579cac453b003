#include "lower/sliding_window.h"

#include <loom/ir_operator.h>

#include "arith/monotonic.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/compute_path.h"
#include "lower/loop_names.h"
#include "simplify/simplify.h"
#include "support/error.h"

namespace loom {
namespace internal {

namespace {

/// Replaces the value of the LetStmt `name`.
class ReplaceLetValue : public IRMutator {
public:
    ReplaceLetValue(const std::string &n, const Expr &v) : name(n), value(v) {}

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        if (op->name == name) return LetStmt::make(op->name, value, op->body);
        return IRMutator::visit(op);
    }

private:
    std::string name;
    Expr value;
};

/// Slides one Func over the loop `loop_index` of its compute path (the innermost loop when
/// -1), if that is legal: iterations after the first compute only the part of the region the
/// previous iteration did not.
Stmt slide_function(const Stmt &realize_body, const Function &f, int loop_index) {
    ComputePath path = find_compute_path(realize_body, f);
    if (!path.found || path.loop_index < 0 || !path.all_serial) return realize_body;
    const int innermost = path.loop_index;
    if (loop_index >= 0) path.loop_index = loop_index; // expand() stops at this loop
    const ComputePathNode &loop = path.nodes[path.loop_index];
    const std::string &v = loop.name;
    // Loops inside the one slid over: the region may use their variables only in the
    // dimensions that do not move (a moving dimension's previous region must not depend on
    // where an inner loop was when the previous iteration ended).
    std::vector<std::string> inner_loops;
    for (int i = path.loop_index + 1; i <= innermost; i++) {
        if (path.nodes[i].is_loop()) inner_loops.push_back(path.nodes[i].name);
    }

    // The region lets of each stage, expanded to the loop variable and what encloses the loop.
    struct DimRegion {
        std::string min_name, max_name;
        Expr min, max;           ///< as let-bound
        Expr full_min, full_max; ///< with the lets inside the loop substituted
        Monotonic dir_min, dir_max;
    };
    const int stages = 1 + (int)f.updates().size();
    std::vector<std::vector<DimRegion>> regions(stages);
    for (int k = 0; k < stages; k++) {
        for (const std::string &a : f.args()) {
            DimRegion d;
            d.min_name = stage_prefix(f.name(), k) + a + ".min";
            d.max_name = stage_prefix(f.name(), k) + a + ".max";
            int imin = path.find_let(d.min_name), imax = path.find_let(d.max_name);
            if (imin < 0 || imax < 0) return realize_body;
            d.min = path.nodes[imin].value;
            d.max = path.nodes[imax].value;
            d.full_min = path.expand(d.min, imin);
            d.full_max = path.expand(d.max, imax);
            d.dir_min = is_monotonic(d.full_min, v);
            d.dir_max = is_monotonic(d.full_max, v);
            regions[k].push_back(d);
        }
    }
    if (regions[0].empty()) return realize_body;

    // The one dimension whose region moves with the loop, the same in every stage (-1: none).
    int moving = -1;
    for (int k = 0; k < stages; k++) {
        int stage_moving = -1;
        for (size_t i = 0; i < regions[k].size(); i++) {
            const DimRegion &d = regions[k][i];
            if (d.dir_min == Monotonic::Constant && d.dir_max == Monotonic::Constant) continue;
            if (stage_moving >= 0) return realize_body; // more than one dimension moves
            stage_moving = (int)i;
        }
        if (k > 0 && stage_moving != moving) return realize_body;
        moving = stage_moving;
    }

    Expr later = Variable::make(Int(32), v) > loop.min;
    auto prev = [&](const Expr &e) { return substitute(v, Variable::make(Int(32), v) - 1, e); };
    Stmt body = realize_body;
    if (moving < 0) {
        // The same region every iteration: only the first computes it.
        for (int k = 0; k < stages; k++) {
            const DimRegion &d = regions[k][0];
            body = ReplaceLetValue(d.max_name, Select::make(later, d.min - 1, d.max)).mutate(body);
        }
        return body;
    }
    // Every stage's region must move the same way, and not with the loops inside.
    const Monotonic dir = combine(regions[0][moving].dir_min, regions[0][moving].dir_max);
    if (dir != Monotonic::Increasing && dir != Monotonic::Decreasing) return realize_body;
    for (int k = 0; k < stages; k++) {
        const DimRegion &d = regions[k][moving];
        if (combine(d.dir_min, d.dir_max) != dir) return realize_body;
        for (const std::string &inner : inner_loops) {
            if (expr_uses_var(d.full_min, inner) || expr_uses_var(d.full_max, inner)) {
                return realize_body;
            }
        }
    }
    // Each stage computes the part of its region the previous iteration did not.
    for (int k = 0; k < stages; k++) {
        const DimRegion &d = regions[k][moving];
        if (dir == Monotonic::Increasing) {
            Expr fresh = Max::make(d.min, prev(d.full_max) + 1);
            body = ReplaceLetValue(d.min_name, Select::make(later, fresh, d.min)).mutate(body);
        } else {
            Expr fresh = Min::make(d.max, prev(d.full_min) - 1);
            body = ReplaceLetValue(d.max_name, Select::make(later, fresh, d.max)).mutate(body);
        }
    }
    return body;
}

/// Whether f's update stages can slide with its pure stage: each updates f at its pure
/// Vars (f(x, y) += ..., not f(r, y) = ...), reading f itself only there, so the values
/// earlier iterations computed are final and each new row is updated once.
bool updates_can_slide(const Function &f) {
    for (const Definition &u : f.updates()) {
        for (size_t i = 0; i < u.args.size(); i++) {
            const Variable *a = u.args[i].as<Variable>();
            if (!a || a->name != f.args()[i]) return false;
        }
        bool self_elsewhere = false;
        for (const Expr &value : u.values) {
            visit_exprs(value, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                if (c && c->call_type == Call::Halide && c->name == f.name()) {
                    for (size_t i = 0; i < c->args.size(); i++) {
                        const Variable *a = c->args[i].as<Variable>();
                        if (!a || a->name != f.args()[i]) self_elsewhere = true;
                    }
                }
                return !self_elsewhere;
            });
        }
        if (self_elsewhere || !u.specializations.empty()) return false;
    }
    return true;
}

/// Slides one Func over every serial loop between its storage and its computation, innermost
/// first (Halide's lesson 8: stored at root and computed per pixel, each pixel after the first
/// of its row computes one new column, and each row after the first only its new row).
Stmt slide_function(const Stmt &realize_body, const Function &f) {
    ComputePath path = find_compute_path(realize_body, f);
    std::vector<int> loops;
    for (int i = (int)path.nodes.size() - 1; i >= 0; i--) {
        if (path.nodes[i].is_loop()) loops.push_back(i);
    }
    Stmt body = realize_body;
    for (int index : loops) body = slide_function(body, f, index);
    return body;
}

class SlidingWindow : public IRMutator {
public:
    explicit SlidingWindow(const std::map<std::string, Function> &env) : env(env) {}

protected:
    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env.find(op->name);
        if (it == env.end()) return s;
        const Function &f = it->second;
        if (!updates_can_slide(f) || f.has_extern_definition()) return s;
        const Realize *r = s.as<Realize>();
        Stmt body = slide_function(r->body, f);
        if (body.same_as(r->body)) return s;
        return Realize::make(r->name, r->types, r->memory_type, r->bounds, r->condition, body);
    }

private:
    const std::map<std::string, Function> &env;
};

} // namespace

Stmt sliding_window(const Stmt &s, const std::map<std::string, Function> &env) {
    return SlidingWindow(env).mutate(s);
}

} // namespace internal
} // namespace loom
