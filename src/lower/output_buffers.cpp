#include "lower/output_buffers.h"

#include <map>
#include <mutex>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// The Parameters made so far, per Function. The entry holds the Function so its address
/// cannot be reused by another Function while the entry exists.
struct Entry {
    Function f;
    std::vector<Parameter> params;
};
std::mutex registry_mutex;
std::map<const FunctionContents *, Entry> &registry() {
    static std::map<const FunctionContents *, Entry> r;
    return r;
}

} // namespace

std::string output_buffer_name(const Function &f, int i) {
    if (f.outputs() == 1) return f.name();
    return f.name() + "." + std::to_string(i);
}

Parameter output_buffer_parameter(const Function &f, int i) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    Entry &e = registry()[f.contents.get()];
    e.f = f;
    if (e.params.size() != (size_t)f.outputs()) {
        e.params.clear();
        for (int k = 0; k < f.outputs(); k++) {
            e.params.emplace_back(f.output_types()[k], true, f.dimensions(),
                                  output_buffer_name(f, k));
            // Halide's default: outputs are dense in their innermost dimension
            // (output_buffer().dim(0).set_stride(Expr()) lifts it).
            if (f.dimensions() > 0) e.params.back().set_stride_constraint(0, Expr(1));
        }
    }
    return e.params[i];
}

Parameter find_output_buffer_parameter(const Function &f, int i) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry().find(f.contents.get());
    if (it == registry().end() || i >= (int)it->second.params.size()) return Parameter();
    return it->second.params[i];
}

} // namespace internal
} // namespace loom
