#ifndef LOOM_SIMPLIFY_SIMPLIFIER_H
#define LOOM_SIMPLIFY_SIMPLIFIER_H

/// \file The simplifier's internal class, shared by the simplify_*.cpp files (one per operator
/// family). Every expression visitor returns the simplified expression and fills an ExprInfo
/// with facts about its value (constant bounds and alignment), so rules can use the facts of
/// their operands without re-analysing them. Facts about variables (from the caller, Let values,
/// loop ranges and branch conditions) live in `vars`; whole conditions known to hold live in
/// `truths` / `falsehoods`.

#include "arith/constant_interval.h"
#include "arith/modulus_remainder.h"
#include "ir/ir_mutator.h"
#include "simplify/rewrite.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace loom {
namespace internal {

class Simplify : public IRMutator {
public:
    /// Facts about the value of an expression (every lane, for vectors).
    struct ExprInfo {
        ConstantInterval bounds;          ///< integer types only
        ModulusRemainder alignment{1, 0}; ///< Int(32) only (other types wrap)
    };

    Simplify(const std::map<std::string, ConstantInterval> &bounds,
             const std::map<std::string, ModulusRemainder> &alignment);

    /// Simplify e, describing the result's value in *info (when given).
    Expr mutate(const Expr &e, ExprInfo *info);
    Expr mutate(const Expr &e) override { return mutate(e, nullptr); }
    Stmt mutate(const Stmt &s) override;

    // ---- Expression visitors, by operator family ----
    // simplify.cpp
    Expr visit(const IntImm *op, ExprInfo *info);
    Expr visit(const UIntImm *op, ExprInfo *info);
    Expr visit(const FloatImm *op, ExprInfo *info);
    Expr visit(const StringImm *op, ExprInfo *info);
    Expr visit(const Variable *op, ExprInfo *info);
    Expr visit(const Let *op, ExprInfo *info);
    // simplify_add_sub.cpp
    Expr visit(const Add *op, ExprInfo *info);
    Expr visit(const Sub *op, ExprInfo *info);
    // simplify_mul_div_mod.cpp
    Expr visit(const Mul *op, ExprInfo *info);
    Expr visit(const Div *op, ExprInfo *info);
    Expr visit(const Mod *op, ExprInfo *info);
    // simplify_min_max.cpp
    Expr visit(const Min *op, ExprInfo *info);
    Expr visit(const Max *op, ExprInfo *info);
    // simplify_cmp.cpp
    Expr visit(const EQ *op, ExprInfo *info);
    Expr visit(const NE *op, ExprInfo *info);
    Expr visit(const LT *op, ExprInfo *info);
    Expr visit(const LE *op, ExprInfo *info);
    Expr visit(const GT *op, ExprInfo *info);
    Expr visit(const GE *op, ExprInfo *info);
    // simplify_logical.cpp
    Expr visit(const And *op, ExprInfo *info);
    Expr visit(const Or *op, ExprInfo *info);
    Expr visit(const Not *op, ExprInfo *info);
    // simplify_select.cpp
    Expr visit(const Select *op, ExprInfo *info);
    // simplify_cast.cpp
    Expr visit(const Cast *op, ExprInfo *info);
    Expr visit(const Reinterpret *op, ExprInfo *info);
    // simplify_vector.cpp
    Expr visit(const Ramp *op, ExprInfo *info);
    Expr visit(const Broadcast *op, ExprInfo *info);
    Expr visit(const Shuffle *op, ExprInfo *info);
    Expr visit(const VectorReduce *op, ExprInfo *info);
    // simplify_calls.cpp
    Expr visit(const Call *op, ExprInfo *info);
    Expr visit(const Load *op, ExprInfo *info);

    // ---- Statements (simplify_stmts.cpp) ----
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override;
    Stmt visit(const AssertStmt *op) override;
    Stmt visit(const ProducerConsumer *op) override;
    Stmt visit(const For *op) override;
    Stmt visit(const Store *op) override;
    Stmt visit(const Provide *op) override;
    Stmt visit(const Allocate *op) override;
    Stmt visit(const Realize *op) override;
    Stmt visit(const Block *op) override;
    Stmt visit(const IfThenElse *op) override;
    Stmt visit(const Evaluate *op) override;
    Stmt visit(const Atomic *op) override;
    Stmt visit(const Fork *op) override;

    // ---- Comparison helpers shared by families (simplify_cmp.cpp) ----
    /// Simplified a < b / a <= b / a == b for already simplified operands with known facts.
    Expr simplify_lt(const Expr &a, const Expr &b, const ExprInfo &ia, const ExprInfo &ib);
    Expr simplify_le(const Expr &a, const Expr &b, const ExprInfo &ia, const ExprInfo &ib);
    Expr simplify_eq(const Expr &a, const Expr &b, const ExprInfo &ia, const ExprInfo &ib);
    /// !e for a simplified boolean e, simplified.
    Expr negate(const Expr &e);
    /// a < b (less_than) or a == b decided from the bounds of a - b (Int(32) operands), or
    /// undefined.
    Expr decide_by_difference(const Expr &a, const Expr &b, bool less_than);
    /// The range of an Int(32) expression in exact integer arithmetic (no overflow assumed
    /// for its arithmetic nodes), looking at most `depth` levels and *budget nodes deep.
    ConstantInterval exact_bounds(const Expr &e, int depth, int *budget);
    /// a < b where a or b is a min/max, decided by comparing one of its operands, or undefined.
    Expr split_min_max_lt(const Expr &a, const Expr &b);

