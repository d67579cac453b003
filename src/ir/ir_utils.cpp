// Constant queries, variable-use queries, purity and lossless casts (see ir_utils.h).

#include "ir/ir_utils.h"

#include "ir/ir_visitor.h"

#include <cmath>
#include <map>

namespace loom {
namespace internal {

namespace {

/// Finds free uses of a set of names; Let/LetStmt/For bodies hide the name they bind.
class UsesVars : public IRVisitor {
public:
    explicit UsesVars(const std::set<std::string> &names) : names(names) {}
    bool result = false;

    using IRVisitor::visit;

protected:
    const std::set<std::string> &names;
    std::map<std::string, int> hidden;

    template <typename T>
    void in_binding(const std::string &name, const T &body) {
        if (!names.count(name)) {
            dispatch(body);
            return;
        }
        hidden[name]++;
        dispatch(body);
        hidden[name]--;
    }

    void visit(const Variable *op) override {
        if (result || !names.count(op->name)) return;
        auto it = hidden.find(op->name);
        if (it == hidden.end() || it->second == 0) result = true;
    }
    void visit(const Let *op) override {
        if (result) return;
        dispatch(op->value);
        in_binding(op->name, op->body);
    }
    void visit(const LetStmt *op) override {
        if (result) return;
        dispatch(op->value);
        in_binding(op->name, op->body);
    }
    void visit(const For *op) override {
        if (result) return;
        dispatch(op->min);
        dispatch(op->extent);
        in_binding(op->name, op->body);
    }
};

template <typename T>
bool uses_vars(const T &node, const std::set<std::string> &names) {
    if (names.empty()) return false;
    UsesVars v(names);
    v.dispatch(node);
    return v.result;
}

/// Strips one Broadcast level (constants may be broadcast to vectors).
const IRNode *scalar_of(const Expr &e) {
    if (const Broadcast *b = e.as<Broadcast>()) return b->value.get();
    return e.get();
}

/// A numeric constant's sign: -1, 0 or 1, or 2 when `e` is not a numeric constant.
int const_sign(const Expr &e) {
    if (const int64_t *i = as_const_int(e)) return *i < 0 ? -1 : (*i > 0);
    if (const uint64_t *u = as_const_uint(e)) return *u > 0;
    if (const double *f = as_const_float(e)) {
        if (std::isnan(*f)) return 2;
        return *f < 0 ? -1 : (*f > 0);
    }
    return 2;
}

} // namespace

bool expr_uses_var(const Expr &e, const std::string &name) { return uses_vars(e, {name}); }
bool stmt_uses_var(const Stmt &s, const std::string &name) { return uses_vars(s, {name}); }
bool expr_uses_vars(const Expr &e, const std::set<std::string> &names) {
    return uses_vars(e, names);
}
bool stmt_uses_vars(const Stmt &s, const std::set<std::string> &names) {
    return uses_vars(s, names);
}

bool expr_larger_than(const Expr &e, int limit) {
    int n = 0;
    visit_exprs(e, [&](const Expr &) { return ++n <= limit; });
    return n > limit;
}

namespace {

class NamesReferenced : public IRVisitor {
public:
    std::set<std::string> names;

protected:
    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
    void visit(const Load *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
};

void append_blocks(const Stmt &s, std::vector<Stmt> &out) {
    if (const Block *b = s.as<Block>()) {
        append_blocks(b->first, out);
        append_blocks(b->rest, out);
    } else if (s.defined()) {
        out.push_back(s);
    }
}

} // namespace

std::set<std::string> names_referenced(const Stmt &s) {
    NamesReferenced v;
    v.dispatch(s);
    return std::move(v.names);
}

std::vector<Stmt> flatten_blocks(const Stmt &s) {
    std::vector<Stmt> out;
    append_blocks(s, out);
    return out;
}

bool is_const(const Expr &e) {
    if (!e.defined()) return false;
    if (const Broadcast *b = e.as<Broadcast>()) return is_const(b->value);
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>() || e.as<StringImm>();
}

bool is_const(const Expr &e, int64_t v) {
    if (const int64_t *i = as_const_int(e)) return *i == v;
    if (const uint64_t *u = as_const_uint(e)) return v >= 0 && *u == (uint64_t)v;
    if (const double *f = as_const_float(e)) return *f == (double)v;
    return false;
}

const int64_t *as_const_int(const Expr &e) {
    if (!e.defined()) return nullptr;
    const IRNode *n = scalar_of(e);
    if (n->node_type != IRNodeType::IntImm) return nullptr;
    return &static_cast<const IntImm *>(n)->value;
}

const uint64_t *as_const_uint(const Expr &e) {
    if (!e.defined()) return nullptr;
    const IRNode *n = scalar_of(e);
    if (n->node_type != IRNodeType::UIntImm) return nullptr;
    return &static_cast<const UIntImm *>(n)->value;
}

const double *as_const_float(const Expr &e) {
    if (!e.defined()) return nullptr;
    const IRNode *n = scalar_of(e);
    if (n->node_type != IRNodeType::FloatImm) return nullptr;
    return &static_cast<const FloatImm *>(n)->value;
}

bool is_const_zero(const Expr &e) { return is_const(e, 0); }
bool is_const_one(const Expr &e) { return is_const(e, 1); }

bool is_const_true(const Expr &e) { return e.defined() && e.type().is_bool() && is_const(e, 1); }
bool is_const_false(const Expr &e) { return e.defined() && e.type().is_bool() && is_const(e, 0); }

bool is_positive_const(const Expr &e) { return const_sign(e) == 1; }
bool is_negative_const(const Expr &e) { return const_sign(e) == -1; }

bool is_const_power_of_two_integer(const Expr &e, int *bits) {
    uint64_t v;
    if (const int64_t *i = as_const_int(e)) {
        if (*i <= 0) return false;
        v = (uint64_t)*i;
    } else if (const uint64_t *u = as_const_uint(e)) {
        if (*u == 0 || e.type().is_bool()) return false;
        v = *u;
    } else {
        return false;
    }
    if (v & (v - 1)) return false;
    int k = 0;
    while (v > 1) {
        v >>= 1;
        k++;
    }
    *bits = k;
    return true;
}

bool is_pure(const Expr &e) {
    bool pure = true;
    visit_exprs(e, [&](const Expr &x) {
        if (!pure) return false;
        if (const Call *c = x.as<Call>()) {
            if (!c->is_pure()) pure = false;
        } else if (const Load *l = x.as<Load>()) {
            // Internal allocations may be written between two evaluations.
            if (!l->param.defined()) pure = false;
        }
        return pure;
    });
    return pure;
}

Expr lossless_cast(Type t, const Expr &e) {
    if (!e.defined() || e.type() == t) return e;
    if (t.lanes() != e.type().lanes()) return Expr();
    if (t.is_handle() || e.type().is_handle()) return Expr();

    if (const Broadcast *b = e.as<Broadcast>()) {
        Expr v = lossless_cast(t.with_lanes(b->value.type().lanes()), b->value);
        return v.defined() ? Broadcast::make(v, b->lanes) : Expr();
    }
    if (const IntImm *i = e.as<IntImm>()) {
        return t.can_represent(i->value) ? make_const(t, i->value) : Expr();
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        return t.can_represent(u->value) ? make_const(t, u->value) : Expr();
    }
    if (const FloatImm *f = e.as<FloatImm>()) {
        return t.can_represent(f->value) ? make_const(t, f->value) : Expr();
    }
    if (t.can_represent(e.type())) return Cast::make(t, e);
    if (const Cast *c = e.as<Cast>()) {
        // A widening cast can be skipped: cast the narrower source instead.
        if (c->type.can_represent(c->value.type())) return lossless_cast(t, c->value);
    }
    return Expr();
}

} // namespace internal
} // namespace loom
