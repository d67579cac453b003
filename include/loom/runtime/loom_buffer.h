#ifndef LOOM_RUNTIME_LOOM_BUFFER_H
#define LOOM_RUNTIME_LOOM_BUFFER_H

/// \file Runtime::Buffer: a header-only, reference-counted view of a halide_buffer_t, with
/// Halide's Runtime::Buffer API. Usable by AOT callers without libloom.
///
/// A Buffer describes a box of coordinates (per dimension: min, extent, stride in elements) over
/// host memory. Copies share the allocation; crop/slice/transpose/... make new views of the same
/// memory. The default layout is planar (dimension 0 has stride 1). Buffers built from sizes own
/// zero-initialized memory aligned to 128 bytes; a size of zero gives a bounds-query buffer with
/// no memory.

#include <loom/buffer_fwd.h>
#include <loom/runtime/loom_buffer_detail.h>
#include <loom/runtime/loom_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {
namespace Runtime {

namespace detail {
template <typename... Args>
struct AllInts : std::bool_constant<(std::is_integral<std::decay_t<Args>>::value && ...)> {};
} // namespace detail

template <typename T, int Dims>
class Buffer {
    template <typename T2, int D2>
    friend class Buffer;
    /// loom::Buffer keeps every buffer as a Runtime::Buffer<void>, const elements included.
    template <typename T2, int D2>
    friend class ::loom::Buffer;

    static constexpr bool T_is_void = std::is_void<T>::value;
    /// Byte type matching T's constness, for address arithmetic on void buffers.
    using byte_T = std::conditional_t<std::is_const<T>::value, const uint8_t, uint8_t>;
    /// T with void replaced by a byte, so member declarations stay well formed for Buffer<void>.
    using elem_T = std::conditional_t<T_is_void, byte_T, T>;
    using not_const_T = std::remove_const_t<T>;
    /// The Dims of a buffer with one dimension fewer/more.
    static constexpr int DimsMinus = Dims == AnyDims ? AnyDims : Dims - 1;
    static constexpr int DimsPlus = Dims == AnyDims ? AnyDims : Dims + 1;

    /// Whether a Buffer<T2, D2> may convert to this Buffer (checked again at run time when
    /// the target type or dimension count is static and the source's is not).
    template <typename T2, int D2>
    static constexpr bool
        convertible_from = (!std::is_const<T2>::value || std::is_const<T>::value) &&
                           (T_is_void || std::is_void<T2>::value ||
                            std::is_same<not_const_T, std::remove_const_t<T2>>::value) &&
                           (Dims == AnyDims || D2 == AnyDims || Dims == D2);

public:
    using ElemType = T;

    /// One dimension of the buffer; iterable over its coordinates.
    using Dimension = detail::BufferDimension;

    // ---- Construction ----

    /// An empty buffer (no memory; Dims zero-extent dimensions, or none when Dims is AnyDims).
    Buffer() {
        buf.type = T_is_void ? halide_type_t() : static_type_or_empty();
        init_shape(Dims == AnyDims ? 0 : Dims);
    }

    /// Allocates a dense planar buffer of the given sizes (any zero size: no allocation).
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    explicit Buffer(int first) : Buffer(static_halide_type(), std::vector<int>{first}) {
        static_assert(Dims == AnyDims || Dims == 1, "wrong number of sizes for this Buffer");
    }
    template <
        typename... Args, typename T2 = T,
        typename = std::enable_if_t<!std::is_void<T2>::value && detail::AllInts<Args...>::value>>
    Buffer(int first, int second, Args... rest)
        : Buffer(static_halide_type(), std::vector<int>{first, second, int(rest)...}) {
        static_assert(Dims == AnyDims || Dims == 2 + (int)sizeof...(rest),
                      "wrong number of sizes for this Buffer");
    }
    /// Allocates a buffer of element type `t` (which must be T when T is not void).
    template <typename... Args, typename = std::enable_if_t<detail::AllInts<Args...>::value>>
    Buffer(halide_type_t t, int first, Args... rest)
        : Buffer(t, std::vector<int>{first, int(rest)...}) {
        static_assert(Dims == AnyDims || Dims == 1 + (int)sizeof...(rest),
                      "wrong number of sizes for this Buffer");
    }
    /// Allocates from a list of sizes (an empty list gives a scalar buffer of one element).
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    explicit Buffer(const std::vector<int> &sizes) : Buffer(static_halide_type(), sizes) {}
    Buffer(halide_type_t t, const std::vector<int> &sizes) {
        set_type(t);
        init_dense_shape(sizes, planar_order(sizes.size()));
        if (!any_zero(sizes)) allocate();
    }
    /// Allocates with the given storage order: storage_order[0] is the innermost dimension.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order)
        : Buffer(static_halide_type(), sizes, storage_order) {}
    Buffer(halide_type_t t, const std::vector<int> &sizes, const std::vector<int> &storage_order) {
        set_type(t);
        init_dense_shape(sizes, storage_order);
        if (!any_zero(sizes)) allocate();
    }

