// The regions of Funcs and buffers that a Stmt reads and writes (boxes_required,
// boxes_provided, boxes_touched in bounds.h).

#include "analysis/bounds.h"

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <memory>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace loom {
namespace internal {

namespace {

/// An IRVisitor that walks only the Stmts in `relevant_stmts` (every one when null), each
/// through Derived::walk (the plain visit unless Derived overloads it for that node): the walks
/// below skip the parts of a pipeline that access nothing they want (StmtsAccessing).
template <typename Derived>
class RelevantStmtsWalker : public IRVisitor {
protected:
    explicit RelevantStmtsWalker(const std::unordered_set<const IRNode *> *relevant_stmts)
        : relevant_stmts(relevant_stmts) {}
    const std::unordered_set<const IRNode *> *relevant_stmts;

    using IRVisitor::visit;
#define LOOM_IR_EXPR(N)
#define LOOM_IR_STMT(N)                                                                            \
    void visit(const N *op) override {                                                             \
        if (!relevant_stmts || relevant_stmts->count(op)) static_cast<Derived *>(this)->walk(op);  \
    }
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT

    template <typename Node>
    void walk(const Node *op) {
        IRVisitor::visit(op);
    }
};

/// The Let, LetStmt and loop names whose bounds can reach a box: those in the coordinates of
/// the wanted Func and buffer accesses and in the conditions that narrow them, closed over the
/// values defining them (a let's value, a loop's min and extent). An inlined pipeline nests
/// hundreds of Lets of pixel values that no coordinate uses, and the box of one buffer in a
/// long pipeline needs the bound lets and loops of the few stages that lead to its accesses;
/// bounding the others (add_image_checks asked for the whole pipeline's) was most of the time.
class LetsReachingBoxes : public RelevantStmtsWalker<LetsReachingBoxes> {
public:
    /// `relevant_stmts`: the lets of the other Stmts are not in scope at any wanted access, so
    /// their uses need not be collected.
    LetsReachingBoxes(const std::set<std::string> *only,
                      const std::unordered_set<const IRNode *> *relevant_stmts)
        : RelevantStmtsWalker(relevant_stmts), only(only) {}
    std::set<std::string> names;

    void close() {
        std::vector<std::string> work(names.begin(), names.end());
        while (!work.empty()) {
            std::string n = work.back();
            work.pop_back();
            auto it = let_uses.find(n);
            if (it == let_uses.end()) continue;
            for (const std::string &u : it->second) {
                if (names.insert(u).second) work.push_back(u);
            }
        }
    }

private:
    /// When set, the names whose accesses matter (all when null).
    const std::set<std::string> *only;
    std::map<std::string, std::set<std::string>> let_uses;

    friend class RelevantStmtsWalker<LetsReachingBoxes>;
    using RelevantStmtsWalker::visit;
    using RelevantStmtsWalker::walk;

    void add_vars(const Expr &e, std::set<std::string> &to) {
        visit_exprs(e, [&](const Expr &x) {
            if (const Variable *v = x.as<Variable>()) to.insert(v->name);
            return true;
        });
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            if (!only || only->count(op->name)) {
                for (const Expr &a : op->args) add_vars(a, names);
            }
        } else if (op->is_intrinsic(Call::if_then_else) && !op->args.empty()) {
            add_vars(op->args[0], names);
        }
    }
    void walk(const Provide *op) {
        IRVisitor::visit(op);
        if (!only || only->count(op->name)) {
            for (const Expr &a : op->args) add_vars(a, names);
        }
    }
    void visit(const Select *op) override {
        IRVisitor::visit(op);
        add_vars(op->condition, names);
    }
    void walk(const IfThenElse *op) {
        IRVisitor::visit(op);
        add_vars(op->condition, names);
    }
    void visit(const Let *op) override {
        IRVisitor::visit(op);
        add_vars(op->value, let_uses[op->name]);
    }
    void walk(const LetStmt *op) {
        IRVisitor::visit(op);
        add_vars(op->value, let_uses[op->name]);
    }
    void walk(const For *op) {
        IRVisitor::visit(op);
        add_vars(op->min, let_uses[op->name]);
        add_vars(op->extent, let_uses[op->name]);
    }
};

/// The Stmt nodes under which one of some names is accessed (read when `calls`, written when
/// `provides`). The box of one Func inside a long pipeline (bounds inference asks for the box
/// of each Func in everything after its production) only needs those subtrees: bounding the
/// loops and lets of every other stage was most of the time bounds inference spent on a chain
/// of root stages, and quadratic in its length.
class StmtsAccessing : public IRVisitor {
public:
    StmtsAccessing(const std::set<std::string> &names, bool calls, bool provides)
        : names(names), calls(calls), provides(provides) {}
    std::unordered_set<const IRNode *> accessing;

private:
    const std::set<std::string> &names;
    bool calls, provides;
    bool found = false;

    using IRVisitor::visit;

    template <typename Node>
    void visit_stmt(const Node *op) {
        bool outer = found;
        found = false;
        IRVisitor::visit(op);
        if constexpr (std::is_same<Node, Provide>::value) {
            if (provides && names.count(op->name)) found = true;
        }
        if (found) accessing.insert(op);
        found = found || outer;
    }

#define LOOM_IR_EXPR(N)
#define LOOM_IR_STMT(N)                                                                            \
    void visit(const N *op) override { visit_stmt(op); }
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (calls && (op->call_type == Call::Halide || op->call_type == Call::Image) &&
            names.count(op->name)) {
            found = true;
        }
    }
};

/// Walks a Stmt or Expr keeping the bounds of every loop variable and let-bound name in scope,
/// and unions the bounds of each Func/buffer access into its Box.
class BoxesTouched : public RelevantStmtsWalker<BoxesTouched> {
public:
    BoxesTouched(const Scope &s, const FuncValueBounds *func_bounds, bool calls, bool provides,
                 const std::set<std::string> *only, std::set<std::string> relevant_lets,
                 const std::unordered_set<const IRNode *> *relevant_stmts, bool narrow_selects)
        : RelevantStmtsWalker(relevant_stmts), scope(s), func_bounds(func_bounds),
          consider_calls(calls), consider_provides(provides), narrow_selects(narrow_selects),
          only(only), relevant_lets(std::move(relevant_lets)) {}

private:
    Scope scope;
    const FuncValueBounds *func_bounds;
    /// The values of the LetStmts in scope, so a loop extent defined as `max - min + 1` can be
    /// expanded in `min + extent - 1`: bounding the two terms separately would decorrelate
    /// them and give max(max) + max(min) - min(min) instead of max(max).
    std::map<std::string, Expr> let_values;
    bool consider_calls, consider_provides;
    /// Whether a Select's condition narrows its branches' boxes. Both sides of a Select are
    /// evaluated (a vector select loads every lane), so what may be loaded is the union
    /// without narrowing; what must be computed is the narrowed one.
    bool narrow_selects;
    /// When set, the names whose boxes are wanted (skips the work for the others).
    const std::set<std::string> *only;
    /// The Let names worth bounding (LetsReachingBoxes); the others are bound to everything.
    std::set<std::string> relevant_lets;

    // Every Stmt is walked only when it can touch a wanted name; walk() does the work.
    friend class RelevantStmtsWalker<BoxesTouched>;
    using RelevantStmtsWalker::visit;
    using RelevantStmtsWalker::walk;

    /// The distinct intervals of one coordinate of one Func or buffer, unioned at the end:
    /// unioning each access into a growing min/max chain simplified the chain once per access,
    /// quadratic in the accesses of an inlined pipeline (thousands of taps, a few distinct).
    struct Coordinate {
        std::vector<Interval> distinct;
        std::unordered_multimap<uint64_t, size_t> by_hash;
    };
    std::map<std::string, std::vector<Coordinate>> pending;

    void add(const std::string &name, const std::vector<Expr> &args) {
        if (only && !only->count(name)) return;
        auto it = pending.find(name);
        if (it == pending.end())
            it = pending.emplace(name, std::vector<Coordinate>(args.size())).first;
        internal_assert(it->second.size() == args.size())
            << name << " is accessed with " << it->second.size() << " and " << args.size()
            << " coordinates\n";
        for (size_t d = 0; d < args.size(); d++) {
            Interval i = bounds_of_expr_in_scope(args[d], scope, func_bounds);
            Coordinate &c = it->second[d];
            // No memo across accesses: a duplicate's nodes are freed, and their addresses reused.
            uint64_t h = hash_expr(i.min) * 31 + hash_expr(i.max);
            bool seen = false;
            auto range = c.by_hash.equal_range(h);
            for (auto k = range.first; k != range.second && !seen; ++k) {
                const Interval &o = c.distinct[k->second];
                seen = equal(o.min, i.min) && equal(o.max, i.max);
            }
            if (seen) continue;
            c.by_hash.emplace(h, c.distinct.size());
            c.distinct.push_back(std::move(i));
        }
    }

public:
    /// The boxes of the walk: each coordinate's distinct intervals unioned pairwise (a balanced
    /// tree, so each simplification sees a small expression).
    std::map<std::string, Box> finish() {
        std::map<std::string, Box> boxes;
        for (auto &p : pending) {
            Box b;
            for (Coordinate &c : p.second) {
                std::vector<Interval> level = std::move(c.distinct);
                while (level.size() > 1) {
                    std::vector<Interval> next;
                    for (size_t k = 0; k + 1 < level.size(); k += 2) {
                        next.push_back(Interval::make_union(level[k], level[k + 1]));
                    }
                    if (level.size() % 2) next.push_back(level.back());
                    level = std::move(next);
                }
                Interval i = level.empty() ? Interval::nothing() : level[0];
                if (!named_bounds.empty()) {
                    i.min = with_named_bounds(i.min);
                    i.max = with_named_bounds(i.max);
                }
                b.push_back(i);
            }
            boxes.emplace(p.first, std::move(b));
        }
        return boxes;
    }

private:
    template <typename F>
    void with_binding(const std::string &name, const Interval &iv, F f) {
        auto it = scope.find(name);
        bool had = it != scope.end();
        Interval old = had ? it->second : Interval();
        scope[name] = iv;
        f();
        if (had)
            scope[name] = old;
        else
            scope.erase(name);
    }

    /// Visits `yes` where cond holds and `no` where it does not, each with the variables that
    /// cond compares narrowed accordingly.
    template <typename Node>
    void visit_branches(const Expr &cond, const Node &yes, const Node &no) {
        dispatch(cond);
        Scope saved = scope;
        scope = scope_with_condition(saved, cond, true);
        dispatch(yes);
        scope = scope_with_condition(saved, cond, false);
        dispatch(no);
        scope = saved;
    }

    void visit(const Call *op) override {
        if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3) {
            visit_branches(op->args[0], op->args[1], op->args[2]);
            return;
        }
        IRVisitor::visit(op);
        if (consider_calls && (op->call_type == Call::Halide || op->call_type == Call::Image)) {
            add(op->name, op->args);
        }
    }

    void walk(const Provide *op) {
        IRVisitor::visit(op);
        if (consider_provides) add(op->name, op->args);
    }

    void visit(const Let *op) override {
        dispatch(op->value);
        Interval v = relevant_lets.count(op->name)
                         ? bounds_of_expr_in_scope(op->value, scope, func_bounds)
                         : Interval::everything();
        with_binding(op->name, v, [&] { dispatch(op->body); });
    }

    void walk(const LetStmt *op) {
        dispatch(op->value);
        Interval v = relevant_lets.count(op->name)
                         ? named_if_large(bounds_of_expr_in_scope(op->value, scope, func_bounds))
                         : Interval::everything();
        auto it = let_values.find(op->name);
        bool had = it != let_values.end();
        Expr old = had ? it->second : Expr();
        let_values[op->name] = op->value;
        with_binding(op->name, v, [&] { dispatch(op->body); });
        if (had)
            let_values[op->name] = old;
        else
            let_values.erase(op->name);
    }

    /// The bounds of LetStmts too large to substitute, under fresh names (in the order they
    /// were made; a later one can refer to an earlier one). finish() wraps the boxes in them.
    std::vector<std::pair<std::string, Expr>> named_bounds;

    /// v, with an end of more than kMaxSubstitutedNodes nodes replaced by a fresh name (as
    /// Halide's boxes do). The bound lets of a chain of stages read through clamps define each
    /// stage's region through its consumer's several times over; substituting the whole chain
    /// into every box grew them exponentially with the chain's length.
    Interval named_if_large(Interval v) {
        const int kMaxSubstitutedNodes = 100;
        auto large = [&](const Expr &e) { return expr_larger_than(e, kMaxSubstitutedNodes); };
        auto name = [&](const Expr &e) {
            std::string n = unique_name('b');
            named_bounds.emplace_back(n, e);
            return Variable::make(e.type(), n);
        };
        bool lo = v.has_lower_bound() && large(v.min);
        bool hi = v.has_upper_bound() && large(v.max);
        if (lo && hi && v.is_single_point()) {
            v.min = v.max = name(v.min);
            return v;
        }
        if (lo) v.min = name(v.min);
        if (hi) v.max = name(v.max);
        return v;
    }

    /// e inside the named bounds it refers to.
    Expr with_named_bounds(Expr e) const {
        for (auto it = named_bounds.rbegin(); it != named_bounds.rend(); ++it) {
            if (expr_uses_var(e, it->first)) e = Let::make(it->first, it->second, e);
        }
        return e;
    }

    void walk(const For *op) {
        dispatch(op->min);
        dispatch(op->extent);
        if (!relevant_lets.count(op->name)) {
            // No box depends on this loop's variable: skip bounding it.
            with_binding(op->name, Interval::everything(), [&] { dispatch(op->body); });
            return;
        }
        // The loop variable runs over [min, min + extent - 1] for every value of min/extent.
        Interval lo = bounds_of_expr_in_scope(op->min, scope, func_bounds);
        Expr extent = op->extent;
        if (const Variable *v = extent.as<Variable>()) {
            auto it = let_values.find(v->name);
            if (it != let_values.end()) extent = it->second;
        }
        if (!is_const(extent)) {
            // A loop over a block of constant size whose ends are lets of the same origin (the
            // outer loop of a RoundUp split of a Func computed per register block:
            // `(f.s1.x.loop_extent + 15) / 16`, with loop_extent = max - min + 1 and max = min
            // + 31 through lets) is constant once the lets are expanded; bounding the ends
            // separately would take the difference over the whole image instead.
            Expr full = constant_with_lets(extent);
            if (full.defined()) extent = full;
        }
        Expr last = simplify(Sub::make(Add::make(op->min, extent), make_one(op->min.type())));
        Interval hi = bounds_of_expr_in_scope(last, scope, func_bounds);
        // The min through its let as well: with `loop_extent = (f.max + 1) - f.min` and
        // `loop_min = f.min`, the last iteration is f.max. Bounding loop_min and loop_extent
        // apart over an outer loop adds the min's whole range to the extent (a Func computed
        // per strip of its consumer made its producer's region almost twice too tall). Both
        // are upper bounds, and the let's name can be the tighter one (camera_pipe's input
        // region grew past the image with the value alone), so the smaller is kept.
        if (const Variable *v = op->min.as<Variable>()) {
            auto it = let_values.find(v->name);
            if (it != let_values.end()) {
                Expr last2 =
                    simplify(Sub::make(Add::make(it->second, extent), make_one(op->min.type())));
                hi = Interval::make_intersection(
                    hi, bounds_of_expr_in_scope(last2, scope, func_bounds));
            }
        }
        with_binding(op->name, Interval(lo.min, hi.max), [&] { dispatch(op->body); });
    }

    /// e with the lets in scope expanded (as deep as their chain goes) and simplified, if that
    /// is a constant; an undefined Expr otherwise, or when the expansion grows past a size that
    /// could only come from a long chain of non-block lets.
    Expr constant_with_lets(const Expr &e) const {
        Expr full = expand_lets(let_values, e, 4000);
        if (!full.defined()) return Expr();
        full = simplify(full);
        return is_const(full) ? full : Expr();
    }

    void visit(const Select *op) override {
        if (narrow_selects) {
            visit_branches(op->condition, op->true_value, op->false_value);
        } else {
            IRVisitor::visit(op);
        }
    }

    void walk(const IfThenElse *op) { visit_branches(op->condition, op->then_case, op->else_case); }
};

