// Build step of the apps' schedule-source round trip (app_roundtrip.cpp): autoschedules one app
// of apps/ (small size) with one scheduler and writes, into the given directory,
// <app>.<scheduler>.schedule.inc (the schedule source) and <app>.<scheduler>.loops (the loop
// nest the autoscheduler made). One app per process, so Funcs get the names a program making
// only that app gives them.
#include "Halide.h"

#include "common/all_apps.h"
#include "lower/print_loop_nest.h"

#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
    if (argc != 5) {
        std::cerr << "usage: write_app_schedules <output directory> <app> <scheduler> <images>\n";
        return 1;
    }
    const std::string dir = argv[1], name = argv[2], scheduler = argv[3];
    for (const AppEntry &e : all_apps()) {
        if (name != e.name) continue;
        AppOptions opt;
        opt.paper_size = false;
        opt.images_dir = argv[4];
        std::unique_ptr<AppInstance> app = e.make(opt);
        std::string loops;
        app_autoschedule::schedule_override() = [&](Halide::Pipeline p) {
            const std::string source =
                p.apply_autoscheduler(Halide::Target("host"), {scheduler}).schedule_source;
            std::vector<loom::internal::Function> fs;
            for (const Halide::Func &f : p.outputs()) fs.push_back(f.function());
            loops = loom::internal::print_loop_nest(fs);
            return source;
        };
        const std::string source = app->compile_autoscheduled({scheduler});
        const std::string stem = dir + "/" + name + "." + scheduler;
        std::ofstream(stem + ".schedule.inc") << source;
        std::ofstream(stem + ".loops") << loops;
        return 0;
    }
    std::cerr << "write_app_schedules: no app named " << name << "\n";
    return 1;
}
