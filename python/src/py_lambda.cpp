// Bindings of <loom/lambda.h>: lambda_func (Halide's Python name for lambda) and evaluate /
// evaluate_may_gpu, which JIT-compile a zero-dimensional Func and return its value as a Python
// number (a tuple of numbers for a tuple of Exprs).
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// The value of a zero-dimensional Buffer as a Python bool, int or float.
nb::object scalar_value(Buffer<void> b) {
    // evaluate_may_gpu may leave the value on a device.
    b.copy_to_host();
    Type t = b.type();
    const void *p = b.data();
    if (t.is_bool()) return nb::cast(*(const bool *)p);
    switch (t.code()) {
    case Type::Int:
        switch (t.bits()) {
        case 8:
            return nb::cast(*(const int8_t *)p);
        case 16:
            return nb::cast(*(const int16_t *)p);
        case 32:
            return nb::cast(*(const int32_t *)p);
        default:
            return nb::cast(*(const int64_t *)p);
        }
    case Type::UInt:
        switch (t.bits()) {
        case 8:
            return nb::cast(*(const uint8_t *)p);
        case 16:
            return nb::cast(*(const uint16_t *)p);
        case 32:
            return nb::cast(*(const uint32_t *)p);
        default:
            return nb::cast(*(const uint64_t *)p);
        }
    case Type::Float:
        switch (t.bits()) {
        case 16:
            return nb::cast((double)*(const float16_t *)p);
        case 32:
            return nb::cast(*(const float *)p);
        default:
            return nb::cast(*(const double *)p);
        }
    case Type::BFloat:
        return nb::cast((double)*(const bfloat16_t *)p);
    default:
        throw nb::type_error(
            ("evaluate cannot return a value of type " + type_to_string(t)).c_str());
    }
}

/// evaluate(expr) and evaluate_may_gpu(expr): f() = expr (a Tuple for a Python tuple or
/// list), realized now.
nb::object evaluate_now(nb::handle expr, bool may_gpu) {
    Func f(internal::lambda_name());
    bool several = is_tuple_like(expr);
    if (several) {
        f() = to_tuple(expr);
    } else {
        f() = to_expr(expr);
    }
    if (may_gpu) internal::schedule_scalar(f);
    Realization r = [&] {
        nb::gil_scoped_release release;
        return f.realize();
    }();
    if (!several) return scalar_value(r[0]);
    nb::list values;
    for (const Buffer<void> &b : r) values.append(scalar_value(b));
    return nb::tuple(values);
}

} // namespace

void define_lambda(nb::module_ &m) {
    m.def(
        "lambda_func",
        [](nb::args args) {
            if (args.size() == 0) {
                throw nb::value_error("lambda_func() needs an expression, after its Vars");
            }
            Expr e = to_expr(args[args.size() - 1]);
            if (args.size() == 1) return lambda(e);
            std::vector<Var> vars;
            for (size_t i = 0; i + 1 < args.size(); i++) vars.push_back(nb::cast<Var>(args[i]));
            Func f(internal::lambda_name());
            f(vars) = e;
            return f;
        },
        "lambda_func(x, y, ..., expr): an anonymous Func f(x, y, ...) = expr; with the "
        "expression alone, its dimensions are the implicit Vars it uses.");
    m.def(
        "evaluate", [](nb::handle expr) { return evaluate_now(expr, false); }, nb::arg("expr"),
        "The value of a scalar Expr without free variables, computed now through the JIT: a "
        "Python number (a tuple of them for a tuple of Exprs).");
    m.def(
        "evaluate_may_gpu", [](nb::handle expr) { return evaluate_now(expr, true); },
        nb::arg("expr"), "evaluate, in one GPU thread when the JIT target has a GPU.");
}

} // namespace python
} // namespace loom
