// Tracing: Func::trace_loads / trace_stores / trace_realizations / add_trace_tag,
// ImageParam::trace_loads and the Target's trace features. The default tracer's text (captured
// through JITHandlers::custom_print) must equal, byte for byte, what Halide 21 prints for the
// same pipeline (each expected string below was produced by Halide 21's wheel for the pipeline
// in its test); JITHandlers::custom_trace receives the events with their coordinates, values and
// parent ids; and tracing never changes results.
#include <loom/loom.h>
#include <loom/runtime/loom_runtime.h>

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace loom;

namespace {

std::string captured;

/// The tracer's text, with Func names compared without the suffixes of reused names.
void capture_print(JITUserContext *, const char *msg) { captured += without_unique_suffixes(msg); }

/// Realizes `f` over `sizes` with the default tracer printing into `captured`.
template <typename T>
Buffer<T> realize_traced(Func f, std::vector<int> sizes,
                         const Target &t = get_jit_target_from_environment()) {
    captured.clear();
    f.jit_handlers().custom_print = capture_print;
    Buffer<T> out = f.realize(sizes, t);
    f.jit_handlers().custom_print = nullptr;
    return out;
}

TEST(Tracing, StoresOnly) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    f.trace_stores();
    Buffer<int> out = realize_traced<int>(f, {2, 2});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 2 0 2\"\n"
                        "Store f.0(0, 0) = 0\n"
                        "Store f.0(1, 0) = 1\n"
                        "Store f.0(0, 1) = 1\n"
                        "Store f.0(1, 1) = 2\n"
                        "End pipeline f.0()\n");
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) EXPECT_EQ(out(i, j), i + j);
}

TEST(Tracing, ComputeRootLoadsStoresRealizations) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_root().trace_stores().trace_loads().trace_realizations();
    f.trace_stores().trace_realizations().trace_loads();
    Buffer<int> out = realize_traced<int>(f, {2, 2});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag g.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 3 0 2\"\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 2 0 2\"\n"
                        "Begin realization f.0(0, 2, 0, 2)\n"
                        "Begin realization g.0(0, 3, 0, 2)\n"
                        "Produce g.0(0, 3, 0, 2)\n"
                        "Store g.0(0, 0) = 0\n"
                        "Store g.0(1, 0) = 2\n"
                        "Store g.0(2, 0) = 4\n"
                        "Store g.0(0, 1) = 1\n"
                        "Store g.0(1, 1) = 3\n"
                        "Store g.0(2, 1) = 5\n"
                        "End produce g.0(0, 3, 0, 2)\n"
                        "Consume g.0(0, 3, 0, 2)\n"
                        "Produce f.0(0, 2, 0, 2)\n"
                        "Load g.0(0, 0) = 0\n"
                        "Load g.0(1, 0) = 2\n"
                        "Store f.0(0, 0) = 2\n"
                        "Load g.0(1, 0) = 2\n"
                        "Load g.0(2, 0) = 4\n"
                        "Store f.0(1, 0) = 6\n"
                        "Load g.0(0, 1) = 1\n"
                        "Load g.0(1, 1) = 3\n"
                        "Store f.0(0, 1) = 4\n"
                        "Load g.0(1, 1) = 3\n"
                        "Load g.0(2, 1) = 5\n"
                        "Store f.0(1, 1) = 8\n"
                        "End produce f.0(0, 2, 0, 2)\n"
                        "End consume g.0(0, 3, 0, 2)\n"
                        "End realization g.0(0, 3, 0, 2)\n"
                        "End realization f.0(0, 2, 0, 2)\n"
                        "End pipeline f.0()\n");
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) EXPECT_EQ(out(i, j), (2 * i + j) + (2 * (i + 1) + j));
}

