// One side of the same-process race (bench/race.cpp): the applications of apps/common/all_apps.h
// behind a C interface, built as a shared library once against Loom (race_app_loom.so) and once
// against Halide 21 (race_app_halide.so). The driver loads Halide's side into a link-map
// namespace of its own (dlmopen), so the two libraries, their LLVMs and their runtimes coexist
// in one process.
#include "Halide.h"

#include "common/all_apps.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void set_error(char *err, int err_size, const std::string &message) {
    if (err && err_size > 0) std::snprintf(err, (size_t)err_size, "%s", message.c_str());
}

/// "Name;key=value;..." as AutoschedulerParams.
Halide::AutoschedulerParams parse_autoscheduler(const std::string &spec) {
    Halide::AutoschedulerParams params;
    size_t start = 0;
    while (start <= spec.size()) {
        const size_t end = std::min(spec.find(';', start), spec.size());
        const std::string item = spec.substr(start, end - start);
        if (start == 0) {
            params.name = item;
        } else if (item.find('=') != std::string::npos) {
            params.extra[item.substr(0, item.find('='))] = item.substr(item.find('=') + 1);
        }
        start = end + 1;
    }
    return params;
}

} // namespace

extern "C" {

/// Builds the app's input and JIT-compiles it under its hand-written schedule, or, when
/// `autoscheduler` is not empty, under the schedule that autoscheduler makes for the app's
/// sizes ("Name" or "Name;key=value;..."); null (and a message in err) on failure.
__attribute__((visibility("default"))) void *race_app_open(const char *name, int paper_size,
                                                           const char *images_dir,
                                                           const char *autoscheduler, char *err,
                                                           int err_size) {
    try {
        AppOptions opt;
        opt.paper_size = paper_size != 0;
        opt.images_dir = images_dir;
        for (const AppEntry &e : all_apps()) {
            if (name != std::string(e.name)) continue;
            std::unique_ptr<AppInstance> app = e.make(opt);
            if (*autoscheduler) {
                app->compile_autoscheduled(parse_autoscheduler(autoscheduler));
            } else {
                app_autoschedule::last_schedule_ms() = 0;
                app->compile();
            }
            return app.release();
        }
        set_error(err, err_size, std::string("no app named ") + name);
    } catch (const Halide::Error &e) {
        // (Halide's errors are not std::exceptions.)
        set_error(err, err_size, e.what());
    } catch (const std::exception &e) {
        set_error(err, err_size, e.what());
    }
    return nullptr;
}

/// The milliseconds the last race_app_open spent in its autoscheduler (0 for a hand schedule).
__attribute__((visibility("default"))) double race_app_schedule_ms() {
    return app_autoschedule::last_schedule_ms();
}

/// Runs the app once; returns the milliseconds it took, or a negative number on failure.
__attribute__((visibility("default"))) double race_app_run(void *handle) {
    try {
        double t0 = now_ms();
        static_cast<AppInstance *>(handle)->run();
        return now_ms() - t0;
    } catch (const Halide::Error &e) {
        // (Halide's errors are not std::exceptions.)
        std::fprintf(stderr, "race_app_run: %s\n", e.what());
        return -1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "race_app_run: %s\n", e.what());
        return -1;
    }
}

__attribute__((visibility("default"))) void race_app_close(void *handle) {
    delete static_cast<AppInstance *>(handle);
}

} // extern "C"
