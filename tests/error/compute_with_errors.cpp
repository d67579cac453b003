// Illegal compute_with schedules are CompileErrors that name both stages (and the loop) and say
// what would be legal. Most are found at lowering, when the whole pipeline is known.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {

struct Pair {
    Var x{"x"}, y{"y"};
    Func f{"ce_f"}, g{"ce_g"}, out{"ce_out"};
    /// g reads f when `dependent`.
    explicit Pair(bool dependent = false) {
        f(x, y) = x + y;
        if (dependent) {
            g(x, y) = f(x + 1, y) * 2;
        } else {
            g(x, y) = x - y;
        }
        out(x, y) = f(x, y) + g(x, y);
        f.compute_root();
        g.compute_root();
    }
    void realize() { out.realize({8, 8}); }
};

} // namespace

TEST(ComputeWithErrors, ScheduleTime) {
    Pair p;
    expect_error([&] { p.g.compute_with(p.g, p.x); }, {"ce_g", "computed with itself"});
    expect_error([&] { p.g.compute_with(LoopLevel::root()); },
                 {"ce_g", "compute_with(root)", "needs a loop of another stage"});
    Stage special = p.g.specialize(Param<bool>("ce_flag") == true);
    expect_error([&] { special.compute_with(p.f, p.y); }, {"ce_g", "specialization"});
    Func ext("ce_ext");
    ext.define_extern("ce_extern_fn", {}, Int(32), 2);
    expect_error([&] { ext.compute_with(p.f, p.y); }, {"ce_ext", "extern"});
}

TEST(ComputeWithErrors, ReaderComputedWithWhatItReads) {
    {
        Pair p(true);
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); },
                     {"ce_g reads ce_f", "ce_g.compute_with(ce_f, x)", "must not depend"});
    }
    {
        // Through another Func: ce_q would have to run between them.
        Var x("x");
        Func f("ce2_f"), q("ce2_q"), g("ce2_g"), out("ce2_out");
        f(x) = x;
        q(x) = f(x) + 1;
        g(x) = q(x) * 2;
        out(x) = f(x) + g(x);
        f.compute_root();
        q.compute_root();
        g.compute_root();
        g.compute_with(f, x);
        expect_error([&] { out.realize({8}); },
                     {"ce2_g reads ce2_q, which reads ce2_f", "ce2_g.compute_with(ce2_f, x)"});
    }
}

TEST(ComputeWithErrors, PlacementsDiffer) {
    {
        Pair p;
        p.g.compute_at(p.out, p.y);
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); },
                     {"ce_g is computed at ce_out.y but ce_f at root", "same level"});
    }
    {
        Pair p;
        p.g.compute_inline();
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); }, {"ce_g with ce_f", "ce_g is inlined", "compute_root"});
    }
    {
        // An unscheduled reduction has no compute level of its own.
        Var x("x");
        RDom r(0, 3, "r");
        Func f("ce3_f"), s("ce3_s"), out("ce3_out");
        f(x) = x;
        s(x) = 0;
        s(x) += r;
        out(x) = f(x) + s(x);
        f.compute_root();
        s.compute_with(f, x);
        expect_error([&] { out.realize({4}); }, {"ce3_s", "ce3_f", "no compute level"});
    }
    {
        Pair p;
        p.g.memoize();
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); }, {"ce_g with ce_f", "memoized"});
    }
    {
        Pair p;
        p.g.async();
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); }, {"ce_g with ce_f", "async"});
    }
    {
        Pair p;
        p.g.specialize(Param<bool>("ce_flag2") == true);
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); }, {"ce_g with ce_f", "specializations"});
    }
    {
        // The parent is not part of the pipeline.
        Pair p;
        Func lone("ce_lone");
        lone(p.x, p.y) = p.x;
        p.g.compute_with(lone, p.x);
        expect_error([&] { p.realize(); }, {"ce_g is computed with ce_lone", "does not compute"});
    }
}

