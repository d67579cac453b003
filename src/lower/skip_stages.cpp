#include "lower/skip_stages.h"

#include "analysis/bounds.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/compute_path.h"
#include "simplify/simplify.h"
#include "support/util.h"

#include <set>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// Whether e reads memory (a Func, a buffer or an impure call): such a condition can't be
/// evaluated before the consumer runs.
bool reads_memory(const Expr &e) {
    bool reads = false;
    visit_exprs(e, [&](const Expr &x) {
        if (const Call *c = x.as<Call>()) {
            if (c->call_type != Call::PureIntrinsic && c->call_type != Call::PureExtern) {
                reads = true;
            }
        } else if (x.as<Load>()) {
            reads = true;
        }
        return !reads;
    });
    return reads;
}

/// The condition under which a statement uses Func `func`, in terms of what is in scope
/// around the statement (see the header).
class UsePredicate : public IRVisitor {
public:
    explicit UsePredicate(const std::string &func) : func(func) {}

    Expr of(const Stmt &s) {
        dispatch(s);
        return always ? const_true() : used.defined() ? simplify(used) : const_false();
    }

private:
    using IRVisitor::visit;

    /// What encloses the node being visited, outermost first.
    struct Enclosing {
        enum Kind { Condition, Let, Loop } kind;
        std::string name; ///< Let, Loop
        Expr value;       ///< Condition: the condition; Let: the value; Loop: the min
        Expr extent;      ///< Loop
    };

    /// Limits past which the condition counts as always true.
    static constexpr int max_condition_nodes = 256;
    static constexpr size_t max_terms = 16;

    const std::string func;
    std::vector<Enclosing> enclosing;
    /// An id per entry of `enclosing`, unique over the walk (a context's identity).
    std::vector<int> context_ids;
    int next_context_id = 1;
    std::map<const IRNode *, bool> mentions_memo;
    std::set<std::pair<const IRNode *, int>> seen;
    /// The distinct conditions recorded so far (used is their disjunction).
    std::vector<Expr> terms;
    Expr used;
    bool always = false;

    /// A use of func here: adds the conjunction of the enclosing conditions, with the lets and
    /// loops it depends on eliminated from the inside out.
    void record_use() {
        if (always) return;
        // The common case, a use under no condition, ends the search at once.
        bool conditional = false;
        for (const Enclosing &e : enclosing) conditional |= e.kind == Enclosing::Condition;
        if (!conditional) {
            always = true;
            return;
        }
        Expr cond = const_true();
        for (auto it = enclosing.rbegin(); it != enclosing.rend(); ++it) {
            if (it->kind == Enclosing::Condition) {
                if (!it->value.type().is_scalar()) {
                    // A per-element condition of a scatter/gather update.
                    always = true;
                    return;
                }
                cond = is_const_one(cond) ? it->value : And::make(it->value, cond);
                if (too_large(cond)) return;
            } else if (!expr_uses_var(cond, it->name)) {
                continue;
            } else if (it->kind == Enclosing::Let) {
                cond = substitute(it->name, it->value, cond);
                if (too_large(cond)) return;
            } else {
                // Whether cond holds in some iteration: its upper bound over the loop.
                Expr last = simplify(
                    Sub::make(Add::make(it->value, it->extent), make_const(it->extent.type(), 1)));
                Scope scope{{it->name, Interval(it->value, last)}};
                Interval i = bounds_of_expr_in_scope(cond, scope);
                bool eliminated = i.has_upper_bound() && !expr_uses_var(i.max, it->name);
                cond = eliminated ? i.max : const_true();
            }
        }
        cond = simplify(cond);
        if (is_const_one(cond) || reads_memory(cond)) {
            always = true;
            return;
        }
        for (const Expr &t : terms) {
            if (equal(t, cond)) return;
        }
        if (terms.size() >= max_terms) {
            always = true;
            return;
        }
        terms.push_back(cond);
        used = used.defined() ? Or::make(used, cond) : cond;
    }

    /// Conditions (nested selects, chains of lets substituted) can grow without bound; one
    /// that large is not worth testing at run time, nor simplifying: the use counts as
    /// unconditional.
    bool too_large(const Expr &cond) {
        if (node_count(cond, max_condition_nodes) < max_condition_nodes) return false;
        always = true;
        return true;
    }

    /// The number of nodes of e, counting up to `cap`.
    static int node_count(const Expr &e, int cap) {
        int n = 0;
        visit_exprs(e, [&](const Expr &) { return ++n < cap; });
        return n;
    }

    /// Whether e calls func or names its buffer, memoized by node: expressions from inlined
    /// Funcs share subtrees, and walking them as trees could take exponential time.
    bool mentions(const Expr &e) {
        auto it = mentions_memo.find(e.get());
        if (it != mentions_memo.end()) return it->second;
        bool m = is_use(e);
        bool root = true;
        visit_exprs(e, [&](const Expr &child) {
            if (root) {
                root = false;
                return true;
            }
            m = m || mentions(child);
            return false;
        });
        mentions_memo[e.get()] = m;
        return m;
    }

    bool is_use(const Expr &e) const {
        if (const Call *c = e.as<Call>()) return c->name == func && c->call_type == Call::Halide;
        // The buffer of func, passed to an extern stage.
        const Variable *v = e.as<Variable>();
        return v && v->type.is_handle() && (v->name == func || starts_with(v->name, func + "."));
    }

