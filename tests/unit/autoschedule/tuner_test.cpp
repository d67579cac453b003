// The measured tuner (common/tuner.h) with a scripted timer: it keeps the fastest candidate
// that ran, skips repeated schedules and failures, times at the estimated shapes, and without
// a timer or budget applies the first candidate untimed. Also PolyMage's redundant-work
// measure (common/grouping.h), checked against a count by hand.
#include <loom/loom.h>

#include "autoschedule/common/grouping.h"
#include "autoschedule/common/tuner.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {

struct Stencil {
    ImageParam in{Float(32), 1, "in"};
    Func f{"f"}, out{"out"};
    Var x{"x"};
    Stencil() {
        f(x) = in(x)*2.0f;
        out(x) = f(x - 1) + f(x + 1);
        out.set_estimate(x, 0, 100);
    }
};

} // namespace

TEST(Tuner, KeepsTheFastestCandidateThatRan) {
    Stencil s;
    PipelineModel model({s.out.function()}, Target("x86-64-linux-avx2"));
    std::vector<std::string> applied;
    auto candidate = [&](const std::string &label, const std::string &source) {
        return TuningCandidate{label, [&applied, label, source] {
                                   applied.push_back(label);
                                   return source;
                               }};
    };
    // Times by the schedule last applied: b is fastest, c repeats a's source, d fails.
    std::map<std::string, double> times = {{"a", 3}, {"b", 1}, {"d", -1}, {"e", 2}};
    BufferShapes seen;
    ScheduleTimer timer = [&](const BufferShapes &shapes) {
        seen = shapes;
        return times.at(applied.back());
    };
    const std::string source = tune({candidate("a", "A"), candidate("b", "B"), candidate("c", "A"),
                                     candidate("d", "D"), candidate("e", "E")},
                                    model, timer, 60, "test");
    EXPECT_EQ(source, "B");
    EXPECT_EQ(applied, (std::vector<std::string>{"a", "b", "c", "d", "e", "b"}));
    // The timer ran the output and the input at their estimated regions.
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen.at(s.out.name()), (std::vector<std::pair<int64_t, int64_t>>{{0, 100}}));
    EXPECT_EQ(seen.at("in"), (std::vector<std::pair<int64_t, int64_t>>{{-1, 102}}));
}

TEST(Tuner, WithoutTimerOrBudgetAppliesTheFirst) {
    Stencil s;
    PipelineModel model({s.out.function()}, Target("x86-64-linux-avx2"));
    int timed = 0;
    ScheduleTimer timer = [&](const BufferShapes &) { return (double)++timed; };
    std::vector<TuningCandidate> cs = {{"a", [] { return std::string("A"); }},
                                       {"b", [] { return std::string("B"); }}};
    EXPECT_EQ(tune(cs, model, timer, 0, "test"), "A");
    EXPECT_EQ(tune(cs, model, ScheduleTimer(), 60, "test"), "A");
    EXPECT_EQ(timed, 0);
    // When every candidate fails, the first is applied.
    EXPECT_EQ(tune(
                  cs, model, [](const BufferShapes &) { return -1.0; }, 60, "test"),
              "A");
}

TEST(Grouping, RedundantFractionOfOverlappedTiles) {
    // out(x) = f(x - 1) + f(x + 1) over [0, 100) in tiles of 10: each tile computes f over 12
    // points, so f's arithmetic per tile is 12/10 of its share, out's exactly its share.
    Stencil s;
    PipelineModel model({s.out.function()}, Target("x86-64-linux-avx2"));
    GroupCostModel cost(model, CostParams());
    const std::set<std::string> members = {s.f.name(), s.out.name()};
    const GroupCostModel::Analysis a = cost.analyze(members, s.out.name(), {{"x", 10}});
    EXPECT_EQ(a.tiles, 10);
    // f: 1 op per point over 102 points untiled, 10 x 12 tiled; out: 3 ops over 100 points.
    const double untiled = 102 * 1 + 100 * 3, tiled = 10 * (12 * 1 + 10 * 3);
    EXPECT_NEAR(a.redundant_fraction, tiled / untiled - 1, 1e-9);
    EXPECT_EQ(a.intermediate_bytes, 12 * 4);
}
