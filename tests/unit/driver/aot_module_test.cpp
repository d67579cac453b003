// Module and the compile_to_* outputs: the files each writes (checked by their contents: ELF and
// archive magic, IR definitions, header prototypes in Halide's shape). The generated code itself
// runs in tests/aot, linked into C and C++ programs.
#include <loom/loom.h>

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

using namespace loom;

namespace {

std::string temp_path(const std::string &name) {
    return ::testing::TempDir() + "aot_module_" + name;
}

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

/// Whether the LLVM IR text defines @name, with the given linkage word ("" for external).
bool defines(const std::string &ir, const std::string &name, const std::string &linkage) {
    size_t pos = 0;
    while ((pos = ir.find("define ", pos)) != std::string::npos) {
        size_t eol = ir.find('\n', pos);
        std::string line = ir.substr(pos, eol - pos);
        pos = eol;
        if (!contains(line, "@" + name + "(")) continue;
        bool weak = contains(line, "define weak ");
        return linkage == "weak" ? weak : !weak && !contains(line, "internal ");
    }
    return false;
}

struct TwoOutputs {
    ImageParam input{UInt(16), 2, "input"};
    Param<float> gain{"gain"};
    Param<bool> flag{"flag"};
    Var x{"x"}, y{"y"};
    Func a{"a"}, b{"b"}, t{"t"};
    TwoOutputs() {
        a(x, y) = input(x, y) + input(x + 1, y);
        b(x, y) = select(flag, cast<float>(input(x, y)) * gain, 0.0f);
        t(x, y) = Tuple(input(x, y), cast<float>(input(x, y)));
    }
};

const Target x86("x86-64-linux");

} // namespace

TEST(AotModule, HeaderHasHalidesShape) {
    TwoOutputs p;
    std::string h = temp_path("pipe.h");
    Pipeline({p.a, p.b}).compile_to_header(h, {p.gain, p.input, p.flag}, "pipe", x86);
    std::string text = read_file(h);
    EXPECT_TRUE(contains(text, "#ifndef HALIDE__aot_module_pipe_h")) << text;
    EXPECT_TRUE(contains(text, "#include <stdint.h>"));
    // Self-contained: the runtime's declarations come along (as in Halide's headers).
    EXPECT_TRUE(contains(text, "typedef struct halide_buffer_t {"));
    EXPECT_TRUE(contains(text, "typedef struct halide_dimension_t {"));
    EXPECT_TRUE(contains(text, "struct halide_filter_metadata_t {"));
    EXPECT_TRUE(contains(text, "extern \"C\" {"));
    EXPECT_TRUE(contains(text, "int pipe(float _gain, struct halide_buffer_t *_input_buffer, bool "
                               "_flag, struct halide_buffer_t *_a_buffer, struct halide_buffer_t "
                               "*_b_buffer);"))
        << text;
    EXPECT_TRUE(contains(text, "int pipe_argv(void **args);"));
    EXPECT_TRUE(contains(text, "const struct halide_filter_metadata_t *pipe_metadata(void);"));
    // One comment line per argument.
    EXPECT_TRUE(contains(text, "_input_buffer: input buffer \"input\", uint16 elements, 2"));
    EXPECT_TRUE(contains(text, "_b_buffer: output buffer \"b\", float32 elements"));
}

TEST(AotModule, HeaderWithUserContextAndTuple) {
    TwoOutputs p;
    std::string h = temp_path("tuple.h");
    p.t.compile_to_header(h, {p.input}, "", x86.with_feature(Target::UserContext));
    std::string text = read_file(h);
    // Without a name, the function is named after the Func, made a C identifier as in Halide
    // ("t_1" for "t$1", the name an earlier test's t leaves this one).
    std::string fn = p.t.name();
    std::replace(fn.begin(), fn.end(), '$', '_');
    EXPECT_TRUE(contains(text, "int " + fn +
                                   "(void const *__user_context, struct halide_buffer_t "
                                   "*_input_buffer, struct halide_buffer_t *_" +
                                   fn + "_0_buffer, struct halide_buffer_t *_" + fn +
                                   "_1_buffer);"))
        << text;
}

TEST(AotModule, ObjectStaticLibraryAndHeaderFiles) {
    TwoOutputs p;
    std::string prefix = temp_path("files");
    p.a.compile_to_file(prefix, {p.input}, "a_fn", x86);
    EXPECT_EQ(read_file(prefix + ".o").substr(0, 4), "\x7f"
                                                     "ELF");
    EXPECT_TRUE(contains(read_file(prefix + ".h"), "int a_fn(struct halide_buffer_t"));
    p.a.compile_to_static_library(prefix + "_lib", {p.input}, "a_fn", x86);
    std::string archive = read_file(prefix + "_lib.a");
    EXPECT_EQ(archive.substr(0, 8), "!<arch>\n");
    EXPECT_TRUE(contains(archive, "files_lib.o/")) << "member named after the prefix";
    EXPECT_TRUE(contains(archive, "a_fn_argv"));
    EXPECT_TRUE(contains(read_file(prefix + "_lib.h"), "a_fn_metadata"));
}

