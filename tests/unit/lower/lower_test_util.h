#ifndef LOOM_TESTS_UNIT_LOWER_LOWER_TEST_UTIL_H
#define LOOM_TESTS_UNIT_LOWER_LOWER_TEST_UTIL_H

// Helpers for the lowering pass tests: Functions built with the internal API, structural
// comparison that prints both statements on failure, and evaluation of let-bound bounds.

#include <loom/error.h>
#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lang/function.h"
#include "simplify/simplify.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

namespace loom {
namespace test {

using namespace loom::internal;

/// How many nodes of type T the expressions of `ir` (an Expr or a Stmt) hold.
template <typename T, typename IR>
int count_nodes(const IR &ir) {
    int count = 0;
    visit_exprs(ir, [&](const Expr &e) {
        count += e.as<T>() != nullptr;
        return true;
    });
    return count;
}

inline Expr ivar(const std::string &n) { return Variable::make(Int(32), n); }

/// A Function with a pure definition over `args`.
inline Function make_func(const std::string &name, const std::vector<std::string> &args,
                          const std::vector<Expr> &values) {
    Function f(name);
    f.define(args, values);
    return f;
}

inline std::string text(const Stmt &s) {
    std::ostringstream os;
    os << s;
    return os.str();
}
inline std::string text(const Expr &e) {
    std::ostringstream os;
    os << e;
    return os.str();
}

#define EXPECT_IR_EQ(actual, expected)                                                             \
    EXPECT_TRUE(::loom::internal::equal(actual, expected))                                         \
        << "actual:\n"                                                                             \
        << ::loom::test::text(actual) << "\nexpected:\n"                                           \
        << ::loom::test::text(expected)

/// Every LetStmt binding in s (the first binding of each name).
inline std::map<std::string, Expr> let_bindings(const Stmt &s) {
    std::map<std::string, Expr> lets;
    class Collect : public IRVisitor {
    public:
        std::map<std::string, Expr> &lets;
        explicit Collect(std::map<std::string, Expr> &l) : lets(l) {}

    protected:
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            lets.emplace(op->name, op->value);
            IRVisitor::visit(op);
        }
    } c(lets);
    c.dispatch(s);
    return lets;
}

/// The integer value of let-bound `name`, given values for the free variables in `known`.
inline int64_t eval_let(const std::map<std::string, Expr> &lets, const std::string &name,
                        const std::map<std::string, Expr> &known) {
    auto it = lets.find(name);
    if (it == lets.end()) {
        ADD_FAILURE() << "no let for " << name;
        return -999999;
    }
    Expr e = it->second;
    for (int i = 0; i < 64; i++) {
        Expr before = e;
        e = substitute(known, e);
        std::map<std::string, Expr> lmap(lets.begin(), lets.end());
        e = substitute(lmap, e);
        if (equal(e, before)) break;
    }
    e = simplify(e);
    const int64_t *v = as_const_int(e);
    if (!v) {
        ADD_FAILURE() << name << " did not evaluate to a constant: " << e;
        return -999999;
    }
    return *v;
}

/// Store and Load of a flat buffer (after storage flattening), unpredicated.
inline Stmt flat_store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}
inline Expr flat_load(Type t, const std::string &buf, const Expr &index) {
    return Load::make(t, buf, index, const_true(), Parameter(), ModulusRemainder());
}

/// A level naming loop `var` of `func`'s last stage (compute_at, compute_with).
inline LoopLevelSpec loop_level(const std::string &func, const std::string &var) {
    LoopLevelSpec at;
    at.kind = LoopLevelSpec::At;
    at.func = func;
    at.var = var;
    return at;
}

/// out(x, y) = f(x, y) + g(x, y) with f(x, y) = x + y and g(x, y) = x - y both computed at the
/// root and g.compute_with(f, y).
inline Function compute_with_pair() {
    Function f = make_func("f", {"x", "y"}, {ivar("x") + ivar("y")});
    Function g = make_func("g", {"x", "y"}, {ivar("x") - ivar("y")});
    f.schedule().compute_level = LoopLevelSpec::root();
    g.schedule().compute_level = LoopLevelSpec::root();
    g.definition().schedule.fuse_level = loop_level("f", "y");
    return make_func("out", {"x", "y"},
                     {f.make_call({ivar("x"), ivar("y")}) + g.make_call({ivar("x"), ivar("y")})});
}

} // namespace test
} // namespace loom

#endif
