/* Naive reference of pipeline A (tests/aot/aot_generators.cpp), shared by the C programs that
 * run it: with sum3(x, y, c) = in(x) + in(x + 1) + in(x + 2) along x,
 *   bright(x, y, c) = min(sum3(x, y, c) / 3 + offset, 65535)
 *   scaled(x, y, c) = sum3(x, y + 1, c) * gain
 * for dense w x h x channels outputs over a dense iw x ih x channels input. */
#ifndef LOOM_TESTS_AOT_PIPELINE_A_REFERENCE_H
#define LOOM_TESTS_AOT_PIPELINE_A_REFERENCE_H

#include <stdint.h>

/* Counts the elements of each output that differ from the reference. */
static inline void pipeline_a_mismatches(const uint16_t *in, int iw, int ih, const uint16_t *bright,
                                         const float *scaled, int w, int h, int channels,
                                         float gain, uint8_t offset, int *bad_bright,
                                         int *bad_scaled) {
    *bad_bright = *bad_scaled = 0;
    for (int c = 0; c < channels; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
#define IN(X, Y) ((uint32_t)in[(X) + (Y)*iw + c * iw * ih])
                uint32_t s = IN(x, y) + IN(x + 1, y) + IN(x + 2, y);
                uint32_t s1 = IN(x, y + 1) + IN(x + 1, y + 1) + IN(x + 2, y + 1);
#undef IN
                uint32_t b = s / 3 + offset;
                if (b > 65535) b = 65535;
                int i = x + y * w + c * w * h;
                *bad_bright += bright[i] != (uint16_t)b;
                *bad_scaled += scaled[i] != (float)s1 * gain;
            }
        }
    }
}

#endif
