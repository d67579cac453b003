// Tests of the C back end's runtime (src/runtime/c/loom_c_runtime.c and loom_c_threads.c),
// linked with only those files and -lm -lpthread: the parallel loop runs every index once at any
// thread count (nested, failing), the error reporters produce the messages of Loom's C++
// runtime (src/runtime/error_reporters.cpp), allocation is aligned, the to_string builders format
// as the C++ ones, and semaphores and parallel tasks let an async producer and its consumer wait
// on each other. With -DLOOM_C_NO_THREADS the checks that need threads are left out and the
// serial fallbacks are checked instead. Each failed check prints what failed and exits 1.
//
// The expected strings are the C++ runtime's: this file also builds against libloom and passes.
#define _POSIX_C_SOURCE 200809L
#include <loom/runtime/loom_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef LOOM_C_NO_THREADS
#include <pthread.h>
#include <time.h>
#endif

static int checks;

static void check(const char *file, int line, int ok, const char *what) {
    checks++;
    if (!ok) {
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
        exit(1);
    }
}

static void check_int(const char *file, int line, const char *what, long long got,
                      long long expected) {
    checks++;
    if (got != expected) {
        fprintf(stderr, "%s:%d: check failed: %s is %lld, expected %lld\n", file, line, what, got,
                expected);
        exit(1);
    }
}

static void check_str(const char *file, int line, const char *what, const char *got,
                      const char *expected) {
    checks++;
    if (strcmp(got, expected) != 0) {
        fprintf(stderr, "%s:%d: check failed: %s is\n  \"%s\"\nexpected\n  \"%s\"\n", file, line,
                what, got, expected);
        exit(1);
    }
}

