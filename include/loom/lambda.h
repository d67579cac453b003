#ifndef LOOM_LAMBDA_H
#define LOOM_LAMBDA_H

/// \file lambda (an anonymous Func from an expression) and evaluate (compute a scalar Expr or
/// Tuple now, through the JIT), as in Halide.

#include <loom/buffer.h>
#include <loom/error.h>
#include <loom/expr.h>
#include <loom/func.h>
#include <loom/realization.h>
#include <loom/tuple.h>
#include <loom/var.h>

#include <string>
#include <vector>

namespace loom {

namespace internal {

/// A fresh Func name "lambda_<n>" (lambda.cpp).
std::string lambda_name();
/// Throws a CompileError unless `e` has type `t` (evaluate<T> of an Expr of another type).
void check_evaluate_type(const Expr &e, Type t, const char *what);

/// Checks the types of a Tuple evaluated into pointers, one element at a time.
inline void check_tuple_types(const Tuple &, size_t) {}
template <typename First, typename... Rest>
void check_tuple_types(const Tuple &t, size_t i, First *, Rest *...rest) {
    check_evaluate_type(t[i], type_of<First>(), "element of the Tuple passed to evaluate");
    check_tuple_types(t, i + 1, rest...);
}

/// Copies the zero-dimensional results of a Realization into the pointers.
inline void assign_results(Realization &, size_t) {}
template <typename First, typename... Rest>
void assign_results(Realization &r, size_t i, First *first, Rest *...rest) {
    Buffer<First> b = r[i];
    *first = b();
    assign_results(r, i + 1, rest...);
}

} // namespace internal

/// A Func f(_) = e: its dimensions are the implicit vars (_0, _1, ...) that e uses; with none,
/// a zero-dimensional Func.
inline Func lambda(const Expr &e) {
    Func f(internal::lambda_name());
    f(_) = e;
    return f;
}

/// A Func f(x) = e.
inline Func lambda(const Var &x, const Expr &e) {
    Func f(internal::lambda_name());
    f(x) = e;
    return f;
}

/// A Func f(x, y) = e.
inline Func lambda(const Var &x, const Var &y, const Expr &e) {
    Func f(internal::lambda_name());
    f(x, y) = e;
    return f;
}

/// A Func f(x, y, z) = e.
inline Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e) {
    Func f(internal::lambda_name());
    f(x, y, z) = e;
    return f;
}

/// A Func f(x, y, z, w) = e.
inline Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e) {
    Func f(internal::lambda_name());
    f(x, y, z, w) = e;
    return f;
}

/// A Func f(x, y, z, w, v) = e.
inline Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Var &v,
                   const Expr &e) {
    Func f(internal::lambda_name());
    f(x, y, z, w, v) = e;
    return f;
}

namespace internal {
/// As Halide's schedule_scalar: a scalar Func runs in one GPU thread when the JIT target has a
/// GPU, and on Hexagon when it has HVX.
inline void schedule_scalar(Func f) {
    Target t = get_jit_target_from_environment();
    if (t.has_gpu_feature()) f.gpu_single_thread();
    if (t.has_feature(Target::HVX)) f.hexagon();
}

template <typename T>
T evaluate_scalar(const Expr &e, const char *caller, bool may_gpu) {
    check_evaluate_type(e, type_of<T>(), (std::string("expression passed to ") + caller).c_str());
    Func f(lambda_name());
    f() = e;
    if (may_gpu) schedule_scalar(f);
    Buffer<T> b = f.realize();
    return b();
}

template <typename First, typename... Rest>
void evaluate_tuple(const char *caller, bool may_gpu, const Tuple &t, First *first, Rest *...rest) {
    if (t.size() != 1 + sizeof...(Rest)) {
        throw CompileError(std::string(caller) + " was given a Tuple of " +
                           std::to_string(t.size()) + " elements and " +
                           std::to_string(1 + sizeof...(Rest)) + " pointers to store them in");
    }
    check_tuple_types(t, 0, first, rest...);
    Func f(lambda_name());
    f() = t;
    if (may_gpu) schedule_scalar(f);
    Realization r = f.realize();
    assign_results(r, 0, first, rest...);
}
} // namespace internal

/// The value of a scalar Expr (without free variables), computed by JIT-compiling f() = e.
/// T must be e's type exactly (CompileError otherwise): evaluate<float>(x * 0.5f).
template <typename T>
T evaluate(const Expr &e) {
    return internal::evaluate_scalar<T>(e, "evaluate", false);
}

/// Evaluates the Tuple `t` and stores element i in the i-th pointer, whose type must be the
/// element's: evaluate(Tuple(a, b), &x, &y).
template <typename First, typename... Rest>
void evaluate(const Tuple &t, First *first, Rest *...rest) {
    internal::evaluate_tuple("evaluate", false, t, first, rest...);
}

/// evaluate, in one GPU thread when the JIT target has a GPU (Halide's evaluate_may_gpu).
template <typename T>
T evaluate_may_gpu(const Expr &e) {
    return internal::evaluate_scalar<T>(e, "evaluate_may_gpu", true);
}

/// evaluate of a Tuple, in one GPU thread when the JIT target has a GPU.
template <typename First, typename... Rest>
void evaluate_may_gpu(const Tuple &t, First *first, Rest *...rest) {
    internal::evaluate_tuple("evaluate_may_gpu", true, t, first, rest...);
}

} // namespace loom

#endif
