// The profiler of Target::Profile / ProfileByTimer (the calls are placed by
// src/lower/inject_profiling.cpp): the running instances, the sampler that bills time to the
// Func each instance is computing, the per-pipeline statistics and Halide's text report:
//   blur
//    total time: 12.345678 ms  samples: 11  runs: 1  time per run: 12.345678 ms
//    average threads used: 1.900000
//    heap allocations: 1  peak heap usage: 2000000 bytes
//       blur_x:                                    8.002ms (64.8%)   threads: 1.900  peak: ...
// The sampler is a thread that wakes every sleep_time microseconds while instances run
// (Profile), or a SIGPROF interval timer whose handler samples (ProfileByTimer). Time between
// samples goes to the Func each instance had set; when an instance ends its billed times are
// scaled to its wall-clock time, so the Funcs' times add up to the run's.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

#include <stdint.h>

extern "C" {
struct loom_timespec {
    long tv_sec, tv_nsec;
};
struct loom_itimerval {
    long interval_sec, interval_usec, value_sec, value_usec;
};
typedef void (*loom_sighandler_t)(int);
int clock_gettime(int clock, loom_timespec *ts);
int nanosleep(const loom_timespec *request, loom_timespec *remaining);
int sched_yield(void);
int atexit(void (*f)(void));
loom_sighandler_t signal(int sig, loom_sighandler_t handler);
int setitimer(int which, const loom_itimerval *value, loom_itimerval *old);
int strcmp(const char *a, const char *b);
}

