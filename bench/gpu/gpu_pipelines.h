// The GPU benchmark and check pipelines, written once against Halide's API so the same source
// builds against Loom (include/compat) and Halide 21 (bench/gpu.sh). Each has a GPU schedule
// (the one both libraries are timed with) and a CPU schedule whose output the GPU's is checked
// against. Include "Halide.h" first.
#ifndef LOOM_BENCH_GPU_PIPELINES_H
#define LOOM_BENCH_GPU_PIPELINES_H

#include <functional>
#include <map>
#include <string>
#include <vector>

/// One instance of a pipeline's algorithm: its inputs (in argument order, each with the size
/// the benchmark gives it), its output and the stages schedules refer to by name.
struct GpuPipelineInstance {
    std::vector<Halide::ImageParam> inputs;
    std::vector<std::vector<int>> input_sizes;
    std::vector<int> output_size;
    Halide::Func output;
    std::map<std::string, Halide::Func> stages;
    std::vector<Halide::RDom> rdoms;
};

struct GpuPipeline {
    std::string name;
    std::function<GpuPipelineInstance()> build;
    std::function<void(GpuPipelineInstance &)> schedule_gpu, schedule_cpu;
    /// Largest relative difference allowed between the GPU's and the CPU's values (0: equal).
    double tolerance;
};

inline std::vector<GpuPipeline> gpu_pipelines() {
    using namespace Halide;
    static Var x("x"), y("y"), xi("xi"), yi("yi"), xo("xo"), yo("yo");
    std::vector<GpuPipeline> p;

    // Memory-bound pointwise: one read and one write per pixel.
    p.push_back({"brighten",
                 [] {
                     GpuPipelineInstance s;
                     s.inputs = {ImageParam(UInt(8), 2, "input")};
                     s.input_sizes = {{4096, 4096}};
                     s.output_size = {4096, 4096};
                     s.output = Func("brighten");
                     s.output(x, y) =
                         cast<uint8_t>(min(cast<int>(s.inputs[0](x, y)) * 3 / 2 + 7, 255));
                     return s;
                 },
                 [](GpuPipelineInstance &s) { s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8); },
                 [](GpuPipelineInstance &s) { s.output.parallel(y).vectorize(x, 16); }, 0});

    // The 2012 paper's blur: two kernels, blur_x only in device memory.
    auto blur = [] {
        GpuPipelineInstance s;
        s.inputs = {ImageParam(UInt(16), 2, "input")};
        s.input_sizes = {{4096, 4096}};
        s.output_size = {4096, 4096};
        Func clamped = BoundaryConditions::repeat_edge(s.inputs[0]);
        Func blur_x("blur_x"), blur_y("blur_y");
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
        s.output = blur_y;
        s.stages["blur_x"] = blur_x;
        return s;
    };
    auto blur_cpu = [](GpuPipelineInstance &s) {
        s.output.parallel(y).vectorize(x, 16);
        s.stages["blur_x"].compute_at(s.output, y).vectorize(x, 16);
    };
    p.push_back({"blur_root", blur,
                 [](GpuPipelineInstance &s) {
                     s.stages["blur_x"].compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
                     s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
                 },
                 blur_cpu, 0});
    // Halide's GPU blur: blur_x per block in shared memory (a 32x10 region for a 32x8 tile),
    // computed by the block's threads, then blur_y after a barrier.
    p.push_back({"blur_shared", blur,
                 [](GpuPipelineInstance &s) {
                     s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
                     s.stages["blur_x"].compute_at(s.output, xo).gpu_threads(x, y);
                 },
                 blur_cpu, 0});
    // blur_x recomputed inline by each thread (3x the arithmetic, no intermediate).
    p.push_back({"blur_inline", blur,
                 [](GpuPipelineInstance &s) { s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8); },
                 blur_cpu, 0});

    // A 5x5 float stencil with a constant boundary (compute-light, many reads).
    p.push_back({"box5x5",
                 [] {
                     GpuPipelineInstance s;
                     s.inputs = {ImageParam(Float(32), 2, "input")};
                     s.input_sizes = {{4096, 4096}};
                     s.output_size = {4096, 4096};
                     Func c = BoundaryConditions::constant_exterior(s.inputs[0], 0.0f);
                     RDom r(-2, 5, -2, 5, "r");
                     s.output = Func("box");
                     s.output(x, y) = sum(c(x + r.x, y + r.y)) * (1.0f / 25);
                     return s;
                 },
                 [](GpuPipelineInstance &s) { s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8); },
                 [](GpuPipelineInstance &s) { s.output.parallel(y).vectorize(x, 8); }, 1e-5});

    // Transcendentals per pixel (compute-bound).
    p.push_back({"math",
                 [] {
                     GpuPipelineInstance s;
                     s.inputs = {ImageParam(Float(32), 2, "input")};
                     s.input_sizes = {{4096, 4096}};
                     s.output_size = {4096, 4096};
                     Expr v = s.inputs[0](x, y);
                     s.output = Func("math");
                     s.output(x, y) = sqrt(v) + exp(-v) + sin(v) * cos(v) + log(v + 1.0f);
                     return s;
                 },
                 [](GpuPipelineInstance &s) { s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8); },
                 [](GpuPipelineInstance &s) { s.output.parallel(y).vectorize(x, 8); }, 1e-4});

    // Float matrix multiply, each thread a 4x1 column of outputs with the k loop inside.
    p.push_back({"matmul",
                 [] {
                     GpuPipelineInstance s;
                     const int n = 1024;
                     s.inputs = {ImageParam(Float(32), 2, "A"), ImageParam(Float(32), 2, "B")};
                     s.input_sizes = {{n, n}, {n, n}};
                     s.output_size = {n, n};
                     RDom k(0, n, "k");
                     s.output = Func("matmul");
                     s.output(x, y) = 0.0f;
                     s.output(x, y) += s.inputs[0](k, y) * s.inputs[1](x, k);
                     s.rdoms = {k};
                     return s;
                 },
                 [](GpuPipelineInstance &s) {
                     Var yii("yii");
                     s.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
                     s.output.update()
                         .split(y, y, yii, 4)
                         .gpu_tile(x, y, xo, yo, xi, yi, 32, 8)
                         .reorder(yii, s.rdoms[0].x, xi, yi, xo, yo)
                         .unroll(yii);
                 },
                 [](GpuPipelineInstance &s) {
                     s.output.parallel(y).vectorize(x, 8);
                     s.output.update().parallel(y).vectorize(x, 8);
                 },
                 1e-3});
    return p;
}

#endif
