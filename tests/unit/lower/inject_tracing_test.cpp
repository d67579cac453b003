// inject_tracing: the halide_trace events of traced Funcs, inputs and Target features, on loop
// nests built by hand (IR before -> IR expected, compared structurally; the names the pass makes
// unique are numbered in order of appearance first): a pipeline nothing traces is unchanged;
// the pipeline events and the func_type_and_dim tag (then add_trace_tag's strings); a store
// becomes lets + store event + Provide, a load a let + return_second(load event, value); the
// realization, produce and consume events of a Func (an output: realization around the whole
// pipeline over its buffer, no consume events); loads and stores naming the innermost event of
// their Func; inputs (ImageParam::trace_loads, Target::TraceLoads) naming the pipeline; and the
// pipeline's name.
#include "lower_test_util.h"

#include "ir/ir_mutator.h"
#include "lower/inject_tracing.h"

#include <loom/runtime/loom_runtime.h>

#include <functional>

using namespace loom;
using namespace loom::test;

namespace {

/// Names the pass makes unique ("f.trace_arg", "f.trace_arg$3", ...) renamed to
/// "<name>#<k>", k counting the distinct names of that base in order of first appearance, so
/// the result does not depend on what other tests made unique before.
class NumberTraceNames : public IRMutator {
public:
    std::string rename(const std::string &n) {
        if (n.find(".trace_") == std::string::npos) return n;
        auto it = names.find(n);
        if (it != names.end()) return it->second;
        std::string base = n.substr(0, n.find('$'));
        std::string r = base + "#" + std::to_string(count[base]++);
        names[n] = r;
        return r;
    }

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        std::string n = rename(op->name);
        Expr v = mutate(op->value);
        return LetStmt::make(n, v, mutate(op->body));
    }
    Expr visit(const Let *op) override {
        std::string n = rename(op->name);
        Expr v = mutate(op->value);
        return Let::make(n, v, mutate(op->body));
    }
    Expr visit(const Variable *op) override {
        std::string n = rename(op->name);
        return n == op->name ? Expr(op) : Variable::make(op->type, n);
    }

private:
    std::map<std::string, std::string> names;
    std::map<std::string, int> count;
};

Stmt numbered(const Stmt &s) { return NumberTraceNames().mutate(s); }

Expr v(const std::string &n) { return ivar(n); }
Expr pid() { return ivar("trace.pipeline_id"); }

/// One event, as the header describes its arguments.
Expr trace(const std::string &func, halide_trace_event_code_t event, const Expr &parent,
           int value_index = 0, const Expr &value = Expr(0), const Expr &tag = Expr(""),
           const std::vector<Expr> &coords = {}) {
    std::vector<Expr> args = {
        StringImm::make(func), Expr((int)event), parent, Expr(value_index), value, tag};
    args.insert(args.end(), coords.begin(), coords.end());
    return Call::make(Int(32), trace_intrinsic, args, Call::Intrinsic);
}

/// The func_type_and_dim tag of a 1-D Int(32) Func over [min, max].
Expr int_1d_tag(const Expr &min, const Expr &max) {
    return Call::make(Handle(), Call::stringify,
                      {Expr("func_type_and_dim: 1 0 32 1 1 "), min, Expr(" "), max + 1 - min},
                      Call::PureIntrinsic);
}

/// begin_pipeline; tags...; body; end_pipeline.
Stmt pipeline(const std::string &name, std::vector<Stmt> stmts, const Stmt &body) {
    stmts.push_back(body);
    stmts.push_back(Evaluate::make(trace(name, halide_trace_end_pipeline, pid())));
    return LetStmt::make("trace.pipeline_id", trace(name, halide_trace_begin_pipeline, Expr(0)),
                         Block::make(stmts));
}

Stmt tag_event(const std::string &func, const Expr &tag) {
    return Evaluate::make(trace(func, halide_trace_tag, pid(), 0, Expr(0), tag));
}