TEST(AotModule, LLVMAssemblyHasTheEntryPointsAndAWeakRuntime) {
    TwoOutputs p;
    std::string ll = temp_path("a.ll");
    p.a.compile_to_llvm_assembly(ll, {p.input}, "a_fn", x86);
    std::string text = read_file(ll);
    EXPECT_TRUE(defines(text, "a_fn", "")) << text.substr(0, 2000);
    EXPECT_TRUE(defines(text, "a_fn_argv", ""));
    EXPECT_TRUE(defines(text, "a_fn_metadata", ""));
    EXPECT_TRUE(defines(text, "halide_error", "weak")) << "runtime linked weakly";
    EXPECT_TRUE(defines(text, "halide_malloc", "weak"));
    EXPECT_TRUE(defines(text, "halide_copy_to_host", "weak")) << "the device_interface module";

    p.a.compile_to_llvm_assembly(ll, {p.input}, "a_fn", x86.with_feature(Target::NoRuntime));
    text = read_file(ll);
    EXPECT_TRUE(defines(text, "a_fn", ""));
    EXPECT_FALSE(defines(text, "halide_error", "weak")) << "no_runtime";
    EXPECT_FALSE(defines(text, "halide_malloc", "weak"));
    EXPECT_FALSE(defines(text, "halide_copy_to_host", "weak"));
}

TEST(AotModule, LinkageTypes) {
    TwoOutputs p;
    std::string ll = temp_path("linkage.ll");
    Module m = Pipeline(p.a).compile_to_module(
        {p.input}, "plain", x86.with_feature(Target::NoRuntime), LinkageType::External);
    m.compile({{OutputFileType::llvm_assembly, ll}});
    std::string text = read_file(ll);
    EXPECT_TRUE(defines(text, "plain", ""));
    EXPECT_FALSE(contains(text, "plain_argv"));
    EXPECT_FALSE(contains(text, "plain_metadata"));
}

TEST(AotModule, AssemblyBitcodeStmtAndDeviceCode) {
    TwoOutputs p;
    std::string s = temp_path("a.s"), bc = temp_path("a.bc"), stmt = temp_path("a.stmt"),
                html = temp_path("a.stmt.html"), dev = temp_path("a.device_code");
    p.a.compile_to({{OutputFileType::assembly, s},
                    {OutputFileType::bitcode, bc},
                    {OutputFileType::stmt, stmt},
                    {OutputFileType::stmt_html, html},
                    {OutputFileType::device_code, dev}},
                   {p.input}, "a_fn", x86);
    EXPECT_TRUE(contains(read_file(s), "a_fn:"));
    EXPECT_EQ(read_file(bc).substr(0, 4), "BC\xC0\xDE");
    EXPECT_TRUE(
        contains(without_unique_suffixes(read_file(stmt)), "// a_fn(__user_context, input, a)"));
    EXPECT_TRUE(contains(read_file(html), "<html>"));
    EXPECT_EQ(read_file(dev), "");
}

TEST(AotModule, AArch64Object) {
    TwoOutputs p;
    std::string o = temp_path("arm.o");
    p.a.compile_to_object(o, {p.input}, "a_arm", Target("arm-64-linux"));
    std::string bytes = read_file(o);
    ASSERT_GT(bytes.size(), 20u);
    EXPECT_EQ(bytes.substr(0, 4), "\x7f"
                                  "ELF");
    EXPECT_EQ((unsigned char)bytes[18], 183); // EM_AARCH64
}

TEST(AotModule, MacOSObjectAndArchive) {
    TwoOutputs p;
    std::string prefix = temp_path("osx");
    p.a.compile_to_static_library(prefix, {p.input}, "a_osx", Target("x86-64-osx"));
    std::string archive = read_file(prefix + ".a");
    EXPECT_EQ(archive.substr(0, 8), "!<arch>\n");
    EXPECT_TRUE(contains(archive, "\xcf\xfa\xed\xfe")) << "a 64-bit Mach-O member";
    EXPECT_TRUE(contains(archive, "_a_osx_argv")) << "Mach-O symbols have a leading underscore";
}

TEST(AotModule, StringLiteralFunctionNameWithDefaultTarget) {
    TwoOutputs p;
    std::string ll = temp_path("literal.ll");
    // Halide code passes fn_name as a literal and lets the target default (HL_TARGET or host).
    p.a.compile_to_llvm_assembly(ll, {p.input}, "literal_fn");
    EXPECT_TRUE(defines(read_file(ll), "literal_fn", ""));
}

TEST(AotModule, OutputFileExtensions) {
    EXPECT_EQ(output_file_extension(OutputFileType::object), ".o");
    EXPECT_EQ(output_file_extension(OutputFileType::static_library), ".a");
    EXPECT_EQ(output_file_extension(OutputFileType::c_header), ".h");
    EXPECT_EQ(output_file_extension(OutputFileType::llvm_assembly), ".ll");
    EXPECT_EQ(output_file_extension(OutputFileType::stmt_html), ".stmt.html");
    EXPECT_EQ(output_file_extension(OutputFileType::object, Target("x86-64-windows")), ".obj");
    EXPECT_EQ(output_file_extension(OutputFileType::static_library, Target("x86-64-windows")),
              ".lib");
}
