// Code generation of the arithmetic intrinsics (shifts, abs/absd, bit counts, lerp, saturating,
// widening and halving arithmetic, mul_shift_right, round-to-zero division, if_then_else),
// checked against C++ references.
#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

// Evaluates `make(a, b)` for every pair (as[i], bs[i]), both as scalars and as 8-lane vectors,
// and returns the results (scalar results first, then vector results).
template <typename A, typename B, typename R>
std::vector<R> eval_binary(const std::string &name, const std::vector<A> &as,
                           const std::vector<B> &bs, Type rt,
                           const std::function<Expr(Expr, Expr)> &make) {
    Type at = type_of<A>(), bt = type_of<B>();
    std::vector<A> av = as;
    std::vector<B> bv = bs;
    while (av.size() % 8) {
        av.push_back(av[0]);
        bv.push_back(bv[0]);
    }
    const int n = (int)av.size();
    FuncBuilder fb(name);
    fb.buffer("a", at, 1);
    fb.buffer("b", bt, 1);
    fb.buffer("out", rt, 1, true);
    Expr x = var("x");
    Expr r = Ramp::make(x * 8, 1, 8);
    Stmt s = store("out", make(load(at, "a", x), load(bt, "b", x)), x);
    Stmt v = store("out", make(load(at.with_lanes(8), "a", r), load(bt.with_lanes(8), "b", r)),
                   r + Broadcast::make(n, 8));
    LoweredFunc f = fb.finish(Block::make(loop("x", 0, n, s), loop("x", 0, n / 8, v)));
    TestBuffer buf_a(at, {n}), buf_b(bt, {n}), O(rt, {2 * n});
    for (int i = 0; i < n; i++) {
        buf_a.data<A>()[i] = av[i];
        buf_b.data<B>()[i] = bv[i];
    }
    EXPECT_EQ(run(f, {buf_a.raw(), buf_b.raw(), O.raw()}), 0);
    std::vector<R> out(2 * n);
    for (int i = 0; i < 2 * n; i++) out[i] = O.data<R>()[i];
    return out;
}

template <typename A, typename B, typename R, typename Ref>
void check_binary(const std::string &name, const std::vector<A> &as, const std::vector<B> &bs,
                  const std::function<Expr(Expr, Expr)> &make, Ref ref) {
    std::vector<R> out = eval_binary<A, B, R>(name, as, bs, type_of<R>(), make);
    int n = (int)out.size() / 2;
    int failures = 0;
    for (size_t i = 0; i < as.size() && failures < 10; i++) {
        R want = ref(as[i], bs[i]);
        for (int half = 0; half < 2; half++) {
            R got = out[half * n + i];
            if (!(got == want)) {
                failures++;
                ADD_FAILURE() << name << "(" << (int64_t)as[i] << ", " << (int64_t)bs[i] << ")"
                              << (half ? " vector" : " scalar") << ": got " << (int64_t)got
                              << ", want " << (int64_t)want;
            }
        }
    }
}

template <typename T>
std::vector<T> all_pairs_a(const std::vector<T> &v) {
    std::vector<T> r;
    for (T a : v)
        for (size_t j = 0; j < v.size(); j++) r.push_back(a);
    return r;
}
template <typename T>
std::vector<T> all_pairs_b(const std::vector<T> &v) {
    std::vector<T> r;
    for (size_t i = 0; i < v.size(); i++)
        for (T b : v) r.push_back(b);
    return r;
}

template <typename T>
T ref_shift(T a, int64_t amount, bool left) {
    const int bits = sizeof(T) * 8;
    if (amount < 0) {
        left = !left;
        amount = -amount;
    }
    if (left) return amount >= bits ? 0 : (T)((std::make_unsigned_t<T>)a << amount);
    if (amount >= bits) return std::is_signed_v<T> ? (a < 0 ? (T)-1 : 0) : 0;
    return (T)(a >> amount);
}