    // ---- Facts ----
    struct VarInfo {
        ExprInfo info;
        /// When defined, uses of the variable are replaced by this (a Let of a cheap value).
        Expr replacement;
        /// The free variables of `replacement`.
        std::vector<std::string> replacement_vars;
        /// > 0 while a name `replacement` uses is rebound (the replacement would be captured).
        int blocked = 0;
        /// Uses of the variable itself left in the simplified IR (to drop dead lets).
        int uses = 0;
    };

    /// Binds `name` for the lifetime of the object (a Let, LetStmt or For), hiding facts and
    /// replacements that mention an outer variable of the same name.
    class ScopedBinding {
    public:
        ScopedBinding(Simplify *s, const std::string &name, const VarInfo &info);
        ~ScopedBinding();
        /// The binding's info (its use count, after the body was simplified).
        VarInfo &info();

    private:
        Simplify *s;
        std::string name;
        bool had;
        VarInfo saved;
        std::vector<std::string> blocked;
        bool saved_truths = false;
        std::vector<Expr> old_truths, old_falsehoods;
    };

    /// Facts learned from a condition, undone when the object is destroyed.
    class FactScope {
    public:
        explicit FactScope(Simplify *s)
            : s(s), n_truths(s->truths.size()), n_false(s->falsehoods.size()) {}
        ~FactScope();
        /// Record that cond (simplified) holds / does not hold within this scope.
        void learn_true(const Expr &cond);
        void learn_false(const Expr &cond);

    private:
        void set_bounds(const std::string &name, Type t, const ConstantInterval &b);
        void set_alignment(const std::string &name, Type t, const ModulusRemainder &m);
        void save(const std::string &name, Type t);
        Simplify *s;
        size_t n_truths, n_false;
        struct Saved {
            std::string name;
            bool existed;
            ExprInfo info;
        };
        std::vector<Saved> saved;
    };

    std::map<std::string, VarInfo> vars;
    std::vector<Expr> truths, falsehoods;
    /// Number of live VarInfo replacements (to skip capture checks when none).
    int live_replacements = 0;

    // ---- Helpers for the visitors ----
    /// Whether rules may assume no overflow for this type (Int(32), DESIGN.md §4).
    static bool no_overflow(Type t) { return t.is_int() && t.bits() == 32; }
    /// Apply a rule list; on success the result is simplified again (into *info).
    bool rewrite_with(const rewrite::RuleList &rules, const Expr &e, Type operand_type,
                      ExprInfo *info, Expr *result);
    /// The node op with its operands replaced by the simplified a and b (op itself when they are
    /// unchanged), rewritten by `rules` when one applies.
    template <typename T>
    Expr rebuild_and_rewrite(const T *op, const Expr &a, const Expr &b,
                             const rewrite::RuleList &rules, Type operand_type, ExprInfo *info) {
        Expr e = (a.same_as(op->a) && b.same_as(op->b)) ? Expr(op) : T::make(a, b);
        Expr r;
        return rewrite_with(rules, e, operand_type, info, &r) ? r : e;
    }
    /// The facts of a type's full range (used when nothing else is known).
    static ExprInfo type_info(Type t);
    /// Facts of a known constant.
    static ExprInfo const_info(const Expr &c);
    /// The alignment of an already simplified Int(32) expression (using the variables' facts);
    /// for the few rules that need the alignment of an operand's operand.
    ModulusRemainder alignment_of(const Expr &e);

    /// Set when a fold of Int(32) constants wrapped (the input overflowed, or an expression the
    /// simplifier made up did, see decide_by_difference).
    bool int32_wrapped = false;

    /// Bumped whenever the facts change (a binding or fact scope begins or ends): results
    /// simplified under other facts must not be reused.
    void facts_changed() { epoch++; }

private:
    int rewrite_depth = 0;
    /// Expressions already simplified under the current facts, with their info. A rewrite
    /// rebuilds its result from already simplified pieces and simplifies the result again; the
    /// cache keeps that from re-walking the pieces (which would make long chains quadratic).
    struct Simplified {
        Expr keep; ///< holds the node alive so its address is not reused
        ExprInfo info;
        uint64_t epoch;
    };
    std::unordered_map<const IRNode *, Simplified> simplified;
    uint64_t epoch = 0;
};

/// Canonical operand order for commutative operators: constants to the right, then broadcasts.
/// Returns true when a and b should be swapped.
bool should_commute(const Expr &a, const Expr &b);

/// Whether e is a numeric constant (scalar, or a broadcast of one).
bool is_numeric_const(const Expr &e);

/// Whether a Let value is cheap enough to substitute into the body: a constant or variable,
/// possibly offset, scaled, converted, broadcast or ramped by constants.
bool is_substitutable(const Expr &e);

/// Whether evaluating e has no effect besides its value (no calls to externs or impure
/// intrinsics). Loads count as effect-free: an unused load can be dropped.
bool has_no_side_effects(const Expr &e);

/// The names of the Variables in e (Let-bound names inside e included; used for capture
/// checks, where over-approximating is safe).
std::vector<std::string> free_vars(const Expr &e);

} // namespace internal
} // namespace loom

#endif
