// Median wall-clock timing for the demo and benchmarks.
#ifndef LOOM_APPS_TIMING_H
#define LOOM_APPS_TIMING_H

#include <algorithm>
#include <chrono>
#include <vector>

/// Runs f `runs` times after one warm-up and returns the median time in milliseconds.
template <typename F>
double median_ms(F f, int runs = 5) {
    f();
    std::vector<double> times;
    for (int i = 0; i < runs; i++) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        auto t1 = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

/// Milliseconds taken by one call of f.
template <typename F>
double once_ms(F f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

#endif
