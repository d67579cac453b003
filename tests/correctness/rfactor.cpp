// rfactor: an associative update split into an intermediate of partial results (named
// "<f>_intm") and a merge. Each schedule is checked against naive C++ loops: bit for bit for
// integers; float sums within a relative 1e-5 (the partial sums add in another order). The
// loop nests show the intermediate's Var loops (parallel / vectorized) and the merge's RVar.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <regex>
#include <sstream>

using namespace loom;

namespace {

/// What f.print_loop_nest() prints.
std::string loop_nest(Func f) {
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    f.print_loop_nest();
    std::cerr.rdbuf(old);
    // Without the constant bounds print_loop_nest shows (Halide's " in [0, 29]"): the checks
    // are about the loops' kinds and names.
    return std::regex_replace(captured.str(), std::regex(" in \\[[^\\]]*\\]"), "");
}

bool contains(const std::string &s, const std::string &what) {
    return s.find(what) != std::string::npos;
}

Buffer<int32_t> input_2d(int w, int h) {
    Buffer<int32_t> in(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) in(x, y) = (x * 37 + y * 101) % 97 - 40;
    }
    return in;
}

} // namespace

TEST(Rfactor, SumOver2DRDomByRows) {
    Buffer<int32_t> in = input_2d(40, 30);
    Func f("sum2d");
    Var u("u");
    RDom r(0, 40, 0, 30, "r");
    f() = 0;
    f() += in(r.x, r.y);
    Func intm = f.update().rfactor(r.y, u);
    EXPECT_EQ(intm.name(), "sum2d_intm");
    intm.compute_root().update().parallel(u);
    Buffer<int32_t> out = f.realize();
    int64_t ref = 0;
    for (int y = 0; y < 30; y++) {
        for (int x = 0; x < 40; x++) ref += in(x, y);
    }
    EXPECT_EQ(out(), (int32_t)ref);
    std::string nest = loop_nest(f);
    EXPECT_TRUE(contains(nest, "parallel u:")) << nest;
    EXPECT_TRUE(contains(nest, "for r:")) << nest;
}

TEST(Rfactor, TwoUpdatesOfOneFuncGetDistinctIntermediates) {
    // A gradient's scatters are several updates of one Func; factoring each must give Funcs of
    // distinct names (a pipeline refuses two Funcs of one name).
    Buffer<int32_t> in = input_2d(40, 30);
    Func f("two_sums");
    Var u("u");
    RDom r(0, 40, 0, 30, "r"), s(0, 30, 0, 40, "s");
    f() = 0;
    f() += in(r.x, r.y);
    f() += 2 * in(s.y, s.x);
    Func first = f.update(0).rfactor(r.y, u);
    Func second = f.update(1).rfactor(s.x, u);
    EXPECT_EQ(first.name(), "two_sums_intm");
    // Halide 21's names (checked against the wheel).
    EXPECT_EQ(second.name(), "two_sums_intm$1");
    first.compute_root().update().parallel(u);
    second.compute_root().update().parallel(u);
    Buffer<int32_t> out = f.realize();
    int64_t ref = 0;
    for (int y = 0; y < 30; y++) {
        for (int x = 0; x < 40; x++) ref += 3 * in(x, y);
    }
    EXPECT_EQ(out(), (int32_t)ref);
}

TEST(Rfactor, SplitThenFactorInnerVectorized) {
    // Halide's paper schedule: split r, factor the inner part, vectorize the partial sums.
    const int n = 1003;
    Buffer<int32_t> in(n);
    for (int i = 0; i < n; i++) in(i) = (i * 7919) % 1000 - 500;
    Func f("vsum");
    RDom r(0, n, "r");
    f() = 0;
    f() += in(r);
    RVar rxo("rxo"), rxi("rxi");
    Var u("u");
    f.update().split(r, rxo, rxi, 8);
    Func intm = f.update().rfactor(rxi, u);
    intm.compute_root().vectorize(u, 8).update().vectorize(u, 8);
    int64_t ref = 0;
    for (int i = 0; i < n; i++) ref += in(i);
    EXPECT_EQ(((Buffer<int32_t>)f.realize())(), (int32_t)ref);
    std::string nest = loop_nest(f);
    EXPECT_TRUE(contains(nest, "vectorized u.v")) << nest;
}

TEST(Rfactor, SplitThenFactorOuterParallel) {
    const int n = 1000;
    Buffer<int32_t> in(n);
    for (int i = 0; i < n; i++) in(i) = (i * 31) % 17 - 8;
    Func f("psum");
    RDom r(0, n, "r");
    f() = 0;
    f() += in(r);
    RVar rxo("rxo"), rxi("rxi");
    Var u("u");
    f.update().split(r, rxo, rxi, 64);
    Func intm = f.update().rfactor(rxo, u);
    intm.compute_root().update().parallel(u);
    int64_t ref = 0;
    for (int i = 0; i < n; i++) ref += in(i);
    EXPECT_EQ(((Buffer<int32_t>)f.realize())(), (int32_t)ref);
    EXPECT_TRUE(contains(loop_nest(f), "parallel u:")) << loop_nest(f);
}

