/* Loom SIMD mapping "generic": GCC and Clang vector extensions, so the C compiler picks the
 * target's instructions (-msse4.1, -mavx2, -mcpu=..., any DSP with a vector-extension GCC or
 * Clang port). The default for those compilers; -DLOOM_SIMD_GENERIC selects it explicitly.
 *
 * A vector type is `ctype __attribute__((vector_size(lanes * sizeof(ctype))))`. The operations
 * below are those whose vector-extension form computes exactly the IR's result (README.md):
 * lanewise + - * (wrapping integers), float division, division and modulus by a positive
 * constant, comparisons (bool lanes as 0 or 1), select, min, max, conversions, broadcasts,
 * shifts by an in-range amount, bitwise operations, the bool operators and ramps; exp, sin and cos
 * of floats inline, by the LLVM back end's algorithms (within 2 ulp, not libm's); square roots
 * by the instruction on x86, and unmasked gathers (of 32-bit lanes by the instruction with AVX2).
 * On x86 some are instructions where GCC 12 makes poor code of the vector extensions: widening
 * of integers and differences of unsigned ones with SSE4.1, sin and cos's reduction with FMA.
 * The others keep the generated lane-by-lane defaults, which the compiler vectorizes where it can.
 *
 * Every LOOM_OP_<op> gets (function, R, r_lane, lanes, <A, a_lane for each argument>, W), W
 * being the signed integer vector as wide as R's lanes: what a comparison gives (-1 or 0). */
#ifndef LOOM_SIMD_GENERIC_H
#define LOOM_SIMD_GENERIC_H

/* Vectors wider than the target's registers are passed by value between static inline
 * functions only, so GCC's note that such an ABI changed with AVX does not apply. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* Shuffles of one or two vectors of one type into a vector of a power-of-two lane count, the
 * indices into their concatenation; the generated shuffles use it where it applies. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define LOOM_SHUFFLEVECTOR(...) __builtin_shufflevector(__VA_ARGS__)
#endif

#define LOOM_VECTOR_TYPE(tag, lanes, ctype)                                                        \
    typedef ctype loom_##tag __attribute__((vector_size(lanes * sizeof(ctype))));                  \
    LOOM_C_INLINE loom_##tag loom_##tag##_load(const ctype *p) {                                   \
        loom_##tag r;                                                                              \
        memcpy(&r, p, sizeof r);                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    LOOM_C_INLINE void loom_##tag##_store(ctype *p, loom_##tag x) { memcpy(p, &x, sizeof x); }

/* Bool lanes: 0 or 1, uint8_t in memory, but in registers as wide as the comparisons that make
 * them usually are (32-bit lanes up to 8 of them, 16-bit for 16, 8-bit beyond), so that a
 * comparison feeding a select needs no narrowing and widening in between: GCC 12 does those lane
 * by lane (lens_blur's C code was 1.3x slower). */
