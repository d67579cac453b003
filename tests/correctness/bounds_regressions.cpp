// Bounds of long pipelines stay small and cheap (issue 5's JIT-time gaps):
// - a stage read through clamps by a root consumer has a region defined through the consumer's
//   bound lets several times over (min and max of each clamped tap); substituting the chain of
//   lets into a box (add_image_checks' boxes_touched, bound_small_allocations' extents) grew
//   the expressions exponentially with the number of root stages, where Halide names large
//   bounds instead (snake without bound() took 64 s to JIT at 3 iterations);
// - the box of one Func in everything after its production walks only the statements that
//   read it (bounds inference asks this once per Func: a chain of root stages was quadratic).
// Results are integers checked exactly against naive loops; the structural checks count the
// nodes of the boxes (a size, never a time).
#include <loom/loom.h>

#include "analysis/bounds.h"
#include "common/lowered_text.h"
#include "ir/ir.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::internal;

namespace {

Expr ivar(const std::string &n) { return Variable::make(Int(32), n); }

/// Stands in for the Function of a Func in Call::Halide nodes (only its presence is checked).
const IntrusivePtr<RefCounted> &dummy_func() {
    static const IntrusivePtr<RefCounted> f(new RefCounted);
    return f;
}

Expr fcall(const std::string &name, Expr arg) {
    return Call::make(Int(32), name, {std::move(arg)}, Call::Halide, dummy_func());
}

int node_count(const Expr &e) {
    int n = 0;
    visit_exprs(e, [&](const Expr &) {
        n++;
        return true;
    });
    return n;
}

int clampi(int v, int lo, int hi) { return std::min(std::max(v, lo), hi); }

/// The value of a closed expression (free variables substituted), as a constant.
int64_t evaluate(const Expr &e, const std::map<std::string, Expr> &values) {
    Expr c = simplify(substitute(values, e));
    const IntImm *i = c.as<IntImm>();
    EXPECT_NE(i, nullptr) << "not a constant: " << c;
    return i ? i->value : 0;
}

/// A chain of `levels` lets, each defined through the previous one twice (as the region of a
/// stage read through clamps is defined through its consumer's bounds), then a loop reading f
/// over [l_last, l_last + 9].
Stmt let_chain(int levels) {
    Expr w = ivar("w");
    Stmt body = For::make("x", ivar("l" + std::to_string(levels)), 10, ForType::Serial,
                          DeviceAPI::None, Evaluate::make(fcall("f", ivar("x"))));
    for (int k = levels; k >= 1; k--) {
        Expr prev = ivar("l" + std::to_string(k - 1));
        Expr value = Max::make(Min::make(prev - 1, w), 0) + Min::make(Max::make(prev + 1, 0), w);
        body = LetStmt::make("l" + std::to_string(k), value, body);
    }
    return body;
}

/// The naive value of let_chain's last let.
int chain_value(int levels, int l0, int w) {
    int l = l0;
    for (int k = 1; k <= levels; k++) l = clampi(l - 1, 0, w) + clampi(l + 1, 0, w);
    return l;
}

} // namespace

TEST(BoundsRegressions, BoxThroughALetChainStaysSmall) {
    // 2^14 copies of l0 if every let were substituted into the box.
    const int levels = 14;
    Stmt s = let_chain(levels);
    Box b = box_required(s, "f");
    ASSERT_EQ(b.size(), 1u);
    ASSERT_TRUE(b[0].is_bounded());
    EXPECT_LT(node_count(b[0].min), 2000);
    EXPECT_LT(node_count(b[0].max), 2000);
    for (int l0 : {-3, 0, 2, 7}) {
        for (int w : {1, 5, 40}) {
            std::map<std::string, Expr> v{{"l0", Expr(l0)}, {"w", Expr(w)}};
            int last = chain_value(levels, l0, w);
            EXPECT_EQ(evaluate(b[0].min, v), last) << "l0 " << l0 << " w " << w;
            EXPECT_EQ(evaluate(b[0].max, v), last + 9) << "l0 " << l0 << " w " << w;
        }
    }
}

