// Func names and Pipeline::get_func's order as Halide 21 gives them (built against both
// libraries): a name shaped like an anonymous one (a character, then digits) always gets a "$N"
// suffix, a reused name gets one from the second use, boundary conditions are Funcs named after the
// condition, and get_func counts Funcs depth first from the outputs, visiting callees in name
// order. Autoscheduler-written schedule source relies on all of them to name the same Funcs in
// both.
#include "Halide.h"

#include <gtest/gtest.h>

#include <set>

using namespace Halide;

TEST(HalideFuncNames, SuffixesAndBoundaryConditions) {
    // Names not used elsewhere in this process.
    Func a("q7"), b("q7"), c("name_test9"), d("name_test9");
    EXPECT_EQ(a.name(), "q7$0");
    EXPECT_EQ(b.name(), "q7$1");
    EXPECT_EQ(c.name(), "name_test9");
    EXPECT_EQ(d.name(), "name_test9$1");
    ImageParam in(UInt(8), 2, "names_in");
    EXPECT_EQ(BoundaryConditions::repeat_edge(in).name(), "repeat_edge");
    EXPECT_EQ(BoundaryConditions::constant_exterior(in, 0).name(), "constant_exterior");
}

TEST(HalideFuncNames, GetFuncOrder) {
    Func a("order_a"), b("order_b"), c("order_c"), out("order_out");
    Var x("x");
    a(x) = x;
    c(x) = a(x) * 2;
    b(x) = a(x) + 1;
    out(x) = c(x) + b(x);
    Pipeline p(out);
    // From out, callees in name order: order_b (and order_a through it), then order_c.
    EXPECT_EQ(p.get_func(0).name(), "order_a");
    EXPECT_EQ(p.get_func(1).name(), "order_b");
    EXPECT_EQ(p.get_func(2).name(), "order_c");
    EXPECT_EQ(p.get_func(3).name(), "order_out");
}

TEST(HalideFuncNames, InlineReductions) {
    // An inline reduction's Func is named after it, made unique like any named Func (the
    // autoschedulers' source finds Funcs by these names).
    Var x("x");
    RDom r(0, 3);
    Func in("inline_reduction_in");
    in(x) = x % 5;
    Func out("inline_reduction_out");
    out(x) = argmin(in(x + r))[0] + argmin(in(x * 2 + r))[0] + minimum(in(x - r));
    Pipeline p(out);
    std::set<std::string> names;
    for (int i = 0; i < 5; i++) names.insert(p.get_func(i).name());
    EXPECT_EQ(names,
              (std::set<std::string>{"argmin", "argmin$1", "minimum", in.name(), out.name()}));
}

TEST(HalideFuncNames, ImageParamAsFunc) {
    // An ImageParam used as a Func is the Func "<name>_im" (one per ImageParam), with Func's
    // suffix rule when that name is taken.
    ImageParam a(Float(32), 2, "names_image"), b(Float(32), 2, "names_image");
    Func fa = a, fb = b;
    EXPECT_EQ(fa.name(), "names_image_im");
    EXPECT_EQ(Func(a).name(), fa.name());
    EXPECT_EQ(fb.name(), "names_image_im$1");
}
