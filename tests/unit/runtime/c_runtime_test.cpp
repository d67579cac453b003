// The C runtime: allocation, handlers, every error reporter's message and code, and the string
// builders.

#include <loom/runtime/loom_runtime.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

std::vector<std::string> captured;
void capture(void *, const char *msg) { captured.push_back(msg); }

// Installs a capturing error handler for one test.
class ErrorCapture : public ::testing::Test {
protected:
    void SetUp() override {
        captured.clear();
        old = halide_set_error_handler(capture);
    }
    void TearDown() override { halide_set_error_handler(old); }
    // The single message reported since SetUp.
    std::string message() {
        EXPECT_EQ(captured.size(), 1u);
        return captured.empty() ? "" : captured.back();
    }
    halide_error_handler_t old = nullptr;
};

uint32_t pack(halide_type_code_t code, int bits, int lanes = 1) {
    return (uint32_t)code | ((uint32_t)bits << 8) | ((uint32_t)lanes << 16);
}

TEST(CRuntime, MallocAlignmentAndSlack) {
    for (size_t size : {1u, 3u, 64u, 1000u, 4097u}) {
        uint8_t *p = (uint8_t *)halide_malloc(nullptr, size);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ((uintptr_t)p % 128, 0u) << size;
        // Writing the requested size plus the promised 64 bytes of slack must be safe (ASan
        // checks this in the sanitizer build).
        memset(p, 0xab, size + 64);
        halide_free(nullptr, p);
    }
    halide_free(nullptr, nullptr); // freeing null is a no-op
}

int custom_mallocs = 0, custom_frees = 0;
void *counting_malloc(void *uc, size_t n) {
    custom_mallocs++;
    return halide_default_malloc(uc, n);
}
void counting_free(void *uc, void *p) {
    custom_frees++;
    halide_default_free(uc, p);
}

TEST(CRuntime, CustomMallocAndFree) {
    halide_malloc_t old_m = halide_set_custom_malloc(counting_malloc);
    halide_free_t old_f = halide_set_custom_free(counting_free);
    EXPECT_EQ(old_m, halide_default_malloc);
    EXPECT_EQ(old_f, halide_default_free);
    void *p = halide_malloc(nullptr, 10);
    halide_free(nullptr, p);
    EXPECT_EQ(custom_mallocs, 1);
    EXPECT_EQ(custom_frees, 1);
    EXPECT_EQ(halide_set_custom_malloc(old_m), counting_malloc);
    EXPECT_EQ(halide_set_custom_free(old_f), counting_free);
}

std::string printed;
void capture_print(void *, const char *msg) { printed += msg; }

TEST(CRuntime, PrintHandler) {
    halide_print_t old = halide_set_custom_print(capture_print);
    EXPECT_EQ(old, halide_default_print);
    halide_print(nullptr, "hello ");
    halide_print(nullptr, "world");
    EXPECT_EQ(printed, "hello world");
    EXPECT_EQ(halide_set_custom_print(nullptr), capture_print); // null restores the default
    testing::internal::CaptureStdout();
    halide_print(nullptr, "to stdout\n");
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "to stdout\n");
}

TEST(CRuntime, DefaultErrorHandlerPrints) {
    testing::internal::CaptureStderr();
    halide_error(nullptr, "first problem");
    halide_error(nullptr, "second problem\n");
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "Error: first problem\nError: second problem\n");
    // A long message is written whole.
    std::string big(10000, 'x');
    testing::internal::CaptureStderr();
    halide_error(nullptr, big.c_str());
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "Error: " + big + "\n");
}

TEST_F(ErrorCapture, CustomHandlerReceivesTheMessage) {
    halide_error(nullptr, "boom");
    EXPECT_EQ(message(), "boom");
}

TEST_F(ErrorCapture, BadType) {
    int r = halide_error_bad_type(nullptr, "Input buffer in", pack(halide_type_float, 32),
                                  pack(halide_type_uint, 8));
    EXPECT_EQ(r, halide_error_code_bad_type);
    EXPECT_EQ(r, -3);
    EXPECT_EQ(message(), "Input buffer in has type uint8 but type of the buffer passed in is "
                         "float32");
    captured.clear();
    halide_error_bad_type(nullptr, "f", pack(halide_type_int, 16, 4), pack(halide_type_uint, 1));
    EXPECT_EQ(message(), "f has type uint1 but type of the buffer passed in is int16x4");
}

