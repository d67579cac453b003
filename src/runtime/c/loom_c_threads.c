// The runtime of the C back end, in plain C99: the thread pool for parallel loops, the parallel
// tasks under Func::async and their semaphores. Pasted into every generated .c file after
// loom_c_runtime.c (see there why, and why the entry points are weak and the state static); each
// function ports the function of the same name in src/runtime/thread_pool.cpp or
// parallel_tasks.cpp, with the same behaviour, messages and return codes.
//
// Threads are POSIX threads. Defining LOOM_C_NO_THREADS (targets without threads) leaves out all
// pthread code: parallel loops and parallel tasks run serially on the calling thread, and a task
// that would have to wait for another task to run at the same time is an error (see
// halide_default_do_parallel_tasks below).
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_H
#include <loom/runtime/loom_runtime.h>
#endif

#include <stdlib.h>
#ifndef LOOM_C_NO_THREADS
#include <pthread.h>
#include <unistd.h>
#endif

#ifndef LOOM_C_RUNTIME_COMMON
#include "loom_c_common.h"
#endif

#define LOOM_C_MAX_THREADS 256

static halide_do_par_for_t loom_c_do_par_for = halide_default_do_par_for;
static halide_do_task_t loom_c_do_task = halide_default_do_task;
static halide_do_loop_task_t loom_c_do_loop_task = halide_default_do_loop_task;
static halide_do_parallel_tasks_t loom_c_do_parallel_tasks = halide_default_do_parallel_tasks;
static halide_semaphore_init_t loom_c_semaphore_init = halide_default_semaphore_init;
static halide_semaphore_try_acquire_t loom_c_semaphore_try_acquire =
    halide_default_semaphore_try_acquire;
static halide_semaphore_release_t loom_c_semaphore_release = halide_default_semaphore_release;

// 0 until first use, then the number of threads parallel loops use (the caller included).
static int loom_c_desired_threads;

static int loom_c_parse_positive(const char *s) {
    int v = 0;
    if (!s) return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > LOOM_C_MAX_THREADS) return LOOM_C_MAX_THREADS;
    }
    return *s == 0 ? v : 0;
}

// LOOM_NUM_THREADS, else HL_NUM_THREADS, else the number of online CPUs (1 without threads).
static int loom_c_default_thread_count(void) {
    int n = loom_c_parse_positive(getenv("LOOM_NUM_THREADS"));
    if (n <= 0) n = loom_c_parse_positive(getenv("HL_NUM_THREADS"));
    if (n <= 0) {
        long cpus = 1;
#if !defined(LOOM_C_NO_THREADS) && defined(_SC_NPROCESSORS_ONLN)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        n = cpus > 0 ? (int)cpus : 1;
    }
    return n > LOOM_C_MAX_THREADS ? LOOM_C_MAX_THREADS : n;
}

// ---- The thread pool (thread_pool.cpp) ----
//
// A parallel loop is a job: a task function, its closure and a range of iterations. The caller
// pushes its job on a list, wakes the workers and takes iterations itself until none are left,
// then waits for the iterations other threads are still running. Workers take iterations from
// the most recently pushed job that has some left, so a nested parallel loop is finished before
// its parent's remaining iterations start, and every waiting thread's job has a thread working
// on it: nesting cannot deadlock. The first failing task's result is the loop's; iterations not
// yet started are then skipped.
#ifndef LOOM_C_NO_THREADS

typedef struct loom_c_job {
    halide_task_t task;
    void *user_context;
    uint8_t *closure;
    int next, end;            // iterations [next, end) are not started yet
    int active;               // iterations running now
    int error;                // the first nonzero task result
    struct loom_c_job *below; // the job pushed before this one
} loom_c_job;

static pthread_mutex_t loom_c_pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t loom_c_work_available = PTHREAD_COND_INITIALIZER; // a push, or shutdown
static pthread_cond_t loom_c_job_finished = PTHREAD_COND_INITIALIZER;   // a job's last iteration
static loom_c_job *loom_c_jobs; // the most recently pushed job
static int loom_c_workers;      // worker threads started (the caller is one more thread)
static int loom_c_pool_shutting_down;
static pthread_t loom_c_worker_threads[LOOM_C_MAX_THREADS];

