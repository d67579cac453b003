// A C++ program calling AOT-compiled pipelines through Halide::Runtime::Buffer (HalideBuffer.h)
// without linking libloom: the header-only buffer needs only the runtime the archives carry.
// Prints "N passed, N failed".
#include "HalideBuffer.h"
#include "aot_check.h"
#include "pipeline_a.h"
#include "pipeline_b.h"

#include <cmath>
#include <cstdio>

namespace {

void test_pipeline_a() {
    const int W = 64, H = 48, C = 2;
    Halide::Runtime::Buffer<uint16_t> bright(W, H, C);
    Halide::Runtime::Buffer<float> scaled(W, H, C);

    // Bounds query through an unallocated Runtime::Buffer.
    Halide::Runtime::Buffer<uint16_t> query(nullptr, 0, 0, 0);
    int rc = pipeline_a(2.0f, query.raw_buffer(), 7, 0, bright.raw_buffer(), scaled.raw_buffer());
    check(rc == 0, "bounds query returns 0");
    check(query.dim(0).extent() == W + 2 && query.dim(1).extent() == H + 1 &&
              query.dim(2).extent() == C,
          "bounds query returns the input region");

    Halide::Runtime::Buffer<uint16_t> in(query.dim(0).extent(), query.dim(1).extent(), C);
    in.for_each_element([&](int x, int y, int c) { in(x, y, c) = (uint16_t)(x * 31 + y * 7 + c); });
    rc = pipeline_a(2.0f, in.raw_buffer(), 7, 0, bright.raw_buffer(), scaled.raw_buffer());
    check(rc == 0, "pipeline_a returns 0");
    int bad = 0;
    bright.for_each_element([&](int x, int y, int c) {
        uint32_t s = (uint32_t)in(x, y, c) + in(x + 1, y, c) + in(x + 2, y, c);
        uint32_t s1 = (uint32_t)in(x, y + 1, c) + in(x + 1, y + 1, c) + in(x + 2, y + 1, c);
        uint32_t b = std::min<uint32_t>(s / 3 + 7, 65535);
        bad += bright(x, y, c) != b;
        bad += scaled(x, y, c) != (float)s1 * 2.0f;
    });
    check(bad == 0, "pipeline_a matches the reference");

    // A cropped output with a nonzero min: the pipeline computes exactly that region.
    Halide::Runtime::Buffer<uint16_t> bright_crop = bright.cropped(0, 10, 20);
    Halide::Runtime::Buffer<float> scaled_crop = scaled.cropped(0, 10, 20);
    bright.fill(0);
    rc =
        pipeline_a(2.0f, in.raw_buffer(), 7, 0, bright_crop.raw_buffer(), scaled_crop.raw_buffer());
    check(rc == 0 && bright(9, 0, 0) == 0 && bright(10, 0, 0) != 0 && bright(30, 0, 0) == 0,
          "a cropped output is computed over its own region");
}

void test_pipeline_b() {
    Halide::Runtime::Buffer<float> in(33, 17), out(33, 17);
    in.for_each_element([&](int x, int y) { in(x, y) = 0.5f * x - 0.25f * y; });
    int rc = pipeline_b(nullptr, in.raw_buffer(), 1.0f, out.raw_buffer());
    check(rc == 0, "pipeline_b returns 0");
    int bad = 0;
    out.for_each_element([&](int x, int y) {
        float v = in(x, y), want = std::sqrt(v * v + 1.0f) - v * 0.5f;
        bad += std::fabs(out(x, y) - want) > 1e-5f * (1 + std::fabs(want));
    });
    check(bad == 0, "pipeline_b matches the reference");

    // Runtime::Buffer's device methods reach the runtime the archives carry (its device
    // interface module): a host buffer has nothing to copy or free, and copying it to a device
    // without a device interface is an error, not a silent success.
    check(out.copy_to_host() == 0 && out.device_free() == 0,
          "a host buffer's device calls are no-ops");
    check(out.copy_to_device(nullptr) == halide_error_code_no_device_interface,
          "copy_to_device without a device interface fails");
}

} // namespace

int main() {
    test_pipeline_a();
    test_pipeline_b();
    return check_summary();
}
