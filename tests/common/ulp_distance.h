// Float comparison in units in the last place, for tests of approximate math functions.
#ifndef LOOM_TESTS_COMMON_ULP_DISTANCE_H
#define LOOM_TESTS_COMMON_ULP_DISTANCE_H

#include <cstdint>
#include <cstdlib>
#include <cstring>

/// Distance in units in the last place between two finite floats (across zero too).
inline int64_t ulp_distance(float a, float b) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if (ia < 0) ia = INT32_MIN - ia;
    if (ib < 0) ib = INT32_MIN - ib;
    return std::llabs((int64_t)ia - (int64_t)ib);
}

#endif
