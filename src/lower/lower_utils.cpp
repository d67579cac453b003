#include "lower/lower_utils.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "simplify/simplify.h"

namespace loom {
namespace internal {

Expr runtime_error_call(const std::string &fn, const std::vector<Expr> &args) {
    std::vector<Expr> all{Variable::make(Handle(), "__user_context")};
    all.insert(all.end(), args.begin(), args.end());
    return Call::make(Int(32), fn, all, Call::Extern);
}

Expr null_handle() { return Reinterpret::make(Handle(), make_zero(UInt(64))); }

Expr make_buffer(const Expr &host, Type t, const std::vector<Expr> &mins,
                 const std::vector<Expr> &extents, const std::vector<Expr> &strides) {
    std::vector<Expr> shape;
    for (size_t d = 0; d < mins.size(); d++) {
        shape.push_back(mins[d]);
        shape.push_back(extents[d]);
        shape.push_back(strides[d]);
        shape.push_back(make_zero(UInt(32))); // flags
    }
    Expr dims = shape.empty() ? null_handle()
                              : Call::make(Handle(), Call::make_struct, shape, Call::Intrinsic);
    std::vector<Expr> fields = {
        make_zero(UInt(64)), // device
        null_handle(),       // device_interface
        host,
        make_zero(UInt(64)), // flags
        make_const(UInt(8), (int64_t)t.code()),
        make_const(UInt(8), (int64_t)t.bits()),
        make_const(UInt(16), (int64_t)t.lanes()),
        Expr((int)mins.size()),
        dims,
        null_handle(), // padding
    };
    return Call::make(Handle(), Call::make_struct, fields, Call::Intrinsic);
}

std::vector<Expr> dense_strides(const std::vector<Expr> &extents) {
    std::vector<Expr> strides;
    Expr stride = 1;
    for (const Expr &e : extents) {
        strides.push_back(stride);
        stride = stride * e;
    }
    return strides;
}

namespace {

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

} // namespace

std::vector<std::pair<std::string, Type>> free_symbols(const Stmt &s,
                                                       const std::set<std::string> &ignore) {
    FreeSymbols free(ignore);
    free.dispatch(s);
    return free.found;
}

Expr buffer_handle(const std::string &name) { return Variable::make(Handle(), name + ".buffer"); }

bool is_likely_call(const Call *c) {
    return c && c->args.size() == 1 &&
           (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost));
}

namespace {

class RemoveLikelyTags : public IRMutator {
public:
    explicit RemoveLikelyTags(const std::string &var) : var(var) {}

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (is_likely_call(op) && (var.empty() || expr_uses_var(op->args[0], var)))
            return mutate(op->args[0]);
        return IRMutator::visit(op);
    }

private:
    const std::string &var;
};

} // namespace

Expr remove_likely_tags(const Expr &e, const std::string &var) {
    return RemoveLikelyTags(var).mutate(e);
}

Stmt remove_likely_tags(const Stmt &s, const std::string &var) {
    return RemoveLikelyTags(var).mutate(s);
}

