// The C back end's code against the LLVM back end's, in one process: each pipeline is JIT-
// compiled and also written with compile_to_c, built by a C compiler into a shared object
// (-Bsymbolic, so it uses its own C runtime and thread pool) and loaded; both run on the same
// buffers, alternating, and the outputs are compared first.
// Usage: c_backend_bench [runs] [compiler flags...]
//   default: 15 runs; configurations gcc and clang, -O3 -march=native, generic and scalar
//   mappings. Prints one line per pipeline and configuration: the medians and their ratio.
#include <loom/loom.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace loom;

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Case {
    std::string name;
    Pipeline pipeline;
    std::vector<Argument> args;
    std::vector<Buffer<>> inputs; ///< in argument order
    Buffer<> output;
};

Case blur_case() {
    // The blur app's schedule (Halide 2012, Figure 1).
    ImageParam input(UInt(16), 2, "input");
    Func bx("blur_x"), by("blur_y");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    bx(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
    by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
    by.split(y, y, yi, 32).parallel(y).vectorize(x, 16);
    bx.store_at(by, y).compute_at(by, yi).vectorize(x, 16);
    Buffer<uint16_t> in(2050, 2050), out(2048, 2048);
    in.for_each_element([&](int i, int j) { in(i, j) = (uint16_t)((i * 7 + j * 13) ^ (i * j)); });
    input.set(in);
    return {"blur 2048x2048 u16", Pipeline(by), {input}, {in}, out};
}

Case unsharp_case() {
    ImageParam input(Float(32), 2, "input");
    Func gx("gx"), gy("gy"), sharp("sharp");
    Var x("x"), y("y"), yi("yi");
    Func c = BoundaryConditions::repeat_edge(input);
    gx(x, y) =
        (c(x - 2, y) + 4.0f * c(x - 1, y) + 6.0f * c(x, y) + 4.0f * c(x + 1, y) + c(x + 2, y)) /
        16.0f;
    gy(x, y) = (gx(x, y - 2) + 4.0f * gx(x, y - 1) + 6.0f * gx(x, y) + 4.0f * gx(x, y + 1) +
                gx(x, y + 2)) /
               16.0f;
    sharp(x, y) = clamp(2.0f * c(x, y) - gy(x, y), 0.0f, 1.0f);
    sharp.split(y, y, yi, 16).parallel(y).vectorize(x, 8);
    gx.compute_at(sharp, y).vectorize(x, 8);
    Buffer<float> in(2048, 2048), out(2048, 2048);
    in.for_each_element([&](int i, int j) { in(i, j) = (float)((i * 31 + j * 17) % 255) / 255; });
    input.set(in);
    return {"unsharp 2048x2048 f32", Pipeline(sharp), {input}, {in}, out};
}

Case brighten_case() {
    ImageParam input(UInt(8), 3, "input");
    Func f("brighten");
    Var x("x"), y("y"), c("c");
    f(x, y, c) = cast<uint8_t>(min(cast<float>(input(x, y, c)) * 1.5f, 255.0f));
    f.vectorize(x, 16).parallel(y);
    Buffer<uint8_t> in(1920, 1080, 3), out(1920, 1080, 3);
    in.for_each_element([&](int i, int j, int k) { in(i, j, k) = (uint8_t)(i + j * 3 + k); });
    input.set(in);
    return {"brighten 1920x1080x3 u8", Pipeline(f), {input}, {in}, out};
}

Case matmul_case() {
    ImageParam a(Float(32), 2, "A"), b(Float(32), 2, "B");
    Func prod("prod"), out("matmul");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, 512);
    prod(x, y) = 0.0f;
    prod(x, y) += a(k, y) * b(x, k);
    out(x, y) = prod(x, y);
    out.tile(x, y, xi, yi, 16, 4).vectorize(xi, 8).unroll(yi).parallel(y);
    prod.compute_at(out, x).vectorize(x, 8).unroll(y);
    prod.update().reorder(x, y, k).vectorize(x, 8).unroll(y);
    Buffer<float> in_a(512, 512), in_b(512, 512), o(512, 512);
    in_a.for_each_element([&](int i, int j) { in_a(i, j) = (float)((i + 2 * j) % 7) - 3; });
    in_b.for_each_element([&](int i, int j) { in_b(i, j) = (float)((3 * i + j) % 5) - 2; });
    a.set(in_a);
    b.set(in_b);
    return {"matmul 512 f32", Pipeline(out), {a, b}, {in_a, in_b}, o};
}