// Runs one iteration of j with the pool unlocked; called and returns with it locked.
static void loom_c_run_one(loom_c_job *j) {
    int i = j->next++, result;
    j->active++;
    pthread_mutex_unlock(&loom_c_pool_mutex);
    result = halide_do_task(j->user_context, j->task, i, j->closure);
    pthread_mutex_lock(&loom_c_pool_mutex);
    j->active--;
    if (result != 0 && j->error == 0) {
        j->error = result;
        j->next = j->end; // skip what has not started
    }
    if (j->next >= j->end && j->active == 0) pthread_cond_broadcast(&loom_c_job_finished);
}

static loom_c_job *loom_c_job_with_work(void) {
    loom_c_job *j;
    for (j = loom_c_jobs; j; j = j->below) {
        if (j->next < j->end) return j;
    }
    return NULL;
}

static void *loom_c_worker_main(void *arg) {
    const int index = (int)(intptr_t)arg;
    pthread_mutex_lock(&loom_c_pool_mutex);
    while (!loom_c_pool_shutting_down) {
        // Workers beyond the current thread count (halide_set_num_threads lowered it) idle.
        loom_c_job *j = index < loom_c_desired_threads - 1 ? loom_c_job_with_work() : NULL;
        if (j) {
            loom_c_run_one(j);
        } else {
            pthread_cond_wait(&loom_c_work_available, &loom_c_pool_mutex);
        }
    }
    pthread_mutex_unlock(&loom_c_pool_mutex);
    return NULL;
}

// Starts workers until there are desired_threads - 1 of them (pool locked).
static void loom_c_start_workers(void) {
    if (loom_c_desired_threads == 0) loom_c_desired_threads = loom_c_default_thread_count();
    while (loom_c_workers < loom_c_desired_threads - 1) {
        void *index = (void *)(intptr_t)loom_c_workers;
        if (pthread_create(&loom_c_worker_threads[loom_c_workers], NULL, loom_c_worker_main,
                           index) != 0) {
            break;
        }
        loom_c_workers++;
    }
}

static void loom_c_shutdown_fork_threads(void);

#endif // !LOOM_C_NO_THREADS

LOOM_C_RUNTIME_WEAK int halide_default_do_task(void *user_context, halide_task_t f, int idx,
                                               uint8_t *closure) {
    return f(user_context, idx, closure);
}

LOOM_C_RUNTIME_WEAK int halide_default_do_par_for(void *user_context, halide_task_t f, int min,
                                                  int size, uint8_t *closure) {
    int i;
#ifndef LOOM_C_NO_THREADS
    loom_c_job job, **link;
    if (size <= 0) return 0;
    pthread_mutex_lock(&loom_c_pool_mutex);
    loom_c_start_workers();
    if (loom_c_desired_threads > 1 && loom_c_workers > 0 && size > 1) {
        job.task = f;
        job.user_context = user_context;
        job.closure = closure;
        job.next = min;
        job.end = min + size;
        job.active = 0;
        job.error = 0;
        job.below = loom_c_jobs;
        loom_c_jobs = &job;
        pthread_cond_broadcast(&loom_c_work_available);
        while (job.next < job.end) loom_c_run_one(&job);
        while (job.active > 0) pthread_cond_wait(&loom_c_job_finished, &loom_c_pool_mutex);
        // Unlink (nested jobs pushed above this one have all finished and been unlinked).
        link = &loom_c_jobs;
        while (*link != &job) link = &(*link)->below;
        *link = job.below;
        pthread_mutex_unlock(&loom_c_pool_mutex);
        return job.error;
    }
    // One thread (or one iteration): no hand-off.
    pthread_mutex_unlock(&loom_c_pool_mutex);
#endif
    for (i = min; i < min + size; i++) {
        int result = halide_do_task(user_context, f, i, closure);
        if (result != 0) return result;
    }
    return 0;
}

