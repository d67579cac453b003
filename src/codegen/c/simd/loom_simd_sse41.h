/* Loom SIMD mapping "sse41": x86 with SSE4.1 (and SSSE3, SSE2) but without AVX: CPUs from
 * before AVX2 (Intel from 2008, AMD from 2011) and targets that must not assume it. Select it
 * with -DLOOM_SIMD_SSE41 and compile with -msse4.1 (or -march=nehalem or later; where AVX2
 * is there, LOOM_SIMD_AVX2 is faster). The generated file pastes the generic mapping
 * (loom_simd_generic.h) before this text: vectors stay GCC/Clang vector-extension types and
 * its LOOM_OP_* macros stay in force. This part adds <smmintrin.h> definitions of the
 * operations whose generic form is a lane by lane loop or poor code, on 128-bit registers,
 * and on wider vectors (256 bits, and 512 for some conversions) as two or four of them:
 *  - integers (16 x u8/i8 and 8 x u16/i16 in one register, 32 x u8/i8 and 16 x u16/i16 in
 *    two; 8 x u8/i8 through the 16-lane forms; 4 and 8 x u32/i32): min, max,
 *    saturating_add/sub, halving_add, rounding_halving_add, absd, abs; 32-bit
 *    shift_left/shift_right (any amount: SSE shifts a register by one amount, so by each
 *    lane's amount in turn); lerp of u8/i8 by a u8 weight; (rounding_)mul_shift_right of
 *    16-bit lanes;
 *  - f32 (4 and 8 lanes) and f64 (2 and 4 lanes): min, max, floor, ceil, trunc, round, sqrt,
 *    abs, float %, is_nan; f32 inverse, inverse_sqrt (and their fast_ forms, computed
 *    exactly);
 *  - conversions between 4 and between 8 lanes of u8/i8/u16/i16/u32/i32/f32, between 16
 *    lanes of u8/i8/u16/i16 and of those and i32/f32, and between 32 lanes of u8/i8 and
 *    u16/i16: widened by PMOVZX/PMOVSX, narrowed by PSHUFB or unsigned saturating packs
 *    (PACKUSWB, PACKUSDW) of masked lanes;
 *  - comparisons (lt le eq ne) of 16- and 32-bit lanes and of floats giving bool lanes,
 *    through signed saturating packs of their masks; selects by bool lanes (PBLENDVB) of
 *    8- to 32-bit lanes and of f64 (and 2 x u64/i64).
 *  - broadcasts to 256-bit vectors and i32 ramps, made in registers.
 * Each one computes the generated default's result bit for bit (README.md), e.g. MINPS is
 * a < b ? a : b, as the IR's min, also for NaN and -0.0; ROUNDPS rounds as floorf, ceilf,
 * truncf and nearbyintf. Conversions from float to integers give the x86 scalar conversion's
 * result (CVTTSS2SI, then truncation to the lane width): C leaves out-of-range values
 * undefined. A vector type an override needs is claimed here (LOOM_HAVE_TYPE_<tag>) with the
 * generic mapping's definition. The generic mapping's own operations (+, -, *, bitwise
 * operations, shifts by a constant, comparisons of 8-bit lanes, ...) compile to SSE
 * instructions already; gathers stay lane by lane (SSE has none). */
#ifndef LOOM_SIMD_SSE41_H
#define LOOM_SIMD_SSE41_H

#if !defined(__SSE4_1__)
#error "LOOM_SIMD_SSE41 needs SSE4.1: compile with -msse4.1 (or -march=nehalem or later)"
#endif
#include <smmintrin.h>

/* ---- Types: as the generic mapping defines them ---- */
#define LOOM_HAVE_TYPE_v2b 1
#define LOOM_HAVE_TYPE_v4b 1
#define LOOM_HAVE_TYPE_v8b 1
#define LOOM_HAVE_TYPE_v16b 1
#define LOOM_HAVE_TYPE_v32b 1
#define LOOM_HAVE_TYPE_v4u8 1
#define LOOM_HAVE_TYPE_v4i8 1
#define LOOM_HAVE_TYPE_v8u8 1
#define LOOM_HAVE_TYPE_v8i8 1
#define LOOM_HAVE_TYPE_v16u8 1
#define LOOM_HAVE_TYPE_v16i8 1
#define LOOM_HAVE_TYPE_v32u8 1
#define LOOM_HAVE_TYPE_v32i8 1
#define LOOM_HAVE_TYPE_v4u16 1
#define LOOM_HAVE_TYPE_v4i16 1
#define LOOM_HAVE_TYPE_v8u16 1
#define LOOM_HAVE_TYPE_v8i16 1
#define LOOM_HAVE_TYPE_v16u16 1
#define LOOM_HAVE_TYPE_v16i16 1
#define LOOM_HAVE_TYPE_v32u16 1
#define LOOM_HAVE_TYPE_v32i16 1
#define LOOM_HAVE_TYPE_v4u32 1
#define LOOM_HAVE_TYPE_v4i32 1
#define LOOM_HAVE_TYPE_v8u32 1
#define LOOM_HAVE_TYPE_v8i32 1
#define LOOM_HAVE_TYPE_v16i32 1
#define LOOM_HAVE_TYPE_v2u64 1
#define LOOM_HAVE_TYPE_v2i64 1
#define LOOM_HAVE_TYPE_v4f32 1
#define LOOM_HAVE_TYPE_v8f32 1
#define LOOM_HAVE_TYPE_v16f32 1
#define LOOM_HAVE_TYPE_v2f64 1
#define LOOM_HAVE_TYPE_v4f64 1
LOOM_VECTOR_TYPE(v2b, 2, uint8_t)
LOOM_VECTOR_TYPE(v4b, 4, uint8_t)
LOOM_VECTOR_TYPE(v8b, 8, uint8_t)
LOOM_VECTOR_TYPE(v16b, 16, uint8_t)
LOOM_VECTOR_TYPE(v32b, 32, uint8_t)
LOOM_VECTOR_TYPE(v4u8, 4, uint8_t)
LOOM_VECTOR_TYPE(v4i8, 4, int8_t)
LOOM_VECTOR_TYPE(v8u8, 8, uint8_t)
LOOM_VECTOR_TYPE(v8i8, 8, int8_t)
LOOM_VECTOR_TYPE(v16u8, 16, uint8_t)
LOOM_VECTOR_TYPE(v16i8, 16, int8_t)
LOOM_VECTOR_TYPE(v32u8, 32, uint8_t)
LOOM_VECTOR_TYPE(v32i8, 32, int8_t)
LOOM_VECTOR_TYPE(v4u16, 4, uint16_t)
LOOM_VECTOR_TYPE(v4i16, 4, int16_t)
LOOM_VECTOR_TYPE(v8u16, 8, uint16_t)
LOOM_VECTOR_TYPE(v8i16, 8, int16_t)
LOOM_VECTOR_TYPE(v16u16, 16, uint16_t)
LOOM_VECTOR_TYPE(v16i16, 16, int16_t)
LOOM_VECTOR_TYPE(v32u16, 32, uint16_t)
LOOM_VECTOR_TYPE(v32i16, 32, int16_t)
LOOM_VECTOR_TYPE(v4u32, 4, uint32_t)
LOOM_VECTOR_TYPE(v4i32, 4, int32_t)
LOOM_VECTOR_TYPE(v8u32, 8, uint32_t)
LOOM_VECTOR_TYPE(v8i32, 8, int32_t)
LOOM_VECTOR_TYPE(v16i32, 16, int32_t)
LOOM_VECTOR_TYPE(v2u64, 2, uint64_t)
LOOM_VECTOR_TYPE(v2i64, 2, int64_t)
LOOM_VECTOR_TYPE(v4f32, 4, float)
LOOM_VECTOR_TYPE(v8f32, 8, float)
LOOM_VECTOR_TYPE(v16f32, 16, float)
LOOM_VECTOR_TYPE(v2f64, 2, double)
LOOM_VECTOR_TYPE(v4f64, 4, double)

/* ---- Helpers ---- */
/* A 16-byte vector-extension value and an intrinsic type convert with a cast (the bits stay);
 * 8-, 4- and 2-byte vectors go through the low bytes of an SSE register. */
#define LOOM_SSE41_LO64(v) _mm_loadl_epi64((const __m128i *)(const void *)&(v))
LOOM_C_INLINE loom_v8u8 loom_sse41_v8u8(__m128i x) {
    loom_v8u8 r;
    _mm_storel_epi64((__m128i *)(void *)&r, x);
    return r;
}
LOOM_C_INLINE __m128i loom_sse41_lo32(const void *p) {
    int32_t t;
    memcpy(&t, p, 4);
    return _mm_cvtsi32_si128(t);
}
LOOM_C_INLINE loom_v4u8 loom_sse41_v4u8(__m128i x) {
    int32_t t = _mm_cvtsi128_si32(x);
    loom_v4u8 r;
    memcpy(&r, &t, 4);
    return r;
}
LOOM_C_INLINE __m128i loom_sse41_lo16(const void *p) {
    uint16_t t;
    memcpy(&t, p, 2);
    return _mm_cvtsi32_si128(t);
}
LOOM_C_INLINE loom_v2b loom_sse41_v2b(__m128i x) {
    uint16_t t = (uint16_t)_mm_extract_epi16(x, 0);
    loom_v2b r;
    memcpy(&r, &t, 2);
    return r;
}
/* Vectors of 32 and 64 bytes as two halves, and back: SPLIT declares lo and hi of type H (of n
 * lanes) from v, JOIN declares r of type R from lo and hi. GCC, which has no registers for
 * these vectors without AVX, keeps them in memory: it reads the halves best lane by lane (it
 * then often keeps them in registers), and writes them best whole (written lane by lane and
 * read back in halves, they stall the loads). Clang does best with memcpy both ways. */
#define LOOM_SSE41_L2(v, o) (v)[o], (v)[(o) + 1]
#define LOOM_SSE41_L4(v, o) LOOM_SSE41_L2(v, o), LOOM_SSE41_L2(v, (o) + 2)
#define LOOM_SSE41_L8(v, o) LOOM_SSE41_L4(v, o), LOOM_SSE41_L4(v, (o) + 4)
#define LOOM_SSE41_L16(v, o) LOOM_SSE41_L8(v, o), LOOM_SSE41_L8(v, (o) + 8)
#define LOOM_SSE41_LANES(n, v, o) LOOM_SSE41_LANES_(n, v, o)
#define LOOM_SSE41_LANES_(n, v, o) LOOM_SSE41_L##n(v, o)
#if defined(__clang__)
#define LOOM_SSE41_SPLIT(H, n, v, lo, hi)                                                          \
    H lo, hi;                                                                                      \
    memcpy(&lo, &(v), sizeof lo);                                                                  \
    memcpy(&hi, (const char *)&(v) + sizeof lo, sizeof hi)
#else
#define LOOM_SSE41_SPLIT(H, n, v, lo, hi)                                                          \
    H lo = {LOOM_SSE41_LANES(n, v, 0)}, hi = {LOOM_SSE41_LANES(n, v, n)}
#endif
#define LOOM_SSE41_JOIN(R, r, lo, hi)                                                              \
    R r;                                                                                           \
    memcpy(&r, &(lo), sizeof(lo));                                                                 \
    memcpy((char *)&r + sizeof(lo), &(hi), sizeof(hi))
/* The lanes of the 16-byte types, for the macros above. */
#define LOOM_SSE41_N_v16u8 16
#define LOOM_SSE41_N_v16i8 16
#define LOOM_SSE41_N_v8u16 8
#define LOOM_SSE41_N_v8i16 8
#define LOOM_SSE41_N_v4u32 4
#define LOOM_SSE41_N_v4i32 4
#define LOOM_SSE41_N_v4f32 4
#define LOOM_SSE41_N_v2f64 2

/* The 16-byte parts of 32- and 64-byte vectors (part 0 holds the lowest lanes), any vector of
 * the size cast to loom_v8i32 or loom_v16i32, and vectors made of them. */
LOOM_C_INLINE __m128i loom_sse41_half(loom_v8i32 v, int i) {
    LOOM_SSE41_SPLIT(loom_v4i32, 4, v, lo, hi);
    return (__m128i)(i ? hi : lo);
}
LOOM_C_INLINE __m128i loom_sse41_quarter(loom_v16i32 v, int i) {
    LOOM_SSE41_SPLIT(loom_v8i32, 8, v, lo, hi);
    return loom_sse41_half(i & 2 ? hi : lo, i & 1);
}
#define loom_sse41_part(v, i) loom_sse41_half((loom_v8i32)(v), i)
#define loom_sse41_partps(v, i) _mm_castsi128_ps(loom_sse41_part(v, i))
#define loom_sse41_partpd(v, i) _mm_castsi128_pd(loom_sse41_part(v, i))
#define loom_sse41_part4(v, i) loom_sse41_quarter((loom_v16i32)(v), i)
LOOM_C_INLINE loom_v8i32 loom_sse41_join(__m128i lo_, __m128i hi_) {
    loom_v4i32 lo = (loom_v4i32)lo_, hi = (loom_v4i32)hi_;
    LOOM_SSE41_JOIN(loom_v8i32, r, lo, hi);
    return r;
}
LOOM_C_INLINE loom_v8f32 loom_sse41_joinps(__m128 lo, __m128 hi) {
    return (loom_v8f32)loom_sse41_join(_mm_castps_si128(lo), _mm_castps_si128(hi));
}
LOOM_C_INLINE loom_v16i32 loom_sse41_join4(__m128i a, __m128i b, __m128i c, __m128i d) {
    loom_v8i32 lo = loom_sse41_join(a, b), hi = loom_sse41_join(c, d);
    LOOM_SSE41_JOIN(loom_v16i32, r, lo, hi);
    return r;
}
LOOM_C_INLINE loom_v16f32 loom_sse41_join4ps(__m128 a, __m128 b, __m128 c, __m128 d) {
    return (loom_v16f32)loom_sse41_join4(_mm_castps_si128(a), _mm_castps_si128(b),
                                         _mm_castps_si128(c), _mm_castps_si128(d));
}

