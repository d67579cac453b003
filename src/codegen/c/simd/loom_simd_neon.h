/* Loom SIMD mapping "neon": AArch64 Advanced SIMD. Select it with -DLOOM_SIMD_NEON. The
 * generated file pastes the generic mapping (loom_simd_generic.h) before this text: vectors
 * stay GCC/Clang vector-extension types and its LOOM_OP_* macros stay in force. This part adds
 * <arm_neon.h> definitions of the operations whose generic form is a lane by lane loop or poor
 * code, for the shapes of NEON registers (64 and 128 bits):
 *  - integers (8 and 16 x u8/i8, 4 and 8 x u16/i16, 4 x u32/i32): min, max,
 *    saturating_add/sub, halving_add, rounding_halving_add, absd, abs,
 *    shift_left/shift_right (any amount); lerp of u8/i8 by a u8 weight;
 *    (rounding_)mul_shift_right of 16-bit lanes;
 *  - f32 (4 lanes): floor, ceil, trunc, round, sqrt, abs, inverse, inverse_sqrt (and
 *    their fast_ forms, computed exactly), float %, is_nan;
 *  - conversions between 8 lanes of u8/i8 and u16/i16, between 4 lanes of u16/i16, u32/i32
 *    and f32, and from 4 lanes of u8/i8 to i32/f32 and back;
 *  - comparisons (lt le eq ne) giving bool lanes, and selects by bool lanes.
 * Each one computes the generated default's result bit for bit (README.md). NEON's FMIN and
 * FMAX differ from the IR's min and max (a < b ? a : b) for NaN and -0.0, so float min and max
 * keep the generic compare and select. FRINTM, FRINTP, FRINTZ and FRINTI round as floorf,
 * ceilf, truncf and nearbyintf. Conversions from float to integers convert toward zero to 32
 * bits (FCVTZS, FCVTZU), then truncate: C leaves out-of-range values undefined. A vector type
 * an override needs is claimed here (LOOM_HAVE_TYPE_<tag>) with the generic mapping's
 * definition. */
#ifndef LOOM_SIMD_NEON_H
#define LOOM_SIMD_NEON_H

#if !defined(__aarch64__)
#error "LOOM_SIMD_NEON is for AArch64 (Advanced SIMD with the A64 instructions)"
#endif
#include <arm_neon.h>

/* ---- Types: as the generic mapping defines them ---- */
#define LOOM_HAVE_TYPE_v4b 1
#define LOOM_HAVE_TYPE_v8b 1
#define LOOM_HAVE_TYPE_v16b 1
#define LOOM_HAVE_TYPE_v4u8 1
#define LOOM_HAVE_TYPE_v4i8 1
#define LOOM_HAVE_TYPE_v8u8 1
#define LOOM_HAVE_TYPE_v8i8 1
#define LOOM_HAVE_TYPE_v16u8 1
#define LOOM_HAVE_TYPE_v16i8 1
#define LOOM_HAVE_TYPE_v4u16 1
#define LOOM_HAVE_TYPE_v4i16 1
#define LOOM_HAVE_TYPE_v8u16 1
#define LOOM_HAVE_TYPE_v8i16 1
#define LOOM_HAVE_TYPE_v4u32 1
#define LOOM_HAVE_TYPE_v4i32 1
#define LOOM_HAVE_TYPE_v4f32 1
LOOM_VECTOR_TYPE(v4b, 4, uint8_t)
LOOM_VECTOR_TYPE(v8b, 8, uint8_t)
LOOM_VECTOR_TYPE(v16b, 16, uint8_t)
LOOM_VECTOR_TYPE(v4u8, 4, uint8_t)
LOOM_VECTOR_TYPE(v4i8, 4, int8_t)
LOOM_VECTOR_TYPE(v8u8, 8, uint8_t)
LOOM_VECTOR_TYPE(v8i8, 8, int8_t)
LOOM_VECTOR_TYPE(v16u8, 16, uint8_t)
LOOM_VECTOR_TYPE(v16i8, 16, int8_t)
LOOM_VECTOR_TYPE(v4u16, 4, uint16_t)
LOOM_VECTOR_TYPE(v4i16, 4, int16_t)
LOOM_VECTOR_TYPE(v8u16, 8, uint16_t)
LOOM_VECTOR_TYPE(v8i16, 8, int16_t)
LOOM_VECTOR_TYPE(v4u32, 4, uint32_t)
LOOM_VECTOR_TYPE(v4i32, 4, int32_t)
LOOM_VECTOR_TYPE(v4f32, 4, float)

/* ---- Helpers ---- */
/* A vector-extension value and a NEON type of the same size convert with a cast (the bits
 * stay); 4-byte vectors go through the low lanes of a 64-bit register. */
LOOM_C_INLINE uint8x8_t loom_neon_lo32(const void *p) {
    uint32_t t;
    memcpy(&t, p, 4);
    return vcreate_u8((uint64_t)t);
}
LOOM_C_INLINE loom_v4u8 loom_neon_v4u8(uint8x8_t x) {
    uint32_t t = vget_lane_u32(vreinterpret_u32_u8(x), 0);
    loom_v4u8 r;
    memcpy(&r, &t, 4);
    return r;
}
/* 4 lanes of 16 or 32 bits to 4 bytes, truncating. */
LOOM_C_INLINE uint8x8_t loom_neon_n16to8x4(uint16x4_t x) { return vmovn_u16(vcombine_u16(x, x)); }
LOOM_C_INLINE uint8x8_t loom_neon_n32to8x4(uint32x4_t x) {
    return loom_neon_n16to8x4(vmovn_u32(x));
}
/* 4 bytes to 4 lanes of 32 bits. */
LOOM_C_INLINE uint32x4_t loom_neon_w8to32u(uint8x8_t x) {
    return vmovl_u16(vget_low_u16(vmovl_u8(x)));
}
LOOM_C_INLINE int32x4_t loom_neon_w8to32s(int8x8_t x) {
    return vmovl_s16(vget_low_s16(vmovl_s8(x)));
}