TEST(BoundsRegressions, BoxOfOneFuncSkipsOtherStatements) {
    // f is read in the second loop only, inside a let the first loop also sees; g's loop (and
    // its let) must not change f's box, and f's enclosing let must still bound it.
    Expr n = ivar("n");
    Stmt g_loop = LetStmt::make("t", n * 3,
                                For::make("y", ivar("t"), 5, ForType::Serial, DeviceAPI::None,
                                          Evaluate::make(fcall("g", ivar("y") + 100))));
    Stmt f_loop = LetStmt::make("u", n + 2,
                                For::make("x", ivar("u"), 4, ForType::Serial, DeviceAPI::None,
                                          Block::make(Evaluate::make(fcall("f", ivar("x") - 1)),
                                                      Evaluate::make(fcall("f", ivar("x") * 2)))));
    Stmt s = Block::make(g_loop, f_loop);
    Box f = box_required(s, "f");
    ASSERT_EQ(f.size(), 1u);
    for (int nv : {-5, 0, 9}) {
        std::map<std::string, Expr> v{{"n", Expr(nv)}};
        // x in [n + 2, n + 5]: f reads [min(x - 1, 2x), max(x - 1, 2x)] over it.
        int lo = std::min(nv + 1, 2 * (nv + 2)), hi = std::max(nv + 4, 2 * (nv + 5));
        EXPECT_EQ(evaluate(f[0].min, v), lo) << "n " << nv;
        EXPECT_EQ(evaluate(f[0].max, v), hi) << "n " << nv;
    }
    Box g = box_required(s, "g");
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(evaluate(g[0].min, {{"n", Expr(4)}}), 112);
    EXPECT_EQ(evaluate(g[0].max, {{"n", Expr(4)}}), 116);
    // Provides are walked the same way.
    Stmt p = Block::make(g_loop,
                         For::make("z", 0, 3, ForType::Serial, DeviceAPI::None,
                                   Provide::make("h", {Expr(1)}, {ivar("z") + n}, const_true())));
    Box h = box_provided(p, "h");
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(evaluate(h[0].min, {{"n", Expr(6)}}), 6);
    EXPECT_EQ(evaluate(h[0].max, {{"n", Expr(6)}}), 8);
}

namespace {

/// A pyramid of `levels` root stages, each a [1 2 1] x [1 2 1] downsampling of the previous
/// one read through clamps to its size (no bound()), and an output that sums every level
/// read back up through clamps: the shape of interpolate's and pyramid_blend's pyramids.
struct ClampedPyramid {
    ImageParam input{Int(32), 2, "input"};
    std::vector<Func> level;
    Func out{"out"};
    Var x{"x"}, y{"y"};
    int levels;

    explicit ClampedPyramid(int levels) : levels(levels) {
        Func in_clamped("in_clamped");
        in_clamped(x, y) = input(clamp(x, 0, input.width() - 1), clamp(y, 0, input.height() - 1));
        level.push_back(in_clamped);
        for (int k = 1; k <= levels; k++) {
            Func prev = level.back();
            Expr pw = input.width() >> (k - 1), ph = input.height() >> (k - 1);
            auto p = [&](Expr xx, Expr yy) {
                return prev(clamp(xx, 0, pw - 1), clamp(yy, 0, ph - 1));
            };
            Func down("down_" + std::to_string(k));
            Expr sum = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    sum = sum + p(2 * x + dx, 2 * y + dy) * ((2 - dx * dx) * (2 - dy * dy));
            down(x, y) = sum / 16;
            level.push_back(down);
        }
        Expr total = 0;
        for (int k = 0; k <= levels; k++) {
            Expr lw = input.width() >> k, lh = input.height() >> k;
            total = total + level[k](clamp(x >> k, 0, lw - 1), clamp(y >> k, 0, lh - 1));
        }
        out(x, y) = total;
        Var yo("yo"), yi("yi");
        for (int k = 0; k <= levels; k++) {
            level[k].compute_root().split(y, yo, yi, 4).parallel(yo).vectorize(x, 8);
        }
        out.vectorize(x, 8);
    }

    static int input_value(int xx, int yy) { return (xx * 37 + yy * 101) % 1000; }

