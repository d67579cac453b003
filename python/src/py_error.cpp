// Bindings of <loom/error.h>: Loom's exceptions as Python exceptions carrying the message.
// HalideError (also loom.Error) is the base, as `halide.HalideError` is for Halide's users;
// CompileError and InternalError derive from it, and a run-time error of a compiled pipeline is
// a HalideError.
#include "py_util.h"

namespace loom {
namespace python {

void define_error(nb::module_ &m) {
    static nb::object base = nb::exception<Error>(m, "HalideError", PyExc_RuntimeError);
    static nb::object compile_error = nb::exception<CompileError>(m, "CompileError", base.ptr());
    static nb::object internal_error = nb::exception<InternalError>(m, "InternalError", base.ptr());
    m.attr("Error") = base;
    nb::register_exception_translator([](const std::exception_ptr &p, void *) {
        try {
            std::rethrow_exception(p);
        } catch (const CompileError &e) {
            PyErr_SetString(compile_error.ptr(), e.what());
        } catch (const InternalError &e) {
            PyErr_SetString(internal_error.ptr(), e.what());
        } catch (const Error &e) {
            PyErr_SetString(base.ptr(), e.what());
        }
    });
}

} // namespace python
} // namespace loom
