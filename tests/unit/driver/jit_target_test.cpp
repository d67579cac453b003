// The JIT compiles for the target it is given: lower x86 feature levels give the same results as
// the host, targets the host cannot run are refused before compiling, HL_JIT_TARGET is the
// default, and the compile cache tells targets apart.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/scoped_env.h"
#include "driver/jit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

using namespace loom;
using loom::internal::JITModule;
using loom_test::expect_error;
using loom_test::ScopedEnv;

namespace {

bool host_is_x86_64_linux() {
    Target host = get_host_target();
    return host.arch == Target::X86 && host.bits == 64 && host.os == Target::Linux;
}

/// A float and an integer pipeline over an input image, with `k` making each call's code
/// distinct (so the compile cache does not hide a compilation).
struct Pipelines {
    Buffer<float> in;
    Func f, g;
    explicit Pipelines(int k) : in(67, 9) {
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++) in(x, y) = (float)((x * 13 + y * 7) % 29) + 0.25f;
        Var x("x"), y("y");
        f = Func("ft" + std::to_string(k));
        g = Func("gt" + std::to_string(k));
        f(x, y) = sqrt(in(x, y)) * 1.5f + cast<float>(x * k);
        g(x, y) = cast<int32_t>(in(x, y)) * (x + k) - y;
    }
    float f_ref(int x, int y, int k) const { return std::sqrt(in(x, y)) * 1.5f + (float)(x * k); }
    int g_ref(int x, int y, int k) const { return (int32_t)in(x, y) * (x + k) - y; }
};

/// The LLVM IR the JIT compiles while running `fn` (LOOM_DUMP_LLVM).
template <typename F>
std::string dumped_ir(F fn) {
    ScopedEnv dump("LOOM_DUMP_LLVM", "1");
    testing::internal::CaptureStderr();
    fn();
    return testing::internal::GetCapturedStderr();
}

TEST(JITTarget, LowerFeatureLevelGivesTheHostsResults) {
    if (!host_is_x86_64_linux()) GTEST_SKIP() << "x86-64 Linux host only";
    const int k = 3, W = 67, H = 9;
    Pipelines p(k);
    // The float pipeline is strict: by default the host's FMAs may round a * b + c once where
    // SSE4.1 rounds twice, and both are allowed.
    auto strict = [](Target t) { return t.with_feature(Target::StrictFloat); };
    Buffer<float> f_host = p.f.realize({W, H}, strict(get_host_target()));
    Buffer<int32_t> g_host = p.g.realize({W, H}, get_host_target());
    Buffer<float> f_sse;
    std::string ir = dumped_ir([&] {
        f_sse = p.f.realize({W, H}, strict(Target("x86-64-linux-sse41")));
    });
    Buffer<int32_t> g_sse = p.g.realize({W, H}, Target("x86-64-linux-sse41"));
    Buffer<float> f_base = p.f.realize({W, H}, strict(Target("x86-64-linux")));
    // The code really is for SSE4.1 (Halide's CPU for it is penryn), not for the host's CPU.
    EXPECT_NE(ir.find("\"target-cpu\"=\"penryn\""), std::string::npos) << ir;
    EXPECT_EQ(ir.find("avx"), std::string::npos) << ir;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            EXPECT_EQ(f_host(x, y), p.f_ref(x, y, k)) << x << "," << y;
            EXPECT_EQ(f_sse(x, y), f_host(x, y)) << x << "," << y;
            EXPECT_EQ(f_base(x, y), f_host(x, y)) << x << "," << y;
            EXPECT_EQ(g_host(x, y), p.g_ref(x, y, k)) << x << "," << y;
            EXPECT_EQ(g_sse(x, y), g_host(x, y)) << x << "," << y;
        }
    }
}

TEST(JITTarget, RefusesAnotherArchitectureOSOrWordSize) {
    Pipelines p(5);
    expect_error(
        [&] {
            p.f.realize({8, 8}, Target("arm-64-linux"));
        },
        {"Can't JIT-compile for target arm-64-linux", "the host (", get_host_target().to_string(),
         "the arm architecture", "get_host_target()", "HL_JIT_TARGET"});
    if (!host_is_x86_64_linux()) return;
    expect_error(
        [&] {
            p.f.realize({8, 8}, Target("x86-64-windows"));
        },
        {"Can't JIT-compile for target x86-64-windows", "the windows OS"});
    expect_error(
        [&] {
            p.f.realize({8, 8}, Target("x86-32-linux"));
        },
        {"Can't JIT-compile for target x86-32-linux", "32-bit code"});
}

