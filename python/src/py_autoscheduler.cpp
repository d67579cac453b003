// Bindings of <loom/autoscheduler.h>: AutoschedulerParams, AutoSchedulerResults and
// load_plugin. Pipeline.apply_autoscheduler (py_pipeline.cpp) takes and returns them.
#include "py_util.h"

#include <nanobind/stl/map.h>

namespace loom {
namespace python {

namespace {

/// Halide's Python AutoschedulerParams takes a dict of any values and keeps their str().
std::map<std::string, std::string> string_map(const nb::dict &d) {
    std::map<std::string, std::string> out;
    for (auto [key, value] : d) {
        out[nb::cast<std::string>(nb::str(key))] = nb::cast<std::string>(nb::str(value));
    }
    return out;
}

} // namespace

void define_autoscheduler(nb::module_ &m) {
    nb::class_<AutoschedulerParams>(m, "AutoschedulerParams",
                                    "Which autoscheduler to run (\"Mullapudi2016\", "
                                    "\"PolyMage\", \"Loom\", ...) and its parameters.")
        .def(nb::init<>())
        .def(nb::init<const std::string &>(), nb::arg("name"))
        .def(
            "__init__",
            [](AutoschedulerParams *self, const std::string &name, const nb::dict &extra) {
                new (self) AutoschedulerParams(name, string_map(extra));
            },
            nb::arg("name"), nb::arg("extra"))
        .def_rw("name", &AutoschedulerParams::name)
        .def_rw("extra", &AutoschedulerParams::extra)
        .def("to_string", &AutoschedulerParams::to_string)
        .def("__repr__", [](const AutoschedulerParams &p) {
            return "<loom.AutoschedulerParams " + p.to_string() + ">";
        });
    nb::implicitly_convertible<std::string, AutoschedulerParams>();

    nb::class_<AutoSchedulerResults>(m, "AutoSchedulerResults",
                                     "What apply_autoscheduler did; schedule_source is the "
                                     "schedule as C++ source.")
        .def(nb::init<>())
        .def_rw("target", &AutoSchedulerResults::target)
        .def_rw("autoscheduler_params", &AutoSchedulerResults::autoscheduler_params)
        .def_rw("schedule_source", &AutoSchedulerResults::schedule_source)
        .def_rw("featurization", &AutoSchedulerResults::featurization)
        .def("__repr__", [](const AutoSchedulerResults &r) {
            return "<loom.AutoSchedulerResults " + r.autoscheduler_params.to_string() +
                   " target=" + r.target.to_string() + ">";
        });

    m.def("load_plugin", &load_plugin, nb::arg("lib_name"));
}

} // namespace python
} // namespace loom