TEST(Tracing, ComputeAtWithTag) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_at(f, y).trace_stores().trace_realizations();
    f.trace_stores().trace_realizations();
    f.add_trace_tag("hello tag");
    realize_traced<int>(f, {2, 2});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag g.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 3 0 2\"\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 2 0 2\"\n"
                        "Tag f.0() tag = \"hello tag\"\n"
                        "Begin realization f.0(0, 2, 0, 2)\n"
                        "Produce f.0(0, 2, 0, 2)\n"
                        "Begin realization g.0(0, 3, 0, 1)\n"
                        "Produce g.0(0, 3, 0, 1)\n"
                        "Store g.0(0, 0) = 0\n"
                        "Store g.0(1, 0) = 2\n"
                        "Store g.0(2, 0) = 4\n"
                        "End produce g.0(0, 3, 0, 1)\n"
                        "Consume g.0(0, 3, 0, 1)\n"
                        "Store f.0(0, 0) = 2\n"
                        "Store f.0(1, 0) = 6\n"
                        "End consume g.0(0, 3, 0, 1)\n"
                        "End realization g.0(0, 3, 0, 1)\n"
                        "Begin realization g.0(0, 3, 1, 1)\n"
                        "Produce g.0(0, 3, 1, 1)\n"
                        "Store g.0(0, 1) = 1\n"
                        "Store g.0(1, 1) = 3\n"
                        "Store g.0(2, 1) = 5\n"
                        "End produce g.0(0, 3, 1, 1)\n"
                        "Consume g.0(0, 3, 1, 1)\n"
                        "Store f.0(0, 1) = 4\n"
                        "Store f.0(1, 1) = 8\n"
                        "End consume g.0(0, 3, 1, 1)\n"
                        "End realization g.0(0, 3, 1, 1)\n"
                        "End produce f.0(0, 2, 0, 2)\n"
                        "End realization f.0(0, 2, 0, 2)\n"
                        "End pipeline f.0()\n");
}

TEST(Tracing, TupleWithUpdate) {
    Var x("x");
    Func f("f");
    f(x) = Tuple(x, cast<float>(x) * 0.5f);
    f(x) = Tuple(f(x)[0] + 1, f(x)[1]);
    f.trace_stores().trace_realizations();
    captured.clear();
    f.jit_handlers().custom_print = capture_print;
    Realization r = f.realize({3});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag f.0() tag = \"func_type_and_dim: 2 0 32 1 2 32 1 1 0 3\"\n"
                        "Begin realization f.0(0, 3)\n"
                        "Produce f.0(0, 3)\n"
                        "Store f.0(0) = 0\n"
                        "Store f.1(0) = 0.000000\n"
                        "Store f.0(1) = 1\n"
                        "Store f.1(1) = 0.500000\n"
                        "Store f.0(2) = 2\n"
                        "Store f.1(2) = 1.000000\n"
                        "Store f.0(0) = 1\n"
                        "Store f.1(0) = 0.000000\n"
                        "Store f.0(1) = 2\n"
                        "Store f.1(1) = 0.500000\n"
                        "Store f.0(2) = 3\n"
                        "Store f.1(2) = 1.000000\n"
                        "End produce f.0(0, 3)\n"
                        "End realization f.0(0, 3)\n"
                        "End pipeline f.0()\n");
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(a(i), i + 1);
        EXPECT_EQ(b(i), i * 0.5f);
    }
}

TEST(Tracing, UpdateLoadsOfItself) {
    Var x("x");
    Func f("f");
    RDom r(0, 2);
    f(x) = x;
    f(r) = f(r) + 10;
    f(x) += 1;
    f.trace_stores().trace_realizations().trace_loads();
    realize_traced<int>(f, {3});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 1 0 3\"\n"
                        "Begin realization f.0(0, 3)\n"
                        "Produce f.0(0, 3)\n"
                        "Store f.0(0) = 0\n"
                        "Store f.0(1) = 1\n"
                        "Store f.0(2) = 2\n"
                        "Load f.0(0) = 0\n"
                        "Store f.0(0) = 10\n"
                        "Load f.0(1) = 1\n"
                        "Store f.0(1) = 11\n"
                        "Load f.0(0) = 10\n"
                        "Store f.0(0) = 11\n"
                        "Load f.0(1) = 11\n"
                        "Store f.0(1) = 12\n"
                        "Load f.0(2) = 2\n"
                        "Store f.0(2) = 3\n"
                        "End produce f.0(0, 3)\n"
                        "End realization f.0(0, 3)\n"
                        "End pipeline f.0()\n");
}