bool lane_bounds(const Expr &e, const std::map<std::string, Expr> &lets, Expr *lo, Expr *hi,
                 int depth) {
    if (depth > 32) return false;
    if (e.type().is_scalar()) {
        *lo = *hi = e;
        return true;
    }
    if (!e.type().is_int()) return false;
    if (const Broadcast *b = e.as<Broadcast>()) {
        if (!b->value.type().is_scalar()) return false;
        *lo = *hi = b->value;
        return true;
    }
    if (const Ramp *r = e.as<Ramp>()) {
        const int64_t *s = as_const_int(r->stride);
        if (!s || !r->base.type().is_scalar()) return false;
        Expr last = Add::make(r->base, make_const(r->base.type(), *s * (r->lanes - 1)));
        *lo = *s >= 0 ? r->base : last;
        *hi = *s >= 0 ? last : r->base;
        return true;
    }
    Expr alo, ahi, blo, bhi;
    if (const Add *a = e.as<Add>()) {
        if (!lane_bounds(a->a, lets, &alo, &ahi, depth + 1) ||
            !lane_bounds(a->b, lets, &blo, &bhi, depth + 1)) {
            return false;
        }
        *lo = Add::make(alo, blo);
        *hi = Add::make(ahi, bhi);
        return true;
    }
    if (const Sub *a = e.as<Sub>()) {
        if (!lane_bounds(a->a, lets, &alo, &ahi, depth + 1) ||
            !lane_bounds(a->b, lets, &blo, &bhi, depth + 1)) {
            return false;
        }
        *lo = Sub::make(alo, bhi);
        *hi = Sub::make(ahi, blo);
        return true;
    }
    if (const Mul *m = e.as<Mul>()) {
        Expr v = m->a, k = m->b;
        if (const Broadcast *b = v.as<Broadcast>()) {
            if (as_const_int(b->value)) std::swap(v, k);
        }
        const Broadcast *kb = k.as<Broadcast>();
        const int64_t *c = kb ? as_const_int(kb->value) : nullptr;
        if (!c || !lane_bounds(v, lets, &alo, &ahi, depth + 1)) return false;
        *lo = Mul::make(*c >= 0 ? alo : ahi, kb->value);
        *hi = Mul::make(*c >= 0 ? ahi : alo, kb->value);
        return true;
    }
    if (const Min *m = e.as<Min>()) {
        if (!lane_bounds(m->a, lets, &alo, &ahi, depth + 1) ||
            !lane_bounds(m->b, lets, &blo, &bhi, depth + 1)) {
            return false;
        }
        *lo = Min::make(alo, blo);
        *hi = Min::make(ahi, bhi);
        return true;
    }
    if (const Max *m = e.as<Max>()) {
        if (!lane_bounds(m->a, lets, &alo, &ahi, depth + 1) ||
            !lane_bounds(m->b, lets, &blo, &bhi, depth + 1)) {
            return false;
        }
        *lo = Max::make(alo, blo);
        *hi = Max::make(ahi, bhi);
        return true;
    }
    if (const Call *c = e.as<Call>()) {
        if (is_likely_call(c)) return lane_bounds(c->args[0], lets, lo, hi, depth + 1);
        return false;
    }
    if (const Variable *v = e.as<Variable>()) {
        auto it = lets.find(v->name);
        if (it == lets.end()) return false;
        return lane_bounds(it->second, lets, lo, hi, depth + 1);
    }
    return false;
}

Expr all_lanes_true(const Expr &cond, const std::map<std::string, Expr> &lets) {
    if (cond.type().is_scalar()) return cond;
    if (const Broadcast *b = cond.as<Broadcast>()) {
        return b->value.type().is_scalar() ? b->value : Expr();
    }
    if (const Call *c = cond.as<Call>()) {
        return is_likely_call(c) ? all_lanes_true(c->args[0], lets) : Expr();
    }
    if (const And *a = cond.as<And>()) {
        Expr x = all_lanes_true(a->a, lets), y = all_lanes_true(a->b, lets);
        return x.defined() && y.defined() ? And::make(x, y) : Expr();
    }
    if (const Variable *v = cond.as<Variable>()) {
        auto it = lets.find(v->name);
        return it == lets.end() ? Expr() : all_lanes_true(it->second, lets);
    }
    if (const Not *n = cond.as<Not>()) {
        // Push the negation down to comparisons: !(a || b) is !a && !b.
        const Expr &a = n->a;
        if (const Or *o = a.as<Or>()) {
            return all_lanes_true(And::make(Not::make(o->a), Not::make(o->b)), lets);
        }
        if (const Not *nn = a.as<Not>()) return all_lanes_true(nn->a, lets);
        if (const LT *op = a.as<LT>()) return all_lanes_true(GE::make(op->a, op->b), lets);
        if (const LE *op = a.as<LE>()) return all_lanes_true(GT::make(op->a, op->b), lets);
        if (const GT *op = a.as<GT>()) return all_lanes_true(LE::make(op->a, op->b), lets);
        if (const GE *op = a.as<GE>()) return all_lanes_true(LT::make(op->a, op->b), lets);
        if (const Call *c = a.as<Call>(); is_likely_call(c)) {
            return all_lanes_true(Not::make(c->args[0]), lets);
        }
        return Expr();
    }
    Expr alo, ahi, blo, bhi;
    auto both = [&](const Expr &a, const Expr &b) {
        return lane_bounds(a, lets, &alo, &ahi) && lane_bounds(b, lets, &blo, &bhi);
    };
    if (const LT *op = cond.as<LT>()) return both(op->a, op->b) ? LT::make(ahi, blo) : Expr();
    if (const LE *op = cond.as<LE>()) return both(op->a, op->b) ? LE::make(ahi, blo) : Expr();
    if (const GT *op = cond.as<GT>()) return both(op->a, op->b) ? GT::make(alo, bhi) : Expr();
    if (const GE *op = cond.as<GE>()) return both(op->a, op->b) ? GE::make(alo, bhi) : Expr();
    return Expr();
}

