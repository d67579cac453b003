// Runs each application on a fixed synthetic input with its CPU schedule and writes the output's
// raw bytes to <dir>/<app>.raw. Built twice by cross_check.sh, against Loom (include/compat) and
// against Halide 21 (the PyPI wheel's C++ SDK), so the two outputs can be compared byte for byte
// (or within a float tolerance). Not part of CI. Usage: cross_check <dir> [app...]; with
// CROSS_CHECK_SCHEDULE=default in the environment the apps run unscheduled instead.
#include "Halide.h"

#include "harris/harris.h"
#include "max_filter/max_filter.h"
#include "unsharp/unsharp.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// A deterministic float image in [0, 1] (ramps plus hash noise), `channels` planes.
Halide::Buffer<float> synthetic_rgb(int w, int h, int channels) {
    Halide::Buffer<float> in(w, h, channels);
    uint32_t state = 2024;
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                in(x, y, c) = 0.5f * x / w + 0.3f * y / h + 0.2f * noise;
            }
    return in;
}

template <typename T>
bool write_raw(const std::string &path, const Halide::Buffer<T> &b) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    // Dense buffers from realize(): the host data is the whole image, x fastest.
    size_t n = b.number_of_elements();
    bool ok = std::fwrite(b.data(), sizeof(T), n, f) == n;
    std::fclose(f);
    return ok;
}

bool wanted(int argc, char **argv, const char *app) {
    if (argc <= 2) return true;
    for (int i = 2; i < argc; i++)
        if (std::strcmp(argv[i], app) == 0) return true;
    return false;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <dir> [app...]\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    const char *schedule = std::getenv("CROSS_CHECK_SCHEDULE");
    const bool cpu = !(schedule && std::strcmp(schedule, "default") == 0);
    bool ok = true;
    if (wanted(argc, argv, "unsharp")) {
        const int w = 389, h = 251;
        Halide::Buffer<float> in = synthetic_rgb(w, h, 3);
        UnsharpPipeline p;
        if (cpu) p.schedule_cpu();
        p.input.set(in);
        p.weight.set(0.8f);
        Halide::Buffer<float> out = p.output.realize({w, h, 3});
        ok &= write_raw(dir + "/unsharp.raw", out);
    }
    if (wanted(argc, argv, "harris")) {
        const int w = 389, h = 251;
        Halide::Buffer<float> in = synthetic_rgb(w, h, 3);
        HarrisPipeline p;
        if (cpu) p.schedule_cpu();
        p.input.set(in);
        Halide::Buffer<float> out = p.output.realize({w, h});
        ok &= write_raw(dir + "/harris.raw", out);
    }
    if (wanted(argc, argv, "max_filter")) {
        const int w = 389, h = 251;
        Halide::Buffer<float> in = synthetic_rgb(w, h, 3);
        MaxFilterPipeline p(26);
        if (cpu) p.schedule_cpu();
        p.input.set(in);
        Halide::Buffer<float> out = p.output.realize({w, h, 3});
        ok &= write_raw(dir + "/max_filter.raw", out);
    }
    return ok ? 0 : 1;
}
