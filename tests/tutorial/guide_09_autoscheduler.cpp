// User guide, tutorial 9 (docs/tutorial/09-autoscheduler.md): giving estimates and letting an
// autoscheduler write the schedule; the schedule comes back as source to paste into a program.
// The result is checked against plain C++.
#include <loom/loom.h>

#include <algorithm>
#include <cstdio>

using namespace loom;

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);
    ImageParam input(Float(32), 2, "input");
    Func clamped("clamped"), blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    clamped = BoundaryConditions::repeat_edge(input);
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;

    // The sizes the pipeline will typically run at: the cost models need them.
    input.set_estimates({{0, 1536}, {0, 2560}});
    blur_y.set_estimate(x, 0, 1536).set_estimate(y, 0, 2560);

    // Mullapudi2016 (Mullapudi et al. 2016, with Halide's parameters), for a fixed target so the
    // schedule printed here is the same on every machine.
    Pipeline p(blur_y);
    AutoSchedulerResults result =
        p.apply_autoscheduler(Target("x86-64-linux-avx2"), {"Mullapudi2016", {}});
    printf("%s", result.schedule_source.c_str());

    // The schedule is applied: compile and run it like a hand-written one.
    Buffer<float> in(std::vector<int>{300, 200});
    for (int j = 0; j < 200; j++) {
        for (int i = 0; i < 300; i++) in(i, j) = (float)((i * 7 + j * 3) % 17);
    }
    input.set(in);
    Buffer<float> out = p.realize({300, 200});
    auto at = [&](int i, int j) { return in(std::clamp(i, 0, 299), std::clamp(j, 0, 199)); };
    auto bx = [&](int i, int j) { return (at(i - 1, j) + at(i, j) + at(i + 1, j)) / 3; };
    int bad = 0;
    for (int j = 0; j < 200; j++) {
        for (int i = 0; i < 300; i++) {
            float expected = (bx(i, j - 1) + bx(i, j) + bx(i, j + 1)) / 3;
            bad += std::abs(out(i, j) - expected) > 1e-5f;
        }
    }
    printf(bad ? "FAILED\n" : "Success!\n");
    return bad ? 1 : 0;
}