LOOM_C_RUNTIME_WEAK int halide_do_task(void *user_context, halide_task_t f, int idx,
                                       uint8_t *closure) {
    halide_do_task_t h;
    LOOM_C_HOOK_GET(h, loom_c_do_task);
    return h(user_context, f, idx, closure);
}

LOOM_C_RUNTIME_WEAK int halide_do_par_for(void *user_context, halide_task_t f, int min, int size,
                                          uint8_t *closure) {
    halide_do_par_for_t h;
    LOOM_C_HOOK_GET(h, loom_c_do_par_for);
    return h(user_context, f, min, size, closure);
}

LOOM_C_RUNTIME_WEAK halide_do_task_t halide_set_custom_do_task(halide_do_task_t f) {
    halide_do_task_t old;
    if (!f) f = halide_default_do_task;
    LOOM_C_HOOK_SWAP(old, loom_c_do_task, f);
    return old;
}

LOOM_C_RUNTIME_WEAK halide_do_par_for_t halide_set_custom_do_par_for(halide_do_par_for_t f) {
    halide_do_par_for_t old;
    if (!f) f = halide_default_do_par_for;
    LOOM_C_HOOK_SWAP(old, loom_c_do_par_for, f);
    return old;
}

LOOM_C_RUNTIME_WEAK int halide_set_num_threads(int n) {
    int old;
#ifndef LOOM_C_NO_THREADS
    pthread_mutex_lock(&loom_c_pool_mutex);
#endif
    if (loom_c_desired_threads == 0) loom_c_desired_threads = loom_c_default_thread_count();
    old = loom_c_desired_threads;
    if (n <= 0) n = loom_c_default_thread_count();
    // Workers beyond the new count stay idle; more are started by the next parallel loop.
    loom_c_desired_threads = n > LOOM_C_MAX_THREADS ? LOOM_C_MAX_THREADS : n;
#ifndef LOOM_C_NO_THREADS
    pthread_cond_broadcast(&loom_c_work_available);
    pthread_mutex_unlock(&loom_c_pool_mutex);
#endif
    return old;
}

LOOM_C_RUNTIME_WEAK void halide_shutdown_thread_pool(void) {
#ifndef LOOM_C_NO_THREADS
    int i, n;
    pthread_mutex_lock(&loom_c_pool_mutex);
    loom_c_pool_shutting_down = 1;
    pthread_cond_broadcast(&loom_c_work_available);
    n = loom_c_workers;
    pthread_mutex_unlock(&loom_c_pool_mutex);
    for (i = 0; i < n; i++) pthread_join(loom_c_worker_threads[i], NULL);
    pthread_mutex_lock(&loom_c_pool_mutex);
    loom_c_workers = 0;
    loom_c_pool_shutting_down = 0;
    pthread_mutex_unlock(&loom_c_pool_mutex);
    loom_c_shutdown_fork_threads();
#endif
}

// ---- Semaphores and parallel tasks (parallel_tasks.cpp) ----
//
// An async producer and its consumers run as two tasks of one fork (loom_do_fork) that wait on
// each other through semaphores: the consumer until the producer has computed what it reads,
// the producer (with folded storage) until the consumer is done with what it would overwrite.
// Both must therefore run at the same time, whatever the thread count: the tasks of
// halide_do_parallel_tasks run on threads of their own (the caller runs the first; each other
// task gets an idle fork thread, or a new one). A task that fails marks the fork's semaphores
// failed, so the other side stops waiting.
//
// A semaphore is two words: the count and a failed flag. Unlike the C++ runtime, which updates
// them with atomics, this one guards them with the fork threads' mutex (plain C99 has no
// atomics); waiting threads sleep on one condition variable shared by all semaphores, and every
// release and failure wakes them to re-check.

static int64_t *loom_c_sem_count(struct halide_semaphore_t *s) {
    return (int64_t *)&s->_private[0];
}

#ifndef LOOM_C_NO_THREADS

// A task handed to a fork thread, and its result.
typedef struct loom_c_fork_request {
    void *user_context;
    struct halide_parallel_task_t *task;
    void *task_parent;
    int result;
    int done;
} loom_c_fork_request;

