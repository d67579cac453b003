// Bindings of <loom/pipeline.h>: Pipeline, with realize / compile methods shared with Func
// (py_pipeline.h) and apply_autoscheduler.
#include "py_pipeline.h"

namespace loom {
namespace python {

void define_pipeline(nb::module_ &m) {
    nb::class_<Pipeline> pipeline(m, "Pipeline",
                                  "One or more output Funcs compiled and run together.");
    pipeline.def(nb::init<>())
        .def(nb::init<const Func &>(), nb::arg("output"))
        .def(nb::init<const std::vector<Func> &>(), nb::arg("outputs"))
        .def("defined", &Pipeline::defined)
        .def("outputs", &Pipeline::outputs)
        .def("get_func", &Pipeline::get_func, nb::arg("index"))
        .def(
            "apply_autoscheduler",
            [](const Pipeline &p, const Target &target, const AutoschedulerParams &params) {
                nb::gil_scoped_release release;
                return p.apply_autoscheduler(target, params);
            },
            nb::arg("target"), nb::arg("autoscheduler_params"),
            "Schedules every Func of the pipeline with the named autoscheduler; needs estimates "
            "for the outputs (Func.set_estimates) and inputs.")
        .def("infer_arguments", &Pipeline::infer_arguments)
        .def("print_loop_nest", &Pipeline::print_loop_nest)
        .def("trace_pipeline", &Pipeline::trace_pipeline)
        .def("invalidate_cache", &Pipeline::invalidate_cache)
        .def(
            "add_requirement",
            [](Pipeline &p, const Expr &condition, const nb::args &error_args) {
                std::vector<Expr> args;
                for (nb::handle h : error_args) {
                    args.push_back(nb::isinstance<nb::str>(h) ? Expr(nb::cast<std::string>(h))
                                                              : to_expr(h));
                }
                p.add_requirement(condition, args);
            },
            nb::arg("condition"), nb::arg("error_args"),
            "A condition checked at the start of every run; when false the run fails with the "
            "error_args (strings and Exprs) printed.")
        .def(
            "compile_to_module",
            [](Pipeline &p, const std::vector<Argument> &args, const std::string &fn_name,
               const std::optional<Target> &target, const std::optional<LinkageType> &linkage) {
                Target t = target ? *target : get_target_from_environment();
                nb::gil_scoped_release release;
                return p.compile_to_module(args, fn_name, t,
                                           linkage.value_or(LinkageType::ExternalPlusMetadata));
            },
            nb::arg("arguments"), nb::arg("fn_name"), nb::arg("target") = nb::none(),
            nb::arg("linkage") = nb::none())
        .def("__repr__", [](const Pipeline &p) {
            std::string s = "<loom.Pipeline [";
            std::vector<Func> outputs = p.defined() ? p.outputs() : std::vector<Func>();
            for (size_t i = 0; i < outputs.size(); i++) {
                s += (i ? ", '" : "'") + outputs[i].name() + "'";
            }
            return s + "]>";
        });
    add_realize_methods(pipeline);
    add_compile_methods(pipeline);
}

} // namespace python
} // namespace loom