Stmt loop(const std::string &name, const Stmt &body) {
    return For::make(name, 0, 10, ForType::Serial, DeviceAPI::None, body);
}

/// realize f([0, 10]) { produce f { for f.s0.x { f(x) = x * 2 } }
///                      consume f { for out.s0.x { out(x) = f(x) } } }
/// with hooks giving the traced form of each part (identity: the IR before).
struct TraceNest {
    Function f, out;
    std::function<Stmt(const Stmt &)> store = [](const Stmt &s) { return s; };
    std::function<Expr(const Expr &)> load = [](const Expr &e) { return e; };
    std::function<Stmt(const std::string &, bool, const Stmt &)> pc =
        [](const std::string &n, bool producer, const Stmt &s) {
            return ProducerConsumer::make(n, producer, s);
        };
    std::function<Stmt(const Stmt &)> realize_body = [](const Stmt &s) { return s; };

    explicit TraceNest(const std::string &name)
        : f(make_func(name, {"x"}, {ivar("x") * 2})),
          out(make_func(name + "_out", {"x"}, {f.make_call({ivar("x")})})) {}

    std::map<std::string, Function> env() const { return {{f.name(), f}, {out.name(), out}}; }
    std::vector<std::string> order() const { return {f.name(), out.name()}; }

    Stmt build() const {
        const std::string &n = f.name(), &o = out.name();
        Expr fx = v(n + ".s0.x"), ox = v(o + ".s0.x");
        Stmt produce = loop(n + ".s0.x", store(Provide::make(n, {fx * 2}, {fx}, const_true())));
        Stmt consume =
            loop(o + ".s0.x", Provide::make(o, {load(f.make_call({ox}))}, {ox}, const_true()));
        Stmt body = Block::make(pc(n, true, produce), pc(n, false, consume));
        return Realize::make(n, {Int(32)}, MemoryType::Auto, {Range(0, 10)}, const_true(),
                             realize_body(body));
    }
};

/// The trace events in s, in order: (func, event code, parent).
struct Event {
    std::string func;
    int code;
    Expr parent;
};
std::vector<Event> events(const Stmt &s) {
    std::vector<Event> out;
    visit_exprs(s, [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (c && c->is_intrinsic(trace_intrinsic)) {
            out.push_back(
                {c->args[0].as<StringImm>()->value, (int)*as_const_int(c->args[1]), c->args[2]});
        }
        return true;
    });
    return out;
}

} // namespace

TEST(InjectTracing, NothingTracedIsUnchanged) {
    TraceNest n("tr_none");
    Stmt before = n.build();
    EXPECT_TRUE(
        inject_tracing(before, "tr_pipe", {n.out}, n.env(), n.order(), Target()).same_as(before));
}

TEST(InjectTracing, StoresBecomeStoreEventsAfterThePipelineTags) {
    TraceNest n("tr_st");
    n.f.contents->trace_stores = true;
    n.f.contents->trace_tags = {"my tag"};
    Stmt after = inject_tracing(n.build(), "tr_pipe", {n.out}, n.env(), n.order(), Target());

    // f(x) = x * 2  ->  let a = x; let t = x * 2; { trace(store, t, a); f(a) = t }
    TraceNest e = n;
    e.store = [](const Stmt &s) {
        const Provide *p = s.as<Provide>();
        Expr a = v("tr_st.trace_arg#0"), t = v("tr_st.trace_value#0");
        Stmt body = Block::make(
            Evaluate::make(trace("tr_st", halide_trace_store, Expr(0), 0, t, Expr(""), {a})),
            Provide::make("tr_st", {t}, {a}, const_true()));
        return LetStmt::make("tr_st.trace_arg#0", p->args[0],
                             LetStmt::make("tr_st.trace_value#0", p->values[0], body));
    };
    // The tags: func_type_and_dim over the realized region [0, 9], then the user's.
    Stmt expected = pipeline(
        "tr_pipe", {tag_event("tr_st", int_1d_tag(0, 9)), tag_event("tr_st", Expr("my tag"))},
        e.build());
    EXPECT_IR_EQ(numbered(after), expected);
}

