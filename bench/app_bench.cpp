// The application benchmark driver: one invocation times one application (apps/common/
// all_apps.h) in its own process, so the process's peak memory is the app's. The same source is
// built against Loom (bench/CMakeLists.txt: app_bench_loom) and against Halide 21
// (bench/apps.sh: app_bench_halide); bench/apps.sh runs both alternately and makes the table.
//
//     app_bench <app> [--small] [--images DIR] [--warmup N] [--runs N] [--out FILE]
//               [--reference] [--reference-out FILE]
//               [--auto SCHEDULER [--auto-param KEY=VALUE]... [--schedule-out FILE]]
//     app_bench --list
//
// Protocol: both libraries run under the same glibc heap policy (no trimming, no mmap for big
// buffers: see main); the input is built (not timed); compile() (schedule + JIT) is timed once;
// `warmup` runs (default 1); then `runs` timed runs (default 5) of which the median is reported.
// Before compile(), a trivial pipeline pays the library's one-time JIT setup (timed apart).
// Peak memory is measured in one more run, after the timed ones: the driver's malloc family
// (below) counts the bytes every allocation holds while the run lasts, and the peak is the most
// that the live total rose above its value at the run's start: the buffers a schedule keeps alive
// at once, in both libraries through the process's malloc (both runtimes' halide_malloc call it).
// It is an exact count, not the resident set: which holes the JIT happened to leave in the heap
// would otherwise decide whether a stage's buffer reuses one freed earlier in the run, and the
// resident-set peak moved by 24% (camera_pipe, 0.84 or 1.04 MiB) from that luck alone. Stack
// allocations are not counted (stacks stay resident after the first run anyway).
//
// Output (stdout), one "key value" line each, for bench/apps.sh to parse:
//     library, app, input, threads, jit_setup_ms (a trivial pipeline's JIT compile and run, first
//     in the process: the library's one-time setup), jit_ms (the app's compile after it),
//     run_ms, runs_ms (all runs, comma separated),
//     peak_mb, rss_mb (the whole process's VmHWM), output_type (e.g. float32),
//     output_shape (extents, comma separated), output_file (raw elements, x fastest),
//     with --reference: reference_ms, reference_err, reference_tolerance, reference_ok;
//     with --auto (the app autoscheduled instead of its hand schedule): autoscheduler,
//     schedule_ms (the autoscheduler's time, included in jit_ms).
// The exit status is nonzero on an error, or when --reference finds the output out of tolerance.
#include "Halide.h"

#include "common/all_apps.h"
#include "common/compare.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// The heap count of the memory run: the driver's malloc family forwards to glibc's and, while
// counting is on, adds each block's usable size to the live total and subtracts it on free. Frees
// of blocks from before the run lower the total too, so the peak is the run's net growth. Not
// under a sanitizer, whose runtime owns malloc (peak memory is then not measured).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define APP_BENCH_COUNTS_HEAP 0
#else
#define APP_BENCH_COUNTS_HEAP 1
#endif
namespace heap_count {
std::atomic<bool> on{false};
std::atomic<long> live{0}, peak{0};

void add(void *p) {
    if (!p || !on.load(std::memory_order_relaxed)) return;
    long size = (long)malloc_usable_size(p);
    long now = live.fetch_add(size, std::memory_order_relaxed) + size;
    long seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {}
}

void remove(void *p) {
    if (p && on.load(std::memory_order_relaxed))
        live.fetch_sub((long)malloc_usable_size(p), std::memory_order_relaxed);
}

/// Counts the allocations of `body`; returns the most the live bytes rose above their start.
template <typename F>
long peak_growth(F &&body) {
    live = 0;
    peak = 0;
    on = true;
    body();
    on = false;
    return peak.load();
}
} // namespace heap_count

#if APP_BENCH_COUNTS_HEAP
extern "C" {
void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) {
    void *p = __libc_malloc(n);
    heap_count::add(p);
    return p;
}
void free(void *p) {
    heap_count::remove(p);
    __libc_free(p);
}
void *calloc(size_t n, size_t size) {
    void *p = __libc_calloc(n, size);
    heap_count::add(p);
    return p;
}
void *realloc(void *old, size_t n) {
    heap_count::remove(old);
    void *p = __libc_realloc(old, n);
    heap_count::add(p ? p : (n ? old : nullptr)); // a failed realloc keeps the old block
    return p;
}
void *memalign(size_t alignment, size_t n) {
    void *p = __libc_memalign(alignment, n);
    heap_count::add(p);
    return p;
}
void *aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }
int posix_memalign(void **out, size_t alignment, size_t n) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = memalign(alignment, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
}
#endif

