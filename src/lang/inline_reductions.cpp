#include <loom/func.h>
#include <loom/inline_reductions.h>
#include <loom/ir_operator.h>
#include <loom/rdom.h>
#include <loom/tuple.h>
#include <loom/var.h>

#include "ir/ir.h"
#include "ir/ir_mutator.h"
#include "support/error.h"
#include "support/util.h"

#include <map>

namespace loom {
namespace internal {

namespace {

/// Finds the reduction domain of an inline reduction and the free variables of its
/// expression. Without an explicit RDom, the domain is the one whose RVars appear in the
/// expression (RVars of two domains are an error). With one, RVars of other domains are free
/// variables: they are renamed to fresh pure Vars here and passed in by the call.
class FindFreeVars : public IRMutator {
public:
    FindFreeVars(const ReductionDomain &r, const std::string &name)
        : rdom(r), explicit_rdom(r.defined()), name(name) {}

    ReductionDomain rdom;
    /// Whether the expression uses an RVar of `rdom`.
    bool uses_rdom = false;
    /// The names of the reduction Func's pure args, in order of first appearance.
    std::vector<std::string> free_vars;
    /// What the call to the reduction Func passes for each pure arg.
    std::vector<Expr> call_args;

    /// Adds the free variables of the domain's where() condition. It may read the enclosing
    /// definition's pure Vars (where() refuses RVars of other domains); its own RVars are
    /// stored unbound (a domain holding itself would never be freed), so they are named here.
    void add_predicate_vars() {
        if (!rdom.predicate().defined()) return;
        const size_t outer = bound.size();
        for (const ReductionVariable &rv : rdom.domain()) bound.push_back(rv.var);
        mutate(rdom.predicate());
        bound.resize(outer);
    }

protected:
    using IRMutator::visit;

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        bound.push_back(op->name);
        Expr body = mutate(op->body);
        bound.pop_back();
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }

