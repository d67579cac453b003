// Bindings of <loom/inline_reductions.h>: sum, product, maximum, minimum, argmax and argmin,
// each over the RDom the expression uses or over an explicit one, as in Halide's bindings
// (argmax/argmin return a Python tuple: the coordinates, then the value).
#include "py_util.h"

namespace loom {
namespace python {

void define_inline_reductions(nb::module_ &m) {
#define LOOM_PY_REDUCTION(FN, wrap)                                                                \
    m.def(                                                                                         \
        #FN,                                                                                       \
        [](nb::handle expr, const std::string &name) { return wrap(FN(to_expr(expr), name)); },    \
        nb::arg("expr"), nb::arg("name") = #FN);                                                   \
    m.def(                                                                                         \
        #FN,                                                                                       \
        [](const RDom &rdom, nb::handle expr, const std::string &name) {                           \
            return wrap(FN(rdom, to_expr(expr), name));                                            \
        },                                                                                         \
        nb::arg("rdom"), nb::arg("expr"), nb::arg("name") = #FN);
#define LOOM_PY_AS_IS(x) (x)
    LOOM_PY_REDUCTION(sum, LOOM_PY_AS_IS)
    LOOM_PY_REDUCTION(product, LOOM_PY_AS_IS)
    LOOM_PY_REDUCTION(maximum, LOOM_PY_AS_IS)
    LOOM_PY_REDUCTION(minimum, LOOM_PY_AS_IS)
    LOOM_PY_REDUCTION(argmax, tuple_to_python)
    LOOM_PY_REDUCTION(argmin, tuple_to_python)
#undef LOOM_PY_AS_IS
#undef LOOM_PY_REDUCTION
}

} // namespace python
} // namespace loom
