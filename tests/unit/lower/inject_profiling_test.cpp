// inject_profiling: the run covers only the computation (not the entry checks or the bounds
// query); produce markers set the current Func and give it back; heap allocations and frees are
// counted for their Func (a Free is added where there is none), stack ones are not; parallel
// loops count their threads; Func ids follow the produce markers, after the overhead and
// malloc/free entries.
#include "lower/inject_profiling.h"

#include <loom/runtime/loom_runtime.h>

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

Expr instance() { return Variable::make(Handle(), "profiler_instance"); }
Expr uc() { return Variable::make(Handle(), "__user_context"); }

Stmt call(const char *fn, const std::vector<Expr> &args) {
    return Evaluate::make(Call::make(Int(32), fn, args, Call::Extern));
}

Stmt set(int id) { return call("halide_profiler_set_current_func", {instance(), id}); }

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

/// The run around `body`, with these Func names by id.
Stmt profiled(const Stmt &body, const std::vector<std::string> &names, bool by_timer = false) {
    std::vector<Expr> name_exprs;
    for (const std::string &n : names) name_exprs.push_back(StringImm::make(n));
    Expr started = Variable::make(Int(32), "profiler_started");
    Expr start = Call::make(Int(32), "halide_profiler_instance_start",
                            {uc(), StringImm::make("pipe"), (int)names.size(),
                             Call::make(Handle(), Call::make_struct, name_exprs, Call::Intrinsic),
                             instance(), by_timer ? 1 : 0},
                            Call::Extern);
    Expr destructor =
        Call::make(Handle(), Call::register_destructor,
                   {StringImm::make("halide_profiler_instance_end"), instance()}, Call::Intrinsic);
    Stmt s = LetStmt::make("profiler_instance.destructor", destructor, body);
    s = LetStmt::make("profiler_started", start,
                      Block::make(AssertStmt::make(started == 0, started), s));
    size_t bytes =
        sizeof(halide_profiler_instance_state) + names.size() * sizeof(halide_profiler_func_stats);
    return Allocate::make("profiler_instance", UInt(64), MemoryType::Stack,
                          {(int)((bytes + 7) / 8)}, const_true(), s);
}

TEST(InjectProfiling, ProduceMarkersAndAParallelLoop) {
    Expr x = ivar("x"), y = ivar("y");
    // check; produce f { parallel for y { f[y] = y } }  (f on the stack: no memory counted)
    Stmt produce_f = ProducerConsumer::make_produce(
        "f", For::make("y", 0, 4, ForType::Parallel, DeviceAPI::Host, store("f", y, y)));
    Stmt consume_f = ProducerConsumer::make_consume(
        "f", ProducerConsumer::make_produce("out", store("out", x, 0)));
    Stmt computation = Allocate::make("f", Int(32), MemoryType::Stack, {4}, const_true(),
                                      Block::make(produce_f, consume_f));
    Stmt check = AssertStmt::make(ivar("n") > 0, 7);
    Stmt s = Block::make(check, computation);

    Stmt task =
        Block::make({call("halide_profiler_incr_active_threads", {instance()}), set(1),
                     store("f", y, y), call("halide_profiler_decr_active_threads", {instance()})});
    Stmt launch = Block::make({set(0), call("halide_profiler_decr_active_threads", {instance()}),
                               For::make("y", 0, 4, ForType::Parallel, DeviceAPI::Host, task),
                               call("halide_profiler_incr_active_threads", {instance()}), set(1)});
    Stmt expected_f =
        Block::make(ProducerConsumer::make_produce("f", Block::make(set(1), launch)), set(0));
    Stmt expected_out = Block::make(
        ProducerConsumer::make_produce("out", Block::make(set(2), store("out", x, 0))), set(0));
    Stmt expected_computation =
        Allocate::make("f", Int(32), MemoryType::Stack, {4}, const_true(),
                       Block::make(expected_f, ProducerConsumer::make_consume("f", expected_out)));
    Stmt expected =
        Block::make(check, profiled(expected_computation,
                                    {"waiting for parallel tasks to finish", "f", "out"}));
    EXPECT_IR_EQ(inject_profiling(s, "pipe", false), expected);
}

