// Extern stages (Func::define_extern) after bounds inference: lower_extern_stages replaces
// `produce f` by the call over halide_buffer_t's built in place (IR expected compared
// structurally: the touch marker, the input's and the output's buffers, the call, the assertion
// on its result; an output passes its own buffer) and records the bounds query (a null-host
// buffer per Func input, the output over the region f computes in terms of the arguments, the
// call, the assertion, the lets of the regions the extern asks for; consumers' queries first);
// add_extern_bounds_queries puts the queries after the entry assertions (so before the regions
// add_image_checks lets, which use them) and removes the markers. The buffer of an input follows
// its storage order. And the CompileErrors: an extern stage with Func inputs computed inside a
// loop, C++ mangling.
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/add_image_checks.h"
#include "lower/bounds_inference.h"
#include "lower/extern_stages.h"
#include "lower/schedule_functions.h"

#include <loom/func.h>
#include <loom/var.h>

using namespace loom;
using namespace loom::test;

namespace {

Expr null_handle() { return Reinterpret::make(Handle(), make_zero(UInt(64))); }
Expr handle(const std::string &n) { return Variable::make(Handle(), n); }
Expr make_struct(const std::vector<Expr> &fields) {
    return Call::make(Handle(), Call::make_struct, fields, Call::Intrinsic);
}
Expr user_context() { return Variable::make(Handle(), "__user_context"); }

/// A 1-D Int(32) halide_buffer_t over `host`.
Expr buffer_1d(const Expr &host, const Expr &min, const Expr &extent, const Expr &stride) {
    Expr dim = make_struct({min, extent, stride, make_zero(UInt(32))});
    return make_struct({make_zero(UInt(64)), null_handle(), host, make_zero(UInt(64)),
                        make_const(UInt(8), (int64_t)Int(32).code()), make_const(UInt(8), 32),
                        make_const(UInt(16), 1), Expr(1), dim, null_handle()});
}

/// out(x) = f(x) + 1 with f the extern stage ext_fn(g, 7) (1-D Int32) computed at the root
/// (or at out's x), g(x) = x * 2 at the root.
struct ExternPipeline {
    Var x{"x"};
    Func g, f, out;
    explicit ExternPipeline(const std::string &prefix, bool f_inside_loop = false,
                            NameMangling mangling = NameMangling::Default)
        : g(prefix + "_g"), f(prefix + "_f"), out(prefix + "_out") {
        g(x) = x * 2;
        g.compute_root();
        f.define_extern("ext_fn", {g, 7}, Int(32), 1, mangling);
        if (f_inside_loop) {
            f.compute_at(out, x);
        } else {
            f.compute_root();
        }
        out(x) = f(x) + 1;
    }
};

struct Lowered {
    CallGraph graph;
    Stmt after_bounds, after;
    ExternBoundsQueries queries;
};

Lowered lower_externs(const Func &out) {
    Lowered l;
    l.graph = build_call_graph({out.function()});
    l.after_bounds = bounds_inference(schedule_functions(l.graph), l.graph);
    l.after = lower_extern_stages(l.after_bounds, l.graph.outputs, l.graph.env, &l.queries);
    return l;
}

/// The body of `produce name` in s (undefined when there is none).
Stmt produce_body(const Stmt &s, const std::string &name) {
    Stmt found;
    class Find : public IRVisitor {
    public:
        const std::string &name;
        Stmt &found;
        Find(const std::string &n, Stmt &f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const ProducerConsumer *op) override {
            if (op->is_producer && op->name == name && !found.defined()) found = op->body;
            IRVisitor::visit(op);
        }
    } find(name, found);
    find.dispatch(s);
    return found;
}

int step_index(const ExternBoundsQueries &q, const std::string &name) {
    for (size_t i = 0; i < q.steps.size(); i++) {
        if (q.steps[i].name == name) return (int)i;
    }
    return -1;
}

/// e with `known` and then every let of `lets` substituted, simplified.
Expr evaluate(Expr e, const std::map<std::string, Expr> &lets,
              const std::map<std::string, Expr> &known) {
    for (int i = 0; i < 64; i++) {
        Expr before = e;
        e = substitute(lets, substitute(known, e));
        if (equal(e, before)) break;
    }
    return simplify(e);
}

} // namespace

