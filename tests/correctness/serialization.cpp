// serialize_pipeline / deserialize_pipeline: for a variety of pipelines, the deserialized
// pipeline computes the same values with the same loop nest, serializes to the same bytes
// again (so every field survives), and the bytes are deterministic. Shared objects stay shared,
// user_params bind the caller's parameters, and unserializable, corrupt, truncated or
// other-version data give clear CompileErrors (the decoder is fuzzed past its checksum too).
// Extern functions are exported from this executable (ENABLE_EXPORTS) so the JIT finds them.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/unique_names.h"
#include "ir/ir_visitor.h"
#include "lang/function.h"
#include "lang/serialization.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace loom;
using loom_test::expect_error;

/// out(x) = in(x) * k: an extern stage over a 1-D int32 Func.
extern "C" int loomtest_ser_scale(halide_buffer_t *in, int k, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
        return 0;
    }
    for (int x = 0; x < out->dim[0].extent; x++) {
        int32_t v =
            ((const int32_t *)in->host)[(x + out->dim[0].min - in->dim[0].min) * in->dim[0].stride];
        ((int32_t *)out->host)[x * out->dim[0].stride] = v * k;
    }
    return 0;
}

extern "C" int loomtest_ser_mix(int a, int b) { return a * 7 + b; }
HalidePureExtern_2(int, loomtest_ser_mix, int, int);

namespace {

/// A pipeline as a test builds it, with the sizes to realize it over and the parameters its
/// inputs come through (bound in the deserialized pipeline with user_params).
struct Built {
    Pipeline pipeline;
    std::vector<int> sizes;
    std::map<std::string, Parameter> inputs;
};

/// The loop nest, without the suffixes of reused Func names, and with the names of anonymous
/// Funcs and Vars ("f12", "x.v12" made by vectorize(x, 8)) numbered in order of appearance: the
/// deserialized pipeline has fresh ones.
std::string loop_nest(Pipeline p) {
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    p.print_loop_nest();
    std::cerr.rdbuf(old);
    std::string text = without_unique_suffixes(captured.str()), result;
    std::map<std::string, std::string> renamed;
    std::regex anonymous("\\b[vrbf][0-9]+\\b");
    size_t at = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), anonymous);
         it != std::sregex_iterator(); ++it) {
        result += text.substr(at, it->position() - at);
        std::string name = it->str();
        auto r = renamed.emplace(name, name.substr(0, 1) + "#" + std::to_string(renamed.size()));
        result += r.first->second;
        at = it->position() + it->length();
    }
    return result + text.substr(at);
}

std::vector<uint8_t> bytes_of(const Pipeline &p) {
    std::vector<uint8_t> data;
    serialize_pipeline(p, data);
    return data;
}

/// Equal byte vectors, or where they first differ.
::testing::AssertionResult same_bytes(const std::vector<uint8_t> &a,
                                      const std::vector<uint8_t> &b) {
    if (a == b) return ::testing::AssertionSuccess();
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) i++;
    return ::testing::AssertionFailure()
           << "sizes " << a.size() << " and " << b.size() << ", first difference at byte " << i;
}

/// Every element of two buffers of one shape, bit for bit.
::testing::AssertionResult same_contents(const Buffer<void> &a, const Buffer<void> &b) {
    if (a.type() != b.type() || a.dimensions() != b.dimensions()) {
        return ::testing::AssertionFailure() << "type or dimensions differ";
    }
    for (int d = 0; d < a.dimensions(); d++) {
        if (a.dim(d).min() != b.dim(d).min() || a.dim(d).extent() != b.dim(d).extent()) {
            return ::testing::AssertionFailure() << "shape differs in dimension " << d;
        }
    }
    const halide_buffer_t &ra = *a.raw_buffer(), &rb = *b.raw_buffer();
    const int dims = ra.dimensions, bytes = a.type().bytes();
    std::vector<int> pos(dims, 0);
    for (int d = 0; d < dims; d++) {
        if (ra.dim[d].extent == 0) return ::testing::AssertionSuccess();
    }
    while (true) {
        int64_t oa = 0, ob = 0;
        for (int d = 0; d < dims; d++) {
            oa += (int64_t)pos[d] * ra.dim[d].stride;
            ob += (int64_t)pos[d] * rb.dim[d].stride;
        }
        if (std::memcmp(ra.host + oa * bytes, rb.host + ob * bytes, bytes) != 0) {
            auto failure = ::testing::AssertionFailure() << "values differ at (";
            for (int d = 0; d < dims; d++) failure << (d ? ", " : "") << pos[d] + ra.dim[d].min;
            return failure << ")";
        }
        int d = 0;
        while (d < dims && ++pos[d] == ra.dim[d].extent) pos[d++] = 0;
        if (d == dims) return ::testing::AssertionSuccess();
    }
}