    /// A view of existing memory (not owned) with a dense planar layout of the given sizes.
    template <
        typename... Args, typename T2 = T,
        typename = std::enable_if_t<!std::is_void<T2>::value && detail::AllInts<Args...>::value>>
    Buffer(T *data, int first, Args... rest) : Buffer(data, std::vector<int>{first, int(rest)...}) {
        static_assert(Dims == AnyDims || Dims == 1 + (int)sizeof...(rest),
                      "wrong number of sizes for this Buffer");
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(T *data, const std::vector<int> &sizes) {
        set_type(static_halide_type());
        init_dense_shape(sizes, planar_order(sizes.size()));
        buf.host = (uint8_t *)data;
    }
    template <typename... Args, typename = std::enable_if_t<detail::AllInts<Args...>::value>>
    Buffer(halide_type_t t, byte_T *data, int first, Args... rest)
        : Buffer(t, data, std::vector<int>{first, int(rest)...}) {}
    Buffer(halide_type_t t, const void *data, const std::vector<int> &sizes) {
        set_type(t);
        init_dense_shape(sizes, planar_order(sizes.size()));
        buf.host = (uint8_t *)data;
    }
    /// A view of existing memory (not owned) with an explicit shape of `d` dimensions.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(T *data, int d, const halide_dimension_t *shape) {
        set_type(static_halide_type());
        init_shape(d, shape);
        buf.host = (uint8_t *)data;
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(T *data, const std::vector<halide_dimension_t> &shape)
        : Buffer(data, (int)shape.size(), shape.data()) {}
    Buffer(halide_type_t t, const void *data, int d, const halide_dimension_t *shape) {
        set_type(t);
        init_shape(d, shape);
        buf.host = (uint8_t *)data;
    }
    Buffer(halide_type_t t, const void *data, const std::vector<halide_dimension_t> &shape)
        : Buffer(t, data, (int)shape.size(), shape.data()) {}
    /// A view of memory another object owns, holding a reference to that owner (a Loom
    /// extension): `release(owner)` runs when the last Buffer sharing the memory goes away.
    /// The Python bindings wrap NumPy arrays and DLPack tensors this way, so a Buffer used by a
    /// pipeline keeps its memory alive.
    Buffer(halide_type_t t, void *data, int d, const halide_dimension_t *shape,
           void (*release)(void *), void *owner)
        : Buffer(t, data, d, shape) {
        alloc = new detail::AllocationHeader;
        alloc->deallocate_fn = release;
        alloc->block = owner;
    }

    /// A view of the memory a raw buffer describes (the host memory is not owned; the shape is
    /// copied). Its device allocation, if any, is released as `ownership` says when the last
    /// Buffer sharing it goes away: by default never, as the raw buffer's owner frees it.
    explicit Buffer(const halide_buffer_t &b,
                    BufferDeviceOwnership ownership = BufferDeviceOwnership::Unmanaged) {
        set_type(b.type);
        init_shape(b.dimensions, b.dim);
        buf.host = b.host;
        buf.device = b.device;
        buf.device_interface = b.device_interface;
        buf.flags = b.flags;
        if (buf.device) dev_ref = new detail::DeviceRefCount(ownership);
    }

    Buffer(const Buffer &o) { copy_init(o); }
    Buffer(Buffer &&o) noexcept { move_init(o); }
    /// Converts between element types and dimension counts; a Buffer<void> or AnyDims source is
    /// checked at run time against a static target type or dimension count.
    template <typename T2, int D2, typename = std::enable_if_t<convertible_from<T2, D2>>>
    Buffer(const Buffer<T2, D2> &o) {
        check_convertible(o);
        copy_init(o);
    }
    template <typename T2, int D2, typename = std::enable_if_t<convertible_from<T2, D2>>>
    Buffer(Buffer<T2, D2> &&o) {
        check_convertible(o);
        move_init(o);
    }
    Buffer &operator=(const Buffer &o) {
        if (this != &o) {
            Buffer tmp(o);
            release();
            move_init(tmp);
        }
        return *this;
    }
    Buffer &operator=(Buffer &&o) noexcept {
        if (this != &o) {
            release();
            move_init(o);
        }
        return *this;
    }
    template <typename T2, int D2, typename = std::enable_if_t<convertible_from<T2, D2>>>
    Buffer &operator=(const Buffer<T2, D2> &o) {
        Buffer tmp(o);
        release();
        move_init(tmp);
        return *this;
    }
    ~Buffer() { release(); }

    /// Whether a Buffer<T2, D2> holding this buffer's type and dimensions could be made.
    template <typename T2, int D2 = AnyDims>
    bool can_convert_to() const {
        if (!std::is_void<T2>::value && !(buf.type == Buffer<T2, D2>::static_halide_type()))
            return false;
        return D2 == AnyDims || D2 == buf.dimensions;
    }
    /// A view with another (compatible) element type or static dimension count.
    template <typename T2, int D2 = Dims>
    Buffer<T2, D2> as() const {
        return Buffer<T2, D2>(*this);
    }
    /// The same buffer with const elements.
    Buffer<std::add_const_t<T>, Dims> as_const() const { return *this; }

    // ---- Static factories ----

    /// A zero-dimensional buffer holding one (zeroed) element.
    static Buffer make_scalar() { return Buffer(static_halide_type(), std::vector<int>{}); }
    static Buffer make_scalar(halide_type_t t) { return Buffer(t, std::vector<int>{}); }
    /// A zero-dimensional view of one element.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    static Buffer make_scalar(T *data) {
        return Buffer(data, std::vector<int>{});
    }
    /// A width x height x channels buffer with channels innermost (stride 1), x next.
    static Buffer make_interleaved(int width, int height, int channels) {
        return make_interleaved(static_halide_type(), width, height, channels);
    }
    static Buffer make_interleaved(halide_type_t t, int width, int height, int channels) {
        return Buffer(t, std::vector<int>{width, height, channels}, std::vector<int>{2, 0, 1});
    }
    /// An interleaved view of existing memory.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    static Buffer make_interleaved(T *data, int width, int height, int channels) {
        halide_dimension_t shape[3] = {
            {0, width, channels}, {0, height, width * channels}, {0, channels, 1}};
        return Buffer(data, 3, shape);
    }
    /// A new allocation with the mins, extents and stride order of `src` (holes compacted).
    template <typename T2, int D2>
    static Buffer<not_const_T, Dims> make_with_shape_of(const Buffer<T2, D2> &src,
                                                        void *(*allocate_fn)(size_t) = nullptr,
                                                        void (*deallocate_fn)(void *) = nullptr) {
        halide_type_t t = T_is_void ? src.type() : static_halide_type();
        Buffer<not_const_T, Dims> r;
        r.set_type(t);
        r.init_shape(src.dimensions(), src.buf.dim);
        detail::set_dense_strides_like(r.buf.dim, src.buf.dim, src.dimensions());
        if (r.number_of_elements() > 0) r.allocate(allocate_fn, deallocate_fn);
        return r;
    }

    // ---- Shape queries ----

