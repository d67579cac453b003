// The image-processing idioms that find_intrinsics and the x86 code generator turn into SIMD
// instructions (saturating add/sub, halving and rounding averages, absolute difference,
// multiply-high, rounding multiplies, min/max/blends, pairwise dot products, saturating
// narrowing, division by constants, interleaving stores, aligned loads), vectorized 8, 16, 32
// and 64 lanes wide for the x86 targets the host can run (SSE2 only, AVX2, AVX-512), must equal
// the exact scalar C++ value of the expression: every input pair for 8-bit types, edge values
// and random pairs for 16- and 32-bit ones. The instructions they select are checked in
// tests/unit/codegen/x86_isel_test.cpp.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace loom;

namespace {

using I128 = __int128;

I128 tmin(Type t) { return t.is_uint() ? 0 : -((I128)1 << (t.bits() - 1)); }
I128 tmax(Type t) {
    return t.is_uint() ? ((I128)1 << t.bits()) - 1 : ((I128)1 << (t.bits() - 1)) - 1;
}
I128 clampv(I128 v, Type t) { return v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v; }
/// v reduced modulo 2^bits into t's range (what a cast to t does).
I128 wrap(I128 v, Type t) {
    I128 m = (I128)1 << t.bits();
    v = ((v % m) + m) % m;
    return t.is_int() && v > tmax(t) ? v - m : v;
}
/// floor(v / 2^k).
I128 shr(I128 v, int k) {
    I128 d = (I128)1 << k;
    return v >= 0 ? v / d : -((-v + d - 1) / d);
}
I128 absv(I128 v) { return v < 0 ? -v : v; }

/// The wide type additions and subtractions are exact in (signed).
Type add_wide(Type t) { return Int(t.bits() == 32 ? 64 : 2 * t.bits()); }
/// The wide type products are exact in (unsigned for unsigned t).
Type mul_wide(Type t) { return t.is_uint() ? UInt(2 * t.bits()) : add_wide(t); }
Expr wc(Type w, int64_t v) { return cast(w, Expr(v)); }

/// An expression of two values of type t, and its exact value (before the cast to the
/// Func's type, which wraps).
struct Pattern {
    std::string name;
    std::function<bool(Type)> applies;
    std::function<Expr(Expr, Expr, Type)> expr;
    std::function<I128(I128, I128, Type)> value;
};

bool all_types(Type) { return true; }
bool unsigned_only(Type t) { return t.is_uint(); }

std::vector<Pattern> patterns() {
    std::vector<Pattern> p;
    p.push_back({"saturating_add", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, clamp(cast(w, a) + cast(w, b), wc(w, (int64_t)tmin(t)),
                                          wc(w, (int64_t)tmax(t))));
                 },
                 [](I128 a, I128 b, Type t) { return clampv(a + b, t); }});
    p.push_back({"saturating_add_min", unsigned_only,
                 [](Expr a, Expr b, Type t) {
                     Type w = UInt(2 * t.bits());
                     return cast(t, min(cast(w, a) + cast(w, b), wc(w, (int64_t)tmax(t))));
                 },
                 [](I128 a, I128 b, Type t) { return clampv(a + b, t); }});
    p.push_back({"saturating_sub", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, clamp(cast(w, a) - cast(w, b), wc(w, (int64_t)tmin(t)),
                                          wc(w, (int64_t)tmax(t))));
                 },
                 [](I128 a, I128 b, Type t) { return clampv(a - b, t); }});
    p.push_back({"saturating_sub_max", unsigned_only,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, max(cast(w, a) - cast(w, b), wc(w, 0)));
                 },
                 [](I128 a, I128 b, Type) { return a > b ? a - b : 0; }});
    p.push_back({"rounding_halving_add", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, (cast(w, a) + cast(w, b) + wc(w, 1)) / wc(w, 2));
                 },
                 [](I128 a, I128 b, Type) { return shr(a + b + 1, 1); }});
    p.push_back({"halving_add", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, (cast(w, a) + cast(w, b)) / wc(w, 2));
                 },
                 [](I128 a, I128 b, Type) { return shr(a + b, 1); }});
    p.push_back({"halving_add_shift", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t, (cast(w, a) + cast(w, b)) >> 1);
                 },
                 [](I128 a, I128 b, Type) { return shr(a + b, 1); }});
    p.push_back({"absd", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = add_wide(t);
                     return cast(t.with_code(Type::UInt), abs(cast(w, a) - cast(w, b)));
                 },
                 [](I128 a, I128 b, Type) { return absv(a - b); }});
    p.push_back({"absd_select", all_types,
                 [](Expr a, Expr b, Type) { return select(a < b, b - a, a - b); },
                 [](I128 a, I128 b, Type) { return absv(a - b); }});
    p.push_back({"mul_shift_right", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = mul_wide(t);
                     return cast(t, (cast(w, a) * cast(w, b)) >> t.bits());
                 },
                 [](I128 a, I128 b, Type t) { return shr(a * b, t.bits()); }});
    p.push_back({"mul_shift_right_more", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = mul_wide(t);
                     return cast(t,
                                 (cast(w, a) * cast(w, b)) / wc(w, (int64_t)1 << (t.bits() + 3)));
                 },
                 [](I128 a, I128 b, Type t) { return shr(a * b, t.bits() + 3); }});
    p.push_back({"rounding_mul_shift_right", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = mul_wide(t);
                     return cast(t,
                                 (cast(w, a) * cast(w, b) + wc(w, (int64_t)1 << (t.bits() - 1))) >>
                                     t.bits());
                 },
                 [](I128 a, I128 b, Type t) {
                     return shr(a * b + ((I128)1 << (t.bits() - 1)), t.bits());
                 }});
    // The Q15 (for int16) fixed-point multiply: the one result that does not fit wraps.
    p.push_back({"q15_multiply", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = mul_wide(t);
                     return cast(t,
                                 (cast(w, a) * cast(w, b) + wc(w, (int64_t)1 << (t.bits() - 2))) >>
                                     (t.bits() - 1));
                 },
                 [](I128 a, I128 b, Type t) {
                     return shr(a * b + ((I128)1 << (t.bits() - 2)), t.bits() - 1);
                 }});
    p.push_back({"q15_saturating", all_types,
                 [](Expr a, Expr b, Type t) {
                     Type w = mul_wide(t);
                     Expr v = (cast(w, a) * cast(w, b) + wc(w, (int64_t)1 << (t.bits() - 2))) >>
                              (t.bits() - 1);
                     return cast(t, clamp(v, wc(w, (int64_t)tmin(t)), wc(w, (int64_t)tmax(t))));
                 },
                 [](I128 a, I128 b, Type t) {
                     return clampv(shr(a * b + ((I128)1 << (t.bits() - 2)), t.bits() - 1), t);
                 }});
    p.push_back({"min", all_types, [](Expr a, Expr b, Type) { return min(a, b); },
                 [](I128 a, I128 b, Type) { return a < b ? a : b; }});
    p.push_back({"max", all_types, [](Expr a, Expr b, Type) { return max(a, b); },
                 [](I128 a, I128 b, Type) { return a > b ? a : b; }});
    p.push_back({"blend", all_types,
                 [](Expr a, Expr b, Type t) { return select(a < b, a, b / cast(t, 2)); },
                 [](I128 a, I128 b, Type) { return a < b ? a : shr(b, 1); }});
    // Two widening products summed (pmaddwd); exact in int32 for 8-bit and int16 values.
    p.push_back({"dot_pairs", [](Type t) { return t.bits() == 8 || t == Int(16); },
                 [](Expr a, Expr b, Type) {
                     return cast<int32_t>(a) * cast<int32_t>(a) + cast<int32_t>(b) * 7;
                 },
                 [](I128 a, I128 b, Type) { return a * a + 7 * b; }});
    p.push_back({"control_add", all_types, [](Expr a, Expr b, Type) { return a + b; },
                 [](I128 a, I128 b, Type) { return a + b; }});
    return p;
}