/* An operation as its form on half the lanes, f128 (on the vector types R128, A128, ... of n
 * lanes), on each half: 256-bit vectors as two 128-bit ones, 32-lane conversions as two
 * 16-lane ones. */
#define LOOM_SSE41_PAIR_UNARY(f, R, A, f128, R128, A128, n)                                        \
    LOOM_C_INLINE R f(A a) {                                                                       \
        LOOM_SSE41_SPLIT(A128, n, a, a0, a1);                                                      \
        R128 z0 = f128(a0), z1 = f128(a1);                                                         \
        LOOM_SSE41_JOIN(R, r, z0, z1);                                                             \
        return r;                                                                                  \
    }
#define LOOM_SSE41_PAIR_BINARY(f, R, A, f128, R128, A128, n)                                       \
    LOOM_C_INLINE R f(A a, A b) {                                                                  \
        LOOM_SSE41_SPLIT(A128, n, a, a0, a1);                                                      \
        LOOM_SSE41_SPLIT(A128, n, b, b0, b1);                                                      \
        R128 z0 = f128(a0, b0), z1 = f128(a1, b1);                                                 \
        LOOM_SSE41_JOIN(R, r, z0, z1);                                                             \
        return r;                                                                                  \
    }
#define LOOM_SSE41_PAIR_TERNARY(f, R, A, B, C, f128, R128, A128, B128, C128, n)                    \
    LOOM_C_INLINE R f(A a, B b, C c) {                                                             \
        LOOM_SSE41_SPLIT(A128, n, a, a0, a1);                                                      \
        LOOM_SSE41_SPLIT(B128, n, b, b0, b1);                                                      \
        LOOM_SSE41_SPLIT(C128, n, c, c0, c1);                                                      \
        R128 z0 = f128(a0, b0, c0), z1 = f128(a1, b1, c1);                                         \
        LOOM_SSE41_JOIN(R, r, z0, z1);                                                             \
        return r;                                                                                  \
    }
