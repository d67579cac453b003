// Variable and subexpression substitution with shadowing (see substitute.h).

#include "ir/substitute.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"

#include <set>

namespace loom {
namespace internal {

namespace {

/// Base of both substituters: Let, LetStmt and For bodies are mutated with their name marked
/// as rebound when `binds_relevant(name)` says the rebinding matters.
class ShadowingMutator : public IRMutator {
protected:
    /// How many enclosing bindings rebind each relevant name, and in total.
    std::map<std::string, int> hidden;
    int hidden_total = 0;

    virtual bool binds_relevant(const std::string &name) const = 0;

    bool is_hidden(const std::string &name) const {
        auto it = hidden.find(name);
        return it != hidden.end() && it->second > 0;
    }

    template <typename T>
    T mutate_in_binding(const std::string &name, const T &body) {
        if (!binds_relevant(name)) return mutate(body);
        hidden[name]++;
        hidden_total++;
        T result = mutate(body);
        hidden[name]--;
        hidden_total--;
        return result;
    }

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body = mutate_in_binding(op->name, op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        Stmt body = mutate_in_binding(op->name, op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        Stmt body = mutate_in_binding(op->name, op->body);
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
            return op;
        }
        return op->with_range(min, extent, body);
    }
};

class VariableSubstituter : public ShadowingMutator {
public:
    explicit VariableSubstituter(const std::map<std::string, Expr> &r) : replacements(r) {}

protected:
    const std::map<std::string, Expr> &replacements;

    bool binds_relevant(const std::string &name) const override {
        return replacements.count(name) != 0;
    }

    Expr visit(const Variable *op) override {
        auto it = replacements.find(op->name);
        if (it == replacements.end() || !it->second.defined() || is_hidden(op->name)) return op;
        return it->second;
    }
};

class ExprSubstituter : public ShadowingMutator {
public:
    ExprSubstituter(const Expr &find, const Expr &replacement)
        : find(find), replacement(replacement) {
        visit_exprs(find, [&](const Expr &e) {
            if (const Variable *v = e.as<Variable>()) find_vars.insert(v->name);
            return true;
        });
    }

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (e.defined() && hidden_total == 0 && equal(e, find)) return replacement;
        return IRMutator::mutate(e);
    }

protected:
    Expr find, replacement;
    std::set<std::string> find_vars;

    // Rebinding any variable of `find` disables matching in the body.
    bool binds_relevant(const std::string &name) const override {
        return find_vars.count(name) != 0;
    }
};

} // namespace

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e) {
    std::map<std::string, Expr> m{{name, replacement}};
    return VariableSubstituter(m).mutate(e);
}

Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s) {
    std::map<std::string, Expr> m{{name, replacement}};
    return VariableSubstituter(m).mutate(s);
}

Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e) {
    if (replacements.empty()) return e;
    return VariableSubstituter(replacements).mutate(e);
}

Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s) {
    if (replacements.empty()) return s;
    return VariableSubstituter(replacements).mutate(s);
}

Expr substitute(const Expr &find, const Expr &replacement, const Expr &e) {
    return ExprSubstituter(find, replacement).mutate(e);
}

Stmt substitute(const Expr &find, const Expr &replacement, const Stmt &s) {
    return ExprSubstituter(find, replacement).mutate(s);
}

Expr expand_lets(const std::map<std::string, Expr> &lets, const Expr &e, int max_nodes) {
    Expr full = e;
    for (int round = 0; round < 64; round++) {
        Expr next = substitute(lets, full);
        if (next.same_as(full)) break;
        full = next;
        if (max_nodes == std::numeric_limits<int>::max()) continue;
        int nodes = 0;
        visit_exprs(full, [&](const Expr &) { return ++nodes <= max_nodes; });
        if (nodes > max_nodes) return Expr();
    }
    return full;
}

} // namespace internal
} // namespace loom
