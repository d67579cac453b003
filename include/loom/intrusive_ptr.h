#ifndef LOOM_INTRUSIVE_PTR_H
#define LOOM_INTRUSIVE_PTR_H

/// \file Reference counting shared by IR nodes and front-end objects.

#include <atomic>
#include <cstddef>
#include <functional>

namespace loom {
namespace internal {

/// Base of every intrusively reference-counted object. The count lives in the object, so a raw
/// pointer can be turned back into an owning handle.
struct RefCounted {
    mutable std::atomic<int> ref_count{0};
    RefCounted() = default;
    RefCounted(const RefCounted &) : ref_count(0) {}
    RefCounted &operator=(const RefCounted &) { return *this; }
    virtual ~RefCounted() = default;
};

/// An owning handle to a RefCounted object (T must derive from RefCounted).
template <typename T>
class IntrusivePtr {
public:
    IntrusivePtr() = default;
    IntrusivePtr(T *p) : ptr(p) { inc(); }
    IntrusivePtr(const IntrusivePtr &o) : ptr(o.ptr) { inc(); }
    IntrusivePtr(IntrusivePtr &&o) noexcept : ptr(o.ptr) { o.ptr = nullptr; }
    template <typename U>
    IntrusivePtr(const IntrusivePtr<U> &o) : ptr(o.get()) {
        inc();
    }
    ~IntrusivePtr() { dec(); }

    IntrusivePtr &operator=(const IntrusivePtr &o) {
        if (o.ptr != ptr) {
            T *old = ptr;
            ptr = o.ptr;
            inc();
            release(old);
        }
        return *this;
    }
    IntrusivePtr &operator=(IntrusivePtr &&o) noexcept {
        if (this != &o) {
            T *old = ptr;
            ptr = o.ptr;
            o.ptr = nullptr;
            release(old);
        }
        return *this;
    }

    T *get() const { return ptr; }
    T &operator*() const { return *ptr; }
    T *operator->() const { return ptr; }
    bool defined() const { return ptr != nullptr; }
    /// Identity, not structural equality.
    bool same_as(const IntrusivePtr &o) const { return ptr == o.ptr; }
    bool operator<(const IntrusivePtr &o) const { return ptr < o.ptr; }

private:
    void inc() {
        if (ptr) ptr->ref_count.fetch_add(1, std::memory_order_relaxed);
    }
    void dec() { release(ptr); }
    static void release(T *p) {
        if (p && p->ref_count.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p;
    }
    T *ptr = nullptr;
};

} // namespace internal
} // namespace loom

#endif