Stmt change_coordinates(const Stmt &s, const std::string &func,
                        const std::function<std::vector<Expr>(std::vector<Expr>)> &change) {
    class Change : public IRMutator {
    public:
        Change(const std::string &func,
               const std::function<std::vector<Expr>(std::vector<Expr>)> &change)
            : func(func), change(change) {}

    protected:
        using IRMutator::visit;
        Stmt visit(const Provide *op) override {
            Stmt s = IRMutator::visit(op);
            if (op->name != func) return s;
            const Provide *p = s.as<Provide>();
            return Provide::make(p->name, p->values, change(p->args), p->predicate);
        }
        Expr visit(const Call *op) override {
            Expr e = IRMutator::visit(op);
            if (op->call_type != Call::Halide || op->name != func) return e;
            const Call *c = e.as<Call>();
            return Call::make(c->type, c->name, change(c->args), c->call_type, c->func,
                              c->value_index, c->param);
        }

    private:
        const std::string &func;
        const std::function<std::vector<Expr>(std::vector<Expr>)> &change;
    };
    return Change(func, change).mutate(s);
}

namespace {

Expr semaphore_call(const char *fn, const std::string &semaphore, const Expr &count) {
    return Call::make(Int(32), fn, {Variable::make(Handle(), semaphore), cast(Int(32), count)},
                      Call::Extern);
}

} // namespace

Stmt allocate_semaphore(const std::string &semaphore, const Expr &count, const Stmt &body) {
    // Two 64-bit words, the size of a halide_semaphore_t.
    Stmt init = Evaluate::make(semaphore_call("halide_semaphore_init", semaphore, count));
    return Allocate::make(semaphore, UInt(64), MemoryType::Stack, {Expr(2)}, const_true(),
                          Block::make(init, body));
}

Stmt acquire_semaphore(const std::string &semaphore, const Expr &count) {
    // The other side's failure was reported there: only the code is returned.
    return AssertStmt::make(semaphore_call("loom_semaphore_acquire", semaphore, count) == 0,
                            Expr(-1));
}

Stmt release_semaphore(const std::string &semaphore, const Expr &count) {
    return Evaluate::make(semaphore_call("halide_semaphore_release", semaphore, count));
}

std::string semaphore_of(const Call *c) {
    if (!c || c->call_type != Call::Extern || c->args.size() != 2) return "";
    if (c->name != "loom_semaphore_acquire" && c->name != "halide_semaphore_release" &&
        c->name != "halide_semaphore_init") {
        return "";
    }
    const Variable *v = c->args[0].as<Variable>();
    return v ? v->name : "";
}

std::string acquired_semaphore(const Stmt &s) {
    const AssertStmt *a = s.as<AssertStmt>();
    const EQ *eq = a ? a->condition.as<EQ>() : nullptr;
    const Call *c = eq ? eq->a.as<Call>() : nullptr;
    return c && c->name == "loom_semaphore_acquire" ? semaphore_of(c) : "";
}

std::string released_semaphore(const Stmt &s) {
    const Evaluate *e = s.as<Evaluate>();
    const Call *c = e ? e->value.as<Call>() : nullptr;
    return c && c->name == "halide_semaphore_release" ? semaphore_of(c) : "";
}

int64_t constant_allocation_elements(const Allocate *op) {
    int64_t count = 1;
    for (const Expr &e : op->extents) {
        const int64_t *v = as_const_int(e);
        if (!v || *v < 0 || (*v > 0 && count > (INT64_MAX / 2) / *v)) return -1;
        count *= *v;
    }
    return count;
}

bool allocated_on_heap(const Allocate *op) {
    if (op->memory_type == MemoryType::Stack || op->memory_type == MemoryType::Register) {
        return false;
    }
    int64_t count = constant_allocation_elements(op);
    return op->memory_type == MemoryType::Heap || count < 0 ||
           count * op->type.bytes() > kMaxAutoStackBytes;
}

} // namespace internal
} // namespace loom
