// Bindings of <loom/boundary_conditions.h>: the submodule BoundaryConditions, as Halide's
// bindings have it: `hl.BoundaryConditions.repeat_edge(source, bounds)` with the source a Func,
// Buffer or ImageParam and bounds a list of Ranges or (min, extent) pairs; a Buffer or
// ImageParam may leave the bounds out (its own shape is the region).
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// The source and region of a boundary condition: the region is `bounds` when given, else
/// the shape of a Buffer or ImageParam (a Func has no shape, so it needs bounds).
std::pair<Func, Region> source_and_region(nb::handle f, nb::handle bounds, const char *name) {
    if (ImageParam *im = nullptr; nb::try_cast<ImageParam *>(f, im) && im) {
        return {internal::func_like_to_func(*im),
                bounds.is_none() ? internal::region_of(*im) : to_region(bounds)};
    }
    if (Buffer<void> *b = nullptr; nb::try_cast<Buffer<void> *>(f, b) && b) {
        return {internal::func_like_to_func(*b),
                bounds.is_none() ? internal::region_of(*b) : to_region(bounds)};
    }
    if (Func *fn = nullptr; nb::try_cast<Func *>(f, fn) && fn) {
        if (bounds.is_none()) {
            throw nb::type_error((std::string("BoundaryConditions.") + name +
                                  "() of a Func needs the bounds: a list of (min, extent) pairs")
                                     .c_str());
        }
        return {*fn, to_region(bounds)};
    }
    throw nb::type_error((std::string("BoundaryConditions.") + name +
                          "() expects a Func, Buffer or ImageParam, got " +
                          nb::cast<std::string>(nb::str(f.type().attr("__name__"))))
                             .c_str());
}

} // namespace

void define_boundary_conditions(nb::module_ &m) {
    nb::module_ bc =
        m.def_submodule("BoundaryConditions",
                        "Funcs defined everywhere from a source defined on a region (Halide's "
                        "BoundaryConditions).");
#define LOOM_PY_BOUNDARY(name, doc)                                                                \
    bc.def(                                                                                        \
        #name,                                                                                     \
        [](nb::handle f, nb::handle bounds) {                                                      \
            auto [source, region] = source_and_region(f, bounds, #name);                           \
            return BoundaryConditions::name(source, region);                                       \
        },                                                                                         \
        nb::arg("f"), nb::arg("bounds").none() = nb::none(), doc);
    LOOM_PY_BOUNDARY(repeat_edge, "Outside the bounds, the nearest edge value.")
    LOOM_PY_BOUNDARY(repeat_image, "The source tiled over the plane.")
    LOOM_PY_BOUNDARY(mirror_image,
                     "The source reflected across its edges, edge values repeated (numpy.pad's "
                     "'symmetric').")
    LOOM_PY_BOUNDARY(mirror_interior,
                     "The source reflected across its edge values, which are not repeated "
                     "(numpy.pad's 'reflect').")
#undef LOOM_PY_BOUNDARY
    bc.def(
        "constant_exterior",
        [](nb::handle f, nb::handle exterior, nb::handle bounds) {
            auto [source, region] = source_and_region(f, bounds, "constant_exterior");
            if (is_tuple_like(exterior)) {
                return BoundaryConditions::constant_exterior(source, to_tuple(exterior), region);
            }
            return BoundaryConditions::constant_exterior(source, to_expr(exterior), region);
        },
        nb::arg("f"), nb::arg("exterior"), nb::arg("bounds").none() = nb::none(),
        "Outside the bounds, the value `exterior` (an Expr, or a Tuple for a Func of several "
        "outputs).");
}

} // namespace python
} // namespace loom