TEST(Tracing, InputLoads) {
    Var x("x");
    ImageParam in(Int(16), 1, "in");
    Func f("f");
    f(x) = in(x)*2;
    in.trace_loads();
    f.trace_stores();
    Buffer<int16_t> b(3);
    b(0) = 1;
    b(1) = -2;
    b(2) = 3;
    in.set(b);
    Buffer<int16_t> out = realize_traced<int16_t>(f, {3});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag in.0() tag = \"func_type_and_dim: 1 0 16 1 1 0 3\"\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 16 1 1 0 3\"\n"
                        "Load in.0(0) = 1\n"
                        "Store f.0(0) = 2\n"
                        "Load in.0(1) = -2\n"
                        "Store f.0(1) = -4\n"
                        "Load in.0(2) = 3\n"
                        "Store f.0(2) = 6\n"
                        "End pipeline f.0()\n");
    EXPECT_EQ(out(1), -4);
}

TEST(Tracing, ValueTypes) {
    Var x("x");
    Func f("f"), g("g"), h("h"), k("k"), b("b");
    f(x) = cast<double>(x) / 3;
    g(x) = cast<int64_t>(x) - 5;
    h(x) = cast<uint16_t>(x);
    k(x) = f(x) + g(x) + h(x);
    f.compute_root().trace_stores();
    g.compute_root().trace_stores();
    h.compute_root().trace_stores();
    b(x) = x > 1;
    b.compute_root().trace_stores();
    k(x) = k(x) + b(x);
    Buffer<double> out = realize_traced<double>(k, {3});
    // Halide 21 prints the same lines; its tags come in the order b, f, g, h and its
    // realizations in the order b, f, g, h too. Loom's realization order of these independent
    // Funcs may differ, so the lines are compared per Func.
    std::map<std::string, std::vector<std::string>> lines;
    size_t pos = 0;
    while (pos < captured.size()) {
        size_t nl = captured.find('\n', pos);
        std::string line = captured.substr(pos, nl - pos);
        pos = nl + 1;
        size_t sp = line.find(' ', line.find("Store") == 0 || line.find("Tag") == 0 ? 0 : 6);
        std::string func = line.substr(sp + 1, line.find('.', sp) - sp - 1);
        lines[func].push_back(line);
    }
    using V = std::vector<std::string>;
    EXPECT_EQ(lines["b"], (V{"Tag b.0() tag = \"func_type_and_dim: 1 1 1 1 1 0 3\"",
                             "Store b.0(0) = 0", "Store b.0(1) = 0", "Store b.0(2) = 1"}));
    EXPECT_EQ(lines["f"], (V{"Tag f.0() tag = \"func_type_and_dim: 1 2 64 1 1 0 3\"",
                             "Store f.0(0) = 0.000000e+00", "Store f.0(1) = 3.333333e-01",
                             "Store f.0(2) = 6.666667e-01"}));
    EXPECT_EQ(lines["g"], (V{"Tag g.0() tag = \"func_type_and_dim: 1 0 64 1 1 0 3\"",
                             "Store g.0(0) = -5", "Store g.0(1) = -4", "Store g.0(2) = -3"}));
    EXPECT_EQ(lines["h"], (V{"Tag h.0() tag = \"func_type_and_dim: 1 1 16 1 1 0 3\"",
                             "Store h.0(0) = 0", "Store h.0(1) = 1", "Store h.0(2) = 2"}));
    EXPECT_EQ(lines["k"], (V{"Begin pipeline k.0()", "End pipeline k.0()"}));
    for (int i = 0; i < 3; i++) {
        EXPECT_DOUBLE_EQ(out(i), i / 3.0 + (i - 5) + i + (i > 1));
    }
}