/// "" when a and b hold the same bytes; otherwise, for float32 outputs, the largest relative
/// difference (the JIT reassociates float math under its fast-math flags, C at -O3 does not),
/// and "DIFFERS" for integers.
std::string difference(const Buffer<> &a, const Buffer<> &b) {
    const halide_buffer_t *x = a.raw_buffer(), *y = b.raw_buffer();
    size_t n = x->size_in_bytes();
    if (std::equal(x->host, x->host + n, y->host)) return "";
    if (!(a.type() == Float(32))) return "  DIFFERS";
    const float *p = (const float *)x->host, *q = (const float *)y->host;
    double worst = 0;
    for (size_t i = 0; i < n / 4; i++) {
        worst =
            std::max(worst, std::abs((double)p[i] - q[i]) / std::max(1e-6, std::abs((double)p[i])));
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "  (floats within %.1e relative)", worst);
    return buf;
}

} // namespace

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::atoi(argv[1]) : 15;
    std::vector<std::pair<std::string, std::string>> configs;
    for (const char *cc : {"gcc", "clang"}) {
        if (std::system((std::string("command -v ") + cc + " > /dev/null").c_str()) != 0) continue;
        for (const char *m : {"GENERIC", "AVX2", "SCALAR"}) {
            if (std::string(m) == "AVX2" &&
                !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
                continue;
            }
            configs.push_back(
                {std::string(cc) + " " + m, std::string(cc) +
                                                " -std=c99 -O3 -march=native -Wno-psabi "
                                                "-DLOOM_SIMD_" +
                                                m});
        }
    }
    if (__builtin_cpu_supports("sse4.1")) {
        // x86 without AVX: the sse41 mapping against the generic one for the same ISA.
        for (const char *m : {"GENERIC", "SSE41"}) {
            configs.push_back(
                {std::string("gcc ") + m + " sse4.1",
                 std::string("gcc -std=c99 -O3 -msse4.1 -Wno-psabi -DLOOM_SIMD_") + m});
        }
    }
    char dir_template[] = "/tmp/loom_c_bench_XXXXXX";
    std::string dir = mkdtemp(dir_template);
    std::printf("C back end / LLVM back end (JIT), medians of %d alternating runs\n", runs);
    for (const std::function<Case()> &make :
         std::vector<std::function<Case()>>{blur_case, unsharp_case, brighten_case, matmul_case}) {
        Case c = make();
        std::vector<void *> arg_ptrs;
        for (Buffer<> &b : c.inputs) arg_ptrs.push_back(b.raw_buffer());
        Buffer<> jit_out = c.output.copy(), c_out = c.output.copy();
        c.pipeline.realize(jit_out); // compiles
        for (const auto &[config, command] : configs) {
            std::string src = dir + "/p.c", so = dir + "/p.so";
            c.pipeline.compile_to_c(src, c.args, "p");
            std::string cmd =
                command + " -fPIC -shared -Wl,-Bsymbolic -o " + so + " " + src + " -lm -lpthread";
            if (std::system(cmd.c_str()) != 0) {
                std::printf("%s: %s failed\n", c.name.c_str(), cmd.c_str());
                return 1;
            }
            void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
            auto argv_fn = (int (*)(void **))dlsym(h, "p_argv");
            std::vector<void *> a = arg_ptrs;
            a.push_back(c_out.raw_buffer());
            std::vector<double> c_ms, jit_ms;
            for (int r = 0; r < runs + 1; r++) {
                for (int k = 0; k < 2; k++) {
                    bool use_c = (k == 0) == (r % 2 == 0);
                    double t0 = now_ms();
                    if (use_c) {
                        if (argv_fn(a.data()) != 0) return 1;
                    } else {
                        c.pipeline.realize(jit_out);
                    }
                    double t = now_ms() - t0;
                    if (r > 0) (use_c ? c_ms : jit_ms).push_back(t);
                }
            }
            std::printf("%-24s %-18s C %8.2f ms  JIT %8.2f ms  ratio %.2f%s\n", c.name.c_str(),
                        config.c_str(), median(c_ms), median(jit_ms), median(c_ms) / median(jit_ms),
                        difference(jit_out, c_out).c_str());
            auto shutdown = (void (*)())dlsym(h, "halide_shutdown_thread_pool");
            shutdown();
            dlclose(h);
        }
    }
    std::string rm = "rm -rf " + dir;
    return std::system(rm.c_str());
}