/// The round trip every pipeline must survive: deterministic bytes (twice from one pipeline,
/// and from the pipeline built again), the same bytes from the deserialized pipeline, the
/// same loop nest, and the same values.
void check_round_trip(const std::function<Built()> &build, bool deterministic_rebuild = true) {
    Built a = build();
    std::vector<uint8_t> data;
    std::map<std::string, Parameter> params;
    serialize_pipeline(a.pipeline, data, params);
    EXPECT_TRUE(same_bytes(data, bytes_of(a.pipeline))) << "serialized twice";
    if (deterministic_rebuild) {
        EXPECT_TRUE(same_bytes(data, bytes_of(build().pipeline))) << "built twice";
    }
    for (const auto &kv : a.inputs) {
        ASSERT_TRUE(params.count(kv.first)) << "external parameter " << kv.first;
        EXPECT_TRUE(params.at(kv.first).same_as(kv.second)) << kv.first;
    }

    // New parameters: everything, constraints included, comes back.
    Pipeline fresh = deserialize_pipeline(data, {});
    EXPECT_TRUE(same_bytes(data, bytes_of(fresh))) << "serialized after deserializing";
    EXPECT_EQ(loop_nest(a.pipeline), loop_nest(fresh));

    Pipeline bound = deserialize_pipeline(data, a.inputs);
    EXPECT_TRUE(same_bytes(data, bytes_of(bound))) << "serialized with user_params";
    Realization expected = a.pipeline.realize(a.sizes);
    Realization got = bound.realize(a.sizes);
    ASSERT_EQ(expected.size(), got.size());
    for (size_t i = 0; i < expected.size(); i++) {
        EXPECT_TRUE(same_contents(expected[i], got[i])) << "output " << i;
    }
}

Buffer<uint16_t> ramp_image(int w, int h) {
    Buffer<uint16_t> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = (uint16_t)((x * 37 + y * 101) % 1021);
    return b;
}

/// A Buffer input every test shares (realize reads it through user_params or the original).
Buffer<uint16_t> &shared_input() {
    static Buffer<uint16_t> b = ramp_image(70, 50);
    return b;
}

/// Halide's blur: repeat_edge input, blur_x computed per tile of blur_y, tiled, vectorized and
/// parallel.
Built blur() {
    ImageParam input(UInt(16), 2, "input");
    input.set(shared_input());
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func blur_x("blur_x"), blur_y("blur_y");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_y.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y);
    blur_x.compute_at(blur_y, x).vectorize(x, 8);
    return {Pipeline(blur_y), {64, 48}, {{"input", input.parameter()}}};
}

TEST(Serialization, BlurMatchesNaive) {
    check_round_trip(blur);
    // And a naive reference, on the deserialized pipeline.
    Built a = blur();
    Pipeline p = deserialize_pipeline(bytes_of(a.pipeline), a.inputs);
    Buffer<uint16_t> out = p.realize({64, 48})[0];
    const Buffer<uint16_t> &in = shared_input();
    auto at = [&](int x, int y) {
        return (int)in(std::min(std::max(x, 0), 69), std::min(std::max(y, 0), 49));
    };
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 64; x++) {
            int bx[3];
            for (int d = -1; d <= 1; d++) {
                bx[d + 1] = (at(x - 1, y + d) + at(x, y + d) + at(x + 1, y + d)) / 3;
            }
            ASSERT_EQ(out(x, y), (bx[0] + bx[1] + bx[2]) / 3) << x << ", " << y;
        }
    }
}

