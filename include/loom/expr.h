#ifndef LOOM_EXPR_H
#define LOOM_EXPR_H

/// \file Expr, the handle to an expression tree, and the base of all IR nodes. The node kinds
/// themselves are internal (src/ir/ir.h).

#include <loom/float16.h>
#include <loom/intrusive_ptr.h>
#include <loom/type.h>

#include <cstdint>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The kind of an IR node; the full list is the X-macro in src/ir/ir_node_list.h.
enum class IRNodeType : uint8_t;

/// Base of every IR node. Nodes are immutable once built.
struct IRNode : RefCounted {
    explicit IRNode(IRNodeType t) : node_type(t) {}
    IRNodeType node_type;
};

/// Base of expression nodes: every expression has a type.
struct BaseExprNode : IRNode {
    BaseExprNode(IRNodeType t, Type ty) : IRNode(t), type(ty) {}
    Type type;
};

/// Base of statement nodes.
struct BaseStmtNode : IRNode {
    explicit BaseStmtNode(IRNodeType t) : IRNode(t) {}
};

/// A handle to an IR node of either family.
struct IRHandle : IntrusivePtr<const IRNode> {
    IRHandle() = default;
    IRHandle(const IRNode *p) : IntrusivePtr<const IRNode>(p) {}
    /// The node as a T (e.g. `e.as<Add>()`), or null when it is another kind.
    template <typename T>
    const T *as() const {
        const IRNode *n = get();
        return (n && n->node_type == T::_node_type) ? static_cast<const T *>(n) : nullptr;
    }
    IRNodeType node_type() const { return get()->node_type; }
};

} // namespace internal

/// An expression: a handle to an immutable tree of IR nodes. Copying is cheap.
class Expr : public internal::IRHandle {
public:
    Expr() = default;
    Expr(const internal::BaseExprNode *n) : IRHandle(n) {}
    Expr(const internal::IntrusivePtr<const internal::IRNode> &p) : IRHandle(p.get()) {}

    /// Constants. int32 and float convert implicitly; other widths are explicit, as in Halide.
    explicit Expr(int8_t x);
    explicit Expr(int16_t x);
    Expr(int32_t x);
    explicit Expr(int64_t x);
    explicit Expr(uint8_t x);
    explicit Expr(uint16_t x);
    explicit Expr(uint32_t x);
    explicit Expr(uint64_t x);
    Expr(float x);
    explicit Expr(double x);
    /// 16-bit float constants (Float(16), BFloat(16)) convert implicitly, as in Halide.
    Expr(float16_t x);
    Expr(bfloat16_t x);
    /// A string constant (for print and error messages).
    Expr(const std::string &s);

    /// The type of the expression; the Expr must be defined.
    Type type() const { return static_cast<const internal::BaseExprNode *>(get())->type; }
};

/// Orders Exprs by node identity, for use as map keys.
struct ExprCompare {
    bool operator()(const Expr &a, const Expr &b) const { return a.get() < b.get(); }
};

/// Prints the expression in Loom's C-like IR syntax.
std::ostream &operator<<(std::ostream &os, const Expr &e);

namespace internal {

/// A statement: a handle to an immutable loop-nest IR tree.
class Stmt : public IRHandle {
public:
    Stmt() = default;
    Stmt(const BaseStmtNode *n) : IRHandle(n) {}
};

std::ostream &operator<<(std::ostream &os, const Stmt &s);

} // namespace internal

/// A multi-dimensional region: a (min, extent) per dimension.
struct Range {
    Expr min, extent;
    Range() = default;
    Range(const Expr &min_, const Expr &extent_) : min(min_), extent(extent_) {}
};
using Region = std::vector<Range>;

} // namespace loom

#endif
