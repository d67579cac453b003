// Compiled pipelines check their inputs at entry and report through the runtime's error
// handler; the JIT turns a nonzero return into a RuntimeError carrying that message.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace loom;

using loom_test::expect_error;

TEST(RuntimeErrors, InputTooSmallNamesBufferDimensionAndRegion) {
    ImageParam input(UInt(8), 2, "small_input");
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = input(x + 1, y) + input(x, y + 2);
    Buffer<uint8_t> in(10, 10);
    input.set(in);
    // f over 10 x 10 reads x in [0, 10] and y in [0, 11]: both dimensions are too small.
    expect_error<RuntimeError>([&] { f.realize({10, 10}); }, {"small_input", "10"});
    // Once the input is large enough, the same pipeline runs.
    Buffer<uint8_t> big(11, 12);
    big.fill(3);
    input.set(big);
    Buffer<uint8_t> out = f.realize({10, 10});
    EXPECT_EQ(out(4, 4), 6);
}

TEST(RuntimeErrors, WrongBufferType) {
    ImageParam input(Float(32), 1, "float_input");
    Func f("f");
    Var x("x");
    f(x) = input(x) * 2.0f;
    Buffer<int32_t> wrong(10);
    // Loom refuses the binding up front (a CompileError); a run would fail the entry check.
    expect_error<Error>(
        [&] {
            input.set(wrong);
            f.realize({10});
        },
        {"float_input"});
}

TEST(RuntimeErrors, ConstraintViolated) {
    ImageParam input(UInt(8), 1, "constrained");
    input.dim(0).set_min(0);
    input.dim(0).set_extent(16);
    Func f("f");
    Var x("x");
    f(x) = input(x);
    Buffer<uint8_t> in(20);
    input.set(in);
    expect_error<RuntimeError>([&] { f.realize({16}); }, {"constrained"});
}

TEST(RuntimeErrors, OutputRegionPassesThroughShiftedBuffers) {
    // Not an error: an output buffer with a shifted origin is a legal region to realize over.
    Func f("f");
    Var x("x");
    f(x) = x * 2;
    Buffer<int32_t> out(5);
    out.set_min(100);
    f.realize(out);
    for (int i = 100; i < 105; i++) EXPECT_EQ(out(i), i * 2);
}

TEST(RuntimeErrors, HostPointerNotAlignedAsPromised) {
    // set_host_alignment(32) lets the compiled code use aligned vector accesses: a buffer whose
    // host pointer breaks the promise is refused before anything reads it.
    ImageParam input(Float(32), 1, "aligned_input");
    input.set_host_alignment(32);
    Func f("f");
    Var x("x");
    f(x) = input(x) * 2.0f;
    f.vectorize(x, 8);
    std::vector<float> storage(64 + 8, 1.0f);
    // The first element of storage that is 32-byte aligned, and one 4 bytes past it.
    float *aligned = storage.data();
    while (reinterpret_cast<uintptr_t>(aligned) % 32) aligned++;
    Buffer<float> shifted(aligned + 1, {32});
    input.set(shifted);
    expect_error<RuntimeError>([&] { f.realize({32}); },
                               {"aligned_input", "not aligned to a 32 bytes boundary"});
    Buffer<float> ok(aligned, {32});
    input.set(ok);
    Buffer<float> out = f.realize({32});
    EXPECT_EQ(out(31), 2.0f);
}
