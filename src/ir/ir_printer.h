#ifndef LOOM_IR_IR_PRINTER_H
#define LOOM_IR_IR_PRINTER_H

/// \file IRPrinter: the readable C-like text of Exprs and Stmts, close to Halide's lowered-stmt
/// syntax. `operator<<` for Expr (declared in <loom/expr.h>) and Stmt uses it.
///
/// Examples: `(x + 1)`, `min(a, b)`, `select(c, a, b)`, `int32(x)` (a cast), `(uint8)3`,
/// `1.5f`, `f(x, y)` (a call), `buf[i]` (a load), `ramp(b, s, 8)`, `x8(v)` (a broadcast),
/// `(let t = v in body)`; statements `for (x, min, extent) {`, `produce f {`,
/// `allocate f[int32 * e0 * e1]`, `realize f([0, 10], [0, 20]) {`, `f(x) = v`, `if (c) {`.
/// Examples of every node: tests/unit/ir/ir_printer_test.cpp.

#include "ir/ir_visitor.h"

#include <map>
#include <ostream>
#include <string>

namespace loom {
namespace internal {

/// Prints IR to a stream. Statements are indented by `indent` spaces and end in a newline;
/// expressions print on one line.
class IRPrinter : public IRVisitor {
public:
    /// Prints to `os`, with statements starting at `indent` spaces.
    explicit IRPrinter(std::ostream &os, int indent = 0);

    /// Prints an expression (no trailing newline); "(undefined)" for an undefined one.
    void print(const Expr &e);
    /// Prints a statement, one line per simple statement, nested bodies indented.
    void print(const Stmt &s);

    /// Spaces per nesting level.
    static constexpr int indent_step = 2;

protected:
    std::ostream &stream;
    int indent;
    /// Element types of the allocations in scope, so loads of that type omit a type prefix.
    std::map<std::string, Type> known_types;

    void do_indent();
    void print_list(const std::vector<Expr> &es);
    void print_body(const Stmt &s);

#define LOOM_IR_EXPR(N) void visit(const N *) override;
#define LOOM_IR_STMT(N) void visit(const N *) override;
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
};

/// The names Halide prints for loop kinds ("for", "parallel", "vectorized", ...), device APIs
/// and memory types.
const char *for_type_name(ForType t);
const char *device_api_name(DeviceAPI d);
const char *memory_type_name(MemoryType m);

std::ostream &operator<<(std::ostream &os, ForType t);
std::ostream &operator<<(std::ostream &os, DeviceAPI d);
std::ostream &operator<<(std::ostream &os, MemoryType m);

} // namespace internal
} // namespace loom

#endif
