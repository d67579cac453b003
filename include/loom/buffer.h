#ifndef LOOM_BUFFER_H
#define LOOM_BUFFER_H

/// \file loom::Buffer: a cheap-to-copy, named handle to a Runtime::Buffer. Copies share the same
/// buffer (so an in-place crop through one handle is seen by all, as in Halide); cropped(),
/// sliced(), copy() ... make new buffers. A Buffer can be read and written element by element
/// with ints, and used inside an algorithm with Exprs (`f(x, y) = b(x + 1, y)`), where it
/// becomes an input of the pipeline.

#include <loom/buffer_fwd.h>
#include <loom/error.h>
#include <loom/expr.h>
#include <loom/intrusive_ptr.h>
#include <loom/runtime/loom_buffer.h>
#include <loom/target.h>
#include <loom/type.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// The state shared by every handle to one Buffer.
struct BufferContents : RefCounted {
    Runtime::Buffer<void> buf;
    std::string name;
};

/// Declared in src/support/util.h; repeated so this public header need not include src/.
std::string unique_name(char prefix);

} // namespace internal

template <typename T, int Dims>
class Buffer {
    template <typename T2, int D2>
    friend class Buffer;

    static constexpr bool T_is_void = std::is_void<T>::value;
    using elem_T = std::conditional_t<T_is_void, uint8_t, T>;
    using not_const_T = std::remove_const_t<T>;
    static constexpr int DimsMinus = Dims == AnyDims ? AnyDims : Dims - 1;
    static constexpr int DimsPlus = Dims == AnyDims ? AnyDims : Dims + 1;

    template <typename T2, int D2>
    static constexpr bool
        convertible_from = (T_is_void || std::is_void<T2>::value ||
                            std::is_same<not_const_T, std::remove_const_t<T2>>::value) &&
                           (Dims == AnyDims || D2 == AnyDims || Dims == D2);

public:
    using ElemType = T;
    using Dimension = typename Runtime::Buffer<T, Dims>::Dimension;

    /// An undefined Buffer (defined() is false).
    Buffer() = default;

