/* The checks of the AOT test programs (C99 and C++): check() counts and reports each assertion,
 * check_summary() prints "N passed, N failed" and gives the program's exit code; make_buffer()
 * and dense_shape() describe arrays as halide_buffer_t. Included once per program, after the
 * runtime's declarations (HalideRuntime.h or a generated header: aot_header_alone has only the
 * latter on its path). */
#ifndef LOOM_TESTS_AOT_CHECK_H
#define LOOM_TESTS_AOT_CHECK_H

#include <stdio.h>
#include <string.h>

static int passed = 0, failed = 0;

static void check(int ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAILED: %s\n", what);
    }
}

static int check_summary(void) {
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

static inline halide_buffer_t make_buffer(uint8_t code, uint8_t bits, void *host,
                                          halide_dimension_t *dim, int dims) {
    halide_buffer_t b;
    memset((void *)&b, 0, sizeof(b)); /* (void *): C++ sees its constructors */
    b.host = (uint8_t *)host;
    b.type.code = code;
    b.type.bits = bits;
    b.type.lanes = 1;
    b.dimensions = dims;
    b.dim = dim;
    return b;
}

static inline void dense_shape(halide_dimension_t *dim, const int *extent, int dims) {
    int stride = 1;
    for (int d = 0; d < dims; d++) {
        dim[d].min = 0;
        dim[d].extent = extent[d];
        dim[d].stride = stride;
        dim[d].flags = 0;
        stride *= extent[d];
    }
}

#endif
