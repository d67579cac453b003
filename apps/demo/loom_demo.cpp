// `make demo`: runs Loom pipelines on the bundled photographs, writes the results as PNG files
// and prints a table of JIT compile and run times.
#include "Halide.h"
#include "halide_image_io.h"

#include "blur/blur.h"
#include "common/timing.h"
#include "hist_eq/hist_eq.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>

using namespace Halide;

namespace {

struct Row {
    std::string name, size;
    double compile_ms, run_ms;
};

void print_table(const std::vector<Row> &rows) {
    std::printf("\n%-34s %-12s %14s %12s\n", "pipeline", "size", "JIT compile ms", "run ms");
    for (const Row &r : rows) {
        std::printf("%-34s %-12s %14.1f %12.2f\n", r.name.c_str(), r.size.c_str(), r.compile_ms,
                    r.run_ms);
    }
    std::printf("(run ms: median of 5 runs after a warm-up)\n");
}

std::string size_of(const Buffer<> &b) {
    return std::to_string(b.width()) + "x" + std::to_string(b.height());
}

} // namespace

int main(int argc, char **argv) {
    std::string images = "../shared/images", out = "demo_output";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--images"))
            images = argv[i + 1];
        else if (!std::strcmp(argv[i], "--out"))
            out = argv[i + 1];
    }
    mkdir(out.c_str(), 0755);
    std::vector<Row> rows;

    try {
        Buffer<uint8_t> gray = Tools::load_image(images + "/gray.png");
        std::printf("loaded %s/gray.png: %d x %d\n", images.c_str(), gray.width(), gray.height());

        // Blur: the photograph widened to 16 bits (the paper's uint16 blur), then narrowed back.
        // Six bits of headroom keep the sum of three samples from wrapping in uint16.
        Buffer<uint16_t> gray16(gray.width(), gray.height());
        gray16.for_each_element([&](int x, int y) { gray16(x, y) = (uint16_t)(gray(x, y) << 6); });
        for (int variant = 0; variant < 2; variant++) {
            BlurPipeline blur;
            if (variant == 0)
                blur.schedule_default();
            else
                blur.schedule_blur_x_root();
            blur.input.set(gray16);
            Buffer<uint16_t> result(gray.width(), gray.height());
            double compile = once_ms([&] { blur.blur_y.compile_jit(); });
            double run = median_ms([&] { blur.blur_y.realize(result); });
            rows.push_back({variant == 0 ? "blur 3x3 (default: blur_x inline)"
                                         : "blur 3x3 (blur_x compute_root)",
                            size_of(gray), compile, run});
            if (variant == 0) {
                Buffer<uint8_t> blurred8(gray.width(), gray.height());
                blurred8.for_each_element(
                    [&](int x, int y) { blurred8(x, y) = (uint8_t)(result(x, y) >> 6); });
                Tools::save_image(blurred8, out + "/blur.png");
            }
        }

        HistEqPipeline eq;
        eq.schedule_default();
        eq.input.set(gray);
        Buffer<uint8_t> equalized(gray.width(), gray.height());
        double compile = once_ms([&] { eq.output.compile_jit(); });
        double run = median_ms([&] { eq.output.realize(equalized); });
        rows.push_back({"histogram equalization", size_of(gray), compile, run});
        Tools::save_image(equalized, out + "/histogram_equalized.png");
    } catch (const Halide::Error &e) {
        std::fprintf(stderr, "demo failed: %s\n", e.what());
        return 1;
    }

    print_table(rows);
    std::printf("\nwrote %s/blur.png and %s/histogram_equalized.png\n", out.c_str(), out.c_str());
    return 0;
}