namespace {

#ifdef LOOM_COMPAT_HALIDE_H
const char *const kLibrary = "loom";
#else
const char *const kLibrary = "halide";
#endif

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// A field of /proc/self/status in KiB (VmHWM), or -1.
long status_kb(const char *field) {
    std::ifstream f("/proc/self/status");
    std::string line;
    size_t n = std::strlen(field);
    while (std::getline(f, line))
        if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':')
            return std::atol(line.c_str() + n + 1);
    return -1;
}

/// The number of worker threads the library will use: its environment variable, else the
/// number of CPUs (Loom reads LOOM_NUM_THREADS, then HL_NUM_THREADS; Halide HL_NUM_THREADS).
int thread_count() {
    const char *names[] = {
#ifdef LOOM_COMPAT_HALIDE_H
        "LOOM_NUM_THREADS",
#endif
        "HL_NUM_THREADS"};
    for (const char *name : names) {
        const char *v = std::getenv(name);
        if (v && std::atoi(v) > 0) return std::atoi(v);
    }
    return (int)std::max(1u, std::thread::hardware_concurrency());
}

std::string type_name(const Halide::Type &t) {
    const char *code = t.is_float() ? "float" : t.is_uint() ? "uint" : "int";
    return std::string(code) + std::to_string(t.bits());
}

std::string shape_of(const Halide::Buffer<> &b) {
    std::string s;
    for (int d = 0; d < b.dimensions(); d++)
        s += (d ? "," : "") + std::to_string(b.dim(d).extent());
    return s;
}

/// Writes the elements of b, x fastest, as raw bytes (a dense copy first if b is not dense).
bool write_raw(const Halide::Buffer<> &b, const std::string &path) {
    Halide::Buffer<> dense = b;
    size_t bytes = b.number_of_elements() * b.type().bytes();
    bool is_dense = b.dim(0).stride() == 1;
    for (int d = 1; d < b.dimensions(); d++)
        is_dense = is_dense && b.dim(d).stride() == b.dim(d - 1).stride() * b.dim(d - 1).extent();
    if (!is_dense) dense = b.copy();
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    bool ok = std::fwrite(dense.data(), 1, bytes, f) == bytes;
    return (std::fclose(f) == 0) && ok;
}