#define LOOM_SIMD_GENERIC_BOOL_LANE_2 int32_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_4 int32_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_8 int32_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_16 int16_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_32 int8_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_64 int8_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_128 int8_t
#define LOOM_SIMD_GENERIC_BOOL_LANE_256 int8_t
#define LOOM_BOOL_VECTOR_TYPE(tag, lanes)                                                          \
    typedef LOOM_SIMD_GENERIC_BOOL_LANE_##lanes loom_##tag                                         \
        __attribute__((vector_size(lanes * sizeof(LOOM_SIMD_GENERIC_BOOL_LANE_##lanes))));         \
    typedef uint8_t loom_##tag##_bytes __attribute__((vector_size(lanes)));                        \
    LOOM_C_INLINE loom_##tag loom_##tag##_load(const uint8_t *p) {                                 \
        loom_##tag##_bytes b;                                                                      \
        memcpy(&b, p, sizeof b);                                                                   \
        return __builtin_convertvector(b, loom_##tag);                                             \
    }                                                                                              \
    LOOM_C_INLINE void loom_##tag##_store(uint8_t *p, loom_##tag x) {                              \
        loom_##tag##_bytes b = __builtin_convertvector(x, loom_##tag##_bytes);                     \
        memcpy(p, &b, sizeof b);                                                                   \
    }

#define LOOM_SIMD_GENERIC_BINARY(f, R, op, A, B)                                                   \
    LOOM_C_INLINE R f(A a, B b) { return a op b; }
/* + - * of signed integer lanes in unsigned ones: they wrap, as the IR's do, where C's signed
 * overflow, in vector lanes as in scalars, is undefined (UBSan reports it; GCC may assume it
 * away). U: the unsigned integer type as wide as rc. */
#define LOOM_SIMD_GENERIC_UNSIGNED(rc)                                                             \
    __typeof__(__builtin_choose_expr(                                                              \
        sizeof(rc) == 1, (uint8_t)0,                                                               \
        __builtin_choose_expr(sizeof(rc) == 2, (uint16_t)0,                                        \
                              __builtin_choose_expr(sizeof(rc) == 4, (uint32_t)0, (uint64_t)0))))
#define LOOM_SIMD_GENERIC_WRAPPING(f, R, rc, op, A, B)                                             \
    LOOM_C_INLINE R f(A a, B b) {                                                                  \
        typedef LOOM_SIMD_GENERIC_UNSIGNED(rc) U __attribute__((vector_size(sizeof(R))));          \
        if ((rc)0.5 != 0 || (rc)-1 > 0) return a op b;                                             \
        return (R)((U)a op(U) b);                                                                  \
    }
#define LOOM_OP_add(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_WRAPPING(f, R, rc, +, A, B)
#define LOOM_OP_sub(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_WRAPPING(f, R, rc, -, A, B)
#define LOOM_OP_mul(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_WRAPPING(f, R, rc, *, A, B)
#define LOOM_OP_div(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, /, A, B)
#define LOOM_OP_bitwise_and(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, &, A, B)
#define LOOM_OP_bitwise_or(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, |, A, B)
#define LOOM_OP_bitwise_xor(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, ^, A, B)
/* Bool lanes hold 0 or 1, so & and | are the logical operators. */
#define LOOM_OP_and(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, &, A, B)
#define LOOM_OP_or(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, |, A, B)
#define LOOM_OP_not(f, R, rc, n, A, ac, W)                                                         \
    LOOM_C_INLINE R f(A a) { return a ^ (rc)1; }
/* Amounts in [0, bits): C's shifts. */
#define LOOM_OP_shl_c(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, <<, A, B)
#define LOOM_OP_shr_c(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_BINARY(f, R, >>, A, B)

/* Euclidean division by a positive divisor: C's quotient, one less where the remainder is
 * negative (a comparison's true is -1). */
#define LOOM_OP_div_c(f, R, rc, n, A, ac, B, bc, W)                                                \
    LOOM_C_INLINE R f(A a, B b) { return a / b + (R)(a % b < 0); }
#define LOOM_OP_mod_c(f, R, rc, n, A, ac, B, bc, W)                                                \
    LOOM_C_INLINE R f(A a, B b) {                                                                  \
        R r = a % b;                                                                               \
        return r + (b & (R)(r < 0));                                                               \
    }

/* A comparison gives lanes of -1 or 0 as wide as the operands'; bool lanes are 0 or 1. */
#define LOOM_SIMD_GENERIC_COMPARE(f, R, op, A)                                                     \
    LOOM_C_INLINE R f(A a, A b) { return __builtin_convertvector(-(a op b), R); }
#define LOOM_OP_lt(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, <, A)
#define LOOM_OP_le(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, <=, A)
#define LOOM_OP_gt(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, >, A)
#define LOOM_OP_ge(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, >=, A)
#define LOOM_OP_eq(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, ==, A)
#define LOOM_OP_ne(f, R, rc, n, A, ac, B, bc, W) LOOM_SIMD_GENERIC_COMPARE(f, R, !=, A)

/* Bit selects through the signed integer vector W (a cast between vectors of one size keeps
 * the bits). min and max as the IR: a < b ? a : b and b < a ? a : b. */
#define LOOM_OP_select(f, R, rc, n, M, mc, A, ac, B, bc, W)                                        \
    LOOM_C_INLINE R f(M m, A a, B b) {                                                             \
        W k = -__builtin_convertvector(m, W);                                                      \
        return (R)(((W)a & k) | ((W)b & ~k));                                                      \
    }
#define LOOM_OP_min(f, R, rc, n, A, ac, B, bc, W)                                                  \
    LOOM_C_INLINE R f(A a, B b) {                                                                  \
        W k = (W)(a < b);                                                                          \
        return (R)(((W)a & k) | ((W)b & ~k));                                                      \
    }
#define LOOM_OP_max(f, R, rc, n, A, ac, B, bc, W)                                                  \
    LOOM_C_INLINE R f(A a, B b) {                                                                  \
        W k = (W)(b < a);                                                                          \
        return (R)(((W)a & k) | ((W)b & ~k));                                                      \
    }

/* |a|: a float's sign bit cleared (-z is -0.0, the sign bit alone), as fabs; a signed integer's
 * as the unsigned type of its width, in wrapping unsigned lanes (|INT_MIN| included). A lane loop
 * of fabsf goes through memory (snake). */
#define LOOM_OP_abs(f, R, rc, n, A, ac, W)                                                         \
    LOOM_C_INLINE R f(A a) {                                                                       \
        const A z = {0};                                                                           \
        W m = (W)(a < z);                                                                          \
        if ((ac)0.5 != 0) return (R)((W)a & ~(W)(-z));                                             \
        return (R)((W)a ^ m) - (R)m;                                                               \
    }

/* x86 instructions on vectors one register wide, or 8 bytes wide in the low half of one (MOVQ:
 * through memory, a store-forwarding stall), where GCC 12 does not find them itself. */
#define LOOM_SIMD_GENERIC_MIN(a, b) ((a) < (b) ? (a) : (b))
#if defined(__SSE4_1__)
#include <immintrin.h>
/* q (a register type) = the vector a. */
#define LOOM_SIMD_GENERIC_X86_IN(q, a)                                                             \
    if (sizeof(a) == sizeof(q)) {                                                                  \
        memcpy(&(q), &(a), sizeof(q));                                                             \
    } else {                                                                                       \
        __m128i low = _mm_loadl_epi64((const __m128i *)(const void *)&(a));                        \
        memcpy(&(q), &low, LOOM_SIMD_GENERIC_MIN(sizeof(q), sizeof low));                          \
    }
/* r = the instruction `op` of register type Q on a and b. */
#define LOOM_SIMD_GENERIC_X86_BY(Q, op, r, a, b)                                                   \
    do {                                                                                           \
        Q qa, qb;                                                                                  \
        LOOM_SIMD_GENERIC_X86_IN(qa, a)                                                            \
        LOOM_SIMD_GENERIC_X86_IN(qb, b)                                                            \
        qa = op(qa, qb);                                                                           \
        memcpy(&(r), &qa, LOOM_SIMD_GENERIC_MIN(sizeof(r), sizeof qa));                            \
    } while (0)
#if defined(__AVX2__)
#define LOOM_SIMD_GENERIC_X86_256(r, a, b, name)                                                   \
    else if (sizeof(a) == 32) LOOM_SIMD_GENERIC_X86_BY(__m256i, _mm256_##name, r, a, b);
#define LOOM_SIMD_GENERIC_X86_HAS_256 1
#else
#define LOOM_SIMD_GENERIC_X86_256(r, a, b, name)
#define LOOM_SIMD_GENERIC_X86_HAS_256 0
#endif
#if defined(__AVX512BW__)
#define LOOM_SIMD_GENERIC_X86_512(r, a, b, name)                                                   \
    else if (sizeof(a) == 64) LOOM_SIMD_GENERIC_X86_BY(__m512i, _mm512_##name, r, a, b);
#define LOOM_SIMD_GENERIC_X86_HAS_512 1
#else
#define LOOM_SIMD_GENERIC_X86_512(r, a, b, name)
#define LOOM_SIMD_GENERIC_X86_HAS_512 0
#endif
/* Whether vectors of `bytes` bytes have a register for the instructions below. */
#define LOOM_SIMD_GENERIC_X86_FITS(bytes)                                                          \
    ((bytes) == 8 || (bytes) == 16 || ((bytes) == 32 && LOOM_SIMD_GENERIC_X86_HAS_256) ||          \
     ((bytes) == 64 && LOOM_SIMD_GENERIC_X86_HAS_512))
/* r = _mm*_<name>(a, b), for vectors that fit. */
#define LOOM_SIMD_GENERIC_X86_BINARY(r, a, b, name)                                                \
    if (sizeof(a) <= 16) LOOM_SIMD_GENERIC_X86_BY(__m128i, _mm_##name, r, a, b);                   \
    LOOM_SIMD_GENERIC_X86_256(r, a, b, name)                                                       \
    LOOM_SIMD_GENERIC_X86_512(r, a, b, name)
/* |a - b| of unsigned 8- and 16-bit lanes: saturating differences both ways, or'ed (GCC 12
 * makes ten instructions of the generic form for 8 x u8: lens_blur's colour differences). */
#define LOOM_SIMD_GENERIC_ABSD_X86(R, ac, a, b)                                                    \
    if ((ac)0.5 == 0 && (ac)-1 > 0 && sizeof(ac) <= 2 && LOOM_SIMD_GENERIC_X86_FITS(sizeof(a))) {  \
        R x, y;                                                                                    \
        if (sizeof(ac) == 1) {                                                                     \
            LOOM_SIMD_GENERIC_X86_BINARY(x, a, b, subs_epu8)                                       \
            LOOM_SIMD_GENERIC_X86_BINARY(y, b, a, subs_epu8)                                       \
        } else {                                                                                   \
            LOOM_SIMD_GENERIC_X86_BINARY(x, a, b, subs_epu16)                                      \
            LOOM_SIMD_GENERIC_X86_BINARY(y, b, a, subs_epu16)                                      \
        }                                                                                          \
        return x | y;                                                                              \
    }
#else
#define LOOM_SIMD_GENERIC_ABSD_X86(R, ac, a, b)
#endif

/* |a - b| as the unsigned type of the operands' width: the difference taken the right way
 * round, in unsigned lanes (wrapping, so exact for signed operands too). */
#define LOOM_OP_absd(f, R, rc, n, A, ac, B, bc, W)                                                 \
    LOOM_C_INLINE R f(A a, B b) {                                                                  \
        W k;                                                                                       \
        LOOM_SIMD_GENERIC_ABSD_X86(R, ac, a, b)                                                    \
        k = (W)(a < b);                                                                            \
        R ua = (R)a, ub = (R)b;                                                                    \
        return (R)(((W)(ub - ua) & k) | ((W)(ua - ub) & ~k));                                      \
    }

/* Numeric conversions are C's conversion per lane; a conversion to bool is a test against 0. */
/* Integers widened to twice their width, on x86: the instruction (PMOVZX, PMOVSX) for results
 * one register wide. GCC 12 widens each half of the vector separately and joins them, four
 * instructions for one (lens_blur's colour differences, u8 to u16). */
#if defined(__SSE4_1__)
#define LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, widen)                                                  \
    do {                                                                                           \
        QA qa;                                                                                     \
        QR qr;                                                                                     \
        LOOM_SIMD_GENERIC_X86_IN(qa, a)                                                            \
        qr = widen(qa);                                                                            \
        memcpy(&r, &qr, LOOM_SIMD_GENERIC_MIN(sizeof r, sizeof qr));                               \
        return r;                                                                                  \
    } while (0)
/* The instructions from lanes of `ac` into registers of QR, given their names' prefix (braced:
 * it follows an if). */
#define LOOM_SIMD_GENERIC_WIDEN_IN(ac, QA, QR, prefix)                                             \
    {                                                                                              \
        if ((ac)-1 > 0) {                                                                          \
            if (sizeof(ac) == 1) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepu8_epi16);       \
            if (sizeof(ac) == 2) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepu16_epi32);      \
            if (sizeof(ac) == 4) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepu32_epi64);      \
        } else {                                                                                   \
            if (sizeof(ac) == 1) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepi8_epi16);       \
            if (sizeof(ac) == 2) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepi16_epi32);      \
            if (sizeof(ac) == 4) LOOM_SIMD_GENERIC_WIDEN_BY(QA, QR, prefix##_cvtepi32_epi64);      \
        }                                                                                          \
    }
#if defined(__AVX2__)
#define LOOM_SIMD_GENERIC_WIDEN_256(ac, R)                                                         \
    if (sizeof(R) == 32) LOOM_SIMD_GENERIC_WIDEN_IN(ac, __m128i, __m256i, _mm256)
#else
#define LOOM_SIMD_GENERIC_WIDEN_256(ac, R)
#endif
#if defined(__AVX512BW__)
#define LOOM_SIMD_GENERIC_WIDEN_512(ac, R)                                                         \
    if (sizeof(R) == 64) LOOM_SIMD_GENERIC_WIDEN_IN(ac, __m256i, __m512i, _mm512)
#else
#define LOOM_SIMD_GENERIC_WIDEN_512(ac, R)
#endif
#define LOOM_SIMD_GENERIC_WIDEN(R, rc, A, ac)                                                      \
    if ((rc)0.5 == 0 && (ac)0.5 == 0 && sizeof(rc) == 2 * sizeof(ac) &&                            \
        sizeof(R) == 2 * sizeof(A)) {                                                              \
        R r;                                                                                       \
        if (sizeof(R) == 16) LOOM_SIMD_GENERIC_WIDEN_IN(ac, __m128i, __m128i, _mm)                 \
        LOOM_SIMD_GENERIC_WIDEN_256(ac, R)                                                         \
        LOOM_SIMD_GENERIC_WIDEN_512(ac, R)                                                         \
    }
#else
#define LOOM_SIMD_GENERIC_WIDEN(R, rc, A, ac)
#endif
/* Between floats and narrower integers, conversions go through the integers as wide as the
 * float (exact for every value the conversion defines), which compilers vectorize where GCC 12
 * scalarizes the direct one (u8 to f32 and back). The tests on the lane types are constants, so
 * only one conversion remains. WA: the signed integer vector as wide as the argument's lanes. */
#define LOOM_OP_cvt(f, R, rc, n, A, ac, W, WA)                                                     \
    LOOM_C_INLINE R f(A a) {                                                                       \
        LOOM_SIMD_GENERIC_WIDEN(R, rc, A, ac)                                                      \
        if ((rc)0.5 != 0 && (ac)0.5 == 0 && sizeof(ac) < sizeof(rc)) {                             \
            return __builtin_convertvector(__builtin_convertvector(a, W), R);                      \
        }                                                                                          \
        if ((ac)0.5 != 0 && (rc)0.5 == 0 && sizeof(rc) < sizeof(ac)) {                             \
            return __builtin_convertvector(__builtin_convertvector(a, WA), R);                     \
        }                                                                                          \
        return __builtin_convertvector(a, R);                                                      \
    }
#define LOOM_OP_ne0(f, R, rc, n, A, ac, W)                                                         \
    LOOM_C_INLINE R f(A a) { return __builtin_convertvector(-(a != 0), R); }
/* e^x of float lanes, inline (one expf call per lane otherwise: nl_means's weights). The LLVM
 * back end's algorithm: x clamped to [-104, 89], Cody-Waite reduction x = k ln2 + r with
 * |r| <= ln2 / 2, the Cephes minimax polynomial for e^r (1-2 ulp), and 2^k applied in two halves
 * so results down to the subnormals stay right; NaN passes through. k is rounded half away from
 * zero through an integer conversion (exact whatever the compiler's float flags). */
#define LOOM_SIMD_GENERIC_SELECT(W, k, a, b) (((W)(a) & (k)) | ((W)(b) & ~(k)))
#define LOOM_OP_exp_f32(f, R, rc, n, A, ac, W)                                                     \
    LOOM_C_INLINE R f(A x) {                                                                       \
        const R z = {0};                                                                           \
        W nan = (W)(x != x);                                                                       \
        R xc = (R)LOOM_SIMD_GENERIC_SELECT(W, nan, z, x);                                          \
        xc = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(xc < z - 104.0f), z - 104.0f, xc);                 \
        xc = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(xc > z + 89.0f), z + 89.0f, xc);                   \
        R t = xc * 1.44269504088896341f;                                                           \
        W ki = __builtin_convertvector(                                                            \
            t + (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t < z), z - 0.5f, z + 0.5f), W);                \
        R k = __builtin_convertvector(ki, R);                                                      \
        R r = k * -0.693359375f + xc;                                                              \
        r = k * 2.12194440e-4f + r;                                                                \
        R y = z + 1.9875691500e-4f;                                                                \
        y = y * r + 1.3981999507e-3f;                                                              \
        y = y * r + 8.3334519073e-3f;                                                              \
        y = y * r + 4.1665795894e-2f;                                                              \
        y = y * r + 1.6666665459e-1f;                                                              \
        y = y * r + 5.0000001201e-1f;                                                              \
        R p = (y * (r * r) + r) + 1.0f;                                                            \
        W k1 = ki >> 1, k2 = ki - k1;                                                              \
        R res = p * (R)((k1 + 127) << 23) * (R)((k2 + 127) << 23);                                 \
        return (R)LOOM_SIMD_GENERIC_SELECT(W, nan, x, res);                                        \
    }
