// The constants of the matrix-multiply app (sizes, the deterministic input generator), shared by
// the pipeline's app entry (matmul_app.h), the naive reference's callers and the test. Needs no
// Halide header.
#ifndef LOOM_APPS_MATMUL_PARAMS_H
#define LOOM_APPS_MATMUL_PARAMS_H

#include <cstdint>

namespace matmul_detail {

/// The 2016 autoscheduling paper's size: 2048 x 2048 float matrices.
constexpr int kPaperSize = 2048;
/// The small size (demo quick mode, smoke runs).
constexpr int kSmallSize = 256;
/// The demo's size (InputSize::Natural: there is no photograph to take a size from): 1024 x 1024
/// runs in a few tens of milliseconds and its pictures stay a few megabytes.
constexpr int kNaturalSize = 1024;

/// A fixed-seed generator of floats uniform in [-1, 1): a 32-bit LCG (Numerical Recipes
/// constants) whose top 24 bits make the mantissa, so the sequence is the same on every machine
/// and compiler.
class Uniform {
public:
    /// Starts the sequence at `seed`.
    explicit Uniform(uint32_t seed) : state_(seed) {}
    /// The next value in [-1, 1).
    float next() {
        state_ = state_ * 1664525u + 1013904223u;
        return (float)(state_ >> 8) * (2.0f / (float)(1u << 24)) - 1.0f;
    }

private:
    uint32_t state_;
};

/// Fills n floats at `data` from a generator seeded with `seed`.
inline void fill_uniform(float *data, long n, uint32_t seed) {
    Uniform u(seed);
    for (long i = 0; i < n; i++) data[i] = u.next();
}

} // namespace matmul_detail

#endif
