// hoist_storage moves only a Func's allocation, as in Halide 21 (built against both, so the call
// counts below are Halide's): values do not live across the iterations of the loops between the
// hoist level and the store level, so nothing slides over them, while a store level outside the
// compute level still slides. Each output is checked against naive C++ too.
#include "Halide.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace Halide;

namespace {

std::atomic<int> calls{0};

} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int32_t loomtest_hoist_count(int32_t x) {
    calls++;
    return x;
}
HalideExtern_1(int32_t, loomtest_hoist_count, int32_t);

namespace {

/// o(x, y) = f(x, y - 1) + f(x, y + 1) over 10 x 32, scheduled by `schedule`; returns how many
/// values of f were computed.
template <typename S>
int count_calls(S schedule) {
    Var x("x"), y("y");
    Func f("f"), o("o");
    f(x, y) = loomtest_hoist_count(x + y);
    o(x, y) = f(x, y - 1) + f(x, y + 1);
    schedule(f, o, y);
    calls = 0;
    Buffer<int> r = o.realize({10, 32});
    for (int j = 0; j < 32; j++) {
        for (int i = 0; i < 10; i++) EXPECT_EQ(r(i, j), 2 * (i + j)) << i << ", " << j;
    }
    return calls;
}

} // namespace

TEST(HoistStorage, NothingSlidesOverTheHoistedLoops) {
    // Stored at its compute level: three rows per row of o, wherever the allocation is.
    EXPECT_EQ(
        count_calls([](Func &f, Func &o, Var &y) { f.compute_at(o, y).hoist_storage_root(); }),
        10 * 3 * 32);
    EXPECT_EQ(count_calls([](Func &f, Func &o, Var &y) {
                  Var yo("yo"), yi("yi");
                  o.split(y, yo, yi, 8);
                  f.compute_at(o, yi).hoist_storage(o, yo);
              }),
              10 * 3 * 32);
}

TEST(HoistStorage, StoreLevelOutsideTheComputeLevelStillSlides) {
    // Stored at the root: one new row per row of o after the first two.
    EXPECT_EQ(count_calls([](Func &f, Func &o, Var &y) { f.compute_at(o, y).store_root(); }),
              10 * 34);
    // Stored per strip of 8 rows, allocated once: each strip computes its 10 rows.
    EXPECT_EQ(count_calls([](Func &f, Func &o, Var &y) {
                  Var yo("yo"), yi("yi");
                  o.split(y, yo, yi, 8);
                  f.compute_at(o, yi).store_at(o, yo).hoist_storage_root();
              }),
              10 * 10 * 4);
}