/* The common cases: loom_<R>_<op> from loom_<R128>_<op>, all arguments of the result's type. */
#define LOOM_SSE41_PAIR_OP1(op, R, R128)                                                           \
    LOOM_SSE41_PAIR_UNARY(loom_##R##_##op, loom_##R, loom_##R, loom_##R128##_##op, loom_##R128,    \
                          loom_##R128, LOOM_SSE41_N_##R128)
#define LOOM_SSE41_PAIR_OP2(op, R, R128)                                                           \
    LOOM_SSE41_PAIR_BINARY(loom_##R##_##op, loom_##R, loom_##R, loom_##R128##_##op, loom_##R128,   \
                           loom_##R128, LOOM_SSE41_N_##R128)

/* Truncations to narrower lanes (the low bits of each lane). PSHUFB gathers the low bytes of
 * one register into its low half; two or four registers' lanes, masked to the narrow width,
 * go through unsigned saturating packs (which then never saturate). */
LOOM_C_INLINE __m128i loom_sse41_trunc_16to8(__m128i x) { /* 8 lanes, in the low 8 bytes */
    return _mm_shuffle_epi8(
        x, _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_32to16(__m128i x) { /* 4 lanes, in the low 8 bytes */
    return _mm_shuffle_epi8(
        x, _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_32to8(__m128i x) { /* 4 lanes, in the low 4 bytes */
    return _mm_shuffle_epi8(
        x, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_16to8_x2(__m128i lo, __m128i hi) { /* 16 lanes */
    __m128i mask = _mm_set1_epi16(0xFF);
    return _mm_packus_epi16(_mm_and_si128(lo, mask), _mm_and_si128(hi, mask));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_32to16_x2(__m128i lo, __m128i hi) { /* 8 lanes */
    __m128i mask = _mm_set1_epi32(0xFFFF);
    return _mm_packus_epi32(_mm_and_si128(lo, mask), _mm_and_si128(hi, mask));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_32to8_x2(__m128i lo, __m128i hi) { /* 8 lanes, low half */
    return _mm_unpacklo_epi32(loom_sse41_trunc_32to8(lo), loom_sse41_trunc_32to8(hi));
}
LOOM_C_INLINE __m128i loom_sse41_trunc_32to8_x4(__m128i a, __m128i b, __m128i c,
                                                __m128i d) { /* 16 lanes */
    __m128i mask = _mm_set1_epi32(0xFF);
    return _mm_packus_epi16(_mm_packus_epi32(_mm_and_si128(a, mask), _mm_and_si128(b, mask)),
                            _mm_packus_epi32(_mm_and_si128(c, mask), _mm_and_si128(d, mask)));
}

/* Float to integer as the x86 scalar conversion: toward zero, in 32 bits. To u32: values from
 * 2^31 on (exact after subtracting 2^31) convert shifted down, then get their top bit back. */
LOOM_C_INLINE __m128i loom_sse41_f32_to_u32(__m128 x) {
    __m128 two31 = _mm_set1_ps(2147483648.0f);
    __m128 big = _mm_cmpge_ps(x, two31);
    __m128i r = _mm_cvttps_epi32(_mm_blendv_ps(x, _mm_sub_ps(x, two31), big));
    return _mm_xor_si128(r, _mm_and_si128(_mm_castps_si128(big), _mm_set1_epi32(INT32_MIN)));
}
/* u32 to float rounded once: the high 16 bits times 2^16 and the low 16 bits are both exact. */
LOOM_C_INLINE __m128 loom_sse41_u32_to_f32(__m128i x) {
    __m128 hi = _mm_cvtepi32_ps(_mm_srli_epi32(x, 16));
    __m128 lo = _mm_cvtepi32_ps(_mm_and_si128(x, _mm_set1_epi32(0xFFFF)));
    return _mm_add_ps(_mm_mul_ps(hi, _mm_set1_ps(65536.0f)), lo);
}

/* Lanes of -1 or 0 to bool lanes (0 or 1), or of their negation: the masks narrowed to bytes
 * by signed saturating packs (-1 stays -1), the bytes masked with 1. And back: bool lanes
 * widened and negated. */
LOOM_C_INLINE __m128i loom_sse41_bool(__m128i m8, int negate) {
    return negate ? _mm_andnot_si128(m8, _mm_set1_epi8(1)) : _mm_and_si128(m8, _mm_set1_epi8(1));
}
LOOM_C_INLINE loom_v8b loom_sse41_v8b_m16(__m128i m, int negate) {
    return (loom_v8b)loom_sse41_v8u8(loom_sse41_bool(_mm_packs_epi16(m, m), negate));
}
LOOM_C_INLINE loom_v4b loom_sse41_v4b_m32(__m128i m, int negate) {
    __m128i w = _mm_packs_epi32(m, m);
    return (loom_v4b)loom_sse41_v4u8(loom_sse41_bool(_mm_packs_epi16(w, w), negate));
}
LOOM_C_INLINE loom_v2b loom_sse41_v2b_m64(__m128i m, int negate) {
    __m128i w = _mm_shuffle_epi8(
        m, _mm_setr_epi8(0, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    return loom_sse41_v2b(loom_sse41_bool(w, negate));
}
/* Two registers of masks: 16 lanes of 16 bits, 8 lanes of 32 bits. */
LOOM_C_INLINE loom_v16b loom_sse41_v16b_m16x2(__m128i lo, __m128i hi, int negate) {
    return (loom_v16b)loom_sse41_bool(_mm_packs_epi16(lo, hi), negate);
}
LOOM_C_INLINE loom_v8b loom_sse41_v8b_m32x2(__m128i lo, __m128i hi, int negate) {
    __m128i w = _mm_packs_epi32(lo, hi);
    return (loom_v8b)loom_sse41_v8u8(loom_sse41_bool(_mm_packs_epi16(w, w), negate));
}
/* 4 lanes of 64 bits: packed, each lane's halves give one 32-bit mask. */
LOOM_C_INLINE loom_v4b loom_sse41_v4b_m64x2(__m128i lo, __m128i hi, int negate) {
    return loom_sse41_v4b_m32(_mm_packs_epi32(lo, hi), negate);
}
LOOM_C_INLINE __m128i loom_sse41_neg8(__m128i x) { return _mm_sub_epi8(_mm_setzero_si128(), x); }
LOOM_C_INLINE __m128i loom_sse41_m16_v8b(loom_v8b m) {
    return _mm_sub_epi16(_mm_setzero_si128(), _mm_cvtepu8_epi16(LOOM_SSE41_LO64(m)));
}
LOOM_C_INLINE __m128i loom_sse41_m32_v4b(loom_v4b m) {
    return _mm_sub_epi32(_mm_setzero_si128(), _mm_cvtepu8_epi32(loom_sse41_lo32(&m)));
}
LOOM_C_INLINE __m128i loom_sse41_m64_v2b(loom_v2b m) {
    return _mm_sub_epi64(_mm_setzero_si128(), _mm_cvtepu8_epi64(loom_sse41_lo16(&m)));
}

/* f(a) or f(a, b): expr on a and b as the intrinsic type I, the result cast back to R. */
#define LOOM_SSE41_UNARY(f, R, A, I, expr)                                                         \
    LOOM_C_INLINE R f(A a_) {                                                                      \
        I a = (I)a_;                                                                               \
        return (R)(expr);                                                                          \
    }
#define LOOM_SSE41_BINARY(f, R, A, I, expr)                                                        \
    LOOM_C_INLINE R f(A a_, A b_) {                                                                \
        I a = (I)a_, b = (I)b_;                                                                    \
        return (R)(expr);                                                                          \
    }

/* ---- Broadcasts and ramps ---- */
/* Made in registers: without AVX, GCC builds 256-bit vectors of the generic forms in memory and
 * reloads them in halves, a stall each time. */
#define LOOM_SSE41_BROADCAST(R, t, ct, I, set1, join)                                              \
    LOOM_C_INLINE loom_##R loom_##R##_broadcast_##t(ct a) {                                        \
        I h = set1(a);                                                                             \
        return (loom_##R)join(h, h);                                                               \
    }
#define loom_sse41_set1_8(a) _mm_set1_epi8((char)(a))
#define loom_sse41_set1_16(a) _mm_set1_epi16((short)(a))
#define loom_sse41_set1_32(a) _mm_set1_epi32((int)(a))
#define LOOM_HAVE_loom_v32u8_broadcast_u8 1
#define LOOM_HAVE_loom_v32i8_broadcast_i8 1
#define LOOM_HAVE_loom_v16u16_broadcast_u16 1
#define LOOM_HAVE_loom_v16i16_broadcast_i16 1
#define LOOM_HAVE_loom_v8u32_broadcast_u32 1
#define LOOM_HAVE_loom_v8i32_broadcast_i32 1
#define LOOM_HAVE_loom_v8f32_broadcast_f32 1
LOOM_SSE41_BROADCAST(v32u8, u8, uint8_t, __m128i, loom_sse41_set1_8, loom_sse41_join)
LOOM_SSE41_BROADCAST(v32i8, i8, int8_t, __m128i, loom_sse41_set1_8, loom_sse41_join)
LOOM_SSE41_BROADCAST(v16u16, u16, uint16_t, __m128i, loom_sse41_set1_16, loom_sse41_join)
LOOM_SSE41_BROADCAST(v16i16, i16, int16_t, __m128i, loom_sse41_set1_16, loom_sse41_join)
LOOM_SSE41_BROADCAST(v8u32, u32, uint32_t, __m128i, loom_sse41_set1_32, loom_sse41_join)
LOOM_SSE41_BROADCAST(v8i32, i32, int32_t, __m128i, loom_sse41_set1_32, loom_sse41_join)
LOOM_SSE41_BROADCAST(v8f32, f32, float, __m128, _mm_set1_ps, loom_sse41_joinps)
/* i32 ramps, base + stride * lane (wrapping, as the default's int32 arithmetic where it is
 * defined): the first 4 lanes by one multiplication, each next 4 adding 4 * stride. */
LOOM_C_INLINE __m128i loom_sse41_ramp(int32_t base, int32_t stride, __m128i *step) {
    __m128i s = _mm_set1_epi32(stride);
    *step = _mm_slli_epi32(s, 2);
    return _mm_add_epi32(_mm_set1_epi32(base), _mm_mullo_epi32(s, _mm_setr_epi32(0, 1, 2, 3)));
}
#define LOOM_HAVE_loom_v4i32_ramp_i32 1
#define LOOM_HAVE_loom_v8i32_ramp_i32 1
#define LOOM_HAVE_loom_v16i32_ramp_i32 1
LOOM_C_INLINE loom_v4i32 loom_v4i32_ramp_i32(int32_t base, int32_t stride) {
    __m128i step;
    return (loom_v4i32)loom_sse41_ramp(base, stride, &step);
}
LOOM_C_INLINE loom_v8i32 loom_v8i32_ramp_i32(int32_t base, int32_t stride) {
    __m128i step, r = loom_sse41_ramp(base, stride, &step);
    return loom_sse41_join(r, _mm_add_epi32(r, step));
}
LOOM_C_INLINE loom_v16i32 loom_v16i32_ramp_i32(int32_t base, int32_t stride) {
    __m128i step, r0 = loom_sse41_ramp(base, stride, &step);
    __m128i r1 = _mm_add_epi32(r0, step), r2 = _mm_add_epi32(r1, step);
    return loom_sse41_join4(r0, r1, r2, _mm_add_epi32(r2, step));
}

/* ---- Integers ---- */
/* min, max, saturating add and subtract, averages, absd and abs of 8- and 16-bit lanes (B).
 * Signed averages are the unsigned ones (PAVGB, PAVGW) of values biased by 2^(B-1);
 * halving_add is the rounding average less the low bit of a + b. absd is the difference of
 * max and min, in wrapping arithmetic. */
#define LOOM_SSE41_INT_U(tag, B)                                                                   \
    LOOM_SSE41_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m128i, _mm_min_epu##B(a, b))     \
    LOOM_SSE41_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m128i, _mm_max_epu##B(a, b))     \
    LOOM_SSE41_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m128i,                \
                      _mm_adds_epu##B(a, b))                                                       \
    LOOM_SSE41_BINARY(loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m128i,                \
                      _mm_subs_epu##B(a, b))                                                       \
    LOOM_SSE41_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m128i,          \
                      _mm_avg_epu##B(a, b))                                                        \
    LOOM_SSE41_BINARY(loom_##tag##_halving_add, loom_##tag, loom_##tag, __m128i,                   \
                      _mm_sub_epi##B(_mm_avg_epu##B(a, b),                                         \
                                     _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi##B(1))))      \
    LOOM_SSE41_BINARY(loom_##tag##_absd, loom_##tag, loom_##tag, __m128i,                          \
                      _mm_or_si128(_mm_subs_epu##B(a, b), _mm_subs_epu##B(b, a)))
#define LOOM_SSE41_INT_S(tag, utag, B, bias)                                                       \
    LOOM_SSE41_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m128i, _mm_min_epi##B(a, b))     \
    LOOM_SSE41_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m128i, _mm_max_epi##B(a, b))     \
    LOOM_SSE41_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m128i,                \
                      _mm_adds_epi##B(a, b))                                                       \
    LOOM_SSE41_BINARY(loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m128i,                \
                      _mm_subs_epi##B(a, b))                                                       \
    LOOM_SSE41_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m128i,          \
                      _mm_xor_si128(_mm_avg_epu##B(_mm_xor_si128(a, _mm_set1_epi##B(bias)),        \
                                                   _mm_xor_si128(b, _mm_set1_epi##B(bias))),       \
                                    _mm_set1_epi##B(bias)))                                        \
    LOOM_SSE41_BINARY(                                                                             \
        loom_##tag##_halving_add, loom_##tag, loom_##tag, __m128i,                                 \
        _mm_sub_epi##B(_mm_xor_si128(_mm_avg_epu##B(_mm_xor_si128(a, _mm_set1_epi##B(bias)),       \
                                                    _mm_xor_si128(b, _mm_set1_epi##B(bias))),      \
                                     _mm_set1_epi##B(bias)),                                       \
                       _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi##B(1))))                    \
    LOOM_SSE41_BINARY(loom_##utag##_absd_##tag, loom_##utag, loom_##tag, __m128i,                  \
                      _mm_sub_epi##B(_mm_max_epi##B(a, b), _mm_min_epi##B(a, b)))                  \
    LOOM_SSE41_UNARY(loom_##utag##_abs_##tag, loom_##utag, loom_##tag, __m128i, _mm_abs_epi##B(a))

#define LOOM_HAVE_loom_v16u8_min 1
#define LOOM_HAVE_loom_v16u8_max 1
#define LOOM_HAVE_loom_v16u8_saturating_add 1
#define LOOM_HAVE_loom_v16u8_saturating_sub 1
#define LOOM_HAVE_loom_v16u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u8_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd 1
LOOM_SSE41_INT_U(v16u8, 8)
#define LOOM_HAVE_loom_v8u16_min 1
#define LOOM_HAVE_loom_v8u16_max 1
#define LOOM_HAVE_loom_v8u16_saturating_add 1
#define LOOM_HAVE_loom_v8u16_saturating_sub 1
#define LOOM_HAVE_loom_v8u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u16_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd 1
LOOM_SSE41_INT_U(v8u16, 16)
#define LOOM_HAVE_loom_v16i8_min 1
#define LOOM_HAVE_loom_v16i8_max 1
#define LOOM_HAVE_loom_v16i8_saturating_add 1
#define LOOM_HAVE_loom_v16i8_saturating_sub 1
#define LOOM_HAVE_loom_v16i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16i8_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd_v16i8 1
#define LOOM_HAVE_loom_v16u8_abs_v16i8 1
LOOM_SSE41_INT_S(v16i8, v16u8, 8, -128)
#define LOOM_HAVE_loom_v8i16_min 1
#define LOOM_HAVE_loom_v8i16_max 1
#define LOOM_HAVE_loom_v8i16_saturating_add 1
#define LOOM_HAVE_loom_v8i16_saturating_sub 1
#define LOOM_HAVE_loom_v8i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8i16_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd_v8i16 1
#define LOOM_HAVE_loom_v8u16_abs_v8i16 1
LOOM_SSE41_INT_S(v8i16, v8u16, 16, -32768)

/* 8 lanes of 8 bits: the 16-lane operation on the low half. */
#define LOOM_SSE41_HALF_BINARY(f, R, A, f16, A16)                                                  \
    LOOM_C_INLINE R f(A a, A b) {                                                                  \
        return (R)loom_sse41_v8u8((__m128i)f16((A16)LOOM_SSE41_LO64(a), (A16)LOOM_SSE41_LO64(b))); \
    }
#define LOOM_SSE41_HALF_UNARY(f, R, A, f16, A16)                                                   \
    LOOM_C_INLINE R f(A a) { return (R)loom_sse41_v8u8((__m128i)f16((A16)LOOM_SSE41_LO64(a))); }
#define LOOM_SSE41_HALF_INT(op, R, R16)                                                            \
    LOOM_SSE41_HALF_BINARY(loom_##R##_##op, loom_##R, loom_##R, loom_##R16##_##op, loom_##R16)
#define LOOM_HAVE_loom_v8u8_min 1
#define LOOM_HAVE_loom_v8u8_max 1
#define LOOM_HAVE_loom_v8u8_saturating_add 1
#define LOOM_HAVE_loom_v8u8_saturating_sub 1
#define LOOM_HAVE_loom_v8u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u8_halving_add 1
#define LOOM_HAVE_loom_v8u8_absd 1
#define LOOM_HAVE_loom_v8i8_min 1
#define LOOM_HAVE_loom_v8i8_max 1
#define LOOM_HAVE_loom_v8i8_saturating_add 1
#define LOOM_HAVE_loom_v8i8_saturating_sub 1
#define LOOM_HAVE_loom_v8i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v8i8_halving_add 1
#define LOOM_HAVE_loom_v8u8_absd_v8i8 1
#define LOOM_HAVE_loom_v8u8_abs_v8i8 1
LOOM_SSE41_HALF_INT(min, v8u8, v16u8)
LOOM_SSE41_HALF_INT(max, v8u8, v16u8)
LOOM_SSE41_HALF_INT(saturating_add, v8u8, v16u8)
LOOM_SSE41_HALF_INT(saturating_sub, v8u8, v16u8)
LOOM_SSE41_HALF_INT(rounding_halving_add, v8u8, v16u8)
LOOM_SSE41_HALF_INT(halving_add, v8u8, v16u8)
LOOM_SSE41_HALF_INT(absd, v8u8, v16u8)
LOOM_SSE41_HALF_INT(min, v8i8, v16i8)
LOOM_SSE41_HALF_INT(max, v8i8, v16i8)
LOOM_SSE41_HALF_INT(saturating_add, v8i8, v16i8)
LOOM_SSE41_HALF_INT(saturating_sub, v8i8, v16i8)
LOOM_SSE41_HALF_INT(rounding_halving_add, v8i8, v16i8)
LOOM_SSE41_HALF_INT(halving_add, v8i8, v16i8)
LOOM_SSE41_HALF_BINARY(loom_v8u8_absd_v8i8, loom_v8u8, loom_v8i8, loom_v16u8_absd_v16i8, loom_v16i8)
LOOM_SSE41_HALF_UNARY(loom_v8u8_abs_v8i8, loom_v8u8, loom_v8i8, loom_v16u8_abs_v16i8, loom_v16i8)

/* 32 lanes of 8 bits and 16 lanes of 16 bits: the 128-bit operations on each half. */
#define LOOM_SSE41_PAIR_INT_U(R, R128)                                                             \
    LOOM_SSE41_PAIR_OP2(min, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(max, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(saturating_add, R, R128)                                                   \
    LOOM_SSE41_PAIR_OP2(saturating_sub, R, R128)                                                   \
    LOOM_SSE41_PAIR_OP2(rounding_halving_add, R, R128)                                             \
    LOOM_SSE41_PAIR_OP2(halving_add, R, R128)                                                      \
    LOOM_SSE41_PAIR_OP2(absd, R, R128)
#define LOOM_SSE41_PAIR_INT_S(R, U, R128, U128)                                                    \
    LOOM_SSE41_PAIR_OP2(min, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(max, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(saturating_add, R, R128)                                                   \
    LOOM_SSE41_PAIR_OP2(saturating_sub, R, R128)                                                   \
    LOOM_SSE41_PAIR_OP2(rounding_halving_add, R, R128)                                             \
    LOOM_SSE41_PAIR_OP2(halving_add, R, R128)                                                      \
    LOOM_SSE41_PAIR_BINARY(loom_##U##_absd_##R, loom_##U, loom_##R, loom_##U128##_absd_##R128,     \
                           loom_##U128, loom_##R128, LOOM_SSE41_N_##R128)                          \
    LOOM_SSE41_PAIR_UNARY(loom_##U##_abs_##R, loom_##U, loom_##R, loom_##U128##_abs_##R128,        \
                          loom_##U128, loom_##R128, LOOM_SSE41_N_##R128)
#define LOOM_HAVE_loom_v32u8_min 1
#define LOOM_HAVE_loom_v32u8_max 1
#define LOOM_HAVE_loom_v32u8_saturating_add 1
#define LOOM_HAVE_loom_v32u8_saturating_sub 1
#define LOOM_HAVE_loom_v32u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v32u8_halving_add 1
#define LOOM_HAVE_loom_v32u8_absd 1
LOOM_SSE41_PAIR_INT_U(v32u8, v16u8)
#define LOOM_HAVE_loom_v16u16_min 1
#define LOOM_HAVE_loom_v16u16_max 1
#define LOOM_HAVE_loom_v16u16_saturating_add 1
#define LOOM_HAVE_loom_v16u16_saturating_sub 1
#define LOOM_HAVE_loom_v16u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u16_halving_add 1
#define LOOM_HAVE_loom_v16u16_absd 1
LOOM_SSE41_PAIR_INT_U(v16u16, v8u16)
#define LOOM_HAVE_loom_v32i8_min 1
#define LOOM_HAVE_loom_v32i8_max 1
#define LOOM_HAVE_loom_v32i8_saturating_add 1
#define LOOM_HAVE_loom_v32i8_saturating_sub 1
#define LOOM_HAVE_loom_v32i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v32i8_halving_add 1
#define LOOM_HAVE_loom_v32u8_absd_v32i8 1
#define LOOM_HAVE_loom_v32u8_abs_v32i8 1
LOOM_SSE41_PAIR_INT_S(v32i8, v32u8, v16i8, v16u8)
#define LOOM_HAVE_loom_v16i16_min 1
#define LOOM_HAVE_loom_v16i16_max 1
#define LOOM_HAVE_loom_v16i16_saturating_add 1
#define LOOM_HAVE_loom_v16i16_saturating_sub 1
#define LOOM_HAVE_loom_v16i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v16i16_halving_add 1
#define LOOM_HAVE_loom_v16u16_absd_v16i16 1
#define LOOM_HAVE_loom_v16u16_abs_v16i16 1
LOOM_SSE41_PAIR_INT_S(v16i16, v16u16, v8i16, v8u16)

/* 32-bit lanes. u32: a + min(b, ~a) and a - min(a, b) saturate; i32: the wrapped result where
 * the operands' and result's signs show no overflow, else the bound of a's sign (a blend by
 * the sign bit, BLENDVPS). Halving additions: (a >> 1) + (b >> 1) plus the carry of the low
 * bits (a & b, or a | b rounding). */
#define loom_sse41_blend32(a, b, m)                                                                \
    _mm_castps_si128(_mm_blendv_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _mm_castsi128_ps(m)))
/* x shifted by each lane's own amount n (read as unsigned: from 32 on, 0 or the sign): SSE
 * shifts a register by one amount, so four shifts by one lane's amount each, blended. */
#define LOOM_SSE41_SHIFTV(name, shift)                                                             \
    LOOM_C_INLINE __m128i name(__m128i x, __m128i n) {                                             \
        __m128i z = _mm_setzero_si128();                                                           \
        __m128i r0 = shift(x, _mm_blend_epi16(z, n, 0x03));                                        \
        __m128i r1 = shift(x, _mm_srli_epi64(n, 32));                                              \
        __m128i r2 = shift(x, _mm_unpackhi_epi32(n, z));                                           \
        __m128i r3 = shift(x, _mm_srli_si128(n, 12));                                              \
        return _mm_blend_epi16(_mm_blend_epi16(r0, r1, 0x0C), _mm_blend_epi16(r2, r3, 0xC0),       \
                               0xF0);                                                              \
    }
LOOM_SSE41_SHIFTV(loom_sse41_sllv, _mm_sll_epi32)
LOOM_SSE41_SHIFTV(loom_sse41_srlv, _mm_srl_epi32)
LOOM_SSE41_SHIFTV(loom_sse41_srav, _mm_sra_epi32)
#define LOOM_SSE41_INT32(tag, utag)                                                                \
    LOOM_SSE41_BINARY(                                                                             \
        loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m128i,                              \
        loom_sse41_blend32(_mm_add_epi32(a, b),                                                    \
                           _mm_xor_si128(_mm_srai_epi32(a, 31), _mm_set1_epi32(0x7FFFFFFF)),       \
                           _mm_and_si128(_mm_xor_si128(a, _mm_add_epi32(a, b)),                    \
                                         _mm_xor_si128(b, _mm_add_epi32(a, b)))))                  \
    LOOM_SSE41_BINARY(                                                                             \
        loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m128i,                              \
        loom_sse41_blend32(                                                                        \
            _mm_sub_epi32(a, b), _mm_xor_si128(_mm_srai_epi32(a, 31), _mm_set1_epi32(0x7FFFFFFF)), \
            _mm_and_si128(_mm_xor_si128(a, b), _mm_xor_si128(a, _mm_sub_epi32(a, b)))))            \
    LOOM_SSE41_BINARY(loom_##utag##_saturating_add, loom_##utag, loom_##utag, __m128i,             \
                      _mm_add_epi32(a, _mm_min_epu32(b, _mm_xor_si128(a, _mm_set1_epi32(-1)))))    \
    LOOM_SSE41_BINARY(loom_##utag##_saturating_sub, loom_##utag, loom_##utag, __m128i,             \
                      _mm_sub_epi32(a, _mm_min_epu32(a, b)))                                       \
    LOOM_SSE41_BINARY(loom_##tag##_halving_add, loom_##tag, loom_##tag, __m128i,                   \
                      _mm_add_epi32(_mm_add_epi32(_mm_srai_epi32(a, 1), _mm_srai_epi32(b, 1)),     \
                                    _mm_and_si128(_mm_and_si128(a, b), _mm_set1_epi32(1))))        \
    LOOM_SSE41_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m128i,          \
                      _mm_add_epi32(_mm_add_epi32(_mm_srai_epi32(a, 1), _mm_srai_epi32(b, 1)),     \
                                    _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi32(1))))         \
    LOOM_SSE41_BINARY(loom_##utag##_halving_add, loom_##utag, loom_##utag, __m128i,                \
                      _mm_add_epi32(_mm_add_epi32(_mm_srli_epi32(a, 1), _mm_srli_epi32(b, 1)),     \
                                    _mm_and_si128(_mm_and_si128(a, b), _mm_set1_epi32(1))))        \
    LOOM_SSE41_BINARY(loom_##utag##_rounding_halving_add, loom_##utag, loom_##utag, __m128i,       \
                      _mm_add_epi32(_mm_add_epi32(_mm_srli_epi32(a, 1), _mm_srli_epi32(b, 1)),     \
                                    _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi32(1))))         \
    LOOM_SSE41_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m128i, _mm_min_epi32(a, b))      \
    LOOM_SSE41_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m128i, _mm_max_epi32(a, b))      \
    LOOM_SSE41_BINARY(loom_##utag##_min, loom_##utag, loom_##utag, __m128i, _mm_min_epu32(a, b))   \
    LOOM_SSE41_BINARY(loom_##utag##_max, loom_##utag, loom_##utag, __m128i, _mm_max_epu32(a, b))   \
    LOOM_SSE41_BINARY(loom_##utag##_absd_##tag, loom_##utag, loom_##tag, __m128i,                  \
                      _mm_sub_epi32(_mm_max_epi32(a, b), _mm_min_epi32(a, b)))                     \
    LOOM_SSE41_BINARY(loom_##utag##_absd, loom_##utag, loom_##utag, __m128i,                       \
                      _mm_sub_epi32(_mm_max_epu32(a, b), _mm_min_epu32(a, b)))                     \
    LOOM_SSE41_UNARY(loom_##utag##_abs_##tag, loom_##utag, loom_##tag, __m128i, _mm_abs_epi32(a))  \
    /* Halide's shifts: a negative amount shifts the other way; from 32 on, 0 or the sign. */      \
    LOOM_SSE41_BINARY(loom_##tag##_shift_left, loom_##tag, loom_##tag, __m128i,                    \
                      loom_sse41_blend32(loom_sse41_sllv(a, _mm_abs_epi32(b)),                     \
                                         loom_sse41_srav(a, _mm_abs_epi32(b)), b))                 \
    LOOM_SSE41_BINARY(loom_##tag##_shift_right, loom_##tag, loom_##tag, __m128i,                   \
                      loom_sse41_blend32(loom_sse41_srav(a, _mm_abs_epi32(b)),                     \
                                         loom_sse41_sllv(a, _mm_abs_epi32(b)), b))                 \
    LOOM_SSE41_BINARY(loom_##utag##_shift_left, loom_##utag, loom_##utag, __m128i,                 \
                      loom_sse41_sllv(a, b))                                                       \
    LOOM_SSE41_BINARY(loom_##utag##_shift_right, loom_##utag, loom_##utag, __m128i,                \
                      loom_sse41_srlv(a, b))
#define LOOM_HAVE_loom_v4i32_saturating_add 1
#define LOOM_HAVE_loom_v4i32_saturating_sub 1
#define LOOM_HAVE_loom_v4u32_saturating_add 1
#define LOOM_HAVE_loom_v4u32_saturating_sub 1
#define LOOM_HAVE_loom_v4i32_halving_add 1
#define LOOM_HAVE_loom_v4i32_rounding_halving_add 1
#define LOOM_HAVE_loom_v4u32_halving_add 1
#define LOOM_HAVE_loom_v4u32_rounding_halving_add 1
#define LOOM_HAVE_loom_v4i32_min 1
#define LOOM_HAVE_loom_v4i32_max 1
#define LOOM_HAVE_loom_v4u32_min 1
#define LOOM_HAVE_loom_v4u32_max 1
#define LOOM_HAVE_loom_v4u32_absd_v4i32 1
#define LOOM_HAVE_loom_v4u32_absd 1
#define LOOM_HAVE_loom_v4u32_abs_v4i32 1
#define LOOM_HAVE_loom_v4i32_shift_left 1
#define LOOM_HAVE_loom_v4i32_shift_right 1
#define LOOM_HAVE_loom_v4u32_shift_left 1
#define LOOM_HAVE_loom_v4u32_shift_right 1
LOOM_SSE41_INT32(v4i32, v4u32)
/* 8 lanes of 32 bits: each half. */
#define LOOM_HAVE_loom_v8i32_saturating_add 1
#define LOOM_HAVE_loom_v8i32_saturating_sub 1
#define LOOM_HAVE_loom_v8u32_saturating_add 1
#define LOOM_HAVE_loom_v8u32_saturating_sub 1
#define LOOM_HAVE_loom_v8i32_halving_add 1
#define LOOM_HAVE_loom_v8i32_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u32_halving_add 1
#define LOOM_HAVE_loom_v8u32_rounding_halving_add 1
#define LOOM_HAVE_loom_v8i32_min 1
#define LOOM_HAVE_loom_v8i32_max 1
#define LOOM_HAVE_loom_v8u32_min 1
#define LOOM_HAVE_loom_v8u32_max 1
#define LOOM_HAVE_loom_v8u32_absd_v8i32 1
#define LOOM_HAVE_loom_v8u32_absd 1
#define LOOM_HAVE_loom_v8u32_abs_v8i32 1
#define LOOM_HAVE_loom_v8i32_shift_left 1
#define LOOM_HAVE_loom_v8i32_shift_right 1
#define LOOM_HAVE_loom_v8u32_shift_left 1
#define LOOM_HAVE_loom_v8u32_shift_right 1
LOOM_SSE41_PAIR_INT_S(v8i32, v8u32, v4i32, v4u32)
LOOM_SSE41_PAIR_OP2(absd, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(saturating_add, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(saturating_sub, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(halving_add, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(rounding_halving_add, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(min, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(max, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(shift_left, v8i32, v4i32)
LOOM_SSE41_PAIR_OP2(shift_right, v8i32, v4i32)
LOOM_SSE41_PAIR_OP2(shift_left, v8u32, v4u32)
LOOM_SSE41_PAIR_OP2(shift_right, v8u32, v4u32)

/* lerp of u8 lanes by a u8 weight, in 16-bit lanes: zero * (255 - w) + one * w + 128 is at
 * most 255 * 255 + 128, and adding it shifted right by 8 stays below 2^16. i8 lanes are u8
 * lanes biased by 128. */
LOOM_C_INLINE __m128i loom_sse41_lerp16(__m128i z, __m128i o, __m128i w) { /* 8 lanes */
    __m128i p =
        _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(z, _mm_sub_epi16(_mm_set1_epi16(255), w)),
                                    _mm_mullo_epi16(o, w)),
                      _mm_set1_epi16(128));
    return _mm_srli_epi16(_mm_add_epi16(_mm_srli_epi16(p, 8), p), 8);
}
LOOM_C_INLINE __m128i loom_sse41_lerp_u8_x8(__m128i z, __m128i o, __m128i w) { /* low 8 */
    __m128i r = loom_sse41_lerp16(_mm_cvtepu8_epi16(z), _mm_cvtepu8_epi16(o), _mm_cvtepu8_epi16(w));
    return _mm_packus_epi16(r, r);
}
LOOM_C_INLINE __m128i loom_sse41_lerp_u8_x16(__m128i z, __m128i o, __m128i w) {
    __m128i k = _mm_setzero_si128();
    __m128i lo =
        loom_sse41_lerp16(_mm_cvtepu8_epi16(z), _mm_cvtepu8_epi16(o), _mm_cvtepu8_epi16(w));
    __m128i hi = loom_sse41_lerp16(_mm_unpackhi_epi8(z, k), _mm_unpackhi_epi8(o, k),
                                   _mm_unpackhi_epi8(w, k));
    return _mm_packus_epi16(lo, hi);
}
#define LOOM_HAVE_loom_v16u8_lerp 1
#define LOOM_HAVE_loom_v16i8_lerp_v16i8_v16i8_v16u8 1
#define LOOM_HAVE_loom_v8u8_lerp 1
#define LOOM_HAVE_loom_v8i8_lerp_v8i8_v8i8_v8u8 1
#define LOOM_HAVE_loom_v32u8_lerp 1
#define LOOM_HAVE_loom_v32i8_lerp_v32i8_v32i8_v32u8 1
LOOM_C_INLINE loom_v16u8 loom_v16u8_lerp(loom_v16u8 z, loom_v16u8 o, loom_v16u8 w) {
    return (loom_v16u8)loom_sse41_lerp_u8_x16((__m128i)z, (__m128i)o, (__m128i)w);
}
LOOM_C_INLINE loom_v16i8 loom_v16i8_lerp_v16i8_v16i8_v16u8(loom_v16i8 z, loom_v16i8 o,
                                                           loom_v16u8 w) {
    __m128i bias = _mm_set1_epi8(-128);
    return (loom_v16i8)_mm_xor_si128(loom_sse41_lerp_u8_x16(_mm_xor_si128((__m128i)z, bias),
                                                            _mm_xor_si128((__m128i)o, bias),
                                                            (__m128i)w),
                                     bias);
}
LOOM_C_INLINE loom_v8u8 loom_v8u8_lerp(loom_v8u8 z, loom_v8u8 o, loom_v8u8 w) {
    return loom_sse41_v8u8(
        loom_sse41_lerp_u8_x8(LOOM_SSE41_LO64(z), LOOM_SSE41_LO64(o), LOOM_SSE41_LO64(w)));
}
LOOM_C_INLINE loom_v8i8 loom_v8i8_lerp_v8i8_v8i8_v8u8(loom_v8i8 z, loom_v8i8 o, loom_v8u8 w) {
    __m128i bias = _mm_set1_epi8(-128);
    return (loom_v8i8)loom_sse41_v8u8(_mm_xor_si128(
        loom_sse41_lerp_u8_x8(_mm_xor_si128(LOOM_SSE41_LO64(z), bias),
                              _mm_xor_si128(LOOM_SSE41_LO64(o), bias), LOOM_SSE41_LO64(w)),
        bias));
}
LOOM_SSE41_PAIR_TERNARY(loom_v32u8_lerp, loom_v32u8, loom_v32u8, loom_v32u8, loom_v32u8,
                        loom_v16u8_lerp, loom_v16u8, loom_v16u8, loom_v16u8, loom_v16u8, 16)
LOOM_SSE41_PAIR_TERNARY(loom_v32i8_lerp_v32i8_v32i8_v32u8, loom_v32i8, loom_v32i8, loom_v32i8,
                        loom_v32u8, loom_v16i8_lerp_v16i8_v16i8_v16u8, loom_v16i8, loom_v16i8,
                        loom_v16i8, loom_v16u8, 16)

/* (rounding_)mul_shift_right of 16-bit lanes: the exact product in 32 bits (PMULLW and
 * PMULHW / PMULHUW interleaved; plus half the divisor, wrapping), shifted by q read as
 * unsigned and at most 31, saturated to 16 bits. A shift of 16 everywhere is PMULHUW /
 * PMULHW; a rounding shift of 15 of i16 is PMULHRSW, but for -32768 * -32768, where it wraps
 * instead of saturating. One amount in every lane (the usual constant) shifts whole
 * registers; otherwise each lane by its own (loom_sse41_srlv). */
LOOM_C_INLINE int loom_sse41_all16(__m128i q, int v) {
    return _mm_movemask_epi8(_mm_cmpeq_epi16(q, _mm_set1_epi16((short)v))) == 0xFFFF;
}
/* p (two registers of 32-bit products) shifted right by q, rounding or not, logically or
 * arithmetically. */
LOOM_C_INLINE void loom_sse41_msr_shift(__m128i *p, __m128i q, int rounding, int arithmetic) {
    int s = _mm_extract_epi16(q, 0);
    if (loom_sse41_all16(q, s)) {
        __m128i n;
        if (s > 31) s = 31;
        n = _mm_cvtsi32_si128(s);
        if (rounding) {
            __m128i half = _mm_set1_epi32((int32_t)((1u << s) >> 1));
            p[0] = _mm_add_epi32(p[0], half);
            p[1] = _mm_add_epi32(p[1], half);
        }
        p[0] = arithmetic ? _mm_sra_epi32(p[0], n) : _mm_srl_epi32(p[0], n);
        p[1] = arithmetic ? _mm_sra_epi32(p[1], n) : _mm_srl_epi32(p[1], n);
    } else {
        __m128i max = _mm_set1_epi32(31), one = _mm_set1_epi32(1);
        __m128i n0 = _mm_min_epu32(_mm_cvtepu16_epi32(q), max);
        __m128i n1 = _mm_min_epu32(_mm_unpackhi_epi16(q, _mm_setzero_si128()), max);
        if (rounding) {
            p[0] = _mm_add_epi32(p[0], _mm_srli_epi32(loom_sse41_sllv(one, n0), 1));
            p[1] = _mm_add_epi32(p[1], _mm_srli_epi32(loom_sse41_sllv(one, n1), 1));
        }
        p[0] = arithmetic ? loom_sse41_srav(p[0], n0) : loom_sse41_srlv(p[0], n0);
        p[1] = arithmetic ? loom_sse41_srav(p[1], n1) : loom_sse41_srlv(p[1], n1);
    }
}
LOOM_C_INLINE __m128i loom_sse41_msr_u16(__m128i a, __m128i b, __m128i q, int rounding) {
    __m128i lo, hi, p[2], max = _mm_set1_epi32(0xFFFF);
    if (!rounding && loom_sse41_all16(q, 16)) return _mm_mulhi_epu16(a, b);
    lo = _mm_mullo_epi16(a, b);
    hi = _mm_mulhi_epu16(a, b);
    p[0] = _mm_unpacklo_epi16(lo, hi);
    p[1] = _mm_unpackhi_epi16(lo, hi);
    loom_sse41_msr_shift(p, q, rounding, 0);
    return _mm_packus_epi32(_mm_min_epu32(p[0], max), _mm_min_epu32(p[1], max));
}
LOOM_C_INLINE __m128i loom_sse41_msr_i16(__m128i a, __m128i b, __m128i q, int rounding) {
    __m128i lo, hi, p[2];
    if (!rounding && loom_sse41_all16(q, 16)) return _mm_mulhi_epi16(a, b);
    if (rounding && loom_sse41_all16(q, 15)) {
        __m128i m = _mm_set1_epi16(-32768);
        return _mm_xor_si128(_mm_mulhrs_epi16(a, b),
                             _mm_and_si128(_mm_cmpeq_epi16(a, m), _mm_cmpeq_epi16(b, m)));
    }
    lo = _mm_mullo_epi16(a, b);
    hi = _mm_mulhi_epi16(a, b);
    p[0] = _mm_unpacklo_epi16(lo, hi);
    p[1] = _mm_unpackhi_epi16(lo, hi);
    loom_sse41_msr_shift(p, q, rounding, 1);
    return _mm_packs_epi32(p[0], p[1]);
}
#define LOOM_SSE41_MSR(f, T, Q, impl, rounding)                                                    \
    LOOM_C_INLINE loom_##T f(loom_##T a, loom_##T b, loom_##Q q) {                                 \
        return (loom_##T)impl((__m128i)a, (__m128i)b, (__m128i)q, rounding);                       \
    }
#define LOOM_HAVE_loom_v8u16_mul_shift_right 1
#define LOOM_HAVE_loom_v8u16_rounding_mul_shift_right 1
#define LOOM_HAVE_loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_HAVE_loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_HAVE_loom_v16u16_mul_shift_right 1
#define LOOM_HAVE_loom_v16u16_rounding_mul_shift_right 1
#define LOOM_HAVE_loom_v16i16_mul_shift_right_v16i16_v16i16_v16u16 1
#define LOOM_HAVE_loom_v16i16_rounding_mul_shift_right_v16i16_v16i16_v16u16 1
LOOM_SSE41_MSR(loom_v8u16_mul_shift_right, v8u16, v8u16, loom_sse41_msr_u16, 0)
LOOM_SSE41_MSR(loom_v8u16_rounding_mul_shift_right, v8u16, v8u16, loom_sse41_msr_u16, 1)
LOOM_SSE41_MSR(loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16, v8i16, v8u16, loom_sse41_msr_i16, 0)
LOOM_SSE41_MSR(loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16, v8i16, v8u16,
               loom_sse41_msr_i16, 1)
LOOM_SSE41_PAIR_TERNARY(loom_v16u16_mul_shift_right, loom_v16u16, loom_v16u16, loom_v16u16,
                        loom_v16u16, loom_v8u16_mul_shift_right, loom_v8u16, loom_v8u16, loom_v8u16,
                        loom_v8u16, 8)
LOOM_SSE41_PAIR_TERNARY(loom_v16u16_rounding_mul_shift_right, loom_v16u16, loom_v16u16, loom_v16u16,
                        loom_v16u16, loom_v8u16_rounding_mul_shift_right, loom_v8u16, loom_v8u16,
                        loom_v8u16, loom_v8u16, 8)
LOOM_SSE41_PAIR_TERNARY(loom_v16i16_mul_shift_right_v16i16_v16i16_v16u16, loom_v16i16, loom_v16i16,
                        loom_v16i16, loom_v16u16, loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16,
                        loom_v8i16, loom_v8i16, loom_v8i16, loom_v8u16, 8)
LOOM_SSE41_PAIR_TERNARY(loom_v16i16_rounding_mul_shift_right_v16i16_v16i16_v16u16, loom_v16i16,
                        loom_v16i16, loom_v16i16, loom_v16u16,
                        loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16, loom_v8i16,
                        loom_v8i16, loom_v8i16, loom_v8u16, 8)

/* ---- Floats ---- */
/* MINPS / MINPD is a < b ? a : b and MAXPS / MAXPD a > b ? a : b, NaN and signed zeros
 * included: the IR's min and max. ROUNDPS / ROUNDPD: floor, ceil, trunc, and nearbyint (the
 * current rounding mode). abs clears the sign bit as fabs; float % is a - b * floor(a / b),
 * unfused. S: ps or pd, I: __m128 or __m128d, F: the suffix of the math functions. */
#define LOOM_SSE41_FLOAT(tag, S, I, F)                                                             \
    LOOM_SSE41_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, I, _mm_min_##S(a, b))              \
    LOOM_SSE41_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, I, _mm_max_##S(a, b))              \
    LOOM_SSE41_UNARY(loom_##tag##_floor_##F, loom_##tag, loom_##tag, I,                            \
                     _mm_round_##S(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))                  \
    LOOM_SSE41_UNARY(loom_##tag##_ceil_##F, loom_##tag, loom_##tag, I,                             \
                     _mm_round_##S(a, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC))                  \
    LOOM_SSE41_UNARY(loom_##tag##_trunc_##F, loom_##tag, loom_##tag, I,                            \
                     _mm_round_##S(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC))                     \
    LOOM_SSE41_UNARY(loom_##tag##_round_##F, loom_##tag, loom_##tag, I,                            \
                     _mm_round_##S(a, _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC))               \
    LOOM_SSE41_UNARY(loom_##tag##_sqrt_##F, loom_##tag, loom_##tag, I, _mm_sqrt_##S(a))            \
    LOOM_SSE41_UNARY(loom_##tag##_abs, loom_##tag, loom_##tag, I,                                  \
                     _mm_andnot_##S(_mm_set1_##S(-0.0), a))                                        \
    LOOM_SSE41_BINARY(                                                                             \
        loom_##tag##_fmod, loom_##tag, loom_##tag, I,                                              \
        _mm_sub_##S(a, _mm_mul_##S(b, _mm_round_##S(_mm_div_##S(a, b),                             \
                                                    _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))))
#define LOOM_SSE41_PAIR_FLOAT(R, R128, F)                                                          \
    LOOM_SSE41_PAIR_OP2(min, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(max, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP1(floor_##F, R, R128)                                                        \
    LOOM_SSE41_PAIR_OP1(ceil_##F, R, R128)                                                         \
    LOOM_SSE41_PAIR_OP1(trunc_##F, R, R128)                                                        \
    LOOM_SSE41_PAIR_OP1(round_##F, R, R128)                                                        \
    LOOM_SSE41_PAIR_OP1(sqrt_##F, R, R128)                                                         \
    LOOM_SSE41_PAIR_OP1(abs, R, R128)                                                              \
    LOOM_SSE41_PAIR_OP2(fmod, R, R128)
/* inverse and inverse_sqrt of f32 (the math functions have no f64 forms), and their fast_
 * forms, computed exactly: DIVPS and SQRTPS round correctly, as / and sqrtf. */
#define LOOM_SSE41_INVERSE(tag)                                                                    \
    LOOM_SSE41_UNARY(loom_##tag##_inverse_f32, loom_##tag, loom_##tag, __m128,                     \
                     _mm_div_ps(_mm_set1_ps(1.0f), a))                                             \
    LOOM_SSE41_UNARY(loom_##tag##_fast_inverse_f32, loom_##tag, loom_##tag, __m128,                \
                     _mm_div_ps(_mm_set1_ps(1.0f), a))                                             \
    LOOM_SSE41_UNARY(loom_##tag##_inverse_sqrt_f32, loom_##tag, loom_##tag, __m128,                \
                     _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(a)))                                \
    LOOM_SSE41_UNARY(loom_##tag##_fast_inverse_sqrt_f32, loom_##tag, loom_##tag, __m128,           \
                     _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(a)))
#define LOOM_HAVE_loom_v4f32_min 1
#define LOOM_HAVE_loom_v4f32_max 1
#define LOOM_HAVE_loom_v4f32_floor_f32 1
#define LOOM_HAVE_loom_v4f32_ceil_f32 1
#define LOOM_HAVE_loom_v4f32_trunc_f32 1
#define LOOM_HAVE_loom_v4f32_round_f32 1
#define LOOM_HAVE_loom_v4f32_sqrt_f32 1
#define LOOM_HAVE_loom_v4f32_abs 1
#define LOOM_HAVE_loom_v4f32_inverse_f32 1
#define LOOM_HAVE_loom_v4f32_fast_inverse_f32 1
#define LOOM_HAVE_loom_v4f32_inverse_sqrt_f32 1
#define LOOM_HAVE_loom_v4f32_fast_inverse_sqrt_f32 1
#define LOOM_HAVE_loom_v4f32_fmod 1
LOOM_SSE41_FLOAT(v4f32, ps, __m128, f32)
LOOM_SSE41_INVERSE(v4f32)
#define LOOM_HAVE_loom_v2f64_min 1
#define LOOM_HAVE_loom_v2f64_max 1
#define LOOM_HAVE_loom_v2f64_floor_f64 1
#define LOOM_HAVE_loom_v2f64_ceil_f64 1
#define LOOM_HAVE_loom_v2f64_trunc_f64 1
#define LOOM_HAVE_loom_v2f64_round_f64 1
#define LOOM_HAVE_loom_v2f64_sqrt_f64 1
#define LOOM_HAVE_loom_v2f64_abs 1
#define LOOM_HAVE_loom_v2f64_fmod 1
LOOM_SSE41_FLOAT(v2f64, pd, __m128d, f64)
#define LOOM_HAVE_loom_v8f32_min 1
#define LOOM_HAVE_loom_v8f32_max 1
#define LOOM_HAVE_loom_v8f32_floor_f32 1
#define LOOM_HAVE_loom_v8f32_ceil_f32 1
#define LOOM_HAVE_loom_v8f32_trunc_f32 1
#define LOOM_HAVE_loom_v8f32_round_f32 1
#define LOOM_HAVE_loom_v8f32_sqrt_f32 1
#define LOOM_HAVE_loom_v8f32_abs 1
#define LOOM_HAVE_loom_v8f32_inverse_f32 1
#define LOOM_HAVE_loom_v8f32_fast_inverse_f32 1
#define LOOM_HAVE_loom_v8f32_inverse_sqrt_f32 1
#define LOOM_HAVE_loom_v8f32_fast_inverse_sqrt_f32 1
#define LOOM_HAVE_loom_v8f32_fmod 1
LOOM_SSE41_PAIR_FLOAT(v8f32, v4f32, f32)
LOOM_SSE41_PAIR_OP1(inverse_f32, v8f32, v4f32)
LOOM_SSE41_PAIR_OP1(fast_inverse_f32, v8f32, v4f32)
LOOM_SSE41_PAIR_OP1(inverse_sqrt_f32, v8f32, v4f32)
LOOM_SSE41_PAIR_OP1(fast_inverse_sqrt_f32, v8f32, v4f32)
#define LOOM_HAVE_loom_v4f64_min 1
#define LOOM_HAVE_loom_v4f64_max 1
#define LOOM_HAVE_loom_v4f64_floor_f64 1
#define LOOM_HAVE_loom_v4f64_ceil_f64 1
#define LOOM_HAVE_loom_v4f64_trunc_f64 1
#define LOOM_HAVE_loom_v4f64_round_f64 1
#define LOOM_HAVE_loom_v4f64_sqrt_f64 1
#define LOOM_HAVE_loom_v4f64_abs 1
#define LOOM_HAVE_loom_v4f64_fmod 1
LOOM_SSE41_PAIR_FLOAT(v4f64, v2f64, f64)
/* is_nan: the unordered comparison of a with itself. */
#define LOOM_HAVE_loom_v4b_is_nan_f32_v4f32 1
#define LOOM_HAVE_loom_v2b_is_nan_f64_v2f64 1
#define LOOM_HAVE_loom_v8b_is_nan_f32_v8f32 1
#define LOOM_HAVE_loom_v4b_is_nan_f64_v4f64 1
LOOM_C_INLINE loom_v4b loom_v4b_is_nan_f32_v4f32(loom_v4f32 a) {
    return loom_sse41_v4b_m32(_mm_castps_si128(_mm_cmpunord_ps((__m128)a, (__m128)a)), 0);
}
LOOM_C_INLINE loom_v2b loom_v2b_is_nan_f64_v2f64(loom_v2f64 a) {
    return loom_sse41_v2b_m64(_mm_castpd_si128(_mm_cmpunord_pd((__m128d)a, (__m128d)a)), 0);
}
LOOM_C_INLINE loom_v8b loom_v8b_is_nan_f32_v8f32(loom_v8f32 a) {
    __m128 lo = loom_sse41_partps(a, 0), hi = loom_sse41_partps(a, 1);
    return loom_sse41_v8b_m32x2(_mm_castps_si128(_mm_cmpunord_ps(lo, lo)),
                                _mm_castps_si128(_mm_cmpunord_ps(hi, hi)), 0);
}
LOOM_C_INLINE loom_v4b loom_v4b_is_nan_f64_v4f64(loom_v4f64 a) {
    __m128d lo = loom_sse41_partpd(a, 0), hi = loom_sse41_partpd(a, 1);
    return loom_sse41_v4b_m64x2(_mm_castpd_si128(_mm_cmpunord_pd(lo, lo)),
                                _mm_castpd_si128(_mm_cmpunord_pd(hi, hi)), 0);
}

/* ---- Conversions: widened by the source's signedness, narrowed by truncation ---- */
#define LOOM_SSE41_CVT(R, A, expr)                                                                 \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) { return (loom_##R)(expr); }
/* 4 lanes: 8 bits (4 bytes) and 16 bits (8 bytes) to and from 32 bits in one register. */
#define LOOM_SSE41_W4_u8(a) _mm_cvtepu8_epi32(loom_sse41_lo32(&(a)))
#define LOOM_SSE41_W4_i8(a) _mm_cvtepi8_epi32(loom_sse41_lo32(&(a)))
#define LOOM_SSE41_W4_u16(a) _mm_cvtepu16_epi32(LOOM_SSE41_LO64(a))
#define LOOM_SSE41_W4_i16(a) _mm_cvtepi16_epi32(LOOM_SSE41_LO64(a))
#define LOOM_HAVE_loom_v4i32_cvt_v4u8 1
#define LOOM_HAVE_loom_v4i32_cvt_v4i8 1
#define LOOM_HAVE_loom_v4i32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4i32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4u32_cvt_v4u8 1
#define LOOM_HAVE_loom_v4u32_cvt_v4i8 1
#define LOOM_HAVE_loom_v4u32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4u32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4u32_cvt_v4f32 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u8 1
#define LOOM_HAVE_loom_v4f32_cvt_v4i8 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4f32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u32 1
LOOM_SSE41_CVT(v4i32, v4u8, LOOM_SSE41_W4_u8(a))
LOOM_SSE41_CVT(v4i32, v4i8, LOOM_SSE41_W4_i8(a))
LOOM_SSE41_CVT(v4i32, v4u16, LOOM_SSE41_W4_u16(a))
LOOM_SSE41_CVT(v4i32, v4i16, LOOM_SSE41_W4_i16(a))
LOOM_SSE41_CVT(v4u32, v4u8, LOOM_SSE41_W4_u8(a))
LOOM_SSE41_CVT(v4u32, v4i8, LOOM_SSE41_W4_i8(a))
LOOM_SSE41_CVT(v4u32, v4u16, LOOM_SSE41_W4_u16(a))
LOOM_SSE41_CVT(v4u32, v4i16, LOOM_SSE41_W4_i16(a))
LOOM_SSE41_CVT(v4u32, v4f32, loom_sse41_f32_to_u32((__m128)a))
LOOM_SSE41_CVT(v4f32, v4u8, _mm_cvtepi32_ps(LOOM_SSE41_W4_u8(a)))
LOOM_SSE41_CVT(v4f32, v4i8, _mm_cvtepi32_ps(LOOM_SSE41_W4_i8(a)))
LOOM_SSE41_CVT(v4f32, v4u16, _mm_cvtepi32_ps(LOOM_SSE41_W4_u16(a)))
LOOM_SSE41_CVT(v4f32, v4i16, _mm_cvtepi32_ps(LOOM_SSE41_W4_i16(a)))
LOOM_SSE41_CVT(v4f32, v4u32, loom_sse41_u32_to_f32((__m128i)a))
#define LOOM_HAVE_loom_v4u8_cvt_v4i32 1
#define LOOM_HAVE_loom_v4u8_cvt_v4u32 1
#define LOOM_HAVE_loom_v4u8_cvt_v4f32 1
#define LOOM_HAVE_loom_v4i8_cvt_v4i32 1
#define LOOM_HAVE_loom_v4i8_cvt_v4u32 1
#define LOOM_HAVE_loom_v4i8_cvt_v4f32 1
#define LOOM_HAVE_loom_v4u16_cvt_v4i32 1
#define LOOM_HAVE_loom_v4u16_cvt_v4u32 1
#define LOOM_HAVE_loom_v4u16_cvt_v4f32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4i32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4u32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4f32 1
LOOM_SSE41_CVT(v4u8, v4i32, loom_sse41_v4u8(loom_sse41_trunc_32to8((__m128i)a)))
LOOM_SSE41_CVT(v4u8, v4u32, loom_sse41_v4u8(loom_sse41_trunc_32to8((__m128i)a)))
LOOM_SSE41_CVT(v4u8, v4f32, loom_sse41_v4u8(loom_sse41_trunc_32to8(_mm_cvttps_epi32((__m128)a))))
LOOM_SSE41_CVT(v4i8, v4i32, loom_sse41_v4u8(loom_sse41_trunc_32to8((__m128i)a)))
LOOM_SSE41_CVT(v4i8, v4u32, loom_sse41_v4u8(loom_sse41_trunc_32to8((__m128i)a)))
LOOM_SSE41_CVT(v4i8, v4f32, loom_sse41_v4u8(loom_sse41_trunc_32to8(_mm_cvttps_epi32((__m128)a))))
LOOM_SSE41_CVT(v4u16, v4i32, loom_sse41_v8u8(loom_sse41_trunc_32to16((__m128i)a)))
LOOM_SSE41_CVT(v4u16, v4u32, loom_sse41_v8u8(loom_sse41_trunc_32to16((__m128i)a)))
LOOM_SSE41_CVT(v4u16, v4f32, loom_sse41_v8u8(loom_sse41_trunc_32to16(_mm_cvttps_epi32((__m128)a))))
LOOM_SSE41_CVT(v4i16, v4i32, loom_sse41_v8u8(loom_sse41_trunc_32to16((__m128i)a)))
LOOM_SSE41_CVT(v4i16, v4u32, loom_sse41_v8u8(loom_sse41_trunc_32to16((__m128i)a)))
LOOM_SSE41_CVT(v4i16, v4f32, loom_sse41_v8u8(loom_sse41_trunc_32to16(_mm_cvttps_epi32((__m128)a))))

/* 8 lanes: 8 bits (8 bytes) and 16 bits in one register, 32 bits in two. */
#define LOOM_HAVE_loom_v8u16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8u16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8u8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8u8_cvt_v8i16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8i16 1
LOOM_SSE41_CVT(v8u16, v8u8, _mm_cvtepu8_epi16(LOOM_SSE41_LO64(a)))
LOOM_SSE41_CVT(v8u16, v8i8, _mm_cvtepi8_epi16(LOOM_SSE41_LO64(a)))
LOOM_SSE41_CVT(v8i16, v8u8, _mm_cvtepu8_epi16(LOOM_SSE41_LO64(a)))
LOOM_SSE41_CVT(v8i16, v8i8, _mm_cvtepi8_epi16(LOOM_SSE41_LO64(a)))
LOOM_SSE41_CVT(v8u8, v8u16, loom_sse41_v8u8(loom_sse41_trunc_16to8((__m128i)a)))
LOOM_SSE41_CVT(v8u8, v8i16, loom_sse41_v8u8(loom_sse41_trunc_16to8((__m128i)a)))
LOOM_SSE41_CVT(v8i8, v8u16, loom_sse41_v8u8(loom_sse41_trunc_16to8((__m128i)a)))
LOOM_SSE41_CVT(v8i8, v8i16, loom_sse41_v8u8(loom_sse41_trunc_16to8((__m128i)a)))
/* To 32 bits: W widens the low 4 lanes of a register, x the 8 lanes (one register); the high
 * 4 lanes are shifted down first (by 4 bytes for 8-bit lanes, 8 for 16-bit ones). */
#define LOOM_SSE41_WIDEN8(R, A, W, x, bytes, to)                                                   \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m128i v = x;                                                                             \
        return (loom_##R)to(W(v), W(_mm_srli_si128(v, bytes)));                                    \
    }
#define loom_sse41_join_cvtps(lo, hi) loom_sse41_joinps(_mm_cvtepi32_ps(lo), _mm_cvtepi32_ps(hi))
#define loom_sse41_join_u32ps(lo, hi)                                                              \
    loom_sse41_joinps(loom_sse41_u32_to_f32(lo), loom_sse41_u32_to_f32(hi))
#define LOOM_HAVE_loom_v8i32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8i32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8i32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8i32_cvt_v8i16 1
#define LOOM_HAVE_loom_v8u32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8u32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8u32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8u32_cvt_v8i16 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8f32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8f32_cvt_v8i16 1
LOOM_SSE41_WIDEN8(v8i32, v8u8, _mm_cvtepu8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8i32, v8i8, _mm_cvtepi8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8i32, v8u16, _mm_cvtepu16_epi32, (__m128i)a, 8, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8i32, v8i16, _mm_cvtepi16_epi32, (__m128i)a, 8, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8u32, v8u8, _mm_cvtepu8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8u32, v8i8, _mm_cvtepi8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8u32, v8u16, _mm_cvtepu16_epi32, (__m128i)a, 8, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8u32, v8i16, _mm_cvtepi16_epi32, (__m128i)a, 8, loom_sse41_join)
LOOM_SSE41_WIDEN8(v8f32, v8u8, _mm_cvtepu8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join_cvtps)
LOOM_SSE41_WIDEN8(v8f32, v8i8, _mm_cvtepi8_epi32, LOOM_SSE41_LO64(a), 4, loom_sse41_join_cvtps)
LOOM_SSE41_WIDEN8(v8f32, v8u16, _mm_cvtepu16_epi32, (__m128i)a, 8, loom_sse41_join_cvtps)
LOOM_SSE41_WIDEN8(v8f32, v8i16, _mm_cvtepi16_epi32, (__m128i)a, 8, loom_sse41_join_cvtps)
/* Between u32 and f32, and from 32 bits (f32 converted toward zero) to 8 and 16: each half. */
#define LOOM_SSE41_FROM32X8(R, A, conv, narrow, out)                                               \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        return (loom_##R)out(narrow(conv(loom_sse41_part(a, 0)), conv(loom_sse41_part(a, 1))));    \
    }
#define loom_sse41_id(x) (x)
#define loom_sse41_cvtt(x) _mm_cvttps_epi32(_mm_castsi128_ps(x))
#define loom_sse41_cvtu(x) loom_sse41_f32_to_u32(_mm_castsi128_ps(x))
#define LOOM_HAVE_loom_v8u32_cvt_v8f32 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u32 1
#define LOOM_HAVE_loom_v8u8_cvt_v8i32 1
#define LOOM_HAVE_loom_v8u8_cvt_v8u32 1
#define LOOM_HAVE_loom_v8u8_cvt_v8f32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8i32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8u32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8f32 1
#define LOOM_HAVE_loom_v8u16_cvt_v8i32 1
#define LOOM_HAVE_loom_v8u16_cvt_v8u32 1
#define LOOM_HAVE_loom_v8u16_cvt_v8f32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8i32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8u32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8f32 1
LOOM_SSE41_FROM32X8(v8u32, v8f32, loom_sse41_cvtu, loom_sse41_join, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8f32, v8u32, loom_sse41_id, loom_sse41_join_u32ps, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8u8, v8i32, loom_sse41_id, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8u8, v8u32, loom_sse41_id, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8u8, v8f32, loom_sse41_cvtt, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8i8, v8i32, loom_sse41_id, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8i8, v8u32, loom_sse41_id, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8i8, v8f32, loom_sse41_cvtt, loom_sse41_trunc_32to8_x2, loom_sse41_v8u8)
LOOM_SSE41_FROM32X8(v8u16, v8i32, loom_sse41_id, loom_sse41_trunc_32to16_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8u16, v8u32, loom_sse41_id, loom_sse41_trunc_32to16_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8u16, v8f32, loom_sse41_cvtt, loom_sse41_trunc_32to16_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8i16, v8i32, loom_sse41_id, loom_sse41_trunc_32to16_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8i16, v8u32, loom_sse41_id, loom_sse41_trunc_32to16_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v8i16, v8f32, loom_sse41_cvtt, loom_sse41_trunc_32to16_x2, loom_sse41_id)

/* 16 lanes: 8 bits in one register, 16 bits in two, 32 bits in four. */
#define LOOM_SSE41_WIDEN16(R, A, W, hi)                                                            \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m128i v = (__m128i)a;                                                                    \
        return (loom_##R)loom_sse41_join(W(v), hi);                                                \
    }
#define LOOM_HAVE_loom_v16u16_cvt_v16u8 1
#define LOOM_HAVE_loom_v16u16_cvt_v16i8 1
#define LOOM_HAVE_loom_v16i16_cvt_v16u8 1
#define LOOM_HAVE_loom_v16i16_cvt_v16i8 1
LOOM_SSE41_WIDEN16(v16u16, v16u8, _mm_cvtepu8_epi16, _mm_unpackhi_epi8(v, _mm_setzero_si128()))
LOOM_SSE41_WIDEN16(v16u16, v16i8, _mm_cvtepi8_epi16, _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8))
LOOM_SSE41_WIDEN16(v16i16, v16u8, _mm_cvtepu8_epi16, _mm_unpackhi_epi8(v, _mm_setzero_si128()))
LOOM_SSE41_WIDEN16(v16i16, v16i8, _mm_cvtepi8_epi16, _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8))
#define LOOM_HAVE_loom_v16u8_cvt_v16u16 1
#define LOOM_HAVE_loom_v16u8_cvt_v16i16 1
#define LOOM_HAVE_loom_v16i8_cvt_v16u16 1
#define LOOM_HAVE_loom_v16i8_cvt_v16i16 1
LOOM_SSE41_FROM32X8(v16u8, v16u16, loom_sse41_id, loom_sse41_trunc_16to8_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v16u8, v16i16, loom_sse41_id, loom_sse41_trunc_16to8_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v16i8, v16u16, loom_sse41_id, loom_sse41_trunc_16to8_x2, loom_sse41_id)
LOOM_SSE41_FROM32X8(v16i8, v16i16, loom_sse41_id, loom_sse41_trunc_16to8_x2, loom_sse41_id)
/* 32 lanes of 8 and 16 bits: the 16-lane conversions on each half. */
#define LOOM_SSE41_PAIR_CVT(R, A, R16, A16)                                                        \
    LOOM_SSE41_PAIR_UNARY(loom_##R##_cvt_##A, loom_##R, loom_##A, loom_##R16##_cvt_##A16,          \
                          loom_##R16, loom_##A16, 16)
#define LOOM_HAVE_loom_v32u16_cvt_v32u8 1
#define LOOM_HAVE_loom_v32u16_cvt_v32i8 1
#define LOOM_HAVE_loom_v32i16_cvt_v32u8 1
#define LOOM_HAVE_loom_v32i16_cvt_v32i8 1
#define LOOM_HAVE_loom_v32u8_cvt_v32u16 1
#define LOOM_HAVE_loom_v32u8_cvt_v32i16 1
#define LOOM_HAVE_loom_v32i8_cvt_v32u16 1
#define LOOM_HAVE_loom_v32i8_cvt_v32i16 1
LOOM_SSE41_PAIR_CVT(v32u16, v32u8, v16u16, v16u8)
LOOM_SSE41_PAIR_CVT(v32u16, v32i8, v16u16, v16i8)
LOOM_SSE41_PAIR_CVT(v32i16, v32u8, v16i16, v16u8)
LOOM_SSE41_PAIR_CVT(v32i16, v32i8, v16i16, v16i8)
LOOM_SSE41_PAIR_CVT(v32u8, v32u16, v16u8, v16u16)
LOOM_SSE41_PAIR_CVT(v32u8, v32i16, v16u8, v16i16)
LOOM_SSE41_PAIR_CVT(v32i8, v32u16, v16i8, v16u16)
LOOM_SSE41_PAIR_CVT(v32i8, v32i16, v16i8, v16i16)
/* To 32 bits: each quarter widened (W: the low 4 lanes of a register), as i32 or converted to
 * f32. */
#define LOOM_SSE41_WIDEN16_8(R, A, W, join, cv)                                                    \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m128i v = (__m128i)a;                                                                    \
        return join(cv(W(v)), cv(W(_mm_srli_si128(v, 4))), cv(W(_mm_srli_si128(v, 8))),            \
                    cv(W(_mm_srli_si128(v, 12))));                                                 \
    }
#define LOOM_SSE41_WIDEN16_16(R, A, W, join, cv)                                                   \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m128i lo = loom_sse41_part(a, 0), hi = loom_sse41_part(a, 1);                            \
        return join(cv(W(lo)), cv(W(_mm_srli_si128(lo, 8))), cv(W(hi)),                            \
                    cv(W(_mm_srli_si128(hi, 8))));                                                 \
    }
#define LOOM_HAVE_loom_v16i32_cvt_v16u8 1
#define LOOM_HAVE_loom_v16i32_cvt_v16i8 1
#define LOOM_HAVE_loom_v16f32_cvt_v16u8 1
#define LOOM_HAVE_loom_v16f32_cvt_v16i8 1
#define LOOM_HAVE_loom_v16i32_cvt_v16u16 1
#define LOOM_HAVE_loom_v16i32_cvt_v16i16 1
#define LOOM_HAVE_loom_v16f32_cvt_v16u16 1
#define LOOM_HAVE_loom_v16f32_cvt_v16i16 1
LOOM_SSE41_WIDEN16_8(v16i32, v16u8, _mm_cvtepu8_epi32, loom_sse41_join4, loom_sse41_id)
LOOM_SSE41_WIDEN16_8(v16i32, v16i8, _mm_cvtepi8_epi32, loom_sse41_join4, loom_sse41_id)
LOOM_SSE41_WIDEN16_8(v16f32, v16u8, _mm_cvtepu8_epi32, loom_sse41_join4ps, _mm_cvtepi32_ps)
LOOM_SSE41_WIDEN16_8(v16f32, v16i8, _mm_cvtepi8_epi32, loom_sse41_join4ps, _mm_cvtepi32_ps)
LOOM_SSE41_WIDEN16_16(v16i32, v16u16, _mm_cvtepu16_epi32, loom_sse41_join4, loom_sse41_id)
LOOM_SSE41_WIDEN16_16(v16i32, v16i16, _mm_cvtepi16_epi32, loom_sse41_join4, loom_sse41_id)
LOOM_SSE41_WIDEN16_16(v16f32, v16u16, _mm_cvtepu16_epi32, loom_sse41_join4ps, _mm_cvtepi32_ps)
LOOM_SSE41_WIDEN16_16(v16f32, v16i16, _mm_cvtepi16_epi32, loom_sse41_join4ps, _mm_cvtepi32_ps)
/* From 32 bits: the quarters as i32 (f32 converted toward zero), truncated. */
#define LOOM_SSE41_NARROW16(R, A, conv, narrow)                                                    \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        return (loom_##R)narrow(conv(loom_sse41_part4(a, 0)), conv(loom_sse41_part4(a, 1)),        \
                                conv(loom_sse41_part4(a, 2)), conv(loom_sse41_part4(a, 3)));       \
    }
#define loom_sse41_trunc_32to16_x4(a, b, c, d)                                                     \
    loom_sse41_join(loom_sse41_trunc_32to16_x2(a, b), loom_sse41_trunc_32to16_x2(c, d))
#define LOOM_HAVE_loom_v16u8_cvt_v16i32 1
#define LOOM_HAVE_loom_v16i8_cvt_v16i32 1
#define LOOM_HAVE_loom_v16u16_cvt_v16i32 1
#define LOOM_HAVE_loom_v16i16_cvt_v16i32 1
#define LOOM_HAVE_loom_v16u8_cvt_v16f32 1
#define LOOM_HAVE_loom_v16i8_cvt_v16f32 1
#define LOOM_HAVE_loom_v16u16_cvt_v16f32 1
#define LOOM_HAVE_loom_v16i16_cvt_v16f32 1
LOOM_SSE41_NARROW16(v16u8, v16i32, loom_sse41_id, loom_sse41_trunc_32to8_x4)
LOOM_SSE41_NARROW16(v16i8, v16i32, loom_sse41_id, loom_sse41_trunc_32to8_x4)
LOOM_SSE41_NARROW16(v16u16, v16i32, loom_sse41_id, loom_sse41_trunc_32to16_x4)
LOOM_SSE41_NARROW16(v16i16, v16i32, loom_sse41_id, loom_sse41_trunc_32to16_x4)
LOOM_SSE41_NARROW16(v16u8, v16f32, loom_sse41_cvtt, loom_sse41_trunc_32to8_x4)
LOOM_SSE41_NARROW16(v16i8, v16f32, loom_sse41_cvtt, loom_sse41_trunc_32to8_x4)
LOOM_SSE41_NARROW16(v16u16, v16f32, loom_sse41_cvtt, loom_sse41_trunc_32to16_x4)
LOOM_SSE41_NARROW16(v16i16, v16f32, loom_sse41_cvtt, loom_sse41_trunc_32to16_x4)

/* ---- Comparisons and selects ---- */
/* Unsigned a <= b is min(a, b) == a; lt is the negation of b <= a. Floats: ordered
 * comparisons, and != true for NaN (CMPNEQPS is unordered or not equal), as C's operators.
 * The generic mapping's comparisons of 8-bit lanes are already single instructions. */
#define LOOM_SSE41_CMP(R, op, A, I, to_bool, negate, expr)                                         \
    LOOM_C_INLINE loom_##R loom_##R##_##op##_##A(loom_##A a_, loom_##A b_) {                       \
        I a = (I)a_, b = (I)b_;                                                                    \
        return to_bool(expr, negate);                                                              \
    }
/* 32-byte vectors: the masks of each half, then packed together. */
#define LOOM_SSE41_CMP_X2(R, op, A, I, part, to_bool, negate, expr)                                \
    LOOM_C_INLINE loom_##R loom_##R##_##op##_##A(loom_##A a_, loom_##A b_) {                       \
        I a = part(a_, 0), b = part(b_, 0);                                                        \
        __m128i lo = expr;                                                                         \
        a = part(a_, 1);                                                                           \
        b = part(b_, 1);                                                                           \
        return to_bool(lo, expr, negate);                                                          \
    }
#define LOOM_SSE41_CMP_INT(CMP, R, A, S, U, ...)                                                   \
    CMP(R, lt, A, __VA_ARGS__, 0, _mm_cmpgt_##S(b, a))                                             \
    CMP(R, le, A, __VA_ARGS__, 1, _mm_cmpgt_##S(a, b))                                             \
    CMP(R, eq, A, __VA_ARGS__, 0, _mm_cmpeq_##S(a, b))                                             \
    CMP(R, ne, A, __VA_ARGS__, 1, _mm_cmpeq_##S(a, b))
#define LOOM_SSE41_CMP_UINT(CMP, R, A, S, U, ...)                                                  \
    CMP(R, lt, A, __VA_ARGS__, 1, _mm_cmpeq_##S(_mm_min_##U(a, b), b))                             \
    CMP(R, le, A, __VA_ARGS__, 0, _mm_cmpeq_##S(_mm_min_##U(a, b), a))                             \
    CMP(R, eq, A, __VA_ARGS__, 0, _mm_cmpeq_##S(a, b))                                             \
    CMP(R, ne, A, __VA_ARGS__, 1, _mm_cmpeq_##S(a, b))
#define LOOM_SSE41_CMP_FLOAT(CMP, R, A, S, C, ...)                                                 \
    CMP(R, lt, A, __VA_ARGS__, 0, C(_mm_cmplt_##S(a, b)))                                          \
    CMP(R, le, A, __VA_ARGS__, 0, C(_mm_cmple_##S(a, b)))                                          \
    CMP(R, eq, A, __VA_ARGS__, 0, C(_mm_cmpeq_##S(a, b)))                                          \
    CMP(R, ne, A, __VA_ARGS__, 0, C(_mm_cmpneq_##S(a, b)))
#define LOOM_HAVE_loom_v4b_lt_v4f32 1
#define LOOM_HAVE_loom_v4b_le_v4f32 1
#define LOOM_HAVE_loom_v4b_eq_v4f32 1
#define LOOM_HAVE_loom_v4b_ne_v4f32 1
#define LOOM_HAVE_loom_v2b_lt_v2f64 1
#define LOOM_HAVE_loom_v2b_le_v2f64 1
#define LOOM_HAVE_loom_v2b_eq_v2f64 1
#define LOOM_HAVE_loom_v2b_ne_v2f64 1
#define LOOM_HAVE_loom_v4b_lt_v4i32 1
#define LOOM_HAVE_loom_v4b_le_v4i32 1
#define LOOM_HAVE_loom_v4b_eq_v4i32 1
#define LOOM_HAVE_loom_v4b_ne_v4i32 1
#define LOOM_HAVE_loom_v4b_lt_v4u32 1
#define LOOM_HAVE_loom_v4b_le_v4u32 1
#define LOOM_HAVE_loom_v4b_eq_v4u32 1
#define LOOM_HAVE_loom_v4b_ne_v4u32 1
#define LOOM_HAVE_loom_v8b_lt_v8i16 1
#define LOOM_HAVE_loom_v8b_le_v8i16 1
#define LOOM_HAVE_loom_v8b_eq_v8i16 1
#define LOOM_HAVE_loom_v8b_ne_v8i16 1
#define LOOM_HAVE_loom_v8b_lt_v8u16 1
#define LOOM_HAVE_loom_v8b_le_v8u16 1
#define LOOM_HAVE_loom_v8b_eq_v8u16 1
#define LOOM_HAVE_loom_v8b_ne_v8u16 1
LOOM_SSE41_CMP_FLOAT(LOOM_SSE41_CMP, v4b, v4f32, ps, _mm_castps_si128, __m128, loom_sse41_v4b_m32)
LOOM_SSE41_CMP_FLOAT(LOOM_SSE41_CMP, v2b, v2f64, pd, _mm_castpd_si128, __m128d, loom_sse41_v2b_m64)
LOOM_SSE41_CMP_INT(LOOM_SSE41_CMP, v4b, v4i32, epi32, epi32, __m128i, loom_sse41_v4b_m32)
LOOM_SSE41_CMP_UINT(LOOM_SSE41_CMP, v4b, v4u32, epi32, epu32, __m128i, loom_sse41_v4b_m32)
LOOM_SSE41_CMP_INT(LOOM_SSE41_CMP, v8b, v8i16, epi16, epi16, __m128i, loom_sse41_v8b_m16)
LOOM_SSE41_CMP_UINT(LOOM_SSE41_CMP, v8b, v8u16, epi16, epu16, __m128i, loom_sse41_v8b_m16)
#define LOOM_HAVE_loom_v8b_lt_v8f32 1
#define LOOM_HAVE_loom_v8b_le_v8f32 1
#define LOOM_HAVE_loom_v8b_eq_v8f32 1
#define LOOM_HAVE_loom_v8b_ne_v8f32 1
#define LOOM_HAVE_loom_v8b_lt_v8i32 1
#define LOOM_HAVE_loom_v8b_le_v8i32 1
#define LOOM_HAVE_loom_v8b_eq_v8i32 1
#define LOOM_HAVE_loom_v8b_ne_v8i32 1
#define LOOM_HAVE_loom_v8b_lt_v8u32 1
#define LOOM_HAVE_loom_v8b_le_v8u32 1
#define LOOM_HAVE_loom_v8b_eq_v8u32 1
#define LOOM_HAVE_loom_v8b_ne_v8u32 1
#define LOOM_HAVE_loom_v16b_lt_v16i16 1
#define LOOM_HAVE_loom_v16b_le_v16i16 1
#define LOOM_HAVE_loom_v16b_eq_v16i16 1
#define LOOM_HAVE_loom_v16b_ne_v16i16 1
#define LOOM_HAVE_loom_v16b_lt_v16u16 1
#define LOOM_HAVE_loom_v16b_le_v16u16 1
#define LOOM_HAVE_loom_v16b_eq_v16u16 1
#define LOOM_HAVE_loom_v16b_ne_v16u16 1
LOOM_SSE41_CMP_FLOAT(LOOM_SSE41_CMP_X2, v8b, v8f32, ps, _mm_castps_si128, __m128, loom_sse41_partps,
                     loom_sse41_v8b_m32x2)
LOOM_SSE41_CMP_INT(LOOM_SSE41_CMP_X2, v8b, v8i32, epi32, epi32, __m128i, loom_sse41_part,
                   loom_sse41_v8b_m32x2)
LOOM_SSE41_CMP_UINT(LOOM_SSE41_CMP_X2, v8b, v8u32, epi32, epu32, __m128i, loom_sse41_part,
                    loom_sse41_v8b_m32x2)
LOOM_SSE41_CMP_INT(LOOM_SSE41_CMP_X2, v16b, v16i16, epi16, epi16, __m128i, loom_sse41_part,
                   loom_sse41_v16b_m16x2)
LOOM_SSE41_CMP_UINT(LOOM_SSE41_CMP_X2, v16b, v16u16, epi16, epu16, __m128i, loom_sse41_part,
                    loom_sse41_v16b_m16x2)
#define LOOM_HAVE_loom_v4b_lt_v4f64 1
#define LOOM_HAVE_loom_v4b_le_v4f64 1
#define LOOM_HAVE_loom_v4b_eq_v4f64 1
#define LOOM_HAVE_loom_v4b_ne_v4f64 1
LOOM_SSE41_CMP_FLOAT(LOOM_SSE41_CMP_X2, v4b, v4f64, pd, _mm_castpd_si128, __m128d,
                     loom_sse41_partpd, loom_sse41_v4b_m64x2)

/* select(m, a, b): a where the bool lane is 1, by a byte blend (PBLENDVB) on the lanes'
 * masks. */
#define LOOM_SSE41_SELECT(M, T, mask)                                                              \
    LOOM_C_INLINE loom_##T loom_##T##_select_##M##_##T##_##T(loom_##M m, loom_##T a, loom_##T b) { \
        return (loom_##T)_mm_blendv_epi8((__m128i)b, (__m128i)a, mask(m));                         \
    }
#define loom_sse41_m8_v16b(m) loom_sse41_neg8((__m128i)(m))
#define LOOM_HAVE_loom_v16u8_select_v16b_v16u8_v16u8 1
#define LOOM_HAVE_loom_v16i8_select_v16b_v16i8_v16i8 1
#define LOOM_HAVE_loom_v8u16_select_v8b_v8u16_v8u16 1
#define LOOM_HAVE_loom_v8i16_select_v8b_v8i16_v8i16 1
#define LOOM_HAVE_loom_v4u32_select_v4b_v4u32_v4u32 1
#define LOOM_HAVE_loom_v4i32_select_v4b_v4i32_v4i32 1
#define LOOM_HAVE_loom_v4f32_select_v4b_v4f32_v4f32 1
#define LOOM_HAVE_loom_v2u64_select_v2b_v2u64_v2u64 1
#define LOOM_HAVE_loom_v2i64_select_v2b_v2i64_v2i64 1
#define LOOM_HAVE_loom_v2f64_select_v2b_v2f64_v2f64 1
LOOM_SSE41_SELECT(v16b, v16u8, loom_sse41_m8_v16b)
LOOM_SSE41_SELECT(v16b, v16i8, loom_sse41_m8_v16b)
LOOM_SSE41_SELECT(v8b, v8u16, loom_sse41_m16_v8b)
LOOM_SSE41_SELECT(v8b, v8i16, loom_sse41_m16_v8b)
LOOM_SSE41_SELECT(v4b, v4u32, loom_sse41_m32_v4b)
LOOM_SSE41_SELECT(v4b, v4i32, loom_sse41_m32_v4b)
LOOM_SSE41_SELECT(v4b, v4f32, loom_sse41_m32_v4b)
LOOM_SSE41_SELECT(v2b, v2u64, loom_sse41_m64_v2b)
LOOM_SSE41_SELECT(v2b, v2i64, loom_sse41_m64_v2b)
LOOM_SSE41_SELECT(v2b, v2f64, loom_sse41_m64_v2b)
/* 8 lanes of 8 bits: in the low half. */
#define LOOM_SSE41_SELECT8(T)                                                                      \
    LOOM_C_INLINE loom_##T loom_##T##_select_v8b_##T##_##T(loom_v8b m, loom_##T a, loom_##T b) {   \
        return (loom_##T)loom_sse41_v8u8(_mm_blendv_epi8(LOOM_SSE41_LO64(b), LOOM_SSE41_LO64(a),   \
                                                         loom_sse41_neg8(LOOM_SSE41_LO64(m))));    \
    }
#define LOOM_HAVE_loom_v8u8_select_v8b_v8u8_v8u8 1
#define LOOM_HAVE_loom_v8i8_select_v8b_v8i8_v8i8 1
LOOM_SSE41_SELECT8(v8u8)
LOOM_SSE41_SELECT8(v8i8)
/* 32-byte vectors: each half, by the masks of its bool lanes (mask(m, half)). */
#define LOOM_SSE41_SELECT_X2(M, T, mask)                                                           \
    LOOM_C_INLINE loom_##T loom_##T##_select_##M##_##T##_##T(loom_##M m, loom_##T a, loom_##T b) { \
        return (loom_##T)loom_sse41_join(                                                          \
            _mm_blendv_epi8(loom_sse41_part(b, 0), loom_sse41_part(a, 0), mask(m, 0)),             \
            _mm_blendv_epi8(loom_sse41_part(b, 1), loom_sse41_part(a, 1), mask(m, 1)));            \
    }
LOOM_C_INLINE __m128i loom_sse41_m8_v32b(loom_v32b m, int i) {
    return loom_sse41_neg8(loom_sse41_part(m, i));
}
LOOM_C_INLINE __m128i loom_sse41_m16_v16b(loom_v16b m, int i) {
    __m128i w = (__m128i)m;
    return _mm_sub_epi16(_mm_setzero_si128(),
                         i ? _mm_unpackhi_epi8(w, _mm_setzero_si128()) : _mm_cvtepu8_epi16(w));
}
LOOM_C_INLINE __m128i loom_sse41_m32_v8b(loom_v8b m, int i) {
    __m128i w = LOOM_SSE41_LO64(m);
    return _mm_sub_epi32(_mm_setzero_si128(), _mm_cvtepu8_epi32(i ? _mm_srli_si128(w, 4) : w));
}
LOOM_C_INLINE __m128i loom_sse41_m64_v4b(loom_v4b m, int i) {
    __m128i w = loom_sse41_lo32(&m);
    return _mm_sub_epi64(_mm_setzero_si128(), _mm_cvtepu8_epi64(i ? _mm_srli_si128(w, 2) : w));
}
#define LOOM_HAVE_loom_v32u8_select_v32b_v32u8_v32u8 1
#define LOOM_HAVE_loom_v32i8_select_v32b_v32i8_v32i8 1
#define LOOM_HAVE_loom_v16u16_select_v16b_v16u16_v16u16 1
#define LOOM_HAVE_loom_v16i16_select_v16b_v16i16_v16i16 1
#define LOOM_HAVE_loom_v8u32_select_v8b_v8u32_v8u32 1
#define LOOM_HAVE_loom_v8i32_select_v8b_v8i32_v8i32 1
#define LOOM_HAVE_loom_v8f32_select_v8b_v8f32_v8f32 1
#define LOOM_HAVE_loom_v4f64_select_v4b_v4f64_v4f64 1
LOOM_SSE41_SELECT_X2(v32b, v32u8, loom_sse41_m8_v32b)
LOOM_SSE41_SELECT_X2(v32b, v32i8, loom_sse41_m8_v32b)
LOOM_SSE41_SELECT_X2(v16b, v16u16, loom_sse41_m16_v16b)
LOOM_SSE41_SELECT_X2(v16b, v16i16, loom_sse41_m16_v16b)
LOOM_SSE41_SELECT_X2(v8b, v8u32, loom_sse41_m32_v8b)
LOOM_SSE41_SELECT_X2(v8b, v8i32, loom_sse41_m32_v8b)
LOOM_SSE41_SELECT_X2(v8b, v8f32, loom_sse41_m32_v8b)
LOOM_SSE41_SELECT_X2(v4b, v4f64, loom_sse41_m64_v4b)

#endif
