// Build step of the schedule-source round trip: autoschedules one pipeline of
// autoschedule_pipelines.h with Loom's scheduler for it (Mullapudi2016, or Li2018 for a gradient)
// and writes, into the given directory,
// <name>.schedule.inc (the schedule source) and <name>.loops (the loop nest the autoscheduler
// made, to compare with the one the pasted source makes). One pipeline per process, so its Funcs
// get the names a program defining only it gives them.
#include "autoschedule/autoschedule_pipelines.h"

#include "lower/print_loop_nest.h"

#include <fstream>
#include <iostream>

using namespace autoschedule_pipelines;

int main(int argc, char **argv) {
    if (argc != 3) {
        std::cerr << "usage: write_schedules <output directory> <pipeline>\n";
        return 1;
    }
    const std::string dir = argv[1], name = argv[2];
    for (const auto &named : all_cases()) {
        if (named.first != name) continue;
        Case c = named.second();
        Pipeline pipeline(c.outputs);
        AutoSchedulerResults r =
            pipeline.apply_autoscheduler(Target("host"), {c.scheduler, c.params});
        std::ofstream(dir + "/" + name + ".schedule.inc") << r.schedule_source;
        std::vector<loom::internal::Function> fs;
        for (const Func &f : c.outputs) fs.push_back(f.function());
        std::ofstream(dir + "/" + name + ".loops") << loom::internal::print_loop_nest(fs);
        return 0;
    }
    std::cerr << "write_schedules: no pipeline named " << name << "\n";
    return 1;
}
