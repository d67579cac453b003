#ifndef LOOM_TESTS_UNIT_ANALYSIS_ANALYSIS_TEST_UTIL_H
#define LOOM_TESTS_UNIT_ANALYSIS_ANALYSIS_TEST_UTIL_H

/// \file Small IR builders for the analysis tests. They build nodes directly with make() (no
/// type coercion), so the tests do not depend on the public operators.

#include "analysis/bounds.h"
#include "ir/ir.h"
#include "ir/ir_utils.h"

#include <string>
#include <vector>

namespace loom {
namespace analysis_test {

using namespace internal;

inline Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }
inline Expr i32(int64_t v) { return make_const(Int(32), v); }
inline Expr cst(Type t, int64_t v) { return make_const(t, v); }
inline Expr f32(double v) { return make_const(Float(32), v); }

// Builders named after the nodes; operands must already have one type.
inline Expr add(Expr a, Expr b) { return Add::make(a, b); }
inline Expr sub(Expr a, Expr b) { return Sub::make(a, b); }
inline Expr mul(Expr a, Expr b) { return Mul::make(a, b); }
inline Expr div(Expr a, Expr b) { return Div::make(a, b); }
inline Expr mod(Expr a, Expr b) { return Mod::make(a, b); }
inline Expr min(Expr a, Expr b) { return Min::make(a, b); }
inline Expr max(Expr a, Expr b) { return Max::make(a, b); }
inline Expr clamp(Expr a, Expr lo, Expr hi) { return Max::make(Min::make(a, hi), lo); }
inline Expr lt(Expr a, Expr b) { return LT::make(a, b); }
inline Expr le(Expr a, Expr b) { return LE::make(a, b); }
inline Expr gt(Expr a, Expr b) { return GT::make(a, b); }
inline Expr ge(Expr a, Expr b) { return GE::make(a, b); }
inline Expr eq(Expr a, Expr b) { return EQ::make(a, b); }
inline Expr ne(Expr a, Expr b) { return NE::make(a, b); }
inline Expr select(Expr c, Expr a, Expr b) { return Select::make(c, a, b); }
inline Expr cast(Type t, Expr a) { return Cast::make(t, a); }
inline Expr intrin(Type t, const char *name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::PureIntrinsic);
}
/// abs of an integer is unsigned of the same width, as in Halide.
inline Expr abs_(Expr a) {
    Type t = a.type();
    return intrin(t.is_int() ? t.with_code(Type::UInt) : t, Call::abs, {a});
}
/// A read of input buffer `name` of element type t (a data-dependent value).
inline Expr image(const std::string &name, Type t, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::Image);
}

/// The integer value of a constant interval end; false for anything else.
inline bool end_value(const Expr &e, int64_t *v) {
    if (const int64_t *i = as_const_int(e)) {
        *v = *i;
        return true;
    }
    if (const uint64_t *u = as_const_uint(e)) {
        *v = (int64_t)*u;
        return true;
    }
    return false;
}

/// Whether i is exactly the constant interval [lo, hi].
inline bool is_interval(const Interval &i, int64_t lo, int64_t hi) {
    int64_t a, b;
    return end_value(i.min, &a) && end_value(i.max, &b) && a == lo && b == hi;
}

/// Stands in for the Function of a Func in Call::Halide nodes (only its presence is checked).
inline const IntrusivePtr<RefCounted> &dummy_func() {
    static const IntrusivePtr<RefCounted> f(new RefCounted);
    return f;
}

/// A call to Func `name`.
inline Expr call(const std::string &name, const std::vector<Expr> &args, Type t = Int(32)) {
    return Call::make(t, name, args, Call::Halide, dummy_func());
}

/// A serial loop.
inline Stmt loop(const std::string &name, Expr min, Expr extent, Stmt body) {
    return For::make(name, min, extent, ForType::Serial, DeviceAPI::None, body);
}

/// A single-valued Provide to Func `name`.
inline Stmt provide(const std::string &name, Expr value, const std::vector<Expr> &args) {
    return Provide::make(name, {value}, args, const_true());
}

} // namespace analysis_test
} // namespace loom

#endif