TEST_F(ErrorCapture, BadDimensions) {
    int r = halide_error_bad_dimensions(nullptr, "Output buffer out", 3, 2);
    EXPECT_EQ(r, halide_error_code_bad_dimensions);
    EXPECT_EQ(r, -43);
    EXPECT_EQ(message(), "Output buffer out requires a buffer of exactly 2 dimensions, but the "
                         "buffer passed in has 3 dimensions");
}

TEST_F(ErrorCapture, AccessOutOfBounds) {
    int r = halide_error_access_out_of_bounds(nullptr, "Input buffer input", 0, -1, 9, 0, 9);
    EXPECT_EQ(r, halide_error_code_access_out_of_bounds);
    EXPECT_EQ(r, -4);
    EXPECT_EQ(message(),
              "Input buffer input is accessed at -1, which is before the min (0) in dimension 0");
    captured.clear();
    halide_error_access_out_of_bounds(nullptr, "Input buffer input", 1, 0, 12, 0, 9);
    EXPECT_EQ(message(),
              "Input buffer input is accessed at 12, which is beyond the max (9) in dimension 1");
}

TEST_F(ErrorCapture, BufferSizes) {
    int r = halide_error_buffer_allocation_too_large(nullptr, "f", 5000000000ull, 2147483647ull);
    EXPECT_EQ(r, halide_error_code_buffer_allocation_too_large);
    EXPECT_EQ(message(), "Total allocation for buffer f is 5000000000, which exceeds the maximum "
                         "size of 2147483647");
    captured.clear();
    r = halide_error_buffer_extents_too_large(nullptr, "g", 3000000000ll, 2147483647ll);
    EXPECT_EQ(r, halide_error_code_buffer_extents_too_large);
    EXPECT_EQ(message(), "Product of extents for buffer g is 3000000000, which exceeds the "
                         "maximum size of 2147483647");
    captured.clear();
    r = halide_error_buffer_extents_negative(nullptr, "h", 2, -5);
    EXPECT_EQ(r, halide_error_code_buffer_extents_negative);
    EXPECT_EQ(r, -28);
    EXPECT_EQ(message(), "The extents for buffer h dimension 2 is negative (-5)");
}

TEST_F(ErrorCapture, ConstraintViolated) {
    int r = halide_error_constraint_violated(nullptr, "in.stride.0", 3, "1", 1);
    EXPECT_EQ(r, halide_error_code_constraint_violated);
    EXPECT_EQ(message(), "Constraint violated: in.stride.0 (3) == 1 (1)");
}

TEST_F(ErrorCapture, ParamRange) {
    EXPECT_EQ(halide_error_param_too_small_i64(nullptr, "p", -7, -3),
              halide_error_code_param_too_small);
    EXPECT_EQ(message(), "Parameter p is -7 but must be at least -3");
    captured.clear();
    EXPECT_EQ(halide_error_param_too_small_u64(nullptr, "q", 1, 18446744073709551615ull),
              halide_error_code_param_too_small);
    EXPECT_EQ(message(), "Parameter q is 1 but must be at least 18446744073709551615");
    captured.clear();
    EXPECT_EQ(halide_error_param_too_small_f64(nullptr, "r", 0.5, 1.25),
              halide_error_code_param_too_small);
    EXPECT_EQ(message(), "Parameter r is 5.000000e-01 but must be at least 1.250000e+00");
    captured.clear();
    EXPECT_EQ(halide_error_param_too_large_i64(nullptr, "p", INT64_MIN + 1, INT64_MIN),
              halide_error_code_param_too_large);
    EXPECT_EQ(message(), "Parameter p is -9223372036854775807 but must be at most "
                         "-9223372036854775808");
    captured.clear();
    EXPECT_EQ(halide_error_param_too_large_u64(nullptr, "q", 300, 255),
              halide_error_code_param_too_large);
    EXPECT_EQ(message(), "Parameter q is 300 but must be at most 255");
    captured.clear();
    EXPECT_EQ(halide_error_param_too_large_f64(nullptr, "r", 1e10, -2),
              halide_error_code_param_too_large);
    EXPECT_EQ(message(), "Parameter r is 1.000000e+10 but must be at most -2.000000e+00");
}

