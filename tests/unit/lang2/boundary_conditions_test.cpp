// Boundary conditions, checked symbolically: the definition each one builds is evaluated at
// many coordinates inside and outside the bounds (with the test interpreter of test_eval.h)
// and compared with naive C++ definitions of the conditions. Reads of a Buffer outside its
// shape fail the interpreter, so these also show the conditions never read out of bounds.
#include <loom/boundary_conditions.h>
#include <loom/buffer.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/ir_operator.h>
#include <loom/var.h>

#include "test_eval.h"

#include "common/boundary_reference.h"

#include <gtest/gtest.h>

#include <functional>

using namespace loom;
using namespace loom_test;
using lang2_test::Evaluator;

namespace {

/// The value of f at the given coordinates, by evaluating its pure definition.
int64_t value_at(const Func &f, const std::vector<int> &coords, int index = 0) {
    internal::Function fn = f.function();
    Evaluator ev;
    for (size_t i = 0; i < coords.size(); i++) ev.env[fn.args()[i]] = coords[i];
    return ev.eval(fn.definition().values[index]);
}

using Condition = Func (*)(const Func &, const Region &);
using Reference = int (*)(int, int, int);

struct Case {
    const char *name;
    Condition condition;
    Reference ref;
};

const Case cases[] = {
    {"repeat_edge", BoundaryConditions::repeat_edge, repeat_edge_ref},
    {"repeat_image", BoundaryConditions::repeat_image, repeat_image_ref},
    {"mirror_image", BoundaryConditions::mirror_image, mirror_image_ref},
    {"mirror_interior", BoundaryConditions::mirror_interior, mirror_interior_ref},
};

} // namespace

TEST(BoundaryConditions, OneDimensionalFuncSourcesMatchTheReferences) {
    Var x("x");
    Func src("src1");
    src(x) = x * 10 + 3;
    for (const Case &c : cases) {
        for (int mn : {-4, 0, 7}) {
            for (int ext : {1, 2, 5, 10}) {
                Func f = c.condition(src, {{mn, ext}});
                for (int v = mn - 3 * ext - 5; v <= mn + 4 * ext + 5; v++) {
                    ASSERT_EQ(value_at(f, {v}), c.ref(v, mn, ext) * 10 + 3)
                        << c.name << " over [" << mn << ", +" << ext << ") at " << v;
                }
            }
        }
    }
}

TEST(BoundaryConditions, RepeatEdgeCoordinatesSimplifyToTheEdges) {
    // The brief's example: repeat_edge over [0, 10) reads 0 at x = -3 and 9 at x = 12.
    Var x("x");
    Func src("src_edges");
    src(x) = x;
    Func f = BoundaryConditions::repeat_edge(src, {{0, 10}});
    EXPECT_EQ(value_at(f, {-3}), 0);
    EXPECT_EQ(value_at(f, {12}), 9);
    EXPECT_EQ(value_at(f, {4}), 4);
    // The clamp marks the in-bounds case as likely (for loop partitioning).
    const internal::Call *call = f.function().definition().values[0].as<internal::Call>();
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->name, "src_edges");
    bool has_likely = false;
    Expr arg = call->args[0];
    std::function<void(const Expr &)> find = [&](const Expr &e) {
        if (const internal::Call *c = e.as<internal::Call>()) {
            if (c->is_intrinsic(internal::Call::likely)) has_likely = true;
            for (const Expr &a : c->args) find(a);
        } else if (const internal::Min *m = e.as<internal::Min>()) {
            find(m->a);
            find(m->b);
        } else if (const internal::Max *m = e.as<internal::Max>()) {
            find(m->a);
            find(m->b);
        }
    };
    find(arg);
    EXPECT_TRUE(has_likely) << arg;
}

TEST(BoundaryConditions, BufferSourcesUseTheBufferShape) {
    Buffer<int32_t> in(std::vector<int>{7, 5}, "bc_in");
    in.set_min(2, -3);
    in.for_each_element([&](int x, int y) { in(x, y) = x * 100 + y * 7 + 5; });
    for (const Case &c : cases) {
        Func f;
        std::string name = c.name;
        if (name == "repeat_edge") f = BoundaryConditions::repeat_edge(in);
        if (name == "repeat_image") f = BoundaryConditions::repeat_image(in);
        if (name == "mirror_image") f = BoundaryConditions::mirror_image(in);
        if (name == "mirror_interior") f = BoundaryConditions::mirror_interior(in);
        EXPECT_EQ(f.dimensions(), 2);
        for (int y = -15; y < 15; y++) {
            for (int x = -12; x < 25; x++) {
                int ex = c.ref(x, 2, 7), ey = c.ref(y, -3, 5);
                ASSERT_EQ(value_at(f, {x, y}), in(ex, ey)) << c.name << " at " << x << ", " << y;
            }
        }
    }
}

