// <loom/realization.h> in Python: Halide's Python API has no Realization class, so this file
// only holds the conversions realize uses (py_pipeline.h): a Realization becomes a Buffer or a
// tuple of Buffers, and realize's destinations are a Buffer or a list of them.
#include "py_pipeline.h"

namespace loom {
namespace python {

nb::object realization_to_python(const Realization &r) {
    if (r.size() == 1) return nb::cast(r[0]);
    nb::list out;
    for (const Buffer<void> &b : r) out.append(nb::cast(b));
    return nb::tuple(out);
}

bool is_buffer_or_buffers(nb::handle h) {
    if (nb::isinstance<Buffer<void>>(h)) return true;
    if (!(nb::isinstance<nb::tuple>(h) || nb::isinstance<nb::list>(h)) || nb::len(h) == 0) {
        return false;
    }
    for (nb::handle item : h) {
        if (!nb::isinstance<Buffer<void>>(item)) return false;
    }
    return true;
}

std::vector<Buffer<void>> to_buffers(nb::handle h) {
    std::vector<Buffer<void>> out;
    if (nb::isinstance<nb::tuple>(h) || nb::isinstance<nb::list>(h)) {
        for (nb::handle item : h) out.push_back(nb::cast<Buffer<void>>(item));
    } else {
        out.push_back(nb::cast<Buffer<void>>(h));
    }
    return out;
}

void define_realization(nb::module_ &) {}

} // namespace python
} // namespace loom