TEST(Serialization, UpdatesWithRDomWhereAndParams) {
    check_round_trip([] {
        Param<int> offset("offset", 3, 0, 10);
        Param<float> scale("scale", 0.5f);
        scale.set_range(0.0f, 4.0f);
        scale.set_estimate(1.0f);
        Var x("x");
        RDom r(1, 40, "r");
        r.where(r.x % 3 != 0);
        Func f("f");
        f(x) = x + offset;
        f(r.x) = f(r.x - 1) + f(r.x) * 2;
        f(x) += cast<int>(scale * 10.0f);
        Func g("g");
        g(x) = cast<float>(f(x)) * scale;
        f.compute_root().update(0).unscheduled();
        return Built{
            Pipeline(g), {45}, {{"offset", offset.parameter()}, {"scale", scale.parameter()}}};
    });
}

TEST(Serialization, TuplesAndArgmax) {
    check_round_trip([] {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = Tuple(x * 2 + y, cast<float>(x) - y);
        RDom r(0, 10, 0, 5, "r");
        g(x) = Tuple(0, 0.0f);
        g(x) = Tuple(g(x)[0] + f(x, r.y)[0], max(g(x)[1], f(r.x, r.y)[1] + x));
        f.compute_root().vectorize(x, 4);
        Func h("h");
        h(x) = argmax(r, f(r.x + x, r.y)[0] % 7);
        return Built{Pipeline({g, h}), {12}, {}};
    });
}

TEST(Serialization, BoundaryConditionsAndImageParamConstraints) {
    check_round_trip([] {
        ImageParam input(UInt(16), 2, "input");
        input.set(shared_input());
        input.dim(0).set_min(0).dim(1).set_min(0);
        input.dim(0).set_estimate(0, 70).dim(1).set_estimate(0, 50);
        input.set_host_alignment(16);
        Var x("x"), y("y");
        Func a = BoundaryConditions::constant_exterior(input, 7);
        Func b = BoundaryConditions::mirror_image(input, {{0, input.width()}, {0, 50}});
        Func c = BoundaryConditions::repeat_image(input);
        Func out("out");
        out(x, y) = a(x - 3, y + 2) + b(x + 60, y - 4) * 2 + c(x * 3, y + 45);
        out.bound(x, 0, 72).set_estimate(y, 0, 60);
        return Built{Pipeline(out), {72, 60}, {{"input", input.parameter()}}};
    });
}

TEST(Serialization, Specializations) {
    check_round_trip([] {
        Param<int> mode("mode", 1);
        Param<bool> wide("wide", true);
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = x * 3 + y * mode;
        f.specialize(mode == 1).vectorize(x, 8);
        f.specialize(wide).parallel(y).specialize(mode > 2).unroll(x, 2);
        f.specialize_fail("mode must be 1 when not wide");
        return Built{
            Pipeline(f), {32, 8}, {{"mode", mode.parameter()}, {"wide", wide.parameter()}}};
    });
}

TEST(Serialization, EmbeddedBuffers) {
    check_round_trip([] {
        Buffer<uint8_t> lut(std::vector<int>{256}, "lut");
        for (int i = 0; i < 256; i++) lut(i) = (uint8_t)(255 - i);
        // Mins not at zero: the shape comes back as it was.
        Buffer<float> weights(4, 3, 2);
        weights.set_min({-1, 2, 0});
        for (int c = 0; c < 2; c++)
            for (int y = 2; y < 5; y++)
                for (int x = -1; x < 3; x++) weights(x, y, c) = x * 0.25f + y + c * 10;
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = cast<float>(lut(cast<uint8_t>(x + y * 16))) *
                  weights(clamp(x, -1, 2), clamp(y, 2, 4), x % 2);
        return Built{Pipeline(f), {20, 10}, {}};
    });
}

TEST(Serialization, RfactorWrappersAndCloneIn) {
    check_round_trip([] {
        ImageParam input(UInt(16), 2, "input");
        input.set(shared_input());
        Var x("x"), y("y"), u("u");
        RDom r(0, 64, "r");
        Func sum_rows("sum_rows");
        sum_rows(y) = 0;
        sum_rows(y) += cast<int>(input(r.x, y));
        RVar ro("ro"), ri("ri");
        sum_rows.update().split(r.x, ro, ri, 16);
        sum_rows.update().rfactor(ro, u).compute_root().vectorize(u, 4);
        sum_rows.compute_root();
        Func f("f"), g("g"), h("h"), out("out");
        f(x, y) = cast<int>(input(x, y)) + sum_rows(y);
        g(x, y) = f(x, y) * 2;
        h(x, y) = f(x + 1, y) - 1;
        out(x, y) = g(x, y) + h(x, y);
        f.compute_root();
        f.in(g).compute_at(g, y).vectorize(x, 8);
        f.clone_in(h).compute_at(out, y);
        input.in().compute_root();
        g.compute_root();
        return Built{Pipeline(out), {60, 40}, {{"input", input.parameter()}}};
    });
}

