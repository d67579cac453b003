// The loop builder's split/rename/fuse hooks (the scheduling language will drive them), set
// directly on the StageSchedule here, against naive loops.
#include <loom/loom.h>

#include "lang/function.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {

Dim dim(const std::string &v, ForType t = ForType::Serial) {
    Dim d;
    d.var = v;
    d.for_type = t;
    return d;
}

void split(Function f, int stage, const std::string &old, const std::string &outer,
           const std::string &inner, int factor, TailStrategy tail = TailStrategy::Auto) {
    Definition &def = stage == 0 ? f.definition() : f.updates()[stage - 1];
    Split s;
    s.kind = Split::SplitVar;
    s.old_var = old;
    s.outer = outer;
    s.inner = inner;
    s.factor = factor;
    s.tail = tail;
    def.schedule.splits.push_back(s);
    // Replace old by inner, outer in the loop list (innermost first).
    auto &dims = def.schedule.dims;
    for (size_t i = 0; i < dims.size(); i++) {
        if (dims[i].var == old) {
            Dim in = dims[i], out = dims[i];
            in.var = inner;
            out.var = outer;
            dims[i] = in;
            dims.insert(dims.begin() + i + 1, out);
            break;
        }
    }
    f.touch();
}

} // namespace

TEST(SplitHooks, ShiftInwardsOutputNotAMultiple) {
    Func f("split_out");
    Var x("x"), y("y");
    f(x, y) = x * 3 + y;
    split(f.function(), 0, "x", "xo", "xi", 4);
    Buffer<int32_t> out = f.realize({10, 3});
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 10; i++) EXPECT_EQ(out(i, j), i * 3 + j);
}

TEST(SplitHooks, RoundUpProducerAndGuardedUpdate) {
    Func p("p"), out("split_cons");
    Var x("x");
    p(x) = x * x;
    p.compute_root();
    split(p.function(), 0, "x", "xo", "xi", 8, TailStrategy::RoundUp);
    out(x) = p(x) + p(x + 1);
    RDom r(0, 13);
    out(r) += 1;
    split(out.function(), 1, r.x.name(), "ro", "ri", 5); // GuardWithIf for RVars
    Buffer<int32_t> o = out.realize({13});
    for (int i = 0; i < 13; i++) EXPECT_EQ(o(i), i * i + (i + 1) * (i + 1) + 1) << i;
}

TEST(SplitHooks, FuseTwoDimensions) {
    Func f("fused");
    Var x("x"), y("y");
    f(x, y) = x + 100 * y;
    Definition &def = f.function().definition();
    Split s;
    s.kind = Split::FuseVars;
    s.inner = "x";
    s.outer = "y";
    s.old_var = "xy";
    def.schedule.splits.push_back(s);
    def.schedule.dims = {dim("xy"), dim("__outermost")};
    f.function().touch();
    Buffer<int32_t> out = f.realize({7, 4});
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 7; i++) EXPECT_EQ(out(i, j), i + 100 * j);
}

TEST(ScheduleHooks, ComputeAtConsumerRow) {
    // blur_x computed per row of blur_y (compute_at(blur_y, y)): 3 rows of blur_x each time.
    Buffer<int32_t> in(12, 10);
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 12; i++) in(i, j) = i * 7 + j * 3;
    Func bx("bx"), by("by");
    Var x("x"), y("y");
    bx(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
    by(x, y) = bx(x, y) + bx(x, y + 1) + bx(x, y + 2);
    LoopLevelSpec at;
    at.kind = LoopLevelSpec::At;
    at.func = "by";
    at.var = "y";
    bx.function().schedule().compute_level = at;
    bx.function().schedule().store_level = at;
    bx.function().touch();
    Buffer<int32_t> out = by.realize({10, 8});
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 10; i++) {
            int e = 0;
            for (int dy = 0; dy < 3; dy++)
                for (int dx = 0; dx < 3; dx++) e += in(i + dx, j + dy);
            ASSERT_EQ(out(i, j), e) << i << ", " << j;
        }
}