#define CHECK(cond) check(__FILE__, __LINE__, (cond) != 0, #cond)
#define CHECK_INT(got, expected)                                                                   \
    check_int(__FILE__, __LINE__, #got, (long long)(got), (long long)(expected))
#define CHECK_STR(got, expected) check_str(__FILE__, __LINE__, #got, (got), (expected))

// ---- Errors and printing ----

static char last_error[2048];
static int error_count;

static void capture_error(void *user_context, const char *msg) {
    (void)user_context;
    strncpy(last_error, msg, sizeof(last_error) - 1);
    error_count++;
}

static char last_print[256];

static void capture_print(void *user_context, const char *msg) {
    (void)user_context;
    strncpy(last_print, msg, sizeof(last_print) - 1);
}

// Calls a reporter and checks its result, that it reported once, and the message.
#define EXPECT_ERROR(call, code, msg)                                                              \
    do {                                                                                           \
        memset(last_error, 0, sizeof(last_error));                                                 \
        error_count = 0;                                                                           \
        CHECK_INT(call, code);                                                                     \
        CHECK_INT(error_count, 1);                                                                 \
        CHECK_STR(last_error, msg);                                                                \
    } while (0)

static uint32_t packed_type(int code, int bits, int lanes) {
    return (uint32_t)code | (uint32_t)bits << 8 | (uint32_t)lanes << 16;
}

static void test_error_reporters(void) {
    void *uc = NULL;
    char long_msg[2000];
    CHECK(halide_set_error_handler(capture_error) == halide_default_error);

    EXPECT_ERROR(
        halide_error_bad_type(uc, "Input buffer in", packed_type(2, 32, 1), packed_type(1, 8, 1)),
        halide_error_code_bad_type,
        "Input buffer in has type uint8 but type of the buffer passed in is float32");
    EXPECT_ERROR(
        halide_error_bad_type(uc, NULL, packed_type(9, 16, 1), packed_type(2, 32, 4)),
        halide_error_code_bad_type,
        "<nullptr> has type float32x4 but type of the buffer passed in is bad_type_code16");
    EXPECT_ERROR(halide_error_bad_dimensions(uc, "Input buffer in", 3, 2),
                 halide_error_code_bad_dimensions,
                 "Input buffer in requires a buffer of exactly 2 dimensions, but the buffer passed "
                 "in has 3 dimensions");
    EXPECT_ERROR(halide_error_access_out_of_bounds(uc, "Input buffer in", 1, -3, 10, 0, 9),
                 halide_error_code_access_out_of_bounds,
                 "Input buffer in is accessed at -3, which is before the min (0) in dimension 1");
    EXPECT_ERROR(halide_error_access_out_of_bounds(uc, "Input buffer in", 0, 0, 12, 0, 9),
                 halide_error_code_access_out_of_bounds,
                 "Input buffer in is accessed at 12, which is beyond the max (9) in dimension 0");
    EXPECT_ERROR(halide_error_access_out_of_bounds(uc, "f", 2, 1, 5, 0, 9),
                 halide_error_code_access_out_of_bounds,
                 "f is accessed at [1, 5], which is within its bounds [0, 9] in dimension 2");
    EXPECT_ERROR(halide_error_buffer_allocation_too_large(uc, "f", 5000000000ull, 2147483647ull),
                 halide_error_code_buffer_allocation_too_large,
                 "Total allocation for buffer f is 5000000000, which exceeds the maximum size of "
                 "2147483647");
    EXPECT_ERROR(halide_error_buffer_extents_too_large(uc, "g", 4294967296ll, 2147483647ll),
                 halide_error_code_buffer_extents_too_large,
                 "Product of extents for buffer g is 4294967296, which exceeds the maximum size of "
                 "2147483647");
    EXPECT_ERROR(halide_error_buffer_extents_negative(uc, "Output buffer out", 1, -4),
                 halide_error_code_buffer_extents_negative,
                 "The extents for buffer Output buffer out dimension 1 is negative (-4)");
    EXPECT_ERROR(halide_error_constraint_violated(uc, "in.stride.0", 2, "1", 1),
                 halide_error_code_constraint_violated,
                 "Constraint violated: in.stride.0 (2) == 1 (1)");
    EXPECT_ERROR(halide_error_param_too_small_i64(uc, "p", -5, -2),
                 halide_error_code_param_too_small, "Parameter p is -5 but must be at least -2");
    EXPECT_ERROR(halide_error_param_too_small_u64(uc, "p", 1, 2), halide_error_code_param_too_small,
                 "Parameter p is 1 but must be at least 2");
    EXPECT_ERROR(halide_error_param_too_small_f64(uc, "p", -1.5, 0.25),
                 halide_error_code_param_too_small,
                 "Parameter p is -1.500000e+00 but must be at least 2.500000e-01");
    EXPECT_ERROR(halide_error_param_too_large_i64(uc, "q", INT64_MIN + 1, INT64_MIN),
                 halide_error_code_param_too_large,
                 "Parameter q is -9223372036854775807 but must be at most -9223372036854775808");
    EXPECT_ERROR(halide_error_param_too_large_u64(uc, "q", UINT64_MAX, 10),
                 halide_error_code_param_too_large,
                 "Parameter q is 18446744073709551615 but must be at most 10");
    EXPECT_ERROR(halide_error_param_too_large_f64(uc, "q", 1e300, 1.0),
                 halide_error_code_param_too_large,
                 "Parameter q is 1.000000e+300 but must be at most 1.000000e+00");
    EXPECT_ERROR(halide_error_out_of_memory(uc), halide_error_code_out_of_memory,
                 "Out of memory (halide_malloc returned nullptr)");
    EXPECT_ERROR(halide_error_buffer_argument_is_null(uc, "in"),
                 halide_error_code_buffer_argument_is_null, "Buffer argument in is nullptr");
    EXPECT_ERROR(halide_error_requirement_failed(uc, "x > 0", "x must be positive"),
                 halide_error_code_requirement_failed,
                 "Requirement Failed: (x > 0) x must be positive");
    EXPECT_ERROR(halide_error_explicit_bounds_too_small(uc, "f", "x", 0, 9, -1, 10),
                 halide_error_code_explicit_bounds_too_small,
                 "Bounds given for x in f (from 0 to 9) do not cover required region (from -1 to "
                 "10)");
    EXPECT_ERROR(halide_error_constraints_make_required_region_smaller(uc, "in", 0, 0, 8, -1, 10),
                 halide_error_code_constraints_make_required_region_smaller,
                 "Applying the constraints on in to the required region made it smaller in "
                 "dimension 0. Required size: -1 to 8. Constrained size: 0 to 7.");
    EXPECT_ERROR(halide_error_unaligned_host_ptr(uc, "in", 32),
                 halide_error_code_unaligned_host_ptr,
                 "The host pointer of in is not aligned to a 32 bytes boundary.");
    EXPECT_ERROR(halide_error_host_is_null(uc, "in"), halide_error_code_host_is_null,
                 "The host pointer of in is null, but the pipeline will access it on the host.");
    EXPECT_ERROR(halide_error_bad_fold(uc, "f", "y", "g.s0.y"), halide_error_code_bad_fold,
                 "The folded storage dimension y of f was accessed out of order by loop g.s0.y.");
    EXPECT_ERROR(halide_error_fold_factor_too_small(uc, "f", "y", 2, "g.s0.y", 3),
                 halide_error_code_fold_factor_too_small,
                 "The fold factor (2) of dimension y of f is too small to store the required "
                 "region accessed by loop g.s0.y (3).");
    EXPECT_ERROR(halide_error_storage_bound_too_small(uc, "f", "x", 4, 8),
                 halide_error_code_storage_bound_too_small,
                 "The explicit allocation bound (4) of dimension x of f is too small to store the "
                 "required region (8).");
    EXPECT_ERROR(halide_error_specialize_fail(uc, "No specialization matched"),
                 halide_error_code_specialize_fail, "No specialization matched");
    EXPECT_ERROR(halide_error_extern_stage_failed(uc, "ext", -7), -7,
                 "Call to external stage ext returned non-zero value: -7");
    EXPECT_ERROR(halide_error_bounds_inference_call_failed(uc, "ext", 3), 3,
                 "Bounds inference call to external stage ext returned non-zero value: 3");
    EXPECT_ERROR(halide_error_no_device_interface(uc), halide_error_code_no_device_interface,
                 "Buffer has a non-zero device but no device interface.");
    EXPECT_ERROR(halide_error_device_interface_no_device(uc),
                 halide_error_code_device_interface_no_device,
                 "Buffer has a non-null device_interface but device is 0.");
    EXPECT_ERROR(halide_error_host_and_device_dirty(uc), halide_error_code_host_and_device_dirty,
                 "Buffer has both host and device dirty bits set.");
    EXPECT_ERROR(halide_error_buffer_is_null(uc, "halide_copy_to_host"),
                 halide_error_code_buffer_is_null,
                 "Buffer pointer passed to halide_copy_to_host is null.");
    EXPECT_ERROR(halide_error_device_dirty_with_no_device_support(uc, "Input buffer in"),
                 halide_error_code_device_dirty_with_no_device_support,
                 "The buffer Input buffer in is dirty on device, but this pipeline was compiled "
                 "with no support for device to host copies.");
    EXPECT_ERROR(halide_error_device_crop_failed(uc), halide_error_code_device_crop_failed,
                 "Buffer could not be cropped (runtime error or unimplemented device option).");

    // Messages are cut at 1023 characters.
    memset(long_msg, 'm', sizeof(long_msg) - 1);
    long_msg[sizeof(long_msg) - 1] = 0;
    error_count = 0;
    CHECK_INT(halide_error_specialize_fail(uc, long_msg), halide_error_code_specialize_fail);
    CHECK_INT(strlen(last_error), 1023);

    memset(last_error, 0, sizeof(last_error));
    halide_error(uc, NULL);
    CHECK_STR(last_error, "<null error message>");
    CHECK(halide_set_error_handler(NULL) == capture_error);
    CHECK(halide_set_error_handler(NULL) == halide_default_error);
}

// Runs fn with file descriptor fd sent to a temporary file, and returns what was written.
static void capture_fd(int fd, void (*fn)(void), char *out, size_t out_size) {
    char path[] = "/tmp/c_runtime_test_XXXXXX";
    int tmp = mkstemp(path), saved;
    ssize_t n;
    CHECK(tmp >= 0);
    fflush(stdout);
    fflush(stderr);
    saved = dup(fd);
    CHECK(saved >= 0);
    CHECK(dup2(tmp, fd) >= 0);
    fn();
    CHECK(dup2(saved, fd) >= 0);
    close(saved);
    CHECK(lseek(tmp, 0, SEEK_SET) == 0);
    n = read(tmp, out, out_size - 1);
    out[n > 0 ? n : 0] = 0;
    close(tmp);
    unlink(path);
}

static void write_default_errors(void) {
    halide_error(NULL, "abc");
    halide_error(NULL, "def\n");
    halide_default_error(NULL, NULL);
    halide_default_error(NULL, "");
}

static void write_default_prints(void) {
    halide_print(NULL, "x = 1\n");
    halide_default_print(NULL, NULL);
    halide_print(NULL, "y");
}

static void test_print_and_default_handlers(void) {
    char out[512];
    capture_fd(2, write_default_errors, out, sizeof(out));
    CHECK_STR(out, "Error: abc\nError: def\nError: <null error message>\nError: \n");
    capture_fd(1, write_default_prints, out, sizeof(out));
    CHECK_STR(out, "x = 1\ny");

    CHECK(halide_set_custom_print(capture_print) == halide_default_print);
    halide_print(NULL, "hello\n");
    CHECK_STR(last_print, "hello\n");
    CHECK(halide_set_custom_print(NULL) == capture_print);
}

// ---- Allocation ----

static int custom_mallocs, custom_frees;

static void *counting_malloc(void *user_context, size_t size) {
    custom_mallocs++;
    return halide_default_malloc(user_context, size);
}

static void counting_free(void *user_context, void *ptr) {
    custom_frees++;
    halide_default_free(user_context, ptr);
}

static void test_malloc(void) {
    static const size_t sizes[] = {0, 1, 7, 64, 127, 128, 1000, 1 << 20};
    size_t i;
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned char *p = (unsigned char *)halide_malloc(NULL, sizes[i]);
        CHECK(p != NULL);
        CHECK_INT((uintptr_t)p % 128, 0);
        // The size and the 64 bytes of slack after it are usable.
        memset(p, 0xab, sizes[i] + 64);
        halide_free(NULL, p);
    }
    halide_free(NULL, NULL);
    halide_default_free(NULL, NULL);

    CHECK(halide_set_custom_malloc(counting_malloc) == halide_default_malloc);
    CHECK(halide_set_custom_free(counting_free) == halide_default_free);
    halide_free(NULL, halide_malloc(NULL, 10));
    CHECK_INT(custom_mallocs, 1);
    CHECK_INT(custom_frees, 1);
    CHECK(halide_set_custom_malloc(NULL) == counting_malloc);
    CHECK(halide_set_custom_free(NULL) == counting_free);
    halide_free(NULL, halide_malloc(NULL, 10));
    CHECK_INT(custom_mallocs, 1);
}