TEST(Tracing, TargetFeatures) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_root();
    Target t = get_jit_target_from_environment()
                   .with_feature(Target::TraceStores)
                   .with_feature(Target::TraceRealizations)
                   .with_feature(Target::TraceLoads);
    realize_traced<int>(f, {2, 1}, t);
    // Halide 21, same pipeline and target.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag g.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 3 0 1\"\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 2 0 1\"\n"
                        "Begin realization f.0(0, 2, 0, 1)\n"
                        "Begin realization g.0(0, 3, 0, 1)\n"
                        "Produce g.0(0, 3, 0, 1)\n"
                        "Store g.0(0, 0) = 0\n"
                        "Store g.0(1, 0) = 2\n"
                        "Store g.0(2, 0) = 4\n"
                        "End produce g.0(0, 3, 0, 1)\n"
                        "Consume g.0(0, 3, 0, 1)\n"
                        "Produce f.0(0, 2, 0, 1)\n"
                        "Load g.0(0, 0) = 0\n"
                        "Load g.0(1, 0) = 2\n"
                        "Store f.0(0, 0) = 2\n"
                        "Load g.0(1, 0) = 2\n"
                        "Load g.0(2, 0) = 4\n"
                        "Store f.0(1, 0) = 6\n"
                        "End produce f.0(0, 2, 0, 1)\n"
                        "End consume g.0(0, 3, 0, 1)\n"
                        "End realization g.0(0, 3, 0, 1)\n"
                        "End realization f.0(0, 2, 0, 1)\n"
                        "End pipeline f.0()\n");
}

TEST(Tracing, PipelineOnly) {
    Var x("x");
    Func f("f");
    f(x) = x;
    Target t = get_jit_target_from_environment().with_feature(Target::TracePipeline);
    realize_traced<int>(f, {2}, t);
    // Halide 21, same pipeline and target.
    EXPECT_EQ(captured, "Begin pipeline f.0()\nEnd pipeline f.0()\n");
}

TEST(Tracing, PipelineTracePipeline) {
    Var x("x");
    Func f("f");
    f(x) = x;
    Pipeline p(f);
    p.trace_pipeline();
    captured.clear();
    p.jit_handlers().custom_print = capture_print;
    Buffer<int> out = p.realize({2});
    // Halide 21, same pipeline.
    EXPECT_EQ(captured, "Begin pipeline f.0()\nEnd pipeline f.0()\n");
    EXPECT_EQ(out(1), 1);
}

TEST(Tracing, UntracedPipelinePrintsNothing) {
    Var x("x");
    Func f("f");
    f(x) = x;
    realize_traced<int>(f, {2});
    EXPECT_EQ(captured, "");
}

TEST(Tracing, StoreRootComputeAt) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y) * 2;
    f.compute_at(g, y).store_root().trace_realizations().trace_stores();
    Buffer<int> out = realize_traced<int>(g, {2, 2});
    // Halide 21, same pipeline: the realization is the stored region, produce and consume
    // the region computed per iteration of y.
    EXPECT_EQ(captured, "Begin pipeline g.0()\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 0 32 1 2 0 2 0 2\"\n"
                        "Begin realization f.0(0, 2, 0, 2)\n"
                        "Produce f.0(0, 2, 0, 1)\n"
                        "Store f.0(0, 0) = 0\n"
                        "Store f.0(1, 0) = 1\n"
                        "End produce f.0(0, 2, 0, 1)\n"
                        "Consume f.0(0, 2, 0, 1)\n"
                        "End consume f.0(0, 2, 0, 1)\n"
                        "Produce f.0(0, 2, 1, 1)\n"
                        "Store f.0(0, 1) = 1\n"
                        "Store f.0(1, 1) = 2\n"
                        "End produce f.0(0, 2, 1, 1)\n"
                        "Consume f.0(0, 2, 1, 1)\n"
                        "End consume f.0(0, 2, 1, 1)\n"
                        "End realization f.0(0, 2, 0, 2)\n"
                        "End pipeline g.0()\n");
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) EXPECT_EQ(out(i, j), 2 * (i + j));
}

// ---- custom_trace ----

