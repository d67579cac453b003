#include "lower/lower_parallel_tasks.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/lower_utils.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace loom {
namespace internal {

namespace {

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
        std::string task_name = unique_task_name(fn + ".par_for." + op->name);
        Expr closure = make_task(task_name, body, {LoweredArgument::scalar(op->name, Int(32))});
        Expr launch =
            Call::make(Int(32), "halide_do_par_for",
                       {Variable::make(Handle(), "__user_context"),
                        Variable::make(Handle(), task_name), op->min, op->extent, closure},
                       Call::Extern);
        return checked_launch(op->name + ".par_for", launch);
    }

    Stmt visit(const Fork *op) override {
        // The semaphores the two sides share, allocated outside the fork: when one side fails,
        // loom_do_fork marks them failed so the other stops waiting on them.
        std::vector<std::string> shared = shared_semaphores(op);
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        const std::string name = unique_task_name(fn + ".fork");
        task_names.insert(name);
        // Loop tasks (halide_loop_task_t) over [0, 1): the range arguments are unused.
        std::vector<LoweredArgument> loop_args = {
            LoweredArgument::scalar(name + ".min", Int(32)),
            LoweredArgument::scalar(name + ".extent", Int(32))};
        Expr first_closure = make_task(name + ".producer", first, loop_args, true);
        Expr rest_closure = make_task(name + ".consumer", rest, loop_args, true);
        std::vector<Expr> semaphores;
        for (const std::string &s : shared) semaphores.push_back(Variable::make(Handle(), s));
        Expr launch =
            Call::make(Int(32), "loom_do_fork",
                       {Variable::make(Handle(), "__user_context"),
                        Variable::make(Handle(), name + ".producer"), first_closure,
                        Variable::make(Handle(), name + ".consumer"), rest_closure,
                        Call::make(Handle(), Call::make_struct, semaphores, Call::Intrinsic),
                        Expr((int)semaphores.size())},
                       Call::Extern);
        return checked_launch(name, launch);
    }

private:
    std::string fn;
    /// The tasks made so far: module-level names, never captured.
    std::set<std::string> task_names;

    std::string unique_task_name(const std::string &base) const {
        std::string name = base;
        for (int k = 1; task_names.count(name); k++) name = base + "." + std::to_string(k);
        return name;
    }

    /// Makes `body` the task `task_name` taking (user context, `index_args`..., closure[, task
    /// parent]), and returns the closure to launch it with.
    Expr make_task(const std::string &task_name, Stmt body,
                   const std::vector<LoweredArgument> &index_args, bool loop_task = false) {
        const std::string closure_name = task_name + ".closure";
        std::set<std::string> ignore = task_names;
        for (const LoweredArgument &a : index_args) ignore.insert(a.name);
        ignore.insert("__user_context");
        const std::vector<std::pair<std::string, Type>> found = free_symbols(body, ignore);

        std::vector<Expr> values, prototype;
        for (const auto &[name, type] : found) {
            values.push_back(Variable::make(type, name));
            // Any value of the member's type (a null pointer for a handle).
            prototype.push_back(type.is_handle()
                                    ? Call::make(Handle(), Call::make_struct, {}, Call::Intrinsic)
                                    : make_zero(type));
        }
        Expr shape = Call::make(Handle(), Call::make_struct, prototype, Call::Intrinsic);
        Expr closure = Variable::make(Handle(), closure_name);
        for (size_t i = found.size(); i-- > 0;) {
            const auto &[name, type] = found[i];
            Expr member = Call::make(type, Call::load_struct_member, {closure, shape, Expr((int)i)},
                                     Call::Intrinsic);
            body = LetStmt::make(name, member, body);
        }
        LoweredFunc task;
        task.name = task_name;
        task.args = {user_context_argument()};
        task.args.insert(task.args.end(), index_args.begin(), index_args.end());
        task.args.push_back(LoweredArgument::scalar(closure_name, Handle()));
        if (loop_task)
            task.args.push_back(LoweredArgument::scalar(task_name + ".parent", Handle()));
        task.body = body;
        tasks.push_back(task);
        task_names.insert(task_name);
        return Call::make(Handle(), Call::make_struct, values, Call::Intrinsic);
    }

    /// let <name> = launch; assert(<name> == 0, <name>) (the task reported the error already).
    static Stmt checked_launch(const std::string &name, const Expr &launch) {
        Expr r = Variable::make(Int(32), name);
        return LetStmt::make(name, launch, AssertStmt::make(r == 0, r));
    }

    /// The semaphores either side of `op` acquires or releases that are allocated outside it,
    /// in order of first use.
    static std::vector<std::string> shared_semaphores(const Fork *op) {
        class Uses : public IRVisitor {
        public:
            std::vector<std::string> used;
            std::set<std::string> allocated;

        protected:
            using IRVisitor::visit;
            void visit(const Call *c) override {
                std::string name = semaphore_of(c);
                if (!name.empty() && c->name != "halide_semaphore_init" &&
                    std::find(used.begin(), used.end(), name) == used.end()) {
                    used.push_back(name);
                }
                IRVisitor::visit(c);
            }
            void visit(const Allocate *a) override {
                allocated.insert(a->name);
                IRVisitor::visit(a);
            }
        } uses;
        uses.dispatch(Stmt(op));
        const std::vector<std::string> &used = uses.used;
        const std::set<std::string> &allocated = uses.allocated;
        std::vector<std::string> shared;
        for (const std::string &n : used) {
            if (!allocated.count(n)) shared.push_back(n);
        }
        return shared;
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
