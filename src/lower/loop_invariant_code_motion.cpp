#include "lower/loop_invariant_code_motion.h"

#include "arith/constant_interval.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// What a loop body defines and writes: names bound inside it (lets, loops, allocations),
/// buffers stored to, whether it calls anything with side effects, and every name it uses.
class Summary : public IRVisitor {
public:
    std::set<std::string> defined, stored, used;
    bool impure_call = false;
    std::map<std::string, int> definitions;

protected:
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        stored.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (!op->is_pure()) impure_call = true;
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override { used.insert(op->name); }

private:
    void define(const std::string &n) {
        defined.insert(n);
        definitions[n]++;
    }
};

class LICM : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        outer.insert(op->name);
        Stmt s = IRMutator::visit(op);
        outer.erase(outer.find(op->name));
        return s;
    }

    Stmt visit(const Allocate *op) override {
        outer.insert(op->name);
        Stmt s = IRMutator::visit(op);
        outer.erase(outer.find(op->name));
        return s;
    }

    Stmt visit(const For *op) override {
        outer.insert(op->name);
        Stmt body = mutate(op->body);
        outer.erase(outer.find(op->name));
        Summary sum;
        sum.dispatch(body);
        bool extent_positive = constant_integer_bounds(op->extent).min_defined &&
                               constant_integer_bounds(op->extent).min > 0;

        // Names that make a value vary: the loop variable and everything defined inside
        // (minus the lets lifted so far, which become invariant).
        std::set<std::string> varying = sum.defined;
        varying.insert(op->name);
        std::vector<std::pair<std::string, Expr>> lifted;
        auto invariant = [&](const Expr &e, bool allow_loads) {
            if (expr_uses_vars(e, varying)) return false;
            bool ok = true;
            visit_exprs(e, [&](const Expr &x) {
                if (!ok) return false;
                if (const Call *c = x.as<Call>()) {
                    ok = c->is_pure();
                } else if (const Load *l = x.as<Load>()) {
                    ok = allow_loads && !sum.impure_call && !sum.stored.count(l->name) &&
                         !varying.count(l->name);
                }
                return ok;
            });
            return ok;
        };
        auto may_lift = [&](const LetStmt *l) {
            // Exactly one binding of the name in the loop and none outside it, so lifting
            // neither captures nor shadows another use of the name.
            return sum.definitions[l->name] == 1 && l->name != op->name && !outer.count(l->name) &&
                   invariant(l->value, extent_positive);
        };
        body = lift(body, may_lift, &varying, &lifted);

        Stmt result;
        const IfThenElse *ite = body.as<IfThenElse>();
        if (ite && invariant(ite->condition, false)) {
            Stmt then_loop = For::make(op->name, op->min, op->extent, op->for_type, op->device_api,
                                       ite->then_case, op->partition_policy);
            Stmt else_loop;
            if (ite->else_case.defined()) {
                else_loop = For::make(op->name, op->min, op->extent, op->for_type, op->device_api,
                                      ite->else_case, op->partition_policy);
            }
            result = IfThenElse::make(ite->condition, then_loop, else_loop);
        } else if (body.same_as(op->body)) {
            result = op;
        } else {
            result = For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body,
                               op->partition_policy);
        }
        for (auto it = lifted.rbegin(); it != lifted.rend(); ++it) {
            result = LetStmt::make(it->first, it->second, result);
        }
        return result;
    }

private:
    /// The names bound around the code being visited.
    std::multiset<std::string> outer;

    /// s with the liftable lets on its spine (lets, blocks, produce/consume, allocations)
    /// removed and appended to *lifted in order. A let that stays makes its name varying.
    template <typename F>
    Stmt lift(const Stmt &s, F &may_lift, std::set<std::string> *varying,
              std::vector<std::pair<std::string, Expr>> *lifted) {
        if (const LetStmt *l = s.as<LetStmt>()) {
            if (may_lift(l)) {
                varying->erase(l->name);
                lifted->emplace_back(l->name, l->value);
                return lift(l->body, may_lift, varying, lifted);
            }
            Stmt body = lift(l->body, may_lift, varying, lifted);
            return body.same_as(l->body) ? s : LetStmt::make(l->name, l->value, body);
        }
        if (const Block *b = s.as<Block>()) {
            Stmt first = lift(b->first, may_lift, varying, lifted);
            Stmt rest = lift(b->rest, may_lift, varying, lifted);
            if (first.same_as(b->first) && rest.same_as(b->rest)) return s;
            return Block::make(first, rest);
        }
        if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            Stmt body = lift(pc->body, may_lift, varying, lifted);
            return body.same_as(pc->body) ? s
                                          : ProducerConsumer::make(pc->name, pc->is_producer, body);
        }
        if (const Allocate *a = s.as<Allocate>()) {
            Stmt body = lift(a->body, may_lift, varying, lifted);
            if (body.same_as(a->body)) return s;
            return Allocate::make(a->name, a->type, a->memory_type, a->extents, a->condition, body);
        }
        return s;
    }
};

} // namespace

Stmt loop_invariant_code_motion(const Stmt &s) { return LICM().mutate(s); }

} // namespace internal
} // namespace loom
