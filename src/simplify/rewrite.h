#ifndef LOOM_SIMPLIFY_REWRITE_H
#define LOOM_SIMPLIFY_REWRITE_H

/// \file Declarative rewrite rules for the simplifier. A rule is written with C++ operators on
/// pattern variables:
///
///     {RING, (x + c0) + c1, x + fold(c0 + c1)},
///     {INT32, (x * c0) / c1, x * fold(c0 / c1), c1 != 0 && c0 % c1 == 0},
///
/// `x, y, z, w, u, v` match any expression (a name used twice must match structurally equal
/// expressions), `c0..c4` match a constant (scalar or broadcast), integer literals match a
/// constant of that value. The right side is built with the matched pieces; fold(...) evaluates
/// constants (and makes the rule not apply if an Int(32) fold overflows). The optional predicate
/// is folded to a constant and must be true. The type mask says for which types (of the
/// operands) the rule is valid:
///   INT32  only Int(32), whose overflow is assumed impossible (rules that reorder comparisons,
///          divisions or min/max across + and *);
///   RING   every integer type (rules valid in wrap-around arithmetic);
///   FLOAT  float types (only rules that are exact in IEEE arithmetic);
///   BOOL   bool.
/// Rules are tried in order; the first that matches, satisfies its predicate and builds
/// wins. The rule lists live in the simplify_*.cpp file of their operator family.

#include "ir/ir.h"

#include <memory>
#include <vector>

namespace loom {
namespace internal {
namespace rewrite {

enum TypeMask : uint8_t {
    INT32 = 1,     ///< Int(32)
    INT_OTHER = 2, ///< other signed widths (wrap around)
    UINT = 4,      ///< unsigned, not bool (wrap around)
    FLOAT = 8,
    BOOL = 16,
    RING = INT32 | INT_OTHER | UINT, ///< every integer type
    ANY = RING | FLOAT,              ///< every numeric type
};

/// The mask bit of a (vector or scalar) type.
uint8_t type_class(Type t);

enum class PatKind : uint8_t {
    Wild,
    Const,
    Literal,
    Binary,
    Not,
    Select,
    Broadcast,
    Ramp,
    Fold,
    IsConst
};

struct PatNode {
    PatKind kind;
    IRNodeType op = IRNodeType::Add; ///< for Binary
    int index = 0;                   ///< for Wild and Const
    int64_t value = 0;               ///< for Literal
    std::shared_ptr<const PatNode> a, b, c;
    /// Whether the subtree contains a Wild or Const, so it has a type of its own; a literal-only
    /// subtree takes its type from its sibling or parent.
    bool typed = false;
};

/// A pattern (a handle to an immutable pattern tree).
class Pat {
public:
    Pat() = default;
    Pat(int64_t literal);
    Pat(int literal) : Pat((int64_t)literal) {}
    Pat(bool literal) : Pat((int64_t)literal) {}
    explicit Pat(std::shared_ptr<const PatNode> n) : node(std::move(n)) {}
    bool defined() const { return node != nullptr; }
    std::shared_ptr<const PatNode> node;
};

Pat wild(int index);
Pat const_wild(int index);
/// Evaluate a constant subtree when building the right-hand side.
Pat fold(const Pat &p);
/// In a predicate: whether the matched expression is a numeric constant. Rules that move a
/// term past a constant use !is_constant(y) so that they cannot undo a fold that failed.
Pat is_constant(const Pat &p);
Pat broadcast(const Pat &p);
Pat ramp(const Pat &base, const Pat &stride);
Pat select(const Pat &c, const Pat &t, const Pat &f);
Pat min(const Pat &a, const Pat &b);
Pat max(const Pat &a, const Pat &b);
Pat operator+(const Pat &a, const Pat &b);
Pat operator-(const Pat &a, const Pat &b);
Pat operator*(const Pat &a, const Pat &b);
Pat operator/(const Pat &a, const Pat &b);
Pat operator%(const Pat &a, const Pat &b);
Pat operator==(const Pat &a, const Pat &b);
Pat operator!=(const Pat &a, const Pat &b);
Pat operator<(const Pat &a, const Pat &b);
Pat operator<=(const Pat &a, const Pat &b);
Pat operator>(const Pat &a, const Pat &b);
Pat operator>=(const Pat &a, const Pat &b);
Pat operator&&(const Pat &a, const Pat &b);
Pat operator||(const Pat &a, const Pat &b);
Pat operator!(const Pat &a);
/// Negation, as 0 - a (only for predicates and fold()).
Pat operator-(const Pat &a);

/// One rewrite rule: lhs -> rhs when the predicate (if any) folds to true and the operand
/// type is in `types`.
struct Rule {
    Rule(uint8_t types, Pat lhs, Pat rhs, Pat pred = Pat());

    uint8_t types;
    Pat lhs, rhs, pred;
    /// What the left side needs of the expression's node type and of its operands' (a node
    /// type, any, or a constant), checked before matching: most rules fail right there, and
    /// the check costs no binding.
    int16_t node_needed;
    int16_t operand_needed[3];
};
using RuleList = std::vector<Rule>;

/// Tries the rules in order on `e` (whose operands have type `operand_type`); returns the
/// rewritten expression of the first rule that applies, or undefined. The result is not
/// simplified further.
Expr apply_rules(const RuleList &rules, const Expr &e, Type operand_type);

/// Declares the pattern variables x, y, z, w, u, v and c0..c4 in the current scope.
#define LOOM_PATTERN_VARS                                                                          \
    using namespace ::loom::internal::rewrite;                                                     \
    const Pat x = wild(0), y = wild(1), z = wild(2), w = wild(3), u = wild(4), v = wild(5);        \
    const Pat c0 = const_wild(0), c1 = const_wild(1), c2 = const_wild(2), c3 = const_wild(3),      \
              c4 = const_wild(4);                                                                  \
    (void)x, (void)y, (void)z, (void)w, (void)u, (void)v, (void)c0, (void)c1, (void)c2, (void)c3,  \
        (void)c4

} // namespace rewrite
} // namespace internal
} // namespace loom

#endif