/* Square roots: a lane loop of sqrtf keeps a branch per lane for errno (C compilers set it by
 * default, and GCC ignores no-math-errno in a pragma), which stalls every use of the result (snake:
 * its C code 1.4x slower). On x86 the instruction instead, through the compilers' builtins
 * (SQRTPS and SQRTPD round correctly, as sqrtf and sqrt), in chunks of the widest register (GCC
 * joins narrower results through memory, a store-forwarding stall). */
#if defined(__SSE2__)
typedef float loom_simd_generic_f32x4 __attribute__((vector_size(16)));
typedef double loom_simd_generic_f64x2 __attribute__((vector_size(16)));
/* r = the builtin on each chunk of type Q of a (a whole number of them where this runs; at least
 * one in the array, as ISO C has no empty ones, where it does not). */
#define LOOM_SIMD_GENERIC_CHUNKS(a, Q) ((sizeof(a) + sizeof(Q) - 1) / sizeof(Q))
#define LOOM_SIMD_GENERIC_BY_CHUNKS(Q, a, r, builtin)                                              \
    do {                                                                                           \
        Q q[LOOM_SIMD_GENERIC_CHUNKS(a, Q)];                                                       \
        int i;                                                                                     \
        memcpy(q, &(a), LOOM_SIMD_GENERIC_MIN(sizeof q, sizeof(a)));                               \
        for (i = 0; i < (int)(sizeof(a) / sizeof(Q)); i++) q[i] = builtin(q[i]);                   \
        memcpy(&(r), q, LOOM_SIMD_GENERIC_MIN(sizeof q, sizeof(r)));                               \
    } while (0)
