// The matrix-multiply app for the benchmark harness and the demo (apps/common/app.h): two
// deterministic pseudo-random float matrices, multiplied with MatmulPipeline's CPU schedule
// (2048 x 2048 at the benchmark's size, 256 x 256 small, 1024 x 1024 in the demo's natural mode:
// the input is synthetic in every mode). Include "Halide.h" first.
#ifndef LOOM_APPS_MATMUL_APP_H
#define LOOM_APPS_MATMUL_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/picture.h"
#include "matmul/matmul.h"
#include "matmul/matmul_params.h"
#include "matmul/reference.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

class MatmulApp : public AppInstance {
public:
    explicit MatmulApp(const AppOptions &opt)
        : n_(opt.size() == InputSize::Natural     ? matmul_detail::kNaturalSize
             : opt.size() == InputSize::Benchmark ? matmul_detail::kPaperSize
                                                  : matmul_detail::kSmallSize),
          natural_(opt.size() == InputSize::Natural), a_(n_, n_), b_(n_, n_), out_(n_, n_) {
        matmul_detail::fill_uniform(a_.data(), (long)n_ * n_, 1);
        matmul_detail::fill_uniform(b_.data(), (long)n_ * n_, 2);
    }
    std::string input_description() const override {
        return std::to_string(n_) + "x" + std::to_string(n_) +
               " float, A and B uniform in [-1, 1) from a fixed-seed LCG" +
               (natural_ ? " (synthetic: not an image)" : "");
    }
    void compile() override {
        p_.schedule_cpu();
        p_.A.set(a_);
        p_.B.set(b_);
        p_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        app_autoschedule::bind(p_.A, a_);
        app_autoschedule::bind(p_.B, b_);
        return app_autoschedule::schedule(p_.output, out_, params);
    }
    void run() override { p_.output.realize(out_); }
    Halide::Func output_func() override { return p_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(n_, n_);
        matmul_reference(a_.data(), b_.data(), ref.data(), n_, n_, n_);
        return ref;
    }
    /// Both sum the k products in the same order; they differ by the rounding of fused
    /// multiply-adds (Halide and LLVM may contract a * b + c), at most 2048 half-ulps of partial
    /// sums of magnitude ~20 here: measured 2e-5 at 2048.
    double reference_tolerance() const override { return 1e-4; }
    Halide::Buffer<uint8_t> picture() override {
        // Entries are ~N(0, n/9): mid-gray at 0, saturating at 3 standard deviations.
        const float scale = 127.5f / (3.0f * std::sqrt((float)n_ / 9.0f));
        Halide::Buffer<uint8_t> pic(n_, n_);
        pic.for_each_element([&](int x, int y) {
            float v = 127.5f + scale * out_(x, y);
            pic(x, y) = (uint8_t)std::min(255.0f, std::max(0.0f, v));
        });
        return pic;
    }

    /// A and B side by side: mid-gray at 0, black at -1, white at 1.
    Halide::Buffer<uint8_t> input_picture() override {
        auto shown = [&](const Halide::Buffer<float> &m) {
            Halide::Buffer<uint8_t> pic(n_, n_);
            pic.for_each_element([&](int x, int y) {
                pic(x, y) = (uint8_t)std::min(255.0f, std::max(0.0f, 127.5f + 127.5f * m(x, y)));
            });
            return pic;
        };
        return app_picture::side_by_side(shown(a_), shown(b_));
    }

private:
    int n_;
    bool natural_;
    Halide::Buffer<float> a_, b_, out_;
    MatmulPipeline p_;
};

/// The registry's factory for the matmul app.
inline std::unique_ptr<AppInstance> make_matmul_app(const AppOptions &opt) {
    return std::make_unique<MatmulApp>(opt);
}

#endif
