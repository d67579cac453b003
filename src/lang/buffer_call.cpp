/// \file The compiler side of loom::Buffer: a Buffer used inside an algorithm (`b(x, y)`)
/// becomes a Call::Image to a Parameter bound to that Buffer, which lowering turns into an
/// input of the pipeline that realize passes automatically.

#include <loom/buffer.h>
#include <loom/image_param.h>

#include "ir/ir.h"
#include "ir/parameter.h"
#include "support/error.h"
#include "support/util.h"

#include <map>
#include <mutex>

namespace loom {
namespace internal {

namespace {

/// One Parameter per Buffer, so every call to the same Buffer reads the same pipeline input.
/// The map is keyed by the Buffer's shared contents. An entry holds its Buffer alive through
/// the Parameter, so the key cannot be reused while the entry exists; entries whose Parameter
/// nothing else refers to (no IR mentions it any more) are dropped, releasing the Buffer.
/// Whether b's innermost dimension is dense (a zero-dimensional Buffer counts as dense).
bool dense_inner(const Buffer<void> &b) { return b.dimensions() == 0 || b.dim(0).stride() == 1; }

class BoundBufferParameters {
public:
    Parameter get(const Buffer<void> &b) {
        std::lock_guard<std::mutex> guard(lock);
        drop_unused();
        const BufferContents *key = b.get_contents().get();
        auto it = params.find(key);
        if (it != params.end()) {
            const Parameter &p = it->second;
            // A Buffer renamed or reshaped in place (e.g. sliced) since needs a new Parameter.
            if (p.type() == Type(b.type()) && p.dimensions() == b.dimensions() &&
                (b.name().empty() || p.name() == b.name()) &&
                (b.dimensions() == 0 || dense_inner(b) == p.stride_constraint(0).defined())) {
                return p;
            }
            params.erase(it);
        }
        std::string name = b.name().empty() ? unique_name('b') : b.name();
        Parameter p(b.type(), /*is_buffer*/ true, b.dimensions(), name);
        // The Buffer is the one the code will read: its innermost dimension is promised dense
        // (for dense vector loads) only when it is, so a strided view works, as in Halide.
        if (!dense_inner(b)) p.set_stride_constraint(0, Expr());
        p.set_buffer(b);
        p.set_is_bound_buffer(true);
        params.emplace(key, p);
        return p;
    }

private:
    void drop_unused() {
        for (auto it = params.begin(); it != params.end();) {
            if (it->second.contents->ref_count.load() == 1) {
                it = params.erase(it);
            } else {
                ++it;
            }
        }
    }

    std::mutex lock;
    std::map<const BufferContents *, Parameter> params;
};

BoundBufferParameters &bound_buffer_parameters() {
    // Never destroyed: Buffers may be released during static destruction.
    static BoundBufferParameters *table = new BoundBufferParameters;
    return *table;
}

} // namespace
} // namespace internal

template <>
Expr Buffer<void, AnyDims>::operator()(const std::vector<Expr> &args) const {
    user_assert(defined()) << "Call to an undefined Buffer in an algorithm.\n";
    internal::Parameter p = internal::bound_buffer_parameters().get(*this);
    std::vector<Expr> checked = internal::check_call_args("Buffer", p.name(), args, dimensions());
    return internal::Call::make(p.type(), p.name(), checked, internal::Call::Image, nullptr, 0, p);
}

} // namespace loom
