#ifndef LOOM_VAR_H
#define LOOM_VAR_H

/// \file Var: a named pure dimension of a Func (Halide's Var), and the implicit Vars `_`,
/// `_0`, `_1`, ... that stand for "the remaining dimensions".

#include <loom/expr.h>

#include <string>

namespace loom {

/// A pure variable: a name for one dimension of a Func's domain. It converts to an Int(32)
/// Variable Expr, so Vars combine with the operators of <loom/ir_operator.h>. Two Vars with the
/// same name are the same variable.
class Var {
public:
    /// A Var with a new unique name ("v<n>").
    Var();
    /// A Var with the given name (not made unique: Var("x") twice is the same variable).
    Var(const std::string &name);

    /// The variable's name.
    const std::string &name() const;
    /// Whether both Vars name the same variable.
    bool same_as(const Var &other) const { return name() == other.name(); }

    /// The n-th implicit Var, "_<n>". Implicit Vars fill the dimensions `_` stands for.
    static Var implicit(int n);
    /// Whether `name` is an implicit Var's name ("_0", "_1", ...).
    static bool is_implicit(const std::string &name);
    bool is_implicit() const { return is_implicit(name()); }
    /// n for the implicit Var "_<n>", -1 for any other name.
    static int implicit_index(const std::string &name);
    int implicit_index() const { return implicit_index(name()); }
    /// Whether `name` is the placeholder "_".
    static bool is_placeholder(const std::string &name) { return name == "_"; }
    bool is_placeholder() const { return is_placeholder(name()); }

    /// The Var of the implicit loop outside all others of every stage ("__outermost"); used by
    /// schedules (compute_at(f, Var::outermost())).
    static Var outermost();

    /// The Int(32) Variable named after this Var.
    operator const Expr &() const { return e; }

private:
    Expr e; ///< the Variable node, built once
};

/// The placeholder: in `f(x, _) = g(_)` it stands for as many implicit Vars as needed.
extern const Var _;
/// The implicit Vars "_0" ... "_9" (Var::implicit(n) for larger n).
extern const Var _0, _1, _2, _3, _4, _5, _6, _7, _8, _9;

} // namespace loom

#endif
