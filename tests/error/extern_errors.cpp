// Misuse of extern stages and JIT externs: each is a CompileError naming the Func or function.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;

using loom_test::expect_error;

extern "C" int loomtest_err_stage(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
    }
    return 0;
}

TEST(ExternErrors, ExternDefinitionOfADefinedFunc) {
    Var x("x");
    Func f("defined_f");
    f(x) = x;
    expect_error([&] { f.define_extern("loomtest_err_stage", {}, Int(32), 1); },
                 {"defined_f", "pure definition"});
}

TEST(ExternErrors, SecondExternDefinition) {
    Func f("twice_f");
    f.define_extern("loomtest_err_stage", {}, Int(32), 1);
    expect_error([&] { f.define_extern("loomtest_err_stage", {}, Int(32), 1); },
                 {"twice_f", "extern definition"});
}

TEST(ExternErrors, PureOrUpdateDefinitionOfAnExternFunc) {
    Var x("x");
    Func f("ext_f");
    f.define_extern("loomtest_err_stage", {}, Int(32), {x});
    expect_error([&] { f(x) = x + 1; }, {"ext_f", "extern"});
    expect_error([&] { f(x) += 1; }, {"ext_f", "extern"});
    expect_error([&] { f(0) = 3; }, {"ext_f", "extern"});
}

TEST(ExternErrors, UndefinedFuncArgument) {
    Func g("undefined_g"), f("f");
    expect_error([&] { f.define_extern("loomtest_err_stage", {g}, Int(32), 1); },
                 {"undefined_g", "no definition"});
}

TEST(ExternErrors, InlinedFuncArgument) {
    Var x("x");
    Func g("inlined_g"), f("consumer_f");
    g(x) = x * 2;
    f.define_extern("loomtest_err_stage", {g}, Int(32), 1);
    expect_error([&] { f.realize({4}); },
                 {"inlined_g", "cannot be scheduled to be computed inline", "consumer_f"});
    // compute_root fixes it.
    g.compute_root();
    Buffer<int32_t> out = f.realize({4});
    EXPECT_EQ(out.dim(0).extent(), 4);
}

TEST(ExternErrors, CPlusPlusNameMangling) {
    Var x("x");
    Func f("mangled_f");
    f.define_extern("loomtest_err_stage", {}, Int(32), 1, NameMangling::CPlusPlus);
    expect_error([&] { f.realize({4}); }, {"mangled_f", "C++ name mangling"});
}

TEST(ExternErrors, GPUDeviceAPI) {
    Func f("gpu_f");
    f.define_extern("loomtest_err_stage", {}, Int(32), 1, NameMangling::Default, DeviceAPI::CUDA);
    expect_error([&] { f.realize({4}); }, {"gpu_f", "host"});
}

TEST(ExternErrors, UndefinedExprArgument) {
    Func f("undef_arg_f");
    expect_error([&] { f.define_extern("loomtest_err_stage", {Expr()}, Int(32), 1); },
                 {"undef_arg_f", "undefined"});
}

TEST(ExternErrors, JITExternFromAFunc) {
    Var x("x");
    Func g("jit_g");
    g(x) = x;
    expect_error([&] { JITExtern e(g); }, {"jit_g", "not supported"});
}

TEST(ExternErrors, MissingExternFunction) {
    Var x("x");
    Func f("missing_f");
    f.define_extern("loomtest_no_such_function", {}, Int(32), 1);
    expect_error([&] { f.realize({4}); }, {"loomtest_no_such_function"});
}
