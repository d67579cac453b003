// Benchmark of the core pipelines: the 2012 paper's blur under its Figure 1 schedule and five
// other schedules, the paper's clean C++ blur (Figure 1a), the machine's copy bandwidth, and
// histogram equalization. The same source is compiled against Loom (include/compat/Halide.h) and
// against Halide 21 (bench/run.sh); each binary prints one line per measurement:
//     <name> <JIT compile ms> <median run ms> <bytes moved per run> [note]
// where bytes are those read from the input plus those written to the output (so GB/s compares
// with the copy bandwidth, which counts a copy's reads and writes the same way). A pipeline the
// library cannot build prints "n/a" for both times and the reason as the note. Every blur
// result is checked against the clean C++ one before it is timed; a mismatch exits nonzero.
#include "Halide.h"

#include "blur/blur.h"
#include "blur_hand_optimized.h"
#include "common/timing.h"
#include "hist_eq/hist_eq.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

using namespace Halide;

namespace {

const int kRuns = 7;

void print_line(const char *name, double compile, double run, double bytes) {
    std::printf("%s %.2f %.3f %.0f\n", name, compile, run, bytes);
    std::fflush(stdout);
}

void print_na(const char *name, double bytes, const char *why) {
    std::printf("%s n/a n/a %.0f %s\n", name, bytes, why);
    std::fflush(stdout);
}

template <typename P>
void bench(const char *name, P &pipeline, Func out, Buffer<> result, double bytes) {
    double compile = once_ms([&] { out.compile_jit(); });
    double run = median_ms([&] { out.realize(result); }, kRuns);
    print_line(name, compile, run, bytes);
}

// Copies `bytes` from src to dst with n threads, each a contiguous slice.
void parallel_copy(char *dst, const char *src, size_t bytes, int n) {
    if (n <= 1) {
        std::memcpy(dst, src, bytes);
        return;
    }
    std::vector<std::thread> threads;
    size_t chunk = (bytes + n - 1) / n;
    for (int i = 0; i < n; i++) {
        size_t begin = std::min(bytes, i * chunk), end = std::min(bytes, begin + chunk);
        threads.emplace_back([=] { std::memcpy(dst + begin, src + begin, end - begin); });
    }
    for (auto &t : threads) t.join();
}

} // namespace

int main(int argc, char **argv) {
    // The paper's blur size; histogram equalization on a photograph-sized image.
    const int BW = 6400, BH = 4800, HW = 1536, HH = 2560;
    const double blur_bytes = 2.0 * BW * BH * sizeof(uint16_t);
    Buffer<uint16_t> blur_in(BW, BH);
    blur_in.for_each_element(
        [&](int x, int y) { blur_in(x, y) = (uint16_t)(x * 131 + y * 71 + (x * y) % 97); });
    Buffer<uint8_t> eq_in(HW, HH);
    eq_in.for_each_element(
        [&](int x, int y) { eq_in(x, y) = (uint8_t)(((x / 7) * (y / 11) + x) % 200); });

    // The machine's copy bandwidth over the blur's input size: one thread and all of them.
    {
        std::vector<char> src(blur_bytes / 2, 1), dst(blur_bytes / 2, 0);
        int n = (int)std::max(1u, std::thread::hardware_concurrency());
        double one =
            median_ms([&] { parallel_copy(dst.data(), src.data(), src.size(), 1); }, kRuns);
        print_line("memcpy_1thread", 0, one, blur_bytes);
        double all =
            median_ms([&] { parallel_copy(dst.data(), src.data(), src.size(), n); }, kRuns);
        print_line("memcpy_threads", 0, all, blur_bytes);
    }

    // The paper's Figure 1a, which is also the reference every schedule must match.
    Buffer<uint16_t> expected(BW, BH);
    {
        std::vector<uint16_t> tmp((size_t)BW * BH);
        double run = median_ms(
            [&] { blur_clean_cpp(blur_in.data(), expected.data(), tmp.data(), BW, BH); }, kRuns);
        print_line("blur_cpp_fig1a", 0, run, blur_bytes);
    }

    // The hand-optimized version (Figure 1b's approach): checked, then timed.
    {
        Buffer<uint16_t> hand(BW, BH);
        int n = (int)std::max(1u, std::thread::hardware_concurrency());
        blur_hand_optimized(blur_in.data(), hand.data(), BW, BH, n);
        if (std::memcmp(hand.data(), expected.data(), blur_bytes / 2) != 0) {
            std::fprintf(stderr, "blur_hand_optimized differs from the clean C++ blur\n");
            return 1;
        }
        double run =
            median_ms([&] { blur_hand_optimized(blur_in.data(), hand.data(), BW, BH, n); }, kRuns);
        print_line("blur_cpp_fig1b", 0, run, blur_bytes);
    }

    struct Schedule {
        const char *name;
        bool (*apply)(BlurPipeline &);
        const char *missing;
    };
    const Schedule schedules[] = {
        {"blur_paper", [](BlurPipeline &p) { return p.schedule_paper(), true; }, ""},
        {"blur_all_root", [](BlurPipeline &p) { return p.schedule_blur_x_root(), true; }, ""},
        {"blur_all_inline", [](BlurPipeline &p) { return p.schedule_default(), true; }, ""},
        {"blur_sliding_window", [](BlurPipeline &p) { return p.schedule_sliding_window(); },
         "store_at-pending"},
        {"blur_vectorized_only", [](BlurPipeline &p) { return p.schedule_vectorized_only(), true; },
         ""},
        {"blur_parallel_only", [](BlurPipeline &p) { return p.schedule_parallel_only(), true; },
         ""},
    };
    int failures = 0;
    for (const Schedule &s : schedules) {
        try {
            BlurPipeline p;
            if (!s.apply(p)) {
                print_na(s.name, blur_bytes, s.missing);
                continue;
            }
            p.input.set(blur_in);
            Buffer<uint16_t> result(BW, BH);
            double compile = once_ms([&] { p.blur_y.compile_jit(); });
            p.blur_y.realize(result);
            if (std::memcmp(result.data(), expected.data(), blur_bytes / 2) != 0) {
                std::fprintf(stderr, "%s: result differs from the clean C++ blur\n", s.name);
                print_na(s.name, blur_bytes, "wrong-result");
                failures++;
                continue;
            }
            double run = median_ms([&] { p.blur_y.realize(result); }, kRuns);
            print_line(s.name, compile, run, blur_bytes);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", s.name, e.what());
            print_na(s.name, blur_bytes, "error");
        }
    }

    {
        HistEqPipeline p;
        p.schedule_default();
        p.input.set(eq_in);
        bench("hist_eq", p, p.output, Buffer<uint8_t>(HW, HH), 2.0 * HW * HH);
    }
    return failures ? 1 : 0;
}