TEST(ExternStages, ProduceBecomesTheCallOverBuffersBuiltInPlace) {
    ExternPipeline p("ex_call");
    Lowered l = lower_externs(p.out);
    const Function f = p.f.function(), g = p.g.function();
    const std::string F = f.name(), G = g.name(), fx = f.args()[0];

    // The marker keeps the corners of g's queried region, read until add_image_checks.
    Stmt touch = Evaluate::make(Call::make(
        Int(32), "loom_extern_touch",
        {g.make_call({ivar(F + ".extern.a0.min.0")}), g.make_call({ivar(F + ".extern.a0.max.0")})},
        Call::Intrinsic));
    Expr a0 = handle(F + ".extern.a0.0.buffer"), out0 = handle(F + ".extern.out0.buffer");
    Expr result = ivar(F + ".extern.result");
    Stmt call = AssertStmt::make(
        result == 0, Call::make(Int(32), "halide_error_extern_stage_failed",
                                {user_context(), Expr("ext_fn"), result}, Call::Extern));
    call = LetStmt::make(F + ".extern.result",
                         Call::make(Int(32), "ext_fn", {a0, Expr(7), out0}, Call::Extern), call);
    // f's own storage as the output, g's (its realization) as the input.
    call = LetStmt::make(F + ".extern.out0.buffer",
                         buffer_1d(handle(F), ivar(F + "." + fx + ".min_realized"),
                                   ivar(F + "." + fx + ".extent_realized"), Expr(1)),
                         call);
    call = LetStmt::make(
        F + ".extern.a0.0.buffer",
        buffer_1d(handle(G), ivar(G + ".x.min_realized"), ivar(G + ".x.extent_realized"), Expr(1)),
        call);
    Stmt body = produce_body(l.after, F);
    ASSERT_TRUE(body.defined()) << l.after;
    EXPECT_IR_EQ(body, Block::make(touch, call));
    // g's produce is untouched.
    EXPECT_IR_EQ(produce_body(l.after, G), produce_body(l.after_bounds, G));
}

TEST(ExternStages, BoundsQueryAsksForTheRegionOfEachFuncInput) {
    ExternPipeline p("ex_query");
    Lowered l = lower_externs(p.out);
    const std::string F = p.f.function().name();
    const std::string q = F + ".query.";
    const std::vector<ExternBoundsQueries::Step> &steps = l.queries.steps;
    ASSERT_EQ(steps.size(), 6u);
    std::vector<std::string> names;
    for (const auto &s : steps) names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{q + "a0.0", q + "out0", q + "result", "",
                                               F + ".extern.a0.min.0", F + ".extern.a0.max.0"}));
    // The input: a null host and zeroed dimensions for the extern to fill in.
    EXPECT_IR_EQ(steps[0].value, buffer_1d(null_handle(), 0, 0, 0));
    // The output: the region f must compute, in terms of the pipeline's arguments: out's.
    const Call *out0 = steps[1].value.as<Call>();
    ASSERT_TRUE(out0 && out0->args.size() == 10u) << steps[1].value;
    EXPECT_IR_EQ(out0->args[2], null_handle());
    const Call *dim = out0->args[8].as<Call>();
    ASSERT_TRUE(dim && dim->args.size() == 4u) << steps[1].value;
    std::map<std::string, Expr> known{{p.out.name() + ".min.0", Expr(3)},
                                      {p.out.name() + ".extent.0", Expr(10)}};
    EXPECT_IR_EQ(evaluate(dim->args[0], {}, known), Expr(3));
    EXPECT_IR_EQ(evaluate(dim->args[1], {}, known), Expr(10));
    EXPECT_IR_EQ(dim->args[2], Expr(1));
    // The call in query mode and its check.
    Expr qa0 = Variable::make(Handle(), q + "a0.0"), qout = Variable::make(Handle(), q + "out0");
    EXPECT_IR_EQ(steps[2].value, Call::make(Int(32), "ext_fn", {qa0, Expr(7), qout}, Call::Extern));
    Expr result = ivar(q + "result");
    EXPECT_IR_EQ(steps[3].value, result == 0);
    EXPECT_IR_EQ(steps[3].message,
                 Call::make(Int(32), "halide_error_bounds_inference_call_failed",
                            {user_context(), Expr("ext_fn"), result}, Call::Extern));
    // What the extern asked for, as the bounds inference of g reads it.
    Expr qmin = Call::make(Int(32), Call::buffer_get_min, {qa0, Expr(0)}, Call::PureIntrinsic);
    Expr qext = Call::make(Int(32), Call::buffer_get_extent, {qa0, Expr(0)}, Call::PureIntrinsic);
    EXPECT_IR_EQ(steps[4].value, qmin);
    EXPECT_IR_EQ(steps[5].value, qmin + qext - 1);
    // ...which sizes g.
    auto lets = let_bindings(l.after);
    EXPECT_TRUE(
        expr_uses_var(evaluate(ivar(p.g.name() + ".s0.x.min"), lets, {}), F + ".extern.a0.min.0"));
}