/// The boxes of n (of the names in `only` when set: a walk of the statements accessing them,
/// bounding only the lets and loops their coordinates depend on).
template <typename Node>
std::map<std::string, Box>
boxes_of(const Node &n, const Scope &scope, const FuncValueBounds *func_bounds, bool calls,
         bool provides, const std::set<std::string> *only = nullptr, bool narrow_selects = true) {
    std::unique_ptr<StmtsAccessing> accessing;
    if (only) {
        accessing = std::make_unique<StmtsAccessing>(*only, calls, provides);
        accessing->dispatch(n);
    }
    const std::unordered_set<const IRNode *> *relevant =
        accessing ? &accessing->accessing : nullptr;
    LetsReachingBoxes lets(only, relevant);
    lets.dispatch(n);
    lets.close();
    BoxesTouched v(scope, func_bounds, calls, provides, only, std::move(lets.names), relevant,
                   narrow_selects);
    v.dispatch(n);
    return v.finish();
}

Box box_of(const std::map<std::string, Box> &boxes, const std::string &name) {
    auto it = boxes.find(name);
    return it == boxes.end() ? Box() : it->second;
}

} // namespace

std::map<std::string, Box> boxes_required(const Expr &e, const Scope &scope,
                                          const FuncValueBounds *func_bounds) {
    return boxes_of(e, scope, func_bounds, true, false);
}

