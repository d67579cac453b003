// Simplification of statements: dead loops, branches, lets and asserts are removed; loop
// ranges, let values and branch conditions become facts for the bodies. Every removed
// statement becomes the canonical no-op Evaluate(0), which Block then drops.

#include "simplify/simplify.h"

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include <algorithm>

namespace loom {
namespace internal {

namespace {

Stmt no_op() { return Evaluate::make(make_zero(Int(32))); }

} // namespace

Stmt Simplify::mutate(const Stmt &s) {
    if (!s.defined()) return s;
    return IRMutator::mutate(s);
}

Stmt Simplify::visit(const LetStmt *op) {
    ExprInfo vinfo;
    Expr value = mutate(op->value, &vinfo);
    VarInfo binding;
    binding.info = vinfo;
    // Cheap values (constants, variables, var + const, ...) are substituted into the body.
    bool substitute = is_substitutable(value);
    if (substitute) {
        binding.replacement_vars = free_vars(value);
        // let x = x + 1: the replacement's x is the outer one, which the body cannot name.
        substitute = std::find(binding.replacement_vars.begin(), binding.replacement_vars.end(),
                               op->name) == binding.replacement_vars.end();
        if (substitute) binding.replacement = value;
    }
    Stmt body;
    int uses;
    {
        ScopedBinding scope(this, op->name, binding);
        body = mutate(op->body);
        uses = scope.info().uses;
    }
    if (uses == 0 && (substitute || has_no_side_effects(value))) return body;
    if (is_no_op(body) && has_no_side_effects(value)) return body;
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return LetStmt::make(op->name, value, body);
}

Stmt Simplify::visit(const AssertStmt *op) {
    Expr cond = mutate(op->condition);
    if (is_const_true(cond)) return no_op();
    // A provably false assert stays: it reports the error at run time.
    Expr msg = mutate(op->message);
    if (cond.same_as(op->condition) && msg.same_as(op->message)) return op;
    return AssertStmt::make(cond, msg);
}

Stmt Simplify::visit(const ProducerConsumer *op) {
    Stmt body = mutate(op->body);
    if (is_no_op(body)) return no_op();
    if (body.same_as(op->body)) return op;
    return ProducerConsumer::make(op->name, op->is_producer, body);
}

Stmt Simplify::visit(const For *op) {
    ExprInfo imin, iext;
    Expr mn = mutate(op->min, &imin), ext = mutate(op->extent, &iext);
    if (iext.bounds.max_defined && iext.bounds.max <= 0) return no_op();
    if (is_const(ext, 1) && op->for_type != ForType::GPUBlock &&
        op->for_type != ForType::GPUThread && op->for_type != ForType::GPULane) {
        // A single iteration: the loop variable is the min.
        return mutate(LetStmt::make(op->name, mn, op->body));
    }
    VarInfo binding;
    // Within the body, min <= name <= min + extent - 1.
    ConstantInterval last = imin.bounds + iext.bounds - ConstantInterval::single_point(1);
    binding.info.bounds =
        ConstantInterval(imin.bounds.min, imin.bounds.min_defined, last.max, last.max_defined);
    if (is_const(ext, 1)) binding.info.alignment = imin.alignment;
    Stmt body;
    {
        // The body only runs when the extent is positive (a fact about the enclosing scope's
        // names, so learned before the loop variable shadows any of them).
        FactScope facts(this);
        if (!is_numeric_const(ext)) facts.learn_true(mutate(LT::make(make_zero(ext.type()), ext)));
        ScopedBinding scope(this, op->name, binding);
        // With a symbolic min, min <= name < min + extent are facts that bounds cannot express
        // (loop partitioning tests exactly these conditions).
        FactScope range(this);
        if (!is_numeric_const(mn) && !expr_uses_var(mn, op->name) &&
            !expr_uses_var(ext, op->name)) {
            Expr v = Variable::make(Int(32), op->name);
            range.learn_true(mutate(LE::make(mn, v)));
            range.learn_true(mutate(LT::make(v, Add::make(mn, ext))));
        }
        body = mutate(op->body);
    }
    if (is_no_op(body)) return no_op();
    if (mn.same_as(op->min) && ext.same_as(op->extent) && body.same_as(op->body)) return op;
    return op->with_range(mn, ext, body);
}

Stmt Simplify::visit(const Store *op) {
    Expr pred = mutate(op->predicate);
    if (is_const_false(pred)) return no_op();
    Expr value = mutate(op->value);
    ExprInfo ii;
    Expr index = mutate(op->index, &ii);
    ModulusRemainder align = op->alignment;
    const Ramp *r = index.as<Ramp>();
    ModulusRemainder known = r ? alignment_of(r->base) : ii.alignment;
    // (Only a real modulus: a constant index's exact fact, modulus 0, is not recorded.)
    if (known.modulus > align.modulus) align = known;
    if (pred.same_as(op->predicate) && value.same_as(op->value) && index.same_as(op->index) &&
        align.modulus == op->alignment.modulus && align.remainder == op->alignment.remainder) {
        return op;
    }
    return Store::make(op->name, value, index, op->param, pred, align);
}

Stmt Simplify::visit(const Provide *op) {
    Expr pred = mutate(op->predicate);
    if (is_const_false(pred)) return no_op();
    std::vector<Expr> values = IRMutator::mutate(op->values);
    std::vector<Expr> args = IRMutator::mutate(op->args);
    bool same = pred.same_as(op->predicate);
    for (size_t i = 0; i < values.size(); i++) same = same && values[i].same_as(op->values[i]);
    for (size_t i = 0; i < args.size(); i++) same = same && args[i].same_as(op->args[i]);
    if (same) return op;
    return Provide::make(op->name, values, args, pred);
}

Stmt Simplify::visit(const Allocate *op) {
    std::vector<Expr> extents = IRMutator::mutate(op->extents);
    Expr cond = mutate(op->condition);
    Stmt body = mutate(op->body);
    if (is_no_op(body)) return no_op();
    bool same = cond.same_as(op->condition) && body.same_as(op->body);
    for (size_t i = 0; i < extents.size(); i++) same = same && extents[i].same_as(op->extents[i]);
    if (same) return op;
    return Allocate::make(op->name, op->type, op->memory_type, extents, cond, body);
}

Stmt Simplify::visit(const Realize *op) {
    Region bounds;
    bool same = true;
    for (const Range &r : op->bounds) {
        Expr mn = mutate(r.min), ext = mutate(r.extent);
        same = same && mn.same_as(r.min) && ext.same_as(r.extent);
        bounds.emplace_back(mn, ext);
    }
    Expr cond = mutate(op->condition);
    Stmt body = mutate(op->body);
    if (is_no_op(body)) return no_op();
    if (same && cond.same_as(op->condition) && body.same_as(op->body)) return op;
    return Realize::make(op->name, op->types, op->memory_type, bounds, cond, body);
}

Stmt Simplify::visit(const Block *op) {
    Stmt first = mutate(op->first), rest = mutate(op->rest);
    if (is_no_op(first)) return is_no_op(rest) ? no_op() : rest;
    if (is_no_op(rest)) return first;
    if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
    return Block::make(first, rest);
}

Stmt Simplify::visit(const IfThenElse *op) {
    Expr cond = mutate(op->condition);
    ConstVal cv;
    if (as_const_val(cond, &cv)) {
        if (cv.u) return mutate(op->then_case);
        return op->else_case.defined() ? mutate(op->else_case) : no_op();
    }
    // (learn_true/learn_false see through likely().)
    const Expr &fact = cond;
    Stmt then_case, else_case;
    {
        FactScope facts(this);
        facts.learn_true(fact);
        then_case = mutate(op->then_case);
    }
    if (op->else_case.defined()) {
        FactScope facts(this);
        facts.learn_false(fact);
        else_case = mutate(op->else_case);
    }
    bool then_noop = is_no_op(then_case), else_noop = is_no_op(else_case);
    if (then_noop && else_noop) return no_op();
    if (else_case.defined() && equal(then_case, else_case)) return then_case;
    if (then_noop) return IfThenElse::make(negate(cond), else_case);
    if (else_noop) else_case = Stmt();
    if (cond.same_as(op->condition) && then_case.same_as(op->then_case) &&
        else_case.same_as(op->else_case)) {
        return op;
    }
    return IfThenElse::make(cond, then_case, else_case);
}

Stmt Simplify::visit(const Evaluate *op) {
    if (is_no_op(op)) return op;
    Expr v = mutate(op->value);
    // Evaluating a value without side effects does nothing.
    if (is_numeric_const(v) || has_no_side_effects(v)) return no_op();
    if (v.same_as(op->value)) return op;
    return Evaluate::make(v);
}

Stmt Simplify::visit(const Atomic *op) {
    Stmt body = mutate(op->body);
    if (is_no_op(body)) return no_op();
    if (body.same_as(op->body)) return op;
    return Atomic::make(op->producer_name, op->mutex_name, body);
}

Stmt Simplify::visit(const Fork *op) {
    Stmt first = mutate(op->first), rest = mutate(op->rest);
    // Nothing left on one side: the other runs alone, on the calling thread.
    if (is_no_op(first)) return rest;
    if (is_no_op(rest)) return first;
    if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
    return Fork::make(first, rest);
}

} // namespace internal
} // namespace loom
