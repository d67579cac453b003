// Target parsing, printing, features, vector sizes and host detection; Argument conversions.
#include <loom/argument.h>
#include <loom/buffer.h>
#include <loom/image_param.h>
#include <loom/param.h>
#include <loom/target.h>

#include "ir/parameter.h"

#include "common/expect_error.h"
#include "common/scoped_env.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace loom;
using loom_test::expect_error;
using loom_test::ScopedEnv;

TEST(Target, ParsesAndPrintsInHalidesOrder) {
    Target t("x86-64-linux-sse41-avx2-avx");
    EXPECT_EQ(t.os, Target::Linux);
    EXPECT_EQ(t.arch, Target::X86);
    EXPECT_EQ(t.bits, 64);
    EXPECT_TRUE(t.has_feature(Target::AVX2));
    EXPECT_TRUE(t.has_feature(Target::AVX));
    EXPECT_TRUE(t.has_feature(Target::SSE41));
    EXPECT_FALSE(t.has_feature(Target::FMA));
    // Features print in alphabetical order of their names.
    EXPECT_EQ(t.to_string(), "x86-64-linux-avx-avx2-sse41");
    EXPECT_EQ(Target("arm-32-android").to_string(), "arm-32-android");
    EXPECT_EQ(Target("x86-64-osx-trace_all").to_string(), "x86-64-osx-trace_all");
    Target trace("x86-64-linux-trace_loads");
    EXPECT_EQ(trace.to_string(), "x86-64-linux-trace_loads");
    EXPECT_EQ(Target("arm-64-linux-sve2-vector_bits_256").vector_bits, 256);
    EXPECT_EQ(Target("arm-64-linux-sve2-vector_bits_256").to_string(),
              "arm-64-linux-sve2-vector_bits_256");
    EXPECT_TRUE(Target("hexagon-32-qurt-hvx").has_feature(Target::HVX_128));
}

TEST(Target, EveryFeatureNameRoundTrips) {
    for (int i = 0; i < Target::FeatureEnd; i++) {
        Target::Feature f = (Target::Feature)i;
        std::string name = Target::feature_to_name(f);
        ASSERT_FALSE(name.empty()) << "feature " << i << " has no name";
        Target::Feature back;
        ASSERT_TRUE(Target::feature_from_name(name, &back)) << name;
        EXPECT_EQ(back, f) << name;
        Target t("x86-64-linux-" + name);
        EXPECT_TRUE(t.has_feature(f)) << name;
        EXPECT_EQ(Target(t.to_string()), t) << name;
        // Halide has two names for HVX_128 ("hvx", "hvx_128") and prints both.
        EXPECT_EQ(t.to_string(),
                  f == Target::HVX_128 ? "x86-64-linux-hvx-hvx_128" : "x86-64-linux-" + name);
    }
    Target::Feature dummy;
    EXPECT_FALSE(Target::feature_from_name("not_a_feature", &dummy));
}

TEST(Target, FeatureEditing) {
    Target t(Target::Linux, Target::X86, 64);
    EXPECT_EQ(t.to_string(), "x86-64-linux");
    Target a = t.with_feature(Target::AVX2);
    EXPECT_TRUE(a.has_feature(Target::AVX2));
    EXPECT_FALSE(t.has_feature(Target::AVX2));
    EXPECT_NE(a, t);
    EXPECT_EQ(a.without_feature(Target::AVX2), t);
    a.set_feature(Target::FMA);
    a.set_feature(Target::AVX2, false);
    EXPECT_EQ(a.to_string(), "x86-64-linux-fma");
    a.set_features({Target::SSE41, Target::F16C});
    EXPECT_TRUE(a.features_all_of({Target::SSE41, Target::F16C, Target::FMA}));
    EXPECT_FALSE(a.features_all_of({Target::SSE41, Target::AVX}));
    EXPECT_TRUE(a.features_any_of({Target::AVX, Target::F16C}));
    EXPECT_FALSE(a.features_any_of({Target::AVX, Target::CUDA}));
    EXPECT_FALSE(a.has_gpu_feature());
    EXPECT_TRUE(a.with_feature(Target::OpenCL).has_gpu_feature());
    EXPECT_TRUE(a.supports_type(Float(64)));
    EXPECT_FALSE(a.with_feature(Target::Metal).supports_type(Float(64)));
    Target b(Target::Linux, Target::X86, 64, {Target::SSE41, Target::F16C, Target::FMA});
    EXPECT_EQ(a, b);
}

TEST(Target, NaturalVectorSize) {
    Target sse("x86-64-linux-sse41");
    EXPECT_EQ(sse.natural_vector_size(Float(32)), 4);
    EXPECT_EQ(sse.natural_vector_size(UInt(8)), 16);
    EXPECT_EQ(sse.natural_vector_size<int16_t>(), 8);
    Target avx("x86-64-linux-sse41-avx");
    EXPECT_EQ(avx.natural_vector_size(Float(32)), 8); // AVX: 256-bit floats only
    EXPECT_EQ(avx.natural_vector_size(Int(32)), 4);
    Target avx2("x86-64-linux-sse41-avx-avx2-fma");
    EXPECT_EQ(avx2.natural_vector_size(Float(32)), 8);
    EXPECT_EQ(avx2.natural_vector_size(Int(32)), 8);
    EXPECT_EQ(avx2.natural_vector_size(UInt(8)), 32);
    EXPECT_EQ(avx2.natural_vector_size(Float(64)), 4);
    Target skx("x86-64-linux-avx-avx2-avx512-avx512_skylake");
    EXPECT_EQ(skx.natural_vector_size(Float(32)), 16);
    EXPECT_EQ(skx.natural_vector_size(UInt(8)), 64);
    EXPECT_EQ(skx.natural_vector_size(Int(16)), 32);
    Target knl("x86-64-linux-avx-avx2-avx512");
    EXPECT_EQ(knl.natural_vector_size(Float(32)), 16); // AVX512F: floats
    EXPECT_EQ(knl.natural_vector_size(Int(32)), 8);    // but no AVX512BW for ints
    EXPECT_EQ(Target("arm-64-linux").natural_vector_size(Float(32)), 4);
}

