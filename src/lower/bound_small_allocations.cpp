#include "lower/bound_small_allocations.h"

#include <loom/ir_operator.h>

#include "arith/constant_interval.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace loom {
namespace internal {

namespace {

using Scope = std::map<std::string, ConstantInterval>;

const int64_t kMaxBytes = int64_t(1) << 31;

/// The range of a loop variable: [min, min + extent - 1] over the ranges of min and extent.
ConstantInterval loop_var_bounds(const For *op, const Scope &scope) {
    ConstantInterval mn = constant_integer_bounds(op->min, scope);
    ConstantInterval ex = constant_integer_bounds(op->extent, scope);
    ConstantInterval r = ConstantInterval::everything();
    if (mn.min_defined) {
        r.min_defined = true;
        r.min = mn.min;
    }
    if (mn.max_defined && ex.max_defined) {
        ConstantInterval hi =
            ConstantInterval::single_point(mn.max) + ConstantInterval::single_point(ex.max - 1);
        r.max_defined = hi.max_defined;
        r.max = hi.max;
    }
    return r;
}

/// Binds `name` to `value` in `scope` for the lifetime of the object (restoring any binding it
/// shadows).
class ScopedBinding {
public:
    ScopedBinding(Scope &scope, const std::string &name, const ConstantInterval &value)
        : scope(scope), name(name) {
        auto it = scope.find(name);
        if (it != scope.end()) {
            had_old = true;
            old = it->second;
        }
        scope[name] = value;
    }
    ~ScopedBinding() {
        if (had_old) {
            scope[name] = old;
        } else {
            scope.erase(name);
        }
    }

private:
    Scope &scope;
    std::string name;
    bool had_old = false;
    ConstantInterval old;
};

/// A constant upper (upper = true) or lower bound of the integer expression e, or false when
/// none is found. Differences of mins and maxes are bounded through their operands
/// (a - min(z, w) == max(a - z, a - w), min(x, y) - b == min(x - b, y - b), and likewise for
/// max), so that e.g. min(t + 32, n) - min(t, n - 32) is bounded by 32 although neither side is
/// bounded: the extents of per-tile buffers under ShiftInwards splits look like this.
bool constant_bound(const Expr &e, bool upper, const Scope &scope, int64_t *result, int depth = 0) {
    if (depth > 12) return false;
    auto from_interval = [&](const ConstantInterval &i) {
        if (upper ? !i.max_defined : !i.min_defined) return false;
        *result = upper ? i.max : i.min;
        return true;
    };
    if (const int64_t *c = as_const_int(e)) {
        *result = *c;
        return true;
    }
    auto bound2 = [&](const Expr &a, bool ua, const Expr &b, bool ub, int64_t *ra, int64_t *rb) {
        return constant_bound(a, ua, scope, ra, depth + 1) &&
               constant_bound(b, ub, scope, rb, depth + 1);
    };
    // Overflow-checked combination through ConstantInterval arithmetic.
    auto point = [](int64_t v) { return ConstantInterval::single_point(v); };
    auto take = [&](const ConstantInterval &i) { return from_interval(i); };
    if (const Add *op = e.as<Add>()) {
        int64_t a, b;
        if (!bound2(op->a, upper, op->b, upper, &a, &b)) return false;
        return take((point(a) + point(b)).fit_to(Int(64)));
    }
    if (const Sub *op = e.as<Sub>()) {
        Expr a = op->a, b = op->b;
        // Distribute over a min/max subtrahend first, then the minuend (see above).
        const Min *bmin = b.as<Min>();
        const Max *bmax = b.as<Max>();
        const Min *amin = a.as<Min>();
        const Max *amax = a.as<Max>();
        if (bmin || bmax || amin || amax) {
            Expr x, y;
            bool is_min;
            if (bmin || bmax) {
                // a - min(z, w) = max(a - z, a - w); a - max(z, w) = min(a - z, a - w).
                Expr z = bmin ? bmin->a : bmax->a, w = bmin ? bmin->b : bmax->b;
                x = simplify(a - z);
                y = simplify(a - w);
                is_min = bmax != nullptr;
            } else {
                Expr p = amin ? amin->a : amax->a, q = amin ? amin->b : amax->b;
                x = simplify(p - b);
                y = simplify(q - b);
                is_min = amin != nullptr;
            }
            Expr combined = is_min ? Min::make(x, y) : Max::make(x, y);
            return constant_bound(combined, upper, scope, result, depth + 1);
        }
        int64_t ra, rb;
        if (!bound2(a, upper, b, !upper, &ra, &rb)) return false;
        return take((point(ra) - point(rb)).fit_to(Int(64)));
    }
    if (const Min *op = e.as<Min>()) {
        int64_t a, b;
        bool ha = constant_bound(op->a, upper, scope, &a, depth + 1);
        bool hb = constant_bound(op->b, upper, scope, &b, depth + 1);
        if (upper) {
            // The min is at most either side's upper bound.
            if (!ha && !hb) return false;
            *result = ha && hb ? std::min(a, b) : (ha ? a : b);
            return true;
        }
        if (!ha || !hb) return false;
        *result = std::min(a, b);
        return true;
    }
    if (const Max *op = e.as<Max>()) {
        int64_t a, b;
        bool ha = constant_bound(op->a, upper, scope, &a, depth + 1);
        bool hb = constant_bound(op->b, upper, scope, &b, depth + 1);
        if (!upper) {
            if (!ha && !hb) return false;
            *result = ha && hb ? std::max(a, b) : (ha ? a : b);
            return true;
        }
        if (!ha || !hb) return false;
        *result = std::max(a, b);
        return true;
    }
    if (const Mul *op = e.as<Mul>()) {
        const int64_t *c = as_const_int(op->b);
        if (c) {
            int64_t r;
            bool flip = *c < 0;
            if (!constant_bound(op->a, flip ? !upper : upper, scope, &r, depth + 1)) return false;
            return take((point(r) * point(*c)).fit_to(Int(64)));
        }
    }
    if (const Div *op = e.as<Div>()) {
        const int64_t *c = as_const_int(op->b);
        if (c && *c > 0) {
            int64_t r;
            if (!constant_bound(op->a, upper, scope, &r, depth + 1)) return false;
            return take(point(r) / point(*c));
        }
    }
    if (const Select *op = e.as<Select>()) {
        int64_t a, b;
        if (!bound2(op->true_value, upper, op->false_value, upper, &a, &b)) return false;
        *result = upper ? std::max(a, b) : std::min(a, b);
        return true;
    }
    return from_interval(constant_integer_bounds(e, scope));
}

/// Whether index `e` is the same for every execution: a constant scalar, or a Ramp / Broadcast
/// of constants (after the lets in scope).
bool is_constant_index(const Expr &e, const Scope &scope) {
    if (const Ramp *r = e.as<Ramp>()) {
        return is_constant_index(r->base, scope) && is_constant_index(r->stride, scope);
    }
    if (const Broadcast *b = e.as<Broadcast>()) return is_constant_index(b->value, scope);
    return e.type().is_scalar() && constant_integer_bounds(e, scope).is_single_point();
}

/// CompileError unless every Load and Store of buffer `buf` in the visited code is at a
/// constant index (MemoryType::Register).
class CheckRegisterIndices : public IRVisitor {
public:
    CheckRegisterIndices(const std::string &buf, Scope scope) : buf(buf), scope(std::move(scope)) {}

protected:
    using IRVisitor::visit;

