// Counts the heap bytes a JIT-compiled pipeline allocates, through its custom_malloc /
// custom_free handlers: what is live now, the peak, and the largest single allocation.
#ifndef LOOM_TESTS_COMMON_HEAP_TRACKING_H
#define LOOM_TESTS_COMMON_HEAP_TRACKING_H

#include <loom/loom.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <mutex>

/// The pipeline's allocations since install(); one tracker at a time (the handlers are plain
/// functions, so the counts are static).
struct HeapTracking {
    static inline std::mutex mutex;
    static inline std::map<void *, size_t> blocks;
    static inline size_t live = 0, peak = 0, largest = 0;

    /// Routes f's heap allocations through the counters, which start from zero.
    static void install(loom::Func &f) {
        f.jit_handlers().custom_malloc = allocate;
        f.jit_handlers().custom_free = release;
        std::lock_guard<std::mutex> lock(mutex);
        blocks.clear();
        live = peak = largest = 0;
    }

    static void *allocate(loom::JITUserContext *, size_t n) {
        void *p = std::malloc(n);
        std::lock_guard<std::mutex> lock(mutex);
        blocks[p] = n;
        live += n;
        peak = std::max(peak, live);
        largest = std::max(largest, n);
        return p;
    }

    static void release(loom::JITUserContext *, void *p) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            auto it = blocks.find(p);
            if (it != blocks.end()) {
                live -= it->second;
                blocks.erase(it);
            }
        }
        std::free(p);
    }
};

#endif
