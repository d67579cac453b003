/* A C99 program whose only Loom include is a generated header (pipeline_b.h): as with Halide,
 * the header carries the runtime's declarations (halide_buffer_t, halide_dimension_t, the type
 * codes, halide_error), so no include path to Loom's headers is needed. Built with
 * -Werror -pedantic and without include/ or include/compat on its path. */
#include "pipeline_b.h"

#include "aot_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    enum { W = 7, H = 5 };
    const float bias = 0.5f;
    halide_dimension_t dim[2];
    float *in = (float *)malloc(sizeof(float) * W * H);
    float *out = (float *)malloc(sizeof(float) * W * H);
    halide_buffer_t in_buf, out_buf;
    int i, bad = 0, rc;
    memset(dim, 0, sizeof(dim));
    dim[0].min = 0;
    dim[0].extent = W;
    dim[0].stride = 1;
    dim[1].min = 0;
    dim[1].extent = H;
    dim[1].stride = W;
    for (i = 0; i < W * H; i++) in[i] = (float)i * 0.25f - 3.0f;
    memset(&in_buf, 0, sizeof(in_buf));
    in_buf.host = (uint8_t *)in;
    in_buf.type.code = halide_type_float;
    in_buf.type.bits = 32;
    in_buf.type.lanes = 1;
    in_buf.dimensions = 2;
    in_buf.dim = dim;
    out_buf = in_buf;
    out_buf.host = (uint8_t *)out;

    rc = pipeline_b(NULL, &in_buf, bias, &out_buf);
    check(rc == 0, "pipeline_b returns 0");
    for (i = 0; i < W * H; i++) {
        float want = sqrtf(in[i] * in[i] + bias) - in[i] * 0.5f;
        if (fabsf(out[i] - want) > 1e-5f * (1.0f + fabsf(want))) bad++;
    }
    check(bad == 0, "pipeline_b matches the reference");
    check(pipeline_b_metadata() != NULL, "the metadata is declared and defined");
    free(in);
    free(out);
    return check_summary();
}
