#ifndef LOOM_RUNTIME_RUNTIME_LIBC_H
#define LOOM_RUNTIME_RUNTIME_LIBC_H

// The C library functions the runtime calls, declared here instead of including <stdlib.h>,
// <string.h> or <stdio.h>: the runtime is also compiled freestanding to LLVM bitcode for every
// AOT target (x86-64 and AArch64 Linux), where the target's libc headers may be absent. The
// declarations are those of glibc and musl on LP64 Linux (size_t and ssize_t are 64-bit on
// both architectures); the symbols resolve against the libc of the program that links the
// pipeline, or of the process for the JIT copy.

#include <stddef.h>

extern "C" {
void *malloc(size_t size);
void free(void *ptr);
void *memcpy(void *dst, const void *src, size_t n);
size_t strlen(const char *s);
/// POSIX write(2); the runtime writes to file descriptors 1 and 2 rather than through stdio.
long write(int fd, const void *buf, size_t n);
int snprintf(char *dst, size_t n, const char *format, ...);
char *getenv(const char *name);
/// POSIX mutexes, condition variables and threads (in libc since glibc 2.34, and in musl), on
/// SyncStorage below; a pthread_t is an unsigned long on both.
typedef unsigned long loom_pthread_t;
int pthread_mutex_lock(void *mutex);
int pthread_mutex_unlock(void *mutex);
int pthread_cond_wait(void *cond, void *mutex);
int pthread_cond_broadcast(void *cond);
int pthread_create(loom_pthread_t *thread, const void *attr, void *(*start)(void *), void *arg);
int pthread_join(loom_pthread_t thread, void **result);
}

namespace loom_runtime {

/// Storage for a pthread mutex or condition variable, larger and more aligned than glibc's on
/// x86-64 and AArch64 (40/48 bytes); zero-initialized it is what PTHREAD_MUTEX_INITIALIZER and
/// PTHREAD_COND_INITIALIZER make.
struct alignas(16) SyncStorage {
    unsigned char bytes[64];
};

} // namespace loom_runtime

#endif
