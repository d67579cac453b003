#ifndef LOOM_IR_SUBSTITUTE_H
#define LOOM_IR_SUBSTITUTE_H

/// \file Replacing variables (by name) or subexpressions (by structure) in Exprs and Stmts.
/// A Let, LetStmt or For that rebinds a name shadows it: uses of the name inside its body
/// refer to the inner binding and are left alone (the bound value, and a For's min and
/// extent, are outside the binding and are substituted). Replacements are inserted as given;
/// a replacement mentioning a name that an inner binding captures is the caller's concern.
/// Unchanged subtrees keep their identity. Tests: tests/unit/ir/substitute_test.cpp.

#include "ir/ir.h"

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

} // namespace internal
} // namespace loom

#endif