static pthread_mutex_t loom_c_fork_mutex = PTHREAD_MUTEX_INITIALIZER;
// Signalled when a request is posted, a semaphore changes, or at shutdown.
static pthread_cond_t loom_c_fork_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t loom_c_fork_finished = PTHREAD_COND_INITIALIZER; // a request is done
// Counts the semaphore changes: a waiter that saw it unchanged under the lock missed none.
static uint64_t loom_c_fork_generation;
static int loom_c_fork_count; // threads started
static int loom_c_fork_idle;  // of which waiting for a request
static loom_c_fork_request *loom_c_fork_posted[LOOM_C_MAX_THREADS]; // not taken by a thread yet
static int loom_c_fork_num_posted;
static int loom_c_fork_shutting_down;
static pthread_t loom_c_fork_threads[LOOM_C_MAX_THREADS];

#define LOOM_C_SEM_LOCK() pthread_mutex_lock(&loom_c_fork_mutex)
#define LOOM_C_SEM_UNLOCK() pthread_mutex_unlock(&loom_c_fork_mutex)

// Wakes every thread waiting on a semaphore to re-check it (fork mutex held).
static void loom_c_wake_waiters_locked(void) {
    loom_c_fork_generation++;
    pthread_cond_broadcast(&loom_c_fork_wake);
}

static uint64_t loom_c_current_generation(void) {
    uint64_t g;
    LOOM_C_SEM_LOCK();
    g = loom_c_fork_generation;
    LOOM_C_SEM_UNLOCK();
    return g;
}

// Sleeps until a semaphore changes after generation `seen` was read.
static void loom_c_wait_for_change(uint64_t seen) {
    LOOM_C_SEM_LOCK();
    while (loom_c_fork_generation == seen) pthread_cond_wait(&loom_c_fork_wake, &loom_c_fork_mutex);
    LOOM_C_SEM_UNLOCK();
}

// Joins the fork threads (halide_shutdown_thread_pool).
static void loom_c_shutdown_fork_threads(void) {
    int i, n;
    LOOM_C_SEM_LOCK();
    loom_c_fork_shutting_down = 1;
    pthread_cond_broadcast(&loom_c_fork_wake);
    n = loom_c_fork_count;
    LOOM_C_SEM_UNLOCK();
    for (i = 0; i < n; i++) pthread_join(loom_c_fork_threads[i], NULL);
    LOOM_C_SEM_LOCK();
    loom_c_fork_count = loom_c_fork_idle = 0;
    loom_c_fork_shutting_down = 0;
    LOOM_C_SEM_UNLOCK();
}

#else

#define LOOM_C_SEM_LOCK() ((void)0)
#define LOOM_C_SEM_UNLOCK() ((void)0)
#define loom_c_wake_waiters_locked() ((void)0)

// Without threads nobody else can release a semaphore while this thread waits: waiting would
// last forever, so it is an error.
static int loom_c_cannot_wait(void *user_context) {
    halide_error(user_context, "An async task must wait for a semaphore that only a task running "
                               "at the same time can release, but this runtime was compiled "
                               "without threads (LOOM_C_NO_THREADS)\n");
    return halide_error_code_generic_error;
}

#endif // LOOM_C_NO_THREADS

static int loom_c_has_failed(struct halide_semaphore_t *s) {
    int failed;
    LOOM_C_SEM_LOCK();
    failed = s->_private[1] != 0;
    LOOM_C_SEM_UNLOCK();
    return failed;
}

// Acquires every semaphore of the task, or none (so two tasks cannot each hold part of what the
// other needs). Blocks.
static int loom_c_acquire_all(void *user_context, struct halide_parallel_task_t *t) {
    (void)user_context; // only for the error without threads
    for (;;) {
        int got = 0, i;
#ifndef LOOM_C_NO_THREADS
        uint64_t seen = loom_c_current_generation();
#endif
        while (got < t->num_semaphores &&
               halide_semaphore_try_acquire(t->semaphores[got].semaphore, t->semaphores[got].count))
            got++;
        if (got == t->num_semaphores) return 0;
        for (i = 0; i < got; i++) {
            halide_semaphore_release(t->semaphores[i].semaphore, t->semaphores[i].count);
        }
        if (loom_c_has_failed(t->semaphores[got].semaphore)) {
            return halide_error_code_generic_error;
        }
#ifndef LOOM_C_NO_THREADS
        loom_c_wait_for_change(seen);
#else
        return loom_c_cannot_wait(user_context);
#endif
    }
}