// ---- String building ----

static void test_to_string(void) {
    char buf[512], *end = buf + sizeof(buf), *p;
    struct halide_type_t t;

    p = halide_int64_to_string(buf, end, -42, 1);
    CHECK_STR(buf, "-42");
    CHECK(p == buf + 3);
    halide_int64_to_string(buf, end, -42, 5);
    CHECK_STR(buf, "-00042");
    halide_int64_to_string(buf, end, INT64_MIN, 1);
    CHECK_STR(buf, "-9223372036854775808");
    halide_int64_to_string(buf, end, 0, 0);
    CHECK_STR(buf, "");
    halide_int64_to_string(buf, end, 0, 1);
    CHECK_STR(buf, "0");
    halide_uint64_to_string(buf, end, UINT64_MAX, 1);
    CHECK_STR(buf, "18446744073709551615");
    halide_uint64_to_string(buf, end, 7, 3);
    CHECK_STR(buf, "007");

    halide_double_to_string(buf, end, 3.25, 0);
    CHECK_STR(buf, "3.250000");
    halide_double_to_string(buf, end, -0.5, 0);
    CHECK_STR(buf, "-0.500000");
    halide_double_to_string(buf, end, 3.25, 1);
    CHECK_STR(buf, "3.250000e+00");
    halide_double_to_string(buf, end, -123456.0, 1);
    CHECK_STR(buf, "-1.234560e+05");
    halide_double_to_string(buf, end, HUGE_VAL, 0);
    CHECK_STR(buf, "inf");
    halide_double_to_string(buf, end, -HUGE_VAL, 1);
    CHECK_STR(buf, "-inf");
    p = halide_double_to_string(buf, end, -1.7976931348623157e308, 0);
    CHECK_INT(p - buf, 1 + 309 + 1 + 6);

    halide_pointer_to_string(buf, end, (const void *)(uintptr_t)0x12ab);
    CHECK_STR(buf, "0x12ab");
    halide_pointer_to_string(buf, end, NULL);
    CHECK_STR(buf, "0x0");

    t.code = halide_type_float;
    t.bits = 32;
    t.lanes = 4;
    halide_type_to_string(buf, end, &t);
    CHECK_STR(buf, "float32x4");
    t.code = halide_type_uint;
    t.bits = 1;
    t.lanes = 1;
    halide_type_to_string(buf, end, &t);
    CHECK_STR(buf, "uint1");
    t.code = halide_type_bfloat;
    t.bits = 16;
    halide_type_to_string(buf, end, &t);
    CHECK_STR(buf, "bfloat16");

    // Chaining, and cutting at the end of the buffer.
    p = halide_string_to_string(buf, end, "x = ");
    p = halide_int64_to_string(p, end, -3, 1);
    p = halide_string_to_string(p, end, NULL);
    CHECK_STR(buf, "x = -3<nullptr>");
    CHECK(p == buf + strlen(buf));
    p = halide_string_to_string(buf, buf + 5, "hello world");
    CHECK_STR(buf, "hell");
    CHECK(p == buf + 4);
    p = halide_int64_to_string(p, buf + 5, 12, 1);
    CHECK(p == buf + 4);
    CHECK_STR(buf, "hell");
    CHECK(halide_string_to_string(buf + 5, buf + 5, "x") == buf + 5);
}

