// How far an app's output is from its reference: the measure AppInstance::reference_tolerance()
// bounds, shared by the benchmark harness and the tests. Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_COMPARE_H
#define LOOM_APPS_COMMON_COMPARE_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace app_compare {

/// max |a - b| / max(1, |b|) over the elements of two buffers of one type T and shape.
template <typename T>
inline double max_rel_error_typed(Halide::Buffer<T> a, Halide::Buffer<T> b) {
    double worst = 0;
    a.for_each_element([&](const int *pos) {
        double x = (double)a(pos), y = (double)b(pos);
        double e = (std::isnan(x) != std::isnan(y)) ? INFINITY
                   : std::isnan(x)                  ? 0.0
                                   : std::fabs(x - y) / std::max(1.0, std::fabs(y));
        worst = std::max(worst, e);
    });
    return worst;
}

inline double max_rel_error(const Halide::Buffer<> &a, const Halide::Buffer<> &b) {
    if (a.type() != b.type() || a.dimensions() != b.dimensions()) return INFINITY;
    for (int d = 0; d < a.dimensions(); d++)
        if (a.dim(d).extent() != b.dim(d).extent() || a.dim(d).min() != b.dim(d).min())
            return INFINITY;
    Halide::Type t = a.type();
    if (t == Halide::Float(32)) return max_rel_error_typed<float>(a, b);
    if (t == Halide::Float(64)) return max_rel_error_typed<double>(a, b);
    if (t == Halide::UInt(8)) return max_rel_error_typed<uint8_t>(a, b);
    if (t == Halide::UInt(16)) return max_rel_error_typed<uint16_t>(a, b);
    if (t == Halide::UInt(32)) return max_rel_error_typed<uint32_t>(a, b);
    if (t == Halide::Int(8)) return max_rel_error_typed<int8_t>(a, b);
    if (t == Halide::Int(16)) return max_rel_error_typed<int16_t>(a, b);
    if (t == Halide::Int(32)) return max_rel_error_typed<int32_t>(a, b);
    return INFINITY;
}

} // namespace app_compare

#endif
