// Pipelines written against Halide's API (include/compat/Halide.h or Halide's own), with
// estimates: tests/correctness/autoschedule.cpp autoschedules them with every scheduler and
// checks the results; for the schedule-source round trip, write_schedules.cpp autoschedules them
// and writes the schedule source, and roundtrip.cpp pastes it after the same algorithms, under
// Loom and under Halide 21 (and, under Loom, checks the loop nest is the autoscheduler's).
#ifndef LOOM_TESTS_AUTOSCHEDULE_PIPELINES_H
#define LOOM_TESTS_AUTOSCHEDULE_PIPELINES_H

#include "Halide.h"

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace autoschedule_pipelines {

using namespace Halide;

/// One algorithm: its outputs, a function binding random inputs for an output of w x h (seeded:
/// two copies bound alike read the same values), and the autoscheduler and parameters the
/// round trip schedules it with.
struct Case {
    std::vector<Func> outputs;
    std::function<void(int w, int h)> bind;
    std::map<std::string, std::string> params;
    std::string scheduler = "Mullapudi2016";
};

template <typename T>
Buffer<T> random_image(int w, int h, int seed, int range) {
    Buffer<T> b(w, h);
    std::mt19937 rng(seed);
    b.for_each_value([&](T &v) { v = (T)(rng() % range); });
    return b;
}

inline Case blur() {
    ImageParam in(UInt(16), 2, "in");
    in.set_estimates({{0, 1536}, {0, 2560}});
    Func c = BoundaryConditions::repeat_edge(in);
    Func bx("blur_x"), by("blur_y");
    Var x("x"), y("y");
    bx(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3;
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
    by.set_estimates({{0, 1536}, {0, 2560}});
    return {
        {by}, [=](int w, int h) mutable { in.set(random_image<uint16_t>(w, h, 1, 65536)); }, {}};
}

inline Case diamond() {
    ImageParam in(Float(32), 2, "in");
    in.set_estimates({{0, 1024}, {0, 1024}});
    Func c = BoundaryConditions::constant_exterior(in, 0.0f);
    Func f("f"), g("g"), h("h"), out("out");
    Var x("x"), y("y");
    f(x, y) = c(x, y) * 2.0f + 1.0f;
    g(x, y) = f(x - 2, y) + f(x, y) + f(x + 2, y);
    h(x, y) = f(x, y - 1) * f(x, y + 1);
    out(x, y) = sqrt(g(x, y) * g(x, y) + h(x, y));
    out.set_estimates({{0, 1024}, {0, 1024}});
    return {{out},
            [=](int w, int h) mutable { in.set(random_image<float>(w, h, 2, 256)); },
            {{"parallelism", "4"}, {"last_level_cache_size", "262144"}}};
}

/// A matrix product: an update over an RDom whose extent is a Param (estimated); the output
/// itself, or (`relu`) read only by a pointwise consumer, which Loom computes per register
/// block of the consumer (block_reductions).
inline Case matmul_case(bool relu) {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Param<int> n("n");
    n.set_estimate(512);
    A.set_estimates({{0, 512}, {0, 512}});
    B.set_estimates({{0, 512}, {0, 512}});
    Func prod("prod"), out("out");
    Var x("x"), y("y");
    RDom k(0, n, "k");
    prod(x, y) = 0.0f;
    prod(x, y) += A(k, y) * B(x, k);
    if (relu) out(x, y) = max(prod(x, y), 0.0f);
    Func output = relu ? out : prod;
    output.set_estimates({{0, 512}, {0, 512}});
    return {{output},
            [=](int w, int h) mutable {
                A.set(random_image<float>(w, w, 3, 10));
                B.set(random_image<float>(w, w, 4, 10));
                n.set(w);
            },
            {}};
}
inline Case matmul() { return matmul_case(false); }
inline Case matmul_relu() { return matmul_case(true); }

/// A 5x5 convolution over a zero-padded input with a bias, scaled pointwise: a reduction over
/// a 2-D RDom blocked in registers, its taps read at x + r.x.
inline Case conv_scaled() {
    ImageParam in(Float(32), 2, "in"), w(Float(32), 2, "w");
    in.set_estimates({{0, 1024}, {0, 1024}});
    w.set_estimates({{0, 5}, {0, 5}});
    Func c = BoundaryConditions::constant_exterior(in, 0.0f);
    Func conv("conv"), out("out");
    Var x("x"), y("y");
    RDom r(0, 5, 0, 5, "r");
    conv(x, y) = 0.5f;
    conv(x, y) += w(r.x, r.y) * c(x + r.x - 2, y + r.y - 2);
    out(x, y) = conv(x, y) * 0.25f;
    out.set_estimates({{0, 1024}, {0, 1024}});
    return {{out},
            [=](int width, int height) mutable {
                in.set(random_image<float>(width, height, 7, 16));
                w.set(random_image<float>(5, 5, 8, 4));
            },
            {}};
}

inline Case histogram_equalize() {
    ImageParam in(UInt(8), 2, "in");
    in.set_estimates({{0, 1536}, {0, 2560}});
    Func hist("hist"), cdf("cdf"), out("out");
    Var x("x"), y("y"), i("i");
    RDom r(0, in.width(), 0, in.height(), "r");
    hist(i) = 0;
    hist(in(r.x, r.y)) += 1;
    RDom s(1, 255, "s");
    cdf(i) = hist(i);
    cdf(s) = cdf(s - 1) + hist(s);
    out(x, y) = cast<uint8_t>(cdf(in(x, y)) * 255 / (in.width() * in.height()));
    out.set_estimates({{0, 1536}, {0, 2560}});
    return {{out}, [=](int w, int h) mutable { in.set(random_image<uint8_t>(w, h, 5, 256)); }, {}};
}

inline Case pyramid() {
    ImageParam in(Float(32), 2, "in");
    in.set_estimates({{0, 1024}, {0, 1024}});
    Func c = BoundaryConditions::repeat_edge(in);
    Var x("x"), y("y");
    Func d1("d1"), d2("d2"), p("p"), u1("u1"), out("out");
    d1(x, y) =
        (c(2 * x, 2 * y) + c(2 * x + 1, 2 * y) + c(2 * x, 2 * y + 1) + c(2 * x + 1, 2 * y + 1)) / 4;
    d2(x, y) = (d1(2 * x, 2 * y) + d1(2 * x + 1, 2 * y + 1)) / 2;
    p(x, y) = d2(x, y) * 0.5f + d2(x + 1, y) * 0.25f + d2(x - 1, y) * 0.25f;
    u1(x, y) = p(x / 2, y / 2) + (d1(x, y) - d2(x / 2, y / 2));
    out(x, y) = u1(x / 2, y / 2) + (c(x, y) - d1(x / 2, y / 2));
    out.set_estimates({{0, 1024}, {0, 1024}});
    return {{out}, [=](int w, int h) mutable { in.set(random_image<float>(w, h, 6, 256)); }, {}};
}

/// The gradient of loss = (sum of a 3x3 box blur of repeat_edge(in))^2 with respect to in, from
/// propagate_adjoints (Halide's names for the adjoint Funcs, so the source applies under both
/// libraries), scheduled by "Li2018": the sum becomes an rfactor'd parallel reduction.
inline Case gradient_blur() {
    ImageParam in(Float(32), 2, "in");
    in.set_estimates({{0, 1024}, {0, 768}});
    Func c = BoundaryConditions::repeat_edge(in);
    Func bx("grad_blur_x"), by("grad_blur_y"), total("total"), loss("loss");
    Var x("x"), y("y");
    bx(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3;
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
    RDom r(0, in.width(), 0, in.height(), "r");
    total() = 0.0f;
    total() += by(r.x, r.y) / 1024;
    loss() = total() * total();
    Derivative d = propagate_adjoints(loss);
    Func d_in = d(in.name());
    d_in.set_estimates({{0, 1024}, {0, 768}});
    return {{d_in},
            [=](int w, int h) mutable { in.set(random_image<float>(w, h, 7, 16)); },
            {},
            "Li2018"};
}

/// The cases by name, in the order the files are written.
inline std::vector<std::pair<std::string, std::function<Case()>>> all_cases() {
    return {{"blur", blur},
            {"diamond", diamond},
            {"matmul", matmul},
            {"histogram_equalize", histogram_equalize},
            {"pyramid", pyramid},
            {"matmul_relu", matmul_relu},
            {"conv_scaled", conv_scaled},
            {"gradient_blur", gradient_blur}};
}

} // namespace autoschedule_pipelines

#endif