TEST(Rfactor, ProductMinMaxPerColumn) {
    // Updates with pure Vars: the intermediate keeps x and adds u.
    Buffer<int32_t> in = input_2d(16, 24);
    Var x("x"), u("u");
    RDom r(0, 24, "r");
    Func mn("colmin"), mx("colmax"), pr("colprod");
    mn(x) = 1000;
    mn(x) = min(mn(x), in(x, r));
    mx(x) = -1000;
    mx(x) = max(in(x, r), mx(x));
    pr(x) = 1;
    pr(x) = pr(x) * (in(x, r) % 3 + 2);
    RVar ro("ro"), ri("ri");
    mn.update().split(r, ro, ri, 5);
    mn.update().rfactor(ro, u).compute_root().update().parallel(u);
    mx.update().rfactor(r, u).compute_root().vectorize(u, 8);
    pr.update().split(r, ro, ri, 4);
    pr.update().rfactor({{ri, u}}).compute_root();
    Buffer<int32_t> omn = mn.realize({16}), omx = mx.realize({16}), opr = pr.realize({16});
    for (int i = 0; i < 16; i++) {
        int32_t a = 1000, b = -1000, c = 1;
        for (int j = 0; j < 24; j++) {
            a = std::min(a, in(i, j));
            b = std::max(b, in(i, j));
            // Loom's % is Euclidean and int32 multiplication wraps.
            c = (int32_t)((uint32_t)c * (uint32_t)(((in(i, j) % 3) + 3) % 3 + 2));
        }
        EXPECT_EQ(omn(i), a) << i;
        EXPECT_EQ(omx(i), b) << i;
        EXPECT_EQ(opr(i), c) << i;
    }
}

TEST(Rfactor, FloatSumWithinTolerance) {
    const int n = 5000;
    Buffer<float> in(n);
    for (int i = 0; i < n; i++) in(i) = std::sin(i * 0.37f) * 10.0f;
    Func f("fsum");
    RDom r(0, n, "r");
    f() = 0.0f;
    f() += in(r);
    RVar ro("ro"), ri("ri");
    Var u("u");
    f.update().split(r, ro, ri, 100);
    f.update().rfactor(ro, u).compute_root().update().parallel(u);
    double ref = 0;
    for (int i = 0; i < n; i++) ref += in(i);
    EXPECT_NEAR(((Buffer<float>)f.realize())(), ref, 1e-5 * 5000 * 10);
}

TEST(Rfactor, Argmin) {
    const int n = 777;
    Buffer<int32_t> in(n);
    for (int i = 0; i < n; i++) in(i) = (i * 7919 + 13) % 1009;
    in(500) = -5;
    in(600) = -5; // a tie: the first index wins
    Func f("amin");
    RDom r(0, n, "r");
    f() = Tuple(std::numeric_limits<int32_t>::max(), 0);
    f() = Tuple(min(f()[0], in(r)), select(in(r) < f()[0], r, f()[1]));
    RVar ro("ro"), ri("ri");
    Var u("u");
    f.update().split(r, ro, ri, 32);
    f.update().rfactor(ro, u).compute_root().update().parallel(u);
    Realization res = f.realize();
    Buffer<int32_t> v = res[0], idx = res[1];
    EXPECT_EQ(v(), -5);
    EXPECT_EQ(idx(), 500);
}

TEST(Rfactor, Histogram) {
    // Non-pure update arguments: the intermediate is a histogram per row, merged over rows.
    Buffer<uint8_t> in(64, 48);
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 64; x++) in(x, y) = (uint8_t)((x * x + y * 7) % 16);
    }
    Func hist("hist");
    Var i("i"), u("u");
    RDom r(0, 64, 0, 48, "r");
    hist(i) = 0;
    hist(clamp(cast<int>(in(r.x, r.y)), 0, 15)) += 1;
    hist.update().rfactor(r.y, u).compute_root().update().parallel(u);
    Buffer<int32_t> out = hist.realize({16});
    int ref[16] = {0};
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 64; x++) ref[in(x, y)]++;
    }
    for (int k = 0; k < 16; k++) EXPECT_EQ(out(k), ref[k]) << k;
}

TEST(Rfactor, WherePredicateAndBitwise) {
    Buffer<int32_t> in = input_2d(20, 20);
    Func f("orsum");
    Var u("u");
    RDom r(0, 20, 0, 20, "r");
    r.where(r.x < r.y);
    f() = 0;
    f() = f() | (in(r.x, r.y) & 0xff);
    f.update().rfactor(r.y, u).compute_root().update().parallel(u);
    int32_t ref = 0;
    for (int y = 0; y < 20; y++) {
        for (int x = 0; x < y; x++) ref |= in(x, y) & 0xff;
    }
    EXPECT_EQ(((Buffer<int32_t>)f.realize())(), ref);
}

TEST(Rfactor, NarrowTypeThroughWideningCast) {
    // uint8 sum written with a widening cast: wraps the same way as the serial sum.
    Buffer<uint8_t> in(300);
    for (int i = 0; i < 300; i++) in(i) = (uint8_t)(i * 13);
    Func f("u8sum");
    RDom r(0, 300, "r");
    Var u("u");
    f() = cast<uint8_t>(0);
    f() = cast<uint8_t>(cast<uint16_t>(f()) + in(r));
    RVar ro("ro"), ri("ri");
    f.update().split(r, ro, ri, 10);
    f.update().rfactor(ro, u).compute_root();
    uint8_t ref = 0;
    for (int i = 0; i < 300; i++) ref = (uint8_t)(ref + in(i));
    EXPECT_EQ(((Buffer<uint8_t>)f.realize())(), ref);
}