TEST(ExternStages, ConsumersQueriesRunFirst) {
    // out(x) = f2(x), f2 = ext_b(f1), f1 = ext_a(g): f1's region is what f2's query asks for.
    Var x("x");
    Func g("exo_g"), f1("exo_f1"), f2("exo_f2"), out("exo_out");
    g(x) = x;
    g.compute_root();
    f1.define_extern("ext_a", {g}, Int(32), 1);
    f1.compute_root();
    f2.define_extern("ext_b", {f1}, Int(32), 1);
    f2.compute_root();
    out(x) = f2(x);
    Lowered l = lower_externs(out);
    const std::string F1 = f1.name(), F2 = f2.name();
    int f2_result = step_index(l.queries, F2 + ".query.result");
    int f1_out = step_index(l.queries, F1 + ".query.out0");
    int f2_asked = step_index(l.queries, F2 + ".extern.a0.min.0");
    ASSERT_GE(f2_result, 0);
    ASSERT_GE(f1_out, 0);
    EXPECT_LT(f2_result, f1_out);
    EXPECT_LT(f2_asked, f1_out);
    EXPECT_TRUE(expr_uses_var(l.queries.steps[f1_out].value, F2 + ".extern.a0.min.0"))
        << l.queries.steps[f1_out].value;
}

TEST(ExternStages, OutputExternWritesIntoTheOutputBuffer) {
    Var x("x");
    Func g("exout_g"), f("exout_f");
    g(x) = x;
    g.compute_root();
    f.define_extern("ext_fn", {g}, Int(32), 1);
    Lowered l = lower_externs(f);
    const std::string F = f.name();
    Stmt body = produce_body(l.after, F);
    ASSERT_TRUE(body.defined()) << l.after;
    // No buffer of its own: the call gets "<f>.buffer".
    EXPECT_EQ(let_bindings(body).count(F + ".extern.out0.buffer"), 0u) << body;
    EXPECT_IR_EQ(let_bindings(body)[F + ".extern.result"],
                 Call::make(Int(32), "ext_fn",
                            {handle(F + ".extern.a0.0.buffer"), handle(F + ".buffer")},
                            Call::Extern));
}

TEST(ExternStages, NoExternStagesIsUnchanged) {
    Var x("x");
    Func g("exn_g"), out("exn_out");
    g(x) = x;
    g.compute_root();
    out(x) = g(x);
    CallGraph graph = build_call_graph({out.function()});
    Stmt s = bounds_inference(schedule_functions(graph), graph);
    ExternBoundsQueries q;
    EXPECT_TRUE(lower_extern_stages(s, graph.outputs, graph.env, &q).same_as(s));
    EXPECT_TRUE(q.steps.empty());
}

TEST(ExternStages, QueriesGoAfterTheEntryAssertionsAndMarkersGo) {
    Stmt a1 = AssertStmt::make(ivar("a") > 0, Expr(1)), a2 = AssertStmt::make(ivar("b") > 0, 2);
    Stmt marker =
        Evaluate::make(Call::make(Int(32), "loom_extern_touch", {ivar("c")}, Call::Intrinsic));
    Stmt work = Evaluate::make(ivar("w"));
    Stmt before = Block::make({a1, a2, marker, work});
    ExternBoundsQueries q;
    q.steps.push_back({"r", ivar("query"), Expr()});
    q.steps.push_back({"", ivar("r") == 0, Expr(3)});
    q.steps.push_back({"m", ivar("r") + 1, Expr()});
    Stmt rest = Block::make(Evaluate::make(0), work);
    rest = LetStmt::make("r", ivar("query"),
                         Block::make(AssertStmt::make(ivar("r") == 0, Expr(3)),
                                     LetStmt::make("m", ivar("r") + 1, rest)));
    EXPECT_IR_EQ(add_extern_bounds_queries(before, q), Block::make({a1, a2, rest}));
    // Without queries only the markers go.
    EXPECT_IR_EQ(add_extern_bounds_queries(before, ExternBoundsQueries()),
                 Block::make({a1, a2, Evaluate::make(0), work}));
}