    Expr visit(const Variable *v) override {
        for (const std::string &b : bound) {
            // Names bound inside the expression are not free.
            if (b == v->name) return v;
        }
        std::string var_name = v->name;
        Expr replacement = v;
        if (v->reduction_domain.defined()) {
            if (explicit_rdom) {
                if (v->reduction_domain.same_as(rdom)) {
                    uses_rdom = true;
                    return v;
                }
                // An RVar of another domain varies outside this reduction: a free variable.
                auto it = renamed.find(v->name);
                if (it == renamed.end()) {
                    it = renamed.emplace(v->name, unique_name('v')).first;
                }
                var_name = it->second;
                replacement = Variable::make(v->type, var_name);
            } else if (!rdom.defined() || rdom.same_as(v->reduction_domain)) {
                rdom = v->reduction_domain;
                uses_rdom = true;
                return v;
            } else {
                user_error << "Inline reduction \"" << name
                           << "\" refers to reduction variables from multiple reduction "
                              "domains: "
                           << v->name << " and " << rdom.domain()[0].var << "\n";
            }
        }
        // Params are read directly, not passed in.
        if (v->param.defined()) return v;
        for (const std::string &f : free_vars) {
            if (f == var_name) return replacement;
        }
        free_vars.push_back(var_name);
        call_args.push_back(v);
        return replacement;
    }

private:
    bool explicit_rdom;
    const std::string &name;
    std::vector<std::string> bound;
    std::map<std::string, std::string> renamed;
};

/// An inline reduction being built: its Func, pure args, and the rewritten expression.
struct InlineReduction {
    Func f;
    std::vector<Var> args;       ///< the pure args
    std::vector<Expr> arg_exprs; ///< the same as Exprs (for self-references in the update)
    std::vector<Expr> call_args; ///< what the returned call passes
    Expr e;
    ReductionDomain rdom;
};

/// `given` (may be null) is the Func the user asked to hold the reduction; it must be undefined.
InlineReduction start(const ReductionDomain &explicit_rdom, const Expr &e, const std::string &name,
                      const char *what, const Func *given) {
    user_assert(e.defined()) << "The Expr passed to " << what << " is undefined.\n";
    FindFreeVars finder(explicit_rdom, name);
    InlineReduction r;
    r.e = finder.mutate(e);
    user_assert(finder.rdom.defined())
        << "The expression passed to " << what << " (\"" << name << "\") must use a reduction "
        << "domain (an RDom), or one must be given: " << e << "\n";
    // An update that uses no RVar does not loop over the domain (in Halide too, where
    // sum(r, 1) is silently 1): report it instead of computing the wrong thing.
    user_assert(finder.uses_rdom) << "The expression passed to " << what << " (\"" << name
                                  << "\") does not use the RDom "
                                  << "it reduces over, so the reduction would not loop over it: "
                                  << e << "\n";
    r.rdom = finder.rdom;
    finder.add_predicate_vars();
    if (given) {
        user_assert(!given->defined())
            << "The Func " << given->name() << " passed to " << what
            << " already has a definition; pass an undefined Func for the reduction to define.\n";
        r.f = *given;
    } else {
        // Func(name) makes the name unique ("sum", then "sum$1", ...), as Halide names them.
        r.f = Func(name);
    }
    for (const std::string &v : finder.free_vars) {
        r.args.push_back(Var(v));
        r.arg_exprs.push_back(r.args.back());
    }
    r.call_args = finder.call_args;
    return r;
}

/// f(args) = identity; f(args) = combine(f(args), e); returns f(call_args).
Expr fold(const ReductionDomain &explicit_rdom, const Expr &e, const std::string &name,
          const char *what, Expr (*identity)(Type), Expr (*combine)(const Expr &, const Expr &),
          const Func *given = nullptr) {
    InlineReduction r = start(explicit_rdom, e, name, what, given);
    r.f(r.args) = identity(r.e.type());
    r.f(r.args) = combine(r.f(r.arg_exprs), r.e);
    return r.f(r.call_args);
}

/// The coordinates and value of the first extreme point; `better(new, old)` says when a new
/// value replaces the old one (strictly, so ties keep the first point).
Tuple arg_extreme(const ReductionDomain &explicit_rdom, const Expr &e, const std::string &name,
                  const char *what, bool is_max, const Func *given = nullptr) {
    InlineReduction r = start(explicit_rdom, e, name, what, given);
    Type t = r.e.type();
    std::vector<Expr> initial, candidate;
    for (const ReductionVariable &rv : r.rdom.domain()) {
        initial.push_back(make_zero(Int(32)));
        candidate.push_back(Variable::make(Int(32), rv.var, r.rdom));
    }
    initial.push_back(is_max ? t.min() : t.max());
    candidate.push_back(r.e);
    r.f(r.args) = Tuple(initial);

    int n = (int)initial.size();
    std::vector<Expr> old_values;
    for (int i = 0; i < n; i++) old_values.push_back(r.f(r.arg_exprs)[i]);
    Expr better = is_max ? GT::make(r.e, old_values.back()) : LT::make(r.e, old_values.back());
    std::vector<Expr> next;
    for (int i = 0; i < n; i++) next.push_back(Select::make(better, candidate[i], old_values[i]));
    r.f(r.args) = Tuple(next);

    std::vector<Expr> result;
    for (int i = 0; i < n; i++) result.push_back(r.f(r.call_args)[i]);
    return Tuple(result);
}

Expr zero(Type t) { return make_zero(t); }
Expr one(Type t) { return make_one(t); }
Expr lowest(Type t) { return t.min(); }
Expr highest(Type t) { return t.max(); }
Expr add(const Expr &a, const Expr &b) { return Add::make(a, b); }
Expr add_saturating(const Expr &a, const Expr &b) { return saturating_add(a, b); }
Expr mul(const Expr &a, const Expr &b) { return Mul::make(a, b); }
Expr max_of(const Expr &a, const Expr &b) { return Max::make(a, b); }
Expr min_of(const Expr &a, const Expr &b) { return Min::make(a, b); }

} // namespace
} // namespace internal

using internal::ReductionDomain;