#if defined(__AVX__)
typedef float loom_simd_generic_f32x8 __attribute__((vector_size(32)));
typedef double loom_simd_generic_f64x4 __attribute__((vector_size(32)));
#define LOOM_SIMD_GENERIC_SQRT_AVX(a, r, Q, builtin)                                               \
    if (sizeof(a) % 32 == 0) {                                                                     \
        LOOM_SIMD_GENERIC_BY_CHUNKS(Q, a, r, builtin);                                             \
        return r;                                                                                  \
    }
#else
#define LOOM_SIMD_GENERIC_SQRT_AVX(a, r, Q, builtin)
#endif
/* Vectors narrower than 16 bytes (2 floats) go through one zero-padded register. */
#define LOOM_SIMD_GENERIC_SQRT(f, R, Q, builtin, Q32, builtin32)                                   \
    LOOM_C_INLINE R f(R a) {                                                                       \
        R r;                                                                                       \
        LOOM_SIMD_GENERIC_SQRT_AVX(a, r, Q32, builtin32)                                           \
        if (sizeof(a) % 16 == 0) {                                                                 \
            LOOM_SIMD_GENERIC_BY_CHUNKS(Q, a, r, builtin);                                         \
        } else {                                                                                   \
            Q q = {0};                                                                             \
            memcpy(&q, &a, sizeof(a) < sizeof(q) ? sizeof(a) : sizeof(q));                         \
            q = builtin(q);                                                                        \
            memcpy(&r, &q, sizeof(a) < sizeof(q) ? sizeof(a) : sizeof(q));                         \
        }                                                                                          \
        return r;                                                                                  \
    }
