// User mistakes in ahead-of-time compilation raise a CompileError that says what is wrong:
// unsupported output types (naming the type and why), parameters missing from the argument
// list, listed arguments that do not match the pipeline, bad function names.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace loom;
using loom_test::expect_error;

namespace {

std::string temp_path(const std::string &name) {
    return ::testing::TempDir() + "aot_errors_" + name;
}

bool file_exists(const std::string &path) { return std::ifstream(path).good(); }

struct Brighten {
    ImageParam input{UInt(8), 2, "input"};
    Param<uint8_t> offset{"offset"};
    Var x{"x"}, y{"y"};
    Func f{"brighten"};
    Brighten() { f(x, y) = input(x, y) + offset; }
};

} // namespace

TEST(AotErrors, MissingScalarParameter) {
    Brighten b;
    expect_error(
        [&] { b.f.compile_to_module({b.input}, "brighten", Target("x86-64-linux")); },
        {"Generated code refers to parameter offset", "which was not found in the argument list"});
}

TEST(AotErrors, MissingImageParameter) {
    Brighten b;
    expect_error([&] { b.f.compile_to_module({b.offset}, "brighten", Target("x86-64-linux")); },
                 {"Generated code refers to image input", "not found in the argument list"});
}

TEST(AotErrors, ExtraArgumentsAreAllowed) {
    Brighten b;
    Param<float> unused("unused");
    Module m = b.f.compile_to_module({unused, b.offset, b.input}, "brighten_extra",
                                     Target("x86-64-linux"));
    EXPECT_EQ(m.name(), "brighten_extra");
    EXPECT_EQ(m.target().to_string(), "x86-64-linux");
}

TEST(AotErrors, ArgumentTypeMismatch) {
    Brighten b;
    Param<uint16_t> wrong("offset");
    expect_error(
        [&] {
            b.f.compile_to_module({b.input, wrong}, "brighten");
        },
        {"offset", "uint16", "uint8"});
}

TEST(AotErrors, ArgumentKindMismatch) {
    Brighten b;
    Param<uint8_t> wrong("input");
    expect_error(
        [&] {
            b.f.compile_to_module({wrong, b.offset}, "brighten");
        },
        {"input", "a scalar", "a buffer"});
}

TEST(AotErrors, ArgumentDimensionMismatch) {
    Brighten b;
    ImageParam wrong(UInt(8), 3, "input");
    expect_error(
        [&] {
            b.f.compile_to_module({wrong, b.offset}, "brighten");
        },
        {"input", "3 dimensions", "2"});
}

TEST(AotErrors, DuplicateArgument) {
    Brighten b;
    expect_error(
        [&] {
            b.f.compile_to_module({b.input, b.offset, b.offset}, "brighten");
        },
        {"offset", "twice"});
}

TEST(AotErrors, FunctionNameMustBeACIdentifier) {
    Brighten b;
    expect_error(
        [&] {
            b.f.compile_to_module({b.input, b.offset}, "my-filter");
        },
        {"my-filter", "C identifier"});
}

TEST(AotErrors, CBackendRefusesWhatCHasNoTranslationFor) {
    Brighten b;
    std::string path = temp_path("brighten.c");
    std::remove(path.c_str());
    // GPU APIs and tracing need runtime support the C runtime does not carry.
    expect_error(
        [&] {
            b.f.compile_to_c(path, {b.input, b.offset}, "brighten",
                             Target("x86-64-linux-trace_stores"));
        },
        {"C back end", "trace_stores", "brighten"});
    // C99 has no 16-bit float.
    ImageParam half(Float(16), 1, "half_input");
    Func h("halve");
    Var x("x");
    h(x) = half(x) * 2;
    expect_error([&] { h.compile_to_c(path, {half}, "halve"); }, {"C back end", "float16"});
}

TEST(AotErrors, EveryUnsupportedOutputTypeNamesItself) {
    Brighten b;
    Module m = b.f.compile_to_module({b.input, b.offset}, "brighten", Target("x86-64-linux"));
    const std::pair<OutputFileType, const char *> unsupported[] = {
        {OutputFileType::compiler_log, "compiler_log"},
        {OutputFileType::cpp_stub, "cpp_stub"},
        {OutputFileType::featurization, "featurization"},
        {OutputFileType::function_info_header, "function_info_header"},
        {OutputFileType::hlpipe, "hlpipe"},
        {OutputFileType::python_extension, "python_extension"},
        {OutputFileType::registration, "registration"},
        {OutputFileType::schedule, "schedule"},
    };
    for (const auto &u : unsupported) {
        // Nothing is written, not even the supported header asked for alongside.
        std::string header = temp_path(std::string(u.second) + ".h");
        std::remove(header.c_str());
        expect_error(
            [&] {
                m.compile({{OutputFileType::c_header, header}, {u.first, temp_path(u.second)}});
            },
            {u.second, "brighten"});
        EXPECT_FALSE(file_exists(header)) << u.second;
    }
}

TEST(AotErrors, PyTorchWrapperOfWhatPyTorchCannotPass) {
    // Tensors have no uint16 dtype; the wrapper is written for CPU targets only. Either way no
    // file is written.
    ImageParam input(UInt(16), 2, "wide_input");
    Func f("widen");
    Var x("x"), y("y");
    f(x, y) = input(x, y) * 2;
    const std::string header = temp_path("torch_refused.h");
    std::remove(header.c_str());
    auto write = [&](const Target &t) {
        f.compile_to({{OutputFileType::c_header, header},
                      {OutputFileType::pytorch_wrapper, temp_path("torch_refused.pytorch.h")}},
                     {input}, "widen", t);
    };
    expect_error([&] { write(Target("x86-64-linux")); },
                 {"widen", "PyTorch wrapper", "wide_input", "uint16", "no PyTorch dtype"});
    Brighten b;
    expect_error(
        [&] {
            b.f.compile_to({{OutputFileType::pytorch_wrapper, temp_path("torch_gpu.pytorch.h")}},
                           {b.input, b.offset}, "brighten", Target("x86-64-linux-cuda"));
        },
        {"brighten", "CPU wrappers only", "GPU feature"});
    EXPECT_FALSE(file_exists(header));
}

TEST(AotErrors, UndefinedModuleAndFunc) {
    expect_error([] { Module().name(); }, {"undefined Module"});
    Func undefined("undefined");
    expect_error([&] { undefined.compile_to_static_library(temp_path("u"), {}); }, {"undefined"});
}

TEST(AotErrors, NoRuntimeForOtherArchitectures) {
    Brighten b;
    expect_error(
        [&] {
            b.f.compile_to_object(temp_path("b.o"), {b.input, b.offset}, "brighten",
                                  Target("x86-32-linux"));
        },
        {"no runtime", "x86-32-linux", "no_runtime"});
}
