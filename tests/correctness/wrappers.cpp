// Wrappers: f.in(g), f.in({g, h}), f.in(), f.clone_in(g) and ImageParam::in(): each gives the
// same values as naive loops while the wrapper is scheduled on its own, and the loop nest shows
// the wrapper Funcs under Halide's names.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "lang/function.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

using namespace loom;

namespace {

std::string loop_nest(Func f) {
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    f.print_loop_nest();
    std::cerr.rdbuf(old);
    return captured.str();
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

int32_t fval(int x, int y) { return x + y * 3; }

/// out = g + h, both reading f.
struct TwoCallers {
    Var x{"x"}, y{"y"};
    Func f, g, h, out;
    explicit TwoCallers(const std::string &p) : f(p + "f"), g(p + "g"), h(p + "h"), out(p + "out") {
        f(x, y) = x + y * 3;
        g(x, y) = f(x, y) * 2 + f(x + 1, y);
        h(x, y) = f(x, y) + 1;
        out(x, y) = g(x, y) + h(x, y);
    }
    void check(int w, int ht) {
        Buffer<int32_t> r = out.realize({w, ht});
        for (int j = 0; j < ht; j++)
            for (int i = 0; i < w; i++)
                ASSERT_EQ(r(i, j), fval(i, j) * 2 + fval(i + 1, j) + fval(i, j) + 1)
                    << i << ", " << j;
    }
};

} // namespace

TEST(Wrappers, InOneCallerScheduledDifferently) {
    TwoCallers p("wa_");
    p.f.compute_root();
    p.g.compute_root();
    Func w = p.f.in(p.g);
    EXPECT_EQ(w.name(), "wa_f_in_wa_g");
    // The same wrapper every time.
    EXPECT_TRUE(p.f.in(p.g).function().same_as(w.function()));
    w.compute_at(p.g, p.y).vectorize(p.x, 4);
    p.check(17, 6);
    std::string nest = loop_nest(p.out);
    EXPECT_TRUE(contains(nest, "produce wa_f:")) << nest;
    EXPECT_TRUE(contains(nest, "for y:\n      produce wa_f_in_wa_g:")) << nest;
    EXPECT_TRUE(contains(nest, "vectorized")) << nest;
}

TEST(Wrappers, InForAllCallers) {
    TwoCallers p("wb_");
    Func w = p.f.in();
    EXPECT_EQ(w.name(), "wb_f_global_wrapper");
    w.compute_root();
    p.check(9, 4);
    std::string nest = loop_nest(p.out);
    EXPECT_TRUE(contains(nest, "produce wb_f_global_wrapper:")) << nest;
    // f itself is inlined into its wrapper.
    EXPECT_FALSE(contains(nest, "produce wb_f:")) << nest;
}

TEST(Wrappers, InAListOfCallers) {
    TwoCallers p("wc_");
    Func w = p.f.in({p.g, p.h});
    EXPECT_EQ(w.name(), "wc_f_wrapper");
    w.compute_root();
    p.g.compute_root();
    p.check(8, 5);
    std::string nest = loop_nest(p.out);
    EXPECT_TRUE(contains(nest, "produce wc_f_wrapper:")) << nest;
}

TEST(Wrappers, CloneInOneCaller) {
    TwoCallers p("wd_");
    p.f.compute_root();
    Func c = p.f.clone_in(p.h);
    EXPECT_EQ(c.name(), "wd_f_clone_in_wd_h");
    p.check(10, 3);
    std::string nest = loop_nest(p.out);
    // Two separate computations: f (for g) and its clone (for h), both at the root.
    EXPECT_TRUE(contains(nest, "produce wd_f:")) << nest;
    EXPECT_TRUE(contains(nest, "produce wd_f_clone_in_wd_h:")) << nest;
    // The clone took f's schedule as it was; scheduling it now changes only the clone.
    c.compute_at(p.out, p.y);
    p.check(10, 3);
    nest = loop_nest(p.out);
    EXPECT_TRUE(contains(nest, "for y:\n      produce wd_f_clone_in_wd_h:")) << nest;
}

TEST(Wrappers, CloneOfAnUpdatedFunc) {
    Var x("x");
    Func f("we_f"), g("we_g"), h("we_h"), out("we_out");
    RDom r(0, 4);
    f(x) = x;
    f(x) += r * 10;
    g(x) = f(x) + 1;
    h(x) = f(x) * 2;
    out(x) = g(x) + h(x);
    f.compute_root();
    f.clone_in(g).compute_at(out, x);
    Buffer<int32_t> res = out.realize({7});
    for (int i = 0; i < 7; i++) EXPECT_EQ(res(i), (i + 60) + 1 + (i + 60) * 2);
}

TEST(Wrappers, ImageParamInAtATile) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    ImageParam im(Int(32), 2, "wf_im");
    Func out("wf_out");
    out(x, y) = im(x, y) * 2 + im(x + 1, y);
    Func w = im.in();
    EXPECT_EQ(w.name(), "wf_im_im_global_wrapper");
    out.tile(x, y, xi, yi, 8, 4);
    w.compute_at(out, x);
    // The input region is exactly what the tiles read: the per-tile staging region of a
    // ShiftInwards split must not decorrelate into a wider root-level requirement.
    out.infer_input_bounds({32, 12});
    Buffer<int32_t> in = im.get();
    ASSERT_TRUE(in.defined());
    EXPECT_EQ(in.dim(0).min(), 0);
    EXPECT_EQ(in.dim(0).extent(), 33);
    EXPECT_EQ(in.dim(1).min(), 0);
    EXPECT_EQ(in.dim(1).extent(), 12);
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 33; i++) in(i, j) = i * 5 - j * 7;
    Buffer<int32_t> res = out.realize({32, 12});
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 32; i++) ASSERT_EQ(res(i, j), in(i, j) * 2 + in(i + 1, j));
    std::string nest = loop_nest(out);
    EXPECT_TRUE(contains(nest, "for x.x:\n      produce wf_im_im_global_wrapper:")) << nest;
}

TEST(Wrappers, ImageParamInOneCaller) {
    Var x("x");
    ImageParam im(Int(32), 1, "wg_im");
    Func a("wg_a"), b("wg_b");
    a(x) = im(x) + 1;
    b(x) = a(x) + im(x) * 3;
    Func w = im.in(a);
    EXPECT_EQ(w.name(), "wg_im_im_in_wg_a");
    w.compute_root();
    Buffer<int32_t> in(10);
    for (int i = 0; i < 10; i++) in(i) = i * i;
    im.set(in);
    Buffer<int32_t> res = b.realize({10});
    for (int i = 0; i < 10; i++) EXPECT_EQ(res(i), in(i) + 1 + in(i)*3);
    std::string nest = loop_nest(b);
    EXPECT_TRUE(contains(nest, "produce wg_im_im_in_wg_a:")) << nest;
}
