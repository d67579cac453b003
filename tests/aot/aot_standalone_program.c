/* Pipelines compiled with no_runtime, linked with the runtime written by
 * compile_standalone_runtime (standalone_runtime.a here; no other archive carries one): the
 * pipeline runs, its parallel loop uses the runtime's thread pool, and an error reaches the
 * runtime's halide_error through a handler set with halide_set_error_handler. Prints
 * "N passed, N failed". */
#include "HalideRuntime.h"
#include "aot_check.h"
#include "pipeline_a_reference.h"
#include "pipeline_lut.h"
#include "standalone_a.h"

#include <stdlib.h>

static int handled_errors = 0;
static void count_error(void *user_context, const char *msg) {
    (void)user_context;
    (void)msg;
    handled_errors++;
}

/* A dense buffer of the given extents over host, its dimensions in dim. */
static halide_buffer_t dense(uint8_t code, uint8_t bits, void *host, halide_dimension_t *dim,
                             const int *extent, int dims) {
    dense_shape(dim, extent, dims);
    return make_buffer(code, bits, host, dim, dims);
}

int main(void) {
    enum { W = 33, H = 9, C = 3 };
    const float gain = 2.0f;
    const uint8_t offset = 7;
    int in_extent[3] = {W + 2, H + 1, C}, out_extent[3] = {W, H, C};
    halide_dimension_t idim[3], bdim[3], sdim[3];
    uint16_t *in = (uint16_t *)malloc(sizeof(uint16_t) * (W + 2) * (H + 1) * C);
    uint16_t *bright = (uint16_t *)malloc(sizeof(uint16_t) * W * H * C);
    float *scaled = (float *)malloc(sizeof(float) * W * H * C);
    for (int i = 0; i < (W + 2) * (H + 1) * C; i++) in[i] = (uint16_t)((i * 40503) % 65536);
    halide_buffer_t in_buf = dense(halide_type_uint, 16, in, idim, in_extent, 3);
    halide_buffer_t bright_buf = dense(halide_type_uint, 16, bright, bdim, out_extent, 3);
    halide_buffer_t scaled_buf = dense(halide_type_float, 32, scaled, sdim, out_extent, 3);

    int rc = standalone_a(gain, &in_buf, offset, 0, &bright_buf, &scaled_buf);
    check(rc == 0, "standalone_a returns 0");
    int bad_bright, bad_scaled;
    pipeline_a_mismatches(in, W + 2, H + 1, bright, scaled, W, H, C, gain, offset, &bad_bright,
                          &bad_scaled);
    check(bad_bright == 0, "standalone_a bright matches the reference");
    check(bad_scaled == 0, "standalone_a scaled matches the reference");

    /* A second no_runtime pipeline shares the same runtime. */
    uint8_t bytes[4] = {0, 1, 40, 255};
    int16_t looked_up[4];
    int four = 4;
    halide_dimension_t bydim[1], ldim[1];
    halide_buffer_t bytes_buf = dense(halide_type_uint, 8, bytes, bydim, &four, 1);
    halide_buffer_t lut_buf = dense(halide_type_int, 16, looked_up, ldim, &four, 1);
    rc = pipeline_lut(true, &bytes_buf, &lut_buf);
    check(rc == 0 && looked_up[2] == (int16_t)(-(40 * 40 - 1000)), "pipeline_lut runs too");

    /* Errors go through the standalone runtime's handler mechanism. */
    halide_set_error_handler(count_error);
    int small_extent[3] = {W, H, C};
    halide_dimension_t small_dim[3];
    halide_buffer_t small = dense(halide_type_uint, 16, in, small_dim, small_extent, 3);
    rc = standalone_a(gain, &small, offset, 0, &bright_buf, &scaled_buf);
    check(rc == halide_error_code_access_out_of_bounds, "a too-small input fails");
    check(handled_errors == 1, "the error reached the handler set on the runtime");

    /* The standalone runtime has the device functions too (its device_interface module). */
    bytes_buf.flags = halide_buffer_flag_device_dirty;
    rc = halide_copy_to_host(NULL, &bytes_buf);
    check(rc == halide_error_code_no_device_interface && handled_errors == 2,
          "copy_to_host of a device-dirty buffer without a device allocation is reported");

    free(in);
    free(bright);
    free(scaled);
    return check_summary();
}