struct Event {
    int id;
    halide_trace_event_code_t event;
    std::string func;
    int parent_id, value_index;
    std::vector<int> coords;
    halide_type_t type;
    std::vector<int64_t> values; ///< per lane, for int32/int64 loads and stores
    std::string tag;
};
std::vector<Event> events;

int32_t record_trace(JITUserContext *, const halide_trace_event_t *e) {
    Event ev;
    ev.id = (int)events.size() + 1;
    ev.event = e->event;
    ev.func = without_unique_suffixes(e->func);
    ev.parent_id = e->parent_id;
    ev.value_index = e->value_index;
    ev.type = e->type;
    for (int i = 0; e->coordinates && i < e->dimensions; i++)
        ev.coords.push_back(e->coordinates[i]);
    if (e->value) {
        for (int i = 0; i < e->type.lanes; i++) {
            ev.values.push_back(e->type.bits == 64 ? ((int64_t *)e->value)[i]
                                                   : ((int32_t *)e->value)[i]);
        }
    }
    if (e->trace_tag) ev.tag = e->trace_tag;
    events.push_back(ev);
    return ev.id;
}

TEST(Tracing, CustomTraceEventsAndParents) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_at(f, y).trace_stores().trace_realizations().trace_loads();
    f.trace_stores().trace_realizations();
    events.clear();
    f.jit_handlers().custom_trace = record_trace;
    Buffer<int> out = f.realize({5, 4});
    f.jit_handlers().custom_trace = nullptr;
    ASSERT_FALSE(events.empty());

    std::map<int, const Event *> by_id;
    for (const Event &e : events) by_id[e.id] = &e;
    EXPECT_EQ(events.front().event, halide_trace_begin_pipeline);
    EXPECT_EQ(events.front().parent_id, 0);
    EXPECT_EQ(events.front().func, "f");
    EXPECT_EQ(events.back().event, halide_trace_end_pipeline);
    EXPECT_EQ(events.back().parent_id, 1);

    // Every store of f is the pipeline's output value at its coordinates, made within f's
    // produce; every load of g returns g's value and belongs to g's consume; every store of g
    // belongs to g's produce.
    std::set<std::pair<int, int>> f_stored;
    int g_loads = 0, g_stores = 0;
    for (const Event &e : events) {
        const Event *p = by_id.count(e.parent_id) ? by_id[e.parent_id] : nullptr;
        if (e.event == halide_trace_store && e.func == "f") {
            ASSERT_EQ(e.coords.size(), 2u);
            EXPECT_EQ(e.values[0], out(e.coords[0], e.coords[1]));
            ASSERT_TRUE(p);
            EXPECT_EQ(p->event, halide_trace_produce);
            EXPECT_EQ(p->func, "f");
            f_stored.insert({e.coords[0], e.coords[1]});
        } else if (e.func == "g" &&
                   (e.event == halide_trace_load || e.event == halide_trace_store)) {
            ASSERT_EQ(e.coords.size(), 2u);
            EXPECT_EQ(e.values[0], e.coords[0] * 2 + e.coords[1]);
            EXPECT_EQ(e.type, halide_type_t(halide_type_int, 32));
            ASSERT_TRUE(p);
            EXPECT_EQ(p->event,
                      e.event == halide_trace_load ? halide_trace_consume : halide_trace_produce);
            (e.event == halide_trace_load ? g_loads : g_stores)++;
        } else if (e.event == halide_trace_begin_realization) {
            EXPECT_EQ(e.parent_id, 1);
            ASSERT_EQ(e.coords.size(), 4u);
        } else if (e.event == halide_trace_end_realization || e.event == halide_trace_end_produce ||
                   e.event == halide_trace_end_consume) {
            // The end event names its begin event, with the same region.
            ASSERT_TRUE(p);
            EXPECT_EQ(p->event, e.event - 1);
            EXPECT_EQ(p->coords, e.coords);
        } else if (e.event == halide_trace_produce || e.event == halide_trace_consume) {
            ASSERT_TRUE(p);
            EXPECT_EQ(p->event, halide_trace_begin_realization);
            EXPECT_EQ(p->func, e.func);
        } else if (e.event == halide_trace_tag) {
            EXPECT_EQ(e.parent_id, 1);
        }
    }
    EXPECT_EQ(f_stored.size(), 20u);
    EXPECT_EQ(g_loads, 40);
    EXPECT_EQ(g_stores, 6 * 4);
}