TEST(InjectTracing, LoadsReturnTheValueAfterTheLoadEvent) {
    TraceNest n("tr_ld");
    n.f.contents->trace_loads = true;
    Stmt after = inject_tracing(n.build(), "tr_pipe", {n.out}, n.env(), n.order(), Target());
    // f(a) -> let a' = a in let t = f(a') in return_second(trace(load, t, a'), t)
    TraceNest e = n;
    Function f = n.f;
    e.load = [f](const Expr &call) {
        Expr a = v("tr_ld.trace_arg#0"), t = v("tr_ld.trace_value#0");
        Expr ev = trace("tr_ld", halide_trace_load, Expr(0), 0, t, Expr(""), {a});
        Expr r = Call::make(Int(32), Call::return_second, {ev, t}, Call::Intrinsic);
        return Let::make("tr_ld.trace_arg#0", call.as<Call>()->args[0],
                         Let::make("tr_ld.trace_value#0", f.make_call({a}), r));
    };
    Stmt expected = pipeline("tr_pipe", {tag_event("tr_ld", int_1d_tag(0, 9))}, e.build());
    EXPECT_IR_EQ(numbered(after), expected);
}

TEST(InjectTracing, RealizationProduceAndConsumeEvents) {
    TraceNest n("tr_rz");
    n.f.contents->trace_realizations = true;
    Stmt after = inject_tracing(n.build(), "tr_pipe", {n.out}, n.env(), n.order(), Target());

    TraceNest e = n;
    // produce/consume report the region the pure stage computes; the realization its bounds.
    Expr mn = v("tr_rz.s0.x.min");
    std::vector<Expr> stage = {mn, v("tr_rz.s0.x.max") + 1 - mn};
    std::vector<Expr> realized = {Expr(0), Expr(10)};
    Expr rid = v("tr_rz.trace_id#0");
    e.pc = [=](const std::string &name, bool producer, const Stmt &s) {
        std::string id = producer ? "tr_rz.trace_id#1" : "tr_rz.trace_id#2";
        auto begin = producer ? halide_trace_produce : halide_trace_consume;
        auto end = producer ? halide_trace_end_produce : halide_trace_end_consume;
        Stmt body =
            Block::make(s, Evaluate::make(trace(name, end, v(id), 0, Expr(0), Expr(""), stage)));
        body = LetStmt::make(id, trace(name, begin, rid, 0, Expr(0), Expr(""), stage), body);
        return ProducerConsumer::make(name, producer, body);
    };
    e.realize_body = [=](const Stmt &s) {
        Stmt end = Evaluate::make(
            trace("tr_rz", halide_trace_end_realization, rid, 0, Expr(0), Expr(""), realized));
        return LetStmt::make(
            "tr_rz.trace_id#0",
            trace("tr_rz", halide_trace_begin_realization, pid(), 0, Expr(0), Expr(""), realized),
            Block::make(s, end));
    };
    Stmt expected = pipeline("tr_pipe", {tag_event("tr_rz", int_1d_tag(0, 9))}, e.build());
    EXPECT_IR_EQ(numbered(after), expected);
}