TEST_F(ErrorCapture, MiscReporters) {
    EXPECT_EQ(halide_error_out_of_memory(nullptr), halide_error_code_out_of_memory);
    EXPECT_EQ(message(), "Out of memory (halide_malloc returned nullptr)");
    captured.clear();
    EXPECT_EQ(halide_error_buffer_argument_is_null(nullptr, "input"),
              halide_error_code_buffer_argument_is_null);
    EXPECT_EQ(message(), "Buffer argument input is nullptr");
    captured.clear();
    EXPECT_EQ(halide_error_requirement_failed(nullptr, "x > 0", "x must be positive"),
              halide_error_code_requirement_failed);
    EXPECT_EQ(message(), "Requirement Failed: (x > 0) x must be positive");
    captured.clear();
    EXPECT_EQ(halide_error_explicit_bounds_too_small(nullptr, "f", "x", 0, 9, -1, 10),
              halide_error_code_explicit_bounds_too_small);
    EXPECT_EQ(message(), "Bounds given for x in f (from 0 to 9) do not cover required region "
                         "(from -1 to 10)");
    captured.clear();
    EXPECT_EQ(halide_error_constraints_make_required_region_smaller(nullptr, "in", 1, 0, 8, -1, 10),
              halide_error_code_constraints_make_required_region_smaller);
    EXPECT_EQ(message(), "Applying the constraints on in to the required region made it smaller "
                         "in dimension 1. Required size: -1 to 8. Constrained size: 0 to 7.");
    captured.clear();
    EXPECT_EQ(halide_error_unaligned_host_ptr(nullptr, "in", 32), -24);
    EXPECT_EQ(message(), "The host pointer of in is not aligned to a 32 bytes boundary.");
    captured.clear();
    EXPECT_EQ(halide_error_host_is_null(nullptr, "in"), -34);
    EXPECT_EQ(message(),
              "The host pointer of in is null, but the pipeline will access it on the host.");
    captured.clear();
    EXPECT_EQ(halide_error_bad_fold(nullptr, "f", "y", "g.s0.y"), -25);
    EXPECT_EQ(message(),
              "The folded storage dimension y of f was accessed out of order by loop g.s0.y.");
    captured.clear();
    EXPECT_EQ(halide_error_fold_factor_too_small(nullptr, "f", "y", 2, "g.s0.y", 3), -26);
    EXPECT_EQ(message(), "The fold factor (2) of dimension y of f is too small to store the "
                         "required region accessed by loop g.s0.y (3).");
    captured.clear();
    EXPECT_EQ(halide_error_storage_bound_too_small(nullptr, "f", "x", 4, 6), -45);
    EXPECT_EQ(message(), "The explicit allocation bound (4) of dimension x of f is too small to "
                         "store the required region (6).");
    captured.clear();
    EXPECT_EQ(halide_error_specialize_fail(nullptr, "no specialization matched"), -31);
    EXPECT_EQ(message(), "no specialization matched");
    captured.clear();
    EXPECT_EQ(halide_error_extern_stage_failed(nullptr, "ext", 7), 7);
    EXPECT_EQ(message(), "Call to external stage ext returned non-zero value: 7");
    captured.clear();
    EXPECT_EQ(halide_error_bounds_inference_call_failed(nullptr, "ext", -2), -2);
    EXPECT_EQ(message(), "Bounds inference call to external stage ext returned non-zero value: -2");
}

TEST(StringBuilders, StringTruncatesAtEnd) {
    char buf[8];
    char *end = buf + sizeof(buf);
    char *p = halide_string_to_string(buf, end, "abc");
    EXPECT_EQ(p, buf + 3);
    EXPECT_STREQ(buf, "abc");
    p = halide_string_to_string(p, end, "defghijk");
    EXPECT_EQ(p, buf + 7); // stops at end - 1 and terminates there
    EXPECT_STREQ(buf, "abcdefg");
    p = halide_string_to_string(p, end, "more");
    EXPECT_EQ(p, buf + 7);
    EXPECT_STREQ(buf, "abcdefg");
    EXPECT_EQ(halide_string_to_string(end, end, "x"), end); // no room: untouched
    char b2[16];
    halide_string_to_string(b2, b2 + 16, nullptr);
    EXPECT_STREQ(b2, "<nullptr>");
}

