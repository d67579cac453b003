// Semaphores and halide_do_parallel_tasks: the task system under Func::async.
//
// An async producer and its consumers run as two tasks of one fork (loom_do_fork) that wait on
// each other through semaphores: the consumer until the producer has computed what it reads,
// the producer (with folded or ring-buffered storage) until the consumer is done with what it
// would overwrite. Both must therefore run at the same time, whatever the thread count: unlike
// a parallel loop's iterations, the tasks of halide_do_parallel_tasks run on threads of their
// own (the caller runs the first; each other task gets an idle fork thread, or a new one). A
// task that fails marks the fork's semaphores failed, so the other side stops waiting.
//
// A semaphore is two words: the count and a failed flag. Waiting threads sleep on one
// condition variable shared by all semaphores; every release and failure wakes them to
// re-check (a release is rare next to the work between two).

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

#include <stdint.h>

namespace {

const int kMaxForkThreads = 256;

} // namespace

// External linkage: one set per program even when several AOT pipelines carry the runtime.
namespace loom_runtime {

/// A task handed to a fork thread, and its result.
struct ForkRequest {
    void *user_context;
    halide_parallel_task_t *task;
    void *task_parent;
    int result;
    bool done;
};

struct ForkThreads {
    SyncStorage mutex;
    SyncStorage wake;     ///< signalled when a request is posted, a semaphore changes, or at exit
    SyncStorage finished; ///< signalled when a request is done
    /// Counts the wake-ups of semaphore waiters: one that saw it unchanged under the lock has
    /// missed no release.
    uint64_t generation;
    int count;                            ///< threads started
    int idle;                             ///< of which waiting for a request
    ForkRequest *posted[kMaxForkThreads]; ///< requests no thread has taken yet
    int num_posted;
    bool shutting_down;
    loom_pthread_t threads[kMaxForkThreads];
};

ForkThreads fork_threads; // zero-initialized: valid unlocked mutex, idle condition variables
halide_do_loop_task_t current_do_loop_task = halide_default_do_loop_task;
halide_do_parallel_tasks_t current_do_parallel_tasks = halide_default_do_parallel_tasks;
halide_semaphore_init_t current_semaphore_init = halide_default_semaphore_init;
halide_semaphore_try_acquire_t current_semaphore_try_acquire = halide_default_semaphore_try_acquire;
halide_semaphore_release_t current_semaphore_release = halide_default_semaphore_release;

/// Joins the fork threads (halide_shutdown_thread_pool).
void shutdown_fork_threads() {
    ForkThreads &ft = fork_threads;
    pthread_mutex_lock(&ft.mutex);
    ft.shutting_down = true;
    pthread_cond_broadcast(&ft.wake);
    int n = ft.count;
    pthread_mutex_unlock(&ft.mutex);
    for (int i = 0; i < n; i++) pthread_join(ft.threads[i], nullptr);
    pthread_mutex_lock(&ft.mutex);
    ft.count = ft.idle = 0;
    ft.shutting_down = false;
    pthread_mutex_unlock(&ft.mutex);
}

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

ForkThreads &ft = fork_threads;

int64_t *count_of(halide_semaphore_t *s) { return (int64_t *)&s->_private[0]; }
uint64_t *failed_flag(halide_semaphore_t *s) { return &s->_private[1]; }

/// Wakes every thread waiting on a semaphore to re-check it.
void wake_waiters() {
    pthread_mutex_lock(&ft.mutex);
    ft.generation++;
    pthread_cond_broadcast(&ft.wake);
    pthread_mutex_unlock(&ft.mutex);
}

uint64_t current_generation() {
    pthread_mutex_lock(&ft.mutex);
    uint64_t g = ft.generation;
    pthread_mutex_unlock(&ft.mutex);
    return g;
}

/// Sleeps until a semaphore changes after generation `seen` was read.
void wait_for_change(uint64_t seen) {
    pthread_mutex_lock(&ft.mutex);
    while (ft.generation == seen) pthread_cond_wait(&ft.wake, &ft.mutex);
    pthread_mutex_unlock(&ft.mutex);
}

bool has_failed(halide_semaphore_t *s) { return __atomic_load_n(failed_flag(s), __ATOMIC_ACQUIRE); }

/// Acquires every semaphore of the task, or none (so two tasks cannot each hold part of what
/// the other needs). Blocks.
int acquire_all(halide_parallel_task_t *t) {
    while (true) {
        uint64_t seen = current_generation();
        int got = 0;
        while (got < t->num_semaphores &&
               halide_semaphore_try_acquire(t->semaphores[got].semaphore, t->semaphores[got].count))
            got++;
        if (got == t->num_semaphores) return 0;
        for (int i = 0; i < got; i++) {
            halide_semaphore_release(t->semaphores[i].semaphore, t->semaphores[i].count);
        }
        if (has_failed(t->semaphores[got].semaphore)) return halide_error_code_generic_error;
        wait_for_change(seen);
    }
}

int run_task(void *user_context, halide_parallel_task_t *t, void *task_parent) {
    if (t->num_semaphores == 0) {
        return halide_do_loop_task(user_context, t->fn, t->min, t->extent, t->closure, task_parent);
    }
    for (int i = t->min; i < t->min + t->extent; i++) {
        int result = acquire_all(t);
        if (result == 0) {
            result = halide_do_loop_task(user_context, t->fn, i, 1, t->closure, task_parent);
        }
        if (result != 0) return result;
    }
    return 0;
}

void *fork_thread_main(void *) {
    pthread_mutex_lock(&ft.mutex);
    while (!ft.shutting_down) {
        if (ft.num_posted == 0) {
            ft.idle++;
            pthread_cond_wait(&ft.wake, &ft.mutex);
            ft.idle--;
            continue;
        }
        ForkRequest *r = ft.posted[--ft.num_posted];
        pthread_mutex_unlock(&ft.mutex);
        int result = run_task(r->user_context, r->task, r->task_parent);
        pthread_mutex_lock(&ft.mutex);
        r->result = result;
        r->done = true;
        pthread_cond_broadcast(&ft.finished);
    }
    pthread_mutex_unlock(&ft.mutex);
    return nullptr;
}

/// What loom_do_fork passes as each side's closure.
struct ForkSide {
    halide_loop_task_t fn;
    uint8_t *closure;
    halide_semaphore_t **semaphores;
    int num_semaphores;
};

int fork_side(void *user_context, int min, int extent, uint8_t *closure, void *task_parent) {
    ForkSide *side = (ForkSide *)closure;
    int result = side->fn(user_context, min, extent, side->closure, task_parent);
    if (result != 0) {
        for (int i = 0; i < side->num_semaphores; i++) {
            __atomic_store_n(failed_flag(side->semaphores[i]), 1, __ATOMIC_RELEASE);
        }
        wake_waiters();
    }
    return result;
}

} // namespace