TEST(CodegenIntrinsics, ShiftsWithSignedUnsignedAndOutOfRangeAmounts) {
    std::vector<int8_t> a8 = {0, 1, -1, 5, -128, 127, 64, -37};
    std::vector<int8_t> s8 = {0, 1, 3, 7, 8, 9, 100, -1, -3, -8, -9, -128, 127};
    std::vector<int8_t> A, S;
    for (int8_t a : a8)
        for (int8_t s : s8) {
            A.push_back(a);
            S.push_back(s);
        }
    auto shl = [](Expr a, Expr b) { return intrin(a.type(), Call::shift_left, {a, b}); };
    auto shr = [](Expr a, Expr b) { return intrin(a.type(), Call::shift_right, {a, b}); };
    check_binary<int8_t, int8_t, int8_t>(
        "shl_i8", A, S, shl, [](int8_t a, int8_t s) { return ref_shift<int8_t>(a, s, true); });
    check_binary<int8_t, int8_t, int8_t>(
        "shr_i8", A, S, shr, [](int8_t a, int8_t s) { return ref_shift<int8_t>(a, s, false); });
    // Unsigned value with unsigned amounts (never reversed), including amounts >= 8.
    std::vector<uint8_t> UA, US;
    for (int8_t a : a8)
        for (int s = 0; s < 12; s++) {
            UA.push_back((uint8_t)a);
            US.push_back((uint8_t)(s == 11 ? 255 : s));
        }
    check_binary<uint8_t, uint8_t, uint8_t>(
        "shl_u8", UA, US, shl, [](uint8_t a, uint8_t s) { return ref_shift<uint8_t>(a, s, true); });
    check_binary<uint8_t, uint8_t, uint8_t>("shr_u8", UA, US, shr, [](uint8_t a, uint8_t s) {
        return ref_shift<uint8_t>(a, s, false);
    });
    // int32 values with uint32 amounts; uint32 values with int32 amounts.
    std::vector<int32_t> a32 = {1, -1, 123456789, -123456789, INT32_MIN, INT32_MAX};
    std::vector<uint32_t> s32 = {0, 1, 5, 31, 32, 33, 0xFFFFFFFFu};
    std::vector<int32_t> A32;
    std::vector<uint32_t> S32;
    for (int32_t a : a32)
        for (uint32_t s : s32) {
            A32.push_back(a);
            S32.push_back(s);
        }
    check_binary<int32_t, uint32_t, int32_t>(
        "shr_i32_u32", A32, S32, shr, [](int32_t a, uint32_t s) {
            return ref_shift<int32_t>(a, s >= 64 ? 64 : (int64_t)s, false);
        });
    std::vector<uint32_t> UA32;
    std::vector<int32_t> SS32;
    for (int32_t a : a32)
        for (int32_t s : {0, 4, 31, 32, -4, -31, -32, INT32_MIN}) {
            UA32.push_back((uint32_t)a);
            SS32.push_back(s);
        }
    check_binary<uint32_t, int32_t, uint32_t>("shl_u32_i32", UA32, SS32, shl,
                                              [](uint32_t a, int32_t s) {
                                                  int64_t amount = s;
                                                  return ref_shift<uint32_t>(a, amount, true);
                                              });
}

TEST(CodegenIntrinsics, ConstantShifts) {
    std::vector<int16_t> A = {1, -1, 1000, -1000, INT16_MIN, INT16_MAX, 0, 77};
    std::vector<int16_t> B(A.size(), 0);
    check_binary<int16_t, int16_t, int16_t>(
        "const_shifts", A, B,
        [](Expr a, Expr) {
            Expr three = make_const(a.type(), 3);
            return intrin(a.type(), Call::shift_right, {a, three}) +
                   intrin(a.type(), Call::shift_left, {a, make_const(a.type(), 2)});
        },
        [](int16_t a, int16_t) { return (int16_t)((a >> 3) + (int16_t)((uint16_t)a << 2)); });
}

