/* A plain C99 program using three AOT-compiled pipelines (pipeline_a.a, pipeline_b.a and
 * pipeline_lut.a, each carrying a weak copy of the runtime) without libloom, LLVM or the C++
 * standard library. It checks the results against naive loops, a bounds query, argument
 * errors, and that its own halide_error, halide_malloc, halide_free and halide_do_par_for
 * replace the runtime's. Prints "N passed, N failed". */
#include "HalideRuntime.h"
#include "aot_check.h"
#include "pipeline_a.h"
#include "pipeline_a_reference.h"
#include "pipeline_b.h"
#include "pipeline_lut.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Overrides of runtime functions (strong definitions win over the archives' weak ones) */

static int error_calls = 0;
static char last_error[1024];
static void *last_error_context = NULL;

void halide_error(void *user_context, const char *msg) {
    error_calls++;
    last_error_context = user_context;
    strncpy(last_error, msg, sizeof(last_error) - 1);
    last_error[sizeof(last_error) - 1] = 0;
}

static int mallocs = 0, frees = 0;

void *halide_malloc(void *user_context, size_t size) {
    /* 128-byte aligned, as the runtime's own allocator. */
    void *p = NULL;
    mallocs++;
    if (posix_memalign(&p, 128, size + 64) != 0) return NULL;
    return p;
}

void halide_free(void *user_context, void *ptr) {
    if (ptr) frees++;
    free(ptr);
}

/* Runs parallel loops serially, counting them. */
static int par_for_calls = 0;

int halide_do_par_for(void *user_context, halide_task_t f, int min, int size, uint8_t *closure) {
    par_for_calls++;
    for (int i = min; i < min + size; i++) {
        int rc = f(user_context, i, closure);
        if (rc != 0) return rc;
    }
    return 0;
}

/* ---- Pipeline A: bright = min(sum3 / 3 + offset, 65535), scaled = sum3(x, y + 1) * gain, with
 * sum3(x, y, c) = in(x) + in(x + 1) + in(x + 2). */

