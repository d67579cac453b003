/* One pipeline compiled for two x86-64 feature levels (baseline SSE2, and AVX2+FMA), both linked
 * into this C program: they must agree bit for bit, and with a naive reference. Prints
 * "N passed, N failed". */
#include "HalideRuntime.h"
#include "aot_check.h"
#include "levels_avx2.h"
#include "levels_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static halide_buffer_t make_2d(uint8_t code, uint8_t bits, void *host, halide_dimension_t *dim,
                               int w, int h) {
    halide_buffer_t b;
    memset(&b, 0, sizeof(b));
    dim[0].min = 0;
    dim[0].extent = w;
    dim[0].stride = 1;
    dim[0].flags = 0;
    dim[1].min = 0;
    dim[1].extent = h;
    dim[1].stride = w;
    dim[1].flags = 0;
    b.host = (uint8_t *)host;
    b.type.code = code;
    b.type.bits = bits;
    b.type.lanes = 1;
    b.dimensions = 2;
    b.dim = dim;
    return b;
}

int main(void) {
    enum { W = 101, H = 13 };
    uint8_t *in = (uint8_t *)malloc((W + 1) * H);
    for (int i = 0; i < (W + 1) * H; i++) in[i] = (uint8_t)((i * 37) ^ (i >> 3));
    halide_dimension_t din[2], d0[2], d1[2], e0[2], e1[2];
    halide_buffer_t in_buf = make_2d(halide_type_uint, 8, in, din, W + 1, H);
    uint8_t *base0 = (uint8_t *)malloc(W * H), *avx0 = (uint8_t *)malloc(W * H);
    float *base1 = (float *)malloc(sizeof(float) * W * H),
          *avx1 = (float *)malloc(sizeof(float) * W * H);
    halide_buffer_t b0 = make_2d(halide_type_uint, 8, base0, d0, W, H);
    halide_buffer_t b1 = make_2d(halide_type_float, 32, base1, d1, W, H);
    halide_buffer_t a0 = make_2d(halide_type_uint, 8, avx0, e0, W, H);
    halide_buffer_t a1 = make_2d(halide_type_float, 32, avx1, e1, W, H);

    check(levels_base(&in_buf, &b0, &b1) == 0, "levels_base returns 0");
    int bad = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float v = (float)in[x + y * (W + 1)] * 0.25f + (float)in[x + 1 + y * (W + 1)] * 0.75f;
            float c = v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v;
            bad += base0[x + y * W] != (uint8_t)c;
            bad += base1[x + y * W] != v * v;
        }
    }
    check(bad == 0, "levels_base matches the reference");

    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        check(levels_avx2(&in_buf, &a0, &a1) == 0, "levels_avx2 returns 0");
        check(memcmp(base0, avx0, W * H) == 0, "uint8 output identical at both levels");
        check(memcmp(base1, avx1, sizeof(float) * W * H) == 0,
              "float output identical at both levels");
    } else {
        printf("This CPU has no AVX2+FMA: the avx2 build is linked but not run.\n");
    }
    return check_summary();
}
