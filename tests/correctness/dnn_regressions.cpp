// Regressions found by the dnn apps (apps/matmul, apps/conv_layer, apps/vgg16): a reduction
// computed per register block, the schedule of a matrix product, each reduced to a few lines.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <string>

using namespace loom;

namespace {

/// out(x, y) = sum over k of a(k, y) * b(x, k), with `prod` (the running sums) computed per
/// 32 x 8 block of out, its update's k loop outside the block's unrolled rows and unrolled
/// vectors of 16: the matrix-product schedule of apps/matmul.
struct BlockedProduct {
    ImageParam a{Float(32), 2, "a"}, b{Float(32), 2, "b"};
    Func prod{"prod"}, out{"out"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};

    BlockedProduct() {
        RDom k(0, a.width(), "k");
        prod(x, y) = 0.0f;
        prod(x, y) += a(k, y) * b(x, k);
        out(x, y) = prod(x, y);
        out.tile(x, y, xo, yo, xi, yi, 32, 8).vectorize(xi, 16);
        prod.compute_at(out, xo).vectorize(x, 16).unroll(x).unroll(y);
        prod.update().reorder(x, y, k).vectorize(x, 16).unroll(x).unroll(y);
    }
};

} // namespace

// The block's extents are constants only through a chain of lets (prod.s0.y.loop_extent =
// prod.s1.required.1.max - prod.s1.required.1.min + 1, both ends lets of the block's origin):
// unroll(y) without a factor was refused as "not of constant extent"; the RoundUp split of the
// update's vectorized x bounded b's region with the ends of the block taken independently (b
// "accessed at 95, beyond the max 63"); the vectorized update stayed scalar (its store index,
// a ramp through the loop's lets, was taken for a scatter that reads itself); and the block was
// addressed through symbolic strides, so it could not live in registers.
TEST(DnnRegressions, MatrixProductPerRegisterBlock) {
    const int m = 16, kk = 19, n = 64;
    BlockedProduct p;
    Buffer<float> a(kk, m), b(n, kk);
    for (int y = 0; y < m; y++)
        for (int k = 0; k < kk; k++) a(k, y) = (float)((k * 7 + y * 3) % 11) - 5.0f;
    for (int k = 0; k < kk; k++)
        for (int x = 0; x < n; x++) b(x, k) = (float)((x * 5 + k * 2) % 13) - 6.0f;
    p.a.set(a);
    p.b.set(b);
    Buffer<float> out = p.out.realize({n, m});
    for (int y = 0; y < m; y++) {
        for (int x = 0; x < n; x++) {
            float e = 0;
            for (int k = 0; k < kk; k++) e += a(k, y) * b(x, k);
            // Small integers: exact in float whatever the rounding.
            ASSERT_EQ(out(x, y), e) << x << ", " << y;
        }
    }
    std::string text = lowered(p.out, {p.a, p.b});
    // The block at constant offsets of a constant-size allocation, vector wide in the update.
    EXPECT_NE(text.find("allocate prod[float32 * 256]"), std::string::npos) << text;
    EXPECT_NE(text.find("prod[ramp(0, 1, 16)] = ((float32x16)prod[ramp(0, 1, 16)] +"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("prod.x.extent_realized"), std::string::npos) << text;
}

// A convolution's sum may visit its reduction domain in any order (apps/conv_layer runs the
// input channel innermost): Halide 21 lets reorder() change the order of the RVars of an update
// f(args) = f(args) op g with op associative and commutative and f read nowhere else, and
// refuses it otherwise. Loom refused both.
TEST(DnnRegressions, ReorderRVarsOfACommutativeReduction) {
    Func g("g");
    Var x("x"), c("c");
    g(c, x) = c * 3 + x;
    RDom r(0, 3, 0, 4, 0, 5, "r");
    Func sum("sum");
    sum(c, x) = 0;
    sum(c, x) += g(r.z, x + r.x + r.y);
    sum.update().reorder(c, x, r.z, r.x, r.y);
    Buffer<int> out = sum.realize({2, 6});
    for (int xx = 0; xx < 6; xx++) {
        for (int cc = 0; cc < 2; cc++) {
            int e = 0;
            for (int rz = 0; rz < 5; rz++)
                for (int ry = 0; ry < 4; ry++)
                    for (int rx = 0; rx < 3; rx++) e += rz * 3 + xx + rx + ry;
            ASSERT_EQ(out(cc, xx), e) << cc << ", " << xx;
        }
    }
    Func biggest("biggest");
    biggest(x) = 0;
    biggest(x) = max(biggest(x), g(r.z, x + r.x + r.y));
    EXPECT_NO_THROW(biggest.update().reorder(r.y, r.x));

    // Not commutative, or reading f elsewhere: the order is part of the meaning.
    Func twice("twice");
    twice(x) = 0;
    twice(x) = twice(x) * 2 + g(r.x, x + r.y);
    EXPECT_THROW(twice.update().reorder(r.y, r.x), CompileError);
    Func minus("minus");
    minus(x) = 0;
    minus(x) = minus(x) - g(r.x, x + r.y);
    EXPECT_THROW(minus.update().reorder(r.y, r.x), CompileError);
    Func scan("scan");
    scan(x) = 0;
    scan(x) = scan(x) + scan(x - 1) + g(r.x, x + r.y);
    EXPECT_THROW(scan.update().reorder(r.y, r.x), CompileError);
}
