// Histogram equalization as in the 2012 Halide paper's Figure 3: a histogram of the uint8 input
// by reduction, its cumulative distribution by a scan, and a remap of every pixel through the
// scaled cdf. Written against Halide's API so it builds against Loom and Halide 21 alike.
// Include "Halide.h" first.
#ifndef LOOM_APPS_HIST_EQ_H
#define LOOM_APPS_HIST_EQ_H

#include <vector>

struct HistEqPipeline {
    Halide::ImageParam input{Halide::UInt(8), 2, "input"};
    Halide::Func histogram{"histogram"}, cdf{"cdf"}, lut{"lut"}, output{"equalized"};
    Halide::Var x{"x"}, y{"y"}, i{"i"};

    HistEqPipeline() {
        Halide::RDom r(0, input.width(), 0, input.height());
        histogram(i) = 0;
        histogram(Halide::cast<int>(input(r.x, r.y))) += 1;
        Halide::RDom b(1, 255);
        cdf(i) = 0;
        cdf(0) = histogram(0);
        cdf(b) = cdf(b - 1) + histogram(b);
        // The remap of one grey level: its cdf scaled to [0, 255] (in 64 bits: the cdf times 255
        // overflows 32 bits from 8.4 megapixels on).
        Halide::Expr pixels = input.width() * input.height();
        Halide::Expr scaled = Halide::cast<int>(Halide::cast<int64_t>(cdf(i)) * 255 / pixels);
        lut(i) = Halide::cast<uint8_t>(Halide::clamp(scaled, 0, 255));
        output(x, y) = lut(Halide::cast<int>(input(x, y)));
    }

    /// The paper's schedule for this directives: the histogram and the cdf are computed
    /// once, at root; the remap (lut inlined: a 64-bit division per pixel) is the output.
    void schedule_default() {
        histogram.compute_root();
        cdf.compute_root();
    }

    /// The histogram and its cdf at root (serial: one pass over the image, a scatter), the
    /// 256-entry remap table at root, and the output a table lookup per pixel in strips of 64
    /// rows in parallel, vectorized by 32 (one AVX2 register of uint8; the lookups are gathers).
    void schedule_cpu() {
        histogram.compute_root();
        cdf.compute_root();
        lut.compute_root();
        Halide::Var yo("yo"), yi("yi");
        output.split(y, yo, yi, 64).parallel(yo).vectorize(x, 32);
    }

    /// GPU schedule (a target with CUDA or OpenCL), everything on the device. The histogram is
    /// a scatter over the whole image, so it is split by rows (rfactor: a schedule-only rewrite
    /// into per-row histograms and their sum): the per-row histograms are zeroed in 64 x 4 tiles
    /// of GPU threads; each row's pixels are counted into that row's own 256 bins by one GPU
    /// thread per row, in blocks of 16 rows (no two threads write the same bin; the last block
    /// is guarded); then one thread per bin sums that bin over the rows. The cumulative sum, a
    /// serial scan of 256 values, runs in one GPU thread; the remap table in blocks of 64 threads;
    /// the output, a table lookup per pixel, in 32 x 8 tiles, edge tiles guarded so any size works.
    void schedule_gpu() {
        Halide::Var u("u"), uo("uo"), ui("ui"), io("io"), ii("ii"), xo("xo"), yo("yo"), xi("xi"),
            yi("yi");
        std::vector<Halide::RVar> r = histogram.rvars(0);
        Halide::Func rows = histogram.update().rfactor(r[1], u);
        rows.compute_root().gpu_tile(i, u, io, uo, ii, ui, 64, 4);
        rows.update().gpu_tile(u, uo, ui, 16, Halide::TailStrategy::GuardWithIf);
        histogram.compute_root().gpu_tile(i, io, ii, 64);
        histogram.update().gpu_tile(i, io, ii, 64);
        cdf.compute_root().gpu_single_thread();
        cdf.update(0).gpu_single_thread();
        cdf.update(1).gpu_single_thread();
        lut.compute_root().gpu_tile(i, io, ii, 64);
        output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
    }
};

#endif
