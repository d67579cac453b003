// Func::async and Func::ring_buffer: they only record the decision in the FuncSchedule; lowering
// (src/lower/async_producers.cpp) forks the producer from its consumers and adds the ring
// dimension, and storage_folding makes a folded async producer wait for its consumer.
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "ir/ir_utils.h"
#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

Func &Func::async() {
    Function f = function();
    f.schedule().async = true;
    f.touch();
    return *this;
}

Func &Func::ring_buffer(Expr extent) {
    Function f = function();
    user_assert(extent.defined() && extent.type().is_scalar() &&
                (extent.type().is_int() || extent.type().is_uint()))
        << "Func " << f.name() << ": the extent of ring_buffer() must be a scalar integer "
        << "expression (the number of copies of the storage).\n";
    const int64_t *c = as_const_int(extent);
    user_assert(!c || *c > 0) << "Func " << f.name() << ": ring_buffer(" << *c
                              << ") needs at least one copy of the storage; use a positive "
                              << "extent (2 lets an async producer run one iteration ahead).\n";
    f.schedule().ring_buffer = cast(Int(32), extent);
    f.touch();
    return *this;
}

} // namespace loom