TEST(BoundaryConditions, ConstantExteriorOverABuffer) {
    Buffer<int32_t> in(std::vector<int>{6, 4}, "ce_in");
    in.set_min(-1, 3);
    in.for_each_element([&](int x, int y) { in(x, y) = x * 10 + y; });
    Func f = BoundaryConditions::constant_exterior(in, -42);
    for (int y = -2; y < 12; y++) {
        for (int x = -8; x < 10; x++) {
            bool inside = x >= -1 && x < 5 && y >= 3 && y < 7;
            ASSERT_EQ(value_at(f, {x, y}), inside ? in(x, y) : -42) << x << ", " << y;
        }
    }
    // With explicit (min, extent) pairs, narrower than the buffer.
    Func g = BoundaryConditions::constant_exterior(in, 7, 0, 3, 4, 2);
    for (int y = 0; y < 10; y++) {
        for (int x = -3; x < 6; x++) {
            bool inside = x >= 0 && x < 3 && y >= 4 && y < 6;
            ASSERT_EQ(value_at(g, {x, y}), inside ? in(x, y) : 7) << x << ", " << y;
        }
    }
}

TEST(BoundaryConditions, ImageParamSourcesAreBoundedByTheirSymbolicShape) {
    Buffer<int32_t> in(std::vector<int>{9}, "ip_data");
    in.for_each_element([&](int x) { in(x) = x * x; });
    ImageParam p(Int(32), 1, "bc_param");
    p.set(in);
    Func f = BoundaryConditions::mirror_interior(p);
    // The bounds are the param's shape variables; bind them as lowering would.
    internal::Function fn = f.function();
    Evaluator ev;
    ev.env["bc_param.min.0"] = 0;
    ev.env["bc_param.extent.0"] = 9;
    for (int x = -20; x < 30; x++) {
        ev.env[fn.args()[0]] = x;
        ASSERT_EQ(ev.eval(fn.definition().values[0]), in(mirror_interior_ref(x, 0, 9))) << x;
    }
    // Explicit pairs with an ImageParam source.
    Func g = BoundaryConditions::repeat_edge(p, 2, 3);
    for (int x = -5; x < 10; x++) EXPECT_EQ(value_at(g, {x}), in(clampi(x, 2, 4))) << x;
}

TEST(BoundaryConditions, UndefinedRangesAndMissingBoundsAreUnbounded) {
    Var x("x"), y("y"), z("z");
    Func src("src3");
    src(x, y, z) = x * 10000 + y * 100 + z;
    // y unbounded (undefined Range), z unbounded (past the end of the region).
    Func f = BoundaryConditions::repeat_image(src, {{0, 4}, Range()});
    for (int xx = -6; xx < 9; xx += 1) {
        for (int yy : {-50, -1, 0, 17}) {
            for (int zz : {-9, 3}) {
                ASSERT_EQ(value_at(f, {xx, yy, zz}), euclidean_mod(xx, 4) * 10000 + yy * 100 + zz);
            }
        }
    }
    Func g = BoundaryConditions::constant_exterior(src, 5, {Range(), {1, 2}});
    EXPECT_EQ(value_at(g, {-100, 1, 50}), -100 * 10000 + 100 + 50);
    EXPECT_EQ(value_at(g, {-100, 3, 50}), 5);
    EXPECT_EQ(value_at(g, {-100, 0, 50}), 5);
    // The new Func has the source's args and, as in Halide, the condition's name.
    EXPECT_EQ(f.dimensions(), 3);
    EXPECT_EQ(f.args()[0].name(), "x");
    EXPECT_EQ(f.name().substr(0, std::string("repeat_image").size()), "repeat_image");
    EXPECT_EQ(g.name().substr(0, std::string("constant_exterior").size()), "constant_exterior");
    Func h = BoundaryConditions::repeat_image(src, {{0, 4}, Range()});
    EXPECT_NE(h.name(), f.name());
}

TEST(BoundaryConditions, TupleValuedSources) {
    Var x("x");
    Func src("pair");
    src(x) = Tuple(x, x * 2);
    Func f = BoundaryConditions::constant_exterior(src, Tuple(-1, -2), {{0, 3}});
    EXPECT_EQ(f.outputs(), 2);
    for (int v = -4; v < 8; v++) {
        bool inside = v >= 0 && v < 3;
        EXPECT_EQ(value_at(f, {v}, 0), inside ? v : -1) << v;
        EXPECT_EQ(value_at(f, {v}, 1), inside ? 2 * v : -2) << v;
    }
    Func g = BoundaryConditions::repeat_edge(src, {{0, 3}});
    EXPECT_EQ(g.outputs(), 2);
    EXPECT_EQ(value_at(g, {-7}, 1), 0);
    EXPECT_EQ(value_at(g, {9}, 1), 4);
    // The exterior Tuple must have one value per output.
    EXPECT_THROW(BoundaryConditions::constant_exterior(src, 0, {{0, 3}}), CompileError);
}

TEST(BoundaryConditions, BadRegionsAreCompileErrors) {
    Var x("x");
    Func src("bad_src");
    src(x) = x;
    try {
        BoundaryConditions::repeat_edge(src, {Range(0, Expr())});
        FAIL() << "no error";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("bad_src"), std::string::npos) << e.what();
    }
    try {
        BoundaryConditions::mirror_image(src, {{0, 3}, {0, 3}});
        FAIL() << "no error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("bad_src"), std::string::npos) << msg;
        EXPECT_NE(msg.find("2 bounds"), std::string::npos) << msg;
    }
    Func undefined("undefined_src");
    EXPECT_THROW(BoundaryConditions::repeat_edge(undefined, {{0, 3}}), CompileError);
}
