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

/// Where an application takes its input from, and how big it is.
struct AppOptions {
    /// The folder of shared photographs (../shared/images); empty means synthetic inputs only.
    std::string images_dir;
    /// true: the size the issue benchmarks (the paper's size); false: a small input that runs in
    /// well under a second unscheduled (the demo's quick mode, smoke tests).
    bool paper_size = true;
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
};

/// A registered application: its name (the apps/ folder) and how to make an instance.
struct AppEntry {
    const char *name;
    std::function<std::unique_ptr<AppInstance>(const AppOptions &)> make;
};

#endif
