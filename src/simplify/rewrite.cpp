#include "simplify/rewrite.h"

#include "ir/ir_equality.h"
#include "simplify/const_fold.h"
#include "support/error.h"

#include <cmath>

namespace loom {
namespace internal {
namespace rewrite {

uint8_t type_class(Type t) {
    if (t.is_bool()) return BOOL;
    if (t.is_int()) return t.bits() == 32 ? INT32 : INT_OTHER;
    if (t.is_uint()) return UINT;
    if (t.is_float() && !t.is_bfloat() && (t.bits() == 32 || t.bits() == 64)) return FLOAT;
    return 0;
}

namespace {

using NodePtr = std::shared_ptr<const PatNode>;

Pat make(PatKind k, const Pat &a = Pat(), const Pat &b = Pat(), const Pat &c = Pat()) {
    auto n = std::make_shared<PatNode>();
    n->kind = k;
    n->a = a.node;
    n->b = b.node;
    n->c = c.node;
    n->typed = (n->a && n->a->typed) || (n->b && n->b->typed) || (n->c && n->c->typed);
    return Pat(n);
}

Pat binary(IRNodeType op, const Pat &a, const Pat &b) {
    Pat p = make(PatKind::Binary, a, b);
    const_cast<PatNode *>(p.node.get())->op = op;
    return p;
}

const int max_wild = 6, max_const = 5;

struct Bindings {
    Expr wild[max_wild];
    Expr consts[max_const];
    /// Which slots are bound (wild i: bit i; constant j: bit max_wild + j), so that only those
    /// are reset before the next rule.
    uint32_t bound = 0;

