#ifndef LOOM_RUNTIME_LOOM_BUFFER_DETAIL_H
#define LOOM_RUNTIME_LOOM_BUFFER_DETAIL_H

/// \file Helpers behind Runtime::Buffer (loom_buffer.h): the shared allocation, the strided
/// element copy and the callable-arity detection used by for_each_element. Header-only and free
/// of libloom, like loom_buffer.h itself.

#include <loom/runtime/loom_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace loom {
namespace Runtime {
namespace detail {

/// Alignment of every host allocation a Runtime::Buffer makes, and the slack after its end so
/// vector loads a little past the last element stay inside the allocation (as halide_malloc).
constexpr size_t kBufferAlignment = 128;
constexpr size_t kBufferSlack = 64;
/// Dimensions stored inside the Buffer object itself; more go to the heap. Independent of T and
/// Dims so every Buffer<T, Dims> has the same layout.
constexpr int kInClassDims = 4;

/// Reports a misuse of a Buffer (bad conversion, crop outside the buffer, ...). Throws when the
/// code is built with exceptions; otherwise prints and aborts, since there is no caller to tell.
[[noreturn]] inline void buffer_error(const std::string &msg) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw std::runtime_error("Buffer error: " + msg);
#else
    std::fprintf(stderr, "Buffer error: %s\n", msg.c_str());
    std::abort();
#endif
}

/// The head of a shared host allocation: every Buffer viewing the memory holds one reference.
struct AllocationHeader {
    std::atomic<int> ref_count{1};
    void (*deallocate_fn)(void *) = nullptr; ///< frees `block`
    void *block = nullptr;                   ///< what the allocate function returned
};

} // namespace detail

/// How the device allocation a Buffer holds is released when the last Buffer sharing it goes
/// away (Halide's names and meanings).
enum struct BufferDeviceOwnership : int {
    Allocated,              ///< freed with halide_device_free
    WrappedNative,          ///< a native handle the caller owns: only detached
    Unmanaged,              ///< someone else's: left alone
    AllocatedDeviceAndHost, ///< freed, with the host memory, by halide_device_and_host_free
    Cropped,                ///< an alias into another Buffer's allocation: released, and that
                            ///< Buffer with it
};

