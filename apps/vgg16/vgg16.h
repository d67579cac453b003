// VGG-16 forward pass (Simonyan and Zisserman 2014, configuration D), the 2016 autoscheduling
// paper's "VGG-16" benchmark: 13 3x3 convolutions with ReLU in five blocks, each block ending in
// a 2x2 max pool, then three fully connected layers (ReLU after the first two) and a softmax.
// The convolutions are apps/conv_layer's ConvReluLayer (definition and schedule). Tensors are
// channel-fastest (c, x, y, n); the weights (vgg16_params.h) are Buffers inside the pipeline.
// Written against Halide's API so the same source builds against Loom (include/compat) and
// Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_VGG16_H
#define LOOM_APPS_VGG16_H

#include "conv_layer/conv_layer.h"
#include "vgg16/vgg16_params.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

struct Vgg16Pipeline {
    /// The images (3, size, size, batch): RGB channel-fastest.
    Halide::ImageParam input{Halide::Float(32), 4, "input"};
    /// The class probabilities (o, n).
    Halide::Func output{"vgg16"};

    /// One fully connected layer: sums(o, n) = bias(o) + sum of weight * input, then ReLU
    /// (except the last).
    struct Dense {
        Halide::Func sums, out;
        Halide::RDom r;
        int outputs;
    };

    Vgg16Pipeline(const vgg16_detail::Config &cfg, const vgg16_detail::Weights &w) : cfg_(cfg) {
        using Halide::Buffer;
        using Halide::Expr;
        using Halide::Func;
        const Halide::Var &c = c_, &x = x_, &y = y_, &n = n_, &o = o_;
        Func current = Func(input);
        int channels = 3, side = cfg.size, l = 0, pools = 0;
        for (int width : cfg.plan()) {
            if (width == 0) {
                Func pool("pool" + std::to_string(++pools));
                pool(c, x, y, n) = Halide::max(
                    Halide::max(current(c, 2 * x, 2 * y, n), current(c, 2 * x + 1, 2 * y, n)),
                    Halide::max(current(c, 2 * x, 2 * y + 1, n),
                                current(c, 2 * x + 1, 2 * y + 1, n)));
                pool_funcs_.push_back({pool, channels, side / 2});
                current = pool;
                side /= 2;
                continue;
            }
            const std::string name = "conv" + std::to_string(l + 1);
            Buffer<float> filter(const_cast<float *>(w.conv_filter[l].data()),
                                 {width, channels, 3, 3}, name + "_w");
            Buffer<float> bias(const_cast<float *>(w.conv_bias[l].data()), {width}, name + "_b");
            buffers_.push_back(filter);
            buffers_.push_back(bias);
            Func ff(name + "_wf"), bf(name + "_bf");
            Halide::Var a("a"), b("b"), d("d"), e("e");
            ff(a, b, d, e) = filter(a, b, d, e);
            bf(a) = bias(a);
            convs_.push_back(std::make_unique<ConvReluLayer>(current, ff, bf, Expr(channels),
                                                             Expr(side), Expr(side), name));
            conv_shapes_.push_back({channels, width, side});
            current = convs_.back()->relu;
            channels = width;
            l++;
        }
        // Fully connected layers; the first reads the last pool's (c, x, y) directly.
        const int s = cfg.final_size();
        for (size_t j = 0; j < w.fc_weight.size(); j++) {
            const std::string name = "fc" + std::to_string(j + 1);
            const int outs = w.fc_out[j];
            Buffer<float> bias(const_cast<float *>(w.fc_bias[j].data()), {outs}, name + "_b");
            buffers_.push_back(bias);
            Dense d{Func(name + "_sums"), Func(name), Halide::RDom(), outs};
            d.sums(o, n) = bias(o);
            if (j == 0) {
                Buffer<float> weight(const_cast<float *>(w.fc_weight[j].data()),
                                     {outs, channels, s, s}, name + "_w");
                buffers_.push_back(weight);
                d.r = Halide::RDom(0, channels, 0, s, 0, s, name + "_r");
                d.sums(o, n) += weight(o, d.r.x, d.r.y, d.r.z) * current(d.r.x, d.r.y, d.r.z, n);
            } else {
                Buffer<float> weight(const_cast<float *>(w.fc_weight[j].data()), {outs, w.fc_in[j]},
                                     name + "_w");
                buffers_.push_back(weight);
                d.r = Halide::RDom(0, w.fc_in[j], name + "_r");
                d.sums(o, n) += weight(o, d.r.x) * current(d.r.x, n);
            }
            const bool last = j + 1 == w.fc_weight.size();
            d.out(o, n) = last ? d.sums(o, n) : Halide::max(d.sums(o, n), 0.0f);
            dense_.push_back(d);
            current = d.out;
        }
        // Softmax over the classes, shifted by the largest logit so exp cannot overflow.
        const int classes = w.fc_out.back();
        Halide::RDom k(0, classes, "classes");
        largest_(n) = Halide::maximum(current(k, n));
        exps_(o, n) = Halide::exp(current(o, n) - largest_(n));
        total_(n) = Halide::sum(exps_(k, n));
        output(o, n) = exps_(o, n) / total_(n);
    }