TEST(CodegenIntrinsics, AbsAbsdAndBitCounts) {
    std::vector<int8_t> v = {0, 1, -1, 127, -128, -127, 50, -50};
    std::vector<int8_t> A = all_pairs_a(v), B = all_pairs_b(v);
    check_binary<int8_t, int8_t, uint8_t>(
        "abs_i8", A, B,
        [](Expr a, Expr) { return intrin(UInt(8, a.type().lanes()), Call::abs, {a}); },
        [](int8_t a, int8_t) { return (uint8_t)std::abs((int)a); });
    check_binary<int8_t, int8_t, uint8_t>(
        "absd_i8", A, B,
        [](Expr a, Expr b) {
            return intrin(UInt(8, a.type().lanes()), Call::absd, {a, b});
        },
        [](int8_t a, int8_t b) { return (uint8_t)std::abs((int)a - (int)b); });
    std::vector<uint32_t> u = {0, 1, 2, 0x80000000u, 0xFFFFFFFFu, 0x00F0F000u, 12345, 0x40000001u};
    std::vector<uint32_t> z(u.size(), 0);
    check_binary<uint32_t, uint32_t, uint32_t>(
        "clz", u, z, [](Expr a, Expr) { return intrin(a.type(), Call::count_leading_zeros, {a}); },
        [](uint32_t a, uint32_t) { return a == 0 ? 32u : (uint32_t)__builtin_clz(a); });
    check_binary<uint32_t, uint32_t, uint32_t>(
        "ctz", u, z, [](Expr a, Expr) { return intrin(a.type(), Call::count_trailing_zeros, {a}); },
        [](uint32_t a, uint32_t) { return a == 0 ? 32u : (uint32_t)__builtin_ctz(a); });
    check_binary<uint32_t, uint32_t, uint32_t>(
        "popcount", u, z, [](Expr a, Expr) { return intrin(a.type(), Call::popcount, {a}); },
        [](uint32_t a, uint32_t) { return (uint32_t)__builtin_popcount(a); });
    check_binary<uint32_t, uint32_t, uint32_t>(
        "bitwise", u, std::vector<uint32_t>(u.rbegin(), u.rend()),
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::bitwise_xor,
                          {intrin(a.type(), Call::bitwise_and, {a, b}),
                           intrin(a.type(), Call::bitwise_or,
                                  {intrin(a.type(), Call::bitwise_not, {a}), b})});
        },
        [](uint32_t a, uint32_t b) { return (a & b) ^ (~a | b); });
}

// round(x / max) for x = zero * (max - w) + one * w, exactly.
template <typename U>
U ref_lerp_uint(U zero, U one, U w) {
    using W = unsigned __int128;
    W mx = std::numeric_limits<U>::max();
    W x = (W)zero * (mx - w) + (W)one * w;
    return (U)((2 * x + mx) / (2 * mx));
}