TEST(Serialization, ComputeWithAndStorageDirectives) {
    check_round_trip([] {
        Var x("x"), y("y");
        Func f("f"), g("g"), p("p"), out("out");
        f(x, y) = x + y;
        g(x, y) = x - y;
        p(x, y) = x * y;
        out(x, y) = f(x, y) + g(x, y) + p(x, y - 1) + p(x, y + 1);
        f.compute_root();
        g.compute_root().compute_with(f, y, LoopAlignStrategy::AlignStart);
        p.compute_at(out, y).store_root().fold_storage(y, 4).async();
        out.reorder_storage(y, x).align_bounds(x, 4).store_in(MemoryType::Heap);
        out.partition(x, Partition::Never).prefetch(p, y, y, 2);
        return Built{Pipeline(out), {16, 12}, {}};
    });
}

TEST(Serialization, ExternStagesExternCallsAndMemoize) {
    check_round_trip([] {
        Param<int> k("k", 5);
        Var x("x");
        Func in("in"), scaled("scaled"), out("out");
        in(x) = loomtest_ser_mix(x, 3);
        in.compute_root().memoize();
        scaled.define_extern("loomtest_ser_scale", {in, Expr(k)}, Int(32), 1);
        scaled.compute_root();
        out(x) = scaled(x) + 1;
        return Built{Pipeline(out), {30}, {{"k", k.parameter()}}};
    });
}

TEST(Serialization, RequirementsTracingAndOutputBuffers) {
    auto build = [] {
        Param<int> limit("limit", 4);
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = x * limit + y;
        f.add_trace_tag("serialized");
        f.output_buffer().dim(0).set_min(0).dim(1).set_stride(Expr());
        Pipeline p(f);
        p.add_requirement(limit > 0, "limit must be positive, not ", limit);
        return Built{p, {8, 8}, {{"limit", limit.parameter()}}};
    };
    check_round_trip(build);
    // The requirement is checked by the deserialized pipeline.
    Built a = build();
    Param<int> limit("limit", 0);
    Pipeline p = deserialize_pipeline(bytes_of(a.pipeline), {{"limit", limit.parameter()}});
    expect_error<RuntimeError>([&] { p.realize({8, 8}); }, {"limit must be positive, not 0"});
}

TEST(Serialization, AnonymousNamesAreDeterministic) {
    // Unnamed Funcs, Vars, RDoms and Buffers, and the Vars vectorize(x, 4) makes up, get names
    // that differ from build to build; the bytes do not.
    check_round_trip([] {
        Var x, y;
        RDom r(0, 6);
        Buffer<int> b(3);
        b.fill(2);
        Func f, g;
        f(x, y) = x + y * b(y % 3);
        g(x) = 0;
        g(x) += f(x, r);
        f.compute_root().vectorize(x, 4).parallel(y, 2);
        g.update().unroll(x, 2);
        return Built{Pipeline(g), {16}, {}};
    });
}

TEST(Serialization, MoreDirectives) {
    check_round_trip([] {
        ImageParam input(UInt(16), 2, "input");
        input.set(shared_input());
        Var x("x"), y("y"), xo("xo"), xi("xi");
        RDom r(0, 32, "r");
        Func p("p"), c("c"), hist("hist"), m("m");
        p(x, y) = cast<int>(input(x, y)) + 1;
        c(x, y) = p(x, y) + p(x, y + 1);
        p.compute_at(c, y).hoist_storage_root().ring_buffer(2).async();
        c.bound_storage(x, 64).align_storage(x, 8);
        hist(x) = 0;
        hist(clamp(c(r, 3) % 16, 0, 15)) += 1;
        hist.compute_root().update().atomic().parallel(r);
        m(x, y) = c(x, y) + hist(x % 16);
        m.split(x, xo, xi, 8, TailStrategy::GuardWithIf)
            .reorder(xi, y, xo)
            .store_in(MemoryType::Heap);
        c.compute_root().memoize(EvictionKey(Expr(3)));
        return Built{Pipeline(m), {40, 20}, {{"input", input.parameter()}}};
    });
}

