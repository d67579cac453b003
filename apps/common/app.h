// The one interface every application gives the benchmark harness (bench/) and the demo
// (apps/demo/): an AppInstance owns one pipeline, its input (made at construction) and its
// preallocated output. The same source builds against Loom (include/compat) and Halide 21, so
// the harness can time both under one protocol. Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_APP_H
#define LOOM_APPS_COMMON_APP_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

/// The three kinds of input an application can be made with (AppOptions::size()).
enum class InputSize {
    /// A small input that runs in well under a second unscheduled (tests, the demo's --small).
    Small,
    /// The size the issue benchmarks (the paper's): the photographs enlarged by mirrored tiling.
    Benchmark,
    /// The demo's: one real photograph at its own size, untiled (tutorial_rgb.png for the RGB
    /// apps, gray.png for the gray ones but the snake, which takes tutorial_gray.png halved to
    /// 384 x 640, the Bayer raw for the camera pipeline); apps whose input is not an image keep a
    /// synthetic one at a size that runs in well under a second. Each app's header says which.
    Natural,
};

/// Where an application takes its input from, and how big it is.
struct AppOptions {
    /// The folder of shared photographs (../shared/images); empty means synthetic inputs only.
    std::string images_dir;
    /// true: the size the issue benchmarks (the paper's size); false: a small input that runs in
    /// well under a second unscheduled (the demo's quick mode, smoke tests). Ignored when
    /// `natural` is set.
    bool paper_size = true;
    /// true: each app's photograph at its natural size (the demo's default mode).
    bool natural = false;
    /// The input these flags select.
    InputSize size() const {
        return natural ? InputSize::Natural : paper_size ? InputSize::Benchmark : InputSize::Small;
    }
};

/// What AppInstance::run_for_demo() did.
struct DemoRun {
    /// One sentence for the demo's page; empty when the app has no demo run.
    std::string what;
    /// The updates it ran (the snake: level set iterations), its own JIT time, and the time of
    /// the updates (with whatever it does between them, e.g. the convergence test).
    int steps = 0;
    double compile_ms = -1, run_ms = -1;
};

/// One application, ready to compile and run on an input it built itself.
class AppInstance {
public:
    virtual ~AppInstance() = default;
    /// The input, e.g. "1536x2560x3 float, rgb_small.png tiled" (printed in the results).
    virtual std::string input_description() const = 0;
    /// Applies the hand-written CPU schedule and JIT-compiles the pipeline (timed as JIT time).
    virtual void compile() = 0;
    /// Instead of compile(): gives the pipeline estimates of this instance's sizes, schedules it
    /// with the named autoscheduler and JIT-compiles it; returns the schedule source (see
    /// apps/common/autoschedule.h).
    virtual std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) = 0;
    /// One realization of the compiled pipeline into the preallocated output (timed).
    virtual void run() = 0;
    /// The Func run() realizes, scheduled (after compile()), for the ahead-of-time back ends
    /// (tests/c_backend/, bench/c_backend_apps.cpp); undefined when there is none.
    virtual Halide::Func output_func() { return Halide::Func(); }
    /// How many realizations of output_func() one run() makes: 1, or e.g. one per color plane
    /// (hist_eq).
    virtual int realizations() const { return 1; }
    /// Binds output_func()'s inputs as run() does for realization i, and returns the part of
    /// `out` (a buffer shaped like output()) that realization writes.
    virtual Halide::Buffer<> prepare_realization(int i, Halide::Buffer<> out) {
        (void)i;
        return out;
    }
    /// The output of the last run().
    virtual Halide::Buffer<> output() = 0;
    /// Runs the naive reference (apps/<name>/reference.h) on the same input once and returns its
    /// output, with the shape and type of output().
    virtual Halide::Buffer<> reference() = 0;
    /// The largest accepted difference between output() and reference(): 0 for bit-exact
    /// (integer outputs), otherwise the maximum of |a - b| / max(1, |b|) over all elements.
    virtual double reference_tolerance() const = 0;
    /// An 8-bit picture of the last output for the demo: 2-D gray or 3-D (x, y, c) RGB.
    virtual Halide::Buffer<uint8_t> picture() = 0;
    /// An 8-bit picture of the input, the demo's "before" beside picture(): the photograph (for
    /// several inputs, side by side), or for an app whose input is not an image a view of its
    /// numbers (each app says which).
    virtual Halide::Buffer<uint8_t> input_picture() = 0;
    /// The demo's longer run, after the timed ones, for an app whose realization is one step of
    /// an iterative method (the snake: it iterates until its contour settles, and picture() then
    /// shows the result). Returns what it did (nothing for the other apps, which have nothing
    /// more to run). Never called by the benchmarks.
    virtual DemoRun run_for_demo() { return {}; }
};

/// A registered application: its name (the apps/ folder) and how to make an instance.
struct AppEntry {
    const char *name;
    std::function<std::unique_ptr<AppInstance>(const AppOptions &)> make;
};

#endif