TEST(Target, HostDetection) {
    Target host = get_host_target();
    EXPECT_EQ(Target(), host);
    EXPECT_EQ(Target("host"), host);
    EXPECT_EQ(Target(""), host);
#if defined(__x86_64__) && defined(__linux__)
    EXPECT_EQ(host.os, Target::Linux);
    EXPECT_EQ(host.arch, Target::X86);
    EXPECT_EQ(host.bits, 64);
    __builtin_cpu_init();
    EXPECT_EQ(host.has_feature(Target::AVX2), (bool)__builtin_cpu_supports("avx2"));
    EXPECT_EQ(host.has_feature(Target::SSE41), (bool)__builtin_cpu_supports("sse4.1"));
    EXPECT_EQ(host.has_feature(Target::FMA), (bool)__builtin_cpu_supports("fma"));
    EXPECT_EQ(host.has_feature(Target::AVX512),
              __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd"));
    EXPECT_EQ(host.to_string().substr(0, 12), "x86-64-linux");
#endif
    Target more("host-debug-no_asserts");
    EXPECT_TRUE(more.has_feature(Target::Debug));
    EXPECT_TRUE(more.has_feature(Target::NoAsserts));
    EXPECT_EQ(more.without_feature(Target::Debug).without_feature(Target::NoAsserts), host);
}

TEST(Target, Environment) {
    {
        ScopedEnv e("HL_TARGET", "x86-64-linux-avx2");
        EXPECT_EQ(get_target_from_environment().to_string(), "x86-64-linux-avx2");
    }
    EXPECT_EQ(get_target_from_environment(), get_host_target());
    Target jit = get_jit_target_from_environment();
    EXPECT_TRUE(jit.has_feature(Target::JIT));
    EXPECT_EQ(jit.without_feature(Target::JIT), get_host_target());
    {
        ScopedEnv e("HL_JIT_TARGET", "arm-32-android");
        expect_error([] { get_jit_target_from_environment(); },
                     {"HL_JIT_TARGET", "arm-32-android"});
    }
#if defined(__x86_64__) && defined(__linux__)
    {
        ScopedEnv e("HL_JIT_TARGET", "x86-64-linux-sse41");
        Target t = get_jit_target_from_environment();
        EXPECT_EQ(t.to_string(), "x86-64-linux-jit-sse41");
    }
#endif
}

TEST(Target, BadStrings) {
    expect_error([] { Target t("x86-64-linux-avx2-nonsense"); }, {"nonsense", "avx2"});
    expect_error([] { Target t("x86-linux"); }, {"x86-linux"});    // arch without bits
    expect_error([] { Target t("x86-64-arm-linux"); }, {"arm"});   // two architectures
    expect_error([] { Target t("x86-64-linux-host"); }, {"host"}); // host only first
    EXPECT_TRUE(Target::validate_target_string("x86-64-linux-avx2"));
    EXPECT_TRUE(Target::validate_target_string("host-cuda"));
    EXPECT_FALSE(Target::validate_target_string("x86-64-linux-avx3"));
    EXPECT_FALSE(Target::validate_target_string("x86-linux"));
}

TEST(Argument, FromParametersParamsAndBuffers) {
    internal::Parameter scalar(Float(32), false, 0, "alpha");
    Argument a = scalar;
    EXPECT_EQ(a.name, "alpha");
    EXPECT_EQ(a.kind, Argument::InputScalar);
    EXPECT_TRUE(a.is_scalar());
    EXPECT_TRUE(a.is_input());
    EXPECT_EQ(a.type, Float(32));
    EXPECT_EQ(a.dimensions, 0);

    internal::Parameter buf(UInt(16), true, 3, "frames");
    Argument b = buf;
    EXPECT_EQ(b.kind, Argument::InputBuffer);
    EXPECT_TRUE(b.is_buffer());
    EXPECT_EQ(b.type, UInt(16));
    EXPECT_EQ(b.dimensions, 3);

    Param<int16_t> p("offset");
    Argument pa = p;
    EXPECT_EQ(pa, Argument("offset", Argument::InputScalar, Int(16), 0));
    ImageParam im(UInt(8), 2, "input_img");
    Argument ia = im;
    EXPECT_EQ(ia, Argument("input_img", Argument::InputBuffer, UInt(8), 2));
    Buffer<float> data(std::vector<int>{4, 4, 3}, "data_buf");
    Argument ba = data;
    EXPECT_EQ(ba, Argument("data_buf", Argument::InputBuffer, Float(32), 3));
    std::vector<Argument> args = {p, im, data};
    EXPECT_EQ(args.size(), 3u);
    Argument out("out", Argument::OutputBuffer, Int(32), 2);
    EXPECT_TRUE(out.is_output());
    EXPECT_FALSE(out.is_input());
    EXPECT_NE(out, ba);
}
