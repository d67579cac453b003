// Bindings of <loom/pipeline_fusion.h> (a Loom extension): fuse_pipelines.
#include "py_util.h"

#include <loom/pipeline_fusion.h>

namespace loom {
namespace python {

void define_pipeline_fusion(nb::module_ &m) {
    m.def(
        "fuse_pipelines",
        [](const Pipeline &first, const LoopLevel &first_at, const Pipeline &second,
           const LoopLevel &second_at) {
            return fuse_pipelines(first, first_at, second, second_at);
        },
        nb::arg("first"), nb::arg("first_at"), nb::arg("second"), nb::arg("second_at"),
        "The pipelines first and second as one whose loop nests run merged from the outermost "
        "loop down to first_at and second_at (equally deep); its outputs are first's, then "
        "second's. A Loom extension (Vocke's pipeline fusion), not in Halide.");
}

} // namespace python
} // namespace loom
