// Histogram equalization as in the 2012 Halide paper's Figure 3: a histogram of the uint8 input
// by reduction, its cumulative distribution by a scan, and a remap of every pixel through the
// scaled cdf. Written against Halide's API so it builds against Loom and Halide 21 alike.
// Include "Halide.h" first.
#ifndef LOOM_APPS_HIST_EQ_H
#define LOOM_APPS_HIST_EQ_H

struct HistEqPipeline {
    Halide::ImageParam input{Halide::UInt(8), 2, "input"};
    Halide::Func histogram{"histogram"}, cdf{"cdf"}, output{"equalized"};
    Halide::Var x{"x"}, y{"y"}, i{"i"};

    HistEqPipeline() {
        Halide::RDom r(0, input.width(), 0, input.height());
        histogram(i) = 0;
        histogram(Halide::cast<int>(input(r.x, r.y))) += 1;
        Halide::RDom b(1, 255);
        cdf(i) = 0;
        cdf(0) = histogram(0);
        cdf(b) = cdf(b - 1) + histogram(b);
        Halide::Expr pixels = input.width() * input.height();
        Halide::Expr scaled = Halide::cast<int>(
            Halide::cast<int64_t>(cdf(Halide::cast<int>(input(x, y)))) * 255 / pixels);
        output(x, y) = Halide::cast<uint8_t>(Halide::clamp(scaled, 0, 255));
    }

    /// The paper's schedule for this directives: the histogram and the cdf are computed
    /// once, at root; the remap is the output.
    void schedule_default() {
        histogram.compute_root();
        cdf.compute_root();
    }
};

#endif