namespace {

/// The folds by name: what the reduction starts from and how it combines a new value.
struct FoldKind {
    const char *name;
    Expr (*identity)(Type);
    Expr (*combine)(const Expr &, const Expr &);
};
const FoldKind kSum{"sum", internal::zero, internal::add};
const FoldKind kSaturatingSum{"saturating_sum", internal::zero, internal::add_saturating};
const FoldKind kProduct{"product", internal::one, internal::mul};
const FoldKind kMaximum{"maximum", internal::lowest, internal::max_of};
const FoldKind kMinimum{"minimum", internal::highest, internal::min_of};

Expr fold(const FoldKind &k, const ReductionDomain &r, const Expr &e, const std::string &name,
          const Func *given = nullptr) {
    return internal::fold(r, e, given ? given->name() : name, k.name, k.identity, k.combine, given);
}

} // namespace

Expr sum(Expr e, const std::string &name) { return fold(kSum, ReductionDomain(), e, name); }
Expr saturating_sum(Expr e, const std::string &name) {
    return fold(kSaturatingSum, ReductionDomain(), e, name);
}
Expr product(Expr e, const std::string &name) { return fold(kProduct, ReductionDomain(), e, name); }
Expr maximum(Expr e, const std::string &name) { return fold(kMaximum, ReductionDomain(), e, name); }
Expr minimum(Expr e, const std::string &name) { return fold(kMinimum, ReductionDomain(), e, name); }

Expr sum(const RDom &r, Expr e, const std::string &name) { return fold(kSum, r.domain(), e, name); }
Expr saturating_sum(const RDom &r, Expr e, const std::string &name) {
    return fold(kSaturatingSum, r.domain(), e, name);
}
Expr product(const RDom &r, Expr e, const std::string &name) {
    return fold(kProduct, r.domain(), e, name);
}
Expr maximum(const RDom &r, Expr e, const std::string &name) {
    return fold(kMaximum, r.domain(), e, name);
}
Expr minimum(const RDom &r, Expr e, const std::string &name) {
    return fold(kMinimum, r.domain(), e, name);
}

Tuple argmax(Expr e, const std::string &name) {
    return internal::arg_extreme(ReductionDomain(), e, name, "argmax", true);
}
Tuple argmin(Expr e, const std::string &name) {
    return internal::arg_extreme(ReductionDomain(), e, name, "argmin", false);
}
Tuple argmax(const RDom &r, Expr e, const std::string &name) {
    return internal::arg_extreme(r.domain(), e, name, "argmax", true);
}
Tuple argmin(const RDom &r, Expr e, const std::string &name) {
    return internal::arg_extreme(r.domain(), e, name, "argmin", false);
}

Expr sum(Expr e, const Func &f) { return fold(kSum, ReductionDomain(), e, "", &f); }
Expr saturating_sum(Expr e, const Func &f) {
    return fold(kSaturatingSum, ReductionDomain(), e, "", &f);
}
Expr product(Expr e, const Func &f) { return fold(kProduct, ReductionDomain(), e, "", &f); }
Expr maximum(Expr e, const Func &f) { return fold(kMaximum, ReductionDomain(), e, "", &f); }
Expr minimum(Expr e, const Func &f) { return fold(kMinimum, ReductionDomain(), e, "", &f); }
Expr sum(const RDom &r, Expr e, const Func &f) { return fold(kSum, r.domain(), e, "", &f); }
Expr saturating_sum(const RDom &r, Expr e, const Func &f) {
    return fold(kSaturatingSum, r.domain(), e, "", &f);
}
Expr product(const RDom &r, Expr e, const Func &f) { return fold(kProduct, r.domain(), e, "", &f); }
Expr maximum(const RDom &r, Expr e, const Func &f) { return fold(kMaximum, r.domain(), e, "", &f); }
Expr minimum(const RDom &r, Expr e, const Func &f) { return fold(kMinimum, r.domain(), e, "", &f); }
Tuple argmax(Expr e, const Func &f) {
    return internal::arg_extreme(ReductionDomain(), e, f.name(), "argmax", true, &f);
}
Tuple argmin(Expr e, const Func &f) {
    return internal::arg_extreme(ReductionDomain(), e, f.name(), "argmin", false, &f);
}
Tuple argmax(const RDom &r, Expr e, const Func &f) {
    return internal::arg_extreme(r.domain(), e, f.name(), "argmax", true, &f);
}
Tuple argmin(const RDom &r, Expr e, const Func &f) {
    return internal::arg_extreme(r.domain(), e, f.name(), "argmin", false, &f);
}

} // namespace loom
