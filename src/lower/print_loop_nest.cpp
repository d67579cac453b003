#include "lower/print_loop_nest.h"

#include <loom/ir_operator.h>

#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/loop_names.h"
#include "lower/lower.h"
#include "simplify/simplify.h"

#include <sstream>

namespace loom {
namespace internal {

namespace {

class LoopNestPrinter : public IRVisitor {
public:
    explicit LoopNestPrinter(const std::map<std::string, Function> &env) : env(env) {}
    std::ostringstream out;

protected:
    using IRVisitor::visit;
    const std::map<std::string, Function> &env;
    int indent = 0;
    /// A LetStmt in scope (bounds_inference defines the loop bounds) and, once asked for, its
    /// value with the lets outside it expanded and simplified.
    struct ScopedLet {
        std::string name;
        Expr value;
        Expr expanded;
    };
    /// Outermost first.
    std::vector<ScopedLet> lets;

    /// e with the lets among the first `limit` in scope expanded, simplified. Each let is
    /// expanded once and simplified on its own: bound lets refer to the lets of the stages
    /// before them, several times each, so substituting the raw values grows exponentially
    /// along a pipeline.
    Expr expand(const Expr &e, size_t limit) {
        std::map<std::string, Expr> values;
        visit_exprs(e, [&](const Expr &x) {
            const Variable *v = x.as<Variable>();
            if (!v || values.count(v->name)) return true;
            for (size_t i = limit; i-- > 0;) {
                if (lets[i].name != v->name) continue;
                if (!lets[i].expanded.defined()) {
                    // A large expansion (a region defined through a chain of root consumers
                    // read through clamps) can never print as a constant; it stays a name, or
                    // each stage's would repeat its consumer's several times over.
                    Expr full = expand(lets[i].value, i);
                    lets[i].expanded =
                        expr_larger_than(full, 200) ? Variable::make(v->type, v->name) : full;
                }
                values[v->name] = lets[i].expanded;
                break;
            }
            return true;
        });
        return simplify(values.empty() ? e : substitute(values, e));
    }
    Expr expand(const Expr &e) { return expand(e, lets.size()); }

    void visit(const LetStmt *op) override {
        lets.push_back({op->name, op->value, Expr()});
        dispatch(op->body);
        lets.pop_back();
    }

    /// As Halide: a Func stored further out than it is computed shows its store level.
    void visit(const Realize *op) override {
        auto it = env.find(op->name);
        bool show = false;
        if (it != env.end()) {
            const FuncSchedule &s = it->second.schedule();
            const LoopLevelSpec &c = s.compute_level, &st = s.store_level;
            show = !st.is_inlined() && (c.kind != st.kind || c.func != st.func || c.var != st.var ||
                                        c.stage_index != st.stage_index);
        }
        if (!show) {
            dispatch(op->body);
            return;
        }
        line("store " + op->name + ":");
        indent++;
        dispatch(op->body);
        indent--;
    }

    void line(const std::string &s) { out << std::string(indent * 2, ' ') << s << "\n"; }

    /// The loop's name as Halide prints it: an RVar shows as its RDom's name, without the
    /// dimension ("r.x.ro" -> "r.ro", "q.y" -> "q"), since Halide names the RVars of RDom q
    /// "q$x", "q$y" and its loop nest drops the "$" part.
    std::string printed_loop_var(const std::string &name) const {
        LoopName l = parse_loop_name(name);
        if (!l.valid()) return name;
        const std::string &v = l.var;
        auto f = env.find(l.func);
        const int stage = l.stage;
        if (f == env.end() || stage < 1 || stage > (int)f->second.updates().size()) return v;
        const ReductionDomain &rdom = f->second.updates()[stage - 1].rdom;
        if (!rdom.defined()) return v;
        for (const ReductionVariable &rv : rdom.domain()) {
            size_t dot = rv.var.rfind('.');
            if (dot == std::string::npos || v.compare(0, rv.var.size(), rv.var) != 0) continue;
            if (v.size() == rv.var.size() || v[rv.var.size()] == '.') {
                return rv.var.substr(0, dot) + v.substr(rv.var.size());
            }
        }
        return v;
    }

    void visit(const For *op) override {
        std::string v = printed_loop_var(op->name);
        if (v == "__outermost") {
            dispatch(op->body);
            return;
        }
        // Constant bounds print as " in [min, max]"; a loop of one iteration is not shown
        // (Halide's print_loop_nest, which sees the bounds bounds_inference gives).
        Expr mn = expand(op->min), ext = expand(op->extent);
        std::string range;
        if (is_const(ext, 1)) {
            dispatch(op->body);
            return;
        }
        if (is_const(mn) && is_const(ext)) {
            std::ostringstream r;
            r << " in [" << mn << ", " << simplify(mn + ext - 1) << "]";
            range = r.str();
        }
        std::string kind = op->for_type == ForType::Serial ? "for" : for_type_name(op->for_type);
        line(kind + " " + v + range + ":");
        indent++;
        dispatch(op->body);
        indent--;
    }
    void visit(const ProducerConsumer *op) override {
        // An output's consume block holds nothing: Halide does not show it.
        if (!op->is_producer && op->body.as<Evaluate>()) return;
        line(std::string(op->is_producer ? "produce " : "consume ") + op->name + ":");
        indent++;
        dispatch(op->body);
        indent--;
    }
    void visit(const Provide *op) override { line(op->name + "(...) = ..."); }
    void visit(const Evaluate *) override {}
};

} // namespace

std::string loop_nest_summary(const Stmt &s, const std::map<std::string, Function> &env) {
    LoopNestPrinter p(env);
    p.dispatch(s);
    return p.out.str();
}

std::string loop_nest_summary(const Stmt &s) { return loop_nest_summary(s, {}); }

std::string print_loop_nest(const std::vector<Function> &outputs) {
    // With the bounds, as Halide prints it: constant loop bounds show, single iterations hide.
    CallGraph graph = build_call_graph(outputs);
    return loop_nest_summary(lower_loop_nest(graph), graph.env);
}

} // namespace internal
} // namespace loom