    void reset() {
        for (int i = 0; bound; i++, bound >>= 1) {
            if (!(bound & 1)) continue;
            if (i < max_wild) {
                wild[i] = Expr();
            } else {
                consts[i - max_wild] = Expr();
            }
        }
    }
};

/// Operand requirements of a rule's left side (Rule::operand_needed): a node type, or these.
const int16_t any_node = -1, constant_node = -2;

bool is_scalar_const(const Expr &e) {
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>();
}

/// A scalar constant or a broadcast of one: what a constant wildcard or a literal matches.
bool is_constant_operand(const Expr &e) {
    const Broadcast *bc = e.as<Broadcast>();
    return is_scalar_const(bc ? bc->value : e);
}

/// The operands of e if it is one of the binary nodes patterns are written with.
bool binary_operands(const Expr &e, const Expr **a, const Expr **b) {
    switch (e.node_type()) {
#define LOOM_BINARY_CASE(N)                                                                        \
    case IRNodeType::N:                                                                            \
        *a = &e.as<N>()->a;                                                                        \
        *b = &e.as<N>()->b;                                                                        \
        return true;
        LOOM_BINARY_CASE(Add)
        LOOM_BINARY_CASE(Sub)
        LOOM_BINARY_CASE(Mul)
        LOOM_BINARY_CASE(Div)
        LOOM_BINARY_CASE(Mod)
        LOOM_BINARY_CASE(Min)
        LOOM_BINARY_CASE(Max)
        LOOM_BINARY_CASE(EQ)
        LOOM_BINARY_CASE(NE)
        LOOM_BINARY_CASE(LT)
        LOOM_BINARY_CASE(LE)
        LOOM_BINARY_CASE(GT)
        LOOM_BINARY_CASE(GE)
        LOOM_BINARY_CASE(And)
        LOOM_BINARY_CASE(Or)
#undef LOOM_BINARY_CASE
    default:
        return false;
    }
}

bool matches_literal(const Expr &e, int64_t v) {
    const Expr *s = &e;
    if (const Broadcast *b = e.as<Broadcast>()) s = &b->value;
    if (const IntImm *i = s->as<IntImm>()) return i->value == v;
    if (const UIntImm *u = s->as<UIntImm>()) return v >= 0 && u->value == (uint64_t)v;
    // -0.0 is not the literal 0: x - -0.0 is not x.
    if (const FloatImm *f = s->as<FloatImm>())
        return f->value == (double)v && !std::signbit(f->value);
    return false;
}

template <typename T>
bool match_binary(const PatNode *p, const Expr &e, Bindings &b);

bool match(const PatNode *p, const Expr &e, Bindings &b) {
    switch (p->kind) {
    case PatKind::Wild: {
        Expr &slot = b.wild[p->index];
        if (!slot.defined()) {
            slot = e;
            b.bound |= 1u << p->index;
            return true;
        }
        return slot.same_as(e) || equal(slot, e);
    }
    case PatKind::Const: {
        if (!is_constant_operand(e)) return false;
        Expr &slot = b.consts[p->index];
        if (!slot.defined()) {
            slot = e;
            b.bound |= 1u << (max_wild + p->index);
            return true;
        }
        return equal(slot, e);
    }
    case PatKind::Literal:
        return matches_literal(e, p->value);
    case PatKind::Binary: {
        const Expr *a, *b2;
        return e.node_type() == p->op && binary_operands(e, &a, &b2) && match(p->a.get(), *a, b) &&
               match(p->b.get(), *b2, b);
    }
    case PatKind::Not: {
        const Not *n = e.as<Not>();
        return n && match(p->a.get(), n->a, b);
    }
    case PatKind::Select: {
        const Select *s = e.as<Select>();
        return s && match(p->a.get(), s->condition, b) && match(p->b.get(), s->true_value, b) &&
               match(p->c.get(), s->false_value, b);
    }
    case PatKind::Broadcast: {
        const Broadcast *bc = e.as<Broadcast>();
        return bc && match(p->a.get(), bc->value, b);
    }
    case PatKind::Ramp: {
        const Ramp *r = e.as<Ramp>();
        return r && match(p->a.get(), r->base, b) && match(p->b.get(), r->stride, b);
    }
    case PatKind::Fold:
    case PatKind::IsConst:
        internal_error << "fold() or is_constant() in the left side of a rewrite rule\n";
    }
    return false;
}

bool is_nan_const(const Expr &e) {
    const FloatImm *f = e.as<FloatImm>();
    return f && std::isnan(f->value);
}

/// Folds a tree of constants bottom-up; undefined if some node is not constant, an Int(32)
/// fold overflows, or a constant is a NaN: the rules reason with a total order
/// (x <= c0 || x <= c1 is x <= max(c0, c1)), which NaN breaks.
Expr fold_tree(const Expr &e) {
    if (is_nan_const(e)) return Expr();
    if (is_scalar_const(e)) return e;
    if (const Broadcast *bc = e.as<Broadcast>()) {
        if (is_nan_const(bc->value)) return Expr();
        if (is_scalar_const(bc->value)) return e;
        Expr v = fold_tree(bc->value);
        return v.defined() ? Broadcast::make(v, bc->lanes) : Expr();
    }
    if (const Not *n = e.as<Not>()) {
        Expr a = fold_tree(n->a);
        return a.defined() ? fold_not(a) : Expr();
    }
    const Expr *ea, *eb;
    if (!binary_operands(e, &ea, &eb)) return Expr();
    Expr a = fold_tree(*ea);
    if (!a.defined()) return Expr();
    Expr b = fold_tree(*eb);
    if (!b.defined()) return Expr();
    bool overflow = false;
    Expr r = fold_binary(e.node_type(), a, b, &overflow);
    return overflow ? Expr() : r;
}

Expr make_binary_node(IRNodeType op, const Expr &a, const Expr &b) {
    switch (op) {
#define LOOM_MAKE_CASE(N)                                                                          \
    case IRNodeType::N:                                                                            \
        return N::make(a, b);
        LOOM_MAKE_CASE(Add)
        LOOM_MAKE_CASE(Sub)
        LOOM_MAKE_CASE(Mul)
        LOOM_MAKE_CASE(Div)
        LOOM_MAKE_CASE(Mod)
        LOOM_MAKE_CASE(Min)
        LOOM_MAKE_CASE(Max)
        LOOM_MAKE_CASE(EQ)
        LOOM_MAKE_CASE(NE)
        LOOM_MAKE_CASE(LT)
        LOOM_MAKE_CASE(LE)
        LOOM_MAKE_CASE(GT)
        LOOM_MAKE_CASE(GE)
        LOOM_MAKE_CASE(And)
        LOOM_MAKE_CASE(Or)
#undef LOOM_MAKE_CASE
    default:
        internal_error << "bad binary pattern op\n";
    }
    return Expr();
}

bool is_comparison(IRNodeType op) {
    return op == IRNodeType::EQ || op == IRNodeType::NE || op == IRNodeType::LT ||
           op == IRNodeType::LE || op == IRNodeType::GT || op == IRNodeType::GE;
}

/// Builds the right side. `hint` is the type the built expression should have when it is
/// literal-only (has_hint false when unknown). Returns undefined when the pieces do not fit
/// together (mismatched types or lanes) or a fold fails.
Expr build(const PatNode *p, const Bindings &b, Type hint, bool has_hint) {
    switch (p->kind) {
    case PatKind::Wild:
        return b.wild[p->index];
    case PatKind::Const:
        return b.consts[p->index];
    case PatKind::Literal:
        if (!has_hint || !(hint.is_int_or_uint() || hint.is_float())) return Expr();
        return make_const(hint, p->value);
    case PatKind::Fold: {
        Expr e = build(p->a.get(), b, hint, has_hint);
        return e.defined() ? fold_tree(e) : Expr();
    }
    case PatKind::IsConst: {
        Expr a = build(p->a.get(), b, Type(), false);
        if (!a.defined()) return Expr();
        return make_bool(is_scalar_const(a) ||
                         (a.as<Broadcast>() && is_scalar_const(a.as<Broadcast>()->value)));
    }
    case PatKind::Not: {
        Expr a = build(p->a.get(), b, hint, has_hint);
        if (!a.defined() || !a.type().is_bool()) return Expr();
        return Not::make(a);
    }
    case PatKind::Broadcast: {
        if (!has_hint) return Expr();
        Expr v = p->a->typed ? build(p->a.get(), b, Type(), false)
                             : build(p->a.get(), b, hint.element_of(), true);
        if (!v.defined()) return Expr();
        int vl = v.type().lanes();
        if (hint.lanes() % vl != 0 || hint.lanes() / vl < 2) return Expr();
        return Broadcast::make(v, hint.lanes() / vl);
    }
    case PatKind::Ramp: {
        if (!has_hint) return Expr();
        Expr base, stride;
        if (p->a->typed || !p->b->typed) {
            base = build(p->a.get(), b, hint.element_of(), true);
            if (!base.defined()) return Expr();
            stride = build(p->b.get(), b, base.type(), true);
        } else {
            stride = build(p->b.get(), b, hint.element_of(), true);
            if (!stride.defined()) return Expr();
            base = build(p->a.get(), b, stride.type(), true);
        }
        if (!base.defined() || !stride.defined() || base.type() != stride.type()) return Expr();
        int bl = base.type().lanes();
        if (hint.lanes() % bl != 0 || hint.lanes() / bl < 2) return Expr();
        return Ramp::make(base, stride, hint.lanes() / bl);
    }
    case PatKind::Select: {
        Expr c = build(p->a.get(), b, Bool(has_hint ? hint.lanes() : 1), has_hint);
        if (!c.defined() || !c.type().is_bool()) return Expr();
        Expr t, f;
        if (p->b->typed || !p->c->typed) {
            t = build(p->b.get(), b, hint, has_hint);
            if (!t.defined()) return Expr();
            f = build(p->c.get(), b, t.type(), true);
        } else {
            f = build(p->c.get(), b, hint, has_hint);
            if (!f.defined()) return Expr();
            t = build(p->b.get(), b, f.type(), true);
        }
        if (!t.defined() || !f.defined() || t.type() != f.type()) return Expr();
        if (c.type().lanes() != 1 && c.type().lanes() != t.type().lanes()) return Expr();
        return Select::make(c, t, f);
    }
    case PatKind::Binary: {
        bool cmp = is_comparison(p->op);
        // Children of a comparison have their own type, unrelated to the bool result.
        Type child_hint = hint;
        bool child_has = has_hint && !cmp;
        Expr a, b2;
        if (p->a->typed || !p->b->typed) {
            a = build(p->a.get(), b, child_hint, child_has);
            if (!a.defined()) return Expr();
            b2 = build(p->b.get(), b, a.type(), true);
        } else {
            b2 = build(p->b.get(), b, child_hint, child_has);
            if (!b2.defined()) return Expr();
            a = build(p->a.get(), b, b2.type(), true);
        }
        if (!a.defined() || !b2.defined() || a.type() != b2.type()) return Expr();
        if ((p->op == IRNodeType::And || p->op == IRNodeType::Or) && !a.type().is_bool()) {
            return Expr();
        }
        return make_binary_node(p->op, a, b2);
    }
    }
    return Expr();
}

/// The node type a pattern node matches (any_node for a wildcard, constant_node for a
/// constant or literal).
int16_t node_needed(const PatNode *p) {
    switch (p->kind) {
    case PatKind::Wild:
        return any_node;
    case PatKind::Const:
    case PatKind::Literal:
        return constant_node;
    case PatKind::Binary:
        return (int16_t)p->op;
    case PatKind::Not:
        return (int16_t)IRNodeType::Not;
    case PatKind::Select:
        return (int16_t)IRNodeType::Select;
    case PatKind::Broadcast:
        return (int16_t)IRNodeType::Broadcast;
    case PatKind::Ramp:
        return (int16_t)IRNodeType::Ramp;
    case PatKind::Fold:
    case PatKind::IsConst:
        break;
    }
    internal_error << "fold() or is_constant() in the left side of a rewrite rule\n";
    return any_node;
}

/// The operands of e that patterns look into, in pattern order; returns how many.
int operands_of(const Expr &e, const Expr *out[3]) {
    if (binary_operands(e, &out[0], &out[1])) return 2;
    switch (e.node_type()) {
    case IRNodeType::Not:
        out[0] = &e.as<Not>()->a;
        return 1;
    case IRNodeType::Select:
        out[0] = &e.as<Select>()->condition;
        out[1] = &e.as<Select>()->true_value;
        out[2] = &e.as<Select>()->false_value;
        return 3;
    case IRNodeType::Broadcast:
        out[0] = &e.as<Broadcast>()->value;
        return 1;
    case IRNodeType::Ramp:
        out[0] = &e.as<Ramp>()->base;
        out[1] = &e.as<Ramp>()->stride;
        return 2;
    default:
        return 0;
    }
}

} // namespace

Rule::Rule(uint8_t types, Pat lhs_in, Pat rhs_in, Pat pred_in)
    : types(types), lhs(std::move(lhs_in)), rhs(std::move(rhs_in)), pred(std::move(pred_in)) {
    const PatNode *p = lhs.node.get();
    node_needed = rewrite::node_needed(p);
    const PatNode *operands[3] = {p->a.get(), p->b.get(), p->c.get()};
    for (int i = 0; i < 3; i++) {
        operand_needed[i] = operands[i] ? rewrite::node_needed(operands[i]) : any_node;
    }
}

Pat::Pat(int64_t literal) {
    auto n = std::make_shared<PatNode>();
    n->kind = PatKind::Literal;
    n->value = literal;
    node = n;
}

Pat wild(int index) {
    internal_assert(index >= 0 && index < max_wild) << "bad wildcard index\n";
    auto n = std::make_shared<PatNode>();
    n->kind = PatKind::Wild;
    n->index = index;
    n->typed = true;
    return Pat(n);
}

Pat const_wild(int index) {
    internal_assert(index >= 0 && index < max_const) << "bad constant wildcard index\n";
    auto n = std::make_shared<PatNode>();
    n->kind = PatKind::Const;
    n->index = index;
    n->typed = true;
    return Pat(n);
}

Pat fold(const Pat &p) { return make(PatKind::Fold, p); }
Pat is_constant(const Pat &p) {
    Pat r = make(PatKind::IsConst, p);
    // A bool of its own, whatever the argument's type.
    const_cast<PatNode *>(r.node.get())->typed = true;
    return r;
}
Pat broadcast(const Pat &p) { return make(PatKind::Broadcast, p); }
Pat ramp(const Pat &base, const Pat &stride) { return make(PatKind::Ramp, base, stride); }
Pat select(const Pat &c, const Pat &t, const Pat &f) { return make(PatKind::Select, c, t, f); }
Pat min(const Pat &a, const Pat &b) { return binary(IRNodeType::Min, a, b); }
Pat max(const Pat &a, const Pat &b) { return binary(IRNodeType::Max, a, b); }
Pat operator+(const Pat &a, const Pat &b) { return binary(IRNodeType::Add, a, b); }
Pat operator-(const Pat &a, const Pat &b) { return binary(IRNodeType::Sub, a, b); }
Pat operator*(const Pat &a, const Pat &b) { return binary(IRNodeType::Mul, a, b); }
Pat operator/(const Pat &a, const Pat &b) { return binary(IRNodeType::Div, a, b); }
Pat operator%(const Pat &a, const Pat &b) { return binary(IRNodeType::Mod, a, b); }
Pat operator==(const Pat &a, const Pat &b) { return binary(IRNodeType::EQ, a, b); }
Pat operator!=(const Pat &a, const Pat &b) { return binary(IRNodeType::NE, a, b); }
Pat operator<(const Pat &a, const Pat &b) { return binary(IRNodeType::LT, a, b); }
Pat operator<=(const Pat &a, const Pat &b) { return binary(IRNodeType::LE, a, b); }
Pat operator>(const Pat &a, const Pat &b) { return binary(IRNodeType::GT, a, b); }
Pat operator>=(const Pat &a, const Pat &b) { return binary(IRNodeType::GE, a, b); }
Pat operator&&(const Pat &a, const Pat &b) { return binary(IRNodeType::And, a, b); }
Pat operator||(const Pat &a, const Pat &b) { return binary(IRNodeType::Or, a, b); }
Pat operator!(const Pat &a) { return make(PatKind::Not, a); }
Pat operator-(const Pat &a) { return Pat(0) - a; }

Expr apply_rules(const RuleList &rules, const Expr &e, Type operand_type) {
    uint8_t cls = type_class(operand_type);
    if (!cls) return Expr();
    // The node types of e and its operands, against which each rule is screened first.
    const int16_t node = (int16_t)e.node_type();
    const Expr *operands[3] = {nullptr, nullptr, nullptr};
    const int count = operands_of(e, operands);
    int16_t operand_node[3] = {any_node, any_node, any_node};
    bool operand_constant[3] = {false, false, false};
    for (int i = 0; i < count; i++) {
        operand_node[i] = (int16_t)operands[i]->node_type();
        operand_constant[i] = is_constant_operand(*operands[i]);
    }
    const bool constant = is_constant_operand(e);
    auto admits = [&](const Rule &r) {
        if (r.node_needed == constant_node ? !constant
                                           : r.node_needed != node && r.node_needed != any_node) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            int16_t need = r.operand_needed[i];
            if (need == any_node) continue;
            if (i >= count) return false;
            if (need == constant_node ? !operand_constant[i] : need != operand_node[i]) {
                return false;
            }
        }
        return true;
    };
    Bindings b;
    for (const Rule &r : rules) {
        if (!(r.types & cls) || !admits(r)) continue;
        b.reset();
        if (!match(r.lhs.node.get(), e, b)) continue;
        if (r.pred.defined()) {
            Expr p = build(r.pred.node.get(), b, Bool(), true);
            if (!p.defined()) continue;
            p = fold_tree(p);
            if (!p.defined()) continue;
            ConstVal v;
            if (!as_const_val(p, &v) || !v.type.is_bool() || v.u != 1) continue;
        }
        Expr result = build(r.rhs.node.get(), b, e.type(), true);
        if (!result.defined() || result.type() != e.type()) continue;
        return result;
    }
    return Expr();
}

} // namespace rewrite
} // namespace internal
} // namespace loom