static int loom_c_run_task(void *user_context, struct halide_parallel_task_t *t,
                           void *task_parent) {
    int i;
    if (t->num_semaphores == 0) {
        return halide_do_loop_task(user_context, t->fn, t->min, t->extent, t->closure, task_parent);
    }
    for (i = t->min; i < t->min + t->extent; i++) {
        int result = loom_c_acquire_all(user_context, t);
        if (result == 0) {
            result = halide_do_loop_task(user_context, t->fn, i, 1, t->closure, task_parent);
        }
        if (result != 0) return result;
    }
    return 0;
}

#ifndef LOOM_C_NO_THREADS
static void *loom_c_fork_thread_main(void *arg) {
    (void)arg;
    LOOM_C_SEM_LOCK();
    while (!loom_c_fork_shutting_down) {
        loom_c_fork_request *r;
        int result;
        if (loom_c_fork_num_posted == 0) {
            loom_c_fork_idle++;
            pthread_cond_wait(&loom_c_fork_wake, &loom_c_fork_mutex);
            loom_c_fork_idle--;
            continue;
        }
        r = loom_c_fork_posted[--loom_c_fork_num_posted];
        LOOM_C_SEM_UNLOCK();
        result = loom_c_run_task(r->user_context, r->task, r->task_parent);
        LOOM_C_SEM_LOCK();
        r->result = result;
        r->done = 1;
        pthread_cond_broadcast(&loom_c_fork_finished);
    }
    LOOM_C_SEM_UNLOCK();
    return NULL;
}
#endif

// What loom_do_fork passes as each side's closure.
typedef struct loom_c_fork_side {
    halide_loop_task_t fn;
    uint8_t *closure;
    struct halide_semaphore_t **semaphores;
    int num_semaphores;
} loom_c_fork_side;

static int loom_c_run_fork_side(void *user_context, int min, int extent, uint8_t *closure,
                                void *task_parent) {
    loom_c_fork_side *side = (loom_c_fork_side *)closure;
    int result = side->fn(user_context, min, extent, side->closure, task_parent), i;
    if (result != 0) {
        LOOM_C_SEM_LOCK();
        for (i = 0; i < side->num_semaphores; i++) side->semaphores[i]->_private[1] = 1;
        loom_c_wake_waiters_locked();
        LOOM_C_SEM_UNLOCK();
    }
    return result;
}

LOOM_C_RUNTIME_WEAK int halide_default_semaphore_init(struct halide_semaphore_t *s, int n) {
    LOOM_C_SEM_LOCK();
    *loom_c_sem_count(s) = n;
    s->_private[1] = 0;
    LOOM_C_SEM_UNLOCK();
    return 0;
}

LOOM_C_RUNTIME_WEAK int halide_default_semaphore_release(struct halide_semaphore_t *s, int n) {
    int64_t now;
    LOOM_C_SEM_LOCK();
    now = *loom_c_sem_count(s) += n;
    if (n > 0) loom_c_wake_waiters_locked();
    LOOM_C_SEM_UNLOCK();
    return (int)now;
}

LOOM_C_RUNTIME_WEAK bool halide_default_semaphore_try_acquire(struct halide_semaphore_t *s, int n) {
    bool ok;
    LOOM_C_SEM_LOCK();
    ok = *loom_c_sem_count(s) >= n;
    if (ok) *loom_c_sem_count(s) -= n;
    LOOM_C_SEM_UNLOCK();
    return ok;
}

LOOM_C_RUNTIME_WEAK int halide_semaphore_init(struct halide_semaphore_t *s, int n) {
    halide_semaphore_init_t h;
    LOOM_C_HOOK_GET(h, loom_c_semaphore_init);
    return h(s, n);
}