std::string i64(int64_t v, int digits) {
    char buf[64];
    halide_int64_to_string(buf, buf + sizeof(buf), v, digits);
    return buf;
}
std::string u64(uint64_t v, int digits) {
    char buf[64];
    halide_uint64_to_string(buf, buf + sizeof(buf), v, digits);
    return buf;
}
std::string f64(double v, int sci) {
    char buf[512];
    halide_double_to_string(buf, buf + sizeof(buf), v, sci);
    return buf;
}

TEST(StringBuilders, Integers) {
    EXPECT_EQ(i64(0, 1), "0");
    EXPECT_EQ(i64(42, 1), "42");
    EXPECT_EQ(i64(-42, 1), "-42");
    EXPECT_EQ(i64(7, 3), "007");
    EXPECT_EQ(i64(-7, 3), "-007");
    EXPECT_EQ(i64(INT64_MIN, 1), "-9223372036854775808");
    EXPECT_EQ(i64(INT64_MAX, 1), "9223372036854775807");
    EXPECT_EQ(u64(UINT64_MAX, 1), "18446744073709551615");
    EXPECT_EQ(u64(5, 0), "5");
    EXPECT_EQ(u64(0, 0), ""); // Halide prints no digits for zero with zero padding
    // Truncation keeps a terminated prefix.
    char buf[4];
    char *p = halide_int64_to_string(buf, buf + 4, -12345, 1);
    EXPECT_STREQ(buf, "-12");
    EXPECT_EQ(p, buf + 3);
}

TEST(StringBuilders, Doubles) {
    // Compared with printf, the behaviour Halide's runtime reproduces.
    for (double v : {0.0, -0.0, 1.0, -1.5, 3.14159265358979, 1e-7, 123456789.123456, 1e20,
                     -2.5e-300, 0.1, 1.0 / 3.0, 9.9999995, 1e300}) {
        char ref[512];
        snprintf(ref, sizeof(ref), "%f", v);
        EXPECT_EQ(f64(v, 0), ref) << v;
        snprintf(ref, sizeof(ref), "%e", v);
        EXPECT_EQ(f64(v, 1), ref) << v;
    }
    EXPECT_EQ(f64(1.5, 0), "1.500000");
    EXPECT_EQ(f64(-0.25, 1), "-2.500000e-01");
    EXPECT_EQ(f64(INFINITY, 0), "inf");
    EXPECT_EQ(f64(-INFINITY, 1), "-inf");
    EXPECT_EQ(f64(NAN, 0), "nan");
    char buf[6];
    halide_double_to_string(buf, buf + 6, 1234.5, 0);
    EXPECT_STREQ(buf, "1234.");
}

TEST(StringBuilders, PointersAndTypes) {
    char buf[64];
    halide_pointer_to_string(buf, buf + sizeof(buf), (const void *)0x1234abcd);
    EXPECT_STREQ(buf, "0x1234abcd");
    halide_pointer_to_string(buf, buf + sizeof(buf), nullptr);
    EXPECT_STREQ(buf, "0x0");
    halide_type_t t(halide_type_float, 32, 8);
    halide_type_to_string(buf, buf + sizeof(buf), &t);
    EXPECT_STREQ(buf, "float32x8");
    halide_type_t b(halide_type_uint, 1);
    halide_type_to_string(buf, buf + sizeof(buf), &b);
    EXPECT_STREQ(buf, "uint1");
    halide_type_t h(halide_type_handle, 64);
    halide_type_to_string(buf, buf + sizeof(buf), &h);
    EXPECT_STREQ(buf, "handle64");
}

TEST(StringBuilders, Chaining) {
    char buf[64];
    char *end = buf + sizeof(buf);
    char *p = halide_string_to_string(buf, end, "x = ");
    p = halide_int64_to_string(p, end, -3, 1);
    p = halide_string_to_string(p, end, ", y = ");
    p = halide_double_to_string(p, end, 0.5, 0);
    EXPECT_STREQ(buf, "x = -3, y = 0.500000");
    EXPECT_EQ(p, buf + strlen(buf));
}

} // namespace
