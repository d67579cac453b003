#include "lower/compute_path.h"

#include "ir/ir_visitor.h"
#include "ir/substitute.h"

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

} // namespace

ComputePath find_compute_path(const Stmt &realize_body, const std::string &func) {
    ComputePath path;
    FindComputePath finder(func, path);
    finder.dispatch(realize_body);
    for (int i = 0; i < (int)path.nodes.size(); i++) {
        if (!path.nodes[i].is_loop()) continue;
        path.loop_index = i;
        if (path.nodes[i].for_type != ForType::Serial) path.all_serial = false;
    }
    return path;
}

} // namespace internal
} // namespace loom
