// The scheduling guide's worked example (docs/scheduling.md): the blur app (apps/blur/blur.h,
// the 2012 paper's Figure 1) under four of its schedules, the loop nest of each, every result
// checked against the paper's two-pass C++ (blur_clean_cpp). Prints what the guide shows.
#include "Halide.h"

#include "blur/blur.h"

#include <cstdio>
#include <functional>
#include <vector>

namespace {

int failures = 0;

void show(const char *title, const std::function<void(BlurPipeline &)> &schedule) {
    BlurPipeline p;
    schedule(p);
    printf("\n%s\n", title);
    p.blur_y.print_loop_nest();
    const int w = 600, h = 400;
    Halide::Buffer<uint16_t> in(std::vector<int>{w, h});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) in(x, y) = (uint16_t)((x * 97 + y * 61) % 4096);
    }
    p.input.set(in);
    Halide::Buffer<uint16_t> out = p.blur_y.realize({w, h});
    std::vector<uint16_t> expected(w * h), tmp(w * h);
    blur_clean_cpp(in.data(), expected.data(), tmp.data(), w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) failures += out(x, y) != expected[y * w + x];
    }
}

} // namespace

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0); // keep printf and the loop nests (stderr) in order
    show("schedule_default(): blur_x inlined", [](BlurPipeline &p) { p.schedule_default(); });
    show("schedule_blur_x_root(): two full passes",
         [](BlurPipeline &p) { p.schedule_blur_x_root(); });
    show("schedule_sliding_window(): one new row of blur_x per row of blur_y",
         [](BlurPipeline &p) { p.schedule_sliding_window(); });
    show("schedule_paper(): the paper's tiles, vectors and threads",
         [](BlurPipeline &p) { p.schedule_paper(); });
    printf(failures ? "\nFAILED\n" : "\nSuccess!\n");
    return failures ? 1 : 0;
}
