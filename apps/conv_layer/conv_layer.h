// A convolution layer with ReLU, the 2016 autoscheduling paper's "convolution layer" benchmark:
// out(co, x, y, n) = max(0, bias(co) + sum over ci, dx, dy of filter(co, ci, dx, dy) *
// in(ci, x + dx - 1, y + dy - 1, n)), a 3 x 3 filter with zero padding (the output has the
// input's width and height). Tensors are channel-fastest: dimension 0 is the channel, then x,
// y, and the batch (NHWC). ConvReluLayer is the layer on any input Func, shared with apps/vgg16;
// ConvLayerPipeline is the benchmark on ImageParams. Written against Halide's API so the same
// source builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_CONV_LAYER_H
#define LOOM_APPS_CONV_LAYER_H

#include <algorithm>
#include <numeric>
#include <string>

/// One 3 x 3 convolution + bias + ReLU layer over a Func (c, x, y, n) of `channels_in` channels
/// and width x height pixels; `filter(co, ci, dx, dy)` and `bias(co)` are Funcs too.
struct ConvReluLayer {
    Halide::Func padded, conv, relu;
    Halide::Var c{"c"}, x{"x"}, y{"y"}, n{"n"};
    /// r.x, r.y: the tap (dx, dy); r.z: the input channel.
    Halide::RDom r;

    ConvReluLayer(Halide::Func in, Halide::Func filter, Halide::Func bias, Halide::Expr channels_in,
                  Halide::Expr width, Halide::Expr height, const std::string &name)
        : padded(name + "_padded"), conv(name + "_conv"), relu(name) {
        using Halide::clamp;
        using Halide::select;
        // Zero outside the image; the clamp keeps the read itself inside.
        padded(c, x, y, n) =
            select(x >= 0 && x < width && y >= 0 && y < height,
                   in(c, clamp(x, 0, width - 1), clamp(y, 0, height - 1), n), 0.0f);
        r = Halide::RDom(0, 3, 0, 3, 0, channels_in, name + "_r");
        conv(c, x, y, n) = bias(c);
        conv(c, x, y, n) += filter(c, r.z, r.x, r.y) * padded(r.z, x + r.x - 1, y + r.y - 1, n);
        relu(c, x, y, n) = Halide::max(conv(c, x, y, n), 0.0f);
    }

    /// The CPU schedule for `channels_in` input and `channels_out` output channels and an image
    /// at least `width` pixels wide: rows of every image in parallel (y and the batch fused); in
    /// a row, register blocks of up to 2 vectors of 16 output channels by up to 8 pixels. The
    /// block's sums (`conv`) start from the bias and run the reduction (input channel innermost,
    /// then dx, dy) outside the block's unrolled pixels and vectors, so the accumulators stay in
    /// registers, as in apps/matmul; ReLU writes the block out. The zero-padded input rows a
    /// row of output reads (3 rows) are copied per row, in vectors of input channels: as a
    /// scalar copy that loop was 10-15% of the layer's time, bound by the latency of its loads.
    /// Returns the vector width used for the output channels.
    int schedule_cpu(int channels_in, int channels_out, int width) {
        const int lanes = std::min(16, channels_out);
        const int vectors = channels_out >= 2 * lanes ? 2 : 1;
        const int block_x = std::min(8, width);
        Halide::Var co("co"), ci("ci"), xo("xo"), xi("xi"), yn("yn");
        relu.split(c, co, ci, lanes * vectors)
            .split(x, xo, xi, block_x)
            .reorder(ci, xi, co, xo, y, n)
            .fuse(y, n, yn)
            .parallel(yn)
            .vectorize(ci, lanes)
            .unroll(ci)
            .unroll(xi);
        conv.compute_at(relu, co).vectorize(c, lanes).unroll(c).unroll(x);
        conv.update().reorder(c, x, r.z, r.x, r.y).vectorize(c, lanes).unroll(c).unroll(x);
        padded.compute_at(relu, yn);
        // Whole vectors only: a vector split that rounded the channels up would read channels
        // the input does not have. (VGG-16's first layer, 3 channels, stays scalar.)
        const int lanes_in = std::gcd(channels_in, 16);
        if (lanes_in >= 4) padded.vectorize(c, lanes_in);
        return lanes;
    }

    /// The GPU schedule (a target with CUDA or OpenCL): one kernel, one output element per GPU
    /// thread, blocks of 32 output channels (adjacent threads, adjacent addresses) by 4 pixels
    /// of a row, the rows of every image (y and the batch fused) as a third block dimension.
    /// Each thread computes its element's sum (compute_at the thread) from the bias, the
    /// reduction a serial loop in the reference's order (input channel innermost, then dx, dy),
    /// and applies the ReLU; the zero padding is inlined. Edge blocks are guarded, so any
    /// channel count and width work.
    void schedule_gpu() {
        Halide::Var co("co"), ci("ci"), xo("xo"), xi("xi"), yn("yn");
        relu.fuse(y, n, yn).gpu_tile(c, x, co, xo, ci, xi, 32, 4,
                                     Halide::TailStrategy::GuardWithIf);
        relu.gpu_blocks(yn);
        conv.compute_at(relu, ci);
        conv.update().reorder(r.z, r.x, r.y);
    }
};

struct ConvLayerPipeline {
    /// The input (c, x, y, n): channel-fastest.
    Halide::ImageParam input{Halide::Float(32), 4, "input"};
    /// The filter (co, ci, dx, dy): output channel fastest, taps at dx, dy in [0, 3) meaning
    /// offsets dx - 1, dy - 1.
    Halide::ImageParam filter{Halide::Float(32), 4, "filter"};
    /// One bias per output channel.
    Halide::ImageParam bias{Halide::Float(32), 1, "bias"};
    ConvReluLayer layer;
    Halide::Func &output;

    ConvLayerPipeline()
        : layer(Halide::Func(input), Halide::Func(filter), Halide::Func(bias),
                input.dim(0).extent(), input.dim(1).extent(), input.dim(2).extent(), "conv_layer"),
          output(layer.relu) {}

    /// The backward pass's input: the adjoint of the output (co, x, y, n), e.g. d loss / d out.
    Halide::ImageParam d_output{Halide::Float(32), 4, "d_output"};
    /// The backward pass (define_backward): the gradients with respect to the input, the filter
    /// and the bias, of the shapes of those.
    Halide::Func d_input, d_filter, d_bias;

    /// Defines d_input, d_filter and d_bias by propagate_adjoints from the output over its
    /// whole shape (the filter's output channels by the input's pixels and batch), given
    /// d_output. The ReLU passes the adjoint where the sum is positive; the zero padding drops
    /// what falls outside the image.
    void define_backward() {
        const Halide::Region bounds = {{0, filter.dim(0).extent()},
                                       {0, input.dim(1).extent()},
                                       {0, input.dim(2).extent()},
                                       {0, input.dim(3).extent()}};
        Halide::Derivative d = Halide::propagate_adjoints(output, Halide::Func(d_output), bounds);
        d_input = d(input.name());
        d_filter = d(filter.name());
        d_bias = d(bias.name());
    }

    /// No schedule: the padding inlined, the sums computed per output element.
    void schedule_default() {}

    /// ConvReluLayer::schedule_cpu for `channels_in` input and `channels_out` output channels
    /// and images at least `width` pixels wide (the split factors are compile-time constants).
    void schedule_cpu(int channels_in, int channels_out, int width) {
        layer.schedule_cpu(channels_in, channels_out, width);
    }

    /// ConvReluLayer::schedule_gpu (any sizes).
    void schedule_gpu() { layer.schedule_gpu(); }
};

#endif
