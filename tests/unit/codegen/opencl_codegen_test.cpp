// The OpenCL C back end (codegen/opencl): hand-built kernels whose source must compile with
// clang's OpenCL front end (skipped without clang), structural checks of the signatures, the
// refusals, and, where an OpenCL device is present (PoCL), values compared with the CPU back end
// running the same IR.
#include "codegen/opencl/codegen_opencl.h"
#include "codegen_test_util.h"

#include <loom/error.h>
#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

using Arg = LoweredKernel::Arg;

Arg buffer_arg(const std::string &name, Type t, bool read, bool written) {
    Arg a;
    a.name = name;
    a.type = t;
    a.is_buffer = true;
    a.read = read;
    a.written = written;
    return a;
}

Arg scalar_arg(const std::string &name, Type t) {
    Arg a;
    a.name = name;
    a.type = t;
    return a;
}

LoweredKernel kernel(const std::string &name, std::vector<Arg> args, Stmt body) {
    LoweredKernel k;
    k.name = name;
    k.api = DeviceAPI::OpenCL;
    k.args = std::move(args);
    k.body = std::move(body);
    return k;
}

std::string source_of(const std::vector<LoweredKernel> &ks, Target t = Target("host")) {
    return codegen_opencl_source(ks, t);
}

bool have_clang() { return std::system("command -v clang > /dev/null 2>&1") == 0; }

/// Runs clang's OpenCL C 1.2 front end on src; returns its diagnostics ("" when clean) and
/// sets *ok.
std::string clang_check(const std::string &src, bool *ok) {
    char path[] = "/tmp/loom_opencl_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        *ok = false;
        return "mkstemp failed";
    }
    close(fd);
    std::string cl = std::string(path) + ".cl", log = std::string(path) + ".log";
    {
        std::ofstream f(cl);
        f << src;
    }
    std::string cmd = "clang -x cl -cl-std=CL1.2 -fsyntax-only -Xclang -finclude-default-header " +
                      cl + " > " + log + " 2>&1";
    *ok = std::system(cmd.c_str()) == 0;
    std::ifstream l(log);
    std::stringstream diag;
    diag << l.rdbuf();
    std::remove(cl.c_str());
    std::remove(log.c_str());
    std::remove(path);
    return diag.str();
}

#define EXPECT_COMPILES(src)                                                                       \
    do {                                                                                           \
        if (!have_clang()) GTEST_SKIP() << "clang is not installed: OpenCL C not checked";         \
        bool ok_;                                                                                  \
        std::string diag_ = clang_check(src, &ok_);                                                \
        EXPECT_TRUE(ok_) << diag_ << "\n" << src;                                                  \
        EXPECT_EQ(diag_, "") << src;                                                               \
    } while (0)

// x = __block_id_x * 16 + __thread_id_x, y likewise.
Stmt with_xy(const Stmt &body) {
    Expr x = var("__block_id_x") * 16 + var("__thread_id_x");
    Expr y = var("__block_id_y") * 16 + var("__thread_id_y");
    return LetStmt::make("f.s0.y", y, LetStmt::make("f.s0.x", x, body));
}

