// Every app of apps/ autoscheduled by PolyMage (model-only) instead of hand-scheduled
// (AppInstance::compile_autoscheduled, with estimates of its small size) matches its naive
// reference within the app's own tolerance.
#include "Halide.h"

#include "common/all_apps.h"
#include "common/compare.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

class AppAutoscheduled : public ::testing::TestWithParam<std::string> {};

const char *images_dir() {
    const char *dir = std::getenv("LOOM_SHARED_IMAGES");
    return dir ? dir : "../shared/images";
}

} // namespace

TEST_P(AppAutoscheduled, MatchesTheReference) {
    // The defaults only: other settings are covered on smaller pipelines
    // (tests/correctness/autoschedule.cpp), and Loom's loop partitioning takes minutes on the
    // deepest groups they make here (pyramid_blend with a 256 KiB cache). "Loom" and
    // Mullapudi2016 are checked on every app by the schedule-source round trip
    // (tests/autoschedule/app_roundtrip.cpp), which compares their output with the reference too.
    const std::vector<Halide::AutoschedulerParams> settings = {{"PolyMage"}};
    for (const AppEntry &e : all_apps()) {
        if (GetParam() != e.name) continue;
        for (const Halide::AutoschedulerParams &params : settings) {
            SCOPED_TRACE(params.to_string());
            AppOptions opt;
            opt.paper_size = false;
            opt.images_dir = images_dir();
            std::unique_ptr<AppInstance> app = e.make(opt);
            const std::string source = app->compile_autoscheduled(params);
            EXPECT_NE(source.find("\"" + params.name + "\""), std::string::npos);
            app->run();
            const double err = app_compare::max_rel_error(app->output(), app->reference());
            EXPECT_LE(err, app->reference_tolerance()) << source;
        }
        return;
    }
    FAIL() << "no app named " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Apps, AppAutoscheduled, ::testing::ValuesIn([] {
                             std::vector<std::string> names;
                             for (const AppEntry &e : all_apps()) names.push_back(e.name);
                             return names;
                         }()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return info.param;
                         });
