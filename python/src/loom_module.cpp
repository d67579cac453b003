// The extension module loom._loom: registers every binding file's classes and functions, in
// the order py_util.h lists them. python/loom/__init__.py re-exports them as `loom`.
#include "py_util.h"

NB_MODULE(_loom, m) {
    using namespace loom::python;
    m.doc() = "Loom: Halide's language and compiler for image and array processing.";
    define_error(m);
    define_type(m);
    define_expr(m);
    define_var(m);
    define_rdom(m);
    define_tuple(m);
    define_target(m);
    define_buffer(m);
    define_parameter(m);
    define_param(m);
    define_image_param(m);
    define_extern(m);
    define_schedule(m);
    define_scratchpad(m);
    define_func(m);
    define_ir_operator(m);
    define_concise_casts(m);
    define_inline_reductions(m);
    define_boundary_conditions(m);
    define_lambda(m);
    define_argument(m);
    define_realization(m);
    define_pipeline(m);
    define_pipeline_fusion(m);
    define_callable(m);
    define_module(m);
    define_autoscheduler(m);
    define_serialization(m);
    define_derivative(m);
}
