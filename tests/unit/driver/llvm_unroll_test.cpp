// LLVM's unrollers run only with Target::EnableLLVMLoopOpt, as in Halide (optimize_module): a
// loop that contains a vectorized loop is not copied (copying whole inner vector loops cost
// VGG-16 ~12% of its JIT time and nothing at run time).
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace loom;

namespace {

/// out(x, c) = in(x, c) * 3 + 1 over 4 rows c (a constant trip count), x vectorized inside.
Func scale_rows(ImageParam in) {
    Func out("out");
    Var x("x"), c("c");
    out(x, c) = in(x, c) * 3.0f + 1.0f;
    out.bound(c, 0, 4).vectorize(x, 8);
    return out;
}

} // namespace

TEST(LLVMUnroll, OuterLoopOfVectorLoopIsNotUnrolled) {
    ImageParam in(Float(32), 2, "in");
    const Target avx2("x86-64-linux-sse41-avx-avx2-fma");
    int plain = count_in_assembly(scale_rows(in), {in}, "vfmadd", avx2);
    int unrolled = count_in_assembly(scale_rows(in), {in}, "vfmadd",
                                     avx2.with_feature(Target::EnableLLVMLoopOpt));
    // A few fused multiply-adds for the x loop (its steady state and edges): 3 on LLVM 19. The
    // full unroller copied the whole x loop once per row (12), and more with loop opts (52).
    EXPECT_LE(plain, 3) << "the row loop was unrolled (" << plain << " vfmadd; " << unrolled
                        << " with LLVM's loop optimizations)";
    EXPECT_GE(unrolled, 4) << "the contrast case should unroll (" << unrolled << " vfmadd)";

    // The result, against the formula (exact: the values are small integers).
    const int w = 37;
    Buffer<float> input(w, 4);
    for (int c = 0; c < 4; c++) {
        for (int x = 0; x < w; x++) input(x, c) = (float)(x * 5 - c * 7);
    }
    in.set(input);
    Buffer<float> out = scale_rows(in).realize({w, 4});
    for (int c = 0; c < 4; c++) {
        for (int x = 0; x < w; x++)
            ASSERT_EQ(out(x, c), input(x, c) * 3.0f + 1.0f) << x << "," << c;
    }
}
