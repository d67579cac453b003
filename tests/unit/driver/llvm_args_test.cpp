// HL_LLVM_ARGS (Halide's environment variable): options for LLVM, parsed once when LLVM is
// first initialized in the process. ctest runs this binary's LLVMArgs tests twice: as part of
// unit_driver (no HL_LLVM_ARGS: LLVM's default AT&T syntax) and as unit_driver_llvm_args with
// HL_LLVM_ARGS=-x86-asm-syntax=intel, whose assembly must then be in Intel syntax.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace loom;

TEST(LLVMArgs, AssemblySyntaxFollowsHLLLVMArgs) {
    ImageParam in(Float(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x)*2.0f;
    f.vectorize(x, 8);
    std::string s = assembly(f, {in}, Target("x86-64-linux-sse41-avx-avx2"));
    const char *args = std::getenv("HL_LLVM_ARGS");
    if (args && std::string(args).find("-x86-asm-syntax=intel") != std::string::npos) {
        // Intel syntax: "vmulps ymm0, ymm0, ymmword ptr [...]", no %-prefixed registers.
        EXPECT_NE(s.find("ymmword ptr ["), std::string::npos) << s;
        EXPECT_EQ(s.find("%ymm"), std::string::npos) << s;
    } else {
        EXPECT_NE(s.find("%ymm"), std::string::npos) << s;
        EXPECT_EQ(s.find("ymmword ptr"), std::string::npos) << s;
    }
}