TEST(CodegenIntrinsics, LerpIntegers) {
    auto lerp = [](Expr z, Expr o, Expr w) { return intrin(z.type(), Call::lerp, {z, o, w}); };
    // The two-argument harness carries zero and one packed in "a": lerp of its low and high
    // halves, of element type `half`, with weight w.
    auto unpacked_lerp = [&](Type half) {
        return [=](Expr zo, Expr w) {
            Type t = half.with_lanes(zo.type().lanes());
            Expr z = Cast::make(t, zo);
            Expr o = Cast::make(
                t, intrin(zo.type(), Call::shift_right, {zo, make_const(zo.type(), half.bits())}));
            return lerp(z, o, w);
        };
    };
    // u8 with u8 weight: every weight for a few endpoint pairs.
    {
        std::vector<uint8_t> Z, O, W;
        int ends[][2] = {{0, 255}, {255, 0}, {10, 200}, {77, 77}, {1, 0}, {128, 127}};
        for (auto &e : ends) {
            for (int w = 0; w < 256; w++) {
                Z.push_back(e[0]);
                O.push_back(e[1]);
                W.push_back(w);
            }
        }
        // Pack zero and one into a u16 "a" so the two-argument harness can carry three values.
        std::vector<uint16_t> ZO;
        for (size_t i = 0; i < Z.size(); i++) ZO.push_back((uint16_t)(Z[i] | O[i] << 8));
        check_binary<uint16_t, uint8_t, uint8_t>(
            "lerp_u8", ZO, W, unpacked_lerp(UInt(8)),
            [](uint16_t zo, uint8_t w) { return ref_lerp_uint<uint8_t>(zo & 255, zo >> 8, w); });
    }
    // u16 with u16 weights, and u16 with a u8 weight (rescaled by 257).
    {
        std::vector<uint32_t> ZO;
        std::vector<uint16_t> W;
        std::vector<uint8_t> W8;
        uint16_t zs[] = {0, 65535, 1000, 40000};
        uint16_t os[] = {65535, 0, 50000, 39999};
        for (int k = 0; k < 4; k++) {
            for (int w = 0; w < 65536; w += 997) {
                ZO.push_back(zs[k] | (uint32_t)os[k] << 16);
                W.push_back((uint16_t)w);
                W8.push_back((uint8_t)(w >> 8));
            }
            ZO.push_back(zs[k] | (uint32_t)os[k] << 16);
            W.push_back(65535);
            W8.push_back(255);
        }
        auto unpack = unpacked_lerp(UInt(16));
        check_binary<uint32_t, uint16_t, uint16_t>(
            "lerp_u16", ZO, W, unpack, [](uint32_t zo, uint16_t w) {
                return ref_lerp_uint<uint16_t>(zo & 65535, zo >> 16, w);
            });
        check_binary<uint32_t, uint8_t, uint16_t>(
            "lerp_u16_w8", ZO, W8, unpack, [](uint32_t zo, uint8_t w) {
                return ref_lerp_uint<uint16_t>(zo & 65535, zo >> 16, (uint16_t)(w * 257));
            });
    }
    // u8 with a u16 weight: narrowed by 257, truncating (Halide's rule; w >> 8 differs).
    {
        std::vector<uint16_t> ZO, W;
        int ends[][2] = {{63, 246}, {255, 0}, {119, 238}, {0, 255}};
        for (auto &e : ends) {
            for (int w = 0; w < 65536; w += 131) {
                ZO.push_back((uint16_t)(e[0] | e[1] << 8));
                W.push_back((uint16_t)w);
            }
            ZO.push_back((uint16_t)(e[0] | e[1] << 8));
            W.push_back(65535);
        }
        check_binary<uint16_t, uint16_t, uint8_t>(
            "lerp_u8_w16", ZO, W, unpacked_lerp(UInt(8)), [](uint16_t zo, uint16_t w) {
                return ref_lerp_uint<uint8_t>(zo & 255, zo >> 8, (uint8_t)(w / 257));
            });
    }
    // i8 with a u8 weight: biased to unsigned, so lerp(-128, 127, w) covers the range.
    {
        std::vector<int16_t> ZO;
        std::vector<uint8_t> W;
        for (int w = 0; w < 256; w += 3) {
            ZO.push_back((int16_t)((uint8_t)-128 | (127 << 8)));
            W.push_back(w);
            ZO.push_back((int16_t)((uint8_t)(int8_t)-5 | ((uint8_t)(int8_t)-100 << 8)));
            W.push_back(w);
        }
        check_binary<int16_t, uint8_t, int8_t>(
            "lerp_i8", ZO, W, unpacked_lerp(Int(8)), [](int16_t zo, uint8_t w) {
                uint8_t z = (uint8_t)((int8_t)(zo & 255) + 128),
                        o = (uint8_t)((int8_t)(zo >> 8) + 128);
                return (int8_t)(ref_lerp_uint<uint8_t>(z, o, w) - 128);
            });
    }
}