    /// Naive loops: each level over its own size only.
    Buffer<int32_t> reference(int w, int h) const {
        std::vector<std::vector<int>> lv;
        std::vector<int> lw, lh;
        std::vector<int> l0(w * h);
        for (int yy = 0; yy < h; yy++)
            for (int xx = 0; xx < w; xx++) l0[yy * w + xx] = input_value(xx, yy);
        lv.push_back(l0);
        lw.push_back(w);
        lh.push_back(h);
        for (int k = 1; k <= levels; k++) {
            int pw = lw[k - 1], ph = lh[k - 1], cw = w >> k, ch = h >> k;
            std::vector<int> cur(std::max(cw, 1) * std::max(ch, 1));
            for (int yy = 0; yy < ch; yy++)
                for (int xx = 0; xx < cw; xx++) {
                    int sum = 0;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            sum += lv[k - 1][clampi(2 * yy + dy, 0, ph - 1) * pw +
                                             clampi(2 * xx + dx, 0, pw - 1)] *
                                   ((2 - dx * dx) * (2 - dy * dy));
                    // Integer division rounding down, as Halide's.
                    cur[yy * cw + xx] = sum >= 0 ? sum / 16 : -((-sum + 15) / 16);
                }
            lv.push_back(cur);
            lw.push_back(cw);
            lh.push_back(ch);
        }
        Buffer<int32_t> r(w, h);
        for (int yy = 0; yy < h; yy++)
            for (int xx = 0; xx < w; xx++) {
                int total = 0;
                for (int k = 0; k <= levels; k++)
                    total += lv[k][clampi(yy >> k, 0, lh[k] - 1) * lw[k] +
                                   clampi(xx >> k, 0, lw[k] - 1)];
                r(xx, yy) = total;
            }
        return r;
    }
};

/// The number of characters of the longest line of s.
size_t longest_line(const std::string &s) {
    std::istringstream in(s);
    std::string line;
    size_t longest = 0;
    while (std::getline(in, line)) longest = std::max(longest, line.size());
    return longest;
}

} // namespace

TEST(BoundsRegressions, ClampedPyramidWithoutBoundMatchesReference) {
    ClampedPyramid p(5);
    const int w = 96, h = 80;
    Buffer<int32_t> in(w, h);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) in(xx, yy) = ClampedPyramid::input_value(xx, yy);
    p.input.set(in);
    Buffer<int32_t> result = p.out.realize({w, h});
    Buffer<int32_t> expected = p.reference(w, h);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++)
            ASSERT_EQ(result(xx, yy), expected(xx, yy)) << "at " << xx << ", " << yy;
    // A smaller output reads less of every level, through the same clamps.
    Buffer<int32_t> part(17, 9);
    part.set_min(30, 41);
    p.out.realize(part);
    for (int yy = 41; yy < 50; yy++)
        for (int xx = 30; xx < 47; xx++)
            ASSERT_EQ(part(xx, yy), expected(xx, yy)) << "at " << xx << ", " << yy;
}

TEST(BoundsRegressions, ClampedPyramidRegionsStaySmall) {
    // Each level's region is defined through the next level's bound lets four times (min and
    // max of two clamped taps); the lowered statement (bounds lets, image checks, allocation
    // sizes) grows with the number of levels, not exponentially.
    ClampedPyramid p(7);
    std::string text = lowered(p.out, {p.input});
    EXPECT_LT(longest_line(text), 60000u);
    EXPECT_LT(text.size(), 600000u);
}

namespace {

/// interpolate's pyramids in small, without bound(): each level a [1 2 1] x [1 2 1] reduction
/// of the one below read through constant_exterior over its support [0, n_l) x [0, m_l)
/// (n_l = n_{l-1} / 2 + 1), each upward level the level plus the mean of two samples of the
/// one above at floor((x - 1) / 2) and floor((x + 1) / 2), and the output's horizontal
/// upsampling per strip of 8 rows. Levels 1 and 2 in parallel strips / rows, vectorized.
struct BorderedPyramid {
    ImageParam input{Float(32), 2, "input"};
    std::vector<Func> down, bordered, up;
    std::vector<Expr> n, m;
    Func up_x0{"up_x0"}, out{"out"};
    Var x{"x"}, y{"y"};
    int levels;

    explicit BorderedPyramid(int levels) : levels(levels) {
        bordered.push_back(BoundaryConditions::constant_exterior(input, 0.0f));
        down.push_back(Func("unused"));
        n.push_back(input.width());
        m.push_back(input.height());
        for (int l = 1; l <= levels; l++) {
            n.push_back(n[l - 1] / 2 + 1);
            m.push_back(m[l - 1] / 2 + 1);
            Func prev = bordered[l - 1];
            Func d("down_" + std::to_string(l));
            Expr sum = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    sum = sum + prev(2 * x + dx, 2 * y + dy) * (float)tap(dx, dy);
            d(x, y) = sum * (1.0f / 16);
            down.push_back(d);
            bordered.push_back(
                BoundaryConditions::constant_exterior(d, 0.0f, {{0, n[l]}, {0, m[l]}}));
        }
        up.resize(levels + 1);
        up[levels] = Func("up_" + std::to_string(levels));
        up[levels](x, y) = bordered[levels](x, y);
        for (int l = levels - 1; l >= 1; l--) {
            up[l] = Func("up_" + std::to_string(l));
            up[l](x, y) = bordered[l](x, y) + 0.5f * (up[l + 1]((x - 1) / 2, (y - 1) / 2) +
                                                      up[l + 1]((x + 1) / 2, (y + 1) / 2));
        }
        up_x0(x, y) = up[1]((x - 1) / 2, y) + up[1]((x + 1) / 2, y);
        out(x, y) = bordered[0](x, y) + 0.25f * (up_x0(x, (y - 1) / 2) + up_x0(x, (y + 1) / 2));

        Var yo("yo"), yi("yi");
        for (int l = 1; l <= levels; l++) {
            down[l].compute_root();
            up[l].compute_root();
            if (l <= 2) {
                down[l].split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
                up[l].parallel(y).vectorize(x, 8, TailStrategy::GuardWithIf);
            }
        }
        out.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
        up_x0.compute_at(out, yo).vectorize(x, 8);
    }

