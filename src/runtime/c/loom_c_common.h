// What both files of the C back end's runtime need: the weak attribute and the atomic (or locked)
// access to replaceable handlers. The C back end pastes this text before them; compiled on their
// own, they include it.
#ifndef LOOM_C_RUNTIME_COMMON
#define LOOM_C_RUNTIME_COMMON
#ifdef __GNUC__
#define LOOM_C_RUNTIME_WEAK __attribute__((weak))
#else
#define LOOM_C_RUNTIME_WEAK
#endif
// Read (GET), swap (SWAP) and set (SET) a replaceable handler, atomically when other threads may
// call through it at the same time.
#if defined(LOOM_C_NO_THREADS)
#define LOOM_C_HOOK_GET(dst, var) ((dst) = (var))
#define LOOM_C_HOOK_SWAP(old, var, val) ((old) = (var), (var) = (val))
#define LOOM_C_HOOK_SET(var, val) ((var) = (val))
#elif defined(__GNUC__)
#define LOOM_C_HOOK_GET(dst, var) ((dst) = __atomic_load_n(&(var), __ATOMIC_ACQUIRE))
#define LOOM_C_HOOK_SWAP(old, var, val)                                                            \
    ((old) = __atomic_exchange_n(&(var), (val), __ATOMIC_ACQ_REL))
#define LOOM_C_HOOK_SET(var, val) __atomic_store_n(&(var), (val), __ATOMIC_RELEASE)
#else
#include <pthread.h>
static pthread_mutex_t loom_c_hook_mutex = PTHREAD_MUTEX_INITIALIZER;
#define LOOM_C_HOOK_GET(dst, var)                                                                  \
    (pthread_mutex_lock(&loom_c_hook_mutex), (dst) = (var),                                        \
     pthread_mutex_unlock(&loom_c_hook_mutex))
#define LOOM_C_HOOK_SWAP(old, var, val)                                                            \
    (pthread_mutex_lock(&loom_c_hook_mutex), (old) = (var), (var) = (val),                         \
     pthread_mutex_unlock(&loom_c_hook_mutex))
#define LOOM_C_HOOK_SET(var, val)                                                                  \
    (pthread_mutex_lock(&loom_c_hook_mutex), (var) = (val),                                        \
     pthread_mutex_unlock(&loom_c_hook_mutex))
#endif
#endif // LOOM_C_RUNTIME_COMMON
