// Runs the pipelines bench/gpu/gpu_generate.cpp compiled ahead of time: each GPU version
// against its CPU version (every value compared), then timed. Needs only the GPU driver where
// it runs. Prints one line per pipeline:
//   <name> <ok|FAIL> max_rel_err=<e> first_ms=<t> gpu_ms=<median> cpu_ms=<t>
// and exits nonzero when any check fails.
//
// Usage: gpu_run [runs]
#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

struct Shape {
    struct {
        int code, bits;
    } type;
    std::vector<int> sizes;
};

struct PipelineEntry {
    const char *name;
    int (*gpu)(void **);
    int (*cpu)(void **);
    std::vector<Shape> inputs;
    Shape output;
    double tolerance;
};

#include "gpu_manifest.h"

using Halide::Runtime::Buffer;

namespace {

halide_type_t type_of(const Shape &s) {
    return halide_type_t((halide_type_code_t)s.type.code, s.type.bits);
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void fill(Buffer<void> &b, uint32_t seed) {
    std::mt19937 rng(seed);
    halide_type_t t = b.type();
    uint8_t *p = (uint8_t *)b.data();
    size_t n = b.number_of_elements();
    for (size_t i = 0; i < n; i++) {
        if (t.code == halide_type_float) {
            ((float *)p)[i] = std::uniform_real_distribution<float>(0.0f, 4.0f)(rng);
        } else if (t.bits == 8) {
            p[i] = (uint8_t)rng();
        } else if (t.bits == 16) {
            ((uint16_t *)p)[i] = (uint16_t)rng();
        } else {
            ((uint32_t *)p)[i] = (uint32_t)rng();
        }
    }
}

double value(const Buffer<void> &b, size_t i) {
    halide_type_t t = b.type();
    const uint8_t *p = (const uint8_t *)b.data();
    if (t.code == halide_type_float) return ((const float *)p)[i];
    if (t.bits == 8) return t.code == halide_type_int ? (int8_t)p[i] : p[i];
    if (t.bits == 16) {
        return t.code == halide_type_int ? ((const int16_t *)p)[i] : ((const uint16_t *)p)[i];
    }
    return t.code == halide_type_int ? ((const int32_t *)p)[i] : ((const uint32_t *)p)[i];
}

} // namespace

int main(int argc, char **argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 20;
    int failures = 0;
    for (const PipelineEntry &e : pipelines) {
        std::vector<Buffer<void>> inputs;
        uint32_t seed = 1;
        for (const Shape &s : e.inputs) {
            inputs.emplace_back(type_of(s), s.sizes);
            fill(inputs.back(), seed++);
        }
        Buffer<void> expected(type_of(e.output), e.output.sizes);
        Buffer<void> actual(type_of(e.output), e.output.sizes);
        auto argv_for = [&](Buffer<void> &out) {
            std::vector<void *> args;
            for (Buffer<void> &b : inputs) args.push_back(b.raw_buffer());
            args.push_back(out.raw_buffer());
            return args;
        };
        std::vector<void *> cpu_args = argv_for(expected), gpu_args = argv_for(actual);
        double t0 = now_ms();
        int r = e.cpu(cpu_args.data());
        double cpu_ms = now_ms() - t0;
        t0 = now_ms();
        int g = e.gpu(gpu_args.data());
        if (g == 0) g = actual.device_sync();
        double first_ms = now_ms() - t0;
        if (r != 0 || g != 0) {
            std::printf("%s FAIL cpu_error=%d gpu_error=%d\n", e.name, r, g);
            failures++;
            continue;
        }
        std::vector<double> times;
        for (int i = 0; i < runs && g == 0; i++) {
            t0 = now_ms();
            g = e.gpu(gpu_args.data());
            if (g == 0) g = actual.device_sync();
            times.push_back(now_ms() - t0);
        }
        if (g == 0) g = actual.copy_to_host();
        double max_err = 0;
        size_t bad = 0, n = expected.number_of_elements();
        for (size_t i = 0; i < n && g == 0; i++) {
            double x = value(expected, i), y = value(actual, i);
            double err = std::abs(x - y) / std::max(1.0, std::abs(x));
            max_err = std::max(max_err, err);
            bad += err > e.tolerance;
        }
        std::sort(times.begin(), times.end());
        bool ok = g == 0 && bad == 0;
        failures += !ok;
        std::printf("%s %s max_rel_err=%.3g bad=%zu first_ms=%.3f gpu_ms=%.4f cpu_ms=%.3f\n",
                    e.name, ok ? "ok" : "FAIL", max_err, bad, first_ms,
                    times.empty() ? -1.0 : times[times.size() / 2], cpu_ms);
    }
    return failures ? 1 : 0;
}