    static int tap(int dx, int dy) { return (2 - dx * dx) * (2 - dy * dy); }
    static float input_value(int xx, int yy) { return (float)((xx * 37 + yy * 101) % 1000); }
};

/// BorderedPyramid by naive recursion: level l is zero outside its support, the upward levels
/// are evaluated wherever they are read (also outside the support, where they are not zero).
struct BorderedPyramidReference {
    int levels;
    std::vector<int> n, m;
    std::vector<std::vector<float>> down;

    BorderedPyramidReference(int w, int h, int levels) : levels(levels) {
        n.push_back(w);
        m.push_back(h);
        std::vector<float> l0((size_t)w * h);
        for (int yy = 0; yy < h; yy++)
            for (int xx = 0; xx < w; xx++)
                l0[(size_t)yy * w + xx] = BorderedPyramid::input_value(xx, yy);
        down.push_back(l0);
        for (int l = 1; l <= levels; l++) {
            n.push_back(n[l - 1] / 2 + 1);
            m.push_back(m[l - 1] / 2 + 1);
            std::vector<float> cur((size_t)n[l] * m[l]);
            for (int yy = 0; yy < m[l]; yy++)
                for (int xx = 0; xx < n[l]; xx++) {
                    float sum = 0.0f;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            sum += d(l - 1, 2 * xx + dx, 2 * yy + dy) *
                                   (float)BorderedPyramid::tap(dx, dy);
                    cur[(size_t)yy * n[l] + xx] = sum * (1.0f / 16);
                }
            down.push_back(cur);
        }
    }
    static int floor_div2(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }
    float d(int l, int xx, int yy) const {
        if (xx < 0 || yy < 0 || xx >= n[l] || yy >= m[l]) return 0.0f;
        return down[l][(size_t)yy * n[l] + xx];
    }
    float u(int l, int xx, int yy) const {
        if (l == levels) return d(l, xx, yy);
        return d(l, xx, yy) + 0.5f * (u(l + 1, floor_div2(xx - 1), floor_div2(yy - 1)) +
                                      u(l + 1, floor_div2(xx + 1), floor_div2(yy + 1)));
    }
    float out(int xx, int yy) const {
        auto up_x0 = [&](int r) {
            return u(1, floor_div2(xx - 1), r) + u(1, floor_div2(xx + 1), r);
        };
        return d(0, xx, yy) + 0.25f * (up_x0(floor_div2(yy - 1)) + up_x0(floor_div2(yy + 1)));
    }
};

} // namespace