/* Masks (lanes of all ones or zero) to bool lanes (0 or 1), or of their negation; and bool
 * lanes to masks. */
LOOM_C_INLINE uint8x16_t loom_neon_bool16(uint8x16_t m, int negate) {
    return negate ? vbicq_u8(vdupq_n_u8(1), m) : vandq_u8(m, vdupq_n_u8(1));
}
LOOM_C_INLINE uint8x8_t loom_neon_bool8(uint8x8_t m, int negate) {
    return negate ? vbic_u8(vdup_n_u8(1), m) : vand_u8(m, vdup_n_u8(1));
}
#define loom_neon_v16b_m8(m, negate) ((loom_v16b)loom_neon_bool16(m, negate))
#define loom_neon_v8b_m8(m, negate) ((loom_v8b)loom_neon_bool8(m, negate))
#define loom_neon_v8b_m16(m, negate) ((loom_v8b)loom_neon_bool8(vmovn_u16(m), negate))
#define loom_neon_v4b_m16(m, negate)                                                               \
    ((loom_v4b)loom_neon_v4u8(loom_neon_bool8(loom_neon_n16to8x4(m), negate)))
#define loom_neon_v4b_m32(m, negate)                                                               \
    ((loom_v4b)loom_neon_v4u8(loom_neon_bool8(loom_neon_n32to8x4(m), negate)))
LOOM_C_INLINE uint8x16_t loom_neon_m8_v16b(loom_v16b m) {
    return vtstq_u8((uint8x16_t)m, (uint8x16_t)m);
}
LOOM_C_INLINE uint8x8_t loom_neon_m8_v8b(loom_v8b m) { return vtst_u8((uint8x8_t)m, (uint8x8_t)m); }
LOOM_C_INLINE uint16x8_t loom_neon_m16_v8b(loom_v8b m) {
    uint16x8_t w = vmovl_u8((uint8x8_t)m);
    return vtstq_u16(w, w);
}
LOOM_C_INLINE uint16x4_t loom_neon_m16_v4b(loom_v4b m) {
    uint16x4_t w = vget_low_u16(vmovl_u8(loom_neon_lo32(&m)));
    return vtst_u16(w, w);
}
LOOM_C_INLINE uint32x4_t loom_neon_m32_v4b(loom_v4b m) {
    uint32x4_t w = loom_neon_w8to32u(loom_neon_lo32(&m));
    return vtstq_u32(w, w);
}

/* f(a) or f(a, b): expr on a and b as the NEON type I, the result cast back to R. */
#define LOOM_NEON_UNARY(f, R, A, I, expr)                                                          \
    LOOM_C_INLINE R f(A a_) {                                                                      \
        I a = (I)a_;                                                                               \
        return (R)(expr);                                                                          \
    }
#define LOOM_NEON_BINARY(f, R, A, I, expr)                                                         \
    LOOM_C_INLINE R f(A a_, A b_) {                                                                \
        I a = (I)a_, b = (I)b_;                                                                    \
        return (R)(expr);                                                                          \
    }

/* ---- Integers ---- */
/* Q is q for 128-bit registers and empty for 64-bit ones, S the lane suffix (u8, s16, ...), I
 * the NEON type, SI the signed NEON type of the shape, SS its suffix, B the lane bits. Halide's
 * shifts by any amount are USHL / SSHL (a negative amount shifts right, arithmetic for signed
 * lanes) by the amount clamped to [-B, B], where they give 0 or the sign. */