#define LOOM_OP_sqrt_f32(f, R, rc, n, A, ac, W)                                                    \
    LOOM_SIMD_GENERIC_SQRT(f, R, loom_simd_generic_f32x4, __builtin_ia32_sqrtps,                   \
                           loom_simd_generic_f32x8, __builtin_ia32_sqrtps256)
#define LOOM_OP_sqrt_f64(f, R, rc, n, A, ac, W)                                                    \
    LOOM_SIMD_GENERIC_SQRT(f, R, loom_simd_generic_f64x2, __builtin_ia32_sqrtpd,                   \
                           loom_simd_generic_f64x4, __builtin_ia32_sqrtpd256)
#endif
/* Gathers: with AVX2, of 32-bit lanes by 32-bit indices the instruction (VPGATHERDD loads each
 * lane from p + 4 * index, as the lane loop does), which GCC does not make of the lane loop inside
 * a large function (local_laplacian's remapping table); of 8- and 16-bit lanes each lane straight
 * into the result (through an array, GCC stores the lanes one by one and reloads them as a
 * vector, a store-forwarding stall: camera_pipe's tone curve); others through an array, which GCC
 * can turn into a gather instruction. */
#if defined(__AVX2__)
#include <immintrin.h>
#define LOOM_SIMD_GENERIC_GATHER32(V, gather)                                                      \
    do {                                                                                           \
        V x, v;                                                                                    \
        memcpy(&x, &idx, LOOM_SIMD_GENERIC_MIN(sizeof x, sizeof idx));                             \
        v = gather((const int *)(const void *)p, x, 4);                                            \
        memcpy(&r, &v, LOOM_SIMD_GENERIC_MIN(sizeof r, sizeof v));                                 \
    } while (0)