TEST(CodegenIntrinsics, LerpFloatWeightsAndFloatValues) {
    auto lerp = [](Expr z, Expr o, Expr w) { return intrin(z.type(), Call::lerp, {z, o, w}); };
    std::vector<float> W;
    for (int i = 0; i <= 40; i++) W.push_back(i / 40.0f);
    std::vector<float> Zf(W.size(), 0);
    // u8 values with a float weight: the weight becomes uint8(255 * w), truncated.
    check_binary<float, float, uint8_t>(
        "lerp_u8_fw", Zf, W,
        [&](Expr, Expr w) {
            int l = w.type().lanes();
            Expr z = make_const(UInt(8, l), 20), o = make_const(UInt(8, l), 230);
            return lerp(z, o, w);
        },
        [](float, float w) { return ref_lerp_uint<uint8_t>(20, 230, (uint8_t)(255.0f * w)); });
    // float values: zero * (1 - w) + one * w. Strict, so that it rounds as the reference does
    // (by default each product and sum may be contracted into an FMA).
    check_binary<float, float, float>(
        "lerp_f32", W, W,
        [&](Expr a, Expr w) { return strict_float(lerp(a * 3.0f - 1.0f, a + 10.0f, w)); },
        [](float a, float w) {
            float z = a * 3.0f - 1.0f, o = a + 10.0f;
            return z * (1.0f - w) + o * w;
        });
    // float values with a u8 weight scaled to [0, 1].
    std::vector<uint8_t> W8;
    std::vector<float> A8;
    for (int w = 0; w < 256; w += 5) {
        W8.push_back(w);
        A8.push_back(w * 0.5f);
    }
    check_binary<float, uint8_t, float>(
        "lerp_f32_w8", A8, W8,
        [&](Expr a, Expr w) { return strict_float(lerp(a, a * 2.0f + 1.0f, w)); },
        [](float a, uint8_t w) {
            float fw = (float)w / 255.0f;
            return a * (1.0f - fw) + (a * 2.0f + 1.0f) * fw;
        });
    // bool values: one when the weight is above one half.
    check_binary<float, float, bool>(
        "lerp_bool", Zf, W,
        [&](Expr, Expr w) {
            int l = w.type().lanes();
            return lerp(const_false(l), const_true(l), w);
        },
        [](float, float w) { return w > 0.5f; });
}

template <typename T>
T sat(int64_t v) {
    return (T)std::min<int64_t>(std::max<int64_t>(v, std::numeric_limits<T>::min()),
                                std::numeric_limits<T>::max());
}

TEST(CodegenIntrinsics, SaturatingWideningHalvingArithmetic) {
    std::vector<int8_t> v = {0, 1, -1, 100, -100, 127, -128, 64, -65, 3};
    std::vector<int8_t> A = all_pairs_a(v), B = all_pairs_b(v);
    check_binary<int8_t, int8_t, int8_t>(
        "sat_add_i8", A, B,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::saturating_add, {a, b});
        },
        [](int8_t a, int8_t b) { return sat<int8_t>((int)a + b); });
    check_binary<int8_t, int8_t, int8_t>(
        "sat_sub_i8", A, B,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::saturating_sub, {a, b});
        },
        [](int8_t a, int8_t b) { return sat<int8_t>((int)a - b); });
    std::vector<uint8_t> uv = {0, 1, 2, 100, 127, 128, 200, 254, 255};
    std::vector<uint8_t> UA = all_pairs_a(uv), UB = all_pairs_b(uv);
    check_binary<uint8_t, uint8_t, uint8_t>(
        "sat_add_u8", UA, UB,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::saturating_add, {a, b});
        },
        [](uint8_t a, uint8_t b) { return sat<uint8_t>((int)a + b); });
    check_binary<uint8_t, uint8_t, uint8_t>(
        "sat_sub_u8", UA, UB,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::saturating_sub, {a, b});
        },
        [](uint8_t a, uint8_t b) { return sat<uint8_t>((int)a - b); });
    check_binary<uint8_t, uint8_t, uint16_t>(
        "widening_mul_u8", UA, UB,
        [](Expr a, Expr b) {
            return intrin(UInt(16, a.type().lanes()), Call::widening_mul, {a, b});
        },
        [](uint8_t a, uint8_t b) { return (uint16_t)(a * b); });
    check_binary<int8_t, int8_t, int16_t>(
        "widening_add_i8", A, B,
        [](Expr a, Expr b) {
            return intrin(Int(16, a.type().lanes()), Call::widening_add, {a, b});
        },
        [](int8_t a, int8_t b) { return (int16_t)(a + b); });
    check_binary<int8_t, int8_t, int8_t>(
        "halving_add_i8", A, B,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::halving_add, {a, b});
        },
        [](int8_t a, int8_t b) { return (int8_t)(((int)a + b) >> 1); });
    check_binary<uint8_t, uint8_t, uint8_t>(
        "rounding_halving_add_u8", UA, UB,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::rounding_halving_add, {a, b});
        },
        [](uint8_t a, uint8_t b) { return (uint8_t)(((int)a + b + 1) >> 1); });
    // mul_shift_right(a, b, q) = saturating_cast<T>((widen(a) * widen(b)) >> q).
    std::vector<int16_t> sv = {0, 1, -1, 32767, -32768, 16384, -16384, 1000, -3};
    std::vector<int16_t> SA = all_pairs_a(sv), SB = all_pairs_b(sv);
    check_binary<int16_t, int16_t, int16_t>(
        "mul_shift_right_i16", SA, SB,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::mul_shift_right,
                          {a, b, make_const(UInt(16, a.type().lanes()), 15)});
        },
        [](int16_t a, int16_t b) { return sat<int16_t>(((int64_t)a * b) >> 15); });
    check_binary<uint8_t, uint8_t, uint8_t>(
        "mul_shift_right_u8", UA, UB,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::mul_shift_right,
                          {a, b, make_const(UInt(8, a.type().lanes()), 8)});
        },
        [](uint8_t a, uint8_t b) { return (uint8_t)((a * b) >> 8); });
}