LOOM_C_RUNTIME_WEAK int halide_semaphore_release(struct halide_semaphore_t *s, int n) {
    halide_semaphore_release_t h;
    LOOM_C_HOOK_GET(h, loom_c_semaphore_release);
    return h(s, n);
}

LOOM_C_RUNTIME_WEAK bool halide_semaphore_try_acquire(struct halide_semaphore_t *s, int n) {
    halide_semaphore_try_acquire_t h;
    LOOM_C_HOOK_GET(h, loom_c_semaphore_try_acquire);
    return h(s, n);
}

LOOM_C_RUNTIME_WEAK int loom_semaphore_acquire(struct halide_semaphore_t *s, int n) {
    for (;;) {
#ifndef LOOM_C_NO_THREADS
        uint64_t seen = loom_c_current_generation();
#endif
        if (halide_semaphore_try_acquire(s, n)) return 0;
        if (loom_c_has_failed(s)) return halide_error_code_generic_error;
#ifndef LOOM_C_NO_THREADS
        loom_c_wait_for_change(seen);
#else
        return loom_c_cannot_wait(NULL);
#endif
    }
}

LOOM_C_RUNTIME_WEAK int halide_default_do_loop_task(void *user_context, halide_loop_task_t f,
                                                    int min, int extent, uint8_t *closure,
                                                    void *task_parent) {
    return f(user_context, min, extent, closure, task_parent);
}

LOOM_C_RUNTIME_WEAK int halide_do_loop_task(void *user_context, halide_loop_task_t f, int min,
                                            int extent, uint8_t *closure, void *task_parent) {
    halide_do_loop_task_t h;
    LOOM_C_HOOK_GET(h, loom_c_do_loop_task);
    return h(user_context, f, min, extent, closure, task_parent);
}

LOOM_C_RUNTIME_WEAK int halide_default_do_parallel_tasks(void *user_context, int num_tasks,
                                                         struct halide_parallel_task_t *tasks,
                                                         void *task_parent) {
#ifdef LOOM_C_NO_THREADS
    // Serially, in order: correct as long as no task waits for a later one (the producer of a
    // fork comes first, so a consumer finds what it waits for released), and any task that
    // would wait forever reports it (loom_c_cannot_wait) instead. Stops at the first failure,
    // which is the result; with threads the others would run on, to no use.
    int i;
    for (i = 0; i < num_tasks; i++) {
        int result = loom_c_run_task(user_context, &tasks[i], task_parent);
        if (result != 0) return result;
    }
    return 0;
#else
    const int others = num_tasks - 1;
    int wanted, first_error, i;
    // One fork (the common call) needs one request; more go on the heap.
    loom_c_fork_request local[4];
    loom_c_fork_request *requests = local;
    if (num_tasks <= 0) return 0;
    if (others > LOOM_C_MAX_THREADS) {
        halide_error(user_context, "halide_do_parallel_tasks: more than 256 concurrent tasks\n");
        return halide_error_code_generic_error;
    }
    if (others > 4) {
        requests = (loom_c_fork_request *)malloc(sizeof(loom_c_fork_request) * (size_t)others);
        if (!requests) return halide_error_code_out_of_memory;
    }
    LOOM_C_SEM_LOCK();
    // Enough threads for every task posted and not yet taken, this call's included.
    wanted = loom_c_fork_num_posted + others - loom_c_fork_idle;
    while (wanted > 0 && loom_c_fork_count < LOOM_C_MAX_THREADS) {
        if (pthread_create(&loom_c_fork_threads[loom_c_fork_count], NULL, loom_c_fork_thread_main,
                           NULL) != 0) {
            break;
        }
        loom_c_fork_count++;
        wanted--;
    }
    if (wanted > 0) {
        LOOM_C_SEM_UNLOCK();
        if (requests != local) free(requests);
        halide_error(user_context, "halide_do_parallel_tasks: could not start a thread for an "
                                   "async task (256 at most)\n");
        return halide_error_code_generic_error;
    }
    for (i = 0; i < others; i++) {
        requests[i].user_context = user_context;
        requests[i].task = &tasks[i + 1];
        requests[i].task_parent = task_parent;
        requests[i].result = 0;
        requests[i].done = 0;
        loom_c_fork_posted[loom_c_fork_num_posted++] = &requests[i];
    }
    pthread_cond_broadcast(&loom_c_fork_wake);
    LOOM_C_SEM_UNLOCK();

    first_error = loom_c_run_task(user_context, &tasks[0], task_parent);
    LOOM_C_SEM_LOCK();
    for (i = 0; i < others; i++) {
        while (!requests[i].done) pthread_cond_wait(&loom_c_fork_finished, &loom_c_fork_mutex);
        if (first_error == 0) first_error = requests[i].result;
    }
    LOOM_C_SEM_UNLOCK();
    if (requests != local) free(requests);
    return first_error;
#endif
}

