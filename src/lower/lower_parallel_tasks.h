#ifndef LOOM_LOWER_LOWER_PARALLEL_TASKS_H
#define LOOM_LOWER_LOWER_PARALLEL_TASKS_H

/// \file Closure conversion of parallel loops and forks: the body of every ForType::Parallel
/// loop becomes a function of its own (a task) that the runtime's halide_do_par_for runs for
/// each iteration, with everything it uses from outside passed explicitly in a closure. After
/// it no back end sees a parallel loop or a Fork: each generates the tasks as ordinary
/// functions, and GPU kernels will be cut out of the loop nest the same way.
///
///   parallel for (f.s0.y, mn, ext) { body }
/// becomes
///   let f.s0.y.par_for = halide_do_par_for(__user_context, <fn>.par_for.f.s0.y, mn, ext,
///                                          make_struct(a, b.buffer, in, ...))
///   assert(f.s0.y.par_for == 0, f.s0.y.par_for)   (the task reported the error already)
/// with the task (a LoweredFunc with internal linkage)
///   int32_t <fn>.par_for.f.s0.y(void *__user_context, int32_t f.s0.y, void *closure) {
///     let a = load_struct_member(closure, make_struct(<a zero of each captured type>), 0)
///     ...
///     body   (a failed assertion returns its code, as in any lowered function)
///   }
/// The closure holds every variable the body reads that is defined outside it, and the base
/// pointer of every buffer it loads from or stores to (Handle), in order of first use. The
/// user context is the task's own argument; a reference to a task is the Variable of its name
/// (Handle). Nested parallel loops are converted innermost first, so an outer task launches
/// the inner one.
///
/// A Fork (an async producer and its consumers, src/lower/async_producers.h) becomes two loop
/// tasks (halide_loop_task_t: user context, min, extent, closure, task parent), each with its
/// closure, launched together:
///   let <fn>.fork = loom_do_fork(__user_context, <fn>.fork.producer, make_struct(...),
///                                <fn>.fork.consumer, make_struct(...),
///                                make_struct(<semaphores both sides use>), <their count>)
///   assert(<fn>.fork == 0, <fn>.fork)
/// The semaphores passed are those allocated outside the fork that either side acquires or
/// releases: when one side fails, the runtime marks them failed so the other stops waiting.
/// Tests: tests/unit/lower/lower_parallel_tasks_test.cpp.

#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

struct ParallelTasks {
    Stmt body;                      ///< the input with every parallel loop replaced by its launch
    std::vector<LoweredFunc> tasks; ///< innermost first
};

/// Converts the parallel loops of `s`, the body of the lowered function `fn_name`.
ParallelTasks lower_parallel_tasks(const Stmt &s, const std::string &fn_name);

} // namespace internal
} // namespace loom

#endif
