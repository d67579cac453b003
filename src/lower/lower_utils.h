#ifndef LOOM_LOWER_LOWER_UTILS_H
#define LOOM_LOWER_LOWER_UTILS_H

/// \file Small IR builders and queries several lowering passes share (a pass never includes
/// another pass's header: what two passes need lives here or in a utility of its own).
/// Tests: tests/unit/lower/vectorize_loops_test.cpp (all_lanes_true).

#include "ir/ir.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// A call to the runtime error reporter `fn` (Int(32), Extern), with __user_context first.
Expr runtime_error_call(const std::string &fn, const std::vector<Expr> &args);

/// The Variable "<name>.buffer" (Handle) of buffer argument `name`.
Expr buffer_handle(const std::string &name);

/// What `s` uses from outside it: variables (with their types) and buffers (by the name
/// Load/Store use, typed Handle), in order of first use, except the names in `ignore`. The
/// closure of a parallel task or a GPU kernel.
std::vector<std::pair<std::string, Type>> free_symbols(const Stmt &s,
                                                       const std::set<std::string> &ignore);

/// A null Handle.
Expr null_handle();

/// A halide_buffer_t built in place by the compiled code (its fields in declaration order;
/// make_struct lays them out as C does), with a halide_dimension_t array of its own, live until
/// the function returns.
Expr make_buffer(const Expr &host, Type t, const std::vector<Expr> &mins,
                 const std::vector<Expr> &extents, const std::vector<Expr> &strides);

/// Dense strides for `extents`, innermost dimension first.
std::vector<Expr> dense_strides(const std::vector<Expr> &extents);

/// Whether c is likely(x) or likely_if_innermost(x).
bool is_likely_call(const Call *c);

/// e (or s) without its likely()/likely_if_innermost() tags: all of them, or, when `var` is
/// given, those whose argument mentions it. The tags hide min(likely(a + 7), m) - a from the
/// simplifier, and a loop's edge copies must not be partitioned again on its variable.
Expr remove_likely_tags(const Expr &e, const std::string &var = "");
Stmt remove_likely_tags(const Stmt &s, const std::string &var = "");

/// The smallest and largest lane (*lo, *hi) of the signed integer vector e, from ramps with
/// constant strides, broadcasts, sums, products by constants, min/max, likely() and the
/// vector values of the variables in `lets`; false when they can't be told.
bool lane_bounds(const Expr &e, const std::map<std::string, Expr> &lets, Expr *lo, Expr *hi,
                 int depth = 0);

/// A scalar condition true exactly when every lane of the vector condition `cond` is true,
/// built from the lanes' extremes (ramps with constant strides, broadcasts, sums, products by
/// constants, min/max, likely(), and the variables in `lets`, widened lets whose vector values
/// it looks through); && splits. Undefined when it cannot tell (e.g. data-dependent lanes).
Expr all_lanes_true(const Expr &cond, const std::map<std::string, Expr> &lets = {});

/// s with the coordinates of every Provide to and Halide call of Func `func` replaced by
/// `change(coordinates)` (storage folding's modulo, a ring buffer's extra dimension).
Stmt change_coordinates(const Stmt &s, const std::string &func,
                        const std::function<std::vector<Expr>(std::vector<Expr>)> &change);

/// The semaphores of Func::async (src/lower/async_producers.h): a halide_semaphore_t on the
/// stack, named "<f>.semaphore" (what the producer has computed), "<f>.ring_semaphore" (ring
/// buffer slots free) or "<f>.folding_semaphore.<dim>" (folded rows free); the Variable of the
/// allocation's name is its address.
/// `body` with the semaphore allocated around it and first set to `count`.
Stmt allocate_semaphore(const std::string &semaphore, const Expr &count, const Stmt &body);
/// Waits until `count` can be taken from the semaphore and takes it; the enclosing task
/// returns an error code if the other side of its fork failed.
Stmt acquire_semaphore(const std::string &semaphore, const Expr &count);
/// Adds `count` to the semaphore.
Stmt release_semaphore(const std::string &semaphore, const Expr &count);
/// The semaphore a call made by the three above acts on ("" for any other call).
std::string semaphore_of(const Call *c);
/// The semaphore of an acquire_semaphore statement ("" for any other statement).
std::string acquired_semaphore(const Stmt &s);
/// The semaphore of a release_semaphore statement ("" for any other statement).
std::string released_semaphore(const Stmt &s);

/// The largest size (bytes) an Auto allocation is moved to the stack for. Halide uses 16 KB;
/// Loom uses 64 KB (the limit code generation already used for constant sizes), which keeps
/// the per-tile intermediates of typical tiled schedules (a 256x34 uint16 tile is 17 KB) off
/// the heap, while staying far below the 8 MB stacks of the main thread and the thread pool's
/// workers even with a few such buffers live at once.
constexpr int64_t kMaxAutoStackBytes = 64 * 1024;

/// The number of elements of an allocation whose extents are all constants; -1 otherwise (or
/// when the product overflows).
int64_t constant_allocation_elements(const Allocate *op);

/// Whether code generation allocates op on the heap (halide_malloc; otherwise on the stack):
/// every allocation but those stored in Stack or Register memory and those of a constant size
/// of at most kMaxAutoStackBytes not stored in Heap memory. The profiler counts exactly these.
bool allocated_on_heap(const Allocate *op);

} // namespace internal
} // namespace loom

#endif