TEST(BoundsRegressions, BorderedPyramidWithoutBoundAllocatesItsSupports) {
    // interpolate without bound() on its levels: every root level is realized over exactly what
    // is read of it (a level's support through constant_exterior's clamp, an upward level
    // its support plus one sample before it), and the strip-local horizontal upsampling over
    // its strip's rows; Halide 21 allocates the same bytes (checked with this pipeline).
    // Without boxes_touched's bound of a strip loop's last iteration through its min's let
    // (c0adc24), up_1 to up_4 were allocated 1.9 / 1.9 / 1.8 / 1.7 times as large.
    const int w = 101, h = 77, levels = 4;
    BorderedPyramid p(levels);
    Buffer<float> in(w, h);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) in(xx, yy) = BorderedPyramid::input_value(xx, yy);
    p.input.set(in);
    static std::mutex mutex;
    static std::map<size_t, int> sizes; // bytes -> number of allocations of that size
    p.out.jit_handlers().custom_malloc = [](JITUserContext *, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex);
        sizes[bytes]++;
        return std::malloc(bytes);
    };
    p.out.jit_handlers().custom_free = [](JITUserContext *, void *ptr) { std::free(ptr); };
    Buffer<float> result = p.out.realize({w, h});

    // Supports: 101 x 77, 51 x 39, 26 x 20, 14 x 11, 8 x 6.
    std::map<size_t, int> expected;
    const int n[] = {101, 51, 26, 14, 8}, m[] = {77, 39, 20, 11, 6};
    for (int l = 1; l <= levels; l++) {
        expected[(size_t)n[l] * m[l] * sizeof(float)]++;             // down_l
        expected[(size_t)(n[l] + 1) * (m[l] + 1) * sizeof(float)]++; // up_l over [-1, n_l)
    }
    // up_x0 per strip of 8 output rows from b: rows [floor((b - 1) / 2), (b + 8) / 2] of up_1,
    // 6 of them; the last strip is shifted inwards to b = 69, rows [34, 38].
    expected[(size_t)w * 6 * sizeof(float)] += 9;
    expected[(size_t)w * 5 * sizeof(float)] += 1;
    EXPECT_EQ(sizes, expected);

    BorderedPyramidReference ref(w, h, levels);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            float e = ref.out(xx, yy);
            ASSERT_NEAR(result(xx, yy), e, 1e-4f * std::max(1.0f, std::fabs(e)))
                << "at " << xx << ", " << yy;
        }
}

// An update's pure variable split with GuardWithIf over a region whose end is an input's extent
// (a reduction over in.height() factored by rfactor, or read whole by a consumer): the guard
// reads u + 1 <= in.extent.1 once the loop's max is substituted, and bounds inference must
// narrow the input's rows by it instead of requiring the rounded-up loop (Loom required rows up
// to 143 of a 131-row input; Halide 21 runs both).
TEST(BoundsRegressions, GuardWithIfSplitOfAnUpdateBoundedByAnInputExtent) {
    ImageParam in(UInt(8), 2, "in");
    Buffer<uint8_t> b(75, 131);
    b.for_each_element([&](int x, int y) { b(x, y) = (uint8_t)((x * 7 + y * 13) & 0xff); });
    in.set(b);
    std::vector<int> expected(75, 0);
    for (int y = 0; y < 131; y++)
        for (int x = 0; x < 75; x++) expected[x] += b(x, y);

    Var i("i"), u("u"), uo("uo"), ui("ui");
    {
        RDom r(0, in.height());
        Func h("h");
        h(i) = 0;
        h(i) += cast<int>(in(i, r));
        Func part = h.update().rfactor(r, u);
        part.compute_root();
        part.update().split(u, uo, ui, 16, TailStrategy::GuardWithIf);
        Buffer<int> out = h.realize({75});
        for (int x = 0; x < 75; x++) ASSERT_EQ(out(x), expected[x]) << "rfactor, at " << x;
    }
    {
        RDom r(0, in.height());
        Func g("g"), h("h2");
        g(i, u) = 0;
        g(i, u) += cast<int>(in(i, u));
        g.compute_root();
        g.update().split(u, uo, ui, 16, TailStrategy::GuardWithIf);
        h(i) = 0;
        h(i) += g(i, r);
        Buffer<int> out = h.realize({75});
        for (int x = 0; x < 75; x++) ASSERT_EQ(out(x), expected[x]) << "plain, at " << x;
    }
}

TEST(BoundsRegressions, SelectLoadsWidenTheBoxNotTheComputedRegion) {
    // A Select's condition narrows what its branch must compute (box_required), but both sides
    // are evaluated and a vector select loads every lane: box_loaded, which sizes storage and
    // input checks, is the un-narrowed box. (The pipelines that read past a Func's storage and
    // an input buffer before are in tests/compat/halide_bounds.cpp, against Halide 21 too.)
    const Expr read = Select::make(ivar("i") < 5, fcall("h", ivar("i") * 10), Expr(0));
    Scope scope;
    scope["i"] = Interval(Expr(0), Expr(63));
    const Stmt s = Evaluate::make(read);
    const Box required = box_required(s, "h", scope), loaded = box_loaded(s, "h", scope);
    ASSERT_EQ(required.size(), 1u);
    ASSERT_EQ(loaded.size(), 1u);
    EXPECT_TRUE(is_const(simplify(required[0].max), 40)) << required[0].max;
    EXPECT_TRUE(is_const(simplify(loaded[0].max), 630)) << loaded[0].max;
}