#define LOOM_NEON_INT_COMMON(tag, Q, S, I)                                                         \
    LOOM_NEON_BINARY(loom_##tag##_min, loom_##tag, loom_##tag, I, vmin##Q##_##S(a, b))             \
    LOOM_NEON_BINARY(loom_##tag##_max, loom_##tag, loom_##tag, I, vmax##Q##_##S(a, b))             \
    LOOM_NEON_BINARY(loom_##tag##_saturating_add, loom_##tag, loom_##tag, I, vqadd##Q##_##S(a, b)) \
    LOOM_NEON_BINARY(loom_##tag##_saturating_sub, loom_##tag, loom_##tag, I, vqsub##Q##_##S(a, b)) \
    LOOM_NEON_BINARY(loom_##tag##_halving_add, loom_##tag, loom_##tag, I, vhadd##Q##_##S(a, b))    \
    LOOM_NEON_BINARY(loom_##tag##_rounding_halving_add, loom_##tag, loom_##tag, I,                 \
                     vrhadd##Q##_##S(a, b))
#define LOOM_NEON_INT_U(tag, Q, S, I, SI, SS, B)                                                   \
    LOOM_NEON_INT_COMMON(tag, Q, S, I)                                                             \
    LOOM_NEON_BINARY(loom_##tag##_absd, loom_##tag, loom_##tag, I, vabd##Q##_##S(a, b))            \
    LOOM_NEON_BINARY(loom_##tag##_shift_left, loom_##tag, loom_##tag, I,                           \
                     vshl##Q##_##S(a, (SI)vmin##Q##_##S(b, vdup##Q##_n_##S(B))))                   \
    LOOM_NEON_BINARY(loom_##tag##_shift_right, loom_##tag, loom_##tag, I,                          \
                     vshl##Q##_##S(a, vneg##Q##_##SS((SI)vmin##Q##_##S(b, vdup##Q##_n_##S(B)))))
#define LOOM_NEON_INT_S(tag, utag, Q, S, I, B)                                                     \
    LOOM_NEON_INT_COMMON(tag, Q, S, I)                                                             \
    LOOM_NEON_BINARY(loom_##utag##_absd_##tag, loom_##utag, loom_##tag, I, vabd##Q##_##S(a, b))    \
    LOOM_NEON_UNARY(loom_##utag##_abs_##tag, loom_##utag, loom_##tag, I, vabs##Q##_##S(a))         \
    LOOM_NEON_BINARY(loom_##tag##_shift_left, loom_##tag, loom_##tag, I,                           \
                     vshl##Q##_##S(a, vmax##Q##_##S(vmin##Q##_##S(b, vdup##Q##_n_##S(B)),          \
                                                    vdup##Q##_n_##S(-B))))                         \
    LOOM_NEON_BINARY(                                                                              \
        loom_##tag##_shift_right, loom_##tag, loom_##tag, I,                                       \
        vshl##Q##_##S(a, vneg##Q##_##S(vmax##Q##_##S(vmin##Q##_##S(b, vdup##Q##_n_##S(B)),         \
                                                     vdup##Q##_n_##S(-B)))))

#define LOOM_HAVE_loom_v8u8_min 1
#define LOOM_HAVE_loom_v8u8_max 1
#define LOOM_HAVE_loom_v8u8_saturating_add 1
#define LOOM_HAVE_loom_v8u8_saturating_sub 1
#define LOOM_HAVE_loom_v8u8_halving_add 1
#define LOOM_HAVE_loom_v8u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u8_absd 1
#define LOOM_HAVE_loom_v8u8_shift_left 1
#define LOOM_HAVE_loom_v8u8_shift_right 1
LOOM_NEON_INT_U(v8u8, , u8, uint8x8_t, int8x8_t, s8, 8)
#define LOOM_HAVE_loom_v16u8_min 1
#define LOOM_HAVE_loom_v16u8_max 1
#define LOOM_HAVE_loom_v16u8_saturating_add 1
#define LOOM_HAVE_loom_v16u8_saturating_sub 1
#define LOOM_HAVE_loom_v16u8_halving_add 1
#define LOOM_HAVE_loom_v16u8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd 1
#define LOOM_HAVE_loom_v16u8_shift_left 1
#define LOOM_HAVE_loom_v16u8_shift_right 1
LOOM_NEON_INT_U(v16u8, q, u8, uint8x16_t, int8x16_t, s8, 8)
#define LOOM_HAVE_loom_v4u16_min 1
#define LOOM_HAVE_loom_v4u16_max 1
#define LOOM_HAVE_loom_v4u16_saturating_add 1
#define LOOM_HAVE_loom_v4u16_saturating_sub 1
#define LOOM_HAVE_loom_v4u16_halving_add 1
#define LOOM_HAVE_loom_v4u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v4u16_absd 1
#define LOOM_HAVE_loom_v4u16_shift_left 1
#define LOOM_HAVE_loom_v4u16_shift_right 1
LOOM_NEON_INT_U(v4u16, , u16, uint16x4_t, int16x4_t, s16, 16)
#define LOOM_HAVE_loom_v8u16_min 1
#define LOOM_HAVE_loom_v8u16_max 1
#define LOOM_HAVE_loom_v8u16_saturating_add 1
#define LOOM_HAVE_loom_v8u16_saturating_sub 1
#define LOOM_HAVE_loom_v8u16_halving_add 1
#define LOOM_HAVE_loom_v8u16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd 1
#define LOOM_HAVE_loom_v8u16_shift_left 1
#define LOOM_HAVE_loom_v8u16_shift_right 1
LOOM_NEON_INT_U(v8u16, q, u16, uint16x8_t, int16x8_t, s16, 16)
#define LOOM_HAVE_loom_v4u32_min 1
#define LOOM_HAVE_loom_v4u32_max 1
#define LOOM_HAVE_loom_v4u32_saturating_add 1
#define LOOM_HAVE_loom_v4u32_saturating_sub 1
#define LOOM_HAVE_loom_v4u32_halving_add 1
#define LOOM_HAVE_loom_v4u32_rounding_halving_add 1
#define LOOM_HAVE_loom_v4u32_absd 1
#define LOOM_HAVE_loom_v4u32_shift_left 1
#define LOOM_HAVE_loom_v4u32_shift_right 1
LOOM_NEON_INT_U(v4u32, q, u32, uint32x4_t, int32x4_t, s32, 32)
#define LOOM_HAVE_loom_v8i8_min 1
#define LOOM_HAVE_loom_v8i8_max 1
#define LOOM_HAVE_loom_v8i8_saturating_add 1
#define LOOM_HAVE_loom_v8i8_saturating_sub 1
#define LOOM_HAVE_loom_v8i8_halving_add 1
#define LOOM_HAVE_loom_v8i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u8_absd_v8i8 1
#define LOOM_HAVE_loom_v8u8_abs_v8i8 1
#define LOOM_HAVE_loom_v8i8_shift_left 1
#define LOOM_HAVE_loom_v8i8_shift_right 1
LOOM_NEON_INT_S(v8i8, v8u8, , s8, int8x8_t, 8)
#define LOOM_HAVE_loom_v16i8_min 1
#define LOOM_HAVE_loom_v16i8_max 1
#define LOOM_HAVE_loom_v16i8_saturating_add 1
#define LOOM_HAVE_loom_v16i8_saturating_sub 1
#define LOOM_HAVE_loom_v16i8_halving_add 1
#define LOOM_HAVE_loom_v16i8_rounding_halving_add 1
#define LOOM_HAVE_loom_v16u8_absd_v16i8 1
#define LOOM_HAVE_loom_v16u8_abs_v16i8 1
#define LOOM_HAVE_loom_v16i8_shift_left 1
#define LOOM_HAVE_loom_v16i8_shift_right 1
LOOM_NEON_INT_S(v16i8, v16u8, q, s8, int8x16_t, 8)
#define LOOM_HAVE_loom_v4i16_min 1
#define LOOM_HAVE_loom_v4i16_max 1
#define LOOM_HAVE_loom_v4i16_saturating_add 1
#define LOOM_HAVE_loom_v4i16_saturating_sub 1
#define LOOM_HAVE_loom_v4i16_halving_add 1
#define LOOM_HAVE_loom_v4i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v4u16_absd_v4i16 1
#define LOOM_HAVE_loom_v4u16_abs_v4i16 1
#define LOOM_HAVE_loom_v4i16_shift_left 1
#define LOOM_HAVE_loom_v4i16_shift_right 1
LOOM_NEON_INT_S(v4i16, v4u16, , s16, int16x4_t, 16)
#define LOOM_HAVE_loom_v8i16_min 1
#define LOOM_HAVE_loom_v8i16_max 1
#define LOOM_HAVE_loom_v8i16_saturating_add 1
#define LOOM_HAVE_loom_v8i16_saturating_sub 1
#define LOOM_HAVE_loom_v8i16_halving_add 1
#define LOOM_HAVE_loom_v8i16_rounding_halving_add 1
#define LOOM_HAVE_loom_v8u16_absd_v8i16 1
#define LOOM_HAVE_loom_v8u16_abs_v8i16 1
#define LOOM_HAVE_loom_v8i16_shift_left 1
#define LOOM_HAVE_loom_v8i16_shift_right 1
LOOM_NEON_INT_S(v8i16, v8u16, q, s16, int16x8_t, 16)
#define LOOM_HAVE_loom_v4i32_min 1
#define LOOM_HAVE_loom_v4i32_max 1
#define LOOM_HAVE_loom_v4i32_saturating_add 1
#define LOOM_HAVE_loom_v4i32_saturating_sub 1
#define LOOM_HAVE_loom_v4i32_halving_add 1
#define LOOM_HAVE_loom_v4i32_rounding_halving_add 1
#define LOOM_HAVE_loom_v4u32_absd_v4i32 1
#define LOOM_HAVE_loom_v4u32_abs_v4i32 1
#define LOOM_HAVE_loom_v4i32_shift_left 1
#define LOOM_HAVE_loom_v4i32_shift_right 1
LOOM_NEON_INT_S(v4i32, v4u32, q, s32, int32x4_t, 32)

/* lerp of u8 lanes by a u8 weight, in 16-bit lanes: zero * (255 - w) + one * w + 128 is at
 * most 255 * 255 + 128, and adding it shifted right by 8 stays below 2^16. i8 lanes are u8
 * lanes biased by 128. */
LOOM_C_INLINE uint8x8_t loom_neon_lerp_u8(uint8x8_t z, uint8x8_t o, uint8x8_t w) {
    uint16x8_t p = vmlal_u8(vmull_u8(z, vsub_u8(vdup_n_u8(255), w)), o, w);
    p = vaddq_u16(p, vdupq_n_u16(128));
    return vshrn_n_u16(vsraq_n_u16(p, p, 8), 8);
}
LOOM_C_INLINE uint8x8_t loom_neon_lerp_i8(uint8x8_t z, uint8x8_t o, uint8x8_t w) {
    uint8x8_t bias = vdup_n_u8(128);
    return veor_u8(loom_neon_lerp_u8(veor_u8(z, bias), veor_u8(o, bias), w), bias);
}
#define LOOM_HAVE_loom_v8u8_lerp 1
#define LOOM_HAVE_loom_v8i8_lerp_v8i8_v8i8_v8u8 1
#define LOOM_HAVE_loom_v16u8_lerp 1
#define LOOM_HAVE_loom_v16i8_lerp_v16i8_v16i8_v16u8 1
LOOM_C_INLINE loom_v8u8 loom_v8u8_lerp(loom_v8u8 z, loom_v8u8 o, loom_v8u8 w) {
    return (loom_v8u8)loom_neon_lerp_u8((uint8x8_t)z, (uint8x8_t)o, (uint8x8_t)w);
}
LOOM_C_INLINE loom_v8i8 loom_v8i8_lerp_v8i8_v8i8_v8u8(loom_v8i8 z, loom_v8i8 o, loom_v8u8 w) {
    return (loom_v8i8)loom_neon_lerp_i8((uint8x8_t)z, (uint8x8_t)o, (uint8x8_t)w);
}
LOOM_C_INLINE loom_v16u8 loom_v16u8_lerp(loom_v16u8 z, loom_v16u8 o, loom_v16u8 w) {
    uint8x16_t a = (uint8x16_t)z, b = (uint8x16_t)o, c = (uint8x16_t)w;
    return (loom_v16u8)vcombine_u8(
        loom_neon_lerp_u8(vget_low_u8(a), vget_low_u8(b), vget_low_u8(c)),
        loom_neon_lerp_u8(vget_high_u8(a), vget_high_u8(b), vget_high_u8(c)));
}
LOOM_C_INLINE loom_v16i8 loom_v16i8_lerp_v16i8_v16i8_v16u8(loom_v16i8 z, loom_v16i8 o,
                                                           loom_v16u8 w) {
    uint8x16_t a = (uint8x16_t)z, b = (uint8x16_t)o, c = (uint8x16_t)w;
    return (loom_v16i8)vcombine_u8(
        loom_neon_lerp_i8(vget_low_u8(a), vget_low_u8(b), vget_low_u8(c)),
        loom_neon_lerp_i8(vget_high_u8(a), vget_high_u8(b), vget_high_u8(c)));
}

/* (rounding_)mul_shift_right of 16-bit lanes: the exact product in 32 bits (plus half the
 * divisor, wrapping), shifted by q read as unsigned and at most 31, saturated to 16 bits. For
 * i16 and a shift of 15 everywhere that is SQDMULH / SQRDMULH (which saturate -32768 * -32768
 * as the IR does). */
LOOM_C_INLINE int32x4_t loom_neon_msr_shift(uint16x4_t q) {
    return vreinterpretq_s32_u32(vminq_u32(vmovl_u16(q), vdupq_n_u32(31)));
}
LOOM_C_INLINE uint32x4_t loom_neon_msr_half(int32x4_t s) {
    return vshrq_n_u32(vshlq_u32(vdupq_n_u32(1), s), 1);
}
LOOM_C_INLINE uint16x4_t loom_neon_msr_u16(uint16x4_t a, uint16x4_t b, uint16x4_t q, int rounding) {
    int32x4_t s = loom_neon_msr_shift(q);
    uint32x4_t p = vmull_u16(a, b);
    if (rounding) p = vaddq_u32(p, loom_neon_msr_half(s));
    return vqmovn_u32(vshlq_u32(p, vnegq_s32(s)));
}
LOOM_C_INLINE int16x4_t loom_neon_msr_s16(int16x4_t a, int16x4_t b, uint16x4_t q, int rounding) {
    int32x4_t s = loom_neon_msr_shift(q);
    int32x4_t p = vmull_s16(a, b);
    if (rounding) p = vaddq_s32(p, vreinterpretq_s32_u32(loom_neon_msr_half(s)));
    return vqmovn_s32(vshlq_s32(p, vnegq_s32(s)));
}
LOOM_C_INLINE int loom_neon_all15(uint16x8_t q) {
    return vminvq_u16(vceqq_u16(q, vdupq_n_u16(15))) == 0xFFFF;
}
#define LOOM_HAVE_loom_v8u16_mul_shift_right 1
#define LOOM_HAVE_loom_v8u16_rounding_mul_shift_right 1
#define LOOM_HAVE_loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_HAVE_loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16 1
#define LOOM_NEON_MSR_U16(f, rounding)                                                             \
    LOOM_C_INLINE loom_v8u16 f(loom_v8u16 a_, loom_v8u16 b_, loom_v8u16 q_) {                      \
        uint16x8_t a = (uint16x8_t)a_, b = (uint16x8_t)b_, q = (uint16x8_t)q_;                     \
        return (loom_v8u16)vcombine_u16(                                                           \
            loom_neon_msr_u16(vget_low_u16(a), vget_low_u16(b), vget_low_u16(q), rounding),        \
            loom_neon_msr_u16(vget_high_u16(a), vget_high_u16(b), vget_high_u16(q), rounding));    \
    }
#define LOOM_NEON_MSR_S16(f, rounding, fast)                                                       \
    LOOM_C_INLINE loom_v8i16 f(loom_v8i16 a_, loom_v8i16 b_, loom_v8u16 q_) {                      \
        int16x8_t a = (int16x8_t)a_, b = (int16x8_t)b_;                                            \
        uint16x8_t q = (uint16x8_t)q_;                                                             \
        if (loom_neon_all15(q)) return (loom_v8i16)fast(a, b);                                     \
        return (loom_v8i16)vcombine_s16(                                                           \
            loom_neon_msr_s16(vget_low_s16(a), vget_low_s16(b), vget_low_u16(q), rounding),        \
            loom_neon_msr_s16(vget_high_s16(a), vget_high_s16(b), vget_high_u16(q), rounding));    \
    }
LOOM_NEON_MSR_U16(loom_v8u16_mul_shift_right, 0)
LOOM_NEON_MSR_U16(loom_v8u16_rounding_mul_shift_right, 1)
LOOM_NEON_MSR_S16(loom_v8i16_mul_shift_right_v8i16_v8i16_v8u16, 0, vqdmulhq_s16)
LOOM_NEON_MSR_S16(loom_v8i16_rounding_mul_shift_right_v8i16_v8i16_v8u16, 1, vqrdmulhq_s16)

/* ---- Floats ---- */
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
#define LOOM_HAVE_loom_v4b_is_nan_f32_v4f32 1
LOOM_NEON_UNARY(loom_v4f32_floor_f32, loom_v4f32, loom_v4f32, float32x4_t, vrndmq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_ceil_f32, loom_v4f32, loom_v4f32, float32x4_t, vrndpq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_trunc_f32, loom_v4f32, loom_v4f32, float32x4_t, vrndq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_round_f32, loom_v4f32, loom_v4f32, float32x4_t, vrndiq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_sqrt_f32, loom_v4f32, loom_v4f32, float32x4_t, vsqrtq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_abs, loom_v4f32, loom_v4f32, float32x4_t, vabsq_f32(a))
LOOM_NEON_UNARY(loom_v4f32_inverse_f32, loom_v4f32, loom_v4f32, float32x4_t,
                vdivq_f32(vdupq_n_f32(1.0f), a))
LOOM_NEON_UNARY(loom_v4f32_fast_inverse_f32, loom_v4f32, loom_v4f32, float32x4_t,
                vdivq_f32(vdupq_n_f32(1.0f), a))
LOOM_NEON_UNARY(loom_v4f32_inverse_sqrt_f32, loom_v4f32, loom_v4f32, float32x4_t,
                vdivq_f32(vdupq_n_f32(1.0f), vsqrtq_f32(a)))
LOOM_NEON_UNARY(loom_v4f32_fast_inverse_sqrt_f32, loom_v4f32, loom_v4f32, float32x4_t,
                vdivq_f32(vdupq_n_f32(1.0f), vsqrtq_f32(a)))
/* a - b * floor(a / b), unfused. */
LOOM_NEON_BINARY(loom_v4f32_fmod, loom_v4f32, loom_v4f32, float32x4_t,
                 vsubq_f32(a, vmulq_f32(b, vrndmq_f32(vdivq_f32(a, b)))))
LOOM_C_INLINE loom_v4b loom_v4b_is_nan_f32_v4f32(loom_v4f32 a) {
    return loom_neon_v4b_m32(vceqq_f32((float32x4_t)a, (float32x4_t)a), 1);
}

/* ---- Conversions: widened by the source's signedness, narrowed by truncation ---- */
#define LOOM_NEON_CVT(R, A, expr)                                                                  \
    LOOM_C_INLINE loom_##R loom_##R##_cvt_##A(loom_##A a) { return (loom_##R)(expr); }
#define LOOM_HAVE_loom_v8u16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8u16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8u8 1
#define LOOM_HAVE_loom_v8i16_cvt_v8i8 1
#define LOOM_HAVE_loom_v8u8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8u8_cvt_v8i16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8u16 1
#define LOOM_HAVE_loom_v8i8_cvt_v8i16 1
LOOM_NEON_CVT(v8u16, v8u8, vmovl_u8((uint8x8_t)a))
LOOM_NEON_CVT(v8u16, v8i8, vmovl_s8((int8x8_t)a))
LOOM_NEON_CVT(v8i16, v8u8, vmovl_u8((uint8x8_t)a))
LOOM_NEON_CVT(v8i16, v8i8, vmovl_s8((int8x8_t)a))
LOOM_NEON_CVT(v8u8, v8u16, vmovn_u16((uint16x8_t)a))
LOOM_NEON_CVT(v8u8, v8i16, vmovn_u16((uint16x8_t)a))
LOOM_NEON_CVT(v8i8, v8u16, vmovn_u16((uint16x8_t)a))
LOOM_NEON_CVT(v8i8, v8i16, vmovn_u16((uint16x8_t)a))
#define LOOM_HAVE_loom_v4u32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4u32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4i32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4i32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4u16_cvt_v4u32 1
#define LOOM_HAVE_loom_v4u16_cvt_v4i32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4u32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4i32 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u16 1
#define LOOM_HAVE_loom_v4f32_cvt_v4i16 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u32 1
#define LOOM_HAVE_loom_v4u16_cvt_v4f32 1
#define LOOM_HAVE_loom_v4i16_cvt_v4f32 1
#define LOOM_HAVE_loom_v4u32_cvt_v4f32 1
LOOM_NEON_CVT(v4u32, v4u16, vmovl_u16((uint16x4_t)a))
LOOM_NEON_CVT(v4u32, v4i16, vmovl_s16((int16x4_t)a))
LOOM_NEON_CVT(v4i32, v4u16, vmovl_u16((uint16x4_t)a))
LOOM_NEON_CVT(v4i32, v4i16, vmovl_s16((int16x4_t)a))
LOOM_NEON_CVT(v4u16, v4u32, vmovn_u32((uint32x4_t)a))
LOOM_NEON_CVT(v4u16, v4i32, vmovn_u32((uint32x4_t)a))
LOOM_NEON_CVT(v4i16, v4u32, vmovn_u32((uint32x4_t)a))
LOOM_NEON_CVT(v4i16, v4i32, vmovn_u32((uint32x4_t)a))
LOOM_NEON_CVT(v4f32, v4u16, vcvtq_f32_u32(vmovl_u16((uint16x4_t)a)))
LOOM_NEON_CVT(v4f32, v4i16, vcvtq_f32_s32(vmovl_s16((int16x4_t)a)))
LOOM_NEON_CVT(v4f32, v4u32, vcvtq_f32_u32((uint32x4_t)a))
LOOM_NEON_CVT(v4u16, v4f32, vmovn_u32(vcvtq_u32_f32((float32x4_t)a)))
LOOM_NEON_CVT(v4i16, v4f32, vmovn_s32(vcvtq_s32_f32((float32x4_t)a)))
LOOM_NEON_CVT(v4u32, v4f32, vcvtq_u32_f32((float32x4_t)a))
/* 4 lanes of 8 bits. */
#define LOOM_HAVE_loom_v4i32_cvt_v4u8 1
#define LOOM_HAVE_loom_v4i32_cvt_v4i8 1
#define LOOM_HAVE_loom_v4f32_cvt_v4u8 1
#define LOOM_HAVE_loom_v4f32_cvt_v4i8 1
#define LOOM_HAVE_loom_v4u8_cvt_v4i32 1
#define LOOM_HAVE_loom_v4i8_cvt_v4i32 1
#define LOOM_HAVE_loom_v4u8_cvt_v4f32 1
#define LOOM_HAVE_loom_v4i8_cvt_v4f32 1
LOOM_NEON_CVT(v4i32, v4u8, loom_neon_w8to32u(loom_neon_lo32(&a)))
LOOM_NEON_CVT(v4i32, v4i8, loom_neon_w8to32s(vreinterpret_s8_u8(loom_neon_lo32(&a))))
LOOM_NEON_CVT(v4f32, v4u8, vcvtq_f32_u32(loom_neon_w8to32u(loom_neon_lo32(&a))))
LOOM_NEON_CVT(v4f32, v4i8, vcvtq_f32_s32(loom_neon_w8to32s(vreinterpret_s8_u8(loom_neon_lo32(&a)))))
LOOM_NEON_CVT(v4u8, v4i32, loom_neon_v4u8(loom_neon_n32to8x4((uint32x4_t)a)))
LOOM_NEON_CVT(v4i8, v4i32, loom_neon_v4u8(loom_neon_n32to8x4((uint32x4_t)a)))
LOOM_NEON_CVT(v4u8, v4f32, loom_neon_v4u8(loom_neon_n32to8x4(vcvtq_u32_f32((float32x4_t)a))))
LOOM_NEON_CVT(
    v4i8, v4f32,
    loom_neon_v4u8(loom_neon_n32to8x4(vreinterpretq_u32_s32(vcvtq_s32_f32((float32x4_t)a)))))

/* ---- Comparisons and selects ---- */
/* Floats: ordered comparisons, and != true for NaN, as C's operators. */
#define LOOM_NEON_CMP(R, op, A, I, to_bool, negate, expr)                                          \
    LOOM_C_INLINE loom_##R loom_##R##_##op##_##A(loom_##A a_, loom_##A b_) {                       \
        I a = (I)a_, b = (I)b_;                                                                    \
        return to_bool(expr, negate);                                                              \
    }
#define LOOM_NEON_CMP_ALL(R, A, Q, S, I, to_bool)                                                  \
    LOOM_NEON_CMP(R, lt, A, I, to_bool, 0, vclt##Q##_##S(a, b))                                    \
    LOOM_NEON_CMP(R, le, A, I, to_bool, 0, vcle##Q##_##S(a, b))                                    \
    LOOM_NEON_CMP(R, eq, A, I, to_bool, 0, vceq##Q##_##S(a, b))                                    \
    LOOM_NEON_CMP(R, ne, A, I, to_bool, 1, vceq##Q##_##S(a, b))
#define LOOM_HAVE_loom_v16b_lt_v16u8 1
#define LOOM_HAVE_loom_v16b_le_v16u8 1
#define LOOM_HAVE_loom_v16b_eq_v16u8 1
#define LOOM_HAVE_loom_v16b_ne_v16u8 1
#define LOOM_HAVE_loom_v16b_lt_v16i8 1
#define LOOM_HAVE_loom_v16b_le_v16i8 1
#define LOOM_HAVE_loom_v16b_eq_v16i8 1
#define LOOM_HAVE_loom_v16b_ne_v16i8 1
#define LOOM_HAVE_loom_v8b_lt_v8u8 1
#define LOOM_HAVE_loom_v8b_le_v8u8 1
#define LOOM_HAVE_loom_v8b_eq_v8u8 1
#define LOOM_HAVE_loom_v8b_ne_v8u8 1
#define LOOM_HAVE_loom_v8b_lt_v8i8 1
#define LOOM_HAVE_loom_v8b_le_v8i8 1
#define LOOM_HAVE_loom_v8b_eq_v8i8 1
#define LOOM_HAVE_loom_v8b_ne_v8i8 1
#define LOOM_HAVE_loom_v8b_lt_v8u16 1
#define LOOM_HAVE_loom_v8b_le_v8u16 1
#define LOOM_HAVE_loom_v8b_eq_v8u16 1
#define LOOM_HAVE_loom_v8b_ne_v8u16 1
#define LOOM_HAVE_loom_v8b_lt_v8i16 1
#define LOOM_HAVE_loom_v8b_le_v8i16 1
#define LOOM_HAVE_loom_v8b_eq_v8i16 1
#define LOOM_HAVE_loom_v8b_ne_v8i16 1
#define LOOM_HAVE_loom_v4b_lt_v4u16 1
#define LOOM_HAVE_loom_v4b_le_v4u16 1
#define LOOM_HAVE_loom_v4b_eq_v4u16 1
#define LOOM_HAVE_loom_v4b_ne_v4u16 1
#define LOOM_HAVE_loom_v4b_lt_v4i16 1
#define LOOM_HAVE_loom_v4b_le_v4i16 1
#define LOOM_HAVE_loom_v4b_eq_v4i16 1
#define LOOM_HAVE_loom_v4b_ne_v4i16 1
#define LOOM_HAVE_loom_v4b_lt_v4u32 1
#define LOOM_HAVE_loom_v4b_le_v4u32 1
#define LOOM_HAVE_loom_v4b_eq_v4u32 1
#define LOOM_HAVE_loom_v4b_ne_v4u32 1
#define LOOM_HAVE_loom_v4b_lt_v4i32 1
#define LOOM_HAVE_loom_v4b_le_v4i32 1
#define LOOM_HAVE_loom_v4b_eq_v4i32 1
#define LOOM_HAVE_loom_v4b_ne_v4i32 1
#define LOOM_HAVE_loom_v4b_lt_v4f32 1
#define LOOM_HAVE_loom_v4b_le_v4f32 1
#define LOOM_HAVE_loom_v4b_eq_v4f32 1
#define LOOM_HAVE_loom_v4b_ne_v4f32 1
LOOM_NEON_CMP_ALL(v16b, v16u8, q, u8, uint8x16_t, loom_neon_v16b_m8)
LOOM_NEON_CMP_ALL(v16b, v16i8, q, s8, int8x16_t, loom_neon_v16b_m8)
LOOM_NEON_CMP_ALL(v8b, v8u8, , u8, uint8x8_t, loom_neon_v8b_m8)
LOOM_NEON_CMP_ALL(v8b, v8i8, , s8, int8x8_t, loom_neon_v8b_m8)
LOOM_NEON_CMP_ALL(v8b, v8u16, q, u16, uint16x8_t, loom_neon_v8b_m16)
LOOM_NEON_CMP_ALL(v8b, v8i16, q, s16, int16x8_t, loom_neon_v8b_m16)
LOOM_NEON_CMP_ALL(v4b, v4u16, , u16, uint16x4_t, loom_neon_v4b_m16)
LOOM_NEON_CMP_ALL(v4b, v4i16, , s16, int16x4_t, loom_neon_v4b_m16)
LOOM_NEON_CMP_ALL(v4b, v4u32, q, u32, uint32x4_t, loom_neon_v4b_m32)
LOOM_NEON_CMP_ALL(v4b, v4i32, q, s32, int32x4_t, loom_neon_v4b_m32)
LOOM_NEON_CMP_ALL(v4b, v4f32, q, f32, float32x4_t, loom_neon_v4b_m32)

/* select(m, a, b): a where the bool lane is 1, by a bit select on the lanes' masks. */
#define LOOM_NEON_SELECT(M, T, bsl, I, mask)                                                       \
    LOOM_C_INLINE loom_##T loom_##T##_select_##M##_##T##_##T(loom_##M m, loom_##T a, loom_##T b) { \
        return (loom_##T)bsl(mask(m), (I)a, (I)b);                                                 \
    }
#define LOOM_HAVE_loom_v16u8_select_v16b_v16u8_v16u8 1
#define LOOM_HAVE_loom_v16i8_select_v16b_v16i8_v16i8 1
#define LOOM_HAVE_loom_v8u8_select_v8b_v8u8_v8u8 1
#define LOOM_HAVE_loom_v8i8_select_v8b_v8i8_v8i8 1
#define LOOM_HAVE_loom_v8u16_select_v8b_v8u16_v8u16 1
#define LOOM_HAVE_loom_v8i16_select_v8b_v8i16_v8i16 1
#define LOOM_HAVE_loom_v4u16_select_v4b_v4u16_v4u16 1
#define LOOM_HAVE_loom_v4i16_select_v4b_v4i16_v4i16 1
#define LOOM_HAVE_loom_v4u32_select_v4b_v4u32_v4u32 1
#define LOOM_HAVE_loom_v4i32_select_v4b_v4i32_v4i32 1
#define LOOM_HAVE_loom_v4f32_select_v4b_v4f32_v4f32 1
LOOM_NEON_SELECT(v16b, v16u8, vbslq_u8, uint8x16_t, loom_neon_m8_v16b)
LOOM_NEON_SELECT(v16b, v16i8, vbslq_u8, uint8x16_t, loom_neon_m8_v16b)
LOOM_NEON_SELECT(v8b, v8u8, vbsl_u8, uint8x8_t, loom_neon_m8_v8b)
LOOM_NEON_SELECT(v8b, v8i8, vbsl_u8, uint8x8_t, loom_neon_m8_v8b)
LOOM_NEON_SELECT(v8b, v8u16, vbslq_u16, uint16x8_t, loom_neon_m16_v8b)
LOOM_NEON_SELECT(v8b, v8i16, vbslq_u16, uint16x8_t, loom_neon_m16_v8b)
LOOM_NEON_SELECT(v4b, v4u16, vbsl_u16, uint16x4_t, loom_neon_m16_v4b)
LOOM_NEON_SELECT(v4b, v4i16, vbsl_u16, uint16x4_t, loom_neon_m16_v4b)
LOOM_NEON_SELECT(v4b, v4u32, vbslq_u32, uint32x4_t, loom_neon_m32_v4b)
LOOM_NEON_SELECT(v4b, v4i32, vbslq_u32, uint32x4_t, loom_neon_m32_v4b)
LOOM_NEON_SELECT(v4b, v4f32, vbslq_u32, uint32x4_t, loom_neon_m32_v4b)

#endif
