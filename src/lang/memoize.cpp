// Func::memoize: marks the Func so lowering (src/lower/memoization.cpp) wraps its production in
// a lookup in the runtime's cache (src/runtime/memoization_cache.cpp).
#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

Func &Func::memoize(const EvictionKey &eviction_key) {
    Function f = function();
    if (eviction_key.expr().defined()) {
        Type t = eviction_key.expr().type();
        user_assert(t.is_scalar() && (t.is_int() || t.is_uint() || t.is_handle()))
            << "Func " << f.name() << ": the eviction key of memoize() must be a scalar integer "
            << "or handle, not " << t << ".\n";
    }
    f.schedule().memoized = true;
    f.schedule().memoize_eviction_key = eviction_key.expr();
    f.touch();
    return *this;
}

} // namespace loom