TEST(Serialization, DirectivesThatAreNotRunHere) {
    // Tracing (which would print) and GPU loops (no GPU here): kept, though not realized.
    ImageParam input(UInt(16), 2, "input");
    Var x("x"), y("y"), bx("bx"), by("by"), tx("tx"), ty("ty");
    Func f("f"), g("g");
    f(x, y) = input(x, y) + 1;
    g(x, y) = f(x, y) * 2;
    f.compute_root().trace_loads().trace_stores().trace_realizations();
    input.trace_loads();
    g.gpu_tile(x, y, bx, by, tx, ty, 8, 8, TailStrategy::Auto, DeviceAPI::CUDA);
    Pipeline p(g);
    p.trace_pipeline();
    std::vector<uint8_t> data = bytes_of(p);
    Pipeline q = deserialize_pipeline(data, {});
    EXPECT_TRUE(same_bytes(data, bytes_of(q)));
    EXPECT_EQ(loop_nest(p), loop_nest(q));
}

TEST(Serialization, SharedObjectsStayShared) {
    Var x("x");
    RDom r(0, 8, "r");
    Param<int> p("p", 2);
    Func f("f"), g("g");
    f(x) = x * p;
    g(x) = f(x) + f(x + 1) * p;
    g(r.x) += f(r.x);
    g(r.x) *= 2;
    Pipeline q = deserialize_pipeline(bytes_of(Pipeline(g)), {});
    internal::Function dg = q.outputs()[0].function();
    ASSERT_EQ(dg.updates().size(), 2u);
    // One RDom for both updates, one f for all the calls, one Param everywhere.
    EXPECT_TRUE(dg.updates()[0].rdom.same_as(dg.updates()[1].rdom));
    std::vector<const internal::Call *> calls;
    std::vector<internal::Parameter> params;
    for (const internal::Definition *d : {&dg.definition(), &dg.updates()[0]}) {
        for (const Expr &v : d->values) {
            internal::visit_exprs(v, [&](const Expr &e) {
                if (const internal::Call *c = e.as<internal::Call>()) {
                    if (c->call_type == internal::Call::Halide && c->name != dg.name()) {
                        calls.push_back(c);
                    }
                }
                if (const internal::Variable *var = e.as<internal::Variable>()) {
                    if (var->param.defined()) params.push_back(var->param);
                }
                return true;
            });
        }
    }
    ASSERT_EQ(calls.size(), 3u);
    for (const internal::Call *c : calls) EXPECT_EQ(c->func.get(), calls[0]->func.get());
    internal::Function df(calls[0]->func);
    for (const Expr &v : df.definition().values) {
        internal::visit_exprs(v, [&](const Expr &e) {
            if (const internal::Variable *var = e.as<internal::Variable>()) {
                if (var->param.defined()) params.push_back(var->param);
            }
            return true;
        });
    }
    ASSERT_EQ(params.size(), 2u);
    EXPECT_TRUE(params[0].same_as(params[1]));
    EXPECT_FALSE(params[0].same_as(p.parameter()));
    EXPECT_EQ(q.infer_arguments().size(), 1u);
}

TEST(Serialization, SelfCallsStayWeak) {
    // g's update calls g itself: through a WeakFunctionRef, so the deserialized g is freed with
    // its pipeline (a strong self-reference would leak it).
    Var x("x");
    Func g("g");
    g(x) = x;
    g(x) = g(x) + 1;
    internal::IntrusivePtr<internal::WeakFunctionRef> weak;
    {
        Pipeline q = deserialize_pipeline(bytes_of(Pipeline(g)), {});
        internal::Function dg = q.outputs()[0].function();
        const internal::Call *self =
            dg.updates()[0].values[0].as<internal::Add>()->a.as<internal::Call>();
        ASSERT_NE(self, nullptr);
        EXPECT_NE(dynamic_cast<const internal::WeakFunctionRef *>(self->func.get()), nullptr);
        weak = dg.contents->weak_self;
        ASSERT_EQ(weak->target, dg.contents.get());
        Buffer<int> out = q.realize({4})[0];
        EXPECT_EQ(out(3), 4);
    }
    EXPECT_EQ(weak->target, nullptr);
}