    /// The least schedule that runs: every layer computed once (compute_root), serial and
    /// scalar. (With no schedule at all each convolution's sums would be recomputed for every
    /// tap of the next layer, exponentially in the depth.)
    void schedule_default() {
        for (auto &conv : convs_) conv->relu.compute_root();
        for (const PoolInfo &p : pool_funcs_) {
            Halide::Func pool = p.pool;
            pool.compute_root();
        }
        for (Dense &d : dense_) d.out.compute_root();
        largest_.compute_root();
        exps_.compute_root();
        total_.compute_root();
    }

    /// Every layer computed once (compute_root). Convolutions: ConvReluLayer::schedule_cpu.
    /// Pools: rows of all images in parallel, channels vectorized. Fully connected layers:
    /// blocks of 32 outputs in parallel, each block's sums for the whole batch in registers
    /// (outputs vectorized and unrolled, batch unrolled) with the reduction outside, so each
    /// weight is read once. Softmax: per image, vectorized over the classes.
    void schedule_cpu() {
        for (size_t i = 0; i < convs_.size(); i++) {
            convs_[i]->relu.compute_root();
            const ConvShape &shape = conv_shapes_[i];
            convs_[i]->schedule_cpu(shape.channels_in, shape.channels_out, shape.side);
        }
        for (const PoolInfo &p : pool_funcs_) {
            Halide::Func pool = p.pool;
            Halide::Var yn("yn");
            pool.compute_root()
                .fuse(y_, n_, yn)
                .parallel(yn)
                .vectorize(c_, std::min(16, p.channels));
        }
        for (Dense &d : dense_) {
            Halide::Var oo("oo"), oi("oi");
            const int lanes = std::min(16, d.outputs);
            const int block = d.outputs >= 2 * lanes ? 2 * lanes : lanes;
            d.out.compute_root()
                .bound(n_, 0, cfg_.batch)
                .split(o_, oo, oi, block)
                .reorder(oi, n_, oo)
                .parallel(oo)
                .vectorize(oi, lanes);
            d.sums.compute_at(d.out, oo).vectorize(o_, lanes).unroll(o_).unroll(n_);
            std::vector<Halide::VarOrRVar> order = {o_, n_};
            for (int k = 0; k < d.r.dimensions(); k++) order.push_back(d.r[k]);
            d.sums.update().reorder(order).vectorize(o_, lanes).unroll(o_).unroll(n_);
        }
        largest_.compute_root();
        exps_.compute_root().vectorize(o_, 8);
        total_.compute_root();
        output.bound(n_, 0, cfg_.batch).vectorize(o_, 8);
    }

private:
    struct PoolInfo {
        Halide::Func pool;
        int channels, side;
    };
    vgg16_detail::Config cfg_;
    Halide::Var c_{"c"}, x_{"x"}, y_{"y"}, n_{"n"}, o_{"o"};
    std::vector<Halide::Buffer<float>> buffers_;
    std::vector<std::unique_ptr<ConvReluLayer>> convs_;
    struct ConvShape {
        int channels_in, channels_out, side;
    };
    std::vector<ConvShape> conv_shapes_; ///< one per conv, in order
    std::vector<PoolInfo> pool_funcs_;
    std::vector<Dense> dense_;
    Halide::Func largest_{"softmax_max"}, exps_{"softmax_exp"}, total_{"softmax_sum"};
};

#endif