namespace detail {

/// The count of Buffers sharing one device allocation, and how it is released. Made when a
/// second Buffer starts sharing the allocation, or when the way of releasing it is not the
/// default (halide_device_free).
struct DeviceRefCount {
    std::atomic<int> count{1};
    BufferDeviceOwnership ownership = BufferDeviceOwnership::Allocated;
    DeviceRefCount() = default;
    explicit DeviceRefCount(BufferDeviceOwnership o) : ownership(o) {}
    virtual ~DeviceRefCount() = default;
    /// The Buffer whose allocation a crop's or slice's alias points into (DeviceAliasRef), else
    /// null.
    virtual const void *aliased_buffer() const { return nullptr; }
};

/// A crop's or slice's device alias: it keeps the Buffer it aliases, and so that Buffer's
/// device allocation, alive (B is Buffer<const void, AnyDims>).
template <typename B>
struct DeviceAliasRef : DeviceRefCount {
    explicit DeviceAliasRef(const B &p)
        : DeviceRefCount(BufferDeviceOwnership::Cropped), parent(p) {}
    const void *aliased_buffer() const override { return &parent; }
    B parent;
};

/// The functions allocate_host uses when a caller gives none (Halide's
/// Runtime::Buffer::set_default_allocate_fn / set_default_deallocate_fn; null: malloc and free).
struct DefaultAllocators {
    static inline void *(*allocate_fn)(size_t) = nullptr;
    static inline void (*deallocate_fn)(void *) = nullptr;
};

/// Asks Linux to back a large, untouched allocation with transparent huge pages where the
/// system allows it (THP in "madvise" mode, the common default), as NumPy does: the first touch
/// of a big new buffer (a pipeline writing its output) then takes one fault per 2 MiB instead
/// of one per 4 KiB. Elsewhere, and below 4 MiB, nothing.
inline void advise_huge_pages(void *data, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < ((size_t)4 << 20)) return;
    const uintptr_t page = 4096;
    uintptr_t start = ((uintptr_t)data + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)data + bytes) & ~(page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

/// Allocates `bytes` of zeroed memory aligned to kBufferAlignment with kBufferSlack spare bytes
/// after it. The header lives in a separate small allocation so a user's allocate_fn only ever
/// sees the data request. Returns the header; `*data` receives the aligned start.
inline AllocationHeader *allocate_host(size_t bytes, void *(*allocate_fn)(size_t),
                                       void (*deallocate_fn)(void *), uint8_t **data) {
    if (!allocate_fn) {
        allocate_fn = DefaultAllocators::allocate_fn;
        deallocate_fn = DefaultAllocators::deallocate_fn;
    }
    size_t request = bytes + kBufferAlignment + kBufferSlack;
    // Zeroed so a pipeline output that is only partly written still reads deterministically.
    // calloc gets large blocks as fresh pages the kernel zeroes on first touch, so a big
    // output is not written twice (a memset first, then the pipeline's stores).
    void *block = allocate_fn ? allocate_fn(request) : std::calloc(request, 1);
    if (!block) buffer_error("out of memory allocating " + std::to_string(bytes) + " bytes");
    uintptr_t p = ((uintptr_t)block + kBufferAlignment - 1) & ~(uintptr_t)(kBufferAlignment - 1);
    *data = (uint8_t *)p;
    if (allocate_fn) {
        std::memset(*data, 0, bytes + kBufferSlack);
    } else {
        advise_huge_pages(*data, bytes);
    }
    AllocationHeader *h = new AllocationHeader;
    h->deallocate_fn = allocate_fn ? (deallocate_fn ? deallocate_fn : std::free) : std::free;
    h->block = block;
    return h;
}

inline void incref(AllocationHeader *h) {
    if (h) h->ref_count.fetch_add(1, std::memory_order_relaxed);
}

inline void decref(AllocationHeader *h) {
    if (h && h->ref_count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        h->deallocate_fn(h->block);
        delete h;
    }
}

/// Lowest and one-past-highest byte offsets (from host) touched by a buffer's elements.
inline void byte_span(const halide_buffer_t &b, int64_t *lo, int64_t *hi) {
    int64_t l = 0, h = 0;
    for (int i = 0; i < b.dimensions; i++) {
        if (b.dim[i].extent <= 0) {
            *lo = *hi = 0;
            return;
        }
        int64_t span = (int64_t)(b.dim[i].extent - 1) * b.dim[i].stride;
        if (span < 0)
            l += span;
        else
            h += span;
    }
    *lo = l * b.type.bytes();
    *hi = (h + 1) * b.type.bytes();
}

/// Copies the elements of `src` to `dst`, which have the same extents and element size (mins
/// are ignored: element i of each dimension goes to element i). Dimension 0 is innermost.
inline void copy_strided(uint8_t *dst, const uint8_t *src, const halide_dimension_t *ddim,
                         const halide_dimension_t *sdim, int d, int bytes) {
    if (d < 0) {
        std::memcpy(dst, src, bytes);
        return;
    }
    int64_t ds = (int64_t)ddim[d].stride * bytes, ss = (int64_t)sdim[d].stride * bytes;
    int extent = ddim[d].extent;
    if (d == 0) {
        if (ddim[0].stride == 1 && sdim[0].stride == 1) {
            std::memcpy(dst, src, (size_t)extent * bytes);
            return;
        }
        for (int i = 0; i < extent; i++) std::memcpy(dst + i * ds, src + i * ss, bytes);
        return;
    }
    for (int i = 0; i < extent; i++)
        copy_strided(dst + i * ds, src + i * ss, ddim, sdim, d - 1, bytes);
}

/// Copies all of `src` into `dst` (same dimensions, extents and type; hosts non-null). When the
/// two views overlap in memory the source is staged through a temporary first, so the result is
/// as if every source element were read before any destination element was written.
inline void copy_buffer_contents(const halide_buffer_t &dst, const halide_buffer_t &src) {
    int bytes = dst.type.bytes();
    int64_t dlo, dhi, slo, shi;
    byte_span(dst, &dlo, &dhi);
    byte_span(src, &slo, &shi);
    if (dhi == dlo) return;
    const uint8_t *d0 = dst.host + dlo, *d1 = dst.host + dhi;
    const uint8_t *s0 = src.host + slo, *s1 = src.host + shi;
    bool overlap = d0 < s1 && s0 < d1;
    if (!overlap) {
        copy_strided(dst.host, src.host, dst.dim, src.dim, dst.dimensions - 1, bytes);
        return;
    }
    bool same_layout = dst.host == src.host;
    for (int i = 0; same_layout && i < dst.dimensions; i++) {
        same_layout = dst.dim[i].stride == src.dim[i].stride;
    }
    if (same_layout) return; // every element would be copied onto itself
    std::vector<halide_dimension_t> tdim(dst.dimensions);
    int64_t stride = 1;
    for (int i = 0; i < dst.dimensions; i++) {
        tdim[i] = halide_dimension_t(0, dst.dim[i].extent, (int32_t)stride);
        stride *= dst.dim[i].extent;
    }
    std::vector<uint8_t> tmp((size_t)(stride * bytes));
    copy_strided(tmp.data(), src.host, tdim.data(), src.dim, dst.dimensions - 1, bytes);
    copy_strided(dst.host, tmp.data(), dst.dim, tdim.data(), dst.dimensions - 1, bytes);
}

/// One dimension of a buffer (Runtime::Buffer::Dimension); iterable over its coordinates.
class BufferDimension {
    halide_dimension_t d;

public:
    explicit BufferDimension(const halide_dimension_t &dim) : d(dim) {}
    /// The lowest coordinate.
    int min() const { return d.min; }
    /// The number of coordinates.
    int extent() const { return d.extent; }
    /// The highest coordinate.
    int max() const { return d.min + d.extent - 1; }
    /// Elements between consecutive coordinates.
    int stride() const { return d.stride; }
    /// Iterates over the coordinates min() .. max().
    struct iterator {
        int val;
        int operator*() const { return val; }
        bool operator!=(const iterator &o) const { return val != o.val; }
        bool operator==(const iterator &o) const { return val == o.val; }
        iterator &operator++() {
            val++;
            return *this;
        }
    };
    iterator begin() const { return {min()}; }
    iterator end() const { return {min() + extent()}; }
};

/// Fails unless every extent is non-negative and the memory the shape spans is addressable.
inline void check_overflow(const halide_buffer_t &b) {
    int64_t span = 1;
    for (int i = 0; i < b.dimensions; i++) {
        int64_t e = b.dim[i].extent, s = b.dim[i].stride;
        if (e < 0) buffer_error("negative extent in dimension " + std::to_string(i));
        int64_t step = (e > 0 ? e - 1 : 0) * (s < 0 ? -s : s);
        if (step > ((int64_t)1 << 62) - span) buffer_error("buffer too large");
        span += step;
    }
    int bytes = b.type.bytes() > 0 ? b.type.bytes() : 1;
    if (span > ((int64_t)1 << 62) / bytes) buffer_error("buffer too large");
}

/// Gives `dim` (whose extents are set) dense strides nested in the order of the strides of
/// `like`: the dimension with the smallest |stride| innermost, ties by index.
inline void set_dense_strides_like(halide_dimension_t *dim, const halide_dimension_t *like, int n) {
    std::vector<int> order(n);
    for (int i = 0; i < n; i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        int64_t sa = like[a].stride, sb = like[b].stride;
        return (sa < 0 ? -sa : sa) < (sb < 0 ? -sb : sb);
    });
    int64_t stride = 1;
    for (int i : order) {
        dim[i].stride = (int32_t)stride;
        stride *= dim[i].extent;
    }
}