TEST(CodegenIntrinsics, SaturatingCasts) {
    auto sc = [](Type t) {
        return [t](Expr a, Expr) {
            return intrin(t.with_lanes(a.type().lanes()), Call::saturating_cast, {a});
        };
    };
    std::vector<int32_t> iv = {0,   1,     -1,    127,    128,   -128,  -129,      255,
                               256, 32767, 32768, -32769, 65535, 65536, INT32_MIN, INT32_MAX};
    std::vector<int32_t> z(iv.size(), 0);
    check_binary<int32_t, int32_t, uint8_t>("sc_i32_u8", iv, z, sc(UInt(8)),
                                            [](int32_t a, int32_t) { return sat<uint8_t>(a); });
    check_binary<int32_t, int32_t, int8_t>("sc_i32_i8", iv, z, sc(Int(8)),
                                           [](int32_t a, int32_t) { return sat<int8_t>(a); });
    check_binary<int32_t, int32_t, uint64_t>(
        "sc_i32_u64", iv, z, sc(UInt(64)),
        [](int32_t a, int32_t) { return (uint64_t)std::max<int64_t>(a, 0); });
    std::vector<uint32_t> uvals = {0,     1,     127,         128,         32767,
                                   32768, 65535, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
    std::vector<uint32_t> uz(uvals.size(), 0);
    check_binary<uint32_t, uint32_t, int16_t>("sc_u32_i16", uvals, uz, sc(Int(16)),
                                              [](uint32_t a, uint32_t) { return sat<int16_t>(a); });
    check_binary<uint32_t, uint32_t, int32_t>("sc_u32_i32", uvals, uz, sc(Int(32)),
                                              [](uint32_t a, uint32_t) { return sat<int32_t>(a); });
    check_binary<uint32_t, uint32_t, int64_t>("sc_u32_i64", uvals, uz, sc(Int(64)),
                                              [](uint32_t a, uint32_t) { return (int64_t)a; });
    std::vector<int8_t> i8v = {0, 5, -5, 127, -128};
    std::vector<int8_t> i8z(i8v.size(), 0);
    check_binary<int8_t, int8_t, uint16_t>(
        "sc_i8_u16", i8v, i8z, sc(UInt(16)),
        [](int8_t a, int8_t) { return (uint16_t)std::max<int>(a, 0); });
    std::vector<float> fv = {0.0f,
                             1.7f,
                             -1.7f,
                             254.9f,
                             255.5f,
                             300.0f,
                             -5.0f,
                             3e9f,
                             -3e9f,
                             2147483520.0f,
                             std::nanf(""),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()};
    std::vector<float> fz(fv.size(), 0);
    check_binary<float, float, uint8_t>("sc_f32_u8", fv, fz, sc(UInt(8)),
                                        [](float a, float) -> uint8_t {
                                            if (std::isnan(a)) return 0;
                                            return a <= 0 ? 0 : a >= 255 ? 255 : (uint8_t)a;
                                        });
    check_binary<float, float, int32_t>("sc_f32_i32", fv, fz, sc(Int(32)),
                                        [](float a, float) -> int32_t {
                                            if (std::isnan(a)) return 0;
                                            if (a >= 2147483648.0f) return INT32_MAX;
                                            if (a <= -2147483648.0f) return INT32_MIN;
                                            return (int32_t)a;
                                        });
    std::vector<double> dv = {0.0, 1e300, -1e300, 3.5, 1e-300};
    std::vector<double> dz(dv.size(), 0);
    check_binary<double, double, float>("sc_f64_f32", dv, dz, sc(Float(32)), [](double a, double) {
        return (float)std::min<double>(std::max<double>(a, -3.4028234663852886e38),
                                       3.4028234663852886e38);
    });
}

TEST(CodegenIntrinsics, RoundToZeroDivision) {
    std::vector<int32_t> v = {0, 1, -1, 7, -7, 3, -3, INT32_MIN, INT32_MAX};
    std::vector<int32_t> A = all_pairs_a(v), B = all_pairs_b(v);
    check_binary<int32_t, int32_t, int32_t>(
        "div_rtz", A, B,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::div_round_to_zero, {a, b});
        },
        [](int32_t a, int32_t b) -> int32_t {
            if (b == 0) return 0;
            return (int32_t)((int64_t)a / b);
        });
    check_binary<int32_t, int32_t, int32_t>(
        "mod_rtz", A, B,
        [](Expr a, Expr b) {
            return intrin(a.type(), Call::mod_round_to_zero, {a, b});
        },
        [](int32_t a, int32_t b) -> int32_t {
            if (b == 0) return 0;
            return (int32_t)((int64_t)a % b);
        });
}

