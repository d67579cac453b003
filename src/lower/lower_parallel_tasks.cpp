#include "lower/lower_parallel_tasks.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "support/error.h"

#include <map>
#include <set>
#include <utility>

namespace loom {
namespace internal {

namespace {

/// What a loop body uses from outside it: variables (with their types) and buffers (by the
/// name Load/Store use), in order of first use.
class FreeSymbols : public IRVisitor {
public:
    explicit FreeSymbols(std::set<std::string> ignore) : ignore(std::move(ignore)) {}
    std::vector<std::pair<std::string, Type>> found;

protected:
    using IRVisitor::visit;

    void use(const std::string &name, Type t) {
        if (ignore.count(name) || defined.count(name) || seen.count(name)) return;
        seen.insert(name);
        found.emplace_back(name, t);
    }
    template <typename T>
    void scoped(const T *op, const std::string &name) {
        // What the node computes before its name is in scope (a let's value, a loop's bounds,
        // an allocation's extents) is visited by the caller.
        bool fresh = defined.insert(name).second;
        dispatch(op->body);
        if (fresh) defined.erase(name);
    }

    void visit(const Variable *op) override { use(op->name, op->type); }
    void visit(const Load *op) override {
        use(op->name, Handle());
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        use(op->name, Handle());
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        dispatch(op->value);
        scoped(op, op->name);
    }
    void visit(const LetStmt *op) override {
        dispatch(op->value);
        scoped(op, op->name);
    }
    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
        scoped(op, op->name);
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) dispatch(e);
        dispatch(op->condition);
        scoped(op, op->name);
    }

private:
    const std::set<std::string> ignore;
    std::set<std::string> defined, seen;
};

class LowerParallelTasks : public IRMutator {
public:
    explicit LowerParallelTasks(const std::string &fn) : fn(fn) {}
    std::vector<LoweredFunc> tasks;

protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->for_type != ForType::Parallel) {
            return body.same_as(op->body) ? Stmt(op) : op->with_body(body);
        }
        // A loop copied by partitioning or specialization gets one task per copy.
        std::string task_name = fn + ".par_for." + op->name;
        for (int k = 1; task_names.count(task_name); k++) {
            task_name = fn + ".par_for." + op->name + "." + std::to_string(k);
        }
        const std::string closure_name = task_name + ".closure";
        FreeSymbols free(ignored(op->name));
        free.dispatch(body);

        std::vector<Expr> values, prototype;
        for (const auto &[name, type] : free.found) {
            values.push_back(Variable::make(type, name));
            // Any value of the member's type (a null pointer for a handle).
            prototype.push_back(type.is_handle()
                                    ? Call::make(Handle(), Call::make_struct, {}, Call::Intrinsic)
                                    : make_zero(type));
        }
        Expr shape = Call::make(Handle(), Call::make_struct, prototype, Call::Intrinsic);
        Expr closure = Variable::make(Handle(), closure_name);
        for (size_t i = free.found.size(); i-- > 0;) {
            const auto &[name, type] = free.found[i];
            Expr member = Call::make(type, Call::load_struct_member, {closure, shape, Expr((int)i)},
                                     Call::Intrinsic);
            body = LetStmt::make(name, member, body);
        }
        LoweredFunc task;
        task.name = task_name;
        task.args = {user_context_argument(), LoweredArgument::scalar(op->name, Int(32)),
                     LoweredArgument::scalar(closure_name, Handle())};
        task.body = body;
        tasks.push_back(task);
        task_names.insert(task_name);

        Expr launch = Call::make(Int(32), "halide_do_par_for",
                                 {Variable::make(Handle(), "__user_context"),
                                  Variable::make(Handle(), task_name), op->min, op->extent,
                                  Call::make(Handle(), Call::make_struct, values, Call::Intrinsic)},
                                 Call::Extern);
        const std::string result = op->name + ".par_for";
        Expr r = Variable::make(Int(32), result);
        return LetStmt::make(result, launch, AssertStmt::make(r == 0, r));
    }

private:
    std::string fn;
    /// The tasks made so far: module-level names, never captured.
    std::set<std::string> task_names;

    std::set<std::string> ignored(const std::string &loop) const {
        std::set<std::string> s = task_names;
        s.insert(loop);
        s.insert("__user_context");
        return s;
    }
};

} // namespace

ParallelTasks lower_parallel_tasks(const Stmt &s, const std::string &fn_name) {
    LowerParallelTasks lower(fn_name);
    ParallelTasks result;
    result.body = lower.mutate(s);
    result.tasks = lower.tasks;
    return result;
}

} // namespace internal
} // namespace loom
