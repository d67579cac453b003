#ifndef LOOM_IR_SUBSTITUTE_H
#define LOOM_IR_SUBSTITUTE_H

/// \file Replacing variables (by name) or subexpressions (by structure) in Exprs and Stmts.
/// A Let, LetStmt or For that rebinds a name shadows it: uses of the name inside its body
/// refer to the inner binding and are left alone (the bound value, and a For's min and
/// extent, are outside the binding and are substituted). Replacements are inserted as given;
/// a replacement mentioning a name that an inner binding captures is the caller's concern.
/// Unchanged subtrees keep their identity. Tests: tests/unit/ir/substitute_test.cpp.

#include "ir/ir.h"

#include <limits>
#include <map>
#include <string>

namespace loom {
namespace internal {

/// Replaces free uses of the Variable `name` with `replacement`.
Expr substitute(const std::string &name, const Expr &replacement, const Expr &e);
Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s);

/// Replaces free uses of each Variable named in `replacements` with its Expr, simultaneously
/// (a replacement is not itself searched for further names).
Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e);
Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s);

/// Replaces every subexpression structurally equal to `find` with `replacement` (outermost
/// matches first; a replacement is not searched again). Inside a binding of a name that
/// `find` uses, the body is left alone, since there `find` means something else.
Expr substitute(const Expr &find, const Expr &replacement, const Expr &e);
Stmt substitute(const Expr &find, const Expr &replacement, const Stmt &s);

/// e with the Variables named in `lets` replaced by their values as deep as the chain goes
/// (a value may name other lets; at most 64 rounds). Undefined when the expansion grows past
/// `max_nodes` nodes counted as a tree, as it does when a long chain of lets reuses its names
/// (the regions of a deep group of Funcs): a caller that would simplify it gives up instead.
Expr expand_lets(const std::map<std::string, Expr> &lets, const Expr &e,
                 int max_nodes = std::numeric_limits<int>::max());

} // namespace internal
} // namespace loom

#endif