TEST(ExternStages, ExternInsideALoopIsQueriedOnceForAllIterations) {
    // f computed at out's x: its query runs at the top, over the union of f's regions over
    // the loop, so nothing in it names the loop variable; the call stays inside the loop.
    ExternPipeline p("ex_inner", /*f_inside_loop=*/true);
    Lowered l = lower_externs(p.out);
    const std::string loop = p.out.name() + ".s0." + p.x.name();
    ASSERT_FALSE(l.queries.steps.empty());
    for (const ExternBoundsQueries::Step &step : l.queries.steps) {
        EXPECT_FALSE(expr_uses_var(step.value, loop)) << step.name << " = " << step.value;
    }
    EXPECT_TRUE(produce_body(l.after, p.f.name()).defined());
}

TEST(ExternStages, CPlusPlusManglingIsACompileError) {
    ExternPipeline p("ex_mangle", false, NameMangling::CPlusPlus);
    try {
        lower_externs(p.out);
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("C++ name mangling"), std::string::npos) << e.what();
    }
}

TEST(ExternStages, InputBufferFollowsTheInputsStorageOrder) {
    // g(x, y) with reorder_storage(y, x): y is innermost in g's storage, so the buffer the
    // extern gets has stride 1 in y and the extent of y in x (as storage_flattening lays g out).
    Var x("x"), y("y");
    Func g("exst_g"), f("exst_f"), out("exst_out");
    g(x, y) = x + y;
    g.compute_root().reorder_storage(y, x);
    f.define_extern("ext_fn", {g}, Int(32), 2);
    f.compute_root();
    out(x, y) = f(x, y);
    Lowered l = lower_externs(out);
    const std::string F = f.name(), G = g.name();
    Expr buf = let_bindings(produce_body(l.after, F))[F + ".extern.a0.0.buffer"];
    const Call *b = buf.as<Call>();
    ASSERT_TRUE(b && b->args.size() == 10u) << buf;
    const Call *dims = b->args[8].as<Call>();
    ASSERT_TRUE(dims && dims->args.size() == 8u) << buf;
    Expr ext_y = ivar(G + ".y.extent_realized");
    // Dimension 0 (x): min, extent, stride; dimension 1 (y).
    EXPECT_IR_EQ(dims->args[0], ivar(G + ".x.min_realized"));
    EXPECT_IR_EQ(dims->args[2], Expr(1) * ext_y);
    EXPECT_IR_EQ(dims->args[4], ivar(G + ".y.min_realized"));
    EXPECT_IR_EQ(dims->args[6], Expr(1));
}

TEST(ExternStages, QueriesRunBeforeTheRequiredRegionsThatUseThem) {
    // The composition lower.cpp makes: add_image_checks, then add_extern_bounds_queries. The
    // queries define "<f>.extern.a0.*", which g's bounds (and so the regions add_image_checks
    // lets) use: they go right after the entry assertions, before the bounds-query branch, so a
    // bounds query of the pipeline runs them too.
    Var x("x");
    Func g("exq_g"), f("exq_f");
    g(x) = x;
    g.compute_root();
    f.define_extern("ext_fn", {g}, Int(32), 1);
    Lowered l = lower_externs(f);
    LoweredArgument out;
    out.name = f.name();
    out.kind = LoweredArgument::OutputBuffer;
    out.type = Int(32);
    out.dimensions = 1;
    Stmt checked = add_image_checks(simplify(l.after), {out}, l.graph.outputs, {});
    Stmt s = add_extern_bounds_queries(checked, l.queries);
    std::vector<Stmt> stmts = flatten_blocks(s);
    size_t first = 0;
    while (first < stmts.size() && stmts[first].as<AssertStmt>()) first++;
    EXPECT_EQ(first, 3u) << s; // null, type and dimension checks of the output
    ASSERT_LT(first, stmts.size());
    // Then the query's lets and assertion, and inside them the rest of the checked pipeline.
    Stmt rest = stmts[first];
    std::vector<std::string> lets;
    while (true) {
        if (const LetStmt *let = rest.as<LetStmt>()) {
            lets.push_back(let->name);
            rest = let->body;
        } else if (const Block *b = rest.as<Block>()) {
            if (!b->first.as<AssertStmt>()) break;
            rest = b->rest;
        } else {
            break;
        }
    }
    const std::string F = f.name();
    ASSERT_GE(lets.size(), 5u) << s;
    EXPECT_EQ(lets[0], F + ".query.a0.0");
    EXPECT_EQ(lets[4], F + ".extern.a0.max.0");
    EXPECT_TRUE(rest.as<IfThenElse>()) << rest; // the bounds-query branch
    // No marker is left.
    EXPECT_EQ(text(s).find("loom_extern_touch"), std::string::npos) << s;
}