    void visit(const Load *op) override {
        if (op->name == buf) check(op->index);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        if (op->name == buf) check(op->index);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        dispatch(op->value);
        ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
        dispatch(op->body);
    }
    void visit(const Let *op) override {
        dispatch(op->value);
        ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
        dispatch(op->body);
    }
    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
        ScopedBinding b(scope, op->name, loop_var_bounds(op, scope));
        dispatch(op->body);
    }
    void visit(const Variable *op) override {
        user_assert(op->name != buf)
            << "Allocation " << buf << " is stored in registers, but its address is taken "
            << "(it is passed to an extern stage). Try storing it on the stack or the heap "
            << "instead.\n";
    }

private:
    void check(const Expr &index) {
        user_assert(is_constant_index(index, scope))
            << "Allocation " << buf << " is stored in registers, but it is accessed at the "
            << "non-constant index " << index << ". Only allocations whose every access has a "
            << "constant index (after unrolling) can be stored in registers: unroll the loops "
            << "over it, or store it on the stack or the heap instead.\n";
    }
    std::string buf;
    Scope scope;
};

class BoundSmallAllocations : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
        lets.emplace_back(op->name, op->value);
        Stmt s = IRMutator::visit(op);
        lets.pop_back();
        return s;
    }

    Stmt visit(const For *op) override {
        ScopedBinding b(scope, op->name, loop_var_bounds(op, scope));
        // The loop variable shadows any let of the same name.
        lets.emplace_back(op->name, Expr());
        Stmt s = IRMutator::visit(op);
        lets.pop_back();
        return s;
    }

    /// A constant upper bound of extent e: e with the enclosing lets substituted (so that
    /// the symbolic parts of the bounds of a region cancel), simplified, then bounded. A let
    /// whose substitution would make e larger than kMaxSubstitutedNodes stays a name (bounded
    /// through the scope): the region of a root stage read through clamps is defined by its
    /// consumer's lets several times over, and substituting the whole chain of root stages
    /// grew e exponentially (a 4-stage chain of clamped stencils took a minute here).
    bool extent_upper_bound(const Expr &e, int64_t *result) {
        const int kMaxSubstitutedNodes = 2000;
        Expr x = e;
        std::set<std::string> loop_vars;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            if (loop_vars.count(it->first) || !expr_uses_var(x, it->first)) continue;
            if (!it->second.defined()) {
                // A loop variable (bounded through the scope); outer lets of that name are
                // hidden.
                loop_vars.insert(it->first);
                continue;
            }
            Expr next = substitute(it->first, it->second, x);
            if (!expr_larger_than(next, kMaxSubstitutedNodes)) {
                x = next;
            } else {
                // Kept as a name, a let hides any outer let of the same name as a loop does.
                loop_vars.insert(it->first);
            }
        }
        x = simplify(x);
        return constant_bound(x, true, scope, result);
    }

    Stmt visit(const Allocate *op) override {
        MemoryType mt = op->memory_type;
        bool on_stack = mt == MemoryType::Stack || mt == MemoryType::Register;
        if (!on_stack && mt != MemoryType::Auto) return IRMutator::visit(op);

        // A constant upper bound on the number of elements, if there is one.
        int64_t elements = 1;
        bool bounded = true;
        for (const Expr &e : op->extents) {
            int64_t hi;
            if (!extent_upper_bound(e, &hi)) {
                bounded = false;
                break;
            }
            hi = std::max<int64_t>(hi, 0);
            // Sizes past 2^31 bytes are not worth bounding (and must not overflow below).
            if (hi > kMaxBytes || (hi > 0 && elements > kMaxBytes / hi)) {
                bounded = false;
                break;
            }
            elements *= hi;
        }
        int64_t bytes = elements * op->type.bytes();
        bounded = bounded && bytes <= kMaxBytes;

        if (mt == MemoryType::Stack) {
            // A dynamic size stays dynamic: codegen allocas it for the allocation's scope.
            if (!bounded) return IRMutator::visit(op);
        } else if (mt == MemoryType::Register) {
            user_assert(bounded)
                << "Allocation " << op->name << " has a dynamic size. Only fixed-size "
                << "allocations can be stored in registers. Try storing on the heap or stack "
                << "instead.\n";
            CheckRegisterIndices check(op->name, scope);
            check.dispatch(op->body);
        } else if (!bounded || bytes > kMaxAutoStackBytes) {
            return IRMutator::visit(op);
        }

        Stmt body = mutate(op->body);
        MemoryType new_type = mt == MemoryType::Auto ? MemoryType::Stack : mt;
        // Already of constant size and placed: nothing to change.
        bool same = new_type == mt && op->extents.size() == 1 && is_const(op->extents[0], elements);
        if (same && body.same_as(op->body)) return op;
        return Allocate::make(op->name, op->type, new_type, {make_const(Int(32), elements)},
                              op->condition, body);
    }

private:
    Scope scope;
    /// The enclosing LetStmts, outermost first (an undefined value for a loop variable).
    std::vector<std::pair<std::string, Expr>> lets;
};

} // namespace

Stmt bound_small_allocations(const Stmt &s) { return BoundSmallAllocations().mutate(s); }

} // namespace internal
} // namespace loom
