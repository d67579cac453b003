// Small SIMD kernels whose speed is decided by instruction selection, compiled from this one
// source against Loom (include/compat/Halide.h) and against Halide 21 (bench/simd_kernels.sh,
// not part of CI or `make bench`):
//  - brighten: uint8 saturating add of a constant (paddusb);
//  - downsample: 2x2 rounding average of uint8 (widening adds, a shift, a narrowing pack);
//  - interleave: planar RGB uint8 to chunky RGB (an interleaving store);
//  - q15_mul: int16 Q15 fixed-point multiply (pmulhrsw);
//  - dot_pairs: int16 pairwise dot product to int32 (pmaddwd).
// Same schedule in both (vectorized, single-threaded, so the number measures the generated
// code, not the thread pool), images small enough to stay in L2. Each line printed:
//     <name> <JIT compile ms> <median run ms>
// Every result is checked against a scalar C++ reference first; a mismatch exits nonzero.
#include "Halide.h"

#include "common/timing.h"

#include <cstdio>
#include <cstdlib>
#include <functional>

using namespace Halide;

namespace {

const int kRuns = 51;
const int W = 1024, H = 512;
// Elements of the 1-D int16 kernels (256 KB per input, in L2).
const int N = 1 << 16;

int failures = 0;

void check(bool ok, const char *name, int x, int y) {
    if (!ok && failures++ < 5) std::fprintf(stderr, "%s: wrong value at %d,%d\n", name, x, y);
}

/// Compiles `out`, realizes it into `result`, runs `check` on the result, then times it.
void run(const char *name, Func out, Buffer<> result, const std::function<void()> &check) {
    double compile = once_ms([&] { out.compile_jit(); });
    out.realize(result);
    check();
    double t = median_ms([&] { out.realize(result); }, kRuns);
    std::printf("%s %.2f %.4f\n", name, compile, t);
    std::fflush(stdout);
}

} // namespace

int main() {
    Buffer<uint8_t> gray(2 * W, 2 * H);
    gray.for_each_element(
        [&](int x, int y) { gray(x, y) = (uint8_t)((x * 37 + y * 11) ^ (x >> 3)); });
    Buffer<uint8_t> planar(W, H, 3);
    planar.for_each_element(
        [&](int x, int y, int c) { planar(x, y, c) = (uint8_t)(x * 7 + y * 3 + c * 85); });
    Buffer<int16_t> qa(2 * N), qb(2 * N);
    for (int i = 0; i < 2 * N; i++) {
        qa(i) = (int16_t)(((uint32_t)i * 7919u) % 65536 - 32768);
        qb(i) = (int16_t)(((uint32_t)i * 104729u + 12345u) % 65536 - 32768);
    }
    Var x("x"), y("y"), c("c");

    {
        Func brighten("brighten");
        brighten(x, y) = cast<uint8_t>(min(cast<uint16_t>(gray(x, y)) + 40, 255));
        brighten.vectorize(x, 64);
        Buffer<uint8_t> out(2 * W, 2 * H);
        run("brighten_u8", brighten, out, [&] {
            for (int j = 0; j < 2 * H; j++) {
                for (int i = 0; i < 2 * W; i++) {
                    check(out(i, j) == std::min(gray(i, j) + 40, 255), "brighten", i, j);
                }
            }
        });
    }
    {
        Func down("downsample");
        Expr sum = cast<uint16_t>(gray(2 * x, 2 * y)) + gray(2 * x + 1, 2 * y) +
                   gray(2 * x, 2 * y + 1) + gray(2 * x + 1, 2 * y + 1);
        down(x, y) = cast<uint8_t>((sum + 2) / 4);
        down.vectorize(x, 32);
        Buffer<uint8_t> out(W, H);
        run("downsample_2x2_u8", down, out, [&] {
            for (int j = 0; j < H; j++) {
                for (int i = 0; i < W; i++) {
                    int s = gray(2 * i, 2 * j) + gray(2 * i + 1, 2 * j) + gray(2 * i, 2 * j + 1) +
                            gray(2 * i + 1, 2 * j + 1);
                    check(out(i, j) == (s + 2) / 4, "downsample", i, j);
                }
            }
        });
    }
    {
        Func chunky("interleave");
        chunky(x, y, c) = planar(x, y, c);
        chunky.output_buffer().dim(0).set_stride(3).dim(2).set_stride(1).set_bounds(0, 3);
        chunky.reorder(c, x, y).bound(c, 0, 3).unroll(c).vectorize(x, 32);
        Buffer<uint8_t> out = Buffer<uint8_t>::make_interleaved(W, H, 3);
        run("interleave_rgb_u8", chunky, out, [&] {
            for (int j = 0; j < H; j++) {
                for (int i = 0; i < W; i++) {
                    for (int k = 0; k < 3; k++) {
                        check(out(i, j, k) == planar(i, j, k), "interleave", i, j);
                    }
                }
            }
        });
    }
    {
        Func q15("q15_mul");
        q15(x) = cast<int16_t>((cast<int32_t>(qa(x)) * qb(x) + 16384) >> 15);
        q15.vectorize(x, 32);
        Buffer<int16_t> out(2 * N);
        run("q15_mul_i16", q15, out, [&] {
            for (int i = 0; i < 2 * N; i++) {
                check(out(i) == (int16_t)((qa(i) * qb(i) + 16384) >> 15), "q15", i, 0);
            }
        });
    }
    {
        Func dot("dot_pairs");
        dot(x) =
            cast<int32_t>(qa(2 * x)) * qb(2 * x) + cast<int32_t>(qa(2 * x + 1)) * qb(2 * x + 1);
        dot.vectorize(x, 16);
        Buffer<int32_t> out(N);
        run("dot_pairs_i16", dot, out, [&] {
            for (int i = 0; i < N; i++) {
                int64_t want =
                    (int64_t)qa(2 * i) * qb(2 * i) + (int64_t)qa(2 * i + 1) * qb(2 * i + 1);
                check(out(i) == (int32_t)(uint32_t)want, "dot_pairs", i, 0);
            }
        });
    }
    if (failures) {
        std::fprintf(stderr, "%d wrong values\n", failures);
        return 1;
    }
    return 0;
}
