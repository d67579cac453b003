// The local Laplacian filter (Paris, Hasinoff and Kautz 2011, with the fast approximation of
// Aubry et al. 2011; the 2012 Halide paper, section 6.2): edge-aware detail and contrast
// manipulation of a 16-bit RGB image. The gray image is remapped around K intensity levels
// (detail scaled by alpha, large-scale contrast by beta); the output's Laplacian pyramid takes,
// at each pixel and level, the remapped images' Laplacian coefficients interpolated between the
// two levels bracketing the gray image's Gaussian pyramid value; the collapsed pyramid is the
// new gray, and the colours follow it by ratio. Written against Halide's API so the same source
// builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_LOCAL_LAPLACIAN_H
#define LOOM_APPS_LOCAL_LAPLACIAN_H

#include "local_laplacian/local_laplacian_params.h"

#include <string>
#include <vector>

struct LocalLaplacianPipeline {
    /// Planar 16-bit RGB input (x, y, c); edges are repeated.
    Halide::ImageParam input{Halide::UInt(16), 3, "input"};
    /// The remapping curve's detail term (kLutSize floats; set_alpha fills it).
    Halide::ImageParam remap_lut{Halide::Float(32), 1, "remap_lut"};
    /// Large-scale contrast: 1 keeps it, below 1 compresses it.
    Halide::Param<float> beta{"beta", local_laplacian_detail::kBeta};

    Halide::Func clamped{"clamped"}, gray{"gray"}, remapped{"remapped"}, output{"local_laplacian"};
    /// The input as floats in [0, 1] and the output as floats in [0, 1] before its rounding to 16
    /// bits, both inlined (the forward pass computes what it did without them): the backward
    /// pass differentiates from and to these, since integers carry no derivative.
    Halide::Func unit_input{"unit_input"}, float_output{"float_output"};
    /// Gaussian pyramids of the remapped images (x, y, k) and of the gray image; Laplacian
    /// pyramids of the remapped images and of the output; the output's collapsed Gaussian
    /// pyramid. Level 0 is the finest.
    std::vector<Halide::Func> g_pyr, in_g_pyr, l_pyr, out_l_pyr, out_g_pyr;
    Halide::Var x{"x"}, y{"y"}, c{"c"}, k{"k"};

    /// The host-side table behind remap_lut.
    Halide::Buffer<float> lut_table{local_laplacian_detail::kLutSize};