static void test_pipeline_a(void) {
    enum { W = 37, H = 21, C = 3 };
    const float gain = 0.5f;
    const uint8_t offset = 200;

    /* A bounds query: a null host asks for the region of the input the outputs need. */
    halide_dimension_t qdim[3];
    memset(qdim, 0, sizeof(qdim));
    halide_buffer_t query = make_buffer(halide_type_uint, 16, NULL, qdim, 3);
    int out_extent[3] = {W, H, C};
    halide_dimension_t odim[3];
    dense_shape(odim, out_extent, 3);
    uint16_t *bright = (uint16_t *)malloc(sizeof(uint16_t) * W * H * C);
    float *scaled = (float *)malloc(sizeof(float) * W * H * C);
    halide_buffer_t bright_buf = make_buffer(halide_type_uint, 16, bright, odim, 3);
    halide_buffer_t scaled_buf = make_buffer(halide_type_float, 32, scaled, odim, 3);
    int rc = pipeline_a(gain, &query, offset, 0, &bright_buf, &scaled_buf);
    check(rc == 0, "pipeline_a bounds query returns 0");
    check(qdim[0].min == 0 && qdim[0].extent == W + 2, "bounds query: x needs two more columns");
    check(qdim[1].min == 0 && qdim[1].extent == H + 1, "bounds query: y needs one more row");
    check(qdim[2].min == 0 && qdim[2].extent == C, "bounds query: all channels");

    /* The input, allocated with the queried shape. */
    int in_extent[3] = {qdim[0].extent, qdim[1].extent, qdim[2].extent};
    halide_dimension_t idim[3];
    dense_shape(idim, in_extent, 3);
    int iw = in_extent[0], ih = in_extent[1];
    uint16_t *in = (uint16_t *)malloc(sizeof(uint16_t) * iw * ih * C);
    for (int i = 0; i < iw * ih * C; i++) in[i] = (uint16_t)((i * 7919) % 65536);
    halide_buffer_t in_buf = make_buffer(halide_type_uint, 16, in, idim, 3);

    mallocs = frees = par_for_calls = 0;
    rc = pipeline_a(gain, &in_buf, offset, 12345, &bright_buf, &scaled_buf);
    check(rc == 0, "pipeline_a returns 0");
    check(mallocs > 0, "pipeline_a allocates its compute_root intermediate with halide_malloc");
    check(mallocs == frees, "pipeline_a frees what it allocates");
    check(par_for_calls == 1, "the program's halide_do_par_for ran the parallel loop");

    int bad_bright, bad_scaled;
    pipeline_a_mismatches(in, iw, ih, bright, scaled, W, H, C, gain, offset, &bad_bright,
                          &bad_scaled);
    check(bad_bright == 0, "pipeline_a bright matches the reference");
    check(bad_scaled == 0, "pipeline_a scaled matches the reference");

    /* The _argv entry point: args[i] points at scalars, is the buffer for buffers. */
    memset(bright, 0, sizeof(uint16_t) * W * H * C);
    float g = gain;
    uint8_t o = offset;
    int32_t unused = 0;
    void *args[6] = {&g, &in_buf, &o, &unused, &bright_buf, &scaled_buf};
    rc = pipeline_a_argv(args);
    check(rc == 0 && bright[W * H + 5] != 0, "pipeline_a_argv runs the pipeline");

    /* Metadata: the arguments in calling order. */
    const struct halide_filter_metadata_t *md = pipeline_a_metadata();
    check(md->version == 1 && md->num_arguments == 6, "pipeline_a_metadata has 6 arguments");
    check(strcmp(md->name, "pipeline_a") == 0, "metadata name");
    /* (Loom records the Param's value as its default; Halide leaves it null.) */
    check(strcmp(md->arguments[0].name, "gain") == 0 &&
              md->arguments[0].kind == halide_argument_kind_input_scalar &&
              md->arguments[0].type.code == halide_type_float &&
              (!md->arguments[0].scalar_def || md->arguments[0].scalar_def->u.f32 == 1.0f),
          "metadata: gain is a float scalar (default 1)");
    check(strcmp(md->arguments[1].name, "input") == 0 &&
              md->arguments[1].kind == halide_argument_kind_input_buffer &&
              md->arguments[1].dimensions == 3 && md->arguments[1].type.bits == 16,
          "metadata: input is a 3-D uint16 buffer");
    check(md->arguments[4].kind == halide_argument_kind_output_buffer &&
              md->arguments[5].type.code == halide_type_float,
          "metadata: two outputs, the second float");

    /* A buffer of the wrong type: a nonzero code, reported through our halide_error. */
    error_calls = 0;
    halide_buffer_t wrong = make_buffer(halide_type_uint, 8, in, idim, 3);
    rc = pipeline_a(gain, &wrong, offset, 0, &bright_buf, &scaled_buf);
    check(rc == halide_error_code_bad_type, "a uint8 input fails with bad_type");
    check(error_calls == 1, "the program's halide_error replaced the runtime's");
    check(strstr(last_error, "input") != NULL && strstr(last_error, "uint8") != NULL,
          "the error message names the input and the type given");

    /* An input too small for the outputs. */
    error_calls = 0;
    halide_dimension_t small_dim[3];
    int small_extent[3] = {W, H, C};
    dense_shape(small_dim, small_extent, 3);
    halide_buffer_t small = make_buffer(halide_type_uint, 16, in, small_dim, 3);
    rc = pipeline_a(gain, &small, offset, 0, &bright_buf, &scaled_buf);
    check(rc == halide_error_code_access_out_of_bounds, "a too-small input fails");
    check(error_calls == 1, "and reports it");

    free(in);
    free(bright);
    free(scaled);
}

/* ---- Pipeline B (compiled with user_context): out = sqrt(in^2 + bias) - in / 2 ---- */