    /// The element type.
    halide_type_t type() const { return buf.type; }
    /// The element type fixed by T (T must not be void).
    static halide_type_t static_halide_type() { return halide_type_of<elem_T>(); }
    static constexpr bool has_static_halide_type() { return !T_is_void; }
    static constexpr bool has_static_dimensions() { return Dims != AnyDims; }
    static constexpr int static_dimensions() { return Dims; }
    int dimensions() const { return buf.dimensions; }
    Dimension dim(int i) const { return Dimension(buf.dim[i]); }
    int min(int i) const { return buf.dim[i].min; }
    int extent(int i) const { return buf.dim[i].extent; }
    int stride(int i) const { return buf.dim[i].stride; }
    /// Extents of dimensions 0, 1, 2 (1 when the buffer has fewer dimensions).
    int width() const { return buf.dimensions > 0 ? buf.dim[0].extent : 1; }
    int height() const { return buf.dimensions > 1 ? buf.dim[1].extent : 1; }
    int channels() const { return buf.dimensions > 2 ? buf.dim[2].extent : 1; }
    /// Min and max coordinates of dimensions 0 (left/right) and 1 (top/bottom).
    int left() const { return dim(0).min(); }
    int right() const { return dim(0).max(); }
    int top() const { return dim(1).min(); }
    int bottom() const { return dim(1).max(); }
    /// The product of the extents.
    size_t number_of_elements() const {
        size_t n = 1;
        for (int i = 0; i < buf.dimensions; i++) n *= (size_t)std::max(buf.dim[i].extent, 0);
        return n;
    }
    /// Bytes from the lowest- to one past the highest-addressed element (0 when empty).
    size_t size_in_bytes() const {
        int64_t lo, hi;
        detail::byte_span(buf, &lo, &hi);
        return (size_t)(hi - lo);
    }
    /// Whether the elements fill the spanned memory with no holes.
    bool is_contiguous() const {
        return size_in_bytes() == number_of_elements() * (size_t)buf.type.bytes();
    }
    /// True when there is neither host memory nor a device allocation: the pipeline will fill
    /// in the shape it needs instead of running.
    bool is_bounds_query() const { return buf.is_bounds_query(); }
    /// Whether this Buffer (shares) ownership of its host memory.
    bool owns_host_memory() const { return alloc != nullptr; }
    /// Whether the coordinates lie inside the buffer.
    template <typename... Args, typename = std::enable_if_t<detail::AllInts<Args...>::value>>
    bool contains(Args... args) const {
        return contains(std::vector<int>{int(args)...});
    }
    bool contains(const std::vector<int> &coords) const {
        if ((int)coords.size() > buf.dimensions) return false;
        for (size_t i = 0; i < coords.size(); i++) {
            if (coords[i] < buf.dim[i].min || coords[i] >= buf.dim[i].min + buf.dim[i].extent)
                return false;
        }
        return true;
    }

    // ---- Memory ----

    /// The raw descriptor, to pass to a pipeline.
    halide_buffer_t *raw_buffer() { return &buf; }
    const halide_buffer_t *raw_buffer() const { return &buf; }
    operator halide_buffer_t *() { return &buf; }
    /// The address of the element at the min coordinate of every dimension.
    T *data() const { return (T *)buf.host; }
    /// The lowest- and one-past-the-highest-addressed elements.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    T *begin() const {
        int64_t lo, hi;
        detail::byte_span(buf, &lo, &hi);
        return (T *)(buf.host + lo);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    T *end() const {
        int64_t lo, hi;
        detail::byte_span(buf, &lo, &hi);
        return (T *)(buf.host + hi);
    }

    /// The functions every Buffer allocates its host memory with when none is given (null:
    /// malloc and free), for all element types, as in Halide.
    static void set_default_allocate_fn(void *(*allocate_fn)(size_t)) {
        detail::DefaultAllocators::allocate_fn = allocate_fn;
    }
    static void set_default_deallocate_fn(void (*deallocate_fn)(void *)) {
        detail::DefaultAllocators::deallocate_fn = deallocate_fn;
    }

    /// Allocates zeroed host memory for the current shape (strides kept), dropping this Buffer's
    /// references to any previous host memory and device allocation. Custom functions, when
    /// given, provide the raw block.
    void allocate(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) {
        check_overflow();
        release_device();
        detail::decref(alloc);
        alloc = nullptr;
        int64_t lo = 0, hi = 0;
        detail::byte_span(buf, &lo, &hi);
        uint8_t *p = nullptr;
        alloc = detail::allocate_host((size_t)(hi - lo), allocate_fn, deallocate_fn, &p);
        buf.host = p - lo;
    }
    /// Drops this Buffer's references to its host memory and its device allocation (each
    /// freed with its last reference); the shape stays.
    void deallocate() {
        detail::decref(alloc);
        alloc = nullptr;
        buf.host = nullptr;
        release_device();
    }
    /// Becomes an empty Buffer.
    void reset() { *this = Buffer(); }
    /// Fails when the allocation the shape describes cannot be addressed.
    void check_overflow() const { detail::check_overflow(buf); }

    // ---- Elements ----