    /// The pipeline with `levels` pyramid levels (the paper's 8; the tests use fewer).
    explicit LocalLaplacianPipeline(int levels = local_laplacian_detail::kLevels)
        : levels_(levels) {
        using namespace local_laplacian_detail;
        using Halide::Expr;
        using Halide::Func;
        const int J = levels, K = kIntensityLevels;
        set_alpha(kAlpha);

        Expr cx = Halide::clamp(x, 0, input.width() - 1);
        Expr cy = Halide::clamp(y, 0, input.height() - 1);
        unit_input(x, y, c) = Halide::cast<float>(input(x, y, c)) * (1.0f / 65535.0f);
        clamped(x, y, c) = unit_input(cx, cy, c);
        gray(x, y) =
            kLumaR * clamped(x, y, 0) + kLumaG * clamped(x, y, 1) + kLumaB * clamped(x, y, 2);

        // The remapped gray around level k / (K - 1): beta times the difference plus the
        // level, plus the detail term read from the table with linear interpolation (so the
        // result is continuous in gray).
        const float unit = (float)((K - 1) * kLutStepsPerLevel);
        Expr level = Halide::cast<float>(k) * (1.0f / (K - 1));
        Expr diff = gray(x, y) - level;
        Expr pos = Halide::clamp(diff * unit + unit, 0.0f, 2.0f * unit);
        Expr i = Halide::min(Halide::cast<int>(pos), kLutSize - 2);
        Expr f = pos - Halide::cast<float>(i);
        Expr detail = remap_lut(i) * (1.0f - f) + remap_lut(i + 1) * f;
        remapped(x, y, k) = beta * diff + level + detail;

        g_pyr.resize(J);
        in_g_pyr.resize(J);
        l_pyr.resize(J);
        out_l_pyr.resize(J);
        out_g_pyr.resize(J);
        for (int j = 0; j < J; j++) {
            const std::string s = std::to_string(j);
            g_pyr[j] = Func("g_pyr_" + s);
            in_g_pyr[j] = Func("in_g_pyr_" + s);
            l_pyr[j] = Func("l_pyr_" + s);
            out_l_pyr[j] = Func("out_l_pyr_" + s);
            out_g_pyr[j] = Func("out_g_pyr_" + s);
        }
        g_pyr[0](x, y, k) = remapped(x, y, k);
        in_g_pyr[0](x, y) = gray(x, y);
        for (int j = 1; j < J; j++) {
            g_pyr[j](x, y, k) = downsample(g_pyr[j - 1], true)(x, y, k);
            in_g_pyr[j](x, y) = downsample(in_g_pyr[j - 1], false)(x, y);
        }
        l_pyr[J - 1](x, y, k) = g_pyr[J - 1](x, y, k);
        for (int j = 0; j < J - 1; j++)
            l_pyr[j](x, y, k) = g_pyr[j](x, y, k) - upsample(g_pyr[j + 1], true)(x, y, k);

        // Each output coefficient: the remapped images' coefficients at the two intensity
        // levels around the gray pyramid's value, interpolated linearly.
        for (int j = 0; j < J; j++) {
            Expr lv = in_g_pyr[j](x, y) * (float)(K - 1);
            Expr li = Halide::clamp(Halide::cast<int>(lv), 0, K - 2);
            Expr lf = lv - Halide::cast<float>(li);
            out_l_pyr[j](x, y) = (1.0f - lf) * l_pyr[j](x, y, li) + lf * l_pyr[j](x, y, li + 1);
        }
        // Collapse.
        out_g_pyr[J - 1](x, y) = out_l_pyr[J - 1](x, y);
        for (int j = J - 2; j >= 0; j--)
            out_g_pyr[j](x, y) = out_l_pyr[j](x, y) + upsample(out_g_pyr[j + 1], false)(x, y);

        // Colour by the ratio of the new gray to the old, back to 16 bits.
        Expr v = out_g_pyr[0](x, y) * (clamped(x, y, c) + kEps) / (gray(x, y) + kEps);
        float_output(x, y, c) = Halide::clamp(v, 0.0f, 1.0f);
        output(x, y, c) = Halide::cast<uint16_t>(float_output(x, y, c) * 65535.0f + 0.5f);
    }

    /// The backward pass's input: the adjoint of float_output (x, y, c), e.g. d loss / d output
    /// with the output in [0, 1].
    Halide::ImageParam d_output{Halide::Float(32), 3, "d_output"};
    /// The backward pass (define_backward): the gradients with respect to the input in [0, 1]
    /// (unit_input, x, y, c: divide by 65535 for d / d input), to each entry of the remapping
    /// table (remap_lut) and to alpha and beta (zero-dimensional).
    Halide::Func d_input, d_remap_lut, d_alpha{"d_alpha"}, d_beta;
    /// The adjoints of the pyramids' levels, of their resampling passes, of the remapped images
    /// and of the gray image, the Funcs the backward pass reads many times (set by
    /// define_backward).
    std::vector<Halide::Func> d_levels;

