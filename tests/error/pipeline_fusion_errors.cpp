// fuse_pipelines mistakes are CompileErrors that name the Funcs and loops: pipelines sharing a
// Func, fusion points at different depths, a loop the pipeline does not have, a point that is
// not a loop, merged loops of different kinds.
#include <loom/loom.h>
#include <loom/pipeline_fusion.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {

struct Two {
    Var x{"x"}, y{"y"}, i{"i"}, j{"j"};
    Func shared{"shared"}, a{"a"}, b{"b"};
    Two() {
        shared(x, y) = x + y;
        a(x, y) = x * 2 + y;
        b(i, j) = i - j;
    }
};

} // namespace

TEST(PipelineFusionErrors, PipelinesSharingAFunc) {
    Two t;
    Func c("c"), d("d");
    c(t.x, t.y) = t.shared(t.x, t.y) + 1;
    d(t.x, t.y) = t.shared(t.x, t.y) * 2;
    expect_error(
        [&] { fuse_pipelines(Pipeline(c), LoopLevel(c, t.y), Pipeline(d), LoopLevel(d, t.y)); },
        {"both pipelines compute shared", "independent"});
}

TEST(PipelineFusionErrors, DifferentDepths) {
    Two t;
    expect_error(
        [&] {
            fuse_pipelines(Pipeline(t.a), LoopLevel(t.a, t.y), Pipeline(t.b), LoopLevel(t.b, t.i));
        },
        {"equally deep", "y is loop 1", "i is loop 2", "j, i"});
}

TEST(PipelineFusionErrors, PointOutsideItsPipeline) {
    Two t;
    expect_error(
        [&] {
            fuse_pipelines(Pipeline(t.a), LoopLevel(t.b, t.j), Pipeline(t.b), LoopLevel(t.b, t.j));
        },
        {"first pipeline", "loop of b", "does not compute"});
    expect_error(
        [&] {
            fuse_pipelines(Pipeline(t.a), LoopLevel::root(), Pipeline(t.b), LoopLevel(t.b, t.j));
        },
        {"first pipeline is root"});
}

TEST(PipelineFusionErrors, MergedLoopsOfDifferentKinds) {
    Two t;
    t.a.parallel(t.y);
    Pipeline p =
        fuse_pipelines(Pipeline(t.a), LoopLevel(t.a, t.y), Pipeline(t.b), LoopLevel(t.b, t.j));
    expect_error(
        [&] { p.compile_jit(); },
        {"Invalid pipeline fusion", "the loop y is parallel in a", "its loop j is serial in b"});
}
