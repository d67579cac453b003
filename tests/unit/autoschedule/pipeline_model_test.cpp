// The autoschedulers' PipelineModel: concrete regions from the estimates, per-stage costs and
// symbolic reads, and the regions a tile needs, checked against values worked out by hand.
#include <loom/loom.h>

#include "autoschedule/common/pipeline_model.h"
#include "ir/ir.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {

void expect_box(const ConcreteBox &b, std::vector<std::pair<int64_t, int64_t>> expected) {
    ASSERT_EQ(b.size(), expected.size());
    for (size_t d = 0; d < b.size(); d++) {
        EXPECT_EQ(b[d].min, expected[d].first) << "dimension " << d;
        EXPECT_EQ(b[d].max, expected[d].second) << "dimension " << d;
    }
}

} // namespace

TEST(PipelineModel, RegionsAndCostsOfAStencil) {
    ImageParam in(Float(32), 1, "in");
    Func f("f"), out("out");
    Var x("x");
    f(x) = in(x)*2.0f;
    out(x) = f(x - 1) + f(x + 1);
    out.set_estimate(x, 0, 100);
    PipelineModel m({out.function()}, Target("x86-64-linux-avx2"));
    expect_box(m.region.at(out.name()), {{0, 99}});
    expect_box(m.region.at(f.name()), {{-1, 100}});
    expect_box(m.region.at("in"), {{-1, 100}});
    EXPECT_TRUE(m.is_input("in"));
    EXPECT_TRUE(m.is_output(out.name()));
    EXPECT_FALSE(m.is_output(f.name()));
    EXPECT_EQ(m.bytes_per_point.at(f.name()), 4);

    const StageModel &s = m.stages.at(out.name())[0];
    EXPECT_EQ(s.arith, 3); // the addition and the two index computations (x - 1, x + 1)
    EXPECT_EQ(s.loads.at(f.name()), 2);
    EXPECT_EQ(s.points(m.region.at(out.name())), 100);
    const StageModel &sf = m.stages.at(f.name())[0];
    EXPECT_EQ(sf.arith, 1); // one multiplication
    EXPECT_EQ(sf.loads.at("in"), 1);

    // A tile of out [10, 19] needs f over [9, 20], and so in over [9, 20].
    auto regions = m.regions_required(out.name(), {{10, 19}},
                                      [&](const std::string &g) { return g == f.name(); });
    expect_box(regions.at(f.name()), {{9, 20}});
    expect_box(regions.at("in"), {{9, 20}});
    // Without expanding f, only f's region is derived.
    regions = m.regions_required(out.name(), {{10, 19}}, [](const std::string &) { return false; });
    EXPECT_EQ(regions.count("in"), 0u);
}

TEST(PipelineModel, ReductionsUseParamEstimates) {
    ImageParam a(Float(32), 2, "a");
    Param<int> n("n");
    n.set_estimate(32);
    a.set_estimates({{0, 32}, {0, 64}});
    Func s("s");
    Var x("x");
    RDom r(0, n, "r");
    s(x) = 0.0f;
    s(x) += a(r, x) * a(r, x);
    s.set_estimate(x, 0, 64);
    PipelineModel m({s.function()}, Target("x86-64-linux-avx2"));
    const StageModel &u = m.stages.at(s.name())[1];
    ASSERT_EQ(u.rvars.size(), 1u);
    EXPECT_EQ(u.rvar_spans[0].min, 0);
    EXPECT_EQ(u.rvar_spans[0].max, 31);
    EXPECT_EQ(u.points(m.region.at(s.name())), 64 * 32);
    EXPECT_EQ(u.loads.at("a"), 2); // the self-read of s is not a load of another Func
    EXPECT_EQ(u.loads.count(s.name()), 0u);
    expect_box(m.region.at("a"), {{0, 31}, {0, 63}});
}

TEST(PipelineModel, DataDependentReadsUseTheCalleesEstimates) {
    ImageParam idx(UInt(8), 1, "idx");
    idx.set_estimates({{0, 50}});
    Func lut("lut"), out("out");
    Var x("x"), i("i");
    lut(i) = i * i;
    // A uint8 index bounds the read by its type: [0, 255].
    out(x) = lut(idx(x));
    out.set_estimate(x, 0, 50);
    PipelineModel m({out.function()}, Target("x86-64-linux-avx2"));
    expect_box(m.region.at(lut.name()), {{0, 255}});
}

TEST(PipelineModel, EvaluateIntegerIsTheIRsArithmetic) {
    Expr a = Variable::make(Int(32), "a"), b = Variable::make(Int(32), "b");
    int64_t v = 0;
    ASSERT_TRUE(evaluate_integer(a / 2 + b % 3, {{"a", -7}, {"b", -1}}, &v));
    EXPECT_EQ(v, -4 + 2); // Euclidean: -7 / 2 == -4, -1 % 3 == 2
    ASSERT_TRUE(evaluate_integer(min(a, b) * 3, {{"a", 4}, {"b", 9}}, &v));
    EXPECT_EQ(v, 12);
    ASSERT_TRUE(evaluate_integer(select(a > b, a, b), {{"a", 4}, {"b", 9}}, &v));
    EXPECT_EQ(v, 9);
    EXPECT_FALSE(evaluate_integer(a + b, {{"a", 1}}, &v));
}
