// halide_do_par_for / halide_do_task: the thread pool that runs parallel loops, and their
// replaceable handlers.
//
// A parallel loop is a Job: a task function, its closure and a range of iterations. The caller
// pushes its Job on a list, wakes the workers and takes iterations itself until none are left,
// then waits for the iterations other threads are still running. Workers take iterations from
// the most recently pushed Job that has some left, so a nested parallel loop (a task that runs a
// parallel loop) is finished before its parent's remaining iterations start, and every waiting
// thread's Job has a thread working on it: nesting cannot deadlock. The first failing task's
// error code is the loop's result; iterations not yet started are then skipped.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

#include <stdint.h>

extern "C" long sysconf(int name);

namespace {

// sysconf's _SC_NPROCESSORS_ONLN on Linux (all architectures).
const int kScNprocessorsOnln = 84;
const int kMaxThreads = 256;

} // namespace

// External linkage: one pool and one set of handlers per program even when several AOT
// pipelines carry the runtime (see error_handler.cpp).
namespace loom_runtime {

struct Job {
    halide_task_t task;
    void *user_context;
    uint8_t *closure;
    int next, end; ///< iterations [next, end) are not started yet
    int active;    ///< iterations running now
    int error;     ///< the first nonzero task result
    Job *below;    ///< the Job pushed before this one
};

struct Pool {
    SyncStorage mutex;
    SyncStorage work_available; ///< signalled when a Job is pushed or at shutdown
    SyncStorage job_finished;   ///< signalled when a Job's last running iteration ends
    Job *jobs;                  ///< the most recently pushed Job
    int desired_threads;        ///< 0 until first use: then from the environment
    int workers;                ///< worker threads started (the caller is one more thread)
    bool shutting_down;
    loom_pthread_t threads[kMaxThreads];
};

Pool thread_pool; // zero-initialized: a valid unlocked mutex and idle condition variables
halide_do_par_for_t current_do_par_for = halide_default_do_par_for;
halide_do_task_t current_do_task = halide_default_do_task;

void shutdown_fork_threads(); // parallel_tasks.cpp

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

Pool &pool = thread_pool;

void lock() { pthread_mutex_lock(&pool.mutex); }
void unlock() { pthread_mutex_unlock(&pool.mutex); }

int parse_positive(const char *s) {
    if (!s) return 0;
    int v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > kMaxThreads) return kMaxThreads;
    }
    return *s == 0 ? v : 0;
}

/// LOOM_NUM_THREADS, else HL_NUM_THREADS, else the number of online CPUs.
int default_thread_count() {
    int n = parse_positive(getenv("LOOM_NUM_THREADS"));
    if (n <= 0) n = parse_positive(getenv("HL_NUM_THREADS"));
    if (n <= 0) {
        long cpus = sysconf(kScNprocessorsOnln);
        n = cpus > 0 ? (int)cpus : 1;
    }
    return n > kMaxThreads ? kMaxThreads : n;
}

/// Runs one iteration of j with the pool unlocked; called and returns with it locked.
void run_one(Job *j) {
    int i = j->next++;
    j->active++;
    unlock();
    int result = halide_do_task(j->user_context, j->task, i, j->closure);
    lock();
    j->active--;
    if (result != 0 && j->error == 0) {
        j->error = result;
        j->next = j->end; // skip what has not started
    }
    if (j->next >= j->end && j->active == 0) pthread_cond_broadcast(&pool.job_finished);
}

Job *job_with_work() {
    for (Job *j = pool.jobs; j; j = j->below) {
        if (j->next < j->end) return j;
    }
    return nullptr;
}

void *worker_main(void *arg) {
    const int index = (int)(intptr_t)arg;
    lock();
    while (!pool.shutting_down) {
        // Workers beyond the current thread count (halide_set_num_threads lowered it) idle.
        Job *j = index < pool.desired_threads - 1 ? job_with_work() : nullptr;
        if (j) {
            run_one(j);
        } else {
            pthread_cond_wait(&pool.work_available, &pool.mutex);
        }
    }
    unlock();
    return nullptr;
}

/// Starts workers until there are desired_threads - 1 of them (pool locked).
void start_workers() {
    if (pool.desired_threads == 0) pool.desired_threads = default_thread_count();
    while (pool.workers < pool.desired_threads - 1) {
        void *index = (void *)(intptr_t)pool.workers;
        if (pthread_create(&pool.threads[pool.workers], nullptr, worker_main, index) != 0) break;
        pool.workers++;
    }
}

} // namespace

extern "C" {

int halide_default_do_task(void *user_context, halide_task_t f, int idx, uint8_t *closure) {
    return f(user_context, idx, closure);
}

int halide_default_do_par_for(void *user_context, halide_task_t f, int min, int size,
                              uint8_t *closure) {
    if (size <= 0) return 0;
    lock();
    start_workers();
    if (pool.desired_threads <= 1 || pool.workers == 0 || size == 1) {
        // One thread (or one iteration): no hand-off.
        unlock();
        for (int i = min; i < min + size; i++) {
            int result = halide_do_task(user_context, f, i, closure);
            if (result != 0) return result;
        }
        return 0;
    }
    Job job = {f, user_context, closure, min, min + size, 0, 0, pool.jobs};
    pool.jobs = &job;
    pthread_cond_broadcast(&pool.work_available);
    while (job.next < job.end) run_one(&job);
    while (job.active > 0) pthread_cond_wait(&pool.job_finished, &pool.mutex);
    // Unlink (nested Jobs pushed above this one have all finished and been unlinked).
    Job **link = &pool.jobs;
    while (*link != &job) link = &(*link)->below;
    *link = job.below;
    unlock();
    return job.error;
}

int halide_do_task(void *user_context, halide_task_t f, int idx, uint8_t *closure) {
    halide_do_task_t h = __atomic_load_n(&current_do_task, __ATOMIC_ACQUIRE);
    return h(user_context, f, idx, closure);
}

int halide_do_par_for(void *user_context, halide_task_t f, int min, int size, uint8_t *closure) {
    halide_do_par_for_t h = __atomic_load_n(&current_do_par_for, __ATOMIC_ACQUIRE);
    return h(user_context, f, min, size, closure);
}

halide_do_task_t halide_set_custom_do_task(halide_do_task_t f) {
    if (!f) f = halide_default_do_task;
    return __atomic_exchange_n(&current_do_task, f, __ATOMIC_ACQ_REL);
}

halide_do_par_for_t halide_set_custom_do_par_for(halide_do_par_for_t f) {
    if (!f) f = halide_default_do_par_for;
    return __atomic_exchange_n(&current_do_par_for, f, __ATOMIC_ACQ_REL);
}

int halide_set_num_threads(int n) {
    lock();
    if (pool.desired_threads == 0) pool.desired_threads = default_thread_count();
    int old = pool.desired_threads;
    if (n <= 0) n = default_thread_count();
    // Workers beyond the new count stay idle; more are started by the next parallel loop.
    pool.desired_threads = n > kMaxThreads ? kMaxThreads : n;
    pthread_cond_broadcast(&pool.work_available);
    unlock();
    return old;
}

void halide_shutdown_thread_pool(void) {
    lock();
    pool.shutting_down = true;
    pthread_cond_broadcast(&pool.work_available);
    int n = pool.workers;
    unlock();
    for (int i = 0; i < n; i++) pthread_join(pool.threads[i], nullptr);
    lock();
    pool.workers = 0;
    pool.shutting_down = false;
    unlock();
    shutdown_fork_threads();
}

} // extern "C"
