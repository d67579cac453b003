#include "lower/compute_path.h"

#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/loop_names.h"
#include "support/util.h"

namespace loom {
namespace internal {

int ComputePath::find_let(const std::string &name) const {
    for (int i = (int)nodes.size() - 1; i >= 0; i--) {
        if (!nodes[i].is_loop() && nodes[i].name == name) return i;
    }
    return -1;
}

Expr ComputePath::expand(const Expr &e, int index) const {
    Expr result = e;
    for (int i = index - 1; i > loop_index; i--) {
        if (!nodes[i].is_loop()) result = substitute(nodes[i].name, nodes[i].value, result);
    }
    return result;
}

namespace {

/// Walks from a Realize body to `produce f; consume f`, recording loops and lets.
class FindComputePath : public IRVisitor {
public:
    FindComputePath(const std::string &f, ComputePath &path) : f(f), path(path) {}

protected:
    using IRVisitor::visit;
    void visit(const Block *op) override {
        if (path.found) return;
        const ProducerConsumer *p = op->first.as<ProducerConsumer>();
        if (p && p->is_producer && p->name == f) {
            path.found = true;
            path.nodes = stack;
            path.block = op;
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        if (path.found) return;
        ComputePathNode n;
        n.name = op->name;
        n.min = op->min;
        n.extent = op->extent;
        n.for_type = op->for_type;
        stack.push_back(n);
        dispatch(op->body);
        stack.pop_back();
    }
    void visit(const LetStmt *op) override {
        if (path.found) return;
        ComputePathNode n;
        n.name = op->name;
        n.value = op->value;
        stack.push_back(n);
        dispatch(op->body);
        stack.pop_back();
    }
    // A produce/consume of another Func stored elsewhere does not stop the search.

private:
    std::string f;
    ComputePath &path;
    std::vector<ComputePathNode> stack;
};

void summarize_loops(ComputePath &path) {
    path.loop_index = -1;
    path.all_serial = true;
    for (int i = 0; i < (int)path.nodes.size(); i++) {
        if (!path.nodes[i].is_loop()) continue;
        path.loop_index = i;
        if (path.nodes[i].for_type != ForType::Serial) path.all_serial = false;
    }
}

bool same_level(const LoopLevelSpec &a, const LoopLevelSpec &b) {
    return a.kind == b.kind && a.func == b.func && a.var == b.var && a.stage_index == b.stage_index;
}

/// Whether the For `loop` runs the loop level `level` (a split product's loop "f.s0.y.yo" runs
/// the level (f, yo); a loop shared through compute_with, "f.s0.fused.y", the level (f, y)).
bool is_loop_of(const std::string &loop, const LoopLevelSpec &level) {
    LoopName n = parse_loop_name(loop);
    if (level.kind != LoopLevelSpec::At || !n.valid() || n.func != level.func) return false;
    if (level.stage_index >= 0 && n.stage != level.stage_index) return false;
    return n.var == level.var || ends_with(n.var, "." + level.var);
}

} // namespace

ComputePath find_compute_path(const Stmt &realize_body, const std::string &func) {
    ComputePath path;
    FindComputePath finder(func, path);
    finder.dispatch(realize_body);
    summarize_loops(path);
    return path;
}

bool hoisted_from_compute_level(const Function &f) {
    const FuncSchedule &s = f.schedule();
    const LoopLevelSpec &store = s.store_level_set ? s.store_level : s.compute_level;
    return !s.hoist_storage_level.is_inlined() && same_level(store, s.compute_level) &&
           !same_level(s.hoist_storage_level, store);
}

ComputePath find_compute_path(const Stmt &realize_body, const Function &f) {
    ComputePath path = find_compute_path(realize_body, f.name());
    const FuncSchedule &s = f.schedule();
    const LoopLevelSpec &store = s.store_level_set ? s.store_level : s.compute_level;
    if (s.hoist_storage_level.is_inlined() || same_level(s.hoist_storage_level, store) ||
        store.kind != LoopLevelSpec::At) {
        return path;
    }
    for (int i = 0; i < (int)path.nodes.size(); i++) {
        if (!path.nodes[i].is_loop() || !is_loop_of(path.nodes[i].name, store)) continue;
        path.hoisted.assign(path.nodes.begin(), path.nodes.begin() + i + 1);
        path.nodes.erase(path.nodes.begin(), path.nodes.begin() + i + 1);
        summarize_loops(path);
        break;
    }
    return path;
}

} // namespace internal
} // namespace loom
