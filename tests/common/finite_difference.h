// Gradient checks for the autodiff tests: the gradient a derivative pipeline computes, compared
// with central finite differences of the forward pipeline evaluated in double precision.
#ifndef LOOM_TESTS_COMMON_FINITE_DIFFERENCE_H
#define LOOM_TESTS_COMMON_FINITE_DIFFERENCE_H

#include <loom/loom.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace loom_test {

/// A Buffer of the given shape (mins 0) with values uniform in [lo, hi), the same for a seed.
template <typename T>
loom::Buffer<T> random_buffer(const std::vector<int> &sizes, uint32_t seed, double lo = -1.0,
                              double hi = 1.0) {
    loom::Buffer<T> b(sizes);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    b.for_each_value([&](T &v) { v = (T)dist(rng); });
    return b;
}

/// loss() = the sum over [0, sizes) of f(x...) * w(x...), with random weights w, so that every
/// point of f gets a different adjoint.
inline loom::Func weighted_loss(const loom::Func &f, const std::vector<int> &sizes,
                                uint32_t seed = 7) {
    using namespace loom;
    Buffer<double> w = random_buffer<double>(sizes, seed);
    Region region;
    for (int s : sizes) region.emplace_back(0, s);
    RDom r(region);
    std::vector<Expr> at;
    for (int i = 0; i < r.dimensions(); i++) at.push_back(r[i]);
    Func loss("loss");
    loss() = cast<double>(0);
    loss() += cast<double>(f(at)) * w(at);
    return loss;
}

/// The value of a zero-dimensional double Func. By reference: the compiled pipeline is cached in
/// the Func handle, so realizing a fresh copy each time would compile it again.
inline double scalar_value(loom::Func &f) {
    loom::Buffer<double> b = f.realize();
    return b();
}

/// The positions of `b` to check: all of them, or `samples` chosen at random.
inline std::vector<std::vector<int>> positions_of(const loom::Buffer<double> &b, int samples) {
    std::vector<std::vector<int>> all;
    std::vector<int> pos(b.dimensions());
    std::function<void(int)> walk = [&](int d) {
        if (d < 0) {
            all.push_back(pos);
            return;
        }
        for (int i = 0; i < b.dim(d).extent(); i++) {
            pos[d] = b.dim(d).min() + i;
            walk(d - 1);
        }
    };
    walk(b.dimensions() - 1);
    if (samples >= 0 && samples < (int)all.size()) {
        std::mt19937 rng(11);
        std::shuffle(all.begin(), all.end(), rng);
        all.resize(samples);
    }
    return all;
}

/// Checks that `grad`, realized over the shape of `input`, is the derivative of the scalar
/// `loss` with respect to each element of `input` (or `samples` random ones): central
/// differences with step h, within tol * max(1, |derivative|).
inline void expect_gradient(loom::Func loss, loom::Buffer<double> input, loom::Func grad,
                            double tol = 1e-6, int samples = -1, double h = 1e-5) {
    using namespace loom;
    ASSERT_TRUE(grad.defined()) << "no adjoint for " << input.name();
    std::vector<int> sizes;
    for (int d = 0; d < input.dimensions(); d++) sizes.push_back(input.dim(d).extent());
    Buffer<double> g(sizes);
    std::vector<int> mins;
    for (int d = 0; d < input.dimensions(); d++) mins.push_back(input.dim(d).min());
    g.set_min(mins);
    grad.realize(g);
    int failures = 0;
    for (const std::vector<int> &p : positions_of(input, samples)) {
        double &v = input(p.data());
        double saved = v;
        v = saved + h;
        double up = scalar_value(loss);
        v = saved - h;
        double down = scalar_value(loss);
        v = saved;
        double fd = (up - down) / (2 * h);
        double got = g(p.data());
        if (std::abs(got - fd) > tol * std::max(1.0, std::abs(fd)) && failures++ < 10) {
            std::string at;
            for (int c : p) at += std::to_string(c) + " ";
            ADD_FAILURE() << "d loss / d " << input.name() << "(" << at << ") = " << got
                          << ", finite differences give " << fd;
        }
    }
    EXPECT_EQ(failures, 0);
}

/// The same for a scalar Param<double>, whose adjoint `grad` is zero-dimensional.
inline void expect_param_gradient(loom::Func loss, loom::Param<double> &p, loom::Func grad,
                                  double tol = 1e-6, double h = 1e-5) {
    ASSERT_TRUE(grad.defined()) << "no adjoint for " << p.name();
    double saved = p.get();
    p.set(saved + h);
    double up = scalar_value(loss);
    p.set(saved - h);
    double down = scalar_value(loss);
    p.set(saved);
    double fd = (up - down) / (2 * h);
    loom::Buffer<double> g = grad.realize();
    EXPECT_NEAR(g(), fd, tol * std::max(1.0, std::abs(fd))) << "d loss / d " << p.name();
}

/// A Buffer of the given shape holding `v` (x fastest), converted to T: a double reference's
/// values as a pipeline input.
template <typename T>
loom::Buffer<T> to_buffer(const std::vector<double> &v, const std::vector<int> &sizes) {
    loom::Buffer<T> b(sizes);
    for (size_t e = 0; e < v.size(); e++) b.data()[e] = (T)v[e];
    return b;
}

/// The values of a dense Buffer (x fastest) in double, for comparing with a reference.
template <typename T>
std::vector<double> to_vector(const loom::Buffer<T> &b) {
    return std::vector<double>(b.data(), b.data() + b.number_of_elements());
}

} // namespace loom_test

#endif