/// The x86 targets the host can run: SSE2 only, AVX2, AVX-512 (Skylake set).
std::vector<Target> x86_targets() {
    Target host = get_host_target();
    std::vector<Target> ts;
    if (host.arch != Target::X86 || host.bits != 64) return ts;
    ts.push_back(Target("x86-64-linux"));
    if (host.has_feature(Target::AVX2)) ts.push_back(Target("x86-64-linux-sse41-avx-avx2"));
    if (host.has_feature(Target::AVX512_Skylake)) {
        ts.push_back(Target("x86-64-linux-sse41-avx-avx2-avx512-avx512_skylake"));
    }
    return ts;
}

/// Element i of a 1-D buffer as an exact integer.
I128 element(const Buffer<> &b, int i) {
    const void *h = b.raw_buffer()->host;
    Type t = b.type();
    switch (t.bits()) {
    case 8:
        return t.is_uint() ? (I128)((const uint8_t *)h)[i] : (I128)((const int8_t *)h)[i];
    case 16:
        return t.is_uint() ? (I128)((const uint16_t *)h)[i] : (I128)((const int16_t *)h)[i];
    case 32:
        return t.is_uint() ? (I128)((const uint32_t *)h)[i] : (I128)((const int32_t *)h)[i];
    default:
        return t.is_uint() ? (I128)((const uint64_t *)h)[i] : (I128)((const int64_t *)h)[i];
    }
}

