// Dense matrix multiply, the 2016 autoscheduling paper's "matrix multiply" benchmark: C = A B for
// float matrices, as a reduction over k of A(k, y) * B(x, k) (x is the column, y the row: the
// buffers are row-major, x fastest). Written against Halide's API so the same source builds
// against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_MATMUL_H
#define LOOM_APPS_MATMUL_H

struct MatmulPipeline {
    /// The left factor, A(k, y): `A.height()` rows of `A.width()` columns.
    Halide::ImageParam A{Halide::Float(32), 2, "A"};
    /// The right factor, B(x, k): as many rows as A has columns.
    Halide::ImageParam B{Halide::Float(32), 2, "B"};
    /// `prod` holds the running sums (a pure zero, then one update over k); `output` copies them.
    Halide::Func prod{"prod"}, output{"matmul"};
    Halide::Var x{"x"}, y{"y"};
    Halide::RDom k;

    /// Register block of the CPU schedule: kBlockVectors vectors of kLanes floats by kBlockRows
    /// rows, 16 accumulators (half of AVX-512's 32 vector registers, leaving room for the loads
    /// of B and the broadcasts of A).
    static constexpr int kLanes = 16, kBlockVectors = 2, kBlockRows = 8;
    /// Output tile handed to one thread: a whole number of register blocks.
    static constexpr int kTileWidth = 128, kTileHeight = 64;

    MatmulPipeline() {
        k = Halide::RDom(0, A.width(), "k");
        prod(x, y) = 0.0f;
        prod(x, y) += A(k, y) * B(x, k);
        output(x, y) = prod(x, y);
    }

    /// No schedule: `prod` (a reduction cannot be inlined) is computed per output element, its
    /// k loop innermost. Serial, scalar.
    void schedule_default() {}

    /// Output tiles in parallel; in a tile, register blocks of kBlockVectors * kLanes columns by
    /// kBlockRows rows. `prod` is computed per block: its zero fill and its k loop run over the
    /// block with the block's columns vectorized and unrolled and its rows unrolled, k outside
    /// the block, so the accumulators stay in registers for the whole sum; the output then
    /// copies the block out.
    void schedule_cpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), xb("xb"), yb("yb"), xv("xv"), yv("yv"),
            tile("tile");
        const int block_width = kLanes * kBlockVectors;
        output.tile(x, y, xo, yo, xi, yi, kTileWidth, kTileHeight)
            .tile(xi, yi, xb, yb, xv, yv, block_width, kBlockRows)
            .fuse(xo, yo, tile)
            .parallel(tile)
            .vectorize(xv, kLanes)
            .unroll(xv)
            .unroll(yv);
        prod.compute_at(output, xb).vectorize(x, kLanes).unroll(x).unroll(y);
        prod.update().reorder(x, y, k).vectorize(x, kLanes).unroll(x).unroll(y);
    }

    /// GPU schedule (a target with CUDA or OpenCL): one kernel, one output element per GPU
    /// thread in 16 x 16 tiles (adjacent threads read adjacent columns of B); each thread
    /// computes its element's sum (`prod` computed at the thread) with the k loop serial, in
    /// increasing k. Edge tiles are guarded, so any matrix size works.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16, Halide::TailStrategy::GuardWithIf);
        prod.compute_at(output, xi);
    }
};

#endif