// ---- Parallel loops ----

typedef struct {
    int min;
    int *counts;
    void *expected_uc;
    int fail_at, fail_code; // fail_code: the result at index fail_at
    int bad_uc;
} par_for_closure;

static int count_task(void *user_context, int i, uint8_t *closure) {
    par_for_closure *c = (par_for_closure *)closure;
    if (user_context != c->expected_uc) c->bad_uc = 1;
    c->counts[i - c->min]++; // each index once: distinct elements, no race
    return i == c->fail_at ? c->fail_code : 0;
}

#define INNER 23

typedef struct {
    int counts[9][INNER];
    int fail_row; // the inner loop of this row fails with -21 at index 5
} nested_closure;

typedef struct {
    nested_closure *n;
    int row;
} row_closure;

static int inner_task(void *user_context, int j, uint8_t *closure) {
    row_closure *r = (row_closure *)closure;
    (void)user_context;
    r->n->counts[r->row][j]++;
    return r->row == r->n->fail_row && j == 5 ? -21 : 0;
}

static int outer_task(void *user_context, int i, uint8_t *closure) {
    row_closure r;
    r.n = (nested_closure *)closure;
    r.row = i;
    return halide_do_par_for(user_context, inner_task, 0, INNER, (uint8_t *)&r);
}