// External linkage, as in error_handler.cpp: one profiler per program.
namespace loom_runtime {

halide_profiler_state profiler_state = {{{0}}, nullptr, nullptr, nullptr, nullptr, 1000, 0};

/// Parks the sampling thread while no instance runs: `running` counts the instances and is
/// read and written under park_mutex, so a start never misses the sleeping sampler.
SyncStorage park_mutex, park_wake;
int running_instances;
loom_pthread_t sampling_thread;
bool timer_running, exit_report_registered;

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

// Linux, x86-64 and AArch64 alike.
const int kClockMonotonic = 1;
const int kSigProf = 27;
const int kItimerProf = 2;

/// The id inject_profiling gives to time outside every Func (the first func stats entry).
const int kOverheadId = 0;

uint64_t now_ns() {
    loom_timespec ts;
    clock_gettime(kClockMonotonic, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sleep_us(int us) {
    loom_timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
    nanosleep(&ts, nullptr);
}

uintptr_t *lock_word(halide_profiler_state *s) { return &s->lock._private[0]; }

bool try_lock(halide_profiler_state *s) {
    uintptr_t unlocked = 0;
    return __atomic_compare_exchange_n(lock_word(s), &unlocked, 1, false, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}

void atomic_add(uint64_t *p, uint64_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }

void atomic_max(uint64_t *p, uint64_t v) {
    uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (old < v &&
           !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = (char *)malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/// The statistics of the pipeline `name` with these Funcs, made on first use (lock held).
/// Null when out of memory.
halide_profiler_pipeline_stats *find_or_add_pipeline(const char *name, int num_funcs,
                                                     const char *const *func_names) {
    halide_profiler_state *s = &profiler_state;
    halide_profiler_pipeline_stats **link = &s->pipelines;
    for (; *link; link = (halide_profiler_pipeline_stats **)&(*link)->next) {
        halide_profiler_pipeline_stats *p = *link;
        if (p->num_funcs != num_funcs || strcmp(p->name, name) != 0) continue;
        bool same = true;
        for (int i = 0; i < num_funcs && same; i++) same = !strcmp(p->funcs[i].name, func_names[i]);
        if (same) return p;
    }
    halide_profiler_pipeline_stats *p =
        (halide_profiler_pipeline_stats *)malloc(sizeof(halide_profiler_pipeline_stats));
    halide_profiler_func_stats *funcs = (halide_profiler_func_stats *)malloc(
        sizeof(halide_profiler_func_stats) * (num_funcs > 0 ? num_funcs : 1));
    if (!p || !funcs) {
        free(p);
        free(funcs);
        return nullptr;
    }
    *p = halide_profiler_pipeline_stats();
    p->name = copy_string(name);
    p->funcs = funcs;
    p->num_funcs = num_funcs;
    for (int i = 0; i < num_funcs; i++) {
        funcs[i] = halide_profiler_func_stats();
        funcs[i].name = copy_string(func_names[i]);
    }
    *link = p; // appended: reports list pipelines in the order they first ran
    return p;
}

void free_pipelines(halide_profiler_state *s) {
    halide_profiler_pipeline_stats *p = s->pipelines;
    while (p) {
        halide_profiler_pipeline_stats *next = (halide_profiler_pipeline_stats *)p->next;
        for (int i = 0; i < p->num_funcs; i++) free((void *)p->funcs[i].name);
        free(p->funcs);
        free((void *)p->name);
        free(p);
        p = next;
    }
    s->pipelines = nullptr;
}

/// Locks once no instance is running (they would otherwise merge into freed statistics).
void lock_when_idle(halide_profiler_state *s) {
    for (;;) {
        halide_profiler_lock(s);
        if (!s->instances) return;
        halide_profiler_unlock(s);
        sleep_us(100);
    }
}

void *sampler_main(void *) {
    halide_profiler_state *s = &profiler_state;
    for (;;) {
        pthread_mutex_lock(&park_mutex);
        while (running_instances == 0 && !s->shutdown) pthread_cond_wait(&park_wake, &park_mutex);
        pthread_mutex_unlock(&park_mutex);
        if (__atomic_load_n(&s->shutdown, __ATOMIC_ACQUIRE)) return nullptr;
        uint64_t prev = now_ns();
        for (;;) {
            halide_profiler_lock(s);
            bool idle = !s->instances;
            if (!idle) halide_profiler_sample(s, &prev);
            int us = s->sleep_time > 0 ? s->sleep_time : 1;
            halide_profiler_unlock(s);
            if (idle || __atomic_load_n(&s->shutdown, __ATOMIC_ACQUIRE)) break;
            sleep_us(us);
        }
    }
}

/// SIGPROF: one sample, unless the interrupted code holds the lock (then the next sample
/// bills the time since the last one).
uint64_t timer_prev;
void timer_handler(int) {
    halide_profiler_state *s = &profiler_state;
    if (!try_lock(s)) return;
    if (timer_prev == 0) timer_prev = now_ns();
    halide_profiler_sample(s, &timer_prev);
    halide_profiler_unlock(s);
}

/// Starts or stops the interval timer (lock held).
void set_timer(bool on) {
    if (on == timer_running) return;
    timer_running = on;
    int us = profiler_state.sleep_time > 0 ? profiler_state.sleep_time : 1;
    loom_itimerval t = {0, 0, 0, 0};
    if (on) {
        timer_prev = now_ns();
        signal(kSigProf, timer_handler);
        t = {us / 1000000, us % 1000000, us / 1000000, us % 1000000};
    }
    setitimer(kItimerProf, &t, nullptr);
}

void report_at_exit() {
    halide_profiler_report(nullptr);
    halide_profiler_shutdown();
}

// ---- The report ----

/// A growing text buffer; `line_start` is where the current line began, for column padding.
struct Text {
    char *data = nullptr;
    size_t size = 0, cap = 0, line_start = 0;

    void add(const char *s) {
        size_t n = strlen(s);
        if (size + n + 1 > cap) {
            size_t c = cap ? cap * 2 : 1024;
            while (c < size + n + 1) c *= 2;
            char *d = (char *)malloc(c);
            if (!d) return;
            if (data) memcpy(d, data, size);
            free(data);
            data = d;
            cap = c;
        }
        memcpy(data + size, s, n);
        size += n;
        data[size] = 0;
    }
    void newline() {
        add("\n");
        line_start = size;
    }
    void pad_to(size_t column) {
        while (data && size - line_start < column) add(" ");
    }
};

void add_u64(Text &t, uint64_t v) {
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    t.add(b);
}

void add_int(Text &t, long long v) {
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    t.add(b);
}

/// printf's "%f", then with the last `chop` digits dropped (Halide truncates this way);
/// `width` right-aligns.
void add_fixed(Text &t, double v, int chop, int width = 0) {
    char b[64];
    int n = snprintf(b, sizeof b, "%f", v);
    if (n > chop) b[n - chop] = 0;
    int len = (int)strlen(b);
    for (int i = len; i < width; i++) t.add(" ");
    t.add(b);
}

void report_pipeline(Text &t, const halide_profiler_pipeline_stats *p) {
    double total_ms = p->time / 1e6;
    // A pipeline whose samples all saw one thread ran serially: no thread columns then.
    bool serial = p->active_threads_numerator == p->active_threads_denominator;
    t.add(p->name);
    t.newline();
    t.add(" total time: ");
    add_fixed(t, total_ms, 0);
    t.add(" ms  samples: ");
    add_int(t, p->samples);
    t.add("  runs: ");
    add_int(t, p->runs);
    t.add("  time per run: ");
    add_fixed(t, total_ms / p->runs, 0);
    t.add(" ms");
    t.newline();
    if (!serial) {
        t.add(" average threads used: ");
        add_fixed(t,
                  (double)p->active_threads_numerator /
                      (p->active_threads_denominator ? p->active_threads_denominator : 1),
                  0);
        t.newline();
    }
    t.add(" heap allocations: ");
    add_int(t, p->num_allocs);
    t.add("  peak heap usage: ");
    add_u64(t, p->memory_peak);
    t.add(" bytes");
    t.newline();

    size_t name_width = 0;
    for (int i = 0; i < p->num_funcs; i++) {
        size_t n = strlen(p->funcs[i].name);
        if (n > name_width) name_width = n;
    }
    for (int i = 0; i < p->num_funcs; i++) {
        const halide_profiler_func_stats &f = p->funcs[i];
        // The overhead entry only when something was billed to it.
        if (i == kOverheadId && f.time == 0) continue;
        size_t column = name_width + 7;
        t.add("    ");
        t.add(f.name);
        t.add(": ");
        t.pad_to(column);
        add_fixed(t, f.time / 1e6 / p->runs, 3, 9);
        t.add("ms");
        column += 12;
        t.pad_to(column);
        uint64_t permille = p->time ? f.time * 1000 / p->time : 0;
        t.add(permille < 100 ? "( " : "(");
        add_u64(t, permille / 10);
        t.add(".");
        add_u64(t, permille % 10);
        t.add("%)");
        column += 10;
        t.pad_to(column);
        if (!serial) {
            t.add("threads: ");
            add_fixed(t,
                      (double)f.active_threads_numerator /
                          (f.active_threads_denominator ? f.active_threads_denominator : 1),
                      3);
            column += 15;
            t.pad_to(column);
        }
        if (f.memory_peak) {
            t.add(" peak: ");
            add_u64(t, f.memory_peak);
            column += 15;
            t.pad_to(column);
            t.add(" num: ");
            add_int(t, f.num_allocs);
            column += 15;
            t.pad_to(column);
            t.add(" avg: ");
            add_u64(t, f.num_allocs ? f.memory_total / f.num_allocs : 0);
        }
        t.newline();
    }
}

} // namespace

extern "C" {

halide_profiler_state *halide_profiler_get_state(void) { return &profiler_state; }

void halide_profiler_lock(halide_profiler_state *s) {
    while (!try_lock(s)) sched_yield();
}

void halide_profiler_unlock(halide_profiler_state *s) {
    __atomic_store_n(lock_word(s), 0, __ATOMIC_RELEASE);
}

halide_profiler_pipeline_stats *halide_profiler_get_pipeline_state(const char *pipeline_name) {
    halide_profiler_state *s = &profiler_state;
    halide_profiler_lock(s);
    halide_profiler_pipeline_stats *p = s->pipelines;
    while (p && strcmp(p->name, pipeline_name) != 0) p = (halide_profiler_pipeline_stats *)p->next;
    halide_profiler_unlock(s);
    return p;
}

int halide_profiler_sample(halide_profiler_state *s, uint64_t *prev_t) {
    uint64_t now = now_ns();
    uint64_t since = now > *prev_t ? now - *prev_t : 0;
    *prev_t = now;
    for (halide_profiler_instance_state *i = s->instances; i; i = i->next) {
        // An instance that started after the last sample is billed only its own time.
        uint64_t dt = now > i->start_time ? now - i->start_time : 0;
        if (since < dt) dt = since;
        int func = __atomic_load_n(&i->current_func, __ATOMIC_RELAXED);
        int threads = __atomic_load_n(&i->active_threads, __ATOMIC_RELAXED);
        if (func < 0 || func >= i->pipeline_stats->num_funcs) func = kOverheadId;
        halide_profiler_func_stats &f = i->funcs[func];
        f.time += dt;
        f.active_threads_numerator += threads;
        f.active_threads_denominator++;
        i->billed_time += dt;
        i->active_threads_numerator += threads;
        i->active_threads_denominator++;
        i->samples++;
    }
    return 0;
}

int halide_profiler_instance_start(void *user_context, const char *pipeline_name, int num_funcs,
                                   const char *const *func_names,
                                   halide_profiler_instance_state *instance, int by_timer) {
    halide_profiler_state *s = &profiler_state;
    halide_profiler_func_stats *funcs = (halide_profiler_func_stats *)(instance + 1);
    *instance = halide_profiler_instance_state();
    instance->funcs = funcs;
    instance->active_threads = 1;
    instance->should_collect_statistics = 1;
    for (int i = 0; i < num_funcs; i++) {
        funcs[i] = halide_profiler_func_stats();
        funcs[i].name = func_names[i];
    }
    halide_profiler_lock(s);
    if (!exit_report_registered) {
        exit_report_registered = true;
        atexit(report_at_exit);
    }
    instance->pipeline_stats = find_or_add_pipeline(pipeline_name, num_funcs, func_names);
    if (!instance->pipeline_stats) {
        halide_profiler_unlock(s);
        halide_error(user_context, "The profiler is out of memory\n");
        return halide_error_code_out_of_memory;
    }
    instance->start_time = now_ns();
    instance->next = s->instances;
    instance->prev_next = &s->instances;
    if (s->instances) s->instances->prev_next = &instance->next;
    s->instances = instance;
    bool start_thread = false;
    if (by_timer) {
        set_timer(true);
    } else if (!s->sampling_thread) {
        // Claimed under the lock, so one instance starts it; cleared if the start fails.
        s->sampling_thread = (halide_thread *)&sampling_thread;
        start_thread = true;
        s->shutdown = 0;
    }
    halide_profiler_unlock(s);
    pthread_mutex_lock(&park_mutex);
    running_instances++;
    pthread_cond_broadcast(&park_wake);
    pthread_mutex_unlock(&park_mutex);
    if (start_thread && pthread_create(&sampling_thread, nullptr, sampler_main, nullptr) != 0) {
        halide_profiler_lock(s);
        s->sampling_thread = nullptr;
        halide_profiler_unlock(s);
    }
    return 0;
}

void halide_profiler_instance_end(void *, void *instance_ptr) {
    halide_profiler_instance_state *instance = (halide_profiler_instance_state *)instance_ptr;
    halide_profiler_state *s = &profiler_state;
    halide_profiler_lock(s);
    // Read under the lock, so no sample can bill time past it.
    uint64_t wall = now_ns() - instance->start_time;
    *instance->prev_next = instance->next;
    if (instance->next) instance->next->prev_next = instance->prev_next;
    if (!s->instances) set_timer(false);
    halide_profiler_pipeline_stats *p = instance->pipeline_stats;
    // A run shorter than a sampling period may have no sample: it is billed to the Func current
    // at its end rather than dropped. Otherwise the samples tell the shares, and the billed
    // times are scaled to the run's wall-clock time (a late sampler thread can leave the end
    // unbilled; a timer sample can bill a little past it), rounding cumulative sums so the
    // Funcs' times add up to the run's exactly.
    if (instance->billed_time == 0) {
        int func = __atomic_load_n(&instance->current_func, __ATOMIC_RELAXED);
        if (func < 0 || func >= p->num_funcs) func = kOverheadId;
        instance->funcs[func].time = instance->billed_time = wall;
    }
    uint64_t billed_before = 0, scaled_before = 0;
    for (int i = 0; i < p->num_funcs; i++) {
        halide_profiler_func_stats &from = instance->funcs[i], &to = p->funcs[i];
        billed_before += from.time;
        uint64_t scaled = billed_before == instance->billed_time
                              ? wall
                              : (uint64_t)((double)billed_before / instance->billed_time * wall);
        to.time += scaled - scaled_before;
        scaled_before = scaled;
        to.memory_peak = to.memory_peak > from.memory_peak ? to.memory_peak : from.memory_peak;
        to.memory_total += from.memory_total;
        to.num_allocs += from.num_allocs;
        to.active_threads_numerator += from.active_threads_numerator;
        to.active_threads_denominator += from.active_threads_denominator;
    }
    p->time += wall;
    p->runs++;
    p->samples += instance->samples;
    p->memory_peak =
        p->memory_peak > instance->memory_peak ? p->memory_peak : instance->memory_peak;
    p->memory_total += instance->memory_total;
    p->num_allocs += instance->num_allocs;
    p->active_threads_numerator += instance->active_threads_numerator;
    p->active_threads_denominator += instance->active_threads_denominator;
    halide_profiler_unlock(s);
    pthread_mutex_lock(&park_mutex);
    running_instances--;
    pthread_mutex_unlock(&park_mutex);
}

int halide_profiler_set_current_func(halide_profiler_instance_state *instance, int func_id) {
    __atomic_store_n(&instance->current_func, func_id, __ATOMIC_RELAXED);
    return 0;
}

int halide_profiler_incr_active_threads(halide_profiler_instance_state *instance) {
    __atomic_fetch_add(&instance->active_threads, 1, __ATOMIC_RELAXED);
    return 0;
}

int halide_profiler_decr_active_threads(halide_profiler_instance_state *instance) {
    __atomic_fetch_sub(&instance->active_threads, 1, __ATOMIC_RELAXED);
    return 0;
}

int halide_profiler_memory_allocate(void *, halide_profiler_instance_state *instance, int func_id,
                                    uint64_t bytes) {
    if (bytes == 0) return 0;
    halide_profiler_func_stats &f = instance->funcs[func_id];
    __atomic_fetch_add(&instance->num_allocs, 1, __ATOMIC_RELAXED);
    atomic_add(&instance->memory_total, bytes);
    atomic_max(&instance->memory_peak,
               __atomic_add_fetch(&instance->memory_current, bytes, __ATOMIC_RELAXED));
    __atomic_fetch_add(&f.num_allocs, 1, __ATOMIC_RELAXED);
    atomic_add(&f.memory_total, bytes);
    atomic_max(&f.memory_peak, __atomic_add_fetch(&f.memory_current, bytes, __ATOMIC_RELAXED));
    return 0;
}

int halide_profiler_memory_free(void *, halide_profiler_instance_state *instance, int func_id,
                                uint64_t bytes) {
    __atomic_fetch_sub(&instance->memory_current, bytes, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&instance->funcs[func_id].memory_current, bytes, __ATOMIC_RELAXED);
    return 0;
}

void halide_profiler_report(void *user_context) {
    halide_profiler_state *s = &profiler_state;
    Text t;
    halide_profiler_lock(s);
    for (halide_profiler_pipeline_stats *p = s->pipelines; p;
         p = (halide_profiler_pipeline_stats *)p->next) {
        if (p->runs > 0) report_pipeline(t, p);
    }
    halide_profiler_unlock(s);
    if (t.data) halide_print(user_context, t.data);
    free(t.data);
}

void halide_profiler_reset(void) {
    halide_profiler_state *s = &profiler_state;
    lock_when_idle(s);
    free_pipelines(s);
    halide_profiler_unlock(s);
}

void halide_profiler_shutdown(void) {
    halide_profiler_state *s = &profiler_state;
    lock_when_idle(s);
    bool join = s->sampling_thread != nullptr;
    __atomic_store_n(&s->shutdown, 1, __ATOMIC_RELEASE);
    free_pipelines(s);
    set_timer(false);
    halide_profiler_unlock(s);
    pthread_mutex_lock(&park_mutex);
    pthread_cond_broadcast(&park_wake);
    pthread_mutex_unlock(&park_mutex);
    if (join) pthread_join(sampling_thread, nullptr);
    halide_profiler_lock(s);
    s->sampling_thread = nullptr;
    s->shutdown = 0;
    halide_profiler_unlock(s);
}

} // extern "C"
