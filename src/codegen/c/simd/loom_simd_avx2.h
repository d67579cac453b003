/* Loom SIMD mapping "avx2": x86 with SSE4.1, AVX2 (and FMA, unused: it would change float
 * results). Select it with -DLOOM_SIMD_AVX2 and compile with -mavx2 -mfma (or -march=haswell
 * or later). The generated file pastes the generic mapping (loom_simd_generic.h) before this
 * text: vectors stay GCC/Clang vector-extension types and its LOOM_OP_* macros stay in force.
 * This part adds <immintrin.h> definitions of the operations whose generic form is a lane by
 * lane loop or poor code (notably GCC's narrowing conversions), for the shapes of SSE and AVX
 * registers:
 *  - integers (16 x u8/i8 and 8 x u16/i16 in 128 bits, 32 x u8/i8 and 16 x u16/i16 in 256,
 *    4 and 8 x u32/i32; 8 x u8/i8 through the 16-lane forms): min, max, saturating_add/sub,
 *    halving_add, rounding_halving_add, absd, abs; 32-bit shift_left/shift_right (any
 *    amount); lerp of u8/i8 by a u8 weight; (rounding_)mul_shift_right of 16-bit lanes;
 *  - f32 (4 and 8 lanes): min, max, floor, ceil, trunc, round, sqrt, abs, inverse,
 *    inverse_sqrt (and their fast_ forms, computed exactly), float %, is_nan;
 *  - conversions between 8 lanes of u8/i8/u16/i16/u32/i32/f32 and between 16 lanes of
 *    u8/i8/u16/i16 and of those and i32/f32;
 *  - comparisons (lt le eq ne) of 32- and 16-bit lanes giving bool lanes, selects by bool lanes;
 *  - gathers of 32-bit lanes (i32/u32/f32) by i32 indices, masked or not.
 * Each one computes the generated default's result bit for bit (README.md), e.g. MINPS is
 * a < b ? a : b, as the IR's min, also for NaN and -0.0; ROUNDPS rounds as floorf, ceilf,
 * truncf and nearbyintf. Conversions from float to integers give the x86 scalar conversion's
 * result (CVTTSS2SI, then truncation to the lane width): C leaves out-of-range values
 * undefined. A vector type an override needs is claimed here (LOOM_HAVE_TYPE_<tag>) with the
 * generic mapping's definition. */
#ifndef LOOM_SIMD_AVX2_H
#define LOOM_SIMD_AVX2_H

#if !defined(__AVX2__)
#error "LOOM_SIMD_AVX2 needs AVX2: compile with -mavx2 -mfma (or -march=haswell or later)"
#endif
#include <immintrin.h>

/* ---- Types: as the generic mapping defines them ---- */
#define LOOM_HAVE_TYPE_v4b 1
#define LOOM_HAVE_TYPE_v8b 1
#define LOOM_HAVE_TYPE_v16b 1
#define LOOM_HAVE_TYPE_v8u8 1
#define LOOM_HAVE_TYPE_v8i8 1
#define LOOM_HAVE_TYPE_v16u8 1
#define LOOM_HAVE_TYPE_v16i8 1
#define LOOM_HAVE_TYPE_v32u8 1
#define LOOM_HAVE_TYPE_v32i8 1
#define LOOM_HAVE_TYPE_v8u16 1
#define LOOM_HAVE_TYPE_v8i16 1
#define LOOM_HAVE_TYPE_v16u16 1
#define LOOM_HAVE_TYPE_v16i16 1
#define LOOM_HAVE_TYPE_v4u32 1
#define LOOM_HAVE_TYPE_v4i32 1
#define LOOM_HAVE_TYPE_v8u32 1
#define LOOM_HAVE_TYPE_v8i32 1
#define LOOM_HAVE_TYPE_v16i32 1
#define LOOM_HAVE_TYPE_v4f32 1
#define LOOM_HAVE_TYPE_v8f32 1
#define LOOM_HAVE_TYPE_v16f32 1
/* Bool lanes as the generic mapping keeps them: v4b and v8b in 32-bit lanes, v16b in 16-bit
 * lanes (0 or 1), so comparisons of those widths and selects by them need no packing. */
LOOM_BOOL_VECTOR_TYPE(v4b, 4)
LOOM_BOOL_VECTOR_TYPE(v8b, 8)
LOOM_BOOL_VECTOR_TYPE(v16b, 16)
LOOM_VECTOR_TYPE(v8u8, 8, uint8_t)
LOOM_VECTOR_TYPE(v8i8, 8, int8_t)
LOOM_VECTOR_TYPE(v16u8, 16, uint8_t)
LOOM_VECTOR_TYPE(v16i8, 16, int8_t)
LOOM_VECTOR_TYPE(v32u8, 32, uint8_t)
LOOM_VECTOR_TYPE(v32i8, 32, int8_t)
LOOM_VECTOR_TYPE(v8u16, 8, uint16_t)
LOOM_VECTOR_TYPE(v8i16, 8, int16_t)
LOOM_VECTOR_TYPE(v16u16, 16, uint16_t)
LOOM_VECTOR_TYPE(v16i16, 16, int16_t)
LOOM_VECTOR_TYPE(v4u32, 4, uint32_t)
LOOM_VECTOR_TYPE(v4i32, 4, int32_t)
LOOM_VECTOR_TYPE(v8u32, 8, uint32_t)
LOOM_VECTOR_TYPE(v8i32, 8, int32_t)
LOOM_VECTOR_TYPE(v16i32, 16, int32_t)
LOOM_VECTOR_TYPE(v4f32, 4, float)
LOOM_VECTOR_TYPE(v8f32, 8, float)
LOOM_VECTOR_TYPE(v16f32, 16, float)

/* ---- Helpers ---- */
/* A vector-extension value and an intrinsic type of the same size convert with a cast (the
 * bits stay); 8- and 4-byte vectors go through the low half of an SSE register. */
