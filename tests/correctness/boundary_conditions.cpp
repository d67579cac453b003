// Every boundary condition, realized over output regions that are shifted and larger than the
// input, against naive C++ definitions of each condition.
#include <loom/loom.h>

#include "common/boundary_reference.h"

#include <gtest/gtest.h>

#include <functional>

using namespace loom;
using namespace loom_test;

namespace {

const int W = 13, H = 9;

Buffer<int32_t> make_input() {
    Buffer<int32_t> in(W, H);
    in.set_min(2, -3); // a non-zero origin, so the conditions must use the buffer's own min
    in.for_each_element([&](int x, int y) { in(x, y) = x * 100 + y * 7 + 5; });
    return in;
}

void check(Func f, const std::function<int(int, int)> &ref, int ox, int oy) {
    // An output 3x the input's size, shifted so it starts well outside the input.
    Buffer<int32_t> out(3 * W, 3 * H);
    out.set_min(ox, oy);
    f.realize(out);
    out.for_each_element([&](int x, int y) {
        ASSERT_EQ(out(x, y), ref(x, y)) << f.name() << " at " << x << ", " << y;
    });
}

} // namespace

TEST(BoundaryConditions, RepeatEdge) {
    Buffer<int32_t> in = make_input();
    Func f = BoundaryConditions::repeat_edge(in);
    check(
        f, [&](int x, int y) { return in(repeat_edge_ref(x, 2, W), repeat_edge_ref(y, -3, H)); },
        -20, -15);
}

TEST(BoundaryConditions, ConstantExterior) {
    Buffer<int32_t> in = make_input();
    Func f = BoundaryConditions::constant_exterior(in, -42);
    check(
        f,
        [&](int x, int y) {
            bool inside = x >= 2 && x < 2 + W && y >= -3 && y < -3 + H;
            return inside ? in(x, y) : -42;
        },
        -11, -12);
}

TEST(BoundaryConditions, RepeatImage) {
    Buffer<int32_t> in = make_input();
    Func f = BoundaryConditions::repeat_image(in);
    check(
        f, [&](int x, int y) { return in(repeat_image_ref(x, 2, W), repeat_image_ref(y, -3, H)); },
        -17, 4);
}

TEST(BoundaryConditions, MirrorImage) {
    Buffer<int32_t> in = make_input();
    Func f = BoundaryConditions::mirror_image(in);
    check(
        f, [&](int x, int y) { return in(mirror_image_ref(x, 2, W), mirror_image_ref(y, -3, H)); },
        -25, -9);
}

TEST(BoundaryConditions, MirrorInterior) {
    Buffer<int32_t> in = make_input();
    Func f = BoundaryConditions::mirror_interior(in);
    check(
        f,
        [&](int x, int y) {
            return in(mirror_interior_ref(x, 2, W), mirror_interior_ref(y, -3, H));
        },
        0, -14);
}

TEST(BoundaryConditions, FuncWithExplicitRegion) {
    // A Func source with an explicit region: only x is bounded; y is unbounded.
    Func src("src");
    Var x("x"), y("y");
    src(x, y) = x * 3 + y;
    Func f = BoundaryConditions::repeat_edge(src, {{0, 10}, Range()});
    Buffer<int32_t> out(30, 5);
    out.set_min(-10, -2);
    f.realize(out);
    out.for_each_element([&](int xx, int yy) {
        ASSERT_EQ(out(xx, yy), clampi(xx, 0, 9) * 3 + yy) << xx << ", " << yy;
    });
}

TEST(BoundaryConditions, ImageParamSource) {
    Buffer<int32_t> in = make_input();
    ImageParam p(Int(32), 2, "p");
    p.set(in);
    Func f = BoundaryConditions::mirror_image(p);
    check(
        f, [&](int x, int y) { return in(mirror_image_ref(x, 2, W), mirror_image_ref(y, -3, H)); },
        -14, -10);
}
