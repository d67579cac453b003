// The cache behind Func::memoize(): computed regions of memoized Funcs keyed by the bytes the
// compiled code builds (the Func's name, its realized region, and the parameter values it
// depends on; see src/lower/memoization.cpp).
//
// Loom's entries hold a copy of the values: a hit copies them into the buffers the pipeline
// allocated, a store copies the freshly computed values in. (Halide instead hands its cached
// allocation to the pipeline and needs halide_memoization_cache_release to give it back; here
// release has nothing to do.) Entries are kept most-recently-used first and the oldest are
// dropped when the total size of the values exceeds the limit (1 MiB unless set with
// halide_memoization_cache_set_size). All entry points are thread-safe (one spin lock).

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

namespace {

struct CacheEntry {
    CacheEntry *next;
    uint8_t *key;
    int32_t key_size;
    int32_t tuple_count;
    bool has_eviction_key;
    uint64_t eviction_key;
    size_t value_bytes;  ///< sum over the tuple
    uint8_t **values;    ///< one dense copy per tuple element
    size_t *value_sizes; ///< bytes of each
};

CacheEntry *entries = nullptr; // most recently used first
int64_t max_bytes = 1 << 20;
int64_t used_bytes = 0;
volatile int lock_word = 0;

struct Lock {
    Lock() {
        while (__sync_lock_test_and_set(&lock_word, 1)) {}
    }
    ~Lock() { __sync_lock_release(&lock_word); }
};

/// Bytes of a dense buffer of this shape.
size_t buffer_bytes(const halide_buffer_t *b) {
    size_t n = (size_t)((b->type.bits + 7) / 8) * (b->type.lanes ? b->type.lanes : 1);
    for (int d = 0; d < b->dimensions; d++) n *= (size_t)b->dim[d].extent;
    return n;
}

bool same_key(const CacheEntry *e, const uint8_t *key, int32_t size) {
    if (e->key_size != size) return false;
    for (int32_t i = 0; i < size; i++) {
        if (e->key[i] != key[i]) return false;
    }
    return true;
}

void free_entry(CacheEntry *e) {
    for (int32_t i = 0; i < e->tuple_count; i++) free(e->values[i]);
    free(e->values);
    free(e->value_sizes);
    free(e->key);
    used_bytes -= (int64_t)e->value_bytes;
    free(e);
}

/// Drops least recently used entries until the values fit the limit.
void prune() {
    while (used_bytes > max_bytes && entries) {
        CacheEntry **last = &entries;
        while ((*last)->next) last = &(*last)->next;
        CacheEntry *e = *last;
        *last = nullptr;
        free_entry(e);
    }
}

} // namespace

extern "C" {

void halide_memoization_cache_set_size(int64_t size) {
    Lock l;
    max_bytes = size > 0 ? size : (1 << 20);
    prune();
}

int halide_memoization_cache_lookup(void *user_context, const uint8_t *cache_key, int32_t size,
                                    halide_buffer_t *realized_bounds, int32_t tuple_count,
                                    halide_buffer_t **tuple_buffers) {
    (void)user_context;
    (void)realized_bounds;
    Lock l;
    CacheEntry **link = &entries;
    for (CacheEntry *e = entries; e; link = &e->next, e = e->next) {
        if (!same_key(e, cache_key, size) || e->tuple_count != tuple_count) continue;
        for (int32_t i = 0; i < tuple_count; i++) {
            if (buffer_bytes(tuple_buffers[i]) != e->value_sizes[i]) return 1;
        }
        for (int32_t i = 0; i < tuple_count; i++) {
            memcpy(tuple_buffers[i]->host, e->values[i], e->value_sizes[i]);
        }
        // Move to the front: most recently used.
        *link = e->next;
        e->next = entries;
        entries = e;
        return 0;
    }
    return 1;
}

int halide_memoization_cache_store(void *user_context, const uint8_t *cache_key, int32_t size,
                                   halide_buffer_t *realized_bounds, int32_t tuple_count,
                                   halide_buffer_t **tuple_buffers, bool has_eviction_key,
                                   uint64_t eviction_key) {
    (void)user_context;
    (void)realized_bounds;
    Lock l;
    for (CacheEntry *e = entries; e; e = e->next) {
        if (same_key(e, cache_key, size)) return 0; // another thread stored it first
    }
    CacheEntry *e = (CacheEntry *)malloc(sizeof(CacheEntry));
    if (!e) return 0; // a cache that can't grow just misses next time
    e->key = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
    e->values = (uint8_t **)malloc(sizeof(uint8_t *) * (tuple_count > 0 ? tuple_count : 1));
    e->value_sizes = (size_t *)malloc(sizeof(size_t) * (tuple_count > 0 ? tuple_count : 1));
    e->key_size = size;
    e->tuple_count = 0;
    e->value_bytes = 0;
    e->has_eviction_key = has_eviction_key;
    e->eviction_key = eviction_key;
    e->next = nullptr;
    if (!e->key || !e->values || !e->value_sizes) {
        free_entry(e);
        return 0;
    }
    memcpy(e->key, cache_key, (size_t)size);
    for (int32_t i = 0; i < tuple_count; i++) {
        size_t n = buffer_bytes(tuple_buffers[i]);
        e->values[i] = (uint8_t *)malloc(n ? n : 1);
        if (!e->values[i]) {
            free_entry(e);
            return 0;
        }
        memcpy(e->values[i], tuple_buffers[i]->host, n);
        e->value_sizes[i] = n;
        e->value_bytes += n;
        e->tuple_count = i + 1;
    }
    used_bytes += (int64_t)e->value_bytes;
    e->next = entries;
    entries = e;
    prune();
    return 0;
}

void halide_memoization_cache_release(void *user_context, void *host) {
    // Values are copied out of the cache, so the pipeline owns its buffers outright.
    (void)user_context;
    (void)host;
}

void halide_memoization_cache_evict(void *user_context, uint64_t eviction_key) {
    (void)user_context;
    Lock l;
    CacheEntry **link = &entries;
    while (*link) {
        CacheEntry *e = *link;
        if (e->has_eviction_key && e->eviction_key == eviction_key) {
            *link = e->next;
            free_entry(e);
        } else {
            link = &e->next;
        }
    }
}

void halide_memoization_cache_cleanup(void) {
    Lock l;
    while (entries) {
        CacheEntry *e = entries;
        entries = e->next;
        free_entry(e);
    }
}

} // extern "C"