    /// Allocates a dense planar buffer of the given sizes, zero-filled, with a unique name.
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    explicit Buffer(int first) : Buffer(Runtime::Buffer<T, Dims>(first)) {}
    template <typename... Args, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value &&
                                          Runtime::detail::AllInts<Args...>::value>>
    Buffer(int first, int second, Args... rest)
        : Buffer(Runtime::Buffer<T, Dims>(first, second, rest...)) {}
    /// Allocates a buffer of element type t (which must be T unless T is void).
    template <typename... Args,
              typename = std::enable_if_t<Runtime::detail::AllInts<Args...>::value>>
    Buffer(Type t, int first, Args... rest)
        : Buffer(Runtime::Buffer<T, Dims>(checked_type(t), first, rest...)) {}
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    explicit Buffer(const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(sizes), name) {}
    Buffer(Type t, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(checked_type(t), sizes), name) {}
    /// Allocates with a storage order (storage_order[0] is the innermost dimension).
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order,
           const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(sizes, storage_order), name) {}
    Buffer(Type t, const std::vector<int> &sizes, const std::vector<int> &storage_order,
           const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(checked_type(t), sizes, storage_order), name) {}

    /// Views existing memory (not owned) as a dense planar buffer, or with an explicit shape.
    template <typename... Args, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value &&
                                          Runtime::detail::AllInts<Args...>::value>>
    Buffer(T *data, int first, Args... rest)
        : Buffer(Runtime::Buffer<T, Dims>(data, first, rest...)) {}
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(T *data, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(data, sizes), name) {}
    Buffer(Type t, const void *data, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(checked_type(t), data, sizes), name) {}
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    Buffer(T *data, int d, const halide_dimension_t *shape, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(data, d, shape), name) {}
    Buffer(Type t, const void *data, int d, const halide_dimension_t *shape,
           const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(checked_type(t), data, d, shape), name) {}
    /// A view of the memory a raw buffer describes (the shape is copied).
    explicit Buffer(const halide_buffer_t &b, const std::string &name = "")
        : Buffer(Runtime::Buffer<T, Dims>(checked_raw(b)), name) {}

    /// Wraps a Runtime::Buffer (sharing its memory); checked when its type or dimension count
    /// is only known at run time.
    template <typename T2, int D2, typename = std::enable_if_t<convertible_from<T2, D2>>>
    Buffer(const Runtime::Buffer<T2, D2> &b, const std::string &name = "") {
        check_runtime_convertible(b.type(), b.dimensions());
        contents = new internal::BufferContents;
        contents->buf.copy_init(b); // shares the memory; drops const, which T keeps
        contents->name = name.empty() ? internal::unique_name('b') : name;
    }
    /// The same buffer seen with another element type or dimension count: shares the contents
    /// (and name). From Buffer<void> or AnyDims this is checked, and a mismatch is a
    /// CompileError.
    template <typename T2, int D2, typename = std::enable_if_t<convertible_from<T2, D2>>>
    Buffer(const Buffer<T2, D2> &o) : contents(o.contents) {
        if (contents.defined()) check_runtime_convertible(o.type(), o.dimensions());
    }
    Buffer(const Buffer &) = default;
    Buffer(Buffer &&) noexcept = default;
    Buffer &operator=(const Buffer &) = default;
    Buffer &operator=(Buffer &&) noexcept = default;

    /// A zero-dimensional buffer of one element.
    static Buffer make_scalar(const std::string &name = "") {
        return Buffer(Runtime::Buffer<T, Dims>::make_scalar(), name);
    }
    static Buffer make_scalar(Type t, const std::string &name = "") {
        return Buffer(Runtime::Buffer<T, Dims>::make_scalar(checked_type(t)), name);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    static Buffer make_scalar(T *data, const std::string &name = "") {
        return Buffer(Runtime::Buffer<T, Dims>::make_scalar(data), name);
    }
    /// A width x height x channels buffer with channels innermost.
    static Buffer make_interleaved(int width, int height, int channels,
                                   const std::string &name = "") {
        return Buffer(Runtime::Buffer<T, Dims>::make_interleaved(width, height, channels), name);
    }
    static Buffer make_interleaved(Type t, int width, int height, int channels,
                                   const std::string &name = "") {
        return Buffer(
            Runtime::Buffer<T, Dims>::make_interleaved(checked_type(t), width, height, channels),
            name);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    static Buffer make_interleaved(T *data, int width, int height, int channels,
                                   const std::string &name = "") {
        return Buffer(Runtime::Buffer<T, Dims>::make_interleaved(data, width, height, channels),
                      name);
    }
    /// A new allocation with the shape and stride order of `src`.
    template <typename T2, int D2>
    static Buffer<not_const_T, Dims> make_with_shape_of(const Buffer<T2, D2> &src,
                                                        const std::string &name = "") {
        return Buffer<not_const_T, Dims>(
            Runtime::Buffer<T, Dims>::make_with_shape_of(src.contents->buf), name);
    }
    template <typename T2, int D2>
    static Buffer<not_const_T, Dims> make_with_shape_of(const Runtime::Buffer<T2, D2> &src,
                                                        const std::string &name = "") {
        return Buffer<not_const_T, Dims>(Runtime::Buffer<T, Dims>::make_with_shape_of(src), name);
    }

    // ---- Identity ----

    /// Whether this handle refers to a buffer.
    bool defined() const { return contents.defined(); }
    /// Whether both handles refer to the same buffer.
    template <typename T2, int D2>
    bool same_as(const Buffer<T2, D2> &o) const {
        return contents.same_as(o.contents);
    }
    /// The name (given, or a unique "b<n>"), used for the buffer in generated code and errors.
    const std::string &name() const { return c().name; }
    Buffer &set_name(const std::string &n) {
        c().name = n;
        return *this;
    }
    /// The Runtime::Buffer underneath (shared; changes to its shape are seen by every handle).
    Runtime::Buffer<T, Dims> *get() const {
        // Every Runtime::Buffer<T, Dims> has the same layout, and construction checked T/Dims.
        return reinterpret_cast<Runtime::Buffer<T, Dims> *>(&c().buf);
    }
    /// A Runtime::Buffer sharing the memory.
    operator Runtime::Buffer<T, Dims>() const { return typed(); }
    halide_buffer_t *raw_buffer() const { return c().buf.raw_buffer(); }

    // ---- Shape ----

    Type type() const { return Type(c().buf.type()); }
    static halide_type_t static_halide_type() {
        return Runtime::Buffer<T, Dims>::static_halide_type();
    }
    static constexpr bool has_static_halide_type() { return !T_is_void; }
    static constexpr bool has_static_dimensions() { return Dims != AnyDims; }
    static constexpr int static_dimensions() { return Dims; }
    int dimensions() const { return c().buf.dimensions(); }
    Dimension dim(int i) const { return Dimension(c().buf.raw_buffer()->dim[i]); }
    int min(int i) const { return c().buf.min(i); }
    int extent(int i) const { return c().buf.extent(i); }
    int stride(int i) const { return c().buf.stride(i); }
    int width() const { return c().buf.width(); }
    int height() const { return c().buf.height(); }
    int channels() const { return c().buf.channels(); }
    int left() const { return c().buf.left(); }
    int right() const { return c().buf.right(); }
    int top() const { return c().buf.top(); }
    int bottom() const { return c().buf.bottom(); }
    size_t number_of_elements() const { return c().buf.number_of_elements(); }
    size_t size_in_bytes() const { return c().buf.size_in_bytes(); }
    bool is_bounds_query() const { return c().buf.is_bounds_query(); }
    bool owns_host_memory() const { return c().buf.owns_host_memory(); }
    template <typename... Args>
    bool contains(Args... args) const {
        return c().buf.contains(args...);
    }
    T *data() const { return (T *)c().buf.data(); }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    T *begin() const {
        return typed().begin();
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    T *end() const {
        return typed().end();
    }
    void allocate(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) {
        c().buf.allocate(allocate_fn, deallocate_fn);
    }
    void deallocate() { c().buf.deallocate(); }

    // ---- Elements ----

    /// Element access by integer coordinates (T must not be void). Not bounds-checked. Through
    /// a non-const Buffer it marks the host dirty (Runtime::Buffer's operator()).
    template <typename... Args, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value &&
                                          Runtime::detail::AllInts<Args...>::value>>
    elem_T &operator()(int first, Args... rest) {
        contents->buf.set_host_dirty();
        return *(elem_T *)contents->buf.address_of(first, rest...);
    }
    template <typename... Args, typename T2 = T,
              typename = std::enable_if_t<!std::is_void<T2>::value &&
                                          Runtime::detail::AllInts<Args...>::value>>
    const elem_T &operator()(int first, Args... rest) const {
        return *(const elem_T *)contents->buf.address_of(first, rest...);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()() {
        contents->buf.set_host_dirty();
        return *(elem_T *)contents->buf.data();
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    const elem_T &operator()() const {
        return *(const elem_T *)contents->buf.data();
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    elem_T &operator()(const int *pos) {
        contents->buf.set_host_dirty();
        return *(elem_T *)contents->buf.address_of(pos);
    }
    template <typename T2 = T, typename = std::enable_if_t<!std::is_void<T2>::value>>
    const elem_T &operator()(const int *pos) const {
        return *(const elem_T *)contents->buf.address_of(pos);
    }

    /// Inside an algorithm: a call to this buffer at the given coordinates. The buffer becomes
    /// an input of the pipeline. Implemented by the front end (src/lang/buffer_call.cpp).
    Expr operator()(const std::vector<Expr> &args) const;
    /// The same with Vars, Exprs or ints (at least one not an int).
    template <typename... Args,
              typename = std::enable_if_t<!Runtime::detail::AllInts<Args...>::value &&
                                          (std::is_convertible<Args, Expr>::value && ...)>>
    Expr operator()(const Args &...args) const {
        return (*this)(std::vector<Expr>{Expr(args)...});
    }
    template <typename V, typename = std::enable_if_t<std::is_convertible<V, Expr>::value &&
                                                      !std::is_same<V, Expr>::value>>
    Expr operator()(const std::vector<V> &args) const {
        return (*this)(std::vector<Expr>(args.begin(), args.end()));
    }

    /// See Runtime::Buffer::for_each_element.
    template <typename Fn>
    const Buffer &for_each_element(Fn &&f) const {
        c().buf.for_each_element(std::forward<Fn>(f));
        return *this;
    }
    /// See Runtime::Buffer::for_each_value; the others may be Buffers or Runtime::Buffers.
    template <typename Fn, typename... Others>
    const Buffer &for_each_value(Fn &&f, Others &&...others) const {
        typed().for_each_value(std::forward<Fn>(f), to_runtime(others)...);
        return *this;
    }
    /// Sets every element to a value, or to f(x, y, ...) of its coordinates. (typed() is a new
    /// view: the shared buffer's host is marked dirty here.)
    template <typename V>
    Buffer &fill(V &&v) {
        typed().fill(std::forward<V>(v));
        c().buf.set_host_dirty();
        return *this;
    }
    template <typename V>
    bool all_equal(V v) const {
        return typed().all_equal(v);
    }
    /// Copies the elements at coordinates present in both buffers (host memory, then dirty).
    template <typename Src>
    void copy_from(const Src &src) {
        typed().copy_from(to_runtime(src));
        c().buf.set_host_dirty();
    }
    /// A new dense buffer with the same shape and contents.
    Buffer<not_const_T, Dims> copy() const { return Buffer<not_const_T, Dims>(typed().copy()); }
    Buffer<not_const_T, Dims> copy_to_interleaved() const {
        return Buffer<not_const_T, Dims>(typed().copy_to_interleaved());
    }
    Buffer<not_const_T, Dims> copy_to_planar() const {
        return Buffer<not_const_T, Dims>(typed().copy_to_planar());
    }

    // ---- Views: in place (seen by every handle) and as new buffers ----

    template <typename... Args>
    void set_min(Args &&...args) {
        c().buf.set_min(std::forward<Args>(args)...);
    }
    /// The mins of the first mins.size() dimensions (as Halide: `b.set_min({9, -6, 5})`, which
    /// the variadic form cannot take).
    void set_min(const std::vector<int> &mins) { c().buf.set_min(mins); }
    void translate(int d, int delta) { c().buf.translate(d, delta); }
    void translate(const std::vector<int> &delta) { c().buf.translate(delta); }
    Buffer translated(int d, int delta) const { return Buffer(typed().translated(d, delta)); }
    Buffer translated(const std::vector<int> &delta) const {
        return Buffer(typed().translated(delta));
    }
    void crop(int d, int min, int extent) { c().buf.crop(d, min, extent); }
    void crop(const std::vector<std::pair<int, int>> &rect) { c().buf.crop(rect); }
    Buffer cropped(int d, int min, int extent) const {
        return Buffer(typed().cropped(d, min, extent));
    }
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        return Buffer(typed().cropped(rect));
    }
    void slice(int d, int pos) {
        static_assert(Dims == AnyDims, "slice in place changes the dimension count; use sliced");
        c().buf.slice(d, pos);
    }
    void slice(int d) {
        static_assert(Dims == AnyDims, "slice in place changes the dimension count; use sliced");
        c().buf.slice(d);
    }
    Buffer<T, DimsMinus> sliced(int d, int pos) const {
        return Buffer<T, DimsMinus>(typed().sliced(d, pos));
    }
    Buffer<T, DimsMinus> sliced(int d) const { return Buffer<T, DimsMinus>(typed().sliced(d)); }
    void embed(int d, int pos = 0) {
        static_assert(Dims == AnyDims, "embed in place changes the dimension count; use embedded");
        c().buf.embed(d, pos);
    }
    Buffer<T, DimsPlus> embedded(int d, int pos = 0) const {
        return Buffer<T, DimsPlus>(typed().embedded(d, pos));
    }
    void add_dimension() {
        static_assert(Dims == AnyDims, "add_dimension changes the dimension count");
        c().buf.add_dimension();
    }
    void transpose(int d1, int d2) { c().buf.transpose(d1, d2); }
    void transpose(const std::vector<int> &order) { c().buf.transpose(order); }
    Buffer transposed(int d1, int d2) const { return Buffer(typed().transposed(d1, d2)); }
    Buffer transposed(const std::vector<int> &order) const {
        return Buffer(typed().transposed(order));
    }

    // ---- Devices (Runtime::Buffer's methods; see loom/runtime/loom_buffer.h) ----

    /// Copy to (allocate on, wrap a native handle of) device d of target t, through the device
    /// interface get_device_interface_for_device_api gives (a CompileError for a device the
    /// target cannot use); without d, the target's default GPU.
    int copy_to_device(const DeviceAPI &d, const Target &t = get_jit_target_from_environment()) {
        return copy_to_device(get_device_interface_for_device_api(d, t, "Buffer::copy_to_device"));
    }
    int copy_to_device(const Target &t = get_jit_target_from_environment()) {
        return copy_to_device(DeviceAPI::Default_GPU, t);
    }
    int device_malloc(const DeviceAPI &d, const Target &t = get_jit_target_from_environment()) {
        return device_malloc(get_device_interface_for_device_api(d, t, "Buffer::device_malloc"));
    }
    int device_malloc(const Target &t = get_jit_target_from_environment()) {
        return device_malloc(DeviceAPI::Default_GPU, t);
    }
    int device_wrap_native(const DeviceAPI &d, uint64_t handle,
                           const Target &t = get_jit_target_from_environment()) {
        return device_wrap_native(
            get_device_interface_for_device_api(d, t, "Buffer::device_wrap_native"), handle);
    }
    /// Runtime::Buffer's methods of the same names, on the shared buffer.
    int copy_to_device(const halide_device_interface_t *iface, void *ctx = nullptr) {
        return c().buf.copy_to_device(iface, ctx);
    }
    int device_malloc(const halide_device_interface_t *iface, void *ctx = nullptr) {
        return c().buf.device_malloc(iface, ctx);
    }
    int device_wrap_native(const halide_device_interface_t *iface, uint64_t handle,
                           void *ctx = nullptr) {
        return c().buf.device_wrap_native(iface, handle, ctx);
    }
    int device_detach_native(void *ctx = nullptr) { return c().buf.device_detach_native(ctx); }
    int copy_to_host(void *ctx = nullptr) { return c().buf.copy_to_host(ctx); }
    int device_sync(void *ctx = nullptr) { return c().buf.device_sync(ctx); }
    int device_free(void *ctx = nullptr) { return c().buf.device_free(ctx); }
    void device_deallocate() { c().buf.device_deallocate(); }
    bool has_device_allocation() const { return c().buf.has_device_allocation(); }
    bool host_dirty() const { return c().buf.host_dirty(); }
    bool device_dirty() const { return c().buf.device_dirty(); }
    void set_host_dirty(bool v = true) { c().buf.set_host_dirty(v); }
    void set_device_dirty(bool v = true) { c().buf.set_device_dirty(v); }

    /// The shared contents (for the compiler's use).
    const internal::IntrusivePtr<internal::BufferContents> &get_contents() const {
        return contents;
    }

private:
    internal::IntrusivePtr<internal::BufferContents> contents;

    internal::BufferContents &c() const {
        if (!contents.defined()) throw CompileError("Use of an undefined Buffer");
        return *contents.get();
    }
    /// A typed Runtime::Buffer sharing the memory (the type was checked on construction).
    Runtime::Buffer<T, Dims> typed() const { return Runtime::Buffer<T, Dims>(c().buf); }
    static halide_type_t checked_type(Type t) {
        if (!T_is_void && Type(static_halide_type()) != t) {
            throw CompileError("Cannot make a Buffer of element type " +
                               type_to_string(Type(static_halide_type())) + " with type " +
                               type_to_string(t));
        }
        return t;
    }
    static const halide_buffer_t &checked_raw(const halide_buffer_t &b) {
        checked_type(Type(b.type));
        check_dims(b.dimensions);
        return b;
    }
    static void check_dims(int d) {
        if (Dims != AnyDims && d != Dims) {
            throw CompileError("Cannot use a Buffer of " + std::to_string(d) +
                               " dimensions as a Buffer of " + std::to_string(Dims) +
                               " dimensions");
        }
    }
    static void check_runtime_convertible(Type t, int d) {
        if (!T_is_void && Type(static_halide_type()) != t) {
            throw CompileError("Cannot convert a Buffer of type " + type_to_string(t) +
                               " to a Buffer of type " +
                               type_to_string(Type(static_halide_type())));
        }
        check_dims(d);
    }
    template <typename T2, int D2>
    static Runtime::Buffer<T2, D2> to_runtime(const Buffer<T2, D2> &b) {
        return b.typed();
    }
    template <typename T2, int D2>
    static const Runtime::Buffer<T2, D2> &to_runtime(const Runtime::Buffer<T2, D2> &b) {
        return b;
    }
};

/// Defined in src/lang/buffer_call.cpp.
template <>
Expr Buffer<void, AnyDims>::operator()(const std::vector<Expr> &args) const;

/// Calls on a typed or fixed-dimension Buffer go through Buffer<void>, whose call the front end
/// implements.
template <typename T, int Dims>
Expr Buffer<T, Dims>::operator()(const std::vector<Expr> &args) const {
    return Buffer<void>(*this)(args);
}

} // namespace loom

#endif
