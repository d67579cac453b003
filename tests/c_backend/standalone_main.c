/* A C99 program using the C back end's output (blur.c, blur.h from standalone_generate.cpp)
 * with nothing but libc, libm and pthreads: the result against its own loops, the metadata,
 * the argv entry point, and an error reported through a custom error handler. */
#include "blur.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors_seen;
static char last_error[1024];

static void record_error(void *user_context, const char *msg) {
    (void)user_context;
    errors_seen++;
    strncpy(last_error, msg, sizeof(last_error) - 1);
}

static void make_buffer(halide_buffer_t *b, halide_dimension_t *dims, uint8_t *data, int w, int h) {
    memset(b, 0, sizeof(*b));
    dims[0].min = 0;
    dims[0].extent = w;
    dims[0].stride = 1;
    dims[0].flags = 0;
    dims[1].min = 0;
    dims[1].extent = h;
    dims[1].stride = w;
    dims[1].flags = 0;
    b->host = data;
    b->type.code = halide_type_uint;
    b->type.bits = 8;
    b->type.lanes = 1;
    b->dimensions = 2;
    b->dim = dims;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(void) {
    enum { W = 77, H = 45 };
    static uint8_t in[W * H], out[W * H];
    halide_buffer_t in_buf, out_buf;
    halide_dimension_t in_dims[2], out_dims[2];
    int offset = 7, x, y, failures = 0;
    void *argv_args[3];
    const struct halide_filter_metadata_t *md;

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) in[y * W + x] = (uint8_t)((x * 37 + y * 91 + x * y) & 255);
    make_buffer(&in_buf, in_dims, in, W, H);
    make_buffer(&out_buf, out_dims, out, W, H);

    if (blur(&in_buf, offset, &out_buf) != 0) {
        printf("blur failed\n");
        return 1;
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int sum = 0, dx, dy, v;
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++)
                    sum += in[clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
            v = 255 - clampi(sum / 9 + offset, 0, 255);
            if (out[y * W + x] != v && failures++ < 5)
                printf("mismatch at %d, %d: %d, expected %d\n", x, y, out[y * W + x], v);
        }
    }

    /* The argv form gives the same result. */
    memset(out, 0, sizeof(out));
    argv_args[0] = &in_buf;
    argv_args[1] = &offset;
    argv_args[2] = &out_buf;
    if (blur_argv(argv_args) != 0 || out[5 * W + 5] == 0) {
        printf("blur_argv failed\n");
        failures++;
    }

    md = blur_metadata();
    if (md->num_arguments != 3 || strcmp(md->name, "blur") != 0 ||
        strcmp(md->arguments[1].name, "offset") != 0 || md->arguments[2].kind != 2) {
        printf("wrong metadata\n");
        failures++;
    }

    /* A buffer of the wrong type is an error with a message, not a crash. */
    halide_set_error_handler(record_error);
    in_buf.type.bits = 16;
    if (blur(&in_buf, offset, &out_buf) == 0 || errors_seen != 1 ||
        strstr(last_error, "input") == NULL) {
        printf("a bad input type was not reported (%d errors: %s)\n", errors_seen, last_error);
        failures++;
    }
    if (failures) return 1;
    printf("standalone C pipeline: all checks passed\n");
    return 0;
}