    /// Defines the gradients by propagate_adjoints from float_output over the input's shape,
    /// given d_output. The output is piecewise smooth: the remapping table's entry and the two
    /// intensity levels a coefficient interpolates between are integers (cast<int>, no
    /// derivative), so the gradient is the one of the piece the inputs lie in. The gray value
    /// reaches the output through the remapping (the table's linear interpolation), through the
    /// weights between intensity levels at every pyramid level, and through the colour ratio;
    /// alpha and beta only through the remapping. The table's gradient is a scatter (each
    /// remapped pixel reads the entries its difference selects); alpha's is its sum weighted by
    /// the curve of alpha = 1, since the table is alpha times that curve.
    void define_backward() {
        using namespace local_laplacian_detail;
        const Halide::Region bounds = {
            {0, input.dim(0).extent()}, {0, input.dim(1).extent()}, {0, 3}};
        Halide::Derivative d =
            Halide::propagate_adjoints(float_output, Halide::Func(d_output), bounds);
        d_input = d(unit_input);
        d_remap_lut = d(remap_lut.name());
        d_beta = d(beta.name());
        std::vector<float> curve = remap_table(1.0f);
        for (int i = 0; i < kLutSize; i++) unit_curve_(i) = curve[i];
        Halide::RDom r(0, kLutSize, "lut_r");
        d_alpha() = 0.0f;
        d_alpha() += d_remap_lut(r) * unit_curve_(r);
        d_levels = {d(gray), d(remapped)};
        for (int j = 0; j < kJ(); j++)
            for (const Halide::Func &f :
                 {g_pyr[j], in_g_pyr[j], l_pyr[j], out_l_pyr[j], out_g_pyr[j]})
                if (d(f).defined()) d_levels.push_back(d(f));
        for (const Halide::Func &f : resamplers_)
            if (d(f).defined()) d_levels.push_back(d(f));
    }

    /// The backward pass breadth-first: schedule_root for the forward levels and every level's
    /// adjoint (d_levels) at root, the rest as propagate_adjoints leaves it (its scatters at
    /// root, the others inlined). Inlined, each level's adjoint would re-evaluate the adjoints
    /// of the levels it reads, as inlining the forward levels would.
    void schedule_backward_root() {
        schedule_root();
        for (Halide::Func f : d_levels) f.compute_root();
    }

    /// The Li2018 autoscheduler's "compute_root" parameter for the backward pass: d_levels.
    /// Li2018 inlines a Func with one consumer, as most of them are, and then each level's
    /// adjoint re-evaluates those below it.
    std::string li2018_compute_root() const {
        std::string names;
        for (const Halide::Func &f : d_levels) names += (names.empty() ? "" : ",") + f.name();
        return names;
    }

    /// Sets the detail amplification alpha (rebuilds the remapping table).
    void set_alpha(float alpha) {
        std::vector<float> lut = local_laplacian_detail::remap_table(alpha);
        for (int i = 0; i < local_laplacian_detail::kLutSize; i++) lut_table(i) = lut[i];
        remap_lut.set(lut_table);
    }

    /// Every pyramid level at root, serial and scalar (the breadth-first schedule). Inlining
    /// everything, Halide's default, is out of reach here: each level would re-evaluate the
    /// 16 taps of the one below, 16^7 remapped pixels per output pixel.
    void schedule_root() {
        gray.compute_root();
        for (int j = 0; j < kJ(); j++) {
            if (j > 0) g_pyr[j].compute_root();
            in_g_pyr[j].compute_root();
            out_g_pyr[j].compute_root();
        }
    }

    /// In the paper's spirit: every pyramid level at root. The remapped pyramids (K images,
    /// by far the most work) parallel over the intensity level k, stored with k between x and
    /// y, the largest (half size) also vectorized by 8 floats (AVX2); the gray image and the
    /// finest output level parallel over strips of rows (the gray vectorized); the output
    /// parallel over strips and vectorized; the other levels serial. The finest remapped level
    /// and the Laplacian levels are inlined. (Vectorizing and splitting more levels is what the
    /// paper does, but Loom's compile time grows steeply with every split level of a chain:
    /// see the README.)
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        output.reorder(x, c, y).split(y, yo, yi, 32).parallel(yo).vectorize(x, 8);
        gray.compute_root().split(y, yo, yi, 32).parallel(yo).vectorize(x, 8);
        out_g_pyr[0].compute_root().split(y, yo, yi, 32).parallel(yo);
        for (int j = 1; j < kJ(); j++) {
            in_g_pyr[j].compute_root();
            out_g_pyr[j].compute_root();
            g_pyr[j].compute_root().reorder_storage(x, k, y).reorder(x, y, k).parallel(k);
            if (j == 1) g_pyr[j].vectorize(x, 8);
        }
    }

    /// GPU schedule (a target with CUDA or OpenCL), as Halide's GPU schedule of this app without
    /// its shared memory: every pyramid level at root, each its own kernel, one pixel per GPU
    /// thread in 16 x 8 tiles (4 x 4 from level 4 on, where the levels are small). The gray
    /// image at root; the remapped pyramids' levels each thread looping over the K intensity
    /// levels; the finest remapped level, the Laplacian levels and the output's Laplacian
    /// coefficients inlined; the output (colour ratio) looping over the channels per thread,
    /// edge tiles guarded so any image size works.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.reorder(c, x, y).gpu_tile(x, y, xo, yo, xi, yi, 16, 8,
                                         Halide::TailStrategy::GuardWithIf);
        gray.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 16, 8);
        for (int j = 0; j < kJ(); j++) {
            const int tile_w = j < 4 ? 16 : 4, tile_h = j < 4 ? 8 : 4;
            if (j > 0) {
                in_g_pyr[j].compute_root().gpu_tile(x, y, xo, yo, xi, yi, tile_w, tile_h);
                g_pyr[j].compute_root().reorder(k, x, y).gpu_tile(x, y, xo, yo, xi, yi, tile_w,
                                                                  tile_h);
            }
            out_g_pyr[j].compute_root().gpu_tile(x, y, xo, yo, xi, yi, tile_w, tile_h);
        }
    }