    /// Address of the element at the given coordinates (missing trailing coordinates are each
    /// the dimension's min).
    template <typename... Args, typename = std::enable_if_t<detail::AllInts<Args...>::value>>
    elem_T *address_of(Args... args) const {
        return address_of_impl(std::index_sequence_for<Args...>(), args...);
    }
    elem_T *address_of(const int *pos) const {
        ptrdiff_t off = 0;
        for (int i = 0; i < buf.dimensions; i++) {
            off += (ptrdiff_t)(pos[i] - buf.dim[i].min) * buf.dim[i].stride;
        }
        return element_at(off);
    }
    /// Element access (T must not be void). Not bounds-checked. Through a non-const Buffer it
    /// marks the host dirty, as Halide's does, so a later copy_to_device sends the writes.
    template <
        typename... Args, typename T2 = T,
        typename = std::enable_if_t<!std::is_void<T2>::value && detail::AllInts<Args...>::value>>
    elem_T &operator()(int first, Args... rest) const {
        static_assert(Dims == AnyDims || Dims >= 1 + (int)sizeof...(rest),
                      "more coordinates than the Buffer has dimensions");
        return *address_of(first, rest...);
    }
    template <
        typename... Args, typename T2 = T,
        typename = std::enable_if_t<!std::is_void<T2>::value && detail::AllInts<Args...>::value>>
    elem_T &operator()(int first, Args... rest) {
        set_host_dirty();
        return static_cast<const Buffer &>(*this)(first, rest...);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()() const {
        return *(elem_T *)buf.host;
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()() {
        set_host_dirty();
        return *(elem_T *)buf.host;
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()(const int *pos) const {
        return *address_of(pos);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()(const int *pos) {
        set_host_dirty();
        return *address_of(pos);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()(const std::vector<int> &pos) const {
        ptrdiff_t off = 0;
        for (size_t i = 0; i < pos.size(); i++) {
            off += (ptrdiff_t)(pos[i] - buf.dim[i].min) * buf.dim[i].stride;
        }
        return *element_at(off);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()(const std::vector<int> &pos) {
        set_host_dirty();
        return static_cast<const Buffer &>(*this)(pos);
    }

    /// Calls f at every coordinate, dimension 0 fastest. f takes either `const int *pos` or
    /// N ints (N <= dimensions(); only the first N dimensions are visited).
    template <typename Fn>
    const Buffer &for_each_element(Fn &&f) const {
        using F = std::remove_reference_t<Fn>;
        if constexpr (std::is_invocable<F &, const int *>::value) {
            detail::for_each_coordinate(buf.dim, buf.dimensions, [&](const int *pos) { f(pos); });
        } else {
            constexpr int n = detail::int_arity<F &>();
            static_assert(n >= 0, "for_each_element needs a callable taking ints or const int*");
            if (n > buf.dimensions) {
                detail::buffer_error("for_each_element callable takes " + std::to_string(n) +
                                     " coordinates, but the buffer has " +
                                     std::to_string(buf.dimensions) + " dimensions");
            }
            detail::for_each_coordinate(buf.dim, n, [&](const int *pos) {
                detail::call_with_coords(f, pos,
                                         std::make_index_sequence<(size_t)(n < 0 ? 0 : n)>());
            });
        }
        return *this;
    }
    template <typename Fn>
    Buffer &for_each_element(Fn &&f) {
        static_cast<const Buffer *>(this)->for_each_element(std::forward<Fn>(f));
        return *this;
    }

    /// Calls f(v, others_v...) with a reference to every element of this buffer and the element
    /// at the same coordinates of each other buffer (same dimension count, covering this one).
    template <typename Fn, typename... Others>
    const Buffer &for_each_value(Fn &&f, Others &&...others) const {
        static_assert(!T_is_void, "for_each_value needs a typed Buffer");
        constexpr int K = 1 + (int)sizeof...(Others);
        const halide_buffer_t *bufs[K] = {&buf, others.raw_buffer()...};
        uint8_t *base[K] = {buf.host, (uint8_t *)others.address_of_min_of(*this)...};
        for (int k = 1; k < K; k++) detail::check_covers(*bufs[k], buf, k);
        detail::for_each_coordinate(buf.dim, buf.dimensions, [&](const int *pos) {
            uint8_t *p[K];
            for (int k = 0; k < K; k++) {
                ptrdiff_t off = 0;
                for (int i = 0; i < buf.dimensions; i++) {
                    off += (ptrdiff_t)(pos[i] - buf.dim[i].min) * bufs[k]->dim[i].stride;
                }
                p[k] = base[k] + off * bufs[k]->type.bytes();
            }
            call_values(f, p, std::index_sequence_for<Others...>(), others...);
        });
        return *this;
    }
    template <typename Fn, typename... Others>
    Buffer &for_each_value(Fn &&f, Others &&...others) {
        static_cast<const Buffer *>(this)->for_each_value(std::forward<Fn>(f),
                                                          std::forward<Others>(others)...);
        return *this;
    }

    /// Sets every element to `value` (the host becomes dirty).
    template <typename V, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value && std::is_arithmetic<V>::value>>
    Buffer &fill(V value) {
        set_host_dirty();
        elem_T v = (elem_T)value;
        for_each_value([&](elem_T &x) { x = v; });
        return *this;
    }
    /// Sets every element to f(x, y, ...) (or f(pos)) of its coordinates (the host becomes
    /// dirty).
    template <typename Fn, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value &&
                                          !std::is_arithmetic<std::decay_t<Fn>>::value>,
              typename = void>
    Buffer &fill(Fn &&f) {
        set_host_dirty();
        using F = std::remove_reference_t<Fn>;
        if constexpr (std::is_invocable<F &, const int *>::value) {
            for_each_element([&](const int *pos) { (*this)(pos) = (elem_T)f(pos); });
        } else {
            constexpr int n = detail::int_arity<F &>();
            static_assert(n >= 0, "fill needs a value or a callable taking ints");
            if (n > buf.dimensions)
                detail::buffer_error("fill callable takes too many coordinates");
            detail::for_each_coordinate(buf.dim, n, [&](const int *pos) {
                fill_at(f, pos, std::make_index_sequence<(size_t)(n < 0 ? 0 : n)>());
            });
        }
        return *this;
    }
    /// Whether every element equals `value`.
    template <typename V, typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    bool all_equal(V value) const {
        bool eq = true;
        elem_T v = (elem_T)value;
        for_each_value([&](const elem_T &x) { eq = eq && x == v; });
        return eq;
    }

    /// Copies the elements at coordinates present in both buffers from `src` (same element type
    /// and dimension count) in host memory, which then is dirty. Correct even when the two
    /// views overlap in memory. Neither buffer may have newer data on its device.
    template <typename T2, int D2>
    void copy_from(const Buffer<T2, D2> &src) {
        static_assert(!std::is_const<T>::value, "cannot copy into a Buffer of const elements");
        if (src.device_dirty() || device_dirty()) {
            detail::buffer_error(std::string("copy_from ") + (device_dirty() ? "into" : "from") +
                                 " a Buffer whose newest data is on its device: call "
                                 "copy_to_host first");
        }
        if (!(src.type() == type())) detail::buffer_error("copy_from between different types");
        if (src.dimensions() != dimensions()) {
            detail::buffer_error("copy_from between buffers of different dimensions");
        }
        Buffer<void, AnyDims> d(*this);
        Buffer<const void, AnyDims> s(src);
        for (int i = 0; i < dimensions(); i++) {
            int lo = std::max(d.min(i), s.min(i));
            int hi = std::min(d.dim(i).max(), s.dim(i).max());
            if (hi < lo) return;
            // Host views only: the device allocations are not involved.
            d.crop_host(i, lo, hi - lo + 1);
            s.crop_host(i, lo, hi - lo + 1);
        }
        if (!d.buf.host || !s.buf.host) detail::buffer_error("copy_from with no host memory");
        detail::copy_buffer_contents(d.buf, s.buf);
        set_host_dirty();
    }
    /// A new dense buffer with the same shape, stride order and contents.
    Buffer<not_const_T, Dims> copy(void *(*allocate_fn)(size_t) = nullptr,
                                   void (*deallocate_fn)(void *) = nullptr) const {
        Buffer<not_const_T, Dims> r = make_with_shape_of(*this, allocate_fn, deallocate_fn);
        if (r.number_of_elements() > 0 && buf.host) r.copy_from(*this);
        return r;
    }
    /// A dense copy with dimension 2 innermost (stride 1), then 0, 1, 3, ...
    Buffer<not_const_T, Dims> copy_to_interleaved() const {
        std::vector<int> order;
        if (dimensions() > 2) order.push_back(2);
        for (int i = 0; i < dimensions(); i++) {
            if (i != 2) order.push_back(i);
        }
        return copy_with_order(order);
    }
    /// A dense copy in planar order (dimension 0 innermost).
    Buffer<not_const_T, Dims> copy_to_planar() const {
        return copy_with_order(planar_order(dimensions()));
    }

    // ---- Views (in place, and copies with the -ed names) ----

    /// Sets the min coordinate of dimensions 0, 1, ... (the memory does not move).
    template <typename... Args, typename = std::enable_if_t<detail::AllInts<Args...>::value>>
    void set_min(Args... args) {
        set_min(std::vector<int>{int(args)...});
    }
    void set_min(const std::vector<int> &mins) {
        check_dim((int)mins.size() - 1, "set_min");
        for (size_t i = 0; i < mins.size(); i++) buf.dim[i].min = mins[i];
    }
    /// Shifts the coordinates of dimension d by delta (the memory does not move).
    void translate(int d, int delta) {
        check_dim(d, "translate");
        buf.dim[d].min += delta;
    }
    void translate(const std::vector<int> &delta) {
        for (size_t i = 0; i < delta.size(); i++) translate((int)i, delta[i]);
    }
    Buffer translated(int d, int delta) const {
        Buffer r(*this);
        r.translate(d, delta);
        return r;
    }
    Buffer translated(const std::vector<int> &delta) const {
        Buffer r(*this);
        r.translate(delta);
        return r;
    }
    /// Restricts dimension d to [min, min + extent), which must lie inside the buffer. A device
    /// allocation is cropped too, through its interface (halide_device_crop): the crop aliases
    /// it, keeping the buffer it came from alive; where the device API cannot crop, the error is
    /// reported through the runtime's handler and the crop has no device allocation.
    void crop(int d, int min, int extent) {
        if (buf.device_interface) {
            *this = cropped(d, min, extent);
        } else {
            crop_host(d, min, extent);
        }
    }
    /// Crops dimensions 0, 1, ... to the given (min, extent) pairs.
    void crop(const std::vector<std::pair<int, int>> &rect) {
        if (buf.device_interface) {
            *this = cropped(rect);
        } else {
            crop_host(rect);
        }
    }
    Buffer cropped(int d, int min, int extent) const {
        Buffer r(*this);
        r.device_deallocate();
        r.crop_host(d, min, extent);
        if (buf.device_interface) {
            alias_device(r, buf.device_interface->device_crop(nullptr, &buf, &r.buf));
        }
        return r;
    }
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        Buffer r(*this);
        r.device_deallocate();
        r.crop_host(rect);
        if (buf.device_interface) {
            alias_device(r, buf.device_interface->device_crop(nullptr, &buf, &r.buf));
        }
        return r;
    }
    /// Removes dimension d, keeping the elements whose coordinate in it is `pos`; a device
    /// allocation is sliced as crop() crops it.
    void slice(int d, int pos) {
        static_assert(Dims == AnyDims, "slice in place changes the dimension count; use sliced");
        if (buf.device_interface) {
            *this = sliced(d, pos);
        } else {
            slice_host(d, pos);
        }
    }
    void slice(int d) { slice(d, dim(d).min()); }
    Buffer<T, DimsMinus> sliced(int d, int pos) const {
        Buffer<T, AnyDims> r(*this);
        r.device_deallocate();
        r.slice_host(d, pos);
        if (buf.device_interface) {
            alias_device(r, buf.device_interface->device_slice(nullptr, &buf, d, pos, &r.buf));
        }
        return r;
    }
    Buffer<T, DimsMinus> sliced(int d) const { return sliced(d, dim(d).min()); }
    /// Adds a last dimension of extent 1 and min 0 whose stride steps past the current last one.
    void add_dimension() {
        static_assert(Dims == AnyDims, "add_dimension changes the dimension count");
        int n = buf.dimensions;
        int32_t s = n == 0 ? 1 : buf.dim[n - 1].extent * buf.dim[n - 1].stride;
        add_dimension_with_stride(s);
    }
    void add_dimension_with_stride(int s) {
        static_assert(Dims == AnyDims, "add_dimension changes the dimension count");
        int n = buf.dimensions;
        std::vector<halide_dimension_t> old(buf.dim, buf.dim + n);
        init_shape(n + 1);
        for (int i = 0; i < n; i++) buf.dim[i] = old[i];
        buf.dim[n] = halide_dimension_t(0, 1, s);
    }
    /// Views the buffer as the slice at coordinate `pos` of a new dimension inserted at d (the
    /// inverse of slice).
    void embed(int d, int pos = 0) {
        static_assert(Dims == AnyDims, "embed in place changes the dimension count; use embedded");
        if (d < 0 || d > buf.dimensions) detail::buffer_error("embed: bad dimension");
        add_dimension();
        translate(buf.dimensions - 1, pos);
        for (int i = buf.dimensions - 1; i > d; i--) transpose(i, i - 1);
    }
    Buffer<T, DimsPlus> embedded(int d, int pos = 0) const {
        Buffer<T, AnyDims> r(*this);
        r.embed(d, pos);
        return r;
    }
    /// Swaps two dimensions.
    void transpose(int d1, int d2) {
        check_dim(d1, "transpose");
        check_dim(d2, "transpose");
        std::swap(buf.dim[d1], buf.dim[d2]);
    }
    /// Reorders the dimensions: new dimension i is old dimension order[i].
    void transpose(const std::vector<int> &order) {
        if ((int)order.size() != buf.dimensions) detail::buffer_error("transpose: bad order");
        std::vector<halide_dimension_t> old(buf.dim, buf.dim + buf.dimensions);
        std::vector<bool> seen(order.size(), false);
        for (size_t i = 0; i < order.size(); i++) {
            check_dim(order[i], "transpose");
            if (seen[order[i]]) detail::buffer_error("transpose: order repeats a dimension");
            seen[order[i]] = true;
            buf.dim[i] = old[order[i]];
        }
    }
    Buffer transposed(int d1, int d2) const {
        Buffer r(*this);
        r.transpose(d1, d2);
        return r;
    }
    Buffer transposed(const std::vector<int> &order) const {
        Buffer r(*this);
        r.transpose(order);
        return r;
    }

    // ---- Devices ----
    //
    // Each call goes through the device interface (the buffer's, or the one given), as in
    // Halide; for Loom's device APIs its entries are the runtime's halide_device_* functions
    // (loom_runtime.h), which keep the dirty flags and report errors through the runtime's
    // error handler. With no interface to go through, the runtime function is called directly,
    // so that a buffer with nothing to copy succeeds and one in a state it cannot be in is
    // reported: a program calling these links the runtime (libloom, or an AOT pipeline's).
    // Each returns 0 or a halide_error_code_t.

    /// Copies the device's data to the host if the device has newer data (device_dirty).
    int copy_to_host(void *ctx = nullptr) {
        if (buf.device_interface) return buf.device_interface->copy_to_host(ctx, &buf);
        return halide_copy_to_host(ctx, &buf);
    }
    /// Copies the host's data to a device allocation on `iface` (null: the buffer's own),
    /// allocating it if needed, if the host has newer data or the allocation is new.
    int copy_to_device(const halide_device_interface_t *iface, void *ctx = nullptr) {
        const halide_device_interface_t *via = iface ? iface : buf.device_interface;
        if (via) return via->copy_to_device(ctx, &buf, iface);
        return halide_copy_to_device(ctx, &buf, nullptr);
    }
    /// Allocates device memory on `iface` (freed with the last Buffer sharing it).
    int device_malloc(const halide_device_interface_t *iface, void *ctx = nullptr) {
        if (iface) return iface->device_malloc(ctx, &buf, iface);
        return halide_device_malloc(ctx, &buf, nullptr);
    }
    /// Frees the device allocation now, dropping device-side data. It must be this Buffer's
    /// alone and made by device_malloc or copy_to_device.
    int device_free(void *ctx = nullptr) {
        check_sole_device_owner(BufferDeviceOwnership::Allocated, "device_free");
        int r = buf.device_interface ? buf.device_interface->device_free(ctx, &buf)
                                     : halide_device_free(ctx, &buf);
        forget_device_ref();
        return r;
    }
    /// Waits for the device work on this buffer; a buffer without a device allocation has none.
    int device_sync(void *ctx = nullptr) {
        if (buf.device_interface) return buf.device_interface->device_sync(ctx, &buf);
        return buf.device ? halide_device_sync(ctx, &buf) : 0;
    }
    /// Uses a native handle of the device API behind `iface` (a CUDA device pointer, an OpenCL
    /// cl_mem, ...) as this buffer's device memory. The caller keeps owning it: the last Buffer
    /// sharing it only detaches it.
    int device_wrap_native(const halide_device_interface_t *iface, uint64_t handle,
                           void *ctx = nullptr) {
        int r = iface ? iface->wrap_native(ctx, &buf, handle, iface)
                      : halide_device_wrap_native(ctx, &buf, handle, nullptr);
        if (r == 0) set_device_ref(BufferDeviceOwnership::WrappedNative);
        return r;
    }
    /// Forgets a handle given to device_wrap_native (which must be this Buffer's alone).
    int device_detach_native(void *ctx = nullptr) {
        if (!buf.device) return 0;
        check_sole_device_owner(BufferDeviceOwnership::WrappedNative, "device_detach_native");
        int r = buf.device_interface ? buf.device_interface->detach_native(ctx, &buf)
                                     : halide_device_detach_native(ctx, &buf);
        forget_device_ref();
        return r;
    }
    /// Allocates host and device memory together on `iface`, replacing this Buffer's host
    /// memory (whose contents are not kept); both are freed with the last Buffer sharing them.
    int device_and_host_malloc(const halide_device_interface_t *iface, void *ctx = nullptr) {
        // Without an interface, or with a device allocation already, the runtime reports why
        // it cannot; otherwise the host memory it allocates replaces ours.
        if (!iface || buf.device) return halide_device_and_host_malloc(ctx, &buf, iface);
        detail::decref(alloc);
        alloc = nullptr;
        buf.host = nullptr;
        int r = iface->device_and_host_malloc(ctx, &buf, iface);
        if (r == 0) set_device_ref(BufferDeviceOwnership::AllocatedDeviceAndHost);
        return r;
    }
    /// Frees what device_and_host_malloc allocated (this Buffer's alone); `iface` is unused, as
    /// in Halide.
    int device_and_host_free(const halide_device_interface_t *iface, void *ctx = nullptr) {
        check_sole_device_owner(BufferDeviceOwnership::AllocatedDeviceAndHost,
                                "device_and_host_free");
        int r = buf.device_interface ? buf.device_interface->device_and_host_free(ctx, &buf)
                                     : halide_device_and_host_free(ctx, &buf);
        forget_device_ref();
        return r;
    }
    /// Drops this Buffer's reference to its device allocation (released, as its ownership says,
    /// with the last reference).
    void device_deallocate() { release_device(); }
    bool has_device_allocation() const { return buf.device != 0; }
    /// How the device allocation is released when the last Buffer sharing it goes away.
    BufferDeviceOwnership device_ownership() const {
        return dev_ref ? dev_ref->ownership : BufferDeviceOwnership::Allocated;
    }
    bool host_dirty() const { return buf.host_dirty(); }
    bool device_dirty() const { return buf.device_dirty(); }
    void set_host_dirty(bool v = true) { buf.set_host_dirty(v); }
    void set_device_dirty(bool v = true) { buf.set_device_dirty(v); }

private:
    halide_buffer_t buf = {};
    detail::AllocationHeader *alloc = nullptr;
    /// Shared by the Buffers sharing buf.device; null while this Buffer is its only holder and
    /// it is released the default way (halide_device_free). Mutable: copying a const Buffer
    /// starts the count.
    mutable detail::DeviceRefCount *dev_ref = nullptr;
    /// What a crop's or slice's device reference holds.
    using AliasRef = detail::DeviceAliasRef<Buffer<const void, AnyDims>>;
    halide_dimension_t shape[detail::kInClassDims];

    static halide_type_t static_type_or_empty() {
        if constexpr (T_is_void)
            return halide_type_t();
        else
            return halide_type_of<elem_T>();
    }
    void set_type(halide_type_t t) {
        if (!T_is_void && !(t == static_type_or_empty())) {
            detail::buffer_error("element type does not match the Buffer's static type");
        }
        buf.type = t;
    }
    static bool any_zero(const std::vector<int> &v) {
        for (int x : v) {
            if (x == 0) return true;
        }
        return false;
    }
    static std::vector<int> planar_order(size_t n) {
        std::vector<int> o(n);
        for (size_t i = 0; i < n; i++) o[i] = (int)i;
        return o;
    }
    void check_dims_count(int d) const {
        if (Dims != AnyDims && d != Dims) {
            detail::buffer_error("a Buffer with " + std::to_string(Dims) +
                                 " static dimensions cannot have " + std::to_string(d));
        }
    }
    /// crop() of the host side: the shape and the host pointer.
    void crop_host(int d, int min, int extent) {
        check_dim(d, "crop");
        if (min < buf.dim[d].min || extent < 0 ||
            (int64_t)min + extent > (int64_t)buf.dim[d].min + buf.dim[d].extent) {
            detail::buffer_error("crop of dimension " + std::to_string(d) + " to [" +
                                 std::to_string(min) + ", " + std::to_string(min + extent - 1) +
                                 "] is outside [" + std::to_string(buf.dim[d].min) + ", " +
                                 std::to_string(dim(d).max()) + "]");
        }
        if (buf.host) {
            buf.host += (ptrdiff_t)(min - buf.dim[d].min) * buf.dim[d].stride * buf.type.bytes();
        }
        buf.dim[d].min = min;
        buf.dim[d].extent = extent;
    }
    void crop_host(const std::vector<std::pair<int, int>> &rect) {
        for (size_t i = 0; i < rect.size(); i++) crop_host((int)i, rect[i].first, rect[i].second);
    }
    /// slice() of the host side.
    void slice_host(int d, int pos) {
        static_assert(Dims == AnyDims, "slice changes the dimension count");
        check_dim(d, "slice");
        if (pos < buf.dim[d].min || pos > dim(d).max()) {
            detail::buffer_error("slice of dimension " + std::to_string(d) + " at " +
                                 std::to_string(pos) + " is outside [" +
                                 std::to_string(buf.dim[d].min) + ", " +
                                 std::to_string(dim(d).max()) + "]");
        }
        if (buf.host) {
            buf.host += (ptrdiff_t)(pos - buf.dim[d].min) * buf.dim[d].stride * buf.type.bytes();
        }
        for (int i = d; i + 1 < buf.dimensions; i++) buf.dim[i] = buf.dim[i + 1];
        buf.dimensions--;
    }
    void check_dim(int d, const char *what) const {
        if (d < 0 || d >= buf.dimensions) {
            detail::buffer_error(std::string(what) + ": dimension " + std::to_string(d) +
                                 " out of range for a buffer of " + std::to_string(buf.dimensions) +
                                 " dimensions");
        }
    }
    /// Points buf.dim at storage for d dimensions (copied from `from` when given, else zero).
    void init_shape(int d, const halide_dimension_t *from = nullptr) {
        check_dims_count(d);
        if (d < 0) detail::buffer_error("negative dimension count");
        free_shape();
        buf.dimensions = d;
        buf.dim = d <= detail::kInClassDims ? shape : new halide_dimension_t[d];
        for (int i = 0; i < d; i++) buf.dim[i] = from ? from[i] : halide_dimension_t();
    }
    void free_shape() {
        if (buf.dim && buf.dim != shape) delete[] buf.dim;
        buf.dim = nullptr;
    }
    /// Dense strides in `order` (order[0] innermost), mins 0.
    void init_dense_shape(const std::vector<int> &sizes, const std::vector<int> &order) {
        init_shape((int)sizes.size());
        if (order.size() != sizes.size()) detail::buffer_error("storage order has wrong length");
        int64_t stride = 1;
        for (int i : order) {
            if (i < 0 || i >= (int)sizes.size()) detail::buffer_error("bad storage order");
            if (sizes[i] < 0) {
                detail::buffer_error("negative size " + std::to_string(sizes[i]) +
                                     " in dimension " + std::to_string(i));
            }
            buf.dim[i] = halide_dimension_t(0, sizes[i], (int32_t)stride);
            stride *= sizes[i];
            if (stride > INT32_MAX) detail::buffer_error("buffer too large for 32-bit strides");
        }
    }
    template <typename T2, int D2>
    void check_convertible(const Buffer<T2, D2> &o) const {
        if (!T_is_void && std::is_void<T2>::value && !(o.buf.type == static_type_or_empty())) {
            detail::buffer_error("cannot convert a Buffer of another element type");
        }
        if (Dims != AnyDims && o.buf.dimensions != Dims) {
            detail::buffer_error("cannot convert a Buffer of " + std::to_string(o.buf.dimensions) +
                                 " dimensions to one of " + std::to_string(Dims));
        }
    }
    template <typename T2, int D2>
    void copy_init(const Buffer<T2, D2> &o) {
        buf = o.buf;
        buf.dim = nullptr; // o's storage; ours is made next
        init_shape(o.buf.dimensions, o.buf.dim);
        alloc = o.alloc;
        detail::incref(alloc);
        if (buf.device) {
            // o held the allocation alone until now: the count starts with it.
            if (!o.dev_ref) o.dev_ref = new detail::DeviceRefCount;
            o.dev_ref->count++;
            dev_ref = o.dev_ref;
        }
    }
    template <typename T2, int D2>
    void move_init(Buffer<T2, D2> &o) {
        buf = o.buf;
        buf.dim = nullptr;
        if (o.buf.dim == o.shape) {
            init_shape(o.buf.dimensions, o.shape);
        } else {
            check_dims_count(o.buf.dimensions);
            buf.dim = o.buf.dim; // take the heap storage
        }
        alloc = o.alloc;
        o.alloc = nullptr;
        o.buf.host = nullptr;
        dev_ref = o.dev_ref;
        o.dev_ref = nullptr;
        o.buf.device = 0;
        o.buf.device_interface = nullptr;
        o.buf.dim = o.shape;
        o.buf.dimensions = 0;
        if (D2 != AnyDims) o.init_shape(D2);
    }
    void release() {
        detail::decref(alloc);
        alloc = nullptr;
        release_device();
        free_shape();
    }
    /// Drops this Buffer's reference to buf.device; the last one releases it through the
    /// interface as its ownership says (errors go to the runtime's handler: there is no caller
    /// to return them to).
    void release_device() {
        detail::DeviceRefCount *ref = dev_ref;
        dev_ref = nullptr;
        if (!ref || --ref->count == 0) {
            BufferDeviceOwnership o = ref ? ref->ownership : BufferDeviceOwnership::Allocated;
            const halide_device_interface_t *iface = buf.device_interface;
            if (buf.device && iface) {
                if (o == BufferDeviceOwnership::Allocated) {
                    iface->device_free(nullptr, &buf);
                } else if (o == BufferDeviceOwnership::WrappedNative) {
                    iface->detach_native(nullptr, &buf);
                } else if (o == BufferDeviceOwnership::AllocatedDeviceAndHost) {
                    iface->device_and_host_free(nullptr, &buf);
                } else if (o == BufferDeviceOwnership::Cropped) {
                    iface->device_release_crop(nullptr, &buf);
                }
            }
            delete ref; // an alias's reference releases the Buffer it aliases here
        }
        buf.device = 0;
        buf.device_interface = nullptr;
    }
    /// Drops the reference without releasing the allocation (already freed or detached).
    void forget_device_ref() {
        if (dev_ref && --dev_ref->count == 0) delete dev_ref;
        dev_ref = nullptr;
    }
    /// After a wrap or a joint allocation: this Buffer alone holds buf.device, released as o.
    void set_device_ref(BufferDeviceOwnership o) {
        forget_device_ref();
        dev_ref = new detail::DeviceRefCount(o);
    }
    /// Freeing through one Buffer an allocation that others share, or that is released
    /// another way, would leave dangling handles or leak.
    void check_sole_device_owner(BufferDeviceOwnership o, const char *what) const {
        if (dev_ref ? dev_ref->ownership != o
                    : o != BufferDeviceOwnership::Allocated && buf.device != 0) {
            detail::buffer_error(std::string(what) +
                                 ": the device allocation was not made that way (it is a crop, "
                                 "a wrapped native handle, or not this Buffer's to free)");
        }
        if (dev_ref && dev_ref->count > 1) {
            detail::buffer_error(std::string(what) +
                                 ": other Buffers share the device allocation (copies or "
                                 "crops), which would be left dangling");
        }
    }
    /// After the interface's device_crop or device_slice gave r (made from this Buffer) an alias
    /// (result 0): r keeps alive the Buffer the alias points into (the root of a crop of a
    /// crop).
    template <typename T2, int D2>
    void alias_device(Buffer<T2, D2> &r, int result) const {
        if (result != 0) {
            // Without the alias the crop's host memory is all it has: stale data if the
            // parent's newest is on the device (the device API reported why it failed).
            if (buf.device_dirty()) {
                detail::buffer_error("a crop or slice of a Buffer whose newest data is on the "
                                     "device could not alias its device memory; call "
                                     "copy_to_host() before cropping");
            }
            r.buf.set_device_dirty(false);
            return;
        }
        if (!r.buf.device) return;
        using Parent = Buffer<const void, AnyDims>;
        const Parent *root = dev_ref ? (const Parent *)dev_ref->aliased_buffer() : nullptr;
        r.dev_ref = new AliasRef(root ? *root : Parent(*this));
    }
    elem_T *element_at(ptrdiff_t off) const {
#if defined(LOOM_CHECK_DIRTY) && LOOM_CHECK_DIRTY
        // The debug check of host access to device data (compile with -DLOOM_CHECK_DIRTY=1):
        // the host memory of a device-dirty buffer is stale.
        if (buf.device_dirty()) {
            detail::buffer_error("an element of a Buffer whose newest data is on the device "
                                 "(device_dirty) was accessed on the host; call copy_to_host() "
                                 "first");
        }
#endif
        if constexpr (T_is_void)
            return (elem_T *)(buf.host + off * buf.type.bytes());
        else
            return (elem_T *)buf.host + off;
    }
    template <size_t... I, typename... Args>
    elem_T *address_of_impl(std::index_sequence<I...>, Args... args) const {
        ptrdiff_t off = 0;
        ((off += (ptrdiff_t)((int)args - buf.dim[I].min) * buf.dim[I].stride), ...);
        return element_at(off);
    }
    /// The address of this buffer's element at the min coordinates of `other`.
    template <typename T2, int D2>
    byte_T *address_of_min_of(const Buffer<T2, D2> &other) const {
        ptrdiff_t off = 0;
        for (int i = 0; i < buf.dimensions && i < other.buf.dimensions; i++) {
            off += (ptrdiff_t)(other.buf.dim[i].min - buf.dim[i].min) * buf.dim[i].stride;
        }
        return (byte_T *)buf.host + off * buf.type.bytes();
    }
    template <typename Fn, size_t... I, typename... Others>
    static void call_values(Fn &f, uint8_t *const *p, std::index_sequence<I...>, Others &&...) {
        f(*(elem_T *)p[0], *(typename std::remove_reference_t<Others>::elem_T *)p[I + 1]...);
    }
    template <typename Fn, size_t... I>
    void fill_at(Fn &f, const int *pos, std::index_sequence<I...>) {
        *address_of(pos[I]...) = (elem_T)f(pos[I]...);
    }
    Buffer<not_const_T, Dims> copy_with_order(const std::vector<int> &order) const {
        std::vector<int> sizes(dimensions());
        for (int i = 0; i < dimensions(); i++) sizes[i] = extent(i);
        Buffer<not_const_T, Dims> r(type(), sizes, order);
        for (int i = 0; i < dimensions(); i++) r.buf.dim[i].min = min(i);
        if (r.number_of_elements() > 0 && buf.host) r.copy_from(*this);
        return r;
    }
};

} // namespace Runtime
} // namespace loom

#endif