static int custom_do_task_calls[64];

static int counting_do_task(void *user_context, halide_task_t f, int idx, uint8_t *closure) {
    custom_do_task_calls[idx]++;
    return halide_default_do_task(user_context, f, idx, closure);
}

static int custom_do_par_for_calls;

static int counting_do_par_for(void *user_context, halide_task_t f, int min, int size,
                               uint8_t *closure) {
    custom_do_par_for_calls++;
    return halide_default_do_par_for(user_context, f, min, size, closure);
}

#ifndef LOOM_C_NO_THREADS
// Two iterations that each wait (10 s at most) until both have started: passes only when the
// pool runs them at the same time.
static pthread_mutex_t meet_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t meet_cond = PTHREAD_COND_INITIALIZER;
static int meet_arrived;

static int meet_task(void *user_context, int i, uint8_t *closure) {
    struct timespec deadline;
    int result = 0;
    (void)user_context;
    (void)i;
    (void)closure;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&meet_mutex);
    meet_arrived++;
    pthread_cond_broadcast(&meet_cond);
    while (meet_arrived < 2 && result == 0) {
        result = pthread_cond_timedwait(&meet_cond, &meet_mutex, &deadline);
    }
    pthread_mutex_unlock(&meet_mutex);
    return meet_arrived >= 2 ? 0 : -99;
}
#endif