TEST(InjectTracing, LoadsAndStoresNameTheInnermostEventOfTheirFunc) {
    TraceNest n("tr_all");
    n.f.contents->trace_loads = true;
    n.f.contents->trace_stores = true;
    n.f.contents->trace_realizations = true;
    Stmt after =
        numbered(inject_tracing(n.build(), "tr_pipe", {n.out}, n.env(), n.order(), Target()));
    std::vector<Event> ev = events(after);
    std::vector<std::pair<int, std::string>> got;
    for (const Event &e : ev) {
        const Variable *p = e.parent.as<Variable>();
        got.emplace_back(e.code, p ? p->name : text(e.parent));
    }
    // In the order of the statement: pipeline, tag, realization (its id #0), produce (#1, the
    // store inside names it, as does end_produce), consume (#2, the load inside names it),
    // end_realization, end_pipeline.
    std::vector<std::pair<int, std::string>> want = {
        {halide_trace_begin_pipeline, "0"},
        {halide_trace_tag, "trace.pipeline_id"},
        {halide_trace_begin_realization, "trace.pipeline_id"},
        {halide_trace_produce, "tr_all.trace_id#0"},
        {halide_trace_store, "tr_all.trace_id#1"},
        {halide_trace_end_produce, "tr_all.trace_id#1"},
        {halide_trace_consume, "tr_all.trace_id#0"},
        {halide_trace_load, "tr_all.trace_id#2"},
        {halide_trace_end_consume, "tr_all.trace_id#2"},
        {halide_trace_end_realization, "tr_all.trace_id#0"},
        {halide_trace_end_pipeline, "trace.pipeline_id"},
    };
    EXPECT_EQ(got, want) << after;
}

TEST(InjectTracing, OutputIsRealizedAroundThePipelineWithoutConsumeEvents) {
    // produce out { for out.s0.x { out(x) = x } } consume out { 0 }, out tracing realizations.
    Function out = make_func("tr_o", {"x"}, {ivar("x")});
    out.contents->trace_realizations = true;
    Expr x = v("tr_o.s0.x");
    Stmt produce = loop("tr_o.s0.x", Provide::make("tr_o", {x}, {x}, const_true()));
    Stmt before = Block::make(ProducerConsumer::make_produce("tr_o", produce),
                              ProducerConsumer::make_consume("tr_o", Evaluate::make(0)));
    Stmt after = inject_tracing(before, "tr_pipe", {out}, {{"tr_o", out}}, {"tr_o"}, Target());

    Expr mn = v("tr_o.min.0"), ext = v("tr_o.extent.0");
    std::vector<Expr> buffer = {mn, ext};
    Expr smn = v("tr_o.s0.x.min");
    std::vector<Expr> stage = {smn, v("tr_o.s0.x.max") + 1 - smn};
    Expr rid = v("tr_o.trace_id#0"), pid1 = v("tr_o.trace_id#1");
    Stmt traced_produce = LetStmt::make(
        "tr_o.trace_id#1", trace("tr_o", halide_trace_produce, rid, 0, Expr(0), Expr(""), stage),
        Block::make(produce, Evaluate::make(trace("tr_o", halide_trace_end_produce, pid1, 0,
                                                  Expr(0), Expr(""), stage))));
    Stmt body = Block::make(ProducerConsumer::make_produce("tr_o", traced_produce),
                            ProducerConsumer::make_consume("tr_o", Evaluate::make(0)));
    Stmt realization = LetStmt::make(
        "tr_o.trace_id#0",
        trace("tr_o", halide_trace_begin_realization, pid(), 0, Expr(0), Expr(""), buffer),
        Block::make(body, Evaluate::make(trace("tr_o", halide_trace_end_realization, rid, 0,
                                               Expr(0), Expr(""), buffer))));
    // The tag reports the output buffer's region.
    Stmt expected =
        pipeline("tr_pipe", {tag_event("tr_o", int_1d_tag(mn, mn + ext - 1))}, realization);
    EXPECT_IR_EQ(numbered(after), expected);
}

