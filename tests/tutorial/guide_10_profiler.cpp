// User guide, tutorial 10 (docs/tutorial/10-profiler.md): the profile target feature, and reading
// its report. The times in a report change from run to run, so this program prints only the
// parts that do not (the Funcs, in order, and their heap memory) and checks that the times add
// up to the total.
#include <loom/loom.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

using namespace loom;

namespace {

std::string report;
void capture(JITUserContext *, const char *msg) { report += msg; }

} // namespace

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);
    Func heavy("heavy"), rows("rows"), out("out");
    Var x("x"), y("y");
    RDom r(0, 50, "r");
    heavy(x, y) = cast<float>(x + y);
    heavy(x, y) = sin(heavy(x, y) + r * 0.01f);
    rows(x, y) = heavy(x, y) * 2;
    out(x, y) = rows(x, y) + rows(x + 1, y);
    heavy.compute_root().parallel(y).vectorize(x, 8);
    heavy.update().parallel(y).vectorize(x, 8);
    rows.compute_at(out, y).vectorize(x, 8);
    out.parallel(y);

    // With Target::Profile the JIT prints a report after each run (here, into `report`).
    out.jit_handlers().custom_print = capture;
    out.realize({1024, 512}, get_jit_target_from_environment().with_feature(Target::Profile));

    std::istringstream lines(report);
    std::string line;
    double total = 0, sum = 0;
    while (std::getline(lines, line)) {
        if (line.rfind(" total time: ", 0) == 0) {
            total = std::atof(line.c_str() + 13);
            printf("total time: ... ms  samples: ...  runs: 1  time per run: ... ms\n");
        } else if (line.rfind("    ", 0) == 0) {
            size_t colon = line.find(": ");
            std::string name = line.substr(4, colon - 4);
            sum += std::atof(line.c_str() + colon + 1);
            // Billed only when the sampler catches the caller waiting: not on every run.
            if (name == "waiting for parallel tasks to finish") continue;
            // A Func's peak depends on how many threads held its buffers at once: only the
            // number of allocations and their average size are the same on every run.
            size_t num = line.find(" num: ");
            std::string memory;
            if (num != std::string::npos) {
                std::istringstream fields(line.substr(num));
                std::string num_label, avg_label;
                long count = 0, average = 0;
                fields >> num_label >> count >> avg_label >> average;
                memory = " allocations: " + std::to_string(count) +
                         ", bytes each: " + std::to_string(average);
            }
            printf("  %-14s ...ms (...%%)%s\n", name.c_str(), memory.c_str());
        } else if (line.rfind(" heap allocations: ", 0) == 0) {
            printf("heap allocations: %ld  peak heap usage: ... bytes\n",
                   std::atol(line.c_str() + 19));
        }
    }
    // Each line is truncated to the microsecond.
    bool ok = total > 0 && std::abs(sum - total) < 0.01;
    printf(ok ? "The Funcs' times add up to the total.\nSuccess!\n" : "FAILED\n");
    return ok ? 0 : 1;
}