TEST(Tracing, VectorizedStoresAndLoads) {
    // Whether the vectorizer makes one event of several lanes (as Halide does: "Store
    // f.0(<0, 1, 2, 3>) = <0, 1, 2, 3>") or one per lane, every site is reported once with
    // its value, and the results are those of the untraced pipeline.
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 3 + y;
    // g's region (24 wide) is a multiple of the vector width: no overlapping tail vector,
    // which would store some points twice (as in Halide).
    f(x, y) = g(x, y) + g(x + 8, y);
    g.compute_root().vectorize(x, 8).trace_stores();
    f.vectorize(x, 8).trace_stores().trace_loads();
    g.trace_loads();
    events.clear();
    f.jit_handlers().custom_trace = record_trace;
    Buffer<int> out = f.realize({16, 3});
    f.jit_handlers().custom_trace = nullptr;
    std::map<std::tuple<std::string, int, int>, int> stores;
    int loads = 0;
    for (const Event &e : events) {
        if (e.event != halide_trace_store && e.event != halide_trace_load) continue;
        int lanes = e.type.lanes;
        ASSERT_EQ((int)e.coords.size(), 2 * lanes);
        ASSERT_EQ((int)e.values.size(), lanes);
        for (int l = 0; l < lanes; l++) {
            int cx = e.coords[l], cy = e.coords[lanes + l];
            int64_t v = e.values[l];
            if (e.func == "g") {
                EXPECT_EQ(v, cx * 3 + cy);
            } else {
                EXPECT_EQ(v, out(cx, cy));
            }
            if (e.event == halide_trace_store)
                stores[{e.func, cx, cy}]++;
            else
                loads++;
        }
    }
    EXPECT_EQ(stores.size(), (size_t)(24 * 3 + 16 * 3));
    for (const auto &kv : stores) EXPECT_EQ(kv.second, 1);
    EXPECT_EQ(loads, 2 * 16 * 3);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 16; i++) EXPECT_EQ(out(i, j), (3 * i + j) + (3 * (i + 8) + j));
}

TEST(Tracing, VectorStoreText) {
    Var x("x");
    Func f("f");
    f(x) = cast<uint8_t>(x);
    f.vectorize(x, 4).trace_stores();
    Buffer<uint8_t> out = realize_traced<uint8_t>(f, {8});
    // Halide 21, same pipeline: one event per vector store.
    EXPECT_EQ(captured, "Begin pipeline f.0()\n"
                        "Tag f.0() tag = \"func_type_and_dim: 1 1 8 1 1 0 8\"\n"
                        "Store f.0(<0, 1, 2, 3>) = <0, 1, 2, 3>\n"
                        "Store f.0(<4, 5, 6, 7>) = <4, 5, 6, 7>\n"
                        "End pipeline f.0()\n");
    for (int i = 0; i < 8; i++) EXPECT_EQ(out(i), i);
}

TEST(Tracing, ParallelLoopsTraceEveryStore) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * y;
    f.parallel(y).trace_stores();
    events.clear();
    f.jit_handlers().custom_trace = [](JITUserContext *uc, const halide_trace_event_t *e) {
        static std::mutex m;
        std::lock_guard<std::mutex> lock(m);
        return record_trace(uc, e);
    };
    Buffer<int> out = f.realize({4, 6});
    f.jit_handlers().custom_trace = nullptr;
    std::set<std::pair<int, int>> seen;
    for (const Event &e : events) {
        if (e.event != halide_trace_store) continue;
        EXPECT_EQ(e.values[0], e.coords[0] * e.coords[1]);
        seen.insert({e.coords[0], e.coords[1]});
    }
    EXPECT_EQ(seen.size(), 24u);
    EXPECT_EQ(out(3, 5), 15);
}

} // namespace