TEST(InjectProfiling, HeapMemoryIsCountedForItsFunc) {
    Expr x = ivar("x"), n = ivar("n");
    // allocate g.0[n] (a Tuple element of g, on the heap) { produce g { g.0[x] = x }; free g.0 }
    Stmt body =
        Block::make(ProducerConsumer::make_produce("g", store("g.0", x, x)), Free::make("g.0"));
    Stmt s = Allocate::make("g.0", Float(32), MemoryType::Auto, {n}, const_true(), body);
    std::string t = text(inject_profiling(s, "pipe", false));
    // Ids: 1 halide_malloc, 2 halide_free, 3 g.
    EXPECT_NE(t.find("\"waiting for parallel tasks to finish\", \"halide_malloc\", "
                     "\"halide_free\", \"g\""),
              std::string::npos)
        << t;
    size_t set_malloc = t.find("halide_profiler_set_current_func(profiler_instance, 1)");
    size_t allocate = t.find("allocate g.0");
    size_t counted = t.find("halide_profiler_memory_allocate(__user_context, profiler_instance, "
                            "3, g.0.profiled_bytes)");
    size_t set_free = t.find("halide_profiler_set_current_func(profiler_instance, 2)");
    size_t uncounted = t.find("halide_profiler_memory_free(__user_context, profiler_instance, 3, "
                              "g.0.profiled_bytes)");
    size_t free_at = t.find("free g.0");
    ASSERT_NE(counted, std::string::npos) << t;
    ASSERT_NE(uncounted, std::string::npos) << t;
    EXPECT_LT(set_malloc, allocate) << t;
    EXPECT_LT(allocate, counted) << t;
    EXPECT_LT(set_free, uncounted) << t;
    EXPECT_LT(uncounted, free_at) << t;
    // One free, the one that was there.
    EXPECT_EQ(t.find("free g.0", free_at + 1), std::string::npos) << t;
    // The size: 4 bytes per element, when the condition holds.
    std::map<std::string, Expr> lets = let_bindings(inject_profiling(s, "pipe", false));
    ASSERT_TRUE(lets.count("g.0.profiled_bytes"));
    EXPECT_NE(text(lets["g.0.profiled_bytes"]).find("(uint64)4"), std::string::npos)
        << text(lets["g.0.profiled_bytes"]);
}

TEST(InjectProfiling, AFreeIsAddedWhereThereIsNone) {
    Expr x = ivar("x");
    Stmt s = Allocate::make("h", Int(32), MemoryType::Heap, {8}, const_true(),
                            ProducerConsumer::make_produce("h", store("h", x, x)));
    std::string t = text(inject_profiling(s, "pipe", false));
    size_t free_at = t.find("free h");
    ASSERT_NE(free_at, std::string::npos) << t;
    EXPECT_LT(t.find("halide_profiler_memory_free"), free_at) << t;
}

TEST(InjectProfiling, OnlyTheComputationIsProfiled) {
    Expr x = ivar("x");
    // if (query) { set bounds } else { produce out { ... } }
    Stmt query = Evaluate::make(Call::make(Int(32), "set_bounds", {}, Call::Extern));
    Stmt compute = ProducerConsumer::make_produce("out", store("out", x, 0));
    Stmt s = IfThenElse::make(Variable::make(Bool(), "is_query"), query, compute);
    Stmt result = inject_profiling(s, "pipe", true);
    const IfThenElse *i = result.as<IfThenElse>();
    ASSERT_NE(i, nullptr) << text(result);
    EXPECT_TRUE(equal(i->then_case, query)) << text(result);
    const Allocate *a = i->else_case.as<Allocate>();
    ASSERT_NE(a, nullptr) << text(result);
    EXPECT_EQ(a->name, "profiler_instance");
    // by_timer is the last argument of the start.
    EXPECT_NE(text(result).find("profiler_instance, 1)"), std::string::npos) << text(result);
    // Nothing computed: nothing to profile.
    EXPECT_TRUE(inject_profiling(query, "pipe", false).same_as(query));
}

} // namespace
} // namespace test
} // namespace loom