std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &scope,
                                          const FuncValueBounds *func_bounds) {
    return boxes_of(s, scope, func_bounds, true, false);
}

std::map<std::string, Box> boxes_provided(const Stmt &s, const Scope &scope,
                                          const FuncValueBounds *func_bounds) {
    return boxes_of(s, scope, func_bounds, false, true);
}

std::map<std::string, Box> boxes_touched(const Stmt &s, const Scope &scope,
                                         const FuncValueBounds *func_bounds) {
    return boxes_of(s, scope, func_bounds, true, true);
}

std::map<std::string, Box> boxes_touched_of(const Stmt &s, const std::set<std::string> &names,
                                            const Scope &scope,
                                            const FuncValueBounds *func_bounds) {
    return boxes_of(s, scope, func_bounds, true, true, &names);
}

Box box_required(const Stmt &s, const std::string &name, const Scope &scope,
                 const FuncValueBounds *func_bounds) {
    std::set<std::string> only{name};
    return box_of(boxes_of(s, scope, func_bounds, true, false, &only), name);
}

Box box_loaded(const Stmt &s, const std::string &name, const Scope &scope,
               const FuncValueBounds *func_bounds) {
    std::set<std::string> only{name};
    return box_of(boxes_of(s, scope, func_bounds, true, false, &only, false), name);
}