int usage() {
    std::fprintf(stderr, "usage: app_bench <app> [--small] [--images DIR] [--warmup N] [--runs N]\n"
                         "                 [--out FILE] [--reference] [--reference-out FILE]\n"
                         "                 [--auto SCHEDULER [--auto-param KEY=VALUE]...\n"
                         "                  [--schedule-out FILE]]\n"
                         "       app_bench --list\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    // One heap policy for both libraries: big buffers come from the heap and freed memory stays
    // mapped. With glibc's defaults, whether a run's large buffers (interpolate's two 15.8 MB
    // levels) are page-faulted in again each run depends on the heap's state after the JIT (a
    // hole Halide's compile happened to leave held them; Loom's process trimmed the heap top
    // and refaulted ~7,600 pages, 13 ms, per run): luck, not the generated code. Peak memory
    // is unaffected (it counts allocations, not pages).
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    std::string app = argv[1], out_file, reference_out;
    AppOptions opt;
    opt.images_dir = "../shared/images";
    int warmup = 1, runs = 5;
    bool reference = false;
    Halide::AutoschedulerParams autoscheduler;
    std::string schedule_out;
    if (app == "--list") {
        for (const AppEntry &e : all_apps()) std::printf("%s\n", e.name);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--small")
            opt.paper_size = false;
        else if (a == "--images" && has_value)
            opt.images_dir = argv[++i];
        else if (a == "--warmup" && has_value)
            warmup = std::atoi(argv[++i]);
        else if (a == "--runs" && has_value)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--out" && has_value)
            out_file = argv[++i];
        else if (a == "--reference")
            reference = true;
        else if (a == "--auto" && has_value)
            autoscheduler.name = argv[++i];
        else if (a == "--auto-param" && has_value && std::strchr(argv[i + 1], '=')) {
            std::string kv = argv[++i];
            autoscheduler.extra[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
        } else if (a == "--schedule-out" && has_value)
            schedule_out = argv[++i];
        else if (a == "--reference-out" && has_value)
            reference_out = argv[++i], reference = true;
        else
            return usage();
    }
    const AppEntry *entry = nullptr;
    std::vector<AppEntry> apps = all_apps();
    for (const AppEntry &e : apps)
        if (app == e.name) entry = &e;
    if (!entry) {
        std::fprintf(stderr, "app_bench: no app named '%s' (app_bench --list)\n", app.c_str());
        return 2;
    }

    try {
        std::unique_ptr<AppInstance> inst = entry->make(opt);
        std::printf("library %s\napp %s\ninput %s\nthreads %d\n", kLibrary, entry->name,
                    inst->input_description().c_str(), thread_count());
        std::fflush(stdout);

        // The one-time setup of a library's JIT (Halide 21 compiles its runtime module here,
        // ~0.4 s) is paid by a trivial pipeline first and reported apart, so that jit_ms is the
        // app's own compile in both libraries.
        double t_setup = now_ms();
        {
            Halide::Func trivial("jit_setup");
            Halide::Var x("x");
            trivial(x) = x;
            Halide::Buffer<int> b = trivial.realize({8});
            if (b(7) != 7) throw std::runtime_error("the JIT setup pipeline computed garbage");
        }
        std::printf("jit_setup_ms %.2f\n", now_ms() - t_setup);
        double t0 = now_ms();
        if (autoscheduler.name.empty()) {
            inst->compile();
        } else {
            const std::string source = inst->compile_autoscheduled(autoscheduler);
            std::printf("autoscheduler %s\nschedule_ms %.2f\n", autoscheduler.to_string().c_str(),
                        app_autoschedule::last_schedule_ms());
            if (!schedule_out.empty()) std::ofstream(schedule_out) << source;
        }
        std::printf("jit_ms %.2f\n", now_ms() - t0);
        std::fflush(stdout);

        for (int i = 0; i < warmup; i++) inst->run();
        std::vector<double> times;
        for (int i = 0; i < runs; i++) {
            double s = now_ms();
            inst->run();
            times.push_back(now_ms() - s);
        }
        // The memory run (see the file comment).
        long peak_bytes = heap_count::peak_growth([&] { inst->run(); });
        long hwm = status_kb("VmHWM");
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        std::printf("run_ms %.3f\nruns_ms ", sorted[sorted.size() / 2]);
        for (size_t i = 0; i < times.size(); i++) std::printf("%s%.3f", i ? "," : "", times[i]);
        std::printf("\n");
        if (APP_BENCH_COUNTS_HEAP)
            std::printf("peak_mb %.2f\n", peak_bytes / (1024.0 * 1024.0));
        else
            std::printf("peak_mb n/a\n");
        std::printf("rss_mb %.1f\n", hwm / 1024.0);

        Halide::Buffer<> result = inst->output();
        std::printf("output_type %s\noutput_shape %s\n", type_name(result.type()).c_str(),
                    shape_of(result).c_str());
        if (!out_file.empty()) {
            if (!write_raw(result, out_file)) {
                std::fprintf(stderr, "app_bench: cannot write %s\n", out_file.c_str());
                return 1;
            }
            std::printf("output_file %s\n", out_file.c_str());
        }
        std::fflush(stdout);

        if (reference) {
            double r0 = now_ms();
            Halide::Buffer<> expected = inst->reference();
            double reference_ms = now_ms() - r0;
            double err = app_compare::max_rel_error(result, expected);
            double tol = inst->reference_tolerance();
            bool ok = err <= tol;
            std::printf("reference_ms %.1f\nreference_err %.3g\nreference_tolerance %.3g\n"
                        "reference_ok %s\n",
                        reference_ms, err, tol, ok ? "yes" : "no");
            if (!reference_out.empty() && !write_raw(expected, reference_out)) {
                std::fprintf(stderr, "app_bench: cannot write %s\n", reference_out.c_str());
                return 1;
            }
            std::fflush(stdout);
            if (!ok) {
                std::fprintf(stderr,
                             "app_bench: %s: output differs from the reference (%.3g > %.3g)\n",
                             entry->name, err, tol);
                return 1;
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "app_bench: %s failed: %s\n", app.c_str(), e.what());
        return 1;
    }
    return 0;
}