std::string str(I128 v) { return std::to_string((long long)v); }

/// Inputs of type T: every pair of 8-bit values, or for wider types every pair of edge values
/// followed by random pairs.
template <typename T>
void fill_inputs(Buffer<T> &a, Buffer<T> &b, int n) {
    Type t = type_of<T>();
    if (t.bits() == 8) {
        for (int i = 0; i < n; i++) {
            a(i) = (T)(i & 255);
            b(i) = (T)(i >> 8);
        }
        return;
    }
    std::vector<I128> edges = {tmin(t),     tmin(t) + 1, tmin(t) + 2, tmax(t) - 2,
                               tmax(t) - 1, tmax(t),     tmax(t) / 2, tmax(t) / 2 + 1,
                               0,           1,           2,           3};
    if (t.is_int()) edges.insert(edges.end(), {-1, -2, -3, tmin(t) / 2});
    std::mt19937_64 rng(12345);
    int i = 0;
    for (I128 x : edges) {
        for (I128 y : edges) {
            a(i) = (T)x;
            b(i) = (T)y;
            i++;
        }
    }
    for (; i < n; i++) {
        a(i) = (T)rng();
        b(i) = (T)rng();
    }
}

/// Every applicable pattern on inputs of type T, at 8, 16, 32 and 64 lanes (and in scalar code),
/// each width on one of the targets (rotating with `rotation`, so across types every target
/// sees every width).
template <typename T>
void check_patterns(int rotation) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    Type t = type_of<T>();
    const int n = 65536;
    Buffer<T> A(n), B(n);
    fill_inputs(A, B, n);
    std::vector<Pattern> ps;
    for (const Pattern &p : patterns()) {
        if (p.applies(t)) ps.push_back(p);
    }
    // Width 1: scalar code (the intrinsics' scalar lowering), for 8- and 32-bit types only
    // (each width is one JIT compilation; the scalar code paths do not depend on the width).
    const int widths[] = {8, 16, 32, 64, 1};
    int count = t.bits() == 16 ? 4 : 5;
    for (int wi = 0; wi < count; wi++) {
        int lanes = widths[wi];
        const Target &target = targets[(wi + rotation) % targets.size()];
        Var x("x");
        std::vector<Func> fs;
        for (const Pattern &p : ps) {
            Func f(p.name);
            f(x) = p.expr(A(x), B(x), t);
            if (lanes > 1) f.vectorize(x, lanes);
            fs.push_back(f);
        }
        Realization r = Pipeline(fs).realize({n}, target);
        for (size_t k = 0; k < ps.size(); k++) {
            Buffer<> out = r[k];
            int bad = 0;
            for (int i = 0; i < n && bad < 3; i++) {
                I128 a = (I128)A(i), b = (I128)B(i);
                I128 want = wrap(ps[k].value(a, b, t), out.type());
                I128 got = element(out, i);
                if (got != want) {
                    ADD_FAILURE() << ps[k].name << " on " << t << " x" << lanes << " for "
                                  << target.to_string() << ": a=" << str(a) << " b=" << str(b)
                                  << " got " << str(got) << " want " << str(want);
                    bad++;
                }
            }
        }
    }
}

