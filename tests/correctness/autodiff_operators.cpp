// The derivative of every operator and math function class, checked against finite differences
// of the same pipeline in double precision; a float32 pipeline against its float64 twin.
#include <loom/loom.h>

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace loom;
using namespace loom_test;

namespace {

Var x("x");

struct Case {
    std::string name;
    std::function<Expr(Expr, Expr)> fn; ///< of two inputs a, b
    double lo, hi;                      ///< the inputs' range
};

void check(const Case &c) {
    SCOPED_TRACE(c.name);
    Buffer<double> a = random_buffer<double>({7}, 41, c.lo, c.hi);
    Buffer<double> b = random_buffer<double>({7}, 42, c.lo, c.hi);
    a.set_name("a");
    b.set_name("b");
    Func f("f");
    f(x) = c.fn(a(x), b(x));
    Func loss = weighted_loss(f, {7});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, a, d(a), 1e-5);
    if (d(b).defined()) expect_gradient(loss, b, d(b), 1e-5);
}

} // namespace

TEST(AutodiffOperators, Arithmetic) {
    std::vector<Case> cases = {
        {"add", [](Expr a, Expr b) { return a + b * 2.0; }, -1, 1},
        {"sub", [](Expr a, Expr b) { return a - b; }, -1, 1},
        {"mul", [](Expr a, Expr b) { return a * b * a; }, -1, 1},
        {"div", [](Expr a, Expr b) { return a / (b + 3.0); }, -1, 1},
        {"neg", [](Expr a, Expr b) { return -a * b; }, -1, 1},
        {"mod", [](Expr a, Expr b) { return a % (b + 3.0); }, 0.1, 1},
        {"min", [](Expr a, Expr b) { return min(a, b) * 3.0; }, -1, 1},
        {"max", [](Expr a, Expr b) { return max(a, b * 2.0); }, -1, 1},
        {"clamp", [](Expr a, Expr b) { return clamp(a * 3.0, Expr(-1.0), b); }, -1, 1},
        {"select", [](Expr a, Expr b) { return select(a > b, a * a, b * 3.0); }, -1, 1},
        {"abs", [](Expr a, Expr b) { return abs(a) * b; }, -1, 1},
        {"lerp", [](Expr a, Expr b) { return lerp(a, b, a * a); }, -1, 1},
        {"cast", [](Expr a, Expr b) { return cast<double>(cast<float>(a)) * 0.0 + a * b; }, -1, 1},
        {"int cast", [](Expr a, Expr b) { return cast<double>(cast<int>(a * 10.0)) + b; }, -1, 1},
        {"rounding",
         [](Expr a, Expr b) { return floor(a * 3.0) + ceil(b) + round(a) + trunc(b) + a; }, -1, 1},
    };
    for (const Case &c : cases) check(c);
}

TEST(AutodiffOperators, MathFunctions) {
    std::vector<Case> cases = {
        {"sqrt", [](Expr a, Expr b) { return sqrt(a) * b; }, 0.5, 2},
        {"exp", [](Expr a, Expr b) { return exp(a * b); }, -1, 1},
        {"log", [](Expr a, Expr b) { return log(a) + b; }, 0.5, 2},
        {"pow", [](Expr a, Expr b) { return pow(a, b); }, 0.5, 2},
        {"sin cos tan", [](Expr a, Expr b) { return sin(a) * cos(b) + tan(a * 0.5); }, -1, 1},
        {"asin acos atan", [](Expr a, Expr b) { return asin(a * 0.9) + acos(b * 0.9) * atan(a); },
         -1, 1},
        {"atan2", [](Expr a, Expr b) { return atan2(a, b + 2.0); }, -1, 1},
        {"hyperbolic", [](Expr a, Expr b) { return sinh(a) * cosh(b) + tanh(a * b); }, -1, 1},
        {"inverse hyperbolic",
         [](Expr a, Expr b) { return asinh(a) + acosh(b + 2.0) + atanh(a * 0.5); }, -1, 1},
        {"hypot erf", [](Expr a, Expr b) { return hypot(a, b) + erf(a); }, 0.2, 1},
        {"likely", [](Expr a, Expr b) { return likely(a) * b; }, -1, 1},
    };
    for (const Case &c : cases) check(c);
}

TEST(AutodiffOperators, FastMathAndFloat32) {
    // A float32 pipeline's gradient matches its float64 twin's (fast_* variants included).
    auto gradient = [](Type t) {
        Buffer<double> a = random_buffer<double>({7}, 43, 0.5, 1.5);
        Func in("in");
        in(x) = cast(t, a(x));
        Func f("f");
        Expr v = in(x);
        if (t == Float(32)) {
            f(x) = fast_exp(v) + fast_log(v) * fast_sin(v) + fast_cos(v) + fast_pow(v, v) +
                   fast_inverse(v) + fast_inverse_sqrt(v);
        } else {
            f(x) = exp(v) + log(v) * sin(v) + cos(v) + pow(v, v) + 1.0 / v + 1.0 / sqrt(v);
        }
        Func loss = weighted_loss(f, {7});
        Derivative d = propagate_adjoints(loss);
        Func g("g");
        g(x) = cast<double>(d(in)(x));
        return Buffer<double>(g.realize({7}));
    };
    Buffer<double> single = gradient(Float(32)), twin = gradient(Float(64));
    for (int i = 0; i < 7; i++) EXPECT_NEAR(single(i), twin(i), 2e-2 * std::abs(twin(i))) << i;
}
