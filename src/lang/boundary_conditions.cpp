#include <loom/boundary_conditions.h>
#include <loom/ir_operator.h>
#include <loom/var.h>

#include "ir/ir.h"
#include "support/error.h"
#include "support/util.h"

namespace loom {

namespace internal {

Func buffer_to_func(const Buffer<void> &b) {
    user_assert(b.defined()) << "A boundary condition was given an undefined Buffer.\n";
    std::vector<Var> args;
    std::vector<Expr> call_args;
    for (int i = 0; i < b.dimensions(); i++) {
        args.push_back(Var::implicit(i));
        call_args.push_back(args.back());
    }
    Func f(unique_name(b.name() + "_im"));
    f(args) = b(call_args);
    return f;
}

namespace {

/// The coordinate map of one bounded dimension: the coordinate to read for `x` in [min, min +
/// extent).
using CoordinateMap = Expr (*)(const Expr &x, const Expr &min, const Expr &extent);

/// Inside the bounds every condition reads the source at x itself. Writing that case as
/// clamp(likely(x), ...) in a select on "out of bounds" lets bounds inference see the
/// coordinate is always within [min, max], and loop partitioning find the steady state.
Expr inside_or(const Expr &x, const Expr &min, const Expr &extent, const Expr &outside) {
    return select(x < min || x >= min + extent, outside, clamp(likely(x), min, min + extent - 1));
}

Expr repeat_edge_coord(const Expr &x, const Expr &min, const Expr &extent) {
    return clamp(likely(x), min, min + extent - 1);
}

Expr repeat_image_coord(const Expr &x, const Expr &min, const Expr &extent) {
    // Integer % is Euclidean: (x - min) % extent is in [0, extent).
    Expr coord = (x - min) % extent + min;
    return inside_or(x, min, extent, coord);
}

Expr mirror_image_coord(const Expr &x, const Expr &min, const Expr &extent) {
    Expr coord = (x - min) % (2 * extent);                          // [0, 2 * extent)
    coord = select(coord >= extent, 2 * extent - 1 - coord, coord); // [0, extent)
    coord = clamp(coord + min, min, min + extent - 1);
    return inside_or(x, min, extent, coord);
}

Expr mirror_interior_coord(const Expr &x, const Expr &min, const Expr &extent) {
    // Period 2 * (extent - 1): the edge pixels are not repeated.
    Expr limit = extent - 1;
    Expr coord = (x - min) % (2 * limit) - limit; // [-limit, limit)
    // abs gives an unsigned type for ints (Halide); come back to the coordinate's type.
    coord = limit - cast(coord.type(), abs(coord)); // [0, limit]
    // An extent of 1 makes the period 0 (x % 0 == 0), which the clamp keeps at min.
    coord = clamp(coord + min, min, min + extent - 1);
    return inside_or(x, min, extent, coord);
}

/// The coordinates at which `source` is read for each of its args, and the out-of-bounds
/// condition when `outside` is given.
std::vector<Expr> map_coordinates(const Func &source, const Region &bounds, CoordinateMap map,
                                  const char *what, Expr *outside = nullptr) {
    user_assert(source.defined()) << "BoundaryConditions::" << what << " was given the Func \""
                                  << source.name() << "\", which has no definition.\n";
    std::vector<Var> args = source.args();
    user_assert(bounds.size() <= args.size())
        << "BoundaryConditions::" << what << " was given " << bounds.size()
        << " bounds for the Func \"" << source.name() << "\", which has " << args.size()
        << " dimensions.\n";
    std::vector<Expr> coords;
    Expr out_of_bounds;
    for (size_t i = 0; i < args.size(); i++) {
        Expr x = args[i];
        if (i >= bounds.size() || (!bounds[i].min.defined() && !bounds[i].extent.defined())) {
            coords.push_back(x); // unbounded in this dimension
            continue;
        }
        const Expr &min = bounds[i].min, &extent = bounds[i].extent;
        user_assert(min.defined() && extent.defined())
            << "BoundaryConditions::" << what << " of the Func \"" << source.name()
            << "\": dimension " << i << " (" << args[i].name() << ") has a "
            << (min.defined() ? "min but no extent" : "extent but no min")
            << "; give both or neither.\n";
        coords.push_back(map(x, min, extent));
        Expr oob = x < min || x >= min + extent;
        out_of_bounds = out_of_bounds.defined() ? (out_of_bounds || oob) : oob;
    }
    if (outside) *outside = out_of_bounds.defined() ? out_of_bounds : const_false();
    return coords;
}

/// A Func over the source's args defined as the source read at `coords`, named after the
/// condition as in Halide ("repeat_edge", then "repeat_edge$1", ...), so loop nests and
/// schedule source name it alike in both.
Func redirect(const Func &source, const std::vector<Expr> &coords, const char *what) {
    Func bounded{std::string(what)};
    bounded(source.args()) = source(coords);
    return bounded;
}

} // namespace
} // namespace internal

namespace BoundaryConditions {

Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds) {
    Expr outside;
    std::vector<Expr> coords = internal::map_coordinates(
        source, bounds, internal::repeat_edge_coord, "constant_exterior", &outside);
    user_assert((int)value.size() == source.outputs())
        << "BoundaryConditions::constant_exterior of the Func \"" << source.name()
        << "\", which has " << source.outputs() << " value" << (source.outputs() == 1 ? "" : "s")
        << ", was given " << value.size() << " exterior value" << (value.size() == 1 ? "" : "s")
        << ".\n";
    Func bounded{std::string("constant_exterior")};
    if (source.outputs() == 1) {
        bounded(source.args()) = select(outside, value[0], Expr(source(coords)));
    } else {
        std::vector<Expr> values;
        for (size_t i = 0; i < value.size(); i++) {
            values.push_back(select(outside, value[i], Expr(source(coords)[(int)i])));
        }
        bounded(source.args()) = Tuple(values);
    }
    return bounded;
}

Func constant_exterior(const Func &source, const Expr &value, const Region &bounds) {
    return constant_exterior(source, Tuple(std::vector<Expr>{value}), bounds);
}

Func repeat_edge(const Func &source, const Region &bounds) {
    std::vector<Expr> coords =
        internal::map_coordinates(source, bounds, internal::repeat_edge_coord, "repeat_edge");
    return internal::redirect(source, coords, "repeat_edge");
}

Func repeat_image(const Func &source, const Region &bounds) {
    std::vector<Expr> coords =
        internal::map_coordinates(source, bounds, internal::repeat_image_coord, "repeat_image");
    return internal::redirect(source, coords, "repeat_image");
}

Func mirror_image(const Func &source, const Region &bounds) {
    std::vector<Expr> coords =
        internal::map_coordinates(source, bounds, internal::mirror_image_coord, "mirror_image");
    return internal::redirect(source, coords, "mirror_image");
}

Func mirror_interior(const Func &source, const Region &bounds) {
    std::vector<Expr> coords = internal::map_coordinates(
        source, bounds, internal::mirror_interior_coord, "mirror_interior");
    return internal::redirect(source, coords, "mirror_interior");
}

} // namespace BoundaryConditions
} // namespace loom
