#ifndef LOOM_BOUNDARY_CONDITIONS_H
#define LOOM_BOUNDARY_CONDITIONS_H

/// \file Boundary conditions (Halide's BoundaryConditions): each wraps a source (a Func with a
/// Region, or a Buffer / ImageParam whose own shape is the region) in a new Func defined
/// everywhere, by saying what the source's value is outside the region. In every form a
/// Range left undefined in the region means "unbounded in that dimension", and dimensions past
/// the end of the region are unbounded too.

#include <loom/buffer.h>
#include <loom/expr.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/tuple.h>

#include <type_traits>
#include <utility>

namespace loom {

namespace internal {

/// Halide's func_like_to_func: a Func stays itself, an ImageParam gives its Func, and a Buffer
/// gives a Func f(_0, _1, ...) = buffer(_0, _1, ...).
inline Func func_like_to_func(const Func &f) { return f; }
inline Func func_like_to_func(const ImageParam &im) { return im; }
Func buffer_to_func(const Buffer<void> &b);
template <typename T, int Dims>
Func func_like_to_func(const Buffer<T, Dims> &b) {
    return buffer_to_func(Buffer<void>(b));
}

/// The region covered by a Buffer or ImageParam: (dim(i).min(), dim(i).extent()) for each i.
template <typename T>
Region region_of(const T &func_like) {
    Region r;
    for (int i = 0; i < func_like.dimensions(); i++) {
        r.emplace_back(Expr(func_like.dim(i).min()), Expr(func_like.dim(i).extent()));
    }
    return r;
}

/// Pairs of (min, extent) arguments, collected into a Region.
inline void collect_region(Region &) {}
template <typename A, typename B, typename... Rest>
void collect_region(Region &r, A &&min, B &&extent, Rest &&...rest) {
    r.emplace_back(Expr(std::forward<A>(min)), Expr(std::forward<B>(extent)));
    collect_region(r, std::forward<Rest>(rest)...);
}

/// True when every type converts to Expr (and there is an even number of them, >= 2).
template <typename... Args>
struct are_bounds {
    static constexpr bool value = sizeof...(Args) >= 2 && sizeof...(Args) % 2 == 0 &&
                                  (std::is_convertible<Args, Expr>::value && ...);
};

} // namespace internal

namespace BoundaryConditions {

/// Outside `bounds` the value is `value`; inside it is the source's. (The source is read at
/// coordinates clamped into the bounds, so it is never read outside them.)
Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds);
Func constant_exterior(const Func &source, const Expr &value, const Region &bounds);

/// Outside the bounds, the nearest edge value: coordinates are clamped into the bounds.
Func repeat_edge(const Func &source, const Region &bounds);

/// The source tiled over the plane: coordinates wrap around (Euclidean modulo the extent).
Func repeat_image(const Func &source, const Region &bounds);

/// The source reflected across its edges, edge pixels repeated: ... 2 1 0 | 0 1 2 ... n-1 |
/// n-1 n-2 ...
Func mirror_image(const Func &source, const Region &bounds);

/// The source reflected across its edge pixels, which are not repeated: ... 2 1 | 0 1 2 ...
/// n-1 | n-2 ...
Func mirror_interior(const Func &source, const Region &bounds);

// The same for Buffers and ImageParams, with the region given, taken from their shape, or
// given as (min, extent) pairs.
#define LOOM_BOUNDARY_CONDITION_FORMS(NAME)                                                        \
    template <typename T>                                                                          \
    Func NAME(const T &func_like, const Region &bounds) {                                          \
        return NAME(internal::func_like_to_func(func_like), bounds);                               \
    }                                                                                              \
    template <typename T>                                                                          \
    Func NAME(const T &func_like) {                                                                \
        return NAME(internal::func_like_to_func(func_like), internal::region_of(func_like));       \
    }                                                                                              \
    template <typename T, typename... Bounds,                                                      \
              typename std::enable_if<internal::are_bounds<Bounds...>::value>::type * = nullptr>   \
    Func NAME(const T &func_like, Bounds &&...bounds) {                                            \
        Region r;                                                                                  \
        internal::collect_region(r, std::forward<Bounds>(bounds)...);                              \
        return NAME(internal::func_like_to_func(func_like), r);                                    \
    }

LOOM_BOUNDARY_CONDITION_FORMS(repeat_edge)
LOOM_BOUNDARY_CONDITION_FORMS(repeat_image)
LOOM_BOUNDARY_CONDITION_FORMS(mirror_image)
LOOM_BOUNDARY_CONDITION_FORMS(mirror_interior)
#undef LOOM_BOUNDARY_CONDITION_FORMS

template <typename T>
Func constant_exterior(const T &func_like, const Tuple &value, const Region &bounds) {
    return constant_exterior(internal::func_like_to_func(func_like), value, bounds);
}
template <typename T>
Func constant_exterior(const T &func_like, const Expr &value, const Region &bounds) {
    return constant_exterior(internal::func_like_to_func(func_like), value, bounds);
}
template <typename T>
Func constant_exterior(const T &func_like, const Tuple &value) {
    return constant_exterior(internal::func_like_to_func(func_like), value,
                             internal::region_of(func_like));
}
template <typename T>
Func constant_exterior(const T &func_like, const Expr &value) {
    return constant_exterior(internal::func_like_to_func(func_like), value,
                             internal::region_of(func_like));
}
template <typename T, typename... Bounds,
          typename std::enable_if<internal::are_bounds<Bounds...>::value>::type * = nullptr>
Func constant_exterior(const T &func_like, const Tuple &value, Bounds &&...bounds) {
    Region r;
    internal::collect_region(r, std::forward<Bounds>(bounds)...);
    return constant_exterior(internal::func_like_to_func(func_like), value, r);
}
template <typename T, typename... Bounds,
          typename std::enable_if<internal::are_bounds<Bounds...>::value>::type * = nullptr>
Func constant_exterior(const T &func_like, const Expr &value, Bounds &&...bounds) {
    Region r;
    internal::collect_region(r, std::forward<Bounds>(bounds)...);
    return constant_exterior(internal::func_like_to_func(func_like), value, r);
}

} // namespace BoundaryConditions
} // namespace loom

#endif