/* The instruction's cases, each followed by "else". */
#define LOOM_SIMD_GENERIC_GATHER_AVX2(rc, ic, n)                                                   \
    if (sizeof(rc) == 4 && sizeof(ic) == 4 && n == 8) {                                            \
        LOOM_SIMD_GENERIC_GATHER32(__m256i, _mm256_i32gather_epi32);                               \
    } else if (sizeof(rc) == 4 && sizeof(ic) == 4 && n == 4) {                                     \
        LOOM_SIMD_GENERIC_GATHER32(__m128i, _mm_i32gather_epi32);                                  \
    } else
#else
#define LOOM_SIMD_GENERIC_GATHER_AVX2(rc, ic, n)
#endif
#define LOOM_OP_gather(f, R, rc, n, I, ic)                                                         \
    LOOM_C_INLINE R f(const rc *p, I idx) {                                                        \
        R r = {0};                                                                                 \
        int i;                                                                                     \
        LOOM_SIMD_GENERIC_GATHER_AVX2(rc, ic, n)                                                   \
        if (sizeof(rc) <= 2) {                                                                     \
            _Pragma("GCC unroll 64") for (i = 0; i < n; i++) r[i] = p[idx[i]];                     \
        } else {                                                                                   \
            ic x[n];                                                                               \
            rc lanes[n];                                                                           \
            memcpy(x, &idx, sizeof x);                                                             \
            for (i = 0; i < n; i++) lanes[i] = p[x[i]];                                            \
            memcpy(&r, lanes, sizeof r);                                                           \
        }                                                                                          \
        return r;                                                                                  \
    }
/* sin and cos of float lanes, inline (one sinf/cosf call per lane otherwise: snake's Dirac
 * delta). The LLVM back end's polynomials: k = round(x 2/pi), r = x - k pi/2, the Cephes minimax
 * polynomials for sin and cos on [-pi/4, pi/4] chosen and negated by the quadrant k mod 4 (plus
 * one for cos); far beyond |x| = 1e6, k is clamped to 2^30 and the result, inaccurate, stays in
 * [-1, 1]. sin(+-0) = +-0; sin and cos of +-inf or NaN are NaN.
 *
 * The reduction r = x - k pi/2 must be exact up to about one rounding. With FMA on x86 it is the
 * LLVM back end's: pi/2 in three floats, each step one fused multiply-add (the instruction,
 * whatever the contraction setting), so the results are the JIT's except where x 2/pi lies
 * halfway between two integers (the JIT rounds k to even there). Elsewhere it is computed in
 * double (pi/2 in two doubles), which needs no fused multiply-add but converts every lane there
 * and back: snake's cosines took a third of its C code's time that way. */
