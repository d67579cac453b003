// Trains the learned demosaick (learned_demosaick.h) on one half of a photograph and reports the
// numbers of README.md: the PSNR on the other half before and after training (measured by the
// double reference), in both directions; the time of a training step (forward + backward) under
// each schedule; the trained parameters; and the initial and trained filters applied to the
// Bayer raw, written side by side as a PNG. Not built by CMake: see README.md for the command.
//
// Usage: learned_demosaick_train IMAGES_DIR [steps=200] [learning_rate=1e-3] [out.png]
//   IMAGES_DIR holds rgb_small.png and bayer_small.png (../shared/images); the PNG (default
//   /tmp/learned_demosaick_bayer.png) is the raw demosaicked with the initial (left) and the
//   trained (right) parameters. Threads: HL_NUM_THREADS.
#include "Halide.h"

#include "common/inputs.h"
#include "common/picture.h"
#include "common/timing.h"
#include "learned_demosaick/learned_demosaick.h"
#include "learned_demosaick/reference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;
using namespace learned_demosaick_detail;

namespace {

constexpr int kMargin = 8;

/// Columns [x0, x0 + w) of an 8-bit RGB photograph as planar doubles in [0, 1].
std::vector<double> crop_columns(const Buffer<uint8_t> &photo, int x0, int w) {
    const int h = photo.height();
    std::vector<double> out((size_t)w * h * 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                out[((size_t)c * h + y) * w + x] = photo(x0 + x, y, c) / 255.0;
    return out;
}

struct Parameters {
    Buffer<float> green{5, 5, 1}, chroma{5, 5}, selectivity{1};
    Parameters() { initial_parameters(green, chroma, selectivity); }
    std::vector<double> as_double(const Buffer<float> &b) const {
        return std::vector<double>(b.data(), b.data() + b.number_of_elements());
    }
};

/// PSNR of the demosaicked mosaic of `rgb` (w x h x 3) against `rgb`, by the reference.
double psnr(const Parameters &p, const std::vector<double> &rgb, int w, int h) {
    std::vector<double> mosaic = mosaic_reference(rgb.data(), w, h), out(rgb.size());
    std::vector<double> g = p.as_double(p.green), c = p.as_double(p.chroma),
                        s = p.as_double(p.selectivity);
    learned_demosaick_reference(mosaic.data(), w, h, g.data(), 1, c.data(), s.data(), out.data());
    return psnr_reference(out.data(), rgb.data(), w, h, kMargin);
}

/// The pipeline bound to the mosaic of `rgb` and to the parameters (which it reads in place).
struct Trainer {
    LearnedDemosaickPipeline pipe{Float(32), 1, kMargin};
    Buffer<float> mosaic, target, loss = Buffer<float>::make_scalar(), d_green{5, 5, 1},
                                  d_chroma{5, 5}, d_selectivity{1};
    Pipeline training;
    Trainer(const std::vector<double> &rgb, int w, int h, Parameters &p) {
        std::vector<double> m = mosaic_reference(rgb.data(), w, h);
        mosaic = Buffer<float>(w, h);
        target = Buffer<float>(w, h, 3);
        for (size_t e = 0; e < m.size(); e++) mosaic.data()[e] = (float)m[e];
        for (size_t e = 0; e < rgb.size(); e++) target.data()[e] = (float)rgb[e];
        pipe.mosaic.set(mosaic);
        pipe.target.set(target);
        pipe.green_bases.set(p.green);
        pipe.chroma_base.set(p.chroma);
        pipe.selectivity.set(p.selectivity);
        training = pipe.training_pipeline();
    }
    void step() { training.realize({loss, d_green, d_chroma, d_selectivity}); }
};

/// Adam on the half `train` (w x h); the PSNR on `test` every `report` steps.
void train(Parameters &p, const std::vector<double> &train_rgb, const std::vector<double> &test_rgb,
           int w, int h, int steps, double lr, int report) {
    Trainer t(train_rgb, w, h, p);
    t.pipe.schedule_cpu();
    AdamMoments moments[3];
    for (int step = 1; step <= steps; step++) {
        t.step();
        if (step == 1 || step % report == 0)
            std::printf("    step %3d: training loss %.6g (PSNR %.3f dB)\n", step, t.loss(),
                        -10 * std::log10(t.loss()));
        adam_step(p.green, t.d_green, moments[0], step, lr);
        adam_step(p.chroma, t.d_chroma, moments[1], step, lr);
        adam_step(p.selectivity, t.d_selectivity, moments[2], step, lr);
        if (step % report == 0)
            std::printf("    after %3d steps: held-out PSNR %.3f dB\n", step,
                        psnr(p, test_rgb, w, h));
    }
}

/// The median time of a training step on `rgb` (w x h) under a schedule.
double step_ms(const std::vector<double> &rgb, int w, int h, const std::string &schedule) {
    Parameters p;
    Trainer t(rgb, w, h, p);
    if (schedule == "root") t.pipe.schedule_root();
    if (schedule == "cpu") t.pipe.schedule_cpu();
    if (schedule.rfind("li2018", 0) == 0) {
        t.pipe.mosaic.set_estimates({{0, w}, {0, h}});
        t.pipe.target.set_estimates({{0, w}, {0, h}, {0, 3}});
        t.pipe.green_bases.set_estimates({{0, 5}, {0, 5}, {0, 1}});
        t.pipe.chroma_base.set_estimates({{0, 5}, {0, 5}});
        t.pipe.selectivity.set_estimates({{0, 1}});
        t.pipe.d_green_bases.set_estimates({{0, 5}, {0, 5}, {0, 1}});
        t.pipe.d_chroma_base.set_estimates({{0, 5}, {0, 5}});
        t.pipe.d_selectivity.set_estimates({{0, 1}});
        t.pipe.loss.set_estimates({});
        AutoschedulerParams params{"Li2018"};
        if (schedule == "li2018_hint") params.extra["compute_root"] = t.pipe.li2018_compute_root();
        t.training.apply_autoscheduler(get_host_target(), params);
    }
    double compile = once_ms([&] { t.training.compile_jit(); });
    double ms = median_ms([&] { t.step(); }, 15);
    std::printf("  %-12s %8.2f ms per step (JIT %.1f s)\n", schedule.c_str(), ms, compile / 1e3);
    return ms;
}

/// The raw (scaled to [0, 1] by its 10 bits) demosaicked with `p`: (x, y, c) float.
Buffer<float> demosaick_raw(const Buffer<float> &raw, Parameters &p) {
    LearnedDemosaickPipeline pipe(Float(32), 1, kMargin);
    pipe.schedule_cpu();
    pipe.mosaic.set(raw);
    pipe.green_bases.set(p.green);
    pipe.chroma_base.set(p.chroma);
    pipe.selectivity.set(p.selectivity);
    return pipe.output.realize({raw.width(), raw.height(), 3});
}

/// The mean |Laplacian| of the colour differences R - G and B - G over the image less 2 pixels:
/// false colour (zippering, colour fringes at edges) raises it.
double chroma_roughness(const Buffer<float> &o) {
    double sum = 0;
    int n = 0;
    for (int c : {0, 2})
        for (int y = 2; y < o.height() - 2; y++)
            for (int x = 2; x < o.width() - 2; x++) {
                auto d = [&](int u, int v) { return (double)o(u, v, c) - o(u, v, 1); };
                sum +=
                    std::fabs(4 * d(x, y) - d(x - 1, y) - d(x + 1, y) - d(x, y - 1) - d(x, y + 1));
                n++;
            }
    return sum / n;
}

/// A linear raw image for display: grey-world white balance (each channel's mean to green's),
/// then gamma 2.2, the brightest 0.5% clipped.
Buffer<uint8_t> display(const Buffer<float> &rgb, const double gains[3], double white) {
    Buffer<float> v(rgb.width(), rgb.height(), 3);
    v.for_each_element([&](int x, int y, int c) {
        double s = std::max(0.0, rgb(x, y, c) * gains[c] / white);
        v(x, y, c) = (float)std::pow(std::min(1.0, s), 1 / 2.2);
    });
    return app_picture::from_float(v);
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s IMAGES_DIR [steps] [learning_rate] [out.png]\n", argv[0]);
        return 1;
    }
    const std::string dir = argv[1];
    const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
    const double lr = argc > 3 ? std::atof(argv[3]) : 1e-3;
    const std::string out_png = argc > 4 ? argv[4] : "/tmp/learned_demosaick_bayer.png";
    Buffer<uint8_t> photo = app_inputs::load_photo<uint8_t>(dir, "rgb_small.png");
    Buffer<uint16_t> raw16 = app_inputs::load_photo<uint16_t>(dir, "bayer_small.png");
    if (!photo.defined() || !raw16.defined()) {
        std::fprintf(stderr, "rgb_small.png or bayer_small.png missing in %s\n", dir.c_str());
        return 1;
    }
    // Halves of an even width keep the GRBG phase: both start at an even column.
    const int w = photo.width() / 2, h = photo.height();
    std::vector<double> left = crop_columns(photo, 0, w), right = crop_columns(photo, w, w);

    Parameters bilinear;
    bilinear.green.fill(0);
    bilinear.green(1, 2, 0) = bilinear.green(3, 2, 0) = 0.25f;
    bilinear.green(2, 1, 0) = bilinear.green(2, 3, 0) = 0.25f;
    std::printf("rgb_small.png %dx%d, halves %dx%d, PSNR over each half less %d pixels:\n",
                photo.width(), photo.height(), w, h, kMargin);
    std::printf("  bilinear:  left %.3f dB, right %.3f dB\n", psnr(bilinear, left, w, h),
                psnr(bilinear, right, w, h));
    Parameters initial;
    std::printf("  initial:   left %.3f dB, right %.3f dB\n", psnr(initial, left, w, h),
                psnr(initial, right, w, h));

    std::printf("train on the left half, %d Adam steps, learning rate %g:\n", steps, lr);
    Parameters trained;
    train(trained, left, right, w, h, steps, lr, std::max(1, steps / 4));
    std::printf("  held-out (right) PSNR %.3f -> %.3f dB; training (left) %.3f -> %.3f dB\n",
                psnr(initial, right, w, h), psnr(trained, right, w, h), psnr(initial, left, w, h),
                psnr(trained, left, w, h));
    std::printf("train on the right half:\n");
    Parameters other;
    train(other, right, left, w, h, steps, lr, std::max(1, steps / 4));
    std::printf("  held-out (left) PSNR %.3f -> %.3f dB; training (right) %.3f -> %.3f dB\n",
                psnr(initial, left, w, h), psnr(other, left, w, h), psnr(initial, right, w, h),
                psnr(other, right, w, h));

    std::printf("trained on the left half: base green filter (rows are y), chroma filter "
                "(symmetrized), selectivity\n");
    for (int j = 0; j < 5; j++) {
        std::printf("  ");
        for (int i = 0; i < 5; i++) std::printf(" %8.4f", trained.green(i, j, 0));
        std::printf("   ");
        for (int i = 0; i < 5; i++) {
            double sum = 0;
            for (int s = 0; s < 8; s++)
                sum += transformed_tap(trained.as_double(trained.chroma).data(), s, i, j);
            std::printf(" %8.4f", sum / 8);
        }
        std::printf("\n");
    }
    std::printf("   selectivity %.4f\n", trained.selectivity(0));

    std::printf("training step (forward + backward) on the %dx%d half, median of 15:\n", w, h);
    for (const char *s : {"root", "cpu", "li2018", "li2018_hint"}) step_ms(left, w, h, s);

    // The raw: 10-bit GRBG, as the photograph's mosaic. Scaled by 1023 (linear light).
    Buffer<float> raw(raw16.width(), raw16.height());
    raw.for_each_element([&](int x, int y) { raw(x, y) = raw16(x, y) / 1023.0f; });
    Buffer<float> a = demosaick_raw(raw, initial), b = demosaick_raw(raw, trained);
    double mean[3] = {0, 0, 0}, diff = 0, largest = 0;
    std::vector<float> values;
    a.for_each_element([&](int x, int y, int c) {
        mean[c] += a(x, y, c);
        double d = std::fabs(a(x, y, c) - b(x, y, c));
        diff += d;
        largest = std::max(largest, d);
        values.push_back(a(x, y, c));
    });
    const double gains[3] = {mean[1] / mean[0], 1.0, mean[1] / mean[2]};
    std::sort(values.begin(), values.end());
    const double white = values[(size_t)(values.size() * 0.995)] * std::max(gains[0], gains[2]);
    const double n = (double)a.number_of_elements();
    std::printf("bayer_small.png %dx%d: initial vs trained output, mean |difference| %.5f, "
                "largest %.4f (values in [0, %.3f], mean %.4f)\n",
                raw.width(), raw.height(), diff / n, largest, values.back(),
                (mean[0] + mean[1] + mean[2]) / n);
    // Where the two differ most: the mean |difference| at red/blue vs green sites, per channel.
    for (int c = 0; c < 3; c++) {
        double sums[2] = {0, 0};
        int counts[2] = {0, 0};
        for (int y = 0; y < raw.height(); y++)
            for (int x = 0; x < raw.width(); x++) {
                int g = bayer_colour(x, y) == 1;
                sums[g] += std::fabs(a(x, y, c) - b(x, y, c));
                counts[g]++;
            }
        std::printf("  channel %d: mean |difference| %.5f at red/blue sites, %.5f at green\n", c,
                    sums[0] / counts[0], sums[1] / counts[1]);
    }
    std::printf("  chroma roughness (mean |Laplacian| of R - G and B - G): initial %.5f, trained "
                "%.5f\n",
                chroma_roughness(a), chroma_roughness(b));
    Halide::Tools::save_image(
        app_picture::side_by_side(display(a, gains, white), display(b, gains, white)), out_png);
    std::printf("wrote %s (initial left, trained right)\n", out_png.c_str());
    return 0;
}