TEST(InjectTracing, TracedInputLoadsNameThePipeline) {
    // out(x) = in(x + 1) over [0, 10) with in.trace_loads(): the input's tag comes first, over
    // the region read.
    Parameter in(Int(32), true, 1, "tr_in");
    in.set_trace_loads(true);
    Function out = make_func("tr_in_out", {"x"}, {ivar("x")});
    Expr x = v("tr_in_out.s0.x");
    auto body = [&](const Expr &value) {
        return loop("tr_in_out.s0.x", Provide::make("tr_in_out", {value}, {x}, const_true()));
    };
    Expr read = Call::make(Int(32), "tr_in", {x + 1}, Call::Image, nullptr, 0, in);
    Stmt after =
        inject_tracing(body(read), "tr_pipe", {out}, {{"tr_in_out", out}}, {"tr_in_out"}, Target());

    Expr a = v("tr_in.trace_arg#0"), t = v("tr_in.trace_value#0");
    Expr traced = Let::make(
        "tr_in.trace_arg#0", x + 1,
        Let::make("tr_in.trace_value#0",
                  Call::make(Int(32), "tr_in", {a}, Call::Image, nullptr, 0, in),
                  Call::make(Int(32), Call::return_second,
                             {trace("tr_in", halide_trace_load, pid(), 0, t, Expr(""), {a}), t},
                             Call::Intrinsic)));
    Stmt expected = pipeline("tr_pipe", {tag_event("tr_in", int_1d_tag(1, 10))}, body(traced));
    EXPECT_IR_EQ(numbered(after), expected);
}

TEST(InjectTracing, TargetTraceLoadsTracesEveryLoad) {
    TraceNest n("tr_tl");
    Stmt after = numbered(inject_tracing(n.build(), "tr_pipe", {n.out}, n.env(), n.order(),
                                         Target().with_feature(Target::TraceLoads)));
    std::vector<int> codes;
    for (const Event &e : events(after)) codes.push_back(e.code);
    // Both Funcs get a tag (in realization order), f's load an event; nothing stores.
    EXPECT_EQ(codes,
              (std::vector<int>{halide_trace_begin_pipeline, halide_trace_tag, halide_trace_tag,
                                halide_trace_load, halide_trace_end_pipeline}))
        << after;
}

TEST(InjectTracing, TracePipelineAloneAddsOnlyThePipelineEvents) {
    TraceNest n("tr_tp");
    Stmt before = n.build();
    Stmt after = inject_tracing(before, "tr_pipe", {n.out}, n.env(), n.order(),
                                Target().with_feature(Target::TracePipeline));
    EXPECT_IR_EQ(after, pipeline("tr_pipe", {}, before));
}

TEST(InjectTracing, PipelineNameIsTheFirstOutputsUnderTheJIT) {
    Function out = make_func("tr_name", {"x"}, {ivar("x")});
    EXPECT_EQ(trace_pipeline_name("loom_tr_name", {out}), "tr_name");
    EXPECT_EQ(trace_pipeline_name("my_pipeline", {out}), "my_pipeline");
    Function reused = make_func("tr_name$1", {"x"}, {ivar("x")});
    EXPECT_EQ(trace_pipeline_name("loom_tr_name_1", {reused}), "tr_name$1");
}

TEST(InjectTracing, TagReportsTheRegionOverTheWholeRun) {
    // f realized inside the loop over out.s0.x in [0, 10), one value per iteration: its tag
    // reports [0, 9], not one iteration's region.
    Function f = make_func("tr_at", {"x"}, {ivar("x")});
    f.contents->trace_stores = true;
    Function out = make_func("tr_at_out", {"x"}, {f.make_call({ivar("x")})});
    Expr ox = v("tr_at_out.s0.x");
    Stmt pc = Block::make(
        ProducerConsumer::make_produce("tr_at", Evaluate::make(0)),
        ProducerConsumer::make_consume(
            "tr_at", Provide::make("tr_at_out", {f.make_call({ox})}, {ox}, const_true())));
    Stmt before = loop("tr_at_out.s0.x", Realize::make("tr_at", {Int(32)}, MemoryType::Auto,
                                                       {Range(ox, 1)}, const_true(), pc));
    Stmt after = inject_tracing(before, "tr_pipe", {out}, {{"tr_at", f}, {"tr_at_out", out}},
                                {"tr_at", "tr_at_out"}, Target());
    EXPECT_IR_EQ(after, pipeline("tr_pipe", {tag_event("tr_at", int_1d_tag(0, 9))}, before));
}