#if defined(__FMA__) && defined(__AVX__)
#include <immintrin.h>
/* r = a * b + c with one rounding per float lane, on chunks of the widest register. */
#define LOOM_SIMD_GENERIC_FMA_BY(Q, fma, r, a, b, c)                                               \
    do {                                                                                           \
        Q qa[LOOM_SIMD_GENERIC_CHUNKS(a, Q)], qb[LOOM_SIMD_GENERIC_CHUNKS(a, Q)],                  \
            qc[LOOM_SIMD_GENERIC_CHUNKS(a, Q)];                                                    \
        int j;                                                                                     \
        memcpy(qa, &(a), LOOM_SIMD_GENERIC_MIN(sizeof qa, sizeof(a)));                             \
        memcpy(qb, &(b), LOOM_SIMD_GENERIC_MIN(sizeof qb, sizeof(a)));                             \
        memcpy(qc, &(c), LOOM_SIMD_GENERIC_MIN(sizeof qc, sizeof(a)));                             \
        for (j = 0; j < (int)(sizeof(a) / sizeof(Q)); j++) qa[j] = fma(qa[j], qb[j], qc[j]);       \
        memcpy(&(r), qa, LOOM_SIMD_GENERIC_MIN(sizeof qa, sizeof(r)));                             \
    } while (0)
#if defined(__AVX512F__)
#define LOOM_SIMD_GENERIC_FMA_512(r, a, b, c)                                                      \
    if (sizeof(a) % 64 == 0)                                                                       \
        LOOM_SIMD_GENERIC_FMA_BY(__m512, _mm512_fmadd_ps, r, a, b, c);                             \
    else
#else
#define LOOM_SIMD_GENERIC_FMA_512(r, a, b, c)
#endif
/* Vectors narrower than 16 bytes (2 floats) go through one zero-padded register. */
#define LOOM_SIMD_GENERIC_FMA_F32(r, a, b, c)                                                      \
    LOOM_SIMD_GENERIC_FMA_512(r, a, b, c)                                                          \
    if (sizeof(a) % 32 == 0)                                                                       \
        LOOM_SIMD_GENERIC_FMA_BY(__m256, _mm256_fmadd_ps, r, a, b, c);                             \
    else if (sizeof(a) % 16 == 0)                                                                  \
        LOOM_SIMD_GENERIC_FMA_BY(__m128, _mm_fmadd_ps, r, a, b, c);                                \
    else {                                                                                         \
        __m128 pa = _mm_setzero_ps(), pb = _mm_setzero_ps(), pc = _mm_setzero_ps();                \
        memcpy(&pa, &(a), LOOM_SIMD_GENERIC_MIN(sizeof(a), 16));                                   \
        memcpy(&pb, &(b), LOOM_SIMD_GENERIC_MIN(sizeof(a), 16));                                   \
        memcpy(&pc, &(c), LOOM_SIMD_GENERIC_MIN(sizeof(a), 16));                                   \
        pa = _mm_fmadd_ps(pa, pb, pc);                                                             \
        memcpy(&(r), &pa, LOOM_SIMD_GENERIC_MIN(sizeof(a), 16));                                   \
    }
/* k = round(xs 2/pi) (half away from zero, through an integer conversion, as below: adding and
 * subtracting 2^23 would round to even as the JIT does, but -ffast-math may fold that away), then
 * clamped to +-2^30, ki = k as an integer (k mod 4 survives the clamp), r = xs - k pi/2. */
#define LOOM_SIMD_GENERIC_REDUCE_HALF_PI(R, n, W, xs, r, ki)                                       \
    do {                                                                                           \
        R t = xs * 0x1.45f306p-1f, k, c1 = z - 0x1.921fb6p+0f, c2 = z + 0x1.777a5cp-25f,           \
          c3 = z + 0x1.ee59dap-50f;                                                                \
        t = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t > z + 0x1p30f), z + 0x1p30f, t);                  \
        t = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t < z - 0x1p30f), z - 0x1p30f, t);                  \
        ki = __builtin_convertvector(                                                              \
            t + (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t < z), z - 0.5f, z + 0.5f), W);                \
        k = __builtin_convertvector(ki, R);                                                        \
        LOOM_SIMD_GENERIC_FMA_F32(r, k, c1, xs);                                                   \
        LOOM_SIMD_GENERIC_FMA_F32(r, k, c2, r);                                                    \
        LOOM_SIMD_GENERIC_FMA_F32(r, k, c3, r);                                                    \
    } while (0)
#else
/* k = round(xs 2/pi) (half away from zero, through an integer conversion; clamped to +-2^30
 * first), r = xs - k pi/2 in double. */