TEST(SimdPatterns, UInt8AllPairs) { check_patterns<uint8_t>(0); }
TEST(SimdPatterns, Int8AllPairs) { check_patterns<int8_t>(1); }
TEST(SimdPatterns, UInt16) { check_patterns<uint16_t>(2); }
TEST(SimdPatterns, Int16) { check_patterns<int16_t>(0); }
TEST(SimdPatterns, Int32) { check_patterns<int32_t>(1); }

/// Saturating narrowing (packs) and division by constants, on every 16-bit input.
TEST(SimdPatterns, NarrowAndDivideAll16Bit) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int n = 65536;
    Buffer<int16_t> S(n);
    Buffer<uint16_t> U(n);
    for (int i = 0; i < n; i++) S(i) = (int16_t)(i - 32768), U(i) = (uint16_t)i;
    int ti = 0;
    for (int lanes : {8, 16, 32, 64}) {
        const Target &target = targets[ti++ % targets.size()];
        Var x("x");
        Func nu("narrow_u8"), ns("narrow_i8"), du("div_u16"), ds("div_i16"), d8("div_u8");
        nu(x) = cast<uint8_t>(clamp(S(x), 0, 255));
        ns(x) = cast<int8_t>(clamp(S(x), -128, 127));
        du(x) = U(x) / cast<uint16_t>(7);
        ds(x) = S(x) / cast<int16_t>(-13);
        d8(x) = cast<uint8_t>(U(x)) / cast<uint8_t>(3);
        for (Func *f : {&nu, &ns, &du, &ds, &d8}) f->vectorize(x, lanes);
        Realization r = Pipeline({nu, ns, du, ds, d8}).realize({n}, target);
        Buffer<uint8_t> rnu = r[0], rd8 = r[4];
        Buffer<int8_t> rns = r[1];
        Buffer<uint16_t> rdu = r[2];
        Buffer<int16_t> rds = r[3];
        for (int i = 0; i < n; i++) {
            int s = S(i);
            ASSERT_EQ(rnu(i), std::min(std::max(s, 0), 255)) << s << " x" << lanes;
            ASSERT_EQ(rns(i), std::min(std::max(s, -128), 127)) << s << " x" << lanes;
            ASSERT_EQ(rdu(i), U(i) / 7) << U(i) << " x" << lanes;
            ASSERT_EQ(rd8(i), (U(i) & 255) / 3) << U(i) << " x" << lanes;
            // Euclidean division: the remainder is never negative.
            int q = s / -13, rem = s - q * -13;
            if (rem < 0) q += 1;
            ASSERT_EQ(rds(i), q) << s << " x" << lanes;
        }
    }
}

/// int32 -> int16/uint16 saturating narrowing (packssdw/packusdw) on edge and random values.
TEST(SimdPatterns, Narrow32To16) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int n = 4096;
    Buffer<int32_t> W(n);
    std::mt19937 rng(7);
    const int32_t edges[] = {INT32_MIN, -65536, -32769, -32768, -32767, -1,       0,
                             1,         32767,  32768,  65535,  65536,  INT32_MAX};
    for (int i = 0; i < n; i++) W(i) = i < 13 ? edges[i] : (int32_t)rng() >> (rng() % 16);
    int ti = 0;
    for (int lanes : {8, 16, 32, 64}) {
        const Target &target = targets[ti++ % targets.size()];
        Var x("x");
        Func s16("narrow_i16"), u16("narrow_u16");
        s16(x) = cast<int16_t>(clamp(W(x), -32768, 32767));
        u16(x) = cast<uint16_t>(clamp(W(x), 0, 65535));
        s16.vectorize(x, lanes);
        u16.vectorize(x, lanes);
        Realization r = Pipeline({s16, u16}).realize({n}, target);
        Buffer<int16_t> rs = r[0];
        Buffer<uint16_t> ru = r[1];
        for (int i = 0; i < n; i++) {
            int64_t w = W(i);
            ASSERT_EQ(rs(i), std::min<int64_t>(std::max<int64_t>(w, -32768), 32767)) << w;
            ASSERT_EQ(ru(i), std::min<int64_t>(std::max<int64_t>(w, 0), 65535)) << w;
        }
    }
}

