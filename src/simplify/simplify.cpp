// The simplifier's driver: the mutate() entry that dispatches on node kinds and derives
// constants from facts, variables and Let handling, the fact scopes, and the public functions.
// The rules themselves are in simplify_<family>.cpp.

#include "simplify/simplify.h"

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "simplify/const_fold.h"
#include "simplify/simplifier.h"
#include "support/error.h"

#include <algorithm>
#include <limits>
#include <set>

namespace loom {
namespace internal {

bool is_numeric_const(const Expr &e) {
    const Expr *s = &e;
    if (const Broadcast *b = e.as<Broadcast>()) s = &b->value;
    return s->as<IntImm>() || s->as<UIntImm>() || s->as<FloatImm>();
}

bool should_commute(const Expr &a, const Expr &b) {
    auto rank = [](const Expr &e) {
        if (is_numeric_const(e)) return 2;
        if (e.as<Broadcast>()) return 1;
        return 0;
    };
    return rank(a) > rank(b);
}

Simplify::Simplify(const std::map<std::string, ConstantInterval> &bounds,
                   const std::map<std::string, ModulusRemainder> &alignment) {
    for (const auto &kv : bounds) vars[kv.first].info.bounds = kv.second;
    for (const auto &kv : alignment) vars[kv.first].info.alignment = normalize(kv.second);
}

Simplify::ExprInfo Simplify::type_info(Type t) {
    ExprInfo i;
    i.bounds = ConstantInterval::bounds_of_type(t);
    return i;
}

Simplify::ExprInfo Simplify::const_info(const Expr &c) {
    ExprInfo i;
    int64_t v;
    if (const_int_value(c, &v)) {
        i.bounds = ConstantInterval::single_point(v);
        i.alignment = ModulusRemainder(0, v);
    } else {
        i.bounds = ConstantInterval::bounds_of_type(c.type());
    }
    return i;
}

Expr Simplify::mutate(const Expr &e, ExprInfo *info) {
    ExprInfo local;
    ExprInfo *out = info ? info : &local;
    *out = ExprInfo();
    if (!e.defined()) return e;
    auto cached = simplified.find(e.get());
    if (cached != simplified.end() && cached->second.epoch == epoch) {
        *out = cached->second.info;
        return e;
    }
    Expr r;
    switch (e.node_type()) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        r = visit(e.as<N>(), out);                                                                 \
        break;
#define LOOM_IR_STMT(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    default:
        internal_error << "Simplify: statement in an expression position\n";
    }
    Type t = r.type();
    internal_assert(t == e.type()) << "Simplify changed the type of " << e << " (" << e.type()
                                   << ") to " << t << ": " << r << "\n";
    if (t.is_int_or_uint()) {
        // Bounds beyond the type mean the value wrapped (and can be anything).
        out->bounds = out->bounds.fit_to(t);
        if (out->bounds.is_single_point() && !is_numeric_const(r)) {
            // A value the facts pin down is that constant (if evaluating it has no effects).
            if (has_no_side_effects(r)) {
                r = make_const(t, out->bounds.min);
                *out = const_info(r);
            }
        }
        if (!no_overflow(t.element_of()) && !is_numeric_const(r)) {
            out->alignment = ModulusRemainder(1, 0);
        } else if (out->alignment.modulus == 0 && !is_numeric_const(r) && has_no_side_effects(r)) {
            // An exact alignment fact (x * 4 % 2 is 0k + 0) is a constant.
            r = make_const(t, out->alignment.remainder);
            *out = const_info(r);
        }
    } else {
        out->bounds = ConstantInterval::everything();
        out->alignment = ModulusRemainder(1, 0);
    }
    if (t.is_bool() && t.is_scalar() && (!truths.empty() || !falsehoods.empty()) &&
        !is_numeric_const(r)) {
        for (const Expr &f : truths) {
            if (equal(f, r)) return const_true();
        }
        for (const Expr &f : falsehoods) {
            if (equal(f, r)) return const_false();
        }
    }
    if (simplified.size() > 200000) simplified.clear();
    simplified[r.get()] = Simplified{r, *out, epoch};
    return r;
}

bool Simplify::rewrite_with(const rewrite::RuleList &rules, const Expr &e, Type operand_type,
                            ExprInfo *info, Expr *result) {
    Expr r = rewrite::apply_rules(rules, e, operand_type);
    if (!r.defined()) return false;
    // Rules only ever make expressions simpler, so this terminates; the guard turns a rule
    // cycle (a bug) into an internal error instead of a stack overflow.
    internal_assert(rewrite_depth < 1000) << "Simplify: rewrite rules cycle on " << e << "\n";
    rewrite_depth++;
    // A rule whose result folds Int(32) constants with wrap-around made up an overflow that
    // the input did not have (the input's own folds happened before the rules ran): keep the
    // input instead.
    bool outer_wrapped = int32_wrapped;
    int32_wrapped = false;
    ExprInfo before = *info;
    Expr simplified_r = mutate(r, info);
    bool wrapped = int32_wrapped;
    int32_wrapped = outer_wrapped;
    rewrite_depth--;
    if (wrapped) {
        *info = before;
        return false;
    }
    *result = simplified_r;
    return true;
}

// ---- Leaves ----

Expr Simplify::visit(const IntImm *op, ExprInfo *info) {
    *info = const_info(op);
    return op;
}

Expr Simplify::visit(const UIntImm *op, ExprInfo *info) {
    *info = const_info(op);
    return op;
}

Expr Simplify::visit(const FloatImm *op, ExprInfo *info) { return op; }

Expr Simplify::visit(const StringImm *op, ExprInfo *info) { return op; }

Expr Simplify::visit(const Variable *op, ExprInfo *info) {
    auto it = vars.find(op->name);
    if (it == vars.end()) {
        *info = type_info(op->type);
        return op;
    }
    VarInfo &vi = it->second;
    if (vi.replacement.defined() && vi.blocked == 0) {
        // The replacement's variables are now used here.
        for (const std::string &n : vi.replacement_vars) {
            auto j = vars.find(n);
            if (j != vars.end()) j->second.uses++;
        }
        *info = vi.info;
        return vi.replacement;
    }
    vi.uses++;
    *info = vi.info;
    return op;
}

// ---- Let ----

bool is_substitutable(const Expr &e) {
    if (is_numeric_const(e) || e.as<Variable>()) return true;
    if (const Add *a = e.as<Add>()) return is_numeric_const(a->b) && is_substitutable(a->a);
    if (const Sub *s = e.as<Sub>()) {
        return (is_numeric_const(s->b) && is_substitutable(s->a)) ||
               (is_numeric_const(s->a) && is_substitutable(s->b));
    }
    if (const Mul *m = e.as<Mul>()) return is_numeric_const(m->b) && is_substitutable(m->a);
    if (const Broadcast *b = e.as<Broadcast>()) return is_substitutable(b->value);
    if (const Ramp *r = e.as<Ramp>())
        return is_numeric_const(r->stride) && is_substitutable(r->base);
    if (const Cast *c = e.as<Cast>())
        return c->type.can_represent(c->value.type()) && is_substitutable(c->value);
    return false;
}

bool has_no_side_effects(const Expr &e) {
    bool effects = false;
    visit_exprs(e, [&](const Expr &x) {
        if (const Call *c = x.as<Call>()) {
            if (c->call_type == Call::Extern || c->call_type == Call::ExternCPlusPlus ||
                c->call_type == Call::Intrinsic) {
                effects = true;
            }
        }
        return !effects;
    });
    return !effects;
}

std::vector<std::string> free_vars(const Expr &e) {
    std::set<std::string> names;
    visit_exprs(e, [&](const Expr &x) {
        if (const Variable *v = x.as<Variable>()) names.insert(v->name);
        return true;
    });
    return std::vector<std::string>(names.begin(), names.end());
}

Expr Simplify::visit(const Let *op, ExprInfo *info) {
    ExprInfo vinfo;
    Expr value = mutate(op->value, &vinfo);
    VarInfo binding;
    binding.info = vinfo;
    if (is_substitutable(value)) {
        binding.replacement = value;
        binding.replacement_vars = free_vars(value);
        // let x = x + 1 in ...: the replacement's x is the outer one, which the body cannot
        // name; keep the Let.
        if (std::find(binding.replacement_vars.begin(), binding.replacement_vars.end(), op->name) !=
            binding.replacement_vars.end()) {
            binding.replacement = Expr();
        }
    }
    Expr body;
    int uses;
    {
        ScopedBinding scope(this, op->name, binding);
        body = mutate(op->body, info);
        uses = scope.info().uses;
    }
    // Counts can include uses that a later rule cancelled (x - x); check the result itself.
    if (uses > 0 && !expr_uses_var(body, op->name)) uses = 0;
    if (uses == 0 && (binding.replacement.defined() || has_no_side_effects(value))) return body;
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return Let::make(op->name, value, body);
}

// ---- Scopes ----

Simplify::ScopedBinding::ScopedBinding(Simplify *s_, const std::string &n, const VarInfo &vi)
    : s(s_), name(n) {
    // Replacements that mention an outer `name` would be captured by this binding.
    if (s->live_replacements > 0) {
        for (auto &kv : s->vars) {
            VarInfo &o = kv.second;
            if (!o.replacement.defined() || kv.first == name) continue;
            if (std::find(o.replacement_vars.begin(), o.replacement_vars.end(), name) !=
                o.replacement_vars.end()) {
                o.blocked++;
                blocked.push_back(kv.first);
            }
        }
    }
    // Known conditions about an outer `name` do not hold for this one.
    auto mentions = [&](const Expr &c) { return expr_uses_var(c, name); };
    if (std::any_of(s->truths.begin(), s->truths.end(), mentions) ||
        std::any_of(s->falsehoods.begin(), s->falsehoods.end(), mentions)) {
        saved_truths = true;
        old_truths = s->truths;
        old_falsehoods = s->falsehoods;
        s->truths.erase(std::remove_if(s->truths.begin(), s->truths.end(), mentions),
                        s->truths.end());
        s->falsehoods.erase(std::remove_if(s->falsehoods.begin(), s->falsehoods.end(), mentions),
                            s->falsehoods.end());
    }
    auto it = s->vars.find(name);
    had = it != s->vars.end();
    if (had) saved = it->second;
    s->vars[name] = vi;
    if (vi.replacement.defined()) s->live_replacements++;
    s->facts_changed();
}

Simplify::VarInfo &Simplify::ScopedBinding::info() { return s->vars[name]; }

Simplify::ScopedBinding::~ScopedBinding() {
    auto it = s->vars.find(name);
    if (it != s->vars.end() && it->second.replacement.defined()) s->live_replacements--;
    if (had)
        s->vars[name] = saved;
    else
        s->vars.erase(name);
    for (const std::string &n : blocked) {
        auto j = s->vars.find(n);
        if (j != s->vars.end()) j->second.blocked--;
    }
    if (saved_truths) {
        s->truths = old_truths;
        s->falsehoods = old_falsehoods;
    }
    s->facts_changed();
}

Simplify::FactScope::~FactScope() {
    for (size_t i = saved.size(); i-- > 0;) {
        const Saved &sv = saved[i];
        if (sv.existed) {
            auto it = s->vars.find(sv.name);
            if (it != s->vars.end()) it->second.info = sv.info;
        } else {
            s->vars.erase(sv.name);
        }
    }
    if (!saved.empty() || s->truths.size() != n_truths || s->falsehoods.size() != n_false) {
        s->facts_changed();
    }
    s->truths.resize(std::min(s->truths.size(), n_truths));
    s->falsehoods.resize(std::min(s->falsehoods.size(), n_false));
}

void Simplify::FactScope::save(const std::string &name, Type t) {
    auto it = s->vars.find(name);
    if (it != s->vars.end()) {
        saved.push_back({name, true, it->second.info});
    } else {
        saved.push_back({name, false, ExprInfo()});
        s->vars[name].info = type_info(t);
    }
}

void Simplify::FactScope::set_bounds(const std::string &name, Type t, const ConstantInterval &b) {
    save(name, t);
    ExprInfo &i = s->vars[name].info;
    ConstantInterval r = ConstantInterval::make_intersection(i.bounds, b);
    // Contradictory facts mean the code is unreachable; keep the old facts rather than reason
    // from an empty range.
    if (!r.is_empty()) i.bounds = r;
}

void Simplify::FactScope::set_alignment(const std::string &name, Type t,
                                        const ModulusRemainder &m) {
    save(name, t);
    ExprInfo &i = s->vars[name].info;
    i.alignment = intersect(i.alignment, m);
}

namespace {

/// likely(c) marks an expected branch; as a fact it is just c.
const Expr &strip_likely(const Expr &c) {
    if (const Call *call = c.as<Call>()) {
        if ((call->is_intrinsic(Call::likely) || call->is_intrinsic(Call::likely_if_innermost)) &&
            call->args.size() == 1) {
            return call->args[0];
        }
    }
    return c;
}

} // namespace

void Simplify::FactScope::learn_true(const Expr &cond) {
    const Expr &c = strip_likely(cond);
    if (!c.defined() || is_numeric_const(c) || !c.type().is_scalar()) return;
    if (const And *a = c.as<And>()) {
        learn_true(a->a);
        learn_true(a->b);
        return;
    }
    if (const Not *n = c.as<Not>()) {
        learn_false(n->a);
        return;
    }
    s->truths.push_back(c);
    s->facts_changed();
    int64_t k;
    auto var_const = [&](const Expr &a, const Expr &b, const Variable **v) {
        *v = a.as<Variable>();
        return *v && a.type().is_int_or_uint() && const_int_value(b, &k);
    };
    const Variable *v;
    if (const LT *lt = c.as<LT>()) {
        if (var_const(lt->a, lt->b, &v) && k > std::numeric_limits<int64_t>::min()) {
            set_bounds(v->name, v->type, ConstantInterval::bounded_above(k - 1));
        } else if (var_const(lt->b, lt->a, &v) && k < std::numeric_limits<int64_t>::max()) {
            set_bounds(v->name, v->type, ConstantInterval::bounded_below(k + 1));
        }
    } else if (const LE *le = c.as<LE>()) {
        if (var_const(le->a, le->b, &v)) {
            set_bounds(v->name, v->type, ConstantInterval::bounded_above(k));
        } else if (var_const(le->b, le->a, &v)) {
            set_bounds(v->name, v->type, ConstantInterval::bounded_below(k));
        }
    } else if (const EQ *eq = c.as<EQ>()) {
        if (var_const(eq->a, eq->b, &v)) {
            set_bounds(v->name, v->type, ConstantInterval::single_point(k));
        } else if (const Mod *m = eq->a.as<Mod>()) {
            // x % c == r: x is c*k + r.
            int64_t mod, rem;
            const Variable *mv = m->a.as<Variable>();
            if (mv && no_overflow(mv->type) && const_int_value(m->b, &mod) &&
                const_int_value(eq->b, &rem) && mod > 0 && rem >= 0 && rem < mod) {
                set_alignment(mv->name, mv->type, ModulusRemainder(mod, rem));
            }
        }
    }
}

void Simplify::FactScope::learn_false(const Expr &cond) {
    const Expr &c = strip_likely(cond);
    if (!c.defined() || is_numeric_const(c) || !c.type().is_scalar()) return;
    if (const Or *o = c.as<Or>()) {
        learn_false(o->a);
        learn_false(o->b);
        return;
    }
    if (const Not *n = c.as<Not>()) {
        learn_true(n->a);
        return;
    }
    s->falsehoods.push_back(c);
    s->facts_changed();
    // The negations of integer comparisons are comparisons: learn them for their bounds.
    if (const LT *lt = c.as<LT>()) {
        if (lt->a.type().is_int_or_uint()) learn_true(LE::make(lt->b, lt->a));
    } else if (const LE *le = c.as<LE>()) {
        if (le->a.type().is_int_or_uint()) learn_true(LT::make(le->b, le->a));
    } else if (const NE *ne = c.as<NE>()) {
        learn_true(EQ::make(ne->a, ne->b));
    }
}

// ---- Public interface ----

Expr simplify(const Expr &e, const std::map<std::string, ConstantInterval> &bounds,
              const std::map<std::string, ModulusRemainder> &alignment) {
    if (!e.defined()) return e;
    Simplify s(bounds, alignment);
    return s.mutate(e, nullptr);
}

Stmt simplify(const Stmt &st, const std::map<std::string, ConstantInterval> &bounds,
              const std::map<std::string, ModulusRemainder> &alignment) {
    if (!st.defined()) return st;
    Simplify s(bounds, alignment);
    return s.mutate(st);
}

bool can_prove(const Expr &cond, const std::map<std::string, ConstantInterval> &bounds) {
    internal_assert(cond.defined() && cond.type().is_bool())
        << "can_prove of a non-boolean expression\n";
    Expr r = simplify(cond, bounds);
    return is_const_true(r);
}

bool is_no_op(const Stmt &s) {
    if (!s.defined()) return true;
    const Evaluate *e = s.as<Evaluate>();
    return e && is_numeric_const(e->value);
}

} // namespace internal
} // namespace loom