/// Fails unless buffer `k` (`other`) has `b`'s dimension count and contains its coordinates.
inline void check_covers(const halide_buffer_t &other, const halide_buffer_t &b, int k) {
    if (other.dimensions != b.dimensions) {
        buffer_error("for_each_value over buffers of different dimensions");
    }
    for (int i = 0; i < b.dimensions; i++) {
        if (other.dim[i].min > b.dim[i].min ||
            other.dim[i].min + other.dim[i].extent < b.dim[i].min + b.dim[i].extent) {
            buffer_error("for_each_value: buffer " + std::to_string(k) +
                         " does not cover the first buffer");
        }
    }
}

/// `int` for every index of a pack (used to form N int arguments).
template <size_t>
using int_t = int;

template <typename Fn, size_t... I>
constexpr bool invocable_with_ints(std::index_sequence<I...>) {
    return std::is_invocable<Fn, int_t<I>...>::value;
}

/// The smallest N (up to 16) such that Fn can be called with N ints, or -1.
template <typename Fn, int N = 0>
constexpr int int_arity() {
    if constexpr (N > 16) {
        return -1;
    } else if constexpr (invocable_with_ints<Fn>(std::make_index_sequence<N>())) {
        return N;
    } else {
        return int_arity<Fn, N + 1>();
    }
}

/// Calls f(pos[0], ..., pos[N-1]).
template <typename Fn, size_t... I>
inline void call_with_coords(Fn &f, const int *pos, std::index_sequence<I...>) {
    f(pos[I]...);
}

/// Visits every coordinate of the first `n` dimensions of `dim` (dimension 0 fastest), calling
/// visit(pos) with the coordinate array.
template <typename Visit>
inline void for_each_coordinate(const halide_dimension_t *dim, int n, Visit &&visit) {
    int small[16];
    std::vector<int> big;
    int *pos = small;
    if (n > 16) {
        big.resize(n);
        pos = big.data();
    }
    for (int i = 0; i < n; i++) {
        if (dim[i].extent <= 0) return;
        pos[i] = dim[i].min;
    }
    while (true) {
        visit((const int *)pos);
        int d = 0;
        for (; d < n; d++) {
            if (++pos[d] < dim[d].min + dim[d].extent) break;
            pos[d] = dim[d].min;
        }
        if (d == n) return;
    }
}

} // namespace detail
} // namespace Runtime
} // namespace loom

#endif