static void test_par_for(void) {
    static const int sizes[] = {0, 1, 2, 3, 5, 17, 100, 1000};
    static const int mins[] = {0, -7, 1000};
    static const int threads[] = {1, 2, 4};
    static int counts[1000];
    int first = halide_set_num_threads(1);
    size_t t, s, m;
    int i, j;
    CHECK(first >= 1);
    for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
        halide_set_num_threads(threads[t]);
        for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            for (m = 0; m < sizeof(mins) / sizeof(mins[0]); m++) {
                par_for_closure c;
                int uc_value = 0;
                memset(counts, 0, sizeof(counts));
                c.min = mins[m];
                c.counts = counts;
                c.expected_uc = &uc_value;
                c.fail_at = INT32_MIN;
                c.fail_code = 0;
                c.bad_uc = 0;
                CHECK_INT(
                    halide_do_par_for(&uc_value, count_task, mins[m], sizes[s], (uint8_t *)&c), 0);
                for (i = 0; i < sizes[s]; i++) CHECK_INT(counts[i], 1);
                CHECK_INT(c.bad_uc, 0);
            }
        }
        {
            // A failing iteration's result is the loop's.
            par_for_closure c;
            memset(counts, 0, sizeof(counts));
            c.min = 0;
            c.counts = counts;
            c.expected_uc = NULL;
            c.fail_at = 37;
            c.fail_code = -13;
            c.bad_uc = 0;
            CHECK_INT(halide_do_par_for(NULL, count_task, 0, 100, (uint8_t *)&c), -13);
            for (i = 0; i < 100; i++) CHECK(counts[i] <= 1);
            CHECK_INT(counts[37], 1);
            if (threads[t] == 1) CHECK_INT(counts[38], 0); // serial: stops at the failure
        }
        {
            // Nested parallel loops, and a failure inside the inner one.
            static nested_closure n;
            memset(&n, 0, sizeof(n));
            n.fail_row = -1;
            CHECK_INT(halide_do_par_for(NULL, outer_task, 0, 9, (uint8_t *)&n), 0);
            for (i = 0; i < 9; i++) {
                for (j = 0; j < INNER; j++) CHECK_INT(n.counts[i][j], 1);
            }
            memset(&n, 0, sizeof(n));
            n.fail_row = 4;
            CHECK_INT(halide_do_par_for(NULL, outer_task, 0, 9, (uint8_t *)&n), -21);
        }
    }
    CHECK_INT(halide_set_num_threads(2), 4);

    // The hooks: every iteration goes through do_task, every loop through do_par_for.
    {
        par_for_closure c;
        memset(counts, 0, sizeof(counts));
        c.min = 0;
        c.counts = counts;
        c.expected_uc = NULL;
        c.fail_at = INT32_MIN;
        c.fail_code = 0;
        c.bad_uc = 0;
        CHECK(halide_set_custom_do_task(counting_do_task) == halide_default_do_task);
        CHECK(halide_set_custom_do_par_for(counting_do_par_for) == halide_default_do_par_for);
        CHECK_INT(halide_do_par_for(NULL, count_task, 0, 64, (uint8_t *)&c), 0);
        CHECK_INT(custom_do_par_for_calls, 1);
        for (i = 0; i < 64; i++) CHECK_INT(custom_do_task_calls[i], 1);
        CHECK(halide_set_custom_do_task(NULL) == counting_do_task);
        CHECK(halide_set_custom_do_par_for(NULL) == counting_do_par_for);
        CHECK_INT(halide_do_task(NULL, count_task, 3, (uint8_t *)&c), 0);
        CHECK_INT(counts[3], 2);
    }

#ifndef LOOM_C_NO_THREADS
    // With two threads, two iterations run at the same time; again after a shutdown.
    for (i = 0; i < 2; i++) {
        meet_arrived = 0;
        CHECK_INT(halide_do_par_for(NULL, meet_task, 0, 2, NULL), 0);
        halide_shutdown_thread_pool();
    }
#endif
    halide_shutdown_thread_pool();
    CHECK_INT(halide_set_num_threads(0), 2); // back to the default
    CHECK_INT(halide_set_num_threads(first), first);
}