TEST(CodegenIntrinsics, PassThroughIntrinsicsAndReturnSecond) {
    std::vector<int32_t> A = {1, 2, 3, -4, 5, 6, 7, 8}, B = {10, 20, 30, 40, 50, 60, 70, 80};
    check_binary<int32_t, int32_t, int32_t>(
        "pass_through", A, B,
        [](Expr a, Expr b) {
            Expr e = intrin(a.type(), Call::likely, {a}) +
                     intrin(a.type(), Call::likely_if_innermost, {b});
            e = e + intrin(a.type(), Call::promise_clamped, {a, a, b}) +
                intrin(a.type(), Call::unsafe_promise_clamped, {b, a, b});
            return intrin(a.type(), Call::return_second,
                          {a, intrin(a.type(), Call::strict_float, {e})});
        },
        [](int32_t a, int32_t b) { return 2 * (a + b); });
}

TEST(CodegenIntrinsics, IfThenElseIsLazy) {
    // The untaken branch loads through a null host pointer: evaluating it would crash.
    FuncBuilder fb("if_then_else_lazy");
    fb.buffer("in", Int(32), 1);
    fb.buffer("nothing", Int(32), 1);
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    Expr use_in = LT::make(x, 100);
    Expr v = intrin(Int(32), Call::if_then_else,
                    {use_in, load(Int(32), "in", x), load(Int(32), "nothing", x)});
    Expr w = intrin(Int(32), Call::if_then_else, {GE::make(x, 100), load(Int(32), "nothing", x)});
    LoweredFunc f = fb.finish(loop("x", 0, 8, store("out", v * 10 + w, x)));
    TestBuffer in(Int(32), {8}), nothing(Int(32), {8}), out(Int(32), {8});
    nothing.buf.host = nullptr;
    for (int i = 0; i < 8; i++) in.data<int32_t>()[i] = i * i;
    ASSERT_EQ(run(f, {in.raw(), nothing.raw(), out.raw()}), 0);
    for (int i = 0; i < 8; i++) EXPECT_EQ(out.data<int32_t>()[i], i * i * 10);
}

} // namespace
