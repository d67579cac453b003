// Bindings of <loom/serialization.h>, with Halide's Python signatures:
//   serialize_pipeline(pipeline, *, get_params=None) -> bytes, or (bytes, dict) with get_params
//   serialize_pipeline(pipeline, filename, *, get_params=None) -> None, or the dict
//   deserialize_pipeline(data_or_filename, user_params={}) -> Pipeline
//   deserialize_parameters(data_or_filename) -> dict
// Filenames are str or os.PathLike; user_params maps names to Parameters (an ImageParam or
// Param is taken for its Parameter too). Pipeline and Func also pickle as their serialized
// definition: a Func as the Pipeline of that one output, unpickled to the Func.
#include "py_util.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>

namespace loom {
namespace python {

namespace {

nb::bytes to_bytes(const std::vector<uint8_t> &data) {
    return nb::bytes((const char *)data.data(), data.size());
}

std::vector<uint8_t> from_bytes(const nb::bytes &b) {
    const uint8_t *p = (const uint8_t *)b.c_str();
    return std::vector<uint8_t>(p, p + b.size());
}

/// A str or os.PathLike as a filename.
std::string to_filename(nb::handle h) {
    if (!nb::isinstance<nb::str>(h) && !nb::hasattr(h, "__fspath__")) {
        throw nb::type_error(("A filename is a str or os.PathLike, not " +
                              nb::cast<std::string>(nb::str(h.type().attr("__name__"))))
                                 .c_str());
    }
    return nb::cast<std::string>(nb::module_::import_("os").attr("fsdecode")(h));
}

Parameter to_parameter(nb::handle h, const std::string &name) {
    if (Parameter *p = nullptr; nb::try_cast<Parameter *>(h, p) && p) return *p;
    if (OutputImageParam *p = nullptr; nb::try_cast<OutputImageParam *>(h, p) && p) {
        return p->parameter();
    }
    if (Param<> *p = nullptr; nb::try_cast<Param<> *>(h, p) && p) return p->parameter();
    throw nb::type_error(("user_params['" + name + "'] is a " +
                          nb::cast<std::string>(nb::str(h.type().attr("__name__"))) +
                          ", not a Parameter, ImageParam or Param")
                             .c_str());
}

std::map<std::string, Parameter> to_user_params(nb::handle mapping) {
    std::map<std::string, Parameter> params;
    if (mapping.is_none()) return params;
    for (nb::handle item : mapping.attr("items")()) {
        std::string name = nb::cast<std::string>(item[0]);
        params[name] = to_parameter(item[1], name);
    }
    return params;
}

nb::dict to_dict(const std::map<std::string, Parameter> &params) {
    nb::dict d;
    for (const auto &kv : params) d[nb::str(kv.first.c_str())] = nb::cast(kv.second);
    return d;
}

std::vector<uint8_t> serialize(const Pipeline &p, std::map<std::string, Parameter> *params) {
    std::vector<uint8_t> data;
    nb::gil_scoped_release release;
    if (params) {
        serialize_pipeline(p, data, *params);
    } else {
        serialize_pipeline(p, data);
    }
    return data;
}

Pipeline deserialize(const std::vector<uint8_t> &data,
                     const std::map<std::string, Parameter> &user_params) {
    nb::gil_scoped_release release;
    return deserialize_pipeline(data, user_params);
}

/// The bytes of a file (read in Python, so errors are Python's OSError).
std::vector<uint8_t> read_file(nb::handle filename) {
    nb::object f = nb::module_::import_("builtins").attr("open")(to_filename(filename), "rb");
    nb::bytes data = nb::borrow<nb::bytes>(f.attr("read")());
    f.attr("close")();
    return from_bytes(data);
}

template <typename T>
void add_pickling(nb::handle cls, std::vector<uint8_t> (*state)(const T &),
                  T (*restore)(const Pipeline &)) {
    nb::cpp_function_def([state](const T &self) { return to_bytes(state(self)); }, nb::scope(cls),
                         nb::name("__getstate__"), nb::is_method());
    nb::cpp_function_def(
        [restore](T &self, const nb::bytes &data) {
            new (&self) T(restore(deserialize(from_bytes(data), {})));
        },
        nb::scope(cls), nb::name("__setstate__"), nb::is_method());
}

} // namespace

void define_serialization(nb::module_ &m) {
    m.def(
        "serialize_pipeline",
        [](const Pipeline &p, std::optional<bool> get_params) -> nb::object {
            if (!get_params.value_or(false)) return to_bytes(serialize(p, nullptr));
            std::map<std::string, Parameter> params;
            nb::bytes data = to_bytes(serialize(p, &params));
            return nb::make_tuple(data, to_dict(params));
        },
        nb::arg("pipeline"), nb::kw_only(), nb::arg("get_params") = nb::none(),
        "Serializes a pipeline to bytes; with get_params=True, returns (bytes, dict of its "
        "external parameters by name).");
    m.def(
        "serialize_pipeline",
        [](const Pipeline &p, nb::handle filename, std::optional<bool> get_params) -> nb::object {
            std::map<std::string, Parameter> params;
            std::vector<uint8_t> data = serialize(p, &params);
            nb::object f =
                nb::module_::import_("builtins").attr("open")(to_filename(filename), "wb");
            f.attr("write")(to_bytes(data));
            f.attr("close")();
            if (!get_params.value_or(false)) return nb::none();
            return to_dict(params);
        },
        nb::arg("pipeline"), nb::arg("filename"), nb::kw_only(), nb::arg("get_params") = nb::none(),
        "Serializes a pipeline to a file (str or os.PathLike); with get_params=True, returns "
        "the dict of its external parameters by name.");
    m.def(
        "deserialize_pipeline",
        [](const nb::bytes &data, nb::handle user_params) {
            return deserialize(from_bytes(data), to_user_params(user_params));
        },
        nb::arg("data"), nb::arg("user_params") = nb::dict(),
        "A new Pipeline from serialized bytes. Parameters named in user_params (a mapping of "
        "names to Parameters, ImageParams or Params) are the caller's objects.");
    m.def(
        "deserialize_pipeline",
        [](nb::handle filename, nb::handle user_params) {
            return deserialize(read_file(filename), to_user_params(user_params));
        },
        nb::arg("filename"), nb::arg("user_params") = nb::dict(),
        "A new Pipeline from a serialized file (str or os.PathLike).");
    m.def(
        "deserialize_parameters",
        [](const nb::bytes &data) {
            std::vector<uint8_t> bytes = from_bytes(data);
            std::map<std::string, Parameter> params;
            {
                nb::gil_scoped_release release;
                params = deserialize_parameters(bytes);
            }
            return to_dict(params);
        },
        nb::arg("data"), "The external parameters of serialized bytes, by name.");
    m.def(
        "deserialize_parameters",
        [](nb::handle filename) { return to_dict(deserialize_parameters(read_file(filename))); },
        nb::arg("filename"), "The external parameters of a serialized file, by name.");

    add_pickling<Pipeline>(
        nb::type<Pipeline>(), [](const Pipeline &p) { return serialize(p, nullptr); },
        [](const Pipeline &p) { return p; });
    add_pickling<Func>(
        nb::type<Func>(), [](const Func &f) { return serialize(Pipeline(f), nullptr); },
        [](const Pipeline &p) { return p.outputs()[0]; });
}

} // namespace python
} // namespace loom