/// Dot products of int16 pairs: the sum of the products of even and odd elements (strided
/// loads), and a vectorized atomic reduction over 4 elements (a VectorReduce of products).
TEST(SimdPatterns, DotProducts) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int n = 4096;
    Buffer<int16_t> A(4 * n), B(4 * n);
    std::mt19937 rng(3);
    // 15-bit values: a sum of four products stays within int32.
    for (int i = 0; i < 4 * n; i++)
        A(i) = (int16_t)((int16_t)rng() >> 1), B(i) = (int16_t)((int16_t)rng() >> 1);
    // The extremes of the range (pmaddwd's corner cases) near the start.
    A(0) = B(0) = A(1) = B(1) = -16384;
    A(2) = B(3) = 16383;
    for (const Target &target : targets) {
        for (int lanes : {8, 16, 32}) {
            Var x("x");
            RDom r(0, 4);
            Func pairs("pairs"), quads("quads");
            pairs(x) =
                cast<int32_t>(A(2 * x)) * B(2 * x) + cast<int32_t>(A(2 * x + 1)) * B(2 * x + 1);
            pairs.vectorize(x, lanes);
            quads(x) = 0;
            quads(x) += cast<int32_t>(A(4 * x + r)) * B(4 * x + r);
            quads.update().atomic().vectorize(r).vectorize(x, lanes / 4 > 0 ? lanes / 4 : 1);
            Realization res = Pipeline({pairs, quads}).realize({n}, target);
            Buffer<int32_t> rp = res[0], rq = res[1];
            for (int i = 0; i < n; i++) {
                int32_t want = A(2 * i) * B(2 * i) + A(2 * i + 1) * B(2 * i + 1);
                ASSERT_EQ(rp(i), want) << i << " x" << lanes << " " << target.to_string();
                int32_t want4 = 0;
                for (int k = 0; k < 4; k++) want4 += A(4 * i + k) * B(4 * i + k);
                ASSERT_EQ(rq(i), want4) << i << " x" << lanes << " " << target.to_string();
            }
        }
    }
}

/// Chunky (interleaved) output from planar input, 2, 3 and 4 channels: the unrolled channel
/// loop's strided stores become one interleaving store. Checked against the input values, with
/// widths that leave a vector tail.
TEST(SimdPatterns, InterleavedStores) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int w = 100, h = 5;
    for (int channels : {2, 3, 4}) {
        Buffer<uint8_t> in(w, h, channels);
        for (int c = 0; c < channels; c++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) in(x, y, c) = (uint8_t)(x * 7 + y * 13 + c * 50);
            }
        }
        for (const Target &target : targets) {
            for (int lanes : {8, 16, 32}) {
                Var x("x"), y("y"), c("c");
                Func out("chunky");
                out(x, y, c) = in(x, y, c) + cast<uint8_t>(1);
                out.output_buffer().dim(0).set_stride(channels).dim(2).set_stride(1).set_bounds(
                    0, channels);
                out.reorder(c, x, y).bound(c, 0, channels).unroll(c).vectorize(x, lanes);
                Buffer<uint8_t> o = Buffer<uint8_t>::make_interleaved(w, h, channels);
                out.realize(o, target);
                for (int yy = 0; yy < h; yy++) {
                    for (int xx = 0; xx < w; xx++) {
                        for (int cc = 0; cc < channels; cc++) {
                            ASSERT_EQ(o(xx, yy, cc), (uint8_t)(in(xx, yy, cc) + 1))
                                << xx << "," << yy << "," << cc << " channels " << channels << " x"
                                << lanes << " " << target.to_string();
                        }
                    }
                }
            }
        }
    }
}