// ---- Semaphores and parallel tasks ----

static void test_semaphores(void) {
    struct halide_semaphore_t s;
    CHECK_INT(halide_semaphore_init(&s, 2), 0);
    CHECK(!halide_semaphore_try_acquire(&s, 3));
    CHECK(halide_semaphore_try_acquire(&s, 2));
    CHECK(!halide_semaphore_try_acquire(&s, 1));
    CHECK_INT(halide_semaphore_release(&s, 3), 3);
    CHECK(halide_semaphore_try_acquire(&s, 3));
    CHECK_INT(halide_semaphore_release(&s, 1), 1);
    CHECK_INT(loom_semaphore_acquire(&s, 1), 0);
    CHECK(!halide_semaphore_try_acquire(&s, 1));
    CHECK_INT(halide_semaphore_init(&s, 0), 0);
    CHECK(halide_semaphore_try_acquire(&s, 0));
}

#define ITEMS 100

// An async producer and its consumer, through loom_do_fork: the producer writes each item into
// a ring of `slots` slots and releases `full`; the consumer acquires `full`, reads, and releases
// `empty`, which the producer acquires before overwriting a slot. With as many slots as items
// the producer never waits (a serial run works); with fewer it must run alongside the consumer.
typedef struct {
    struct halide_semaphore_t full, empty;
    int ring[ITEMS];
    int slots;
    int sum;
    int producer_fails;  // the producer returns -5 after this many items (-1: never)
    int consumer_result; // what the consumer's last loom_semaphore_acquire returned
} fork_state;

static int producer(void *user_context, int min, int extent, uint8_t *closure, void *parent) {
    fork_state *st = (fork_state *)closure;
    int k;
    (void)user_context;
    (void)parent;
    if (min != 0 || extent != 1) return -100;
    for (k = 0; k < ITEMS; k++) {
        int r;
        if (k == st->producer_fails) return -5;
        r = loom_semaphore_acquire(&st->empty, 1);
        if (r != 0) return r;
        st->ring[k % st->slots] = k * 3;
        halide_semaphore_release(&st->full, 1);
    }
    return 0;
}

static int consumer(void *user_context, int min, int extent, uint8_t *closure, void *parent) {
    fork_state *st = (fork_state *)closure;
    int k;
    (void)user_context;
    (void)parent;
    if (min != 0 || extent != 1) return -100;
    for (k = 0; k < ITEMS; k++) {
        int r = loom_semaphore_acquire(&st->full, 1);
        st->consumer_result = r;
        if (r != 0) return r;
        st->sum += st->ring[k % st->slots];
        halide_semaphore_release(&st->empty, 1);
    }
    return 0;
}

static int run_fork(fork_state *st, int slots, int producer_fails) {
    struct halide_semaphore_t *sems[2];
    memset(st, 0, sizeof(*st));
    st->slots = slots;
    st->producer_fails = producer_fails;
    halide_semaphore_init(&st->full, 0);
    halide_semaphore_init(&st->empty, slots);
    sems[0] = &st->full;
    sems[1] = &st->empty;
    return loom_do_fork(NULL, producer, (uint8_t *)st, consumer, (uint8_t *)st, sems, 2);
}

// Two tasks of one halide_do_parallel_tasks: the first (run by the caller) runs one iteration
// per item, each after acquiring the task's semaphore; the second publishes the items and
// releases it.
typedef struct {
    struct halide_semaphore_t ready;
    int value[5];
    int seen[5];
    int published;
} tasks_state;

static int reader_task(void *user_context, int min, int extent, uint8_t *closure, void *parent) {
    tasks_state *st = (tasks_state *)closure;
    (void)user_context;
    (void)parent;
    if (extent != 1) return -100;
    st->seen[min] += st->value[min] == 10 + min ? 1 : 100;
    return 0;
}

static int writer_task(void *user_context, int min, int extent, uint8_t *closure, void *parent) {
    tasks_state *st = (tasks_state *)closure;
    int k;
    (void)user_context;
    (void)parent;
    (void)min;
    (void)extent;
    for (k = 0; k < 5; k++) {
        st->value[k] = 10 + k;
        st->published++;
        halide_semaphore_release(&st->ready, 1);
    }
    return 0;
}