TEST(Serialization, NamesDropReuseSuffixes) {
    Func first("twice"), second("twice");
    Var x("x");
    first(x) = x;
    second(x) = first(x) + 1;
    EXPECT_EQ(second.name(), "twice$1");
    Pipeline q = deserialize_pipeline(bytes_of(Pipeline(second)), {});
    // Fresh unique names: "twice$N" here, "twice" in a process that has no Func of that name.
    EXPECT_EQ(without_unique_suffixes(q.outputs()[0].name()), "twice");
    EXPECT_NE(q.outputs()[0].name(), second.name());
}

TEST(Serialization, UserParamsBindTheCallersObjects) {
    ImageParam input(UInt(16), 2, "input");
    Param<int> gain("gain", 2);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = cast<int>(input(x, y)) * gain;
    std::vector<uint8_t> data;
    std::map<std::string, Parameter> params;
    serialize_pipeline(Pipeline(f), data, params);
    ASSERT_EQ(params.size(), 2u);
    EXPECT_TRUE(params["input"].same_as(input.parameter()));

    // deserialize_parameters: new Parameters with the serialized names, types and values.
    std::map<std::string, Parameter> found = deserialize_parameters(data);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_TRUE(found["input"].is_buffer());
    EXPECT_EQ(found["input"].type(), UInt(16));
    EXPECT_EQ(found["input"].dimensions(), 2);
    EXPECT_FALSE(found["gain"].is_buffer());
    EXPECT_EQ(found["gain"].type(), Int(32));
    EXPECT_EQ(found["gain"].scalar<int32_t>(), 2);
    EXPECT_FALSE(found["input"].same_as(input.parameter()));

    // Bound to the caller's objects: their buffer and value feed the deserialized pipeline.
    Pipeline q =
        deserialize_pipeline(data, {{"input", input.parameter()}, {"gain", gain.parameter()}});
    Buffer<uint16_t> a = ramp_image(6, 5);
    input.set(a);
    gain.set(3);
    Buffer<int> out = q.realize({6, 5})[0];
    EXPECT_EQ(out(4, 3), a(4, 3) * 3);
    Buffer<uint16_t> b = ramp_image(9, 9);
    b.fill(1000);
    input.set(b);
    out = q.realize({6, 5})[0];
    EXPECT_EQ(out(4, 3), 3000);

    // The Halide flow: deserialize_parameters, bind, then deserialize with them.
    found["input"].set_buffer(a);
    found["gain"].set_scalar<int32_t>(-1);
    Pipeline r = deserialize_pipeline(data, found);
    out = r.realize({6, 5})[0];
    EXPECT_EQ(out(2, 1), -a(2, 1));

    // A parameter of another shape is refused.
    ImageParam wrong(UInt(16), 3, "input");
    expect_error(
        [&] {
            deserialize_pipeline(data, {{"input", wrong.parameter()}});
        },
        {"user_params[\"input\"]", "2-dimensional buffer of uint16",
         "3-dimensional buffer of uint16"});
}

TEST(Serialization, FilesAndStreams) {
    Built a = blur();
    char name[] = "/tmp/loom_serialization_XXXXXX";
    close(mkstemp(name));
    std::map<std::string, Parameter> params;
    serialize_pipeline(a.pipeline, std::string(name), params);
    EXPECT_EQ(params.size(), 1u);
    Pipeline from_file = deserialize_pipeline(std::string(name), a.inputs);
    std::ifstream in(name, std::ios::binary);
    Pipeline from_stream = deserialize_pipeline(in, a.inputs);
    EXPECT_EQ(deserialize_parameters(std::string(name)).size(), 1u);
    std::remove(name);
    EXPECT_TRUE(same_bytes(bytes_of(a.pipeline), bytes_of(from_file)));
    EXPECT_TRUE(same_bytes(bytes_of(a.pipeline), bytes_of(from_stream)));
    expect_error([&] { deserialize_pipeline(std::string("/nonexistent/pipeline.bin"), {}); },
                 {"can't open \"/nonexistent/pipeline.bin\""});
}

