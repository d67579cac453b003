// lower_parallel_tasks: a parallel loop becomes a launch through halide_do_par_for of a task
// function whose closure carries what the body uses from outside, in order of first use.
#include "lower/lower_parallel_tasks.h"

#include "lower/lower_utils.h"

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

Expr handle_var(const std::string &n) { return Variable::make(Handle(), n); }
Expr null_handle() { return Call::make(Handle(), Call::make_struct, {}, Call::Intrinsic); }
Expr member(Type t, const Expr &closure, const Expr &shape, int i) {
    return Call::make(t, Call::load_struct_member, {closure, shape, Expr(i)}, Call::Intrinsic);
}

TEST(LowerParallelTasks, LoopBecomesALaunchOfATask) {
    Expr y = ivar("f.s0.y"), k = ivar("k"), n = ivar("n");
    Stmt body = flat_store("out", flat_load(Int(32), "in", y) + k, y);
    Stmt loop = For::make("f.s0.y", 0, n, ForType::Parallel, DeviceAPI::None, body);
    ParallelTasks r = lower_parallel_tasks(loop, "pipe");

    const std::string task = "pipe.par_for.f.s0.y";
    Expr closure = Call::make(Handle(), Call::make_struct, {handle_var("out"), handle_var("in"), k},
                              Call::Intrinsic);
    Expr launch =
        Call::make(Int(32), "halide_do_par_for",
                   {handle_var("__user_context"), handle_var(task), 0, n, closure}, Call::Extern);
    Expr res = ivar("f.s0.y.par_for");
    EXPECT_IR_EQ(r.body, LetStmt::make("f.s0.y.par_for", launch, AssertStmt::make(res == 0, res)));

    ASSERT_EQ(r.tasks.size(), 1u);
    const LoweredFunc &t = r.tasks[0];
    EXPECT_EQ(t.name, task);
    ASSERT_EQ(t.args.size(), 3u);
    EXPECT_EQ(t.args[0].name, "__user_context");
    EXPECT_EQ(t.args[1].name, "f.s0.y");
    EXPECT_EQ(t.args[1].type, Int(32));
    EXPECT_EQ(t.args[2].name, task + ".closure");
    EXPECT_EQ(t.args[2].type, Handle());
    Expr shape = Call::make(Handle(), Call::make_struct, {null_handle(), null_handle(), Expr(0)},
                            Call::Intrinsic);
    Expr c = handle_var(task + ".closure");
    Stmt want =
        LetStmt::make("out", member(Handle(), c, shape, 0),
                      LetStmt::make("in", member(Handle(), c, shape, 1),
                                    LetStmt::make("k", member(Int(32), c, shape, 2), body)));
    EXPECT_IR_EQ(t.body, want);
}

TEST(LowerParallelTasks, WhatTheBodyDefinesIsNotCaptured) {
    // A let, an inner loop and an allocation inside the body are the task's own; the loop's
    // bounds are evaluated by the launch.
    Expr y = ivar("y"), x = ivar("x"), t = ivar("t");
    Stmt inner =
        For::make("x", 0, 4, ForType::Serial, DeviceAPI::None, flat_store("tmp", x + t, x));
    Stmt body = LetStmt::make(
        "t", y * 2,
        Allocate::make("tmp", Int(32), MemoryType::Auto, {4}, const_true(),
                       Block::make(inner, flat_store("out", flat_load(Int(32), "tmp", 0), y))));
    ParallelTasks r = lower_parallel_tasks(
        For::make("y", ivar("lo"), ivar("n"), ForType::Parallel, DeviceAPI::None, body), "p");
    ASSERT_EQ(r.tasks.size(), 1u);
    // Only "out" comes from outside.
    const LetStmt *l = r.tasks[0].body.as<LetStmt>();
    ASSERT_TRUE(l) << r.tasks[0].body;
    EXPECT_EQ(l->name, "out");
    EXPECT_IR_EQ(l->body, body);
}

