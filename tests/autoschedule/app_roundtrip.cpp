// The schedule-source round trip on every app: the C++ an autoscheduler wrote for the app at
// build time (write_app_schedules.cpp) pasted after the app's algorithm, in place of the
// autoscheduler, computes what the app's reference computes (within its tolerance), built
// against Loom and against Halide 21; under Loom the pasted source also reproduces the
// autoscheduler's loop nest exactly. ctest runs one <app>.<scheduler> per process (named by
// LOOM_ROUNDTRIP_CASE), as the writer did, so Funcs get the same names.
#include "Halide.h"

#include "common/all_apps.h"
#include "common/compare.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifdef LOOM_COMPAT_HALIDE_H
#include "lower/print_loop_nest.h"
#endif

namespace {

/// Applies the schedule written for `key` ("<app>.<scheduler>") to `pipeline`; false when none
/// was written.
bool apply_written_schedule(const std::string &key, Halide::Pipeline pipeline) {
    using namespace Halide;
#include "app_schedules_dispatch.inc"
    return false;
}

std::string env_or(const char *name, const char *fallback) {
    const char *v = std::getenv(name);
    return v ? v : fallback;
}

} // namespace

TEST(AppRoundTrip, PastedScheduleMatchesTheReference) {
    const std::string key = env_or("LOOM_ROUNDTRIP_CASE", "");
    ASSERT_NE(key.find('.'), std::string::npos) << "set LOOM_ROUNDTRIP_CASE=<app>.<scheduler>";
    const std::string name = key.substr(0, key.find('.')),
                      scheduler = key.substr(key.find('.') + 1);
    for (const AppEntry &e : all_apps()) {
        if (name != e.name) continue;
        AppOptions opt;
        opt.paper_size = false;
        opt.images_dir = env_or("LOOM_SHARED_IMAGES", "../shared/images");
        std::unique_ptr<AppInstance> app = e.make(opt);
        app_autoschedule::schedule_override() = [&](Halide::Pipeline p) {
            EXPECT_TRUE(apply_written_schedule(key, p)) << "no schedule written for " << key;
#ifdef LOOM_COMPAT_HALIDE_H
            std::vector<loom::internal::Function> fs;
            for (const Halide::Func &f : p.outputs()) fs.push_back(f.function());
            std::ifstream written(std::string(LOOM_AUTOSCHEDULE_SOURCES) + "/" + key + ".loops");
            std::stringstream expected;
            expected << written.rdbuf();
            EXPECT_EQ(loom::internal::print_loop_nest(fs), expected.str());
#endif
            return std::string();
        };
        try {
            app->compile_autoscheduled({scheduler});
            app->run();
        } catch (const Halide::Error &e) {
            // (Halide's errors are not std::exceptions: gtest would not print them.)
            FAIL() << e.what();
        }
        const double err = app_compare::max_rel_error(app->output(), app->reference());
        EXPECT_LE(err, app->reference_tolerance());
        return;
    }
    FAIL() << "no app named " << name;
}