/// Strided loads that together read a dense range become slices of one dense load: a 2x2
/// rounding average (downsample; even and odd columns of two rows) and luma from chunky RGB
/// (the three channels of each pixel), checked against C++ with widths that leave tails.
TEST(SimdPatterns, DeinterleavedLoads) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int w = 75, h = 6;
    Buffer<uint8_t> gray(2 * w, 2 * h);
    for (int y = 0; y < 2 * h; y++) {
        for (int x = 0; x < 2 * w; x++) gray(x, y) = (uint8_t)(x * 37 + y * 11 + (x ^ y));
    }
    Buffer<uint8_t> rgb(3, w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < 3; c++) rgb(c, x, y) = (uint8_t)(x * 5 + y * 19 + c * 90);
        }
    }
    ImageParam chunky(UInt(8), 3, "chunky");
    chunky.dim(1).set_stride(3);
    chunky.set(rgb);
    for (const Target &target : targets) {
        for (int lanes : {8, 16, 32}) {
            Var x("x"), y("y");
            Func down("down"), luma("luma");
            Expr sum = cast<uint16_t>(gray(2 * x, 2 * y)) + gray(2 * x + 1, 2 * y) +
                       gray(2 * x, 2 * y + 1) + gray(2 * x + 1, 2 * y + 1);
            down(x, y) = cast<uint8_t>((sum + 2) / 4);
            down.vectorize(x, lanes);
            luma(x, y) = cast<uint8_t>((cast<uint16_t>(chunky(0, x, y)) * 77 +
                                        cast<uint16_t>(chunky(1, x, y)) * 150 +
                                        cast<uint16_t>(chunky(2, x, y)) * 29 + 128) >>
                                       8);
            luma.vectorize(x, lanes);
            Buffer<uint8_t> d = down.realize({w, h}, target);
            Buffer<uint8_t> l = luma.realize({w, h}, target);
            for (int yy = 0; yy < h; yy++) {
                for (int xx = 0; xx < w; xx++) {
                    int s4 = gray(2 * xx, 2 * yy) + gray(2 * xx + 1, 2 * yy) +
                             gray(2 * xx, 2 * yy + 1) + gray(2 * xx + 1, 2 * yy + 1);
                    ASSERT_EQ(d(xx, yy), (s4 + 2) / 4) << xx << "," << yy << " x" << lanes;
                    int lv =
                        (rgb(0, xx, yy) * 77 + rgb(1, xx, yy) * 150 + rgb(2, xx, yy) * 29 + 128) >>
                        8;
                    ASSERT_EQ(l(xx, yy), (uint8_t)lv) << xx << "," << yy << " x" << lanes;
                }
            }
        }
    }
}

/// A producer computed at the root with a constant row length: its vector loads and stores are
/// provably aligned (the codegen emits aligned accesses; a wrong claim would fault on SSE2).
TEST(SimdPatterns, AlignedLoads) {
    std::vector<Target> targets = x86_targets();
    if (targets.empty()) GTEST_SKIP() << "not an x86-64 host";
    const int w = 256, h = 40;
    Buffer<uint16_t> in(w + 3, h + 1);
    for (int y = 0; y < h + 1; y++) {
        for (int x = 0; x < w + 3; x++) in(x, y) = (uint16_t)(x * 31 + y * 17);
    }
    for (const Target &target : targets) {
        for (int lanes : {8, 16, 32}) {
            Var x("x"), y("y");
            Func g("g"), f("f");
            g(x, y) = in(x, y) * cast<uint16_t>(3);
            f(x, y) = g(x, y) + g(x, y + 1);
            f.bound(x, 0, w).vectorize(x, lanes);
            g.compute_root().vectorize(x, lanes);
            Buffer<uint16_t> o = f.realize({w, h}, target);
            for (int yy = 0; yy < h; yy++) {
                for (int xx = 0; xx < w; xx++) {
                    ASSERT_EQ(o(xx, yy), (uint16_t)(in(xx, yy) * 3 + in(xx, yy + 1) * 3))
                        << xx << "," << yy << " x" << lanes;
                }
            }
        }
    }
}

} // namespace