TEST(LowerParallelTasks, NestedLoopsInnermostFirst) {
    // The outer task launches the inner one; the inner task's name is never captured.
    Expr x = ivar("x"), y = ivar("y");
    Stmt inner = For::make("x", 0, 8, ForType::Parallel, DeviceAPI::None,
                           flat_store("out", x + y, x + y * 8));
    Stmt outer = For::make("y", 0, 8, ForType::Parallel, DeviceAPI::None, inner);
    ParallelTasks r = lower_parallel_tasks(outer, "p");
    ASSERT_EQ(r.tasks.size(), 2u);
    EXPECT_EQ(r.tasks[0].name, "p.par_for.x");
    EXPECT_EQ(r.tasks[1].name, "p.par_for.y");
    // The inner task captures out and y; the outer one only out (the inner launch's closure
    // reads it), not the task p.par_for.x.
    std::string outer_text = text(r.tasks[1].body);
    EXPECT_NE(outer_text.find("halide_do_par_for"), std::string::npos) << outer_text;
    const LetStmt *l = r.tasks[1].body.as<LetStmt>();
    ASSERT_TRUE(l);
    EXPECT_EQ(l->name, "out");
    EXPECT_FALSE(l->body.as<LetStmt>() && l->body.as<LetStmt>()->value.as<Call>() &&
                 l->body.as<LetStmt>()->value.as<Call>()->is_intrinsic(Call::load_struct_member))
        << outer_text;
    const LetStmt *a = r.tasks[0].body.as<LetStmt>();
    ASSERT_TRUE(a);
    EXPECT_EQ(a->name, "out");
    const LetStmt *b = a->body.as<LetStmt>();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->name, "y");
    // A serial loop is left alone.
    Stmt serial = For::make("x", 0, 8, ForType::Serial, DeviceAPI::None, flat_store("out", x, x));
    EXPECT_TRUE(lower_parallel_tasks(serial, "p").body.same_as(serial));
}

TEST(LowerParallelTasks, CopiesOfOneLoopGetTasksOfTheirOwn) {
    // Partitioning and specialization copy loops under the same name.
    Expr x = ivar("x");
    Stmt loop = For::make("x", 0, 8, ForType::Parallel, DeviceAPI::None, flat_store("out", x, x));
    ParallelTasks r = lower_parallel_tasks(IfThenElse::make(ivar("n") > 0, loop, loop), "p");
    ASSERT_EQ(r.tasks.size(), 2u);
    EXPECT_EQ(r.tasks[0].name, "p.par_for.x");
    EXPECT_EQ(r.tasks[1].name, "p.par_for.x.1");
}

TEST(LowerParallelTasks, ForkBecomesTwoLoopTasksSharingTheirSemaphores) {
    // The semaphore allocated outside the fork is passed to loom_do_fork (so a failing side
    // wakes the other); one allocated inside a side is that side's own.
    Expr k = ivar("k");
    Stmt producer = Block::make(flat_store("f", k, 0), release_semaphore("f.semaphore", 1));
    Stmt consumer = Block::make(
        acquire_semaphore("f.semaphore", 1),
        allocate_semaphore("g.semaphore", 0,
                           Block::make(acquire_semaphore("g.semaphore", 0),
                                       flat_store("out", flat_load(Int(32), "f", 0), 0))));
    Stmt s = allocate_semaphore("f.semaphore", 0, Fork::make(producer, consumer));
    ParallelTasks r = lower_parallel_tasks(s, "p");

    ASSERT_EQ(r.tasks.size(), 2u);
    EXPECT_EQ(r.tasks[0].name, "p.fork.producer");
    EXPECT_EQ(r.tasks[1].name, "p.fork.consumer");
    for (const LoweredFunc &t : r.tasks) {
        // halide_loop_task_t: (user context, min, extent, closure, task parent).
        ASSERT_EQ(t.args.size(), 5u) << t.name;
        EXPECT_EQ(t.args[1].type, Int(32));
        EXPECT_EQ(t.args[2].type, Int(32));
        EXPECT_EQ(t.args[3].name, t.name + ".closure");
        EXPECT_EQ(t.args[4].type, Handle());
    }
    auto closure = [](const std::vector<Expr> &values) {
        return Call::make(Handle(), Call::make_struct, values, Call::Intrinsic);
    };
    Expr launch = Call::make(
        Int(32), "loom_do_fork",
        {handle_var("__user_context"), handle_var("p.fork.producer"),
         closure({handle_var("f"), k, handle_var("f.semaphore")}), handle_var("p.fork.consumer"),
         closure({handle_var("f.semaphore"), handle_var("out"), handle_var("f")}),
         closure({handle_var("f.semaphore")}), Expr(1)},
        Call::Extern);
    Expr res = ivar("p.fork");
    EXPECT_IR_EQ(r.body, allocate_semaphore(
                             "f.semaphore", 0,
                             LetStmt::make("p.fork", launch, AssertStmt::make(res == 0, res))));
}

} // namespace
} // namespace test
} // namespace loom
