// Build-time generator for the AOT tests: writes static libraries, objects and headers of a few
// pipelines into a folder, for the C and C++ programs of tests/aot (which link them without
// libloom). Usage: aot_generators <out_dir> <a|b|levels|arm|standalone|profiled|torch> (b also
// writes pipeline_lut)
#include "Halide.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// Pipeline A: a 3-D uint16 input, a compute_root stencil (so the input region is larger than
/// the outputs'), two outputs of different types, two scalar params and one unused one, a
/// parallel loop.
Pipeline pipeline_a(ImageParam &input, Param<float> &gain, Param<uint8_t> &offset) {
    Var x("x"), y("y"), c("c");
    Func sum3("sum3"), bright("bright"), scaled("scaled");
    sum3(x, y, c) = cast<uint32_t>(input(x, y, c)) + input(x + 1, y, c) + input(x + 2, y, c);
    sum3.compute_root();
    bright(x, y, c) = cast<uint16_t>(min(sum3(x, y, c) / 3 + offset, 65535));
    scaled(x, y, c) = cast<float>(sum3(x, y + 1, c)) * gain;
    // Parallel over channels: the C program replaces halide_do_par_for and counts its calls.
    bright.parallel(c);
    return Pipeline({bright, scaled});
}

/// Pipeline B: float, one output; its square is an async producer (the runtime's semaphores
/// and fork threads in a plain C program) running ahead of the output's rows.
Func pipeline_b(ImageParam &in, Param<float> &bias) {
    Var x("x"), y("y");
    Func square("square"), out("out");
    square(x, y) = in(x, y) * in(x, y);
    out(x, y) = sqrt(square(x, y) + bias) - in(x, y) * 0.5f;
    square.compute_at(out, y).store_root().async();
    return out;
}

/// Pipeline "lut": a Buffer the user does not list (its contents are compiled into the object)
/// and a bool parameter. Compiled with no_runtime: it uses the runtime another archive carries.
Func pipeline_lut(ImageParam &in, Param<bool> &negate) {
    Buffer<int16_t> lut(std::vector<int>{256}, "lut");
    for (int i = 0; i < 256; i++) lut(i) = (int16_t)(i * i - 1000);
    Var x("x");
    Func f("lookup");
    Expr v = lut(cast<int32_t>(in(x)));
    f(x) = select(negate, -v, v);
    return f;
}

/// The feature-level pipeline: integer and float work LLVM's vectorizers widen, a Tuple output.
Func pipeline_levels(ImageParam &in) {
    Var x("x"), y("y");
    Func f("levels");
    Expr v = cast<float>(in(x, y)) * 0.25f + cast<float>(in(x + 1, y)) * 0.75f;
    f(x, y) = Tuple(cast<uint8_t>(clamp(v, 0.0f, 255.0f)), v * v);
    return f;
}

/// The PyTorch wrapper's pipeline: a float image (x, y, c) read through repeat_edge, a float
/// and an int parameter, and two outputs of different types and dimensions.
Pipeline pipeline_torch(ImageParam &in, Param<float> &gain, Param<int32_t> &offset) {
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func sharp("sharp"), level("level");
    sharp(x, y, c) = clamped(x, y, c) * gain - clamped(x + 1, y, c);
    level(x, y) = cast<int32_t>(floor(clamped(x, y, 0) * 100.0f)) + offset;
    sharp.parallel(c).vectorize(x, 8);
    return Pipeline({sharp, level});
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <out_dir> <a|b|levels|arm|standalone|profiled|torch>\n",
                argv[0]);
        return 1;
    }
    std::string dir = std::string(argv[1]) + "/", which = argv[2];
    Target host = get_host_target();
    // Pipeline A's parameters and its argument list (several outputs compile it).
    ImageParam input(UInt(16), 3, "input");
    Param<float> gain("gain", 1.0f);
    Param<uint8_t> offset("offset");
    Param<int32_t> unused("unused");
    const std::vector<Argument> a_args = {gain, input, offset, unused};
    if (which == "a" || which == "arm") {
        Pipeline p = pipeline_a(input, gain, offset);
        if (which == "a") {
            p.compile_to_static_library(dir + "pipeline_a", a_args, "pipeline_a", host);
        } else {
            Target arm("arm-64-linux");
            p.compile_to_static_library(dir + "pipeline_a_arm", a_args, "pipeline_a_arm", arm);
            p.compile_to_object(dir + "pipeline_a_arm.o", a_args, "pipeline_a_arm", arm);
        }
    } else if (which == "b") {
        ImageParam in(Float(32), 2, "in");
        Param<float> bias("bias");
        pipeline_b(in, bias).compile_to_static_library(dir + "pipeline_b", {in, bias}, "pipeline_b",
                                                       host.with_feature(Target::UserContext));
        ImageParam bytes(UInt(8), 1, "bytes");
        Param<bool> negate("negate");
        pipeline_lut(bytes, negate)
            .compile_to_static_library(dir + "pipeline_lut", {negate, bytes}, "pipeline_lut",
                                       host.with_feature(Target::NoRuntime));
    } else if (which == "standalone") {
        // Pipeline A without a runtime of its own, and the runtime alone, as an object and
        // as a static library.
        pipeline_a(input, gain, offset)
            .compile_to_static_library(dir + "standalone_a", a_args, "standalone_a",
                                       host.with_feature(Target::NoRuntime));
        compile_standalone_runtime(dir + "standalone_runtime.o", host);
        std::map<OutputFileType, std::string> written = compile_standalone_runtime(
            {{OutputFileType::static_library, dir + "standalone_runtime.a"},
             {OutputFileType::c_header, dir + "ignored.h"}},
            host);
        if (written.size() != 1 || !written.count(OutputFileType::static_library)) {
            fprintf(stderr, "compile_standalone_runtime should write only the static library\n");
            return 1;
        }
    } else if (which == "profiled") {
        // Pipeline A with the profiler.
        pipeline_a(input, gain, offset)
            .compile_to_static_library(dir + "profiled_a", a_args, "profiled_a",
                                       host.with_feature(Target::Profile));
    } else if (which == "torch") {
        ImageParam in(Float(32), 3, "in");
        Param<float> torch_gain("gain");
        Param<int32_t> torch_offset("offset");
        pipeline_torch(in, torch_gain, torch_offset)
            .compile_to({{OutputFileType::static_library, dir + "torch_a.a"},
                         {OutputFileType::c_header, dir + "torch_a.h"},
                         {OutputFileType::pytorch_wrapper, dir + "torch_a.pytorch.h"}},
                        {in, torch_gain, torch_offset}, "torch_a", host);
    } else if (which == "levels") {
        ImageParam in(UInt(8), 2, "in");
        Func f = pipeline_levels(in);
        f.compile_to_static_library(dir + "levels_base", {in}, "levels_base",
                                    Target("x86-64-linux"));
        f.compile_to_static_library(dir + "levels_avx2", {in}, "levels_avx2",
                                    Target("x86-64-linux-avx-avx2-fma-f16c-sse41"));
    } else {
        fprintf(stderr, "unknown pipeline %s\n", which.c_str());
        return 1;
    }
    return 0;
}