extern "C" {

int halide_default_semaphore_init(halide_semaphore_t *s, int n) {
    __atomic_store_n(count_of(s), (int64_t)n, __ATOMIC_RELEASE);
    __atomic_store_n(failed_flag(s), 0, __ATOMIC_RELEASE);
    return 0;
}

int halide_default_semaphore_release(halide_semaphore_t *s, int n) {
    int64_t now = __atomic_add_fetch(count_of(s), (int64_t)n, __ATOMIC_ACQ_REL);
    if (n > 0) wake_waiters();
    return (int)now;
}

bool halide_default_semaphore_try_acquire(halide_semaphore_t *s, int n) {
    int64_t have = __atomic_load_n(count_of(s), __ATOMIC_ACQUIRE);
    while (have >= n) {
        if (__atomic_compare_exchange_n(count_of(s), &have, have - n, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            return true;
        }
    }
    return false;
}

int halide_semaphore_init(halide_semaphore_t *s, int n) {
    return __atomic_load_n(&current_semaphore_init, __ATOMIC_ACQUIRE)(s, n);
}

int halide_semaphore_release(halide_semaphore_t *s, int n) {
    return __atomic_load_n(&current_semaphore_release, __ATOMIC_ACQUIRE)(s, n);
}

bool halide_semaphore_try_acquire(halide_semaphore_t *s, int n) {
    return __atomic_load_n(&current_semaphore_try_acquire, __ATOMIC_ACQUIRE)(s, n);
}

int loom_semaphore_acquire(halide_semaphore_t *s, int n) {
    while (true) {
        uint64_t seen = current_generation();
        if (halide_semaphore_try_acquire(s, n)) return 0;
        if (has_failed(s)) return halide_error_code_generic_error;
        wait_for_change(seen);
    }
}

int halide_default_do_loop_task(void *user_context, halide_loop_task_t f, int min, int extent,
                                uint8_t *closure, void *task_parent) {
    return f(user_context, min, extent, closure, task_parent);
}

int halide_do_loop_task(void *user_context, halide_loop_task_t f, int min, int extent,
                        uint8_t *closure, void *task_parent) {
    halide_do_loop_task_t h = __atomic_load_n(&current_do_loop_task, __ATOMIC_ACQUIRE);
    return h(user_context, f, min, extent, closure, task_parent);
}

int halide_default_do_parallel_tasks(void *user_context, int num_tasks,
                                     halide_parallel_task_t *tasks, void *task_parent) {
    if (num_tasks <= 0) return 0;
    const int others = num_tasks - 1;
    if (others > kMaxForkThreads) {
        halide_error(user_context, "halide_do_parallel_tasks: more than 256 concurrent tasks\n");
        return halide_error_code_generic_error;
    }
    // One fork (the common call) needs one request; more go on the heap.
    ForkRequest local[4];
    ForkRequest *requests = local;
    if (others > 4) {
        requests = (ForkRequest *)malloc(sizeof(ForkRequest) * others);
        if (!requests) return halide_error_code_out_of_memory;
    }
    pthread_mutex_lock(&ft.mutex);
    // Enough threads for every task posted and not yet taken, this call's included.
    int wanted = ft.num_posted + others - ft.idle;
    while (wanted > 0 && ft.count < kMaxForkThreads) {
        if (pthread_create(&ft.threads[ft.count], nullptr, fork_thread_main, nullptr) != 0) break;
        ft.count++;
        wanted--;
    }
    if (wanted > 0) {
        pthread_mutex_unlock(&ft.mutex);
        if (requests != local) free(requests);
        halide_error(user_context, "halide_do_parallel_tasks: could not start a thread for an "
                                   "async task (256 at most)\n");
        return halide_error_code_generic_error;
    }
    for (int i = 0; i < others; i++) {
        requests[i] = {user_context, &tasks[i + 1], task_parent, 0, false};
        ft.posted[ft.num_posted++] = &requests[i];
    }
    pthread_cond_broadcast(&ft.wake);
    pthread_mutex_unlock(&ft.mutex);

    int first_error = run_task(user_context, &tasks[0], task_parent);
    pthread_mutex_lock(&ft.mutex);
    for (int i = 0; i < others; i++) {
        while (!requests[i].done) pthread_cond_wait(&ft.finished, &ft.mutex);
        if (first_error == 0) first_error = requests[i].result;
    }
    pthread_mutex_unlock(&ft.mutex);
    if (requests != local) free(requests);
    return first_error;
}

int halide_do_parallel_tasks(void *user_context, int num_tasks, halide_parallel_task_t *tasks,
                             void *task_parent) {
    halide_do_parallel_tasks_t h = __atomic_load_n(&current_do_parallel_tasks, __ATOMIC_ACQUIRE);
    return h(user_context, num_tasks, tasks, task_parent);
}

int loom_do_fork(void *user_context, halide_loop_task_t producer, uint8_t *producer_closure,
                 halide_loop_task_t consumer, uint8_t *consumer_closure,
                 halide_semaphore_t **semaphores, int num_semaphores) {
    ForkSide sides[2] = {{producer, producer_closure, semaphores, num_semaphores},
                         {consumer, consumer_closure, semaphores, num_semaphores}};
    halide_parallel_task_t tasks[2];
    const char *names[2] = {"async producer", "consumer"};
    for (int i = 0; i < 2; i++) {
        tasks[i] = {fork_side, (uint8_t *)&sides[i], names[i], nullptr, 0, 0, 1, 1, false};
    }
    return halide_do_parallel_tasks(user_context, 2, tasks, nullptr);
}

halide_do_loop_task_t halide_set_custom_do_loop_task(halide_do_loop_task_t f) {
    if (!f) f = halide_default_do_loop_task;
    return __atomic_exchange_n(&current_do_loop_task, f, __ATOMIC_ACQ_REL);
}

void halide_set_custom_parallel_runtime(halide_do_par_for_t do_par_for, halide_do_task_t do_task,
                                        halide_do_loop_task_t do_loop_task,
                                        halide_do_parallel_tasks_t do_parallel_tasks,
                                        halide_semaphore_init_t semaphore_init,
                                        halide_semaphore_try_acquire_t semaphore_try_acquire,
                                        halide_semaphore_release_t semaphore_release) {
    halide_set_custom_do_par_for(do_par_for);
    halide_set_custom_do_task(do_task);
    halide_set_custom_do_loop_task(do_loop_task);
    __atomic_store_n(&current_do_parallel_tasks,
                     do_parallel_tasks ? do_parallel_tasks : halide_default_do_parallel_tasks,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&current_semaphore_init,
                     semaphore_init ? semaphore_init : halide_default_semaphore_init,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&current_semaphore_try_acquire,
                     semaphore_try_acquire ? semaphore_try_acquire
                                           : halide_default_semaphore_try_acquire,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&current_semaphore_release,
                     semaphore_release ? semaphore_release : halide_default_semaphore_release,
                     __ATOMIC_RELEASE);
}

} // extern "C"
