#ifndef LOOM_LOWER_INJECT_PROFILING_H
#define LOOM_LOWER_INJECT_PROFILING_H

/// \file inject_profiling: the calls through which the profiler (Target::Profile and
/// ProfileByTimer; src/runtime/profiler.cpp) learns, for each run, which Func is being
/// computed, how many threads work on it and what heap memory each Func holds.
///
/// Each Func computed (every `produce` marker; inlined Funcs have none) gets an id in the
/// order the produce markers first appear; id 0 is time outside every Func ("waiting for
/// parallel tasks to finish", as Halide names it), and when the pipeline allocates on the heap,
/// ids 1 and 2 are halide_malloc and halide_free. The smallest statement that holds every
/// produce (so neither the entry checks nor a bounds query) becomes
///
///   allocate profiler_instance[uint64 * <instance state + func stats>] in Stack
///   let profiler_started = halide_profiler_instance_start(__user_context, "<pipeline>", <n>,
///                                                           make_struct("<name 0>", ...),
///                                                           profiler_instance, <by_timer>)
///   assert(profiler_started == 0, profiler_started)
///   let profiler_instance.destructor =
///       register_destructor("halide_profiler_instance_end", profiler_instance)
///   <the statement>
///
/// where, inside, with set(id) = halide_profiler_set_current_func(profiler_instance, id):
///   produce f { body }          ->  produce f { set(f); body }; set(<enclosing Func>)
///   parallel for (x) { body }   ->  set(0); decr_active_threads;
///                                   parallel for (x) { incr; set(<enclosing>); body; decr }
///                                   incr; set(<enclosing>)            (likewise each side of a
///                                                                      Fork)
///   allocate f[...] (heap) {b}  ->  let f.profiled_bytes = select(cond, bytes, 0)
///                                   set(halide_malloc); allocate f[...] {
///                                     set(<enclosing>); memory_allocate(f, f.profiled_bytes); b
///                                     [set(halide_free); memory_free(...); free f; set(...)]}
///   free f (heap)               ->  set(halide_free); memory_free(f, f.profiled_bytes); free f;
///                                   set(<enclosing>)
/// (an allocation named after a Func, or "<Func>.<i>" for a Tuple element, is that Func's; any
/// other is the enclosing Func's). The destructor ends the run also when a check fails inside
/// it. The heap/stack split is code generation's (allocated_on_heap); a Free, if any, is
/// unconditional in its allocation's body (inject_early_frees places them so), and one is
/// added at the end when there is none, so every byte counted is uncounted.
///
/// Runs after every pass that moves allocations and frees (inject_early_frees) and before
/// lower_parallel_tasks, which captures profiler_instance in each task's closure.
/// Tests: tests/unit/lower/inject_profiling_test.cpp, tests/correctness/profiler.cpp.

#include "ir/ir.h"

#include <string>

namespace loom {
namespace internal {

/// Adds the profiler's calls (see the file comment); `pipeline_name` is what the report names
/// the pipeline, `by_timer` selects the SIGPROF sampler. A statement without produce markers
/// is returned unchanged.
Stmt inject_profiling(const Stmt &s, const std::string &pipeline_name, bool by_timer);

} // namespace internal
} // namespace loom

#endif