private:
    /// Pyramid levels.
    int levels_;
    /// The remapping curve of alpha = 1 (define_backward).
    Halide::Buffer<float> unit_curve_{local_laplacian_detail::kLutSize};
    /// Numbers the downsampling and upsampling Funcs (names must be unique).
    int helpers_ = 0;
    /// The downsampling and upsampling Funcs, each pass along x and along y.
    std::vector<Halide::Func> resamplers_;

    int kJ() const { return levels_; }

    /// f at (x, y) or (x, y, k).
    Halide::Expr at(Halide::Func f, bool has_k, Halide::Expr xx, Halide::Expr yy) {
        return has_k ? f(xx, yy, k) : f(xx, yy);
    }
    void define(Halide::Func f, bool has_k, Halide::Expr e) {
        if (has_k)
            f(x, y, k) = e;
        else
            f(x, y) = e;
    }

    /// Half resolution by the [1 3 3 1] / 8 filter along x, then along y.
    Halide::Func downsample(Halide::Func f, bool has_k) {
        const std::string n = std::to_string(helpers_++);
        Halide::Func dx("downx_" + n), dy("downy_" + n);
        resamplers_.insert(resamplers_.end(), {dx, dy});
        auto taps = [](Halide::Expr a, Halide::Expr b, Halide::Expr c_, Halide::Expr d) {
            return (a + 3.0f * b + 3.0f * c_ + d) * 0.125f;
        };
        define(dx, has_k,
               taps(at(f, has_k, 2 * x - 1, y), at(f, has_k, 2 * x, y), at(f, has_k, 2 * x + 1, y),
                    at(f, has_k, 2 * x + 2, y)));
        define(dy, has_k,
               taps(at(dx, has_k, x, 2 * y - 1), at(dx, has_k, x, 2 * y),
                    at(dx, has_k, x, 2 * y + 1), at(dx, has_k, x, 2 * y + 2)));
        return dy;
    }

    /// Double resolution by linear interpolation: pixel 2i is 3/4 of sample i and 1/4 of
    /// sample i - 1, pixel 2i + 1 is 3/4 of i and 1/4 of i + 1; along x, then along y.
    Halide::Func upsample(Halide::Func f, bool has_k) {
        const std::string n = std::to_string(helpers_++);
        Halide::Func ux("upx_" + n), uy("upy_" + n);
        resamplers_.insert(resamplers_.end(), {ux, uy});
        define(ux, has_k,
               0.25f * at(f, has_k, x / 2 - 1 + 2 * (x % 2), y) + 0.75f * at(f, has_k, x / 2, y));
        define(uy, has_k,
               0.25f * at(ux, has_k, x, y / 2 - 1 + 2 * (y % 2)) + 0.75f * at(ux, has_k, x, y / 2));
        return uy;
    }
};

#endif