TEST(Serialization, UnserializablePipelinesAreRefused) {
    Var x("x");
    Func f("uses_extern");
    f(x) = loomtest_ser_mix(x, 1);
    Pipeline p(f);
    p.set_jit_externs(
        {{"loomtest_ser_mix", JITExtern(static_cast<int (*)(int, int)>(loomtest_ser_mix))}});
    expect_error([&] { bytes_of(p); }, {"Func \"uses_extern\"", "\"loomtest_ser_mix\"",
                                        "set_jit_externs", "can't be serialized"});

    Pipeline q(f);
    q.jit_handlers().custom_print = [](JITUserContext *, const char *) {};
    expect_error([&] { bytes_of(q); }, {"custom_print", "C function pointer"});

    int target = 0;
    Param<void *> ptr("ptr");
    ptr.set((void *)&target);
    Func g("reads_ptr");
    g(x) = select(reinterpret<uint64_t>(Expr(ptr)) == 0, x, 0);
    expect_error([&] { bytes_of(Pipeline(g)); },
                 {"Param \"ptr\"", "Func \"reads_ptr\"", "Handle holding a pointer"});
    ptr.set((void *)nullptr);
    EXPECT_FALSE(bytes_of(Pipeline(g)).empty());
}

/// A small pipeline touching most of the format, for the corruption tests.
std::vector<uint8_t> small_pipeline() {
    ImageParam input(UInt(8), 1, "input");
    input.dim(0).set_min(0);
    Param<float> s("s", 1.5f);
    Buffer<int16_t> table(std::vector<int>{4}, "table");
    for (int i = 0; i < 4; i++) table(i) = (int16_t)(i * 3);
    Var x("x"), xi("xi");
    RDom r(0, 3, "r");
    r.where(r.x != 1);
    Func f("f"), g("g");
    f(x) = Tuple(cast<float>(input(x)) * s, table(x % 4));
    g(x) = f(x)[0];
    g(r.x) += cast<float>(f(r.x)[1]);
    g.split(x, x, xi, 4).vectorize(xi);
    f.compute_at(g, x);
    return bytes_of(Pipeline(g));
}

TEST(Serialization, WrongFormatAndVersion) {
    std::vector<uint8_t> data = small_pipeline();
    expect_error([] { deserialize_pipeline(std::vector<uint8_t>(), {}); },
                 {"not a pipeline serialized by Loom", "LOOMPIPE"});
    std::vector<uint8_t> other = data;
    other[0] = 'X';
    expect_error([&] { deserialize_pipeline(other, {}); }, {"not a pipeline serialized by Loom"});
    other = data;
    other[8] = 2; // the version, little-endian
    expect_error(
        [&] { deserialize_pipeline(other, {}); },
        {"serialized in format version 2", "reads version 1", "Serialize the pipeline again"});
}

TEST(Serialization, TruncatedDataIsRefused) {
    std::vector<uint8_t> data = small_pipeline();
    for (size_t n = 0; n < data.size(); n++) {
        std::vector<uint8_t> cut(data.begin(), data.begin() + n);
        expect_error([&] { deserialize_pipeline(cut, {}); },
                     {n < 28 ? "Can't deserialize the pipeline" : "truncated"});
        // Resealed, the decoder itself must notice the body ends early.
        if (n >= 28) {
            internal::reseal_serialized(cut);
            expect_error([&] { deserialize_pipeline(cut, {}); }, {"the data is corrupt"});
        }
    }
}

TEST(Serialization, CorruptDataIsRefusedOrHarmless) {
    std::vector<uint8_t> data = small_pipeline();
    for (size_t i = 28; i < data.size(); i++) {
        std::vector<uint8_t> bad = data;
        bad[i] ^= 0x5a;
        expect_error([&] { deserialize_pipeline(bad, {}); }, {"checksum does not match"});
    }
    // Past the checksum: every flip (and some random bytes) is either a CompileError saying the
    // data is corrupt, or a pipeline that deserializes (a changed constant, say); never a crash.
    std::mt19937 rng(7);
    int refused = 0, accepted = 0, circles = 0;
    for (size_t i = 28; i < data.size(); i++) {
        for (uint8_t flip : {(uint8_t)0x01, (uint8_t)0x80, (uint8_t)(rng() | 1)}) {
            std::vector<uint8_t> bad = data;
            bad[i] ^= flip;
            internal::reseal_serialized(bad);
            try {
                deserialize_pipeline(bad, {});
                accepted++;
            } catch (const CompileError &e) {
                refused++;
                // A self-call made strong would make g own itself, never freed: refused.
                circles += std::string(e.what()).find("in a circle") != std::string::npos;
            }
        }
    }
    EXPECT_GT(refused, 0);
    EXPECT_GT(accepted, 0);
    EXPECT_GT(circles, 0);
}

} // namespace