std::map<std::string, Box> boxes_loaded_of(const Stmt &s, const std::set<std::string> &names,
                                           const Scope &scope, const FuncValueBounds *func_bounds) {
    return boxes_of(s, scope, func_bounds, true, false, &names, false);
}

Box box_provided(const Stmt &s, const std::string &name, const Scope &scope,
                 const FuncValueBounds *func_bounds) {
    std::set<std::string> only{name};
    return box_of(boxes_of(s, scope, func_bounds, false, true, &only), name);
}

Box box_touched(const Stmt &s, const std::string &name, const Scope &scope,
                const FuncValueBounds *func_bounds) {
    std::set<std::string> only{name};
    return box_of(boxes_of(s, scope, func_bounds, true, true, &only), name);
}

Box box_union(const Box &a, const Box &b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    internal_assert(a.size() == b.size())
        << "box_union of boxes with " << a.size() << " and " << b.size() << " dimensions\n";
    Box r(a.size());
    for (size_t i = 0; i < a.size(); i++) r[i] = Interval::make_union(a[i], b[i]);
    return r;
}

Box box_intersection(const Box &a, const Box &b) {
    internal_assert(a.size() == b.size())
        << "box_intersection of boxes with " << a.size() << " and " << b.size() << " dimensions\n";
    Box r(a.size());
    for (size_t i = 0; i < a.size(); i++) r[i] = Interval::make_intersection(a[i], b[i]);
    return r;
}

bool box_is_bounded(const Box &b) {
    for (const Interval &i : b) {
        if (!i.is_bounded()) return false;
    }
    return true;
}

} // namespace internal
} // namespace loom