TEST(ComputeWithErrors, LoopsDoNotMatch) {
    Var xo("xo"), xi("xi");
    {
        Pair p;
        p.f.split(p.x, xo, xi, 4);
        p.g.compute_with(p.f, xo);
        expect_error([&] { p.realize(); }, {"ce_g is computed with ce_f down to the loop xo",
                                            "ce_g has no loop xo", "y, x.xo, x.xi"});
    }
    {
        Pair p;
        p.g.compute_with(p.f, Var("z"));
        expect_error([&] { p.realize(); }, {"ce_f has no loop z", "y, x"});
    }
    {
        Pair p;
        p.f.reorder(p.y, p.x);
        p.g.compute_with(p.f, p.x);
        expect_error([&] { p.realize(); },
                     {"ce_g is computed with ce_f down to x", "their loops from x outwards differ",
                      "x in ce_f", "x, y in ce_g"});
    }
    {
        Pair p;
        p.f.parallel(p.y);
        p.g.compute_with(p.f, p.y);
        expect_error([&] { p.realize(); },
                     {"the loop y is parallel in ce_f and serial in ce_g", "same kind"});
    }
}

TEST(ComputeWithErrors, CyclesAndStageOrder) {
    {
        Pair p;
        p.g.compute_with(p.f, p.y);
        p.f.compute_with(p.g, p.y);
        expect_error([&] { p.realize(); }, {"cycle", "ce_g with ce_f"});
    }
    {
        // f's first stage with g's update and f's update with g's first stage: no order runs
        // both Funcs' stages in order (Halide's "impossible to establish correct stage order").
        Var x("x"), y("y");
        Func f("co_f"), g("co_g"), out("co_out");
        f(x, y) = x;
        f(x, y) += 1;
        g(x, y) = y;
        g(x, y) += 2;
        out(x, y) = f(x, y) + g(x, y);
        f.compute_root();
        g.compute_root();
        f.compute_with(g.update(), y);
        f.update().compute_with(g, y);
        expect_error(
            [&] {
                out.realize({4, 4});
            },
            {"no order of the stages", "co_f with co_g.update(0)", "co_f.update(0) with co_g"});
    }
}

TEST(ComputeWithErrors, GroupsReadingEachOther) {
    // No member of either group reads another member, but (a, b) must come before (c, d)
    // (c reads a) and after it (b reads d).
    Var x("x");
    Func a("gr_a"), b("gr_b"), c("gr_c"), d("gr_d"), out("gr_out");
    a(x) = x;
    d(x) = x * 2;
    c(x) = a(x) + 1;
    b(x) = d(x) + 1;
    out(x) = a(x) + b(x) + c(x) + d(x);
    for (Func *f : {&a, &b, &c, &d}) f->compute_root();
    b.compute_with(a, x);
    d.compute_with(c, x);
    expect_error([&] { out.realize({4}); },
                 {"(gr_a, gr_b)", "(gr_c, gr_d)", "read each other's results"});
}

TEST(ComputeWithErrors, StagesOfOneFunc) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    {
        // The update reads the previous row, which a fused y loop has already updated.
        Func f("so_f");
        f(x, y) = x + y;
        f(x, y) += f(x, max(y - 1, 0));
        f.update().compute_with(f, y);
        expect_error(
            [&] {
                f.realize({4, 4});
            },
            {"so_f and so_f.update(0)", "two stages of so_f", "share the loop over y"});
    }
    {
        // Split loops: each iteration covers other rows in each stage.
        Func f("so2_f");
        f(x, y) = x + y;
        f(x, y) += 1;
        f.split(y, yo, yi, 2);
        f.update().split(y, yo, yi, 4);
        f.update().compute_with(f, yo);
        expect_error([&] { f.realize({4, 4}); }, {"so2_f.update(0)", "share the loop over y.yo"});
    }
    {
        // Two stages of f through g with an alignment shift.
        Func f("so3_f"), g("so3_g"), out("so3_out");
        f(x, y) = x + y;
        f(x, y) += 1;
        g(x, y) = x;
        out(x, y) = f(x, y) + g(x, y + 1);
        f.compute_root();
        g.compute_root();
        f.compute_with(g, y, LoopAlignStrategy::AlignStart);
        f.update().compute_with(g, y, LoopAlignStrategy::AlignStart);
        expect_error([&] { out.realize({4, 4}); }, {"so3_f", "so3_f.update(0)", "NoAlign"});
    }
}