static int run_tasks(tasks_state *st, int writer_first) {
    struct halide_parallel_task_t tasks[2];
    struct halide_semaphore_acquire_t acquire;
    int r = writer_first ? 1 : 0, w = 1 - r;
    memset(st, 0, sizeof(*st));
    memset(tasks, 0, sizeof(tasks));
    halide_semaphore_init(&st->ready, 0);
    acquire.semaphore = &st->ready;
    acquire.count = 1;
    tasks[r].fn = reader_task;
    tasks[r].closure = (uint8_t *)st;
    tasks[r].name = "reader";
    tasks[r].semaphores = &acquire;
    tasks[r].num_semaphores = 1;
    tasks[r].min = 0;
    tasks[r].extent = 5;
    tasks[r].min_threads = 1;
    tasks[r].serial = true;
    tasks[w].fn = writer_task;
    tasks[w].closure = (uint8_t *)st;
    tasks[w].name = "writer";
    tasks[w].extent = 1;
    tasks[w].min_threads = 1;
    return halide_do_parallel_tasks(NULL, 2, tasks, NULL);
}

static void test_parallel_tasks(void) {
    fork_state st;
    tasks_state ts;
    int k;

    CHECK(halide_set_error_handler(capture_error) == halide_default_error);
    // The producer never has to wait: fine with or without threads.
    error_count = 0;
    CHECK_INT(run_fork(&st, ITEMS, -1), 0);
    CHECK_INT(st.sum, 3 * ITEMS * (ITEMS - 1) / 2);
    CHECK_INT(run_tasks(&ts, 1), 0);
    for (k = 0; k < 5; k++) CHECK_INT(ts.seen[k], 1);
    CHECK_INT(error_count, 0);
    CHECK_INT(halide_do_parallel_tasks(NULL, 0, NULL, NULL), 0);

#ifndef LOOM_C_NO_THREADS
    // Producer and consumer take turns through a ring of 1 and of 3 slots.
    CHECK_INT(run_fork(&st, 1, -1), 0);
    CHECK_INT(st.sum, 3 * ITEMS * (ITEMS - 1) / 2);
    CHECK_INT(run_fork(&st, 3, -1), 0);
    CHECK_INT(st.sum, 3 * ITEMS * (ITEMS - 1) / 2);
    // The reader (run by the caller) waits for the writer (on a fork thread).
    CHECK_INT(run_tasks(&ts, 0), 0);
    for (k = 0; k < 5; k++) CHECK_INT(ts.seen[k], 1);
    // A producer that fails stops its consumer's wait: the consumer's acquire fails, and the
    // fork returns the producer's code.
    CHECK_INT(run_fork(&st, 2, 7), -5);
    CHECK_INT(st.consumer_result, halide_error_code_generic_error);
    CHECK_INT(error_count, 0);
    halide_shutdown_thread_pool();
    CHECK_INT(run_fork(&st, 2, -1), 0); // fork threads start again
#else
    // Without threads, a task that would wait forever is an error, reported once.
    CHECK_INT(run_fork(&st, 2, -1), halide_error_code_generic_error);
    CHECK_INT(error_count, 1);
    CHECK(strstr(last_error, "LOOM_C_NO_THREADS") != NULL);
    error_count = 0;
    CHECK_INT(run_tasks(&ts, 0), halide_error_code_generic_error);
    CHECK_INT(error_count, 1);
    CHECK(strstr(last_error, "LOOM_C_NO_THREADS") != NULL);
    // A producer that fails before its consumer runs: the consumer does not run at all.
    error_count = 0;
    CHECK_INT(run_fork(&st, ITEMS, 7), -5);
    CHECK_INT(error_count, 0);
#endif
    CHECK(halide_set_error_handler(NULL) == capture_error);
}

int main(void) {
    test_error_reporters();
    test_print_and_default_handlers();
    test_malloc();
    test_to_string();
    test_par_for();
    test_semaphores();
    test_parallel_tasks();
    halide_shutdown_thread_pool();
    printf("c_runtime_test: all %d checks passed\n", checks);
    return 0;
}
