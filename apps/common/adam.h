// Adam (Kingma and Ba 2015), the optimizer of the apps that train their parameters
// (learned_demosaick, deconvolution): one step on a parameter Buffer from its gradient, the
// moments kept per element in double. Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_ADAM_H
#define LOOM_APPS_COMMON_ADAM_H

#include <cmath>
#include <cstddef>
#include <vector>

/// Adam's moments for one parameter buffer.
struct AdamMoments {
    std::vector<double> m, v;
};

/// One Adam step (Kingma and Ba 2015; step counts from 1) on `param` with gradient `grad`.
template <typename T>
void adam_step(Halide::Buffer<T> &param, const Halide::Buffer<T> &grad, AdamMoments &moments,
               int step, double learning_rate, double beta1 = 0.9, double beta2 = 0.999,
               double epsilon = 1e-8) {
    const size_t n = param.number_of_elements();
    moments.m.resize(n, 0.0);
    moments.v.resize(n, 0.0);
    const double c1 = 1 - std::pow(beta1, step), c2 = 1 - std::pow(beta2, step);
    for (size_t e = 0; e < n; e++) {
        const double g = grad.data()[e];
        moments.m[e] = beta1 * moments.m[e] + (1 - beta1) * g;
        moments.v[e] = beta2 * moments.v[e] + (1 - beta2) * g * g;
        param.data()[e] -=
            (T)(learning_rate * (moments.m[e] / c1) / (std::sqrt(moments.v[e] / c2) + epsilon));
    }
}

#endif
