#include "lower/infer_alignment.h"

#include "arith/modulus_remainder.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// Let values larger than this once expanded are not expanded (the analysis is an
/// optimization; expanding nested lets can grow exponentially).
const int max_expanded_nodes = 1000;

/// Whether fact a says more than fact b (an exact value beats any modulus, a larger modulus
/// beats a smaller one).
bool better(const ModulusRemainder &a, const ModulusRemainder &b) {
    if (b.modulus == 0) return false;
    if (a.modulus == 0) return true;
    return a.modulus > b.modulus && a.modulus % b.modulus == 0;
}

class InferAlignment : public IRMutator {
    using IRMutator::visit;

    /// The values of the lets in scope with the lets they use substituted (undefined when
    /// too large, or for a loop variable shadowing a let), innermost last for each name.
    std::map<std::string, std::vector<Expr>> lets_;

    /// The alignment of each expanded base seen so far. The loads and stores of one row or
    /// tile share a few bases (interpolate: 1368 ramps, 560 distinct), and simplifying each
    /// expansion again was most of this pass's time (0.5 s on interpolate).
    std::unordered_map<Expr, ModulusRemainder, IRDeepHash, IRDeepEqual> known_;

    /// e with the lets in scope substituted (their values are already expanded).
    Expr expand(const Expr &e) {
        std::map<std::string, Expr> values;
        visit_exprs(e, [&](const Expr &x) {
            if (const Variable *v = x.as<Variable>()) {
                auto it = lets_.find(v->name);
                if (it != lets_.end() && !it->second.empty() && it->second.back().defined()) {
                    values[v->name] = it->second.back();
                }
            }
            return true;
        });
        return values.empty() ? e : substitute(values, e);
    }

    /// The alignment of the int32 expression `base`, seen through the lets in scope.
    ModulusRemainder alignment_of(const Expr &base) {
        if (base.type() != Int(32)) return ModulusRemainder();
        Expr e = expand(base);
        if (expr_larger_than(e, max_expanded_nodes)) return ModulusRemainder();
        auto it = known_.find(e);
        if (it != known_.end()) return it->second;
        ModulusRemainder m = modulus_remainder(simplify(e));
        known_.emplace(e, m);
        return m;
    }

    ModulusRemainder improve(const Expr &index, const ModulusRemainder &known) {
        const Ramp *r = index.as<Ramp>();
        if (!r || !r->base.type().is_scalar()) return known;
        ModulusRemainder m = alignment_of(r->base);
        return better(m, known) ? m : known;
    }

    template <typename LetOrLetStmt>
    auto visit_let(const LetOrLetStmt *op) -> decltype(op->body) {
        Expr value = mutate(op->value);
        Expr expanded;
        if (value.type() == Int(32)) {
            expanded = expand(value);
            if (expr_larger_than(expanded, max_expanded_nodes)) expanded = Expr();
        }
        lets_[op->name].push_back(expanded);
        auto body = mutate(op->body);
        lets_[op->name].pop_back();
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetOrLetStmt::make(op->name, value, body);
    }

    Expr visit(const Let *op) override { return visit_let(op); }
    Stmt visit(const LetStmt *op) override { return visit_let(op); }

    Stmt visit(const For *op) override {
        // The loop variable shadows any let of the same name inside the loop.
        Expr min = mutate(op->min), extent = mutate(op->extent);
        lets_[op->name].push_back(Expr());
        Stmt body = mutate(op->body);
        lets_[op->name].pop_back();
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
            return op;
        }
        return op->with_range(min, extent, body);
    }

    Expr visit(const Load *op) override {
        Expr index = mutate(op->index), predicate = mutate(op->predicate);
        ModulusRemainder align = improve(index, op->alignment);
        if (index.same_as(op->index) && predicate.same_as(op->predicate) &&
            align == op->alignment) {
            return op;
        }
        return Load::make(op->type, op->name, index, predicate, op->param, align);
    }

    Stmt visit(const Store *op) override {
        Expr value = mutate(op->value), index = mutate(op->index);
        Expr predicate = mutate(op->predicate);
        ModulusRemainder align = improve(index, op->alignment);
        if (value.same_as(op->value) && index.same_as(op->index) &&
            predicate.same_as(op->predicate) && align == op->alignment) {
            return op;
        }
        return Store::make(op->name, value, index, op->param, predicate, align);
    }
};

} // namespace

Stmt infer_alignment(const Stmt &s) { return InferAlignment().mutate(s); }

} // namespace internal
} // namespace loom
