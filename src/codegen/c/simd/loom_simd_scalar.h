/* Loom SIMD mapping "scalar": plain C99 for any compiler. A vector is a struct of its lanes and
 * every operation keeps the C back end's lane-by-lane default (see README.md). Select it with
 * -DLOOM_SIMD_SCALAR when compiling generated C; it is the default for compilers other than
 * GCC and Clang. */
#ifndef LOOM_SIMD_SCALAR_H
#define LOOM_SIMD_SCALAR_H

#define LOOM_VECTOR_TYPE(tag, lanes, ctype)                                                        \
    typedef struct {                                                                               \
        ctype v[lanes];                                                                            \
    } loom_##tag;                                                                                  \
    LOOM_C_INLINE loom_##tag loom_##tag##_load(const ctype *p) {                                   \
        loom_##tag r;                                                                              \
        memcpy(r.v, p, sizeof r.v);                                                                \
        return r;                                                                                  \
    }                                                                                              \
    LOOM_C_INLINE void loom_##tag##_store(ctype *p, loom_##tag x) { memcpy(p, x.v, sizeof x.v); }

#endif