#define LOOM_SIMD_GENERIC_REDUCE_HALF_PI(R, n, W, xs, r, ki)                                       \
    do {                                                                                           \
        typedef double D __attribute__((vector_size(n * sizeof(double))));                         \
        R t = xs * 0.636619772367581343f;                                                          \
        D kd, rd;                                                                                  \
        t = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t > z + 0x1p30f), z + 0x1p30f, t);                  \
        t = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t < z - 0x1p30f), z - 0x1p30f, t);                  \
        ki = __builtin_convertvector(                                                              \
            t + (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(t < z), z - 0.5f, z + 0.5f), W);                \
        kd = __builtin_convertvector(ki, D);                                                       \
        rd = (__builtin_convertvector(xs, D) - kd * 1.5707963267948966) -                          \
             kd * 6.123233995736766e-17;                                                           \
        r = __builtin_convertvector(rd, R);                                                        \
    } while (0)
#endif
#define LOOM_SIMD_GENERIC_SIN_COS(f, R, n, W, quadrant)                                            \
    LOOM_C_INLINE R f(R x) {                                                                       \
        const R z = {0};                                                                           \
        W finite = (W)(x < z + HUGE_VALF) & (W)(x > z - HUGE_VALF);                                \
        R xs = (R)LOOM_SIMD_GENERIC_SELECT(W, finite, x, z);                                       \
        R r, zz, ps, sin_r, pc, cos_r, res;                                                        \
        W ki, q;                                                                                   \
        LOOM_SIMD_GENERIC_REDUCE_HALF_PI(R, n, W, xs, r, ki);                                      \
        r = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(r > z + 2.0f), z + 2.0f, r);                        \
        r = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(r < z - 2.0f), z - 2.0f, r);                        \
        zz = r * r;                                                                                \
        ps = (zz * -1.9515295891e-4f + 8.3321608736e-3f) * zz - 1.6666654611e-1f;                  \
        sin_r = ps * zz * r + r;                                                                   \
        pc = (zz * 2.443315711809948e-5f - 1.388731625493765e-3f) * zz + 4.166664568298827e-2f;    \
        cos_r = pc * (zz * zz) + (zz * -0.5f + 1.0f);                                              \
        q = ki + (quadrant);                                                                       \
        res = (R)LOOM_SIMD_GENERIC_SELECT(W, -(q & 1), cos_r, sin_r);                              \
        res = (R)((W)res ^ ((W)((q & 2) != 0) & INT32_MIN));                                       \
        res = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(res > z + 1.0f), z + 1.0f, res);                  \
        res = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(res < z - 1.0f), z - 1.0f, res);                  \
        if (!(quadrant)) res = (R)LOOM_SIMD_GENERIC_SELECT(W, (W)(xs == z), xs, res);              \
        return (R)LOOM_SIMD_GENERIC_SELECT(W, finite, res, z + NAN);                               \
    }
#define LOOM_OP_sin_f32(f, R, rc, n, A, ac, W) LOOM_SIMD_GENERIC_SIN_COS(f, R, n, W, 0)
#define LOOM_OP_cos_f32(f, R, rc, n, A, ac, W) LOOM_SIMD_GENERIC_SIN_COS(f, R, n, W, 1)
/* base + stride * lane, the lane indices a constant vector (one multiply-add instead of a vector
 * built lane by lane). */
#define LOOM_OP_ramp(f, R, rc, n, A, ac, B, bc, W)                                                 \
    LOOM_C_INLINE R f(A base, B stride) {                                                          \
        rc lanes[n];                                                                               \
        R r;                                                                                       \
        int i;                                                                                     \
        for (i = 0; i < n; i++) lanes[i] = (rc)i;                                                  \
        memcpy(&r, lanes, sizeof r);                                                               \
        return r * (rc)stride + (rc)base;                                                          \
    }
/* a - 0 in every lane, which GCC and Clang fold to a broadcast and which keeps -0.0 (0 + a does
 * not). Vectors wider than any register are copies of one 64-byte broadcast: GCC builds a - 0 of
 * those in memory lane by lane, and the vector loads that follow the lanes' stores stall
 * (camera_pipe's 32 x i32 colour matrix); for a 16 x f32 vector, a loop over the lanes becomes
 * one masked broadcast per lane (conv_layer). */
#define LOOM_OP_broadcast(f, R, rc, n, A, ac, W)                                                   \
    LOOM_C_INLINE R f(A a) {                                                                       \
        R r = {0};                                                                                 \
        int i;                                                                                     \
        typedef rc loom_simd_generic_zmm __attribute__((vector_size(64)));                         \
        loom_simd_generic_zmm z = {0}, h;                                                          \
        if (sizeof(R) <= 64) return (rc)a - r;                                                     \
        h = (rc)a - z;                                                                             \
        for (i = 0; i < (int)(sizeof(R) / 64); i++) memcpy((char *)&r + 64 * i, &h, 64);           \
        return r;                                                                                  \
    }
#endif