TEST(JITTarget, RefusesAFeatureTheHostLacks) {
    Target host = get_host_target();
    if (host.arch != Target::X86) GTEST_SKIP() << "x86 host only";
    // The first of these the host does not have (decided here, from the detected host).
    Target::Feature lacking = Target::FeatureEnd;
    for (Target::Feature f : {Target::AVX512_Zen5, Target::AVX512_KNL, Target::FMA4, Target::X86APX,
                              Target::AVX10_1, Target::AVX512_SapphireRapids}) {
        if (!host.has_feature(f)) {
            lacking = f;
            break;
        }
    }
    if (lacking == Target::FeatureEnd) GTEST_SKIP() << "the host has every candidate feature";
    int before = JITModule::compilation_count();
    Pipelines p(7);
    Target t = host.with_feature(lacking);
    expect_error(
        [&] {
            p.f.realize({8, 8}, t);
        },
        {"Can't JIT-compile for target " + t.to_string(),
         "does not support " + Target::feature_to_name(lacking)});
    // Refused before compiling anything.
    EXPECT_EQ(JITModule::compilation_count(), before);
    // Non-CPU features are fine.
    Buffer<float> out = p.f.realize({8, 8}, host.with_feature(Target::NoAsserts));
    EXPECT_EQ(out(3, 2), p.f_ref(3, 2, 7));
}

TEST(JITTarget, HLJitTargetIsTheDefault) {
    if (!host_is_x86_64_linux()) GTEST_SKIP() << "x86-64 Linux host only";
    const int k = 11;
    Pipelines p(k);
    Buffer<float> out;
    std::string ir;
    {
        ScopedEnv env("HL_JIT_TARGET", "x86-64-linux-sse41");
        ir = dumped_ir([&] { out = p.f.realize({16, 4}); });
    }
    EXPECT_NE(ir.find("\"target-cpu\"=\"penryn\""), std::string::npos) << ir;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++) EXPECT_EQ(out(x, y), p.f_ref(x, y, k));

    // Unset again: the host's CPU.
    Pipelines q(k + 1);
    ir = dumped_ir([&] { q.f.realize({16, 4}); });
    EXPECT_EQ(ir.find("\"target-cpu\"=\"penryn\""), std::string::npos) << ir;

    // A feature the host lacks in HL_JIT_TARGET is refused too, so the variable is really read.
    Target host = get_host_target();
    if (!host.has_feature(Target::AVX512_Zen5)) {
        ScopedEnv env("HL_JIT_TARGET", "x86-64-linux-avx512_zen5");
        Pipelines r(k + 2);
        expect_error(
            [&] {
                r.f.realize({16, 4});
            },
            {"Can't JIT-compile for target", "avx512_zen5"});
    }
    {
        ScopedEnv env("HL_JIT_TARGET", "arm-64-linux");
        Pipelines r(k + 3);
        expect_error([&] { r.f.realize({16, 4}); }, {"HL_JIT_TARGET must match the host"});
    }
}

TEST(JITTarget, TheCacheTellsTargetsApart) {
    if (!host_is_x86_64_linux()) GTEST_SKIP() << "x86-64 Linux host only";
    Pipelines p(13);
    int c0 = JITModule::compilation_count();
    p.g.realize({8, 8}, Target("x86-64-linux-avx"));
    int c1 = JITModule::compilation_count();
    EXPECT_EQ(c1, c0 + 1);
    p.g.realize({8, 8}, Target("x86-64-linux-sse41"));
    int c2 = JITModule::compilation_count();
    EXPECT_EQ(c2, c1 + 1);
    // Back to the first target: the pipeline lowers again (it keeps only its last compile), and
    // the JIT's cache has the code.
    Buffer<int32_t> out = p.g.realize({8, 8}, Target("x86-64-linux-avx"));
    EXPECT_EQ(JITModule::compilation_count(), c2);
    EXPECT_EQ(out(5, 6), p.g_ref(5, 6, 13));
}

} // namespace