    void push(Enclosing e) {
        enclosing.push_back(std::move(e));
        context_ids.push_back(next_context_id++);
    }
    void pop() {
        enclosing.pop_back();
        context_ids.pop_back();
    }

    void visit_under(const Expr &condition, const Expr &e) {
        push({Enclosing::Condition, "", condition, Expr()});
        dispatch(e);
        pop();
    }
    void visit_under(const Expr &condition, const Stmt &s) {
        push({Enclosing::Condition, "", condition, Expr()});
        dispatch(s);
        pop();
    }

    // Every expression node: skipped unless it mentions func, and visited once per context (a
    // shared subtree under the same conditions adds nothing new).
#define LOOM_IR_EXPR(N)                                                                            \
    void visit(const N *op) override {                                                             \
        if (always || !mentions(Expr(op))) return;                                                 \
        if (!seen.insert({op, context_ids.empty() ? 0 : context_ids.back()}).second) return;       \
        handle(op);                                                                                \
    }
#define LOOM_IR_STMT(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT

    template <typename T>
    void handle(const T *op) {
        IRVisitor::visit(op);
    }

    void handle(const Call *op) {
        if (is_use(Expr(op))) record_use();
        IRVisitor::visit(op);
    }

    void handle(const Variable *op) {
        if (is_use(Expr(op))) record_use();
    }

    void handle(const Select *op) {
        dispatch(op->condition);
        visit_under(op->condition, op->true_value);
        visit_under(Not::make(op->condition), op->false_value);
    }

    void handle(const Let *op) {
        dispatch(op->value);
        push({Enclosing::Let, op->name, op->value, Expr()});
        dispatch(op->body);
        pop();
    }

    void visit(const IfThenElse *op) override {
        if (always) return;
        dispatch(op->condition);
        visit_under(op->condition, op->then_case);
        if (op->else_case.defined()) visit_under(Not::make(op->condition), op->else_case);
    }

    void visit(const LetStmt *op) override {
        if (always) return;
        dispatch(op->value);
        push({Enclosing::Let, op->name, op->value, Expr()});
        dispatch(op->body);
        pop();
    }

    void visit(const For *op) override {
        if (always) return;
        dispatch(op->min);
        dispatch(op->extent);
        push({Enclosing::Loop, op->name, op->min, op->extent});
        dispatch(op->body);
        pop();
    }
};

class SkipStages : public IRMutator {
public:
    explicit SkipStages(const CallGraph &graph) : graph(graph) {
        for (const Function &o : graph.outputs) outputs.insert(o.name());
    }

private:
    using IRMutator::visit;

    const CallGraph &graph;
    /// A pipeline's outputs are realized like other Funcs until storage_flattening.
    std::set<std::string> outputs;
    int loop_depth = 0;
    /// The variables of the enclosing vectorized loops, and the lets that depend on them.
    std::set<std::string> lane_varying;
    /// The loop depth of each Realize in scope.
    std::map<std::string, int> realize_depth;

    Stmt visit(const For *op) override {
        loop_depth++;
        bool vector = op->for_type == ForType::Vectorized;
        if (vector) lane_varying.insert(op->name);
        Stmt s = IRMutator::visit(op);
        if (vector) lane_varying.erase(op->name);
        loop_depth--;
        return s;
    }

    Stmt visit(const LetStmt *op) override {
        bool varying = expr_uses_vars(op->value, lane_varying) && !lane_varying.count(op->name);
        if (varying) lane_varying.insert(op->name);
        Stmt s = IRMutator::visit(op);
        if (varying) lane_varying.erase(op->name);
        return s;
    }

    Stmt visit(const Realize *op) override {
        // (A Func's Realize nodes never nest: it is realized once on any path.)
        realize_depth[op->name] = loop_depth;
        Stmt s = IRMutator::visit(op);
        realize_depth.erase(op->name);
        return s;
    }

    bool may_skip(const std::string &name) const {
        auto f = graph.env.find(name);
        auto r = realize_depth.find(name);
        // A fused group's produce holds the stages of every Func in it. A Func realized outside
        // the loop it is computed in keeps values across its iterations (sliding windows,
        // folds), unless only its allocation is hoisted there.
        return f != graph.env.end() && !f->second.schedule().memoized && !outputs.count(name) &&
               !graph.fusion.group_of(name) && r != realize_depth.end() &&
               (r->second == loop_depth || hoisted_from_compute_level(f->second));
    }

    Stmt visit(const Block *op) override {
        // Inner Funcs first, so a Func used only by a skipped producer is skipped with it.
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        const ProducerConsumer *produce = first.as<ProducerConsumer>();
        const ProducerConsumer *consume = rest.as<ProducerConsumer>();
        if (produce && consume && produce->is_producer && !consume->is_producer &&
            produce->name == consume->name && may_skip(produce->name)) {
            Expr used = UsePredicate(produce->name).of(consume->body);
            // A condition that differs between the lanes of a vectorized loop would keep the
            // loop from being vectorized (the produce can't run in some lanes only).
            if (!is_const_one(used) && !expr_uses_vars(used, lane_varying)) {
                first = IfThenElse::make(used, first);
            }
        }
        if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
        return Block::make(first, rest);
    }
};

} // namespace

Stmt skip_stages(const Stmt &s, const CallGraph &graph) { return SkipStages(graph).mutate(s); }

} // namespace internal
} // namespace loom
