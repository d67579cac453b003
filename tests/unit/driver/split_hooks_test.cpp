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