LOOM_C_RUNTIME_WEAK int halide_do_parallel_tasks(void *user_context, int num_tasks,
                                                 struct halide_parallel_task_t *tasks,
                                                 void *task_parent) {
    halide_do_parallel_tasks_t h;
    LOOM_C_HOOK_GET(h, loom_c_do_parallel_tasks);
    return h(user_context, num_tasks, tasks, task_parent);
}

LOOM_C_RUNTIME_WEAK int loom_do_fork(void *user_context, halide_loop_task_t producer,
                                     uint8_t *producer_closure, halide_loop_task_t consumer,
                                     uint8_t *consumer_closure,
                                     struct halide_semaphore_t **semaphores, int num_semaphores) {
    static const char *const names[2] = {"async producer", "consumer"};
    loom_c_fork_side sides[2];
    struct halide_parallel_task_t tasks[2];
    int i;
    sides[0].fn = producer;
    sides[0].closure = producer_closure;
    sides[1].fn = consumer;
    sides[1].closure = consumer_closure;
    for (i = 0; i < 2; i++) {
        sides[i].semaphores = semaphores;
        sides[i].num_semaphores = num_semaphores;
        tasks[i].fn = loom_c_run_fork_side;
        tasks[i].closure = (uint8_t *)&sides[i];
        tasks[i].name = names[i];
        tasks[i].semaphores = NULL;
        tasks[i].num_semaphores = 0;
        tasks[i].min = 0;
        tasks[i].extent = 1;
        tasks[i].min_threads = 1;
        tasks[i].serial = false;
    }
    return halide_do_parallel_tasks(user_context, 2, tasks, NULL);
}

LOOM_C_RUNTIME_WEAK halide_do_loop_task_t halide_set_custom_do_loop_task(halide_do_loop_task_t f) {
    halide_do_loop_task_t old;
    if (!f) f = halide_default_do_loop_task;
    LOOM_C_HOOK_SWAP(old, loom_c_do_loop_task, f);
    return old;
}

LOOM_C_RUNTIME_WEAK void halide_set_custom_parallel_runtime(
    halide_do_par_for_t do_par_for, halide_do_task_t do_task, halide_do_loop_task_t do_loop_task,
    halide_do_parallel_tasks_t do_parallel_tasks, halide_semaphore_init_t semaphore_init,
    halide_semaphore_try_acquire_t semaphore_try_acquire,
    halide_semaphore_release_t semaphore_release) {
    halide_set_custom_do_par_for(do_par_for);
    halide_set_custom_do_task(do_task);
    halide_set_custom_do_loop_task(do_loop_task);
    if (!do_parallel_tasks) do_parallel_tasks = halide_default_do_parallel_tasks;
    if (!semaphore_init) semaphore_init = halide_default_semaphore_init;
    if (!semaphore_try_acquire) semaphore_try_acquire = halide_default_semaphore_try_acquire;
    if (!semaphore_release) semaphore_release = halide_default_semaphore_release;
    LOOM_C_HOOK_SET(loom_c_do_parallel_tasks, do_parallel_tasks);
    LOOM_C_HOOK_SET(loom_c_semaphore_init, semaphore_init);
    LOOM_C_HOOK_SET(loom_c_semaphore_try_acquire, semaphore_try_acquire);
    LOOM_C_HOOK_SET(loom_c_semaphore_release, semaphore_release);
}
