/* The profiler in a plain C program: pipeline A compiled with the profile feature
 * (profiled_a.a, which carries the profiler's runtime). Runs it twice, then checks the
 * statistics halide_profiler_get_pipeline_state gives (runs, Funcs, times adding up to the
 * total exactly, sum3's heap buffer), the report halide_profiler_report prints, and that
 * halide_profiler_reset forgets them; a bounds query is not a run. With the argument "exit" it
 * instead checks the report the runtime prints when the program exits. Prints
 * "N passed, N failed". */
#include "HalideRuntime.h"
#include "aot_check.h"
#include "pipeline_a_reference.h"
#include "profiled_a.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char printed[16384];

static void capture_print(void *user_context, const char *msg) {
    (void)user_context;
    strncat(printed, msg, sizeof(printed) - strlen(printed) - 1);
}

enum { W = 300, H = 200, C = 3 };
static uint16_t in[(W + 2) * (H + 1) * C], bright[W * H * C];
static float scaled[W * H * C];

static int run_pipeline(void) {
    int in_extent[3] = {W + 2, H + 1, C}, out_extent[3] = {W, H, C};
    halide_dimension_t idim[3], odim[3];
    dense_shape(idim, in_extent, 3);
    dense_shape(odim, out_extent, 3);
    halide_buffer_t in_buf = make_buffer(halide_type_uint, 16, in, idim, 3);
    halide_buffer_t bright_buf = make_buffer(halide_type_uint, 16, bright, odim, 3);
    halide_buffer_t scaled_buf = make_buffer(halide_type_float, 32, scaled, odim, 3);
    return profiled_a(0.5f, &in_buf, 9, 0, &bright_buf, &scaled_buf);
}

static const struct halide_profiler_func_stats *
find_func(const struct halide_profiler_pipeline_stats *p, const char *name) {
    for (int i = 0; i < p->num_funcs; i++) {
        if (strcmp(p->funcs[i].name, name) == 0) return &p->funcs[i];
    }
    return NULL;
}

/* Runs after the runtime's exit handler (registered later, so run earlier): checks what it
 * printed and gives the exit status. */
static void check_exit_report(void) {
    check(strstr(printed, "profiled_a\n total time: ") == printed,
          "at exit, the report starts with the pipeline");
    check(strstr(printed, "runs: 2  time per run: ") != NULL, "at exit, both runs are reported");
    check(strstr(printed, "\n    sum3: ") != NULL, "at exit, sum3 has a line");
    int status = check_summary();
    fflush(stdout);
    _exit(status);
}

int main(int argc, char **argv) {
    for (int i = 0; i < (W + 2) * (H + 1) * C; i++) in[i] = (uint16_t)((i * 7919) % 65536);
    halide_set_custom_print(capture_print);
    if (argc > 1 && strcmp(argv[1], "exit") == 0) {
        atexit(check_exit_report);
        check(run_pipeline() == 0 && run_pipeline() == 0, "profiled_a runs");
        return 0;
    }

    /* A bounds query does not count as a run. */
    halide_dimension_t qdim[3], odim[3];
    int out_extent[3] = {W, H, C};
    memset(qdim, 0, sizeof(qdim));
    dense_shape(odim, out_extent, 3);
    halide_buffer_t query = make_buffer(halide_type_uint, 16, NULL, qdim, 3);
    halide_buffer_t bright_buf = make_buffer(halide_type_uint, 16, bright, odim, 3);
    halide_buffer_t scaled_buf = make_buffer(halide_type_float, 32, scaled, odim, 3);
    check(profiled_a(0.5f, &query, 9, 0, &bright_buf, &scaled_buf) == 0, "bounds query");
    check(halide_profiler_get_pipeline_state("profiled_a") == NULL,
          "a bounds query is not profiled");

    check(run_pipeline() == 0 && run_pipeline() == 0, "profiled_a runs twice");
    int bad_bright, bad_scaled;
    pipeline_a_mismatches(in, W + 2, H + 1, bright, scaled, W, H, C, 0.5f, 9, &bad_bright,
                          &bad_scaled);
    check(bad_bright == 0 && bad_scaled == 0, "profiled_a matches the reference");

    struct halide_profiler_pipeline_stats *p = halide_profiler_get_pipeline_state("profiled_a");
    check(p != NULL, "profiled_a has statistics");
    if (p) {
        check(p->runs == 2, "two runs");
        const struct halide_profiler_func_stats *sum3 = find_func(p, "sum3");
        check(sum3 && find_func(p, "bright") && find_func(p, "scaled"),
              "every Func computed has an entry");
        check(find_func(p, "halide_malloc") && find_func(p, "halide_free"),
              "allocation has entries");
        uint64_t sum = 0;
        for (int i = 0; i < p->num_funcs; i++) sum += p->funcs[i].time;
        /* Exactly, even for a run shorter than a sampling period (billed to the Func current at
         * its end). */
        check(sum == p->time && p->time > 0, "the Funcs' times add up to the total exactly");
        /* sum3 is computed over the input's region minus the two last columns, in 32 bits. */
        uint64_t sum3_bytes = (uint64_t)W * (H + 1) * C * 4;
        check(sum3 && sum3->memory_peak == sum3_bytes, "sum3's peak is its buffer");
        check(sum3 && sum3->num_allocs == 2 && sum3->memory_total == 2 * sum3_bytes,
              "sum3 allocated once per run");
        check(p->num_allocs == 2 && p->memory_peak == sum3_bytes, "the pipeline's heap");
    }

    halide_profiler_report(NULL);
    check(strstr(printed, "profiled_a\n total time: ") == printed, "the report names the pipeline");
    check(strstr(printed, "  runs: 2  ") != NULL, "the report counts the runs");
    check(strstr(printed, " peak: ") != NULL, "the report shows sum3's memory");

    halide_profiler_reset();
    check(halide_profiler_get_pipeline_state("profiled_a") == NULL, "reset forgets everything");
    printed[0] = 0;
    return check_summary();
}