#define LOOM_AVX2_LO64(v) _mm_loadl_epi64((const __m128i *)(const void *)&(v))
LOOM_C_INLINE loom_v8u8 loom_avx2_v8u8(__m128i x) {
    loom_v8u8 r;
    _mm_storel_epi64((__m128i *)(void *)&r, x);
    return r;
}
LOOM_C_INLINE __m128i loom_avx2_lo32(const void *p) {
    int32_t t;
    memcpy(&t, p, 4);
    return _mm_cvtsi32_si128(t);
}
/* 16 lanes of 32 bits as two AVX registers. */
LOOM_C_INLINE void loom_avx2_split_i32(loom_v16i32 v, __m256i *lo, __m256i *hi) {
    memcpy(lo, &v, 32);
    memcpy(hi, (const char *)&v + 32, 32);
}
LOOM_C_INLINE void loom_avx2_split_f32(loom_v16f32 v, __m256 *lo, __m256 *hi) {
    memcpy(lo, &v, 32);
    memcpy(hi, (const char *)&v + 32, 32);
}
LOOM_C_INLINE loom_v16i32 loom_avx2_join_i32(__m256i lo, __m256i hi) {
    loom_v16i32 r;
    memcpy(&r, &lo, 32);
    memcpy((char *)&r + 32, &hi, 32);
    return r;
}
LOOM_C_INLINE loom_v16f32 loom_avx2_join_f32(__m256 lo, __m256 hi) {
    loom_v16f32 r;
    memcpy(&r, &lo, 32);
    memcpy((char *)&r + 32, &hi, 32);
    return r;
}
LOOM_C_INLINE __m256i loom_avx2_join128(__m128i lo, __m128i hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Truncations to narrower lanes (the low bits of each lane), through unsigned saturating packs
 * of values masked to the narrow width. */
LOOM_C_INLINE __m128i loom_avx2_trunc_32to16(__m256i x) { /* 8 lanes */
    x = _mm256_and_si256(x, _mm256_set1_epi32(0xFFFF));
    return _mm_packus_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}
LOOM_C_INLINE __m128i loom_avx2_trunc_32to8(__m256i x) { /* 8 lanes, in the low half */
    __m128i w = loom_avx2_trunc_32to16(_mm256_and_si256(x, _mm256_set1_epi32(0xFF)));
    return _mm_packus_epi16(w, w);
}
LOOM_C_INLINE __m128i loom_avx2_trunc_16to8(__m128i x) { /* 8 lanes, in the low half */
    x = _mm_and_si128(x, _mm_set1_epi16(0xFF));
    return _mm_packus_epi16(x, x);
}
LOOM_C_INLINE __m128i loom_avx2_trunc_16to8_x16(__m256i x) { /* 16 lanes */
    x = _mm256_and_si256(x, _mm256_set1_epi16(0xFF));
    return _mm_packus_epi16(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}
LOOM_C_INLINE __m256i loom_avx2_trunc_32to16_x16(__m256i lo, __m256i hi) { /* 16 lanes */
    __m256i mask = _mm256_set1_epi32(0xFFFF);
    __m256i p = _mm256_packus_epi32(_mm256_and_si256(lo, mask), _mm256_and_si256(hi, mask));
    /* The pack works within 128-bit halves: lo 0-3, hi 0-3, lo 4-7, hi 4-7. */
    return _mm256_permute4x64_epi64(p, 0xD8);
}
LOOM_C_INLINE __m128i loom_avx2_trunc_32to8_x16(__m256i lo, __m256i hi) { /* 16 lanes */
    __m256i mask = _mm256_set1_epi32(0xFF);
    return loom_avx2_trunc_16to8_x16(
        loom_avx2_trunc_32to16_x16(_mm256_and_si256(lo, mask), _mm256_and_si256(hi, mask)));
}

/* Float to integer as the x86 scalar conversion: toward zero, in 32 bits. To u32: values from
 * 2^31 on (exact after subtracting 2^31) convert shifted down, then get their top bit back. */
LOOM_C_INLINE __m256i loom_avx2_f32_to_u32(__m256 x) {
    __m256 two31 = _mm256_set1_ps(2147483648.0f);
    __m256 big = _mm256_cmp_ps(x, two31, _CMP_GE_OQ);
    __m256i r = _mm256_cvttps_epi32(_mm256_blendv_ps(x, _mm256_sub_ps(x, two31), big));
    return _mm256_xor_si256(
        r, _mm256_and_si256(_mm256_castps_si256(big), _mm256_set1_epi32(INT32_MIN)));
}
/* u32 to float rounded once: the high 16 bits times 2^16 and the low 16 bits are both exact. */
LOOM_C_INLINE __m256 loom_avx2_u32_to_f32(__m256i x) {
    __m256 hi = _mm256_cvtepi32_ps(_mm256_srli_epi32(x, 16));
    __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(x, _mm256_set1_epi32(0xFFFF)));
    return _mm256_add_ps(_mm256_mul_ps(hi, _mm256_set1_ps(65536.0f)), lo);
}

/* Lanes of -1 or 0 to bool lanes (0 or 1), or of their negation; and back to masks. */
LOOM_C_INLINE loom_v8b loom_avx2_v8b_m32(__m256i m, int negate) {
    __m256i one = _mm256_set1_epi32(1);
    return (loom_v8b)(negate ? _mm256_andnot_si256(m, one) : _mm256_and_si256(m, one));
}
LOOM_C_INLINE loom_v4b loom_avx2_v4b_m32(__m128i m, int negate) {
    __m128i one = _mm_set1_epi32(1);
    return (loom_v4b)(negate ? _mm_andnot_si128(m, one) : _mm_and_si128(m, one));
}
LOOM_C_INLINE loom_v8b loom_avx2_v8b_m16(__m128i m, int negate) {
    return loom_avx2_v8b_m32(_mm256_cvtepi16_epi32(m), negate);
}
LOOM_C_INLINE loom_v16b loom_avx2_v16b_m16(__m256i m, int negate) {
    __m256i one = _mm256_set1_epi16(1);
    return (loom_v16b)(negate ? _mm256_andnot_si256(m, one) : _mm256_and_si256(m, one));
}
LOOM_C_INLINE __m256i loom_avx2_m32_v8b(loom_v8b m) {
    return _mm256_sub_epi32(_mm256_setzero_si256(), (__m256i)m);
}
LOOM_C_INLINE __m128i loom_avx2_m32_v4b(loom_v4b m) {
    return _mm_sub_epi32(_mm_setzero_si128(), (__m128i)m);
}
LOOM_C_INLINE __m128i loom_avx2_m16_v8b(loom_v8b m) {
    __m256i w = (__m256i)m;
    __m128i n = _mm_packs_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    return _mm_sub_epi16(_mm_setzero_si128(), n);
}
LOOM_C_INLINE __m256i loom_avx2_m16_v16b(loom_v16b m) {
    return _mm256_sub_epi16(_mm256_setzero_si256(), (__m256i)m);
}

/* f(a) or f(a, b): expr on a and b as the intrinsic type I, the result cast back to R. */
#define LOOM_AVX2_UNARY(f, R, A, I, expr)                                                          \
    LOOM_C_INLINE R f(A a_) {                                                                      \
        I a = (I)a_;                                                                               \
        return (R)(expr);                                                                          \
    }
#define LOOM_AVX2_BINARY(f, R, A, I, expr)                                                         \
    LOOM_C_INLINE R f(A a_, A b_) {                                                                \
        I a = (I)a_, b = (I)b_;                                                                    \
        return (R)(expr);                                                                          \
    }

/* ---- Integers ---- */
/* min, max, saturating add and subtract, averages, absd and abs of 8- and 16-bit lanes in one
 * register (P: _mm or _mm256, N: 128 or 256, B: 8 or 16). Signed averages are the unsigned
 * ones of values biased by 2^(B-1); halving_add is the rounding average less the low bit of
 * a + b. absd is the difference of max and min, in wrapping arithmetic. */
#define LOOM_AVX2_INT_U(tag, P, N, B)                                                              \
    LOOM_AVX2_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m##N##i, P##_min_epu##B(a, b))    \
    LOOM_AVX2_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m##N##i, P##_max_epu##B(a, b))    \
    LOOM_AVX2_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m##N##i,               \
                     P##_adds_epu##B(a, b))                                                        \
    LOOM_AVX2_BINARY(loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m##N##i,               \
                     P##_subs_epu##B(a, b))                                                        \
    LOOM_AVX2_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m##N##i,         \
                     P##_avg_epu##B(a, b))                                                         \
    LOOM_AVX2_BINARY(loom_##tag##_halving_add, loom_##tag, loom_##tag, __m##N##i,                  \
                     P##_sub_epi##B(P##_avg_epu##B(a, b),                                          \
                                    P##_and_si##N(P##_xor_si##N(a, b), P##_set1_epi##B(1))))       \
    LOOM_AVX2_BINARY(loom_##tag##_absd, loom_##tag, loom_##tag, __m##N##i,                         \
                     P##_or_si##N(P##_subs_epu##B(a, b), P##_subs_epu##B(b, a)))
#define LOOM_AVX2_INT_S(tag, utag, P, N, B, bias)                                                  \
    LOOM_AVX2_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m##N##i, P##_min_epi##B(a, b))    \
    LOOM_AVX2_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m##N##i, P##_max_epi##B(a, b))    \
    LOOM_AVX2_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m##N##i,               \
                     P##_adds_epi##B(a, b))                                                        \
    LOOM_AVX2_BINARY(loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m##N##i,               \
                     P##_subs_epi##B(a, b))                                                        \
    LOOM_AVX2_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m##N##i,         \
                     P##_xor_si##N(P##_avg_epu##B(P##_xor_si##N(a, P##_set1_epi##B(bias)),         \
                                                  P##_xor_si##N(b, P##_set1_epi##B(bias))),        \
                                   P##_set1_epi##B(bias)))                                         \
    LOOM_AVX2_BINARY(                                                                              \
        loom_##tag##_halving_add, loom_##tag, loom_##tag, __m##N##i,                               \
        P##_sub_epi##B(P##_xor_si##N(P##_avg_epu##B(P##_xor_si##N(a, P##_set1_epi##B(bias)),       \
                                                    P##_xor_si##N(b, P##_set1_epi##B(bias))),      \
                                     P##_set1_epi##B(bias)),                                       \
                       P##_and_si##N(P##_xor_si##N(a, b), P##_set1_epi##B(1))))                    \
    LOOM_AVX2_BINARY(loom_##utag##_absd_##tag, loom_##utag, loom_##tag, __m##N##i,                 \
                     P##_sub_epi##B(P##_max_epi##B(a, b), P##_min_epi##B(a, b)))                   \
    LOOM_AVX2_UNARY(loom_##utag##_abs_##tag, loom_##utag, loom_##tag, __m##N##i, P##_abs_epi##B(a))

#define LOOM_HAVE_loom_v16u8_min 1
#define LOOM_HAVE_loom_v16u8_max 1
#define LOOM_HAVE_loom_v16u8_saturating_add 1
#define LOOM_HAVE_loom_v16u8_saturating_sub 1
#define LOOM_HAVE_loom_v16u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u8_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd 1
LOOM_AVX2_INT_U(v16u8, _mm, 128, 8)
#define LOOM_HAVE_loom_v32u8_min 1
#define LOOM_HAVE_loom_v32u8_max 1
#define LOOM_HAVE_loom_v32u8_saturating_add 1
#define LOOM_HAVE_loom_v32u8_saturating_sub 1
#define LOOM_HAVE_loom_v32u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v32u8_halving_add 1
#define LOOM_HAVE_loom_v32u8_absd 1
LOOM_AVX2_INT_U(v32u8, _mm256, 256, 8)
#define LOOM_HAVE_loom_v8u16_min 1
#define LOOM_HAVE_loom_v8u16_max 1
#define LOOM_HAVE_loom_v8u16_saturating_add 1
#define LOOM_HAVE_loom_v8u16_saturating_sub 1
#define LOOM_HAVE_loom_v8u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u16_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd 1
LOOM_AVX2_INT_U(v8u16, _mm, 128, 16)
#define LOOM_HAVE_loom_v16u16_min 1
#define LOOM_HAVE_loom_v16u16_max 1
#define LOOM_HAVE_loom_v16u16_saturating_add 1
#define LOOM_HAVE_loom_v16u16_saturating_sub 1
#define LOOM_HAVE_loom_v16u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u16_halving_add 1
#define LOOM_HAVE_loom_v16u16_absd 1
LOOM_AVX2_INT_U(v16u16, _mm256, 256, 16)
#define LOOM_HAVE_loom_v16i8_min 1
#define LOOM_HAVE_loom_v16i8_max 1
#define LOOM_HAVE_loom_v16i8_saturating_add 1
#define LOOM_HAVE_loom_v16i8_saturating_sub 1
#define LOOM_HAVE_loom_v16i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16i8_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd_v16i8 1
#define LOOM_HAVE_loom_v16u8_abs_v16i8 1
LOOM_AVX2_INT_S(v16i8, v16u8, _mm, 128, 8, -128)
#define LOOM_HAVE_loom_v32i8_min 1
#define LOOM_HAVE_loom_v32i8_max 1
#define LOOM_HAVE_loom_v32i8_saturating_add 1
#define LOOM_HAVE_loom_v32i8_saturating_sub 1
#define LOOM_HAVE_loom_v32i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v32i8_halving_add 1
#define LOOM_HAVE_loom_v32u8_absd_v32i8 1
#define LOOM_HAVE_loom_v32u8_abs_v32i8 1
LOOM_AVX2_INT_S(v32i8, v32u8, _mm256, 256, 8, -128)
#define LOOM_HAVE_loom_v8i16_min 1
#define LOOM_HAVE_loom_v8i16_max 1
#define LOOM_HAVE_loom_v8i16_saturating_add 1
#define LOOM_HAVE_loom_v8i16_saturating_sub 1
#define LOOM_HAVE_loom_v8i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8i16_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd_v8i16 1
#define LOOM_HAVE_loom_v8u16_abs_v8i16 1
LOOM_AVX2_INT_S(v8i16, v8u16, _mm, 128, 16, -32768)
#define LOOM_HAVE_loom_v16i16_min 1
#define LOOM_HAVE_loom_v16i16_max 1
#define LOOM_HAVE_loom_v16i16_saturating_add 1
#define LOOM_HAVE_loom_v16i16_saturating_sub 1
#define LOOM_HAVE_loom_v16i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v16i16_halving_add 1
#define LOOM_HAVE_loom_v16u16_absd_v16i16 1
#define LOOM_HAVE_loom_v16u16_abs_v16i16 1
LOOM_AVX2_INT_S(v16i16, v16u16, _mm256, 256, 16, -32768)

/* 8 lanes of 8 bits: the 16-lane operation on the low half. */
#define LOOM_AVX2_HALF_BINARY(f, R, A, f16, A16)                                                   \
    LOOM_C_INLINE R f(A a, A b) {                                                                  \
        return (R)loom_avx2_v8u8((__m128i)f16((A16)LOOM_AVX2_LO64(a), (A16)LOOM_AVX2_LO64(b)));    \
    }
#define LOOM_AVX2_HALF_UNARY(f, R, A, f16, A16)                                                    \
    LOOM_C_INLINE R f(A a) { return (R)loom_avx2_v8u8((__m128i)f16((A16)LOOM_AVX2_LO64(a))); }
#define LOOM_AVX2_HALF_INT(op, R, A, R16, A16)                                                     \
    LOOM_AVX2_HALF_BINARY(loom_##R##_##op, loom_##R, loom_##A, loom_##R16##_##op, loom_##A16)
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
LOOM_AVX2_HALF_INT(min, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(max, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(saturating_add, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(saturating_sub, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(rounding_halving_add, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(halving_add, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(absd, v8u8, v8u8, v16u8, v16u8)
LOOM_AVX2_HALF_INT(min, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_INT(max, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_INT(saturating_add, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_INT(saturating_sub, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_INT(rounding_halving_add, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_INT(halving_add, v8i8, v8i8, v16i8, v16i8)
LOOM_AVX2_HALF_BINARY(loom_v8u8_absd_v8i8, loom_v8u8, loom_v8i8, loom_v16u8_absd_v16i8, loom_v16i8)
LOOM_AVX2_HALF_UNARY(loom_v8u8_abs_v8i8, loom_v8u8, loom_v8i8, loom_v16u8_abs_v16i8, loom_v16i8)

/* 32-bit lanes. u32: a + min(b, ~a) and a - min(a, b) saturate; i32: the wrapped result where
 * the operands' and result's signs show no overflow, else the bound of a's sign. Halving
 * additions: (a >> 1) + (b >> 1) plus the carry of the low bits (a & b, or a | b rounding). */
#define LOOM_AVX2_INT32(tag, utag, P, N, blend)                                                    \
    LOOM_AVX2_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, __m##N##i,               \
                     blend(P##_add_epi32(a, b),                                                    \
                           P##_xor_si##N(P##_srai_epi32(a, 31), P##_set1_epi32(0x7FFFFFFF)),       \
                           P##_and_si##N(P##_xor_si##N(a, P##_add_epi32(a, b)),                    \
                                         P##_xor_si##N(b, P##_add_epi32(a, b)))))                  \
    LOOM_AVX2_BINARY(                                                                              \
        loom_##tag##_saturating_sub, loom_##tag, loom_##tag, __m##N##i,                            \
        blend(P##_sub_epi32(a, b),                                                                 \
              P##_xor_si##N(P##_srai_epi32(a, 31), P##_set1_epi32(0x7FFFFFFF)),                    \
              P##_and_si##N(P##_xor_si##N(a, b), P##_xor_si##N(a, P##_sub_epi32(a, b)))))          \
    LOOM_AVX2_BINARY(loom_##utag##_saturating_add, loom_##utag, loom_##utag, __m##N##i,            \
                     P##_add_epi32(a, P##_min_epu32(b, P##_xor_si##N(a, P##_set1_epi32(-1)))))     \
    LOOM_AVX2_BINARY(loom_##utag##_saturating_sub, loom_##utag, loom_##utag, __m##N##i,            \
                     P##_sub_epi32(a, P##_min_epu32(a, b)))                                        \
    LOOM_AVX2_BINARY(loom_##tag##_halving_add, loom_##tag, loom_##tag, __m##N##i,                  \
                     P##_add_epi32(P##_add_epi32(P##_srai_epi32(a, 1), P##_srai_epi32(b, 1)),      \
                                   P##_and_si##N(P##_and_si##N(a, b), P##_set1_epi32(1))))         \
    LOOM_AVX2_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, __m##N##i,         \
                     P##_add_epi32(P##_add_epi32(P##_srai_epi32(a, 1), P##_srai_epi32(b, 1)),      \
                                   P##_and_si##N(P##_or_si##N(a, b), P##_set1_epi32(1))))          \
    LOOM_AVX2_BINARY(loom_##utag##_halving_add, loom_##utag, loom_##utag, __m##N##i,               \
                     P##_add_epi32(P##_add_epi32(P##_srli_epi32(a, 1), P##_srli_epi32(b, 1)),      \
                                   P##_and_si##N(P##_and_si##N(a, b), P##_set1_epi32(1))))         \
    LOOM_AVX2_BINARY(loom_##utag##_rounding_halving_add, loom_##utag, loom_##utag, __m##N##i,      \
                     P##_add_epi32(P##_add_epi32(P##_srli_epi32(a, 1), P##_srli_epi32(b, 1)),      \
                                   P##_and_si##N(P##_or_si##N(a, b), P##_set1_epi32(1))))          \
    LOOM_AVX2_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, __m##N##i, P##_min_epi32(a, b))     \
    LOOM_AVX2_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, __m##N##i, P##_max_epi32(a, b))     \
    LOOM_AVX2_BINARY(loom_##utag##_min, loom_##utag, loom_##utag, __m##N##i, P##_min_epu32(a, b))  \
    LOOM_AVX2_BINARY(loom_##utag##_max, loom_##utag, loom_##utag, __m##N##i, P##_max_epu32(a, b))  \
    LOOM_AVX2_BINARY(loom_##utag##_absd_##tag, loom_##utag, loom_##tag, __m##N##i,                 \
                     P##_sub_epi32(P##_max_epi32(a, b), P##_min_epi32(a, b)))                      \
    LOOM_AVX2_BINARY(loom_##utag##_absd, loom_##utag, loom_##utag, __m##N##i,                      \
                     P##_sub_epi32(P##_max_epu32(a, b), P##_min_epu32(a, b)))                      \
    LOOM_AVX2_UNARY(loom_##utag##_abs_##tag, loom_##utag, loom_##tag, __m##N##i, P##_abs_epi32(a)) \
    /* Halide's shifts: a negative amount shifts the other way; from 32 on, 0 or the sign. */      \
    LOOM_AVX2_BINARY(                                                                              \
        loom_##tag##_shift_left, loom_##tag, loom_##tag, __m##N##i,                                \
        blend(P##_sllv_epi32(a, P##_abs_epi32(b)), P##_srav_epi32(a, P##_abs_epi32(b)), b))        \
    LOOM_AVX2_BINARY(                                                                              \
        loom_##tag##_shift_right, loom_##tag, loom_##tag, __m##N##i,                               \
        blend(P##_srav_epi32(a, P##_abs_epi32(b)), P##_sllv_epi32(a, P##_abs_epi32(b)), b))        \
    LOOM_AVX2_BINARY(loom_##utag##_shift_left, loom_##utag, loom_##utag, __m##N##i,                \
                     P##_sllv_epi32(a, b))                                                         \
    LOOM_AVX2_BINARY(loom_##utag##_shift_right, loom_##utag, loom_##utag, __m##N##i,               \
                     P##_srlv_epi32(a, b))
/* Blends of 32-bit integer lanes by their sign, through the float form. */
#define loom_avx2_blend128(a, b, m)                                                                \
    _mm_castps_si128(_mm_blendv_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _mm_castsi128_ps(m)))
#define loom_avx2_blend256(a, b, m)                                                                \
    _mm256_castps_si256(                                                                           \
        _mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _mm256_castsi256_ps(m)))

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
LOOM_AVX2_INT32(v4i32, v4u32, _mm, 128, loom_avx2_blend128)
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
LOOM_AVX2_INT32(v8i32, v8u32, _mm256, 256, loom_avx2_blend256)

/* lerp of u8 lanes by a u8 weight, in 16-bit lanes: zero * (255 - w) + one * w + 128 is at
 * most 255 * 255 + 128, and adding it shifted right by 8 stays below 2^16. i8 lanes are u8
 * lanes biased by 128. */
LOOM_C_INLINE __m256i loom_avx2_lerp16_x16(__m256i z, __m256i o, __m256i w) {
    __m256i p = _mm256_add_epi16(
        _mm256_add_epi16(_mm256_mullo_epi16(z, _mm256_sub_epi16(_mm256_set1_epi16(255), w)),
                         _mm256_mullo_epi16(o, w)),
        _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_srli_epi16(p, 8), p), 8);
}
LOOM_C_INLINE __m128i loom_avx2_lerp_u8_x16(__m128i z, __m128i o, __m128i w) {
    __m256i r = loom_avx2_lerp16_x16(_mm256_cvtepu8_epi16(z), _mm256_cvtepu8_epi16(o),
                                     _mm256_cvtepu8_epi16(w));
    return _mm_packus_epi16(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}
LOOM_C_INLINE __m128i loom_avx2_lerp_i8_x16(__m128i z, __m128i o, __m128i w) {
    __m128i bias = _mm_set1_epi8(-128);
    return _mm_xor_si128(loom_avx2_lerp_u8_x16(_mm_xor_si128(z, bias), _mm_xor_si128(o, bias), w),
                         bias);
}
#define LOOM_HAVE_loom_v16u8_lerp 1
#define LOOM_HAVE_loom_v16i8_lerp_v16i8_v16i8_v16u8 1
#define LOOM_HAVE_loom_v8u8_lerp 1
#define LOOM_HAVE_loom_v8i8_lerp_v8i8_v8i8_v8u8 1
#define LOOM_HAVE_loom_v32u8_lerp 1
#define LOOM_HAVE_loom_v32i8_lerp_v32i8_v32i8_v32u8 1
LOOM_C_INLINE loom_v16u8 loom_v16u8_lerp(loom_v16u8 z, loom_v16u8 o, loom_v16u8 w) {
    return (loom_v16u8)loom_avx2_lerp_u8_x16((__m128i)z, (__m128i)o, (__m128i)w);
}
LOOM_C_INLINE loom_v16i8 loom_v16i8_lerp_v16i8_v16i8_v16u8(loom_v16i8 z, loom_v16i8 o,
                                                           loom_v16u8 w) {
    return (loom_v16i8)loom_avx2_lerp_i8_x16((__m128i)z, (__m128i)o, (__m128i)w);
}
LOOM_C_INLINE loom_v8u8 loom_v8u8_lerp(loom_v8u8 z, loom_v8u8 o, loom_v8u8 w) {
    return loom_avx2_v8u8(
        loom_avx2_lerp_u8_x16(LOOM_AVX2_LO64(z), LOOM_AVX2_LO64(o), LOOM_AVX2_LO64(w)));
}
LOOM_C_INLINE loom_v8i8 loom_v8i8_lerp_v8i8_v8i8_v8u8(loom_v8i8 z, loom_v8i8 o, loom_v8u8 w) {
    return (loom_v8i8)loom_avx2_v8u8(
        loom_avx2_lerp_i8_x16(LOOM_AVX2_LO64(z), LOOM_AVX2_LO64(o), LOOM_AVX2_LO64(w)));
}
LOOM_C_INLINE loom_v32u8 loom_v32u8_lerp(loom_v32u8 z, loom_v32u8 o, loom_v32u8 w) {
    __m256i a = (__m256i)z, b = (__m256i)o, c = (__m256i)w;
    return (loom_v32u8)loom_avx2_join128(
        loom_avx2_lerp_u8_x16(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b),
                              _mm256_castsi256_si128(c)),
        loom_avx2_lerp_u8_x16(_mm256_extracti128_si256(a, 1), _mm256_extracti128_si256(b, 1),
                              _mm256_extracti128_si256(c, 1)));
}
LOOM_C_INLINE loom_v32i8 loom_v32i8_lerp_v32i8_v32i8_v32u8(loom_v32i8 z, loom_v32i8 o,
                                                           loom_v32u8 w) {
    __m256i a = (__m256i)z, b = (__m256i)o, c = (__m256i)w;
    return (loom_v32i8)loom_avx2_join128(
        loom_avx2_lerp_i8_x16(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b),
                              _mm256_castsi256_si128(c)),
        loom_avx2_lerp_i8_x16(_mm256_extracti128_si256(a, 1), _mm256_extracti128_si256(b, 1),
                              _mm256_extracti128_si256(c, 1)));
}

/* (rounding_)mul_shift_right of 16-bit lanes: the exact product in 32 bits (plus half the
 * divisor, wrapping), shifted by q read as unsigned and at most 31, saturated to 16 bits. A
 * shift of 16 everywhere is PMULHUW / PMULHW; a rounding shift of 15 of i16 is PMULHRSW, but
 * for -32768 * -32768, where it wraps instead of saturating. */
LOOM_C_INLINE int loom_avx2_all16(__m128i q, int v) {
    return _mm_movemask_epi8(_mm_cmpeq_epi16(q, _mm_set1_epi16((short)v))) == 0xFFFF;
}
LOOM_C_INLINE __m128i loom_avx2_msr_u16(__m128i a, __m128i b, __m128i q, int rounding) {
    __m256i s, p;
    if (!rounding && loom_avx2_all16(q, 16)) return _mm_mulhi_epu16(a, b);
    s = _mm256_min_epu32(_mm256_cvtepu16_epi32(q), _mm256_set1_epi32(31));
    p = _mm256_mullo_epi32(_mm256_cvtepu16_epi32(a), _mm256_cvtepu16_epi32(b));
    if (rounding) {
        p = _mm256_add_epi32(p, _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), s), 1));
    }
    p = _mm256_min_epu32(_mm256_srlv_epi32(p, s), _mm256_set1_epi32(0xFFFF));
    return _mm_packus_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
}
LOOM_C_INLINE __m128i loom_avx2_msr_i16(__m128i a, __m128i b, __m128i q, int rounding) {
    __m256i s, p;
    if (!rounding && loom_avx2_all16(q, 16)) return _mm_mulhi_epi16(a, b);
    if (rounding && loom_avx2_all16(q, 15)) {
        __m128i m = _mm_set1_epi16(-32768);
        return _mm_xor_si128(_mm_mulhrs_epi16(a, b),
                             _mm_and_si128(_mm_cmpeq_epi16(a, m), _mm_cmpeq_epi16(b, m)));
    }
    s = _mm256_min_epu32(_mm256_cvtepu16_epi32(q), _mm256_set1_epi32(31));
    p = _mm256_mullo_epi32(_mm256_cvtepi16_epi32(a), _mm256_cvtepi16_epi32(b));
    if (rounding) {
        p = _mm256_add_epi32(p, _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), s), 1));
    }
    p = _mm256_srav_epi32(p, s);
    return _mm_packs_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
}
#define LOOM_AVX2_MSR(f, T, Q, impl, rounding)                                                     \
    LOOM_C_INLINE loom_##T f(loom_##T a, loom_##T b, loom_##Q q) {                                 \
        return (loom_##T)impl((__m128i)a, (__m128i)b, (__m128i)q, rounding);                       \
    }
#define LOOM_AVX2_MSR_X16(f, T, Q, impl, rounding)                                                 \
    LOOM_C_INLINE loom_##T f(loom_##T a, loom_##T b, loom_##Q q) {                                 \
        __m256i x = (__m256i)a, y = (__m256i)b, z = (__m256i)q;                                    \
        return (loom_##T)loom_avx2_join128(                                                        \
            impl(_mm256_castsi256_si128(x), _mm256_castsi256_si128(y), _mm256_castsi256_si128(z),  \
                 rounding),                                                                        \
            impl(_mm256_extracti128_si256(x, 1), _mm256_extracti128_si256(y, 1),                   \
                 _mm256_extracti128_si256(z, 1), rounding));                                       \
    }
#define LOOM_HAVE_loom_v8u16_mul_shift_right 1
#define LOOM_HAVE_loom_v8u16_rounding_mul_shift_right 1
#define LOOM_HAVE_loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_HAVE_loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_HAVE_loom_v16u16_mul_shift_right 1
#define LOOM_HAVE_loom_v16u16_rounding_mul_shift_right 1
#define LOOM_HAVE_loom_v16i16_mul_shift_right_v16i16_v16i16_v16u16 1
#define LOOM_HAVE_loom_v16i16_rounding_mul_shift_right_v16i16_v16i16_v16u16 1
LOOM_AVX2_MSR(loom_v8u16_mul_shift_right, v8u16, v8u16, loom_avx2_msr_u16, 0)
LOOM_AVX2_MSR(loom_v8u16_rounding_mul_shift_right, v8u16, v8u16, loom_avx2_msr_u16, 1)
LOOM_AVX2_MSR(loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16, v8i16, v8u16, loom_avx2_msr_i16, 0)
LOOM_AVX2_MSR(loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16, v8i16, v8u16,
              loom_avx2_msr_i16, 1)
LOOM_AVX2_MSR_X16(loom_v16u16_mul_shift_right, v16u16, v16u16, loom_avx2_msr_u16, 0)
LOOM_AVX2_MSR_X16(loom_v16u16_rounding_mul_shift_right, v16u16, v16u16, loom_avx2_msr_u16, 1)
LOOM_AVX2_MSR_X16(loom_v16i16_mul_shift_right_v16i16_v16i16_v16u16, v16i16, v16u16,
                  loom_avx2_msr_i16, 0)
LOOM_AVX2_MSR_X16(loom_v16i16_rounding_mul_shift_right_v16i16_v16i16_v16u16, v16i16, v16u16,
                  loom_avx2_msr_i16, 1)

/* ---- Floats ---- */
/* MINPS is a < b ? a : b and MAXPS a > b ? a : b, NaN and signed zeros included: the IR's min
 * and max. ROUNDPS: floorf, ceilf, truncf, and nearbyintf (the current rounding mode). abs
 * clears the sign bit as fabsf; float % is a - b * floor(a / b), unfused. */
#define LOOM_AVX2_FLOAT(tag, P, I)                                                                 \
    LOOM_AVX2_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, I, P##_min_ps(a, b))                \
    LOOM_AVX2_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, I, P##_max_ps(a, b))                \
    LOOM_AVX2_UNARY(loom_##tag##_floor_f32, loom_##tag, loom_##tag, I,                             \
                    P##_round_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))                    \
    LOOM_AVX2_UNARY(loom_##tag##_ceil_f32, loom_##tag, loom_##tag, I,                              \
                    P##_round_ps(a, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC))                    \
    LOOM_AVX2_UNARY(loom_##tag##_trunc_f32, loom_##tag, loom_##tag, I,                             \
                    P##_round_ps(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC))                       \
    LOOM_AVX2_UNARY(loom_##tag##_round_f32, loom_##tag, loom_##tag, I,                             \
                    P##_round_ps(a, _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC))                 \
    LOOM_AVX2_UNARY(loom_##tag##_sqrt_f32, loom_##tag, loom_##tag, I, P##_sqrt_ps(a))              \
    LOOM_AVX2_UNARY(loom_##tag##_abs, loom_##tag, loom_##tag, I,                                   \
                    P##_andnot_ps(P##_set1_ps(-0.0f), a))                                          \
    LOOM_AVX2_UNARY(loom_##tag##_inverse_f32, loom_##tag, loom_##tag, I,                           \
                    P##_div_ps(P##_set1_ps(1.0f), a))                                              \
    LOOM_AVX2_UNARY(loom_##tag##_fast_inverse_f32, loom_##tag, loom_##tag, I,                      \
                    P##_div_ps(P##_set1_ps(1.0f), a))                                              \
    LOOM_AVX2_UNARY(loom_##tag##_inverse_sqrt_f32, loom_##tag, loom_##tag, I,                      \
                    P##_div_ps(P##_set1_ps(1.0f), P##_sqrt_ps(a)))                                 \
    LOOM_AVX2_UNARY(loom_##tag##_fast_inverse_sqrt_f32, loom_##tag, loom_##tag, I,                 \
                    P##_div_ps(P##_set1_ps(1.0f), P##_sqrt_ps(a)))                                 \
    LOOM_AVX2_BINARY(                                                                              \
        loom_##tag##_fmod, loom_##tag, loom_##tag, I,                                              \
        P##_sub_ps(a, P##_mul_ps(b, P##_round_ps(P##_div_ps(a, b),                                 \
                                                 _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))))
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
LOOM_AVX2_FLOAT(v4f32, _mm, __m128)
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
LOOM_AVX2_FLOAT(v8f32, _mm256, __m256)
#define LOOM_HAVE_loom_v8b_is_nan_f32_v8f32 1
#define LOOM_HAVE_loom_v4b_is_nan_f32_v4f32 1
LOOM_C_INLINE loom_v8b loom_v8b_is_nan_f32_v8f32(loom_v8f32 a) {
    return loom_avx2_v8b_m32(_mm256_castps_si256(_mm256_cmp_ps((__m256)a, (__m256)a, _CMP_UNORD_Q)),
                             0);
}
LOOM_C_INLINE loom_v4b loom_v4b_is_nan_f32_v4f32(loom_v4f32 a) {
    return loom_avx2_v4b_m32(_mm_castps_si128(_mm_cmp_ps((__m128)a, (__m128)a, _CMP_UNORD_Q)), 0);
}

/* ---- Conversions ---- */
#define LOOM_AVX2_CVT(R, A, expr)                                                                  \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) { return (loom_##R)(expr); }
/* 8 lanes: widened to 32 bits by the source's signedness, narrowed by truncation. */
#define LOOM_AVX2_W32_u8(a) _mm256_cvtepu8_epi32(LOOM_AVX2_LO64(a))
#define LOOM_AVX2_W32_i8(a) _mm256_cvtepi8_epi32(LOOM_AVX2_LO64(a))
#define LOOM_AVX2_W32_u16(a) _mm256_cvtepu16_epi32((__m128i)(a))
#define LOOM_AVX2_W32_i16(a) _mm256_cvtepi16_epi32((__m128i)(a))
#define LOOM_HAVE_loom_v8i32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8i32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8i32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8i32_cvt_v8i16 1
#define LOOM_HAVE_loom_v8u32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8u32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8u32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8u32_cvt_v8i16 1
#define LOOM_HAVE_loom_v8u32_cvt_v8f32 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u8 1
#define LOOM_HAVE_loom_v8f32_cvt_v8i8 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u16 1
#define LOOM_HAVE_loom_v8f32_cvt_v8i16 1
#define LOOM_HAVE_loom_v8f32_cvt_v8u32 1
LOOM_AVX2_CVT(v8i32, v8u8, LOOM_AVX2_W32_u8(a))
LOOM_AVX2_CVT(v8i32, v8i8, LOOM_AVX2_W32_i8(a))
LOOM_AVX2_CVT(v8i32, v8u16, LOOM_AVX2_W32_u16(a))
LOOM_AVX2_CVT(v8i32, v8i16, LOOM_AVX2_W32_i16(a))
LOOM_AVX2_CVT(v8u32, v8u8, LOOM_AVX2_W32_u8(a))
LOOM_AVX2_CVT(v8u32, v8i8, LOOM_AVX2_W32_i8(a))
LOOM_AVX2_CVT(v8u32, v8u16, LOOM_AVX2_W32_u16(a))
LOOM_AVX2_CVT(v8u32, v8i16, LOOM_AVX2_W32_i16(a))
LOOM_AVX2_CVT(v8u32, v8f32, loom_avx2_f32_to_u32((__m256)a))
LOOM_AVX2_CVT(v8f32, v8u8, _mm256_cvtepi32_ps(LOOM_AVX2_W32_u8(a)))
LOOM_AVX2_CVT(v8f32, v8i8, _mm256_cvtepi32_ps(LOOM_AVX2_W32_i8(a)))
LOOM_AVX2_CVT(v8f32, v8u16, _mm256_cvtepi32_ps(LOOM_AVX2_W32_u16(a)))
LOOM_AVX2_CVT(v8f32, v8i16, _mm256_cvtepi32_ps(LOOM_AVX2_W32_i16(a)))
LOOM_AVX2_CVT(v8f32, v8u32, loom_avx2_u32_to_f32((__m256i)a))
#define LOOM_HAVE_loom_v8u8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8u8_cvt_v8i16 1
#define LOOM_HAVE_loom_v8u8_cvt_v8i32 1
#define LOOM_HAVE_loom_v8u8_cvt_v8u32 1
#define LOOM_HAVE_loom_v8u8_cvt_v8f32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8i16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8i32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8u32 1
#define LOOM_HAVE_loom_v8i8_cvt_v8f32 1
LOOM_AVX2_CVT(v8u8, v8u16, loom_avx2_v8u8(loom_avx2_trunc_16to8((__m128i)a)))
LOOM_AVX2_CVT(v8u8, v8i16, loom_avx2_v8u8(loom_avx2_trunc_16to8((__m128i)a)))
LOOM_AVX2_CVT(v8u8, v8i32, loom_avx2_v8u8(loom_avx2_trunc_32to8((__m256i)a)))
LOOM_AVX2_CVT(v8u8, v8u32, loom_avx2_v8u8(loom_avx2_trunc_32to8((__m256i)a)))
LOOM_AVX2_CVT(v8u8, v8f32, loom_avx2_v8u8(loom_avx2_trunc_32to8(_mm256_cvttps_epi32((__m256)a))))
LOOM_AVX2_CVT(v8i8, v8u16, loom_avx2_v8u8(loom_avx2_trunc_16to8((__m128i)a)))
LOOM_AVX2_CVT(v8i8, v8i16, loom_avx2_v8u8(loom_avx2_trunc_16to8((__m128i)a)))
LOOM_AVX2_CVT(v8i8, v8i32, loom_avx2_v8u8(loom_avx2_trunc_32to8((__m256i)a)))
LOOM_AVX2_CVT(v8i8, v8u32, loom_avx2_v8u8(loom_avx2_trunc_32to8((__m256i)a)))
LOOM_AVX2_CVT(v8i8, v8f32, loom_avx2_v8u8(loom_avx2_trunc_32to8(_mm256_cvttps_epi32((__m256)a))))
#define LOOM_HAVE_loom_v8u16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8u16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8u16_cvt_v8i32 1
#define LOOM_HAVE_loom_v8u16_cvt_v8u32 1
#define LOOM_HAVE_loom_v8u16_cvt_v8f32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8i32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8u32 1
#define LOOM_HAVE_loom_v8i16_cvt_v8f32 1
LOOM_AVX2_CVT(v8u16, v8u8, _mm_cvtepu8_epi16(LOOM_AVX2_LO64(a)))
LOOM_AVX2_CVT(v8u16, v8i8, _mm_cvtepi8_epi16(LOOM_AVX2_LO64(a)))
LOOM_AVX2_CVT(v8u16, v8i32, loom_avx2_trunc_32to16((__m256i)a))
LOOM_AVX2_CVT(v8u16, v8u32, loom_avx2_trunc_32to16((__m256i)a))
LOOM_AVX2_CVT(v8u16, v8f32, loom_avx2_trunc_32to16(_mm256_cvttps_epi32((__m256)a)))
LOOM_AVX2_CVT(v8i16, v8u8, _mm_cvtepu8_epi16(LOOM_AVX2_LO64(a)))
LOOM_AVX2_CVT(v8i16, v8i8, _mm_cvtepi8_epi16(LOOM_AVX2_LO64(a)))
LOOM_AVX2_CVT(v8i16, v8i32, loom_avx2_trunc_32to16((__m256i)a))
LOOM_AVX2_CVT(v8i16, v8u32, loom_avx2_trunc_32to16((__m256i)a))
LOOM_AVX2_CVT(v8i16, v8f32, loom_avx2_trunc_32to16(_mm256_cvttps_epi32((__m256)a)))

/* 16 lanes: 8 and 16 bits in one register each, 32 bits in two. */
#define LOOM_HAVE_loom_v16u16_cvt_v16u8 1
#define LOOM_HAVE_loom_v16u16_cvt_v16i8 1
#define LOOM_HAVE_loom_v16i16_cvt_v16u8 1
#define LOOM_HAVE_loom_v16i16_cvt_v16i8 1
#define LOOM_HAVE_loom_v16u8_cvt_v16u16 1
#define LOOM_HAVE_loom_v16u8_cvt_v16i16 1
#define LOOM_HAVE_loom_v16i8_cvt_v16u16 1
#define LOOM_HAVE_loom_v16i8_cvt_v16i16 1
LOOM_AVX2_CVT(v16u16, v16u8, _mm256_cvtepu8_epi16((__m128i)a))
LOOM_AVX2_CVT(v16u16, v16i8, _mm256_cvtepi8_epi16((__m128i)a))
LOOM_AVX2_CVT(v16i16, v16u8, _mm256_cvtepu8_epi16((__m128i)a))
LOOM_AVX2_CVT(v16i16, v16i8, _mm256_cvtepi8_epi16((__m128i)a))
LOOM_AVX2_CVT(v16u8, v16u16, loom_avx2_trunc_16to8_x16((__m256i)a))
LOOM_AVX2_CVT(v16u8, v16i16, loom_avx2_trunc_16to8_x16((__m256i)a))
LOOM_AVX2_CVT(v16i8, v16u16, loom_avx2_trunc_16to8_x16((__m256i)a))
LOOM_AVX2_CVT(v16i8, v16i16, loom_avx2_trunc_16to8_x16((__m256i)a))
/* To 32 bits: each half widened (W: cvtepu8 ...), as i32 or converted to f32. */
#define LOOM_AVX2_WIDEN_X16(R, A, W, half)                                                         \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m256i lo = W(half((__m128i)a, 0)), hi = W(half((__m128i)a, 1));                          \
        return LOOM_AVX2_JOIN_##R(lo, hi);                                                         \
    }
#define LOOM_AVX2_JOIN_v16i32(lo, hi) loom_avx2_join_i32(lo, hi)
#define LOOM_AVX2_JOIN_v16f32(lo, hi)                                                              \
    loom_avx2_join_f32(_mm256_cvtepi32_ps(lo), _mm256_cvtepi32_ps(hi))
/* The 8-lane halves of a 16-lane vector of 8 bits (__m128i) or 16 bits (__m256i). */
#define loom_avx2_half8(x, i) ((i) ? _mm_unpackhi_epi64(x, x) : (x))
#define loom_avx2_half16(x, i)                                                                     \
    ((i) ? _mm256_extracti128_si256((__m256i)(x), 1) : _mm256_castsi256_si128((__m256i)(x)))
#define LOOM_HAVE_loom_v16i32_cvt_v16u8 1
#define LOOM_HAVE_loom_v16i32_cvt_v16i8 1
#define LOOM_HAVE_loom_v16f32_cvt_v16u8 1
#define LOOM_HAVE_loom_v16f32_cvt_v16i8 1
LOOM_AVX2_WIDEN_X16(v16i32, v16u8, _mm256_cvtepu8_epi32, loom_avx2_half8)
LOOM_AVX2_WIDEN_X16(v16i32, v16i8, _mm256_cvtepi8_epi32, loom_avx2_half8)
LOOM_AVX2_WIDEN_X16(v16f32, v16u8, _mm256_cvtepu8_epi32, loom_avx2_half8)
LOOM_AVX2_WIDEN_X16(v16f32, v16i8, _mm256_cvtepi8_epi32, loom_avx2_half8)
#define LOOM_AVX2_WIDEN16_X16(R, A, W)                                                             \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m256i lo = W(loom_avx2_half16(a, 0)), hi = W(loom_avx2_half16(a, 1));                    \
        return LOOM_AVX2_JOIN_##R(lo, hi);                                                         \
    }
#define LOOM_HAVE_loom_v16i32_cvt_v16u16 1
#define LOOM_HAVE_loom_v16i32_cvt_v16i16 1
#define LOOM_HAVE_loom_v16f32_cvt_v16u16 1
#define LOOM_HAVE_loom_v16f32_cvt_v16i16 1
LOOM_AVX2_WIDEN16_X16(v16i32, v16u16, _mm256_cvtepu16_epi32)
LOOM_AVX2_WIDEN16_X16(v16i32, v16i16, _mm256_cvtepi16_epi32)
LOOM_AVX2_WIDEN16_X16(v16f32, v16u16, _mm256_cvtepu16_epi32)
LOOM_AVX2_WIDEN16_X16(v16f32, v16i16, _mm256_cvtepi16_epi32)
/* From 32 bits: the halves as i32 (f32 converted toward zero), truncated. */
LOOM_C_INLINE void loom_avx2_halves(loom_v16f32 a, __m256i *lo, __m256i *hi) {
    __m256 l, h;
    loom_avx2_split_f32(a, &l, &h);
    *lo = _mm256_cvttps_epi32(l);
    *hi = _mm256_cvttps_epi32(h);
}
#define LOOM_AVX2_NARROW_X16(R, A, split, narrow)                                                  \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) {                                        \
        __m256i lo, hi;                                                                            \
        split(a, &lo, &hi);                                                                        \
        return (loom_##R)narrow(lo, hi);                                                           \
    }
#define LOOM_HAVE_loom_v16u8_cvt_v16i32 1
#define LOOM_HAVE_loom_v16i8_cvt_v16i32 1
#define LOOM_HAVE_loom_v16u16_cvt_v16i32 1
#define LOOM_HAVE_loom_v16i16_cvt_v16i32 1
#define LOOM_HAVE_loom_v16u8_cvt_v16f32 1
#define LOOM_HAVE_loom_v16i8_cvt_v16f32 1
#define LOOM_HAVE_loom_v16u16_cvt_v16f32 1
#define LOOM_HAVE_loom_v16i16_cvt_v16f32 1
LOOM_AVX2_NARROW_X16(v16u8, v16i32, loom_avx2_split_i32, loom_avx2_trunc_32to8_x16)
LOOM_AVX2_NARROW_X16(v16i8, v16i32, loom_avx2_split_i32, loom_avx2_trunc_32to8_x16)
LOOM_AVX2_NARROW_X16(v16u16, v16i32, loom_avx2_split_i32, loom_avx2_trunc_32to16_x16)
LOOM_AVX2_NARROW_X16(v16i16, v16i32, loom_avx2_split_i32, loom_avx2_trunc_32to16_x16)
LOOM_AVX2_NARROW_X16(v16u8, v16f32, loom_avx2_halves, loom_avx2_trunc_32to8_x16)
LOOM_AVX2_NARROW_X16(v16i8, v16f32, loom_avx2_halves, loom_avx2_trunc_32to8_x16)
LOOM_AVX2_NARROW_X16(v16u16, v16f32, loom_avx2_halves, loom_avx2_trunc_32to16_x16)
LOOM_AVX2_NARROW_X16(v16i16, v16f32, loom_avx2_halves, loom_avx2_trunc_32to16_x16)

/* ---- Comparisons and selects ---- */
/* Unsigned a <= b is min(a, b) == a; lt is the negation of b <= a. Floats: ordered
 * comparisons, and != true for NaN, as C's operators. */
#define LOOM_AVX2_CMP(R, op, A, I, to_bool, negate, expr)                                          \
    LOOM_C_INLINE loom_##R loom_##R##_##op##_##A(loom_##A a_, loom_##A b_) {                       \
        I a = (I)a_, b = (I)b_;                                                                    \
        return to_bool(expr, negate);                                                              \
    }
#define LOOM_AVX2_CMP_INT(R, A, P, I, to_bool, S, U)                                               \
    LOOM_AVX2_CMP(R, lt, A, I, to_bool, 0, P##_cmpgt_##S(b, a))                                    \
    LOOM_AVX2_CMP(R, le, A, I, to_bool, 1, P##_cmpgt_##S(a, b))                                    \
    LOOM_AVX2_CMP(R, eq, A, I, to_bool, 0, P##_cmpeq_##S(a, b))                                    \
    LOOM_AVX2_CMP(R, ne, A, I, to_bool, 1, P##_cmpeq_##S(a, b))
#define LOOM_AVX2_CMP_UINT(R, A, P, I, to_bool, S, U)                                              \
    LOOM_AVX2_CMP(R, lt, A, I, to_bool, 1, P##_cmpeq_##S(P##_min_##U(a, b), b))                    \
    LOOM_AVX2_CMP(R, le, A, I, to_bool, 0, P##_cmpeq_##S(P##_min_##U(a, b), a))                    \
    LOOM_AVX2_CMP(R, eq, A, I, to_bool, 0, P##_cmpeq_##S(a, b))                                    \
    LOOM_AVX2_CMP(R, ne, A, I, to_bool, 1, P##_cmpeq_##S(a, b))
#define LOOM_AVX2_CMP_FLOAT(R, A, P, I, to_bool, N)                                                \
    LOOM_AVX2_CMP(R, lt, A, I, to_bool, 0, P##_castps_si##N(P##_cmp_ps(a, b, _CMP_LT_OQ)))         \
    LOOM_AVX2_CMP(R, le, A, I, to_bool, 0, P##_castps_si##N(P##_cmp_ps(a, b, _CMP_LE_OQ)))         \
    LOOM_AVX2_CMP(R, eq, A, I, to_bool, 0, P##_castps_si##N(P##_cmp_ps(a, b, _CMP_EQ_OQ)))         \
    LOOM_AVX2_CMP(R, ne, A, I, to_bool, 0, P##_castps_si##N(P##_cmp_ps(a, b, _CMP_NEQ_UQ)))
#define LOOM_HAVE_loom_v8b_lt_v8f32 1
#define LOOM_HAVE_loom_v8b_le_v8f32 1
#define LOOM_HAVE_loom_v8b_eq_v8f32 1
#define LOOM_HAVE_loom_v8b_ne_v8f32 1
#define LOOM_HAVE_loom_v4b_lt_v4f32 1
#define LOOM_HAVE_loom_v4b_le_v4f32 1
#define LOOM_HAVE_loom_v4b_eq_v4f32 1
#define LOOM_HAVE_loom_v4b_ne_v4f32 1
#define LOOM_HAVE_loom_v8b_lt_v8i32 1
#define LOOM_HAVE_loom_v8b_le_v8i32 1
#define LOOM_HAVE_loom_v8b_eq_v8i32 1
#define LOOM_HAVE_loom_v8b_ne_v8i32 1
#define LOOM_HAVE_loom_v4b_lt_v4i32 1
#define LOOM_HAVE_loom_v4b_le_v4i32 1
#define LOOM_HAVE_loom_v4b_eq_v4i32 1
#define LOOM_HAVE_loom_v4b_ne_v4i32 1
#define LOOM_HAVE_loom_v8b_lt_v8u32 1
#define LOOM_HAVE_loom_v8b_le_v8u32 1
#define LOOM_HAVE_loom_v8b_eq_v8u32 1
#define LOOM_HAVE_loom_v8b_ne_v8u32 1
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
#define LOOM_HAVE_loom_v16b_lt_v16i16 1
#define LOOM_HAVE_loom_v16b_le_v16i16 1
#define LOOM_HAVE_loom_v16b_eq_v16i16 1
#define LOOM_HAVE_loom_v16b_ne_v16i16 1
#define LOOM_HAVE_loom_v16b_lt_v16u16 1
#define LOOM_HAVE_loom_v16b_le_v16u16 1
#define LOOM_HAVE_loom_v16b_eq_v16u16 1
#define LOOM_HAVE_loom_v16b_ne_v16u16 1
LOOM_AVX2_CMP_FLOAT(v8b, v8f32, _mm256, __m256, loom_avx2_v8b_m32, 256)
LOOM_AVX2_CMP_FLOAT(v4b, v4f32, _mm, __m128, loom_avx2_v4b_m32, 128)
LOOM_AVX2_CMP_INT(v8b, v8i32, _mm256, __m256i, loom_avx2_v8b_m32, epi32, epi32)
LOOM_AVX2_CMP_INT(v4b, v4i32, _mm, __m128i, loom_avx2_v4b_m32, epi32, epi32)
LOOM_AVX2_CMP_UINT(v8b, v8u32, _mm256, __m256i, loom_avx2_v8b_m32, epi32, epu32)
LOOM_AVX2_CMP_UINT(v4b, v4u32, _mm, __m128i, loom_avx2_v4b_m32, epi32, epu32)
LOOM_AVX2_CMP_INT(v8b, v8i16, _mm, __m128i, loom_avx2_v8b_m16, epi16, epi16)
LOOM_AVX2_CMP_UINT(v8b, v8u16, _mm, __m128i, loom_avx2_v8b_m16, epi16, epu16)
LOOM_AVX2_CMP_INT(v16b, v16i16, _mm256, __m256i, loom_avx2_v16b_m16, epi16, epi16)
LOOM_AVX2_CMP_UINT(v16b, v16u16, _mm256, __m256i, loom_avx2_v16b_m16, epi16, epu16)

/* select(m, a, b): a where the bool lane is 1, by a byte blend on the lanes' masks. */
#define LOOM_AVX2_SELECT(M, T, P, I, mask)                                                         \
    LOOM_C_INLINE loom_##T loom_##T##_select_##M##_##T##_##T(loom_##M m, loom_##T a, loom_##T b) { \
        return (loom_##T)P##_blendv_epi8((I)b, (I)a, mask(m));                                     \
    }
#define LOOM_HAVE_loom_v8f32_select_v8b_v8f32_v8f32 1
#define LOOM_HAVE_loom_v8i32_select_v8b_v8i32_v8i32 1
#define LOOM_HAVE_loom_v8u32_select_v8b_v8u32_v8u32 1
#define LOOM_HAVE_loom_v4f32_select_v4b_v4f32_v4f32 1
#define LOOM_HAVE_loom_v4i32_select_v4b_v4i32_v4i32 1
#define LOOM_HAVE_loom_v4u32_select_v4b_v4u32_v4u32 1
#define LOOM_HAVE_loom_v8i16_select_v8b_v8i16_v8i16 1
#define LOOM_HAVE_loom_v8u16_select_v8b_v8u16_v8u16 1
#define LOOM_HAVE_loom_v16i16_select_v16b_v16i16_v16i16 1
#define LOOM_HAVE_loom_v16u16_select_v16b_v16u16_v16u16 1
LOOM_AVX2_SELECT(v8b, v8f32, _mm256, __m256i, loom_avx2_m32_v8b)
LOOM_AVX2_SELECT(v8b, v8i32, _mm256, __m256i, loom_avx2_m32_v8b)
LOOM_AVX2_SELECT(v8b, v8u32, _mm256, __m256i, loom_avx2_m32_v8b)
LOOM_AVX2_SELECT(v4b, v4f32, _mm, __m128i, loom_avx2_m32_v4b)
LOOM_AVX2_SELECT(v4b, v4i32, _mm, __m128i, loom_avx2_m32_v4b)
LOOM_AVX2_SELECT(v4b, v4u32, _mm, __m128i, loom_avx2_m32_v4b)
LOOM_AVX2_SELECT(v8b, v8i16, _mm, __m128i, loom_avx2_m16_v8b)
LOOM_AVX2_SELECT(v8b, v8u16, _mm, __m128i, loom_avx2_m16_v8b)
LOOM_AVX2_SELECT(v16b, v16i16, _mm256, __m256i, loom_avx2_m16_v16b)
LOOM_AVX2_SELECT(v16b, v16u16, _mm256, __m256i, loom_avx2_m16_v16b)

/* ---- Gathers of 32-bit lanes by i32 indices (masked: lanes off are 0 and not read) ---- */
#define LOOM_AVX2_GATHER(T, ct, I, gather, cast)                                                   \
    LOOM_C_INLINE loom_##T loom_##T##_gather_##I(const ct *p, loom_##I idx) {                      \
        return (loom_##T)gather(cast p, idx);                                                      \
    }
#define loom_avx2_g256i(p, idx) _mm256_i32gather_epi32(p, (__m256i)(idx), 4)
#define loom_avx2_g256f(p, idx) _mm256_i32gather_ps(p, (__m256i)(idx), 4)
#define loom_avx2_g128i(p, idx) _mm_i32gather_epi32(p, (__m128i)(idx), 4)
#define loom_avx2_g128f(p, idx) _mm_i32gather_ps(p, (__m128i)(idx), 4)
#define LOOM_HAVE_loom_v8i32_gather_v8i32 1
#define LOOM_HAVE_loom_v8u32_gather_v8i32 1
#define LOOM_HAVE_loom_v8f32_gather_v8i32 1
#define LOOM_HAVE_loom_v4i32_gather_v4i32 1
#define LOOM_HAVE_loom_v4u32_gather_v4i32 1
#define LOOM_HAVE_loom_v4f32_gather_v4i32 1
LOOM_AVX2_GATHER(v8i32, int32_t, v8i32, loom_avx2_g256i, (const int *)(const void *))
LOOM_AVX2_GATHER(v8u32, uint32_t, v8i32, loom_avx2_g256i, (const int *)(const void *))
LOOM_AVX2_GATHER(v8f32, float, v8i32, loom_avx2_g256f, (const float *))
LOOM_AVX2_GATHER(v4i32, int32_t, v4i32, loom_avx2_g128i, (const int *)(const void *))
LOOM_AVX2_GATHER(v4u32, uint32_t, v4i32, loom_avx2_g128i, (const int *)(const void *))
LOOM_AVX2_GATHER(v4f32, float, v4i32, loom_avx2_g128f, (const float *))
#define LOOM_AVX2_GATHER_PRED(T, ct, I, M, gather, cast)                                           \
    LOOM_C_INLINE loom_##T loom_##T##_gather_pred_##I(const ct *p, loom_##I idx, loom_##M m) {     \
        return (loom_##T)gather(cast p, idx, m);                                                   \
    }
#define loom_avx2_gp256i(p, idx, m)                                                                \
    _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), p, (__m256i)(idx), loom_avx2_m32_v8b(m), 4)
#define loom_avx2_gp256f(p, idx, m)                                                                \
    _mm256_mask_i32gather_ps(_mm256_setzero_ps(), p, (__m256i)(idx),                               \
                             _mm256_castsi256_ps(loom_avx2_m32_v8b(m)), 4)
#define loom_avx2_gp128i(p, idx, m)                                                                \
    _mm_mask_i32gather_epi32(_mm_setzero_si128(), p, (__m128i)(idx), loom_avx2_m32_v4b(m), 4)
#define loom_avx2_gp128f(p, idx, m)                                                                \
    _mm_mask_i32gather_ps(_mm_setzero_ps(), p, (__m128i)(idx),                                     \
                          _mm_castsi128_ps(loom_avx2_m32_v4b(m)), 4)
#define LOOM_HAVE_loom_v8i32_gather_pred_v8i32 1
#define LOOM_HAVE_loom_v8u32_gather_pred_v8i32 1
#define LOOM_HAVE_loom_v8f32_gather_pred_v8i32 1
#define LOOM_HAVE_loom_v4i32_gather_pred_v4i32 1
#define LOOM_HAVE_loom_v4u32_gather_pred_v4i32 1
#define LOOM_HAVE_loom_v4f32_gather_pred_v4i32 1
LOOM_AVX2_GATHER_PRED(v8i32, int32_t, v8i32, v8b, loom_avx2_gp256i, (const int *)(const void *))
LOOM_AVX2_GATHER_PRED(v8u32, uint32_t, v8i32, v8b, loom_avx2_gp256i, (const int *)(const void *))
LOOM_AVX2_GATHER_PRED(v8f32, float, v8i32, v8b, loom_avx2_gp256f, (const float *))
LOOM_AVX2_GATHER_PRED(v4i32, int32_t, v4i32, v4b, loom_avx2_gp128i, (const int *)(const void *))
LOOM_AVX2_GATHER_PRED(v4u32, uint32_t, v4i32, v4b, loom_avx2_gp128i, (const int *)(const void *))
LOOM_AVX2_GATHER_PRED(v4f32, float, v4i32, v4b, loom_avx2_gp128f, (const float *))

#endif