static void test_pipeline_b(void) {
    enum { W = 19, H = 11 };
    const float bias = 2.25f;
    int extent[2] = {W, H};
    halide_dimension_t dim[2];
    dense_shape(dim, extent, 2);
    float *in = (float *)malloc(sizeof(float) * W * H);
    float *out = (float *)malloc(sizeof(float) * W * H);
    for (int i = 0; i < W * H; i++) in[i] = (float)(i % 23) * 0.75f - 4.0f;
    halide_buffer_t in_buf = make_buffer(halide_type_float, 32, in, dim, 2);
    halide_buffer_t out_buf = make_buffer(halide_type_float, 32, out, dim, 2);
    int context = 42;
    int rc = pipeline_b(&context, &in_buf, bias, &out_buf);
    check(rc == 0, "pipeline_b returns 0");
    int bad = 0;
    for (int i = 0; i < W * H; i++) {
        float want = sqrtf(in[i] * in[i] + bias) - in[i] * 0.5f;
        if (fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want))) bad++;
    }
    check(bad == 0, "pipeline_b matches the reference");

    /* Errors carry the user context. */
    error_calls = 0;
    halide_buffer_t wrong = make_buffer(halide_type_int, 32, in, dim, 2);
    rc = pipeline_b(&context, &wrong, bias, &out_buf);
    check(rc != 0, "pipeline_b rejects an int32 input");
    check(error_calls == 1 && last_error_context == &context,
          "halide_error gets the caller's user context");

    /* Through _argv, args[0] points at the user context. */
    {
        void *context_ptr = &context;
        float b = bias;
        void *args[4] = {&context_ptr, &wrong, &b, &out_buf};
        error_calls = 0;
        last_error_context = NULL;
        rc = pipeline_b_argv(args);
        check(rc != 0 && error_calls == 1 && last_error_context == &context,
              "pipeline_b_argv passes *args[0] as the user context");
        args[1] = &in_buf;
        memset(out, 0, sizeof(float) * W * H);
        rc = pipeline_b_argv(args);
        check(rc == 0 && fabsf(out[5] - (sqrtf(in[5] * in[5] + bias) - in[5] * 0.5f)) < 1e-5f,
              "pipeline_b_argv runs the pipeline");
    }
    free(in);
    free(out);
}

/* ---- Pipeline lut: a compiled-in table (a Buffer not in the argument list), a bool; built with
 * no_runtime, so it calls the runtime pipeline_a.a carries. ---- */

static void test_pipeline_lut(void) {
    enum { N = 300 };
    uint8_t in[N];
    int16_t out[N];
    for (int i = 0; i < N; i++) in[i] = (uint8_t)(i * 7);
    halide_dimension_t in_dim = {0, N, 1, 0}, out_dim = {0, N, 1, 0};
    halide_buffer_t in_buf = make_buffer(halide_type_uint, 8, in, &in_dim, 1);
    halide_buffer_t out_buf = make_buffer(halide_type_int, 16, out, &out_dim, 1);
    int bad = 0;
    check(pipeline_lut(false, &in_buf, &out_buf) == 0, "pipeline_lut(false) returns 0");
    for (int i = 0; i < N; i++) bad += out[i] != (int16_t)(in[i] * in[i] - 1000);
    check(pipeline_lut(true, &in_buf, &out_buf) == 0, "pipeline_lut(true) returns 0");
    for (int i = 0; i < N; i++) bad += out[i] != (int16_t)(-(in[i] * in[i] - 1000));
    check(bad == 0, "pipeline_lut reads the compiled-in table and honours the bool");
}

/* ---- The runtime's device functions (its device_interface module, in every archive's copy):
 * a host buffer has nothing to copy back or free, and a buffer whose newest data is on a
 * device it has no allocation on is reported through halide_error (here, the override). */

static void test_device_interface(void) {
    uint8_t data[4] = {1, 2, 3, 4};
    halide_dimension_t dim = {0, 4, 1, 0};
    halide_buffer_t buf = make_buffer(halide_type_uint, 8, data, &dim, 1);
    error_calls = 0;
    check(halide_copy_to_host(NULL, &buf) == 0 && halide_device_free(NULL, &buf) == 0 &&
              error_calls == 0,
          "a host buffer has nothing to copy back or free");
    buf.flags = halide_buffer_flag_device_dirty;
    check(halide_copy_to_host(NULL, &buf) == halide_error_code_no_device_interface &&
              error_calls == 1 &&
              strcmp(last_error, "halide_copy_to_host: the buffer is dirty on the device but "
                                 "has no device allocation") == 0,
          "copy_to_host of a device-dirty buffer without a device allocation is reported");
    buf.flags = 0;
    buf.device = 1;
    check(halide_device_sync(NULL, &buf) == halide_error_code_no_device_interface &&
              error_calls == 2,
          "a device handle without a device interface is reported");
}

int main(void) {
    test_pipeline_a();
    test_pipeline_b();
    test_pipeline_lut();
    test_device_interface();
    return check_summary();
}
