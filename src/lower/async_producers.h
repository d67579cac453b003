#ifndef LOOM_LOWER_ASYNC_PRODUCERS_H
#define LOOM_LOWER_ASYNC_PRODUCERS_H

/// \file Func::ring_buffer and Func::async (Halide's semantics), on the Realize-level IR.
///
/// Ring buffers: a Func with ring_buffer(E) (whose storage is hoisted outside its store level)
/// gets an extra, outermost storage dimension of extent E, indexed at every Provide and call by
/// the iteration count of the loops between its Realize and its store level, modulo E.
///
/// Async: the body of an async Func f's Realize becomes
///   allocate f.semaphore = 0 [, f.ring_semaphore = E]
///   fork { producer side } { consumer side }
/// Both sides keep the loops, lets and ifs of the body. The producer side keeps f's productions,
/// each followed by release(f.semaphore, 1) (and preceded by acquire(f.ring_semaphore, 1)), the
/// productions in the body of the Funcs f reads (they feed it), f's folding acquires
/// (storage_folding), and drops the rest. The consumer side replaces each production of f by
/// acquire(f.semaphore, 1), so it reads what f computed in the same iteration only after it is
/// there; with a ring buffer each `consume f` ends with release(f.ring_semaphore, 1). Funcs f
/// reads that are computed in the body are computed on the consumer side too when it reads them.
/// One stored outside the body can't be (both sides would write its storage): if it is async,
/// the consumer side waits for it on a cloned semaphore its producer also releases (Halide's
/// rule and mechanism); otherwise it is a CompileError. lower_parallel_tasks turns each Fork
/// into two tasks run concurrently.
/// Async outputs and inlined Funcs have no Realize: nothing changes (as in Halide).
/// Tests: tests/compat/halide_async.cpp, tests/correctness/async.cpp.

#include "lang/call_graph.h"

namespace loom {
namespace internal {

Stmt async_producers(const Stmt &s, const CallGraph &graph);

} // namespace internal
} // namespace loom

#endif
