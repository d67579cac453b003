// Writes, for run_testbenches.sh, a set of pipelines ahead of time with their testbenches
// (compile_to_testbench): for each pipeline <name>, <name>.c (the C back end), <name>.h, the
// LLVM back end's <name>_host.a and <name>_arm64.a (arm-64-linux), and <name>_tb.c. Also
// blur_wrong.c: a pipeline with blur's name and signature that computes something else, which
// blur's testbench must reject.
#include <loom/loom.h>
#include <loom/testbench.h>

#include <cstdio>
#include <functional>
#include <string>

using namespace loom;

namespace {

std::string dir;

void write(const std::string &name, Func out, const std::vector<Argument> &args,
           const std::vector<int> &sizes, double tolerance = 1e-4) {
    Pipeline p(out);
    p.compile_to_c(dir + "/" + name + ".c", args, name, get_host_target());
    p.compile_to_header(dir + "/" + name + ".h", args, name, get_host_target());
    p.compile_to_static_library(dir + "/" + name + "_host", args, name, get_host_target());
    p.compile_to_static_library(dir + "/" + name + "_arm64", args, name, Target("arm-64-linux"));
    compile_to_testbench(p, dir + "/" + name + "_tb.c", args, name, sizes, get_host_target(),
                         tolerance);
}

Func blur(ImageParam input, Param<int> offset, int bias) {
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func bx("blur_x"), by("blur_y"), out("blur");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    bx(x, y) = cast<uint16_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y);
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 9;
    out(x, y) = cast<uint8_t>(clamp(cast<int>(by(x, y)) + offset + bias, 0, 255));
    out.tile(x, y, xo, yo, xi, yi, 32, 8).vectorize(xi, 16).parallel(yo);
    bx.compute_at(out, xo).vectorize(x, 16);
    return out;
}

/// Halide's integer semantics on one type, vectorized.
Func integer_ops(Type t, ImageParam a, ImageParam b) {
    Var x("x");
    Expr va = a(x), vb = b(x);
    Expr shift = cast(t, vb % (t.bits() + 3)) - 1;
    Expr e = va / vb + va % vb * 3 - min(va, vb) + max(va, vb) / 2;
    e = e + (va << shift) + (va >> shift) + absd(va, vb) / 2;
    e = e + saturating_add(va, vb) - saturating_sub(va, vb) + (va >> 2) + va / 7;
    e = e + select(va < vb, va ^ vb, va & ~vb) + halving_add(va, vb);
    e = e + rounding_halving_add(va, vb) + saturating_cast(t, cast<float>(va) * 1.5f);
    Func f("int_ops");
    f(x) = e;
    f.vectorize(x, 16);
    return f;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    {
        ImageParam input(UInt(8), 2, "input");
        Param<int> offset("offset", 5);
        write("blur", blur(input, offset, 0), {input, offset}, {97, 41});
        // Same name and signature, different values: blur's testbench must fail against it.
        ImageParam input2(UInt(8), 2, "input");
        Param<int> offset2("offset", 5);
        Pipeline(blur(input2, offset2, 1))
            .compile_to_c(dir + "/blur_wrong.c", {input2, offset2}, "blur", get_host_target());
    }
    for (Type t : {UInt(8), Int(16), Int(32), UInt(64)}) {
        ImageParam a(t, 1, "a"), b(t, 1, "b");
        std::string name = "int_ops_" + type_to_string(t);
        write(name, integer_ops(t, a, b), {a, b}, {100});
    }
    {
        ImageParam input(Float(32), 2, "input");
        Var x("x"), y("y");
        Expr v = input(x, y) * 10.0f;
        Func f("float_math");
        f(x, y) = sqrt(abs(v)) + exp(v / 5.0f) + sin(v) * cos(v) + floor(v / 3) + round(v / 3) +
                  log(abs(v) + 1.0f) + atan2(v, 3.0f) + select(v > 0, v * v, -v);
        f.vectorize(x, 8).parallel(y);
        write("float_math", f, {input}, {64, 16});
    }
    {
        ImageParam input(UInt(8), 2, "input");
        Var x("x");
        RDom r(0, 64, 0, 24);
        Func hist("hist"), argmax("argmax"), out("reductions");
        hist(x) = 0;
        hist(cast<int>(input(r.x, r.y)) / 8) += 1;
        RDom k(0, 32);
        argmax() = Tuple(0, hist(0));
        argmax() = Tuple(select(hist(k) > argmax()[1], k, argmax()[0]), max(hist(k), argmax()[1]));
        out(x) = Tuple(hist(x) * 100 + argmax()[0], cast<float>(hist(x)) / argmax()[1]);
        hist.compute_root();
        argmax.compute_root();
        write("reductions", out, {input}, {32});
    }
    return 0;
}
