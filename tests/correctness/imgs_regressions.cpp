// Regressions found by the image apps (apps/nl_means, apps/interpolate, apps/lens_blur,
// apps/snake), each reduced to a few lines.
#include <loom/loom.h>

#include "common/lowered_text.h"
#include "common/ulp_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace loom;

namespace {

/// exp of every element of `in`, vectorized by `lanes`.
Buffer<float> vector_exp(const Buffer<float> &in, int lanes) {
    ImageParam p(Float(32), 1, "p");
    Func f("f");
    Var x("x");
    f(x) = exp(p(x));
    f.vectorize(x, lanes);
    p.set(in);
    return f.realize({in.width()});
}

} // namespace

// nl_means: a vectorized exp was llvm.exp on a vector, which x86 LLVM scalarizes into one expf
// call per lane (38% of the app's time). It is now an inline polynomial; it must stay within a
// few ulp of the correctly rounded e^x over the whole float range, subnormal results included,
// and keep the special values.
TEST(ImgsRegressions, VectorExpIsAccurateEverywhere) {
    std::vector<float> xs;
    for (float x = -110.0f; x <= 95.0f; x += 0.0137f) xs.push_back(x);
    for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 88.72f, 88.73f, -87.33f, -87.34f, -103.0f, -103.97f,
                    -104.5f, 1e-8f, -1e-8f, 0.34657f, -0.34657f, 0.34658f})
        xs.push_back(x);
    const float inf = std::numeric_limits<float>::infinity();
    xs.push_back(inf);
    xs.push_back(-inf);
    xs.push_back(std::numeric_limits<float>::quiet_NaN());
    while (xs.size() % 16) xs.push_back(0.5f);
    Buffer<float> in((int)xs.size());
    for (size_t i = 0; i < xs.size(); i++) in((int)i) = xs[i];
    for (int lanes : {8, 16}) {
        Buffer<float> out = vector_exp(in, lanes);
        int64_t worst = 0;
        for (size_t i = 0; i < xs.size(); i++) {
            float x = xs[i], got = out((int)i);
            float want = (float)std::exp((double)x);
            if (std::isnan(x)) {
                EXPECT_TRUE(std::isnan(got)) << "exp(NaN) = " << got;
                continue;
            }
            if (std::isinf(want) || want == 0.0f) {
                EXPECT_EQ(got, want) << "exp(" << x << ")";
                continue;
            }
            if (want < std::numeric_limits<float>::min()) {
                // Subnormal results: within 2 of the smallest subnormal steps.
                EXPECT_LE(std::fabs(got - want), 2 * std::numeric_limits<float>::denorm_min())
                    << "exp(" << x << ")";
                continue;
            }
            int64_t d = ulp_distance(got, want);
            worst = std::max(worst, d);
            EXPECT_LE(d, 2) << "exp(" << x << ") = " << got << ", want " << want << ", lanes "
                            << lanes;
        }
        EXPECT_LE(worst, 2);
    }
}