TEST(OpenCLCodegen, TwoDimensionalKernel) {
    Expr x = var("f.s0.x"), y = var("f.s0.y");
    Expr v = load(Float(32), "input", x + y * var("input.stride.1")) * 2.0f + 1.0f;
    Stmt body = with_xy(store("output", v, x + y * var("output.stride.1")));
    LoweredKernel k = kernel(
        "f_s0_kernel",
        {buffer_arg("input", Float(32), true, false), buffer_arg("output", Float(32), false, true),
         scalar_arg("input.stride.1", Int(32)), scalar_arg("output.stride.1", Int(32))},
        body);
    std::string src = source_of({k});
    EXPECT_NE(src.find("__kernel void f_s0_kernel(__global const float *restrict input,\n"
                       "    __global float *restrict output,\n"
                       "    int input_stride_1,\n"
                       "    int output_stride_1) {"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("(int)get_group_id(0)"), std::string::npos) << src;
    EXPECT_NE(src.find("(int)get_local_id(1)"), std::string::npos) << src;
    EXPECT_EQ(src.find("get_group_id(2)"), std::string::npos) << src;
    EXPECT_EQ(src.find("__loom_shared"), std::string::npos) << src;
    EXPECT_EQ(src.find("cl_khr_fp64"), std::string::npos) << src;
    EXPECT_EQ(src.find("LOOM_STRICT_FLOAT"), std::string::npos) << src;
    // Deterministic.
    EXPECT_EQ(src, source_of({k}));
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, SerialLoopAndAllocate) {
    Expr x = var("f.s0.x");
    Expr i = var("f.s0.r.i"), j = var("f.s0.r.j");
    Stmt fill = loop("f.s0.r.i", 0, 8, store("tmp", load(Int(32), "in", x + i) * i, i));
    Expr sum_value = load(Int(32), "out", x) + load(Int(32), "tmp", 7 - j) / 3 + (j % 5);
    Stmt sum =
        For::make("f.s0.r.j", 0, 8, ForType::Unrolled, DeviceAPI::None, store("out", sum_value, x));
    Stmt body = Block::make({store("out", 0, x), fill, sum});
    body = Allocate::make("tmp", Int(32), MemoryType::Auto, {2, 4}, const_true(), body);
    body = LetStmt::make("f.s0.x", var("__block_id_x") * 64 + var("__thread_id_x"), body);
    LoweredKernel k = kernel(
        "loop_kernel",
        {buffer_arg("in", Int(32), true, false), buffer_arg("out", Int(32), true, true)}, body);
    std::string src = source_of({k});
    EXPECT_NE(src.find("int tmp[8];"), std::string::npos) << src;
    EXPECT_NE(src.find("for (int f_s0_r_i = 0; f_s0_r_i < "), std::string::npos) << src;
    EXPECT_NE(src.find("__global int *restrict out"), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, VectorLoadsAndStores) {
    Expr x = var("f.s0.x.v");
    std::vector<Stmt> stmts;
    for (int lanes : {4, 8}) {
        Expr dense = load(Float(32, lanes), "in", Ramp::make(x * lanes, 1, lanes));
        Expr strided = load(Float(32, lanes), "in", Ramp::make(x * lanes, 2, lanes));
        Expr v = dense * Broadcast::make(var("scale", Float(32)), lanes) + strided;
        stmts.push_back(store("out", v, Ramp::make(x * lanes + 64, 1, lanes)));
    }
    // A gather, a predicated load and store, a shuffle and a reduction.
    Expr idx = load(Int(32, 4), "idx", Ramp::make(x * 4, 1, 4));
    Expr gathered = load(Float(32, 4), "in", idx);
    Expr pred = Ramp::make(x * 4, 1, 4) < Broadcast::make(var("n"), 4);
    Expr masked = Load::make(Float(32, 4), "in", Ramp::make(x * 4, 1, 4), pred, Parameter(),
                             ModulusRemainder());
    Expr both = Shuffle::make_interleave({gathered, masked});
    stmts.push_back(Store::make("out", both, Ramp::make(x * 8 + 128, 1, 8), Parameter(),
                                const_true(8), ModulusRemainder()));
    stmts.push_back(Store::make("out", masked, Ramp::make(x * 4 + 256, 1, 4), Parameter(), pred,
                                ModulusRemainder()));
    Expr total = VectorReduce::make(VectorReduce::Add, both, 2);
    stmts.push_back(store("out", total, Ramp::make(x * 2 + 512, 1, 2)));
    Expr any = VectorReduce::make(VectorReduce::Or, pred, 1);
    stmts.push_back(store("out", select(any, 1.0f, 0.0f), x + 600));
    Stmt body = LetStmt::make("f.s0.x.v", var("__block_id_x") * 8 + var("__thread_id_x"),
                              Block::make(stmts));
    LoweredKernel k =
        kernel("vector_kernel",
               {buffer_arg("in", Float(32), true, false), buffer_arg("idx", Int(32), true, false),
                buffer_arg("out", Float(32), false, true), scalar_arg("scale", Float(32)),
                scalar_arg("n", Int(32))},
               body);
    std::string src = source_of({k});
    for (const char *s : {"vload4(0, in + ", "vload8(0, in + ", "vstore4(", "vstore8("}) {
        EXPECT_NE(src.find(s), std::string::npos) << s << "\n" << src;
    }
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, ArithmeticAndCalls) {
    Expr a = var("a"), b = var("b"), f = var("f", Float(32));
    Expr u8 = var("u8", UInt(8)), w8 = var("w8", UInt(8));
    std::vector<Expr> ints = {a / b,
                              a % b,
                              a / -7,
                              a % -7,
                              a / 8,
                              a % 8,
                              select(a < b, min(a, b), max(a, 3)),
                              cast<int>(f),
                              cast<int>(cast<float>(a) * f),
                              cast<int>(saturating_cast<uint8_t>(f)),
                              cast<int>(saturating_cast<int8_t>(a)),
                              cast<int>(lerp(u8, cast<uint8_t>(b), w8)),
                              cast<int>(lerp(cast<int16_t>(a), cast<int16_t>(b), f)),
                              a << b,
                              a >> 3,
                              cast<int>(cast<uint16_t>(a) * cast<uint16_t>(b)),
                              cast<int>(cast<int8_t>(a) + cast<int8_t>(b)),
                              cast<int>(count_leading_zeros(a)),
                              cast<int>(popcount(b)),
                              cast<int>(absd(a, b)),
                              cast<int>(abs(a)),
                              cast<int>(halving_add(cast<uint8_t>(a), u8)),
                              cast<int>(rounding_halving_add(a, b)),
                              cast<int>(saturating_add(cast<int8_t>(a), cast<int8_t>(b))),
                              cast<int>(mul_shift_right(cast<int16_t>(a), cast<int16_t>(b), 7)),
                              cast<int>(cast<int64_t>(a) * cast<int64_t>(b) / 3)};
    std::vector<Expr> floats = {sin(f),
                                cos(f),
                                exp(f),
                                log(f),
                                pow(f, f),
                                sqrt(f),
                                floor(f),
                                ceil(f),
                                round(f),
                                trunc(f),
                                f / 3.0f,
                                cast<float>(a) % f,
                                min(f, 1.0f),
                                max(f, -1.0f),
                                select(is_nan(f) || is_inf(f), 0.0f, f),
                                lerp(f, 2.0f, w8),
                                fast_inverse_sqrt(f),
                                atan2(f, f),
                                strict_float(f * f + f)};
    std::vector<Stmt> stmts;
    for (size_t i = 0; i < ints.size(); i++) stmts.push_back(store("iout", ints[i], (int)i));
    for (size_t i = 0; i < floats.size(); i++) stmts.push_back(store("fout", floats[i], (int)i));
    LoweredKernel k = kernel("arith_kernel",
                             {buffer_arg("iout", Int(32), false, true),
                              buffer_arg("fout", Float(32), false, true), scalar_arg("a", Int(32)),
                              scalar_arg("b", Int(32)), scalar_arg("f", Float(32)),
                              scalar_arg("u8", UInt(8)), scalar_arg("w8", UInt(8))},
                             Block::make(stmts));
    std::string src = source_of({k});
    EXPECT_NE(src.find("#define LOOM_STRICT_FLOAT 1"), std::string::npos) << src;
    EXPECT_NE(src.find("static int loom_div_i32(int a, int b)"), std::string::npos) << src;
    EXPECT_NE(src.find("rint("), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, VectorIntegerSemantics) {
    // Lanewise helpers, masks of several widths, narrow wrapping vectors.
    Expr x = var("x");
    Expr ramp = Ramp::make(x * 4, 1, 4);
    Expr a = load(Int(32, 4), "a", ramp), b = load(Int(32, 4), "b", ramp);
    Expr c8 = cast(Int(8, 4), a), d8 = cast(Int(8, 4), b);
    Expr u16 = cast(UInt(16, 4), a);
    Expr mask = a < b && !(c8 == d8);
    std::vector<Expr> vals = {
        a / b,
        a % b,
        select(mask, a, b),
        cast(Int(32, 4), c8 * d8 + c8),
        cast(Int(32, 4), u16 >> 3),
        cast(Int(32, 4), c8 << 2),
        a << b,
        cast(Int(32, 4), lerp(cast(UInt(8, 4), a), cast(UInt(8, 4), b), cast(UInt(8, 4), b))),
        cast(Int(32, 4), mask),
        cast(Int(32, 4), cast(Float(64, 4), a) * 0.5),
        min(a, b) + max(a, b),
        cast(Int(32, 4), saturating_cast(Int(16, 4), a)),
        Ramp::make(x, 3, 4)};
    std::vector<Stmt> stmts;
    for (size_t i = 0; i < vals.size(); i++) {
        stmts.push_back(store("out", vals[i], Ramp::make(x * 4 + (int)i * 1024, 1, 4)));
    }
    LoweredKernel k =
        kernel("vector_int_kernel",
               {buffer_arg("a", Int(32), true, false), buffer_arg("b", Int(32), true, false),
                buffer_arg("out", Int(32), false, true)},
               LetStmt::make("x", var("__thread_id_x"), Block::make(stmts)));
    std::string src = source_of({k});
    EXPECT_NE(src.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable"), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, BoolsSharedMemoryAndNames) {
    // A bool scalar argument and a bool buffer, shared memory, and IR names that are not C
    // identifiers or that clash with OpenCL C.
    Expr x = var("x.1");
    Stmt s = store("mask", var("flag", Bool()) && (x > 3), x);
    s = Block::make(s, store(std::string("__loom_shared"), cast<float>(x), x));
    s = Block::make(
        s, store("out", load(Float(32), "__loom_shared", 0) + cast<float>(load(Bool(), "mask", x)),
                 x));
    s = LetStmt::make("min", x + 1, store("out", cast<float>(var("min")), x + 100));
    s = Block::make(store("mask", var("flag", Bool()), x), s);
    s = Block::make(store(std::string("__loom_shared"), cast<float>(x), x), s);
    Stmt body = LetStmt::make(
        "x.1", var("__thread_id_x"),
        LetStmt::make("x_1", var("__thread_id_y"),
                      LetStmt::make("NAN", var("x_1") + var("x.1"),
                                    Block::make(s, store("out", cast<float>(var("NAN")), 7)))));
    LoweredKernel k = kernel("names_kernel",
                             {buffer_arg("mask", Bool(), false, true),
                              buffer_arg("out", Float(32), true, true), scalar_arg("flag", Bool())},
                             body);
    std::string src = source_of({k});
    EXPECT_NE(src.find("__global uchar *restrict mask"), std::string::npos) << src;
    EXPECT_NE(src.find("uchar flag,\n    __local uchar *__loom_shared) {"), std::string::npos)
        << src;
    EXPECT_NE(src.find("int x_1 = "), std::string::npos) << src;
    EXPECT_NE(src.find("int x_1_1 = "), std::string::npos) << src;
    EXPECT_NE(src.find("int v_NAN = "), std::string::npos) << src;
    EXPECT_NE(src.find("int v_min = "), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, TwoKernelsShareHelpers) {
    auto make = [](const std::string &name) {
        Expr x = var("__thread_id_x");
        return kernel(name, {buffer_arg("out", Int(32), false, true), scalar_arg("d", Int(32))},
                      store("out", x / var("d") + x % var("d"), x));
    };
    std::string src = source_of({make("k0"), make("k1")});
    EXPECT_NE(src.find("__kernel void k0("), std::string::npos);
    EXPECT_NE(src.find("__kernel void k1("), std::string::npos);
    size_t first = src.find("static int loom_div_i32");
    ASSERT_NE(first, std::string::npos) << src;
    EXPECT_EQ(src.find("static int loom_div_i32", first + 1), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

TEST(OpenCLCodegen, StrictFloatTarget) {
    LoweredKernel k = kernel("k", {buffer_arg("out", Float(32), false, true)},
                             store("out", 1.5f, var("__thread_id_x")));
    std::string src = source_of({k}, Target("host-strict_float"));
    EXPECT_NE(src.find("#define LOOM_STRICT_FLOAT 1"), std::string::npos) << src;
    EXPECT_COMPILES(src);
}

void expect_refused(const LoweredKernel &k, const std::string &what) {
    try {
        source_of({k});
        ADD_FAILURE() << "expected an InternalError about " << what;
    } catch (const InternalError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find(what), std::string::npos) << msg;
        EXPECT_NE(msg.find(k.name), std::string::npos) << msg;
    }
}

TEST(OpenCLCodegen, Refusals) {
    Expr x = var("__thread_id_x");
    std::vector<Arg> out_f = {buffer_arg("out", Float(32), false, true)};
    expect_refused(
        kernel("odd_lanes", out_f, store("out", Broadcast::make(1.0f, 5), Ramp::make(x, 1, 5))),
        "5 lanes");
    expect_refused(
        kernel("half_kernel", out_f, store("out", cast<float>(cast(Float(16), cast<float>(x))), x)),
        "float16");
    expect_refused(kernel("dyn_alloc", out_f,
                          Allocate::make("t", Float(32), MemoryType::Auto, {x}, const_true(),
                                         store("out", 1.0f, x))),
                   "non-constant size");
    expect_refused(kernel("unbound", out_f, store("out", cast<float>(var("y")), x)),
                   "unbound variable y");
    expect_refused(
        kernel("extern_call", out_f, store("out", extern_call(Float(32), "my_function", {x}), x)),
        "my_function");
    expect_refused(kernel("assert_kernel", out_f,
                          AssertStmt::make(x > 0, extern_call(Int(32), "halide_error", {}))),
                   "AssertStmt");
    expect_refused(kernel("no_buffer", out_f, store("other", 1.0f, x)), "other");
    LoweredKernel cuda = kernel("cuda_kernel", out_f, store("out", 1.0f, x));
    cuda.api = DeviceAPI::CUDA;
    expect_refused(cuda, "another device API");
}

// ---- Values on an OpenCL device (PoCL in CI) against the CPU back end ----

// The few OpenCL API entry points used, declared here so the test needs no CL headers.
using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using Handle = void *;

struct OpenCL {
    cl_int (*GetPlatformIDs)(cl_uint, Handle *, cl_uint *);
    cl_int (*GetDeviceIDs)(Handle, cl_ulong, cl_uint, Handle *, cl_uint *);
    Handle (*CreateContext)(const intptr_t *, cl_uint, const Handle *, void *, void *, cl_int *);
    Handle (*CreateCommandQueue)(Handle, Handle, cl_ulong, cl_int *);
    Handle (*CreateProgramWithSource)(Handle, cl_uint, const char **, const size_t *, cl_int *);
    cl_int (*BuildProgram)(Handle, cl_uint, const Handle *, const char *, void *, void *);
    cl_int (*GetProgramBuildInfo)(Handle, Handle, cl_uint, size_t, void *, size_t *);
    Handle (*CreateKernel)(Handle, const char *, cl_int *);
    Handle (*CreateBuffer)(Handle, cl_ulong, size_t, void *, cl_int *);
    cl_int (*SetKernelArg)(Handle, cl_uint, size_t, const void *);
    cl_int (*EnqueueNDRangeKernel)(Handle, Handle, cl_uint, const size_t *, const size_t *,
                                   const size_t *, cl_uint, const void *, void *);
    cl_int (*EnqueueReadBuffer)(Handle, Handle, cl_uint, size_t, size_t, void *, cl_uint,
                                const void *, void *);
    cl_int (*ReleaseMemObject)(Handle);
    cl_int (*ReleaseKernel)(Handle);
    cl_int (*ReleaseProgram)(Handle);
    Handle device = nullptr, context = nullptr, queue = nullptr;
    std::string why_not; ///< empty when usable

    OpenCL() {
        void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
        if (!lib) {
            why_not = "no libOpenCL.so.1";
            return;
        }
        auto sym = [&](auto &fn, const char *name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
            if (!fn) why_not = std::string("no ") + name;
        };
        sym(GetPlatformIDs, "clGetPlatformIDs");
        sym(GetDeviceIDs, "clGetDeviceIDs");
        sym(CreateContext, "clCreateContext");
        sym(CreateCommandQueue, "clCreateCommandQueue");
        sym(CreateProgramWithSource, "clCreateProgramWithSource");
        sym(BuildProgram, "clBuildProgram");
        sym(GetProgramBuildInfo, "clGetProgramBuildInfo");
        sym(CreateKernel, "clCreateKernel");
        sym(CreateBuffer, "clCreateBuffer");
        sym(SetKernelArg, "clSetKernelArg");
        sym(EnqueueNDRangeKernel, "clEnqueueNDRangeKernel");
        sym(EnqueueReadBuffer, "clEnqueueReadBuffer");
        sym(ReleaseMemObject, "clReleaseMemObject");
        sym(ReleaseKernel, "clReleaseKernel");
        sym(ReleaseProgram, "clReleaseProgram");
        if (!why_not.empty()) return;
        Handle platforms[8];
        cl_uint n = 0;
        if (GetPlatformIDs(8, platforms, &n) != 0 || n == 0) {
            why_not = "no OpenCL platform";
            return;
        }
        for (cl_uint i = 0; i < n && !device; i++) {
            cl_uint nd = 0;
            if (GetDeviceIDs(platforms[i], 0xFFFFFFFF, 1, &device, &nd) != 0 || nd == 0) {
                device = nullptr;
            }
        }
        if (!device) {
            why_not = "no OpenCL device";
            return;
        }
        cl_int err = 0;
        context = CreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        if (err == 0) queue = CreateCommandQueue(context, device, 0, &err);
        if (err != 0) why_not = "no OpenCL context";
    }

    static OpenCL &get() {
        static OpenCL cl;
        return cl;
    }
};

/// A 1-D test: `body(x)` stores into "out" (of out_type, `n * out_lanes` elements) reading the
/// buffers of `inputs`, for x in [0, n). Run by the CPU back end as a loop and on the OpenCL
/// device as a kernel with x = __block_id_x * 16 + __thread_id_x (and x < n); the outputs must
/// be equal (floats within `tolerance`, relative; NaN equal to NaN).
struct Input {
    std::string name;
    Type type;
    std::vector<uint8_t> data;
};

void expect_same_values(const std::string &name, const std::vector<Input> &inputs, Type out_type,
                        int out_count, int n, const std::function<Stmt(Expr)> &body,
                        double tolerance = 0.0) {
    OpenCL &cl = OpenCL::get();
    if (!cl.why_not.empty()) GTEST_SKIP() << "No OpenCL device: " << cl.why_not;
    size_t out_bytes = (size_t)out_count * out_type.bytes();

    // The CPU back end.
    FuncBuilder fb(name + "_cpu");
    std::vector<std::unique_ptr<TestBuffer>> bufs;
    std::vector<void *> args;
    for (const Input &in : inputs) {
        fb.buffer(in.name, in.type, 1);
        bufs.push_back(std::make_unique<TestBuffer>(
            in.type, std::vector<int>{(int)(in.data.size() / in.type.bytes())}));
        std::memcpy(bufs.back()->data<uint8_t>(), in.data.data(), in.data.size());
        args.push_back(bufs.back()->raw());
    }
    fb.buffer("out", out_type, 1, true);
    TestBuffer cpu_out(out_type, {out_count});
    args.push_back(cpu_out.raw());
    Expr n_var = fb.scalar("n", Int(32));
    args.push_back(&n);
    LoweredFunc f = fb.finish(loop("x", 0, n_var, body(var("x"))));
    ASSERT_EQ(run(f, args), 0);

    // The OpenCL kernel.
    std::vector<Arg> kargs;
    for (const Input &in : inputs) kargs.push_back(buffer_arg(in.name, in.type, true, false));
    kargs.push_back(buffer_arg("out", out_type, false, true));
    kargs.push_back(scalar_arg("n", Int(32)));
    Stmt kbody = LetStmt::make("x", var("__block_id_x") * 16 + var("__thread_id_x"),
                               IfThenElse::make(var("x") < var("n"), body(var("x"))));
    std::string src = source_of({kernel(name, kargs, kbody)});
    cl_int err = 0;
    const char *text = src.c_str();
    Handle program = cl.CreateProgramWithSource(cl.context, 1, &text, nullptr, &err);
    ASSERT_EQ(err, 0);
    err = cl.BuildProgram(program, 1, &cl.device, "-cl-std=CL1.2", nullptr, nullptr);
    if (err != 0) {
        std::string log(1 << 16, '\0');
        cl.GetProgramBuildInfo(program, cl.device, 0x1183 /* CL_PROGRAM_BUILD_LOG */, log.size(),
                               &log[0], nullptr);
        FAIL() << "clBuildProgram failed: " << log.c_str() << "\n" << src;
    }
    Handle k = cl.CreateKernel(program, name.c_str(), &err);
    ASSERT_EQ(err, 0);
    std::vector<Handle> mems;
    const cl_ulong read_write = 1, copy_host_ptr = 1 << 5;
    for (const Input &in : inputs) {
        mems.push_back(cl.CreateBuffer(cl.context, read_write | copy_host_ptr, in.data.size(),
                                       (void *)in.data.data(), &err));
        ASSERT_EQ(err, 0);
    }
    std::vector<uint8_t> zeros(out_bytes, 0);
    mems.push_back(
        cl.CreateBuffer(cl.context, read_write | copy_host_ptr, out_bytes, zeros.data(), &err));
    ASSERT_EQ(err, 0);
    for (size_t i = 0; i < mems.size(); i++) {
        ASSERT_EQ(cl.SetKernelArg(k, (cl_uint)i, sizeof(Handle), &mems[i]), 0);
    }
    ASSERT_EQ(cl.SetKernelArg(k, (cl_uint)mems.size(), sizeof(int), &n), 0);
    size_t local = 16, global = (size_t)(n + 15) / 16 * 16;
    ASSERT_EQ(
        cl.EnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), 0);
    std::vector<uint8_t> dev_out(out_bytes);
    ASSERT_EQ(cl.EnqueueReadBuffer(cl.queue, mems.back(), 1, 0, out_bytes, dev_out.data(), 0,
                                   nullptr, nullptr),
              0);
    for (Handle m : mems) cl.ReleaseMemObject(m);
    cl.ReleaseKernel(k);
    cl.ReleaseProgram(program);

    int mismatches = 0;
    for (int i = 0; i < out_count && mismatches < 10; i++) {
        const uint8_t *c = cpu_out.data<uint8_t>() + (size_t)i * out_type.bytes();
        const uint8_t *d = dev_out.data() + (size_t)i * out_type.bytes();
        if (std::memcmp(c, d, out_type.bytes()) == 0) continue;
        if (out_type.is_float()) {
            double cv, dv;
            if (out_type.bits() == 32) {
                float a, b;
                std::memcpy(&a, c, 4);
                std::memcpy(&b, d, 4);
                cv = a, dv = b;
            } else {
                std::memcpy(&cv, c, 8);
                std::memcpy(&dv, d, 8);
            }
            if ((std::isnan(cv) && std::isnan(dv)) ||
                std::fabs(cv - dv) <= tolerance * std::max(1.0, std::fabs(cv))) {
                continue;
            }
            ADD_FAILURE() << name << ": element " << i << ": CPU " << cv << ", OpenCL " << dv;
        } else {
            uint64_t cv = 0, dv = 0;
            std::memcpy(&cv, c, out_type.bytes());
            std::memcpy(&dv, d, out_type.bytes());
            ADD_FAILURE() << name << ": element " << i << ": CPU bits 0x" << std::hex << cv
                          << ", OpenCL bits 0x" << dv << std::dec;
        }
        mismatches++;
    }
    if (mismatches) ADD_FAILURE() << src;
}

/// n random values of type t; integers are random bits with the extremes, 0 and -1 mixed in,
/// floats are in [-lim, lim] (with some integers and halves).
Input random_input(const std::string &name, Type t, int n, uint32_t seed, double lim = 1000) {
    std::mt19937_64 rng(seed);
    Input in{name, t, std::vector<uint8_t>((size_t)n * t.bytes())};
    for (int i = 0; i < n; i++) {
        uint8_t *p = in.data.data() + (size_t)i * t.bytes();
        if (t.is_float()) {
            double v = std::uniform_real_distribution<double>(-lim, lim)(rng);
            if (i % 7 == 0) v = std::round(v);
            if (i % 11 == 0) v = std::round(v) + 0.5;
            if (t.bits() == 32) {
                float fv = (float)v;
                std::memcpy(p, &fv, 4);
            } else {
                std::memcpy(p, &v, 8);
            }
        } else {
            uint64_t v = rng();
            int special = i % 13;
            if (special == 0) v = 0;
            if (special == 1) v = ~uint64_t(0);
            if (special == 2) v = uint64_t(1) << (t.bits() - 1); // the signed minimum
            if (special == 3) v = (uint64_t(1) << (t.bits() - 1)) - 1;
            if (special == 4) v = 1;
            if (special == 5) v %= 17;
            std::memcpy(p, &v, t.bytes());
        }
    }
    return in;
}

/// A scalar elementwise check: out[x] = f(a[x], b[x], ...).
void check_elementwise(const std::string &name, std::vector<Input> inputs, Type out_type,
                       const std::function<Expr(const std::vector<Expr> &)> &f,
                       double tolerance = 0.0) {
    const int n = 1000;
    expect_same_values(
        name, inputs, out_type, n, n,
        [&](Expr x) {
            std::vector<Expr> loaded;
            for (const Input &in : inputs) loaded.push_back(load(in.type, in.name, x));
            return store("out", f(loaded), x);
        },
        tolerance);
}

TEST(OpenCLValues, IntegerDivisionAndModulo) {
    for (Type t : {Int(32), Int(8), Int(16), UInt(8), UInt(32), Int(64)}) {
        std::vector<Input> in = {random_input("a", t, 1000, 1), random_input("b", t, 1000, 2)};
        std::string s = type_to_string(t);
        check_elementwise("div_" + s, in, t, [](auto v) { return v[0] / v[1]; });
        check_elementwise("mod_" + s, in, t, [](auto v) { return v[0] % v[1]; });
        check_elementwise("div_const_" + s, in, t, [&](auto v) {
            return v[0] / make_const(t, t.is_int() ? -7 : 7) + v[0] % make_const(t, 6) +
                   v[1] / make_const(t, 4) + v[1] % make_const(t, 8);
        });
        check_elementwise("div_rz_" + s, in, t, [&](auto v) {
            return Call::make(t, Call::div_round_to_zero, {v[0], v[1]}, Call::PureIntrinsic) ^
                   Call::make(t, Call::mod_round_to_zero, {v[0], v[1]}, Call::PureIntrinsic);
        });
    }
}

Expr pure_intrin(Type t, const char *name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::PureIntrinsic);
}

TEST(OpenCLValues, WrappingArithmetic) {
    for (Type t : {Int(8), UInt(8), Int(16), UInt(16), UInt(32), Int(64), UInt(64)}) {
        std::vector<Input> in = {random_input("a", t, 1000, 3), random_input("b", t, 1000, 4)};
        check_elementwise("wrap_" + type_to_string(t), in, t,
                          [](auto v) { return v[0] * v[1] + (v[0] - v[1]) * v[0]; });
        check_elementwise("minmax_" + type_to_string(t), in, t, [](auto v) {
            return select(v[0] < v[1], min(v[0], v[1]), max(v[0], v[1]) ^ v[0]);
        });
    }
}

TEST(OpenCLValues, Shifts) {
    for (Type t : {Int(32), UInt(8), Int(16), Int(64)}) {
        for (Type tb : {Int(8), UInt(8), Int(32)}) {
            std::vector<Input> in = {random_input("a", t, 1000, 5), random_input("b", tb, 1000, 6)};
            std::string s = type_to_string(t) + "_" + type_to_string(tb);
            check_elementwise("shift_" + s, in, t, [&](auto v) {
                return pure_intrin(t, Call::shift_left, {v[0], v[1]}) ^
                       pure_intrin(t, Call::shift_right, {v[0], v[1]}) ^
                       pure_intrin(t, Call::shift_left, {v[0], make_const(tb, 3)}) ^
                       pure_intrin(t, Call::shift_right, {v[0], make_const(tb, 5)});
            });
        }
    }
}

TEST(OpenCLValues, CastsAndSaturation) {
    Input f = random_input("f", Float(32), 1000, 7, 300);
    Input i = random_input("i", Int(32), 1000, 8);
    Input d = random_input("d", Float(64), 1000, 9, 1e39);
    check_elementwise("casts", {f, i}, Int(32), [](auto v) {
        return cast<int>(v[0]) + cast<int>(cast<int8_t>(v[1])) + cast<int>(cast<uint16_t>(v[1])) +
               cast<int>(cast<float>(v[1]) * 0.25f) + cast<int>(v[0] > 1.5f) +
               cast<int>(cast<bool>(v[1]));
    });
    for (Type t : {UInt(8), Int(8), Int(16), UInt(16), Int(32), UInt(32)}) {
        check_elementwise("sat_" + type_to_string(t), {f, i}, t, [&](auto v) {
            return saturating_cast(t, v[0] * 1000.0f) ^ saturating_cast(t, v[1]) ^
                   saturating_cast(t, cast<int16_t>(v[1])) ^
                   saturating_cast(t, cast<uint32_t>(v[1]));
        });
    }
    check_elementwise("sat_f64", {d}, Float(32),
                      [](auto v) { return saturating_cast<float>(v[0]); });
    for (Type t : {Int(8), UInt(8), Int(32), UInt(16)}) {
        std::vector<Input> in = {random_input("a", t, 1000, 10), random_input("b", t, 1000, 11)};
        check_elementwise("sat_add_" + type_to_string(t), in, t, [](auto v) {
            return saturating_add(v[0], v[1]) ^ saturating_sub(v[0], v[1]);
        });
    }
}

TEST(OpenCLValues, Lerp) {
    struct L {
        Type value, weight;
    };
    for (L l :
         {L{UInt(8), UInt(8)}, L{Int(8), UInt(8)}, L{UInt(16), Float(32)}, L{UInt(8), UInt(16)},
          L{UInt(16), UInt(8)}, L{UInt(32), UInt(32)}, L{Int(32), Float(32)}, L{UInt(32), UInt(8)},
          L{Float(32), UInt(8)}, L{Float(32), Float(32)}, L{Float(32), UInt(32)}}) {
        std::vector<Input> in = {random_input("z", l.value, 1000, 12),
                                 random_input("o", l.value, 1000, 13),
                                 l.weight.is_float() ? random_input("w", l.weight, 1000, 14, 1.0)
                                                     : random_input("w", l.weight, 1000, 14)};
        if (l.weight.is_float()) {
            // Weights in [0, 1].
            for (size_t k = 0; k < in[2].data.size(); k += 4) {
                float w;
                std::memcpy(&w, &in[2].data[k], 4);
                w = std::min(std::fabs(w), 1.0f);
                std::memcpy(&in[2].data[k], &w, 4);
            }
        }
        check_elementwise(
            "lerp_" + type_to_string(l.value) + "_" + type_to_string(l.weight), in, l.value,
            [](auto v) { return lerp(v[0], v[1], v[2]); },
            // The CPU may reassociate the float formula (values up to 1000 cancel).
            l.value.is_float() ? 1e-4 : 0.0);
    }
}

TEST(OpenCLValues, IntegerIntrinsics) {
    for (Type t : {Int(8), UInt(8), Int(16), UInt(16), Int(32), UInt(32)}) {
        std::vector<Input> in = {random_input("a", t, 1000, 15), random_input("b", t, 1000, 16),
                                 random_input("q", UInt(8), 1000, 17)};
        Type u = t.with_code(Type::UInt);
        check_elementwise("bits_" + type_to_string(t), in, u, [&](auto v) {
            return cast(u, count_leading_zeros(v[0])) ^ (cast(u, count_trailing_zeros(v[0])) << 8) ^
                   cast(u, popcount(v[1])) ^ absd(v[0], v[1]) ^ abs(v[1]);
        });
        check_elementwise("halving_" + type_to_string(t), in, t, [&](auto v) {
            return halving_add(v[0], v[1]) ^ rounding_halving_add(v[0], v[1]) ^
                   pure_intrin(t, "halving_sub", {v[0], v[1]});
        });
        check_elementwise("msr_" + type_to_string(t), in, t, [&](auto v) {
            return pure_intrin(t, Call::mul_shift_right, {v[0], v[1], v[2]}) ^
                   pure_intrin(t, "rounding_mul_shift_right", {v[0], v[1], v[2]});
        });
        check_elementwise(
            "widening_" + type_to_string(t), in, t.with_bits(t.bits() * 2),
            [&](auto v) { return widening_mul(v[0], v[1]) + widening_add(v[0], v[1]); });
    }
}

TEST(OpenCLValues, FloatArithmetic) {
    Input a = random_input("a", Float(32), 1000, 18, 100);
    Input b = random_input("b", Float(32), 1000, 19, 100);
    // Some NaNs and infinities.
    for (int k = 0; k < 1000; k += 97) {
        float special = k % 2 ? NAN : INFINITY;
        std::memcpy(&a.data[k * 4], &special, 4);
    }
    // One operation each: the CPU's fast-math flags may reassociate longer formulas.
    std::vector<std::pair<std::string, std::function<Expr(const std::vector<Expr> &)>>> ops = {
        {"select", [](auto v) { return select(v[0] < v[1], v[0] * 2.0f, v[1]); }},
        {"min", [](auto v) { return min(v[0], v[1]); }},
        {"max", [](auto v) { return max(v[0], v[1]); }},
        {"mod", [](auto v) { return v[0] % v[1]; }},
        {"div", [](auto v) { return v[0] / v[1]; }},
        {"floor", [](auto v) { return floor(v[0]); }},
        {"ceil", [](auto v) { return ceil(v[0]); }},
        {"round", [](auto v) { return round(v[0]); }},
        {"trunc", [](auto v) { return trunc(v[0]); }},
        {"classify", [](auto v) {
             return select(is_nan(v[0]), 1.0f, 0.0f) + select(is_inf(v[0]), 2.0f, 0.0f) +
                    select(is_finite(v[0]), 4.0f, 0.0f);
         }}};
    for (const auto &op : ops) check_elementwise("float_" + op.first, {a, b}, Float(32), op.second);
    check_elementwise(
        "float_math", {a, b}, Float(32),
        [](auto v) {
            Expr x = abs(v[0]) + 1.0f;
            return sin(v[0]) + cos(v[1]) + exp(v[1] / 50.0f) + log(x) + pow(x, v[1] / 100.0f) +
                   sqrt(x) + atan2(v[0], v[1]);
        },
        1e-5);
}

TEST(OpenCLValues, Vectors) {
    const int n = 256;
    Input a = random_input("a", Int(32), n * 8 + 16, 20);
    Input b = random_input("b", Int(32), n * 8 + 16, 21);
    Input f = random_input("f", Float(32), n * 8 + 16, 22, 50);
    for (int lanes : {4, 8}) {
        expect_same_values(
            "vec" + std::to_string(lanes), {a, b, f}, Int(32), n * lanes, n, [&](Expr x) {
                Type it = Int(32, lanes);
                Expr ramp = Ramp::make(x * lanes, 1, lanes);
                Expr va = load(it, "a", ramp), vb = load(it, "b", ramp);
                Expr vf = load(Float(32, lanes), "f", ramp);
                // A gather at indices from b, a strided load, predicated loads.
                Expr idx = vb & Broadcast::make(1023, lanes);
                Expr gathered = load(it, "a", idx);
                Expr strided = load(it, "b", Ramp::make(x * lanes, 2, lanes));
                Expr pred = va > vb;
                Expr masked = Load::make(it, "a", ramp + Broadcast::make(3, lanes), pred,
                                         Parameter(), ModulusRemainder());
                Expr e =
                    va / vb + va % vb + select(pred, gathered, strided) + masked + cast(it, vf) +
                    cast(it, cast(Int(8, lanes), va) * cast(Int(8, lanes), vb)) +
                    cast(it, lerp(cast(UInt(8, lanes), va), cast(UInt(8, lanes), vb),
                                  cast(UInt(8, lanes), vb))) +
                    pure_intrin(it, Call::shift_left, {va, vb}) + cast(it, pred && !(va == vb)) +
                    min(va, vb) + cast(it, select(vf < Broadcast::make(0.0f, lanes), vf, -vf));
                Expr shuffled =
                    Shuffle::make_concat({Shuffle::make_slice(e, lanes / 2, 1, lanes / 2),
                                          Shuffle::make_slice(e, 0, 1, lanes / 2)});
                Expr sums = VectorReduce::make(VectorReduce::Add, shuffled, lanes / 2);
                Expr total = Shuffle::make_concat(
                    {sums,
                     Broadcast::make(VectorReduce::make(VectorReduce::Max, e, 1), lanes / 2)});
                return Block::make(
                    store("out", shuffled + total, ramp),
                    Store::make("out", va, ramp, Parameter(), va == vb, ModulusRemainder()));
            });
    }
}

TEST(OpenCLValues, BoolsShufflesAndReductions) {
    const int n = 256;
    Input a = random_input("a", Int(32), n * 4 + 16, 23);
    Input m = random_input("m", UInt(8), n * 4 + 16, 24);
    for (uint8_t &b : m.data) b &= 1;
    // Small values: the CPU may reassociate the float sum, exact only while it stays small.
    for (size_t k = 0; k < a.data.size(); k += 4) {
        int32_t v;
        std::memcpy(&v, &a.data[k], 4);
        v = (int32_t)((uint32_t)v % 2048) - 1024;
        std::memcpy(&a.data[k], &v, 4);
    }
    expect_same_values("bool_vectors", {a, m}, Float(32), n * 4 + 4, n, [&](Expr x) {
        Expr ramp = Ramp::make(x * 4, 1, 4);
        Expr va = load(Int(32, 4), "a", ramp);
        Expr vf = cast(Float(32, 4), va);
        Expr vm = load(Bool(4), "m", ramp);
        Expr c = x % 3 == 0;
        Expr mask2 = Shuffle::make_interleave({vm, !vm});
        Expr r_or = VectorReduce::make(VectorReduce::Or, mask2, 4);
        Expr r_add = VectorReduce::make(VectorReduce::Add, vm, 1);
        Expr r_min = VectorReduce::make(VectorReduce::Min, vf, 2);
        Expr ite = pure_intrin(Float(32), Call::if_then_else,
                               {c, load(Float(32), "out", x * 4 + 2), cast<float>(x)});
        Expr bvec = Broadcast::make(Ramp::make(x, 1, 2), 2);
        Expr rvec = Ramp::make(Ramp::make(x, 2, 2), Broadcast::make(1, 2), 2);
        Expr ctz = count_trailing_zeros(cast(UInt(16, 4), va));
        Expr lp = lerp(cast(UInt(8, 4), va), cast(UInt(8, 4), va * 3), cast(UInt(8), x));
        Expr gathered = Load::make(Bool(4), "m", va & Broadcast::make(1023, 4), vm, Parameter(),
                                   ModulusRemainder());
        Expr e = select(c, vf, -vf) + cast(Float(32, 4), bvec + rvec) + cast(Float(32, 4), ctz) +
                 cast(Float(32, 4), lp) + cast(Float(32, 4), gathered) +
                 select(r_or && vm, Broadcast::make(10.0f, 4), Broadcast::make(-10.0f, 4)) +
                 Shuffle::make_concat({r_min, r_min}) +
                 Broadcast::make(select(r_add, 100.0f, 0.0f), 4);
        return Block::make(
            {store("out", e, ramp),
             store("out", ite + cast<float>(Shuffle::make_extract_element(vm, 2)), x * 4 + 1),
             IfThenElse::make(c, store("out", 1.0f, x * 4 + 3))});
    });
}

} // namespace
