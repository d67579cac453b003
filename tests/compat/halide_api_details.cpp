// Smaller pieces of Halide 21's API (built against Loom and, as compat_halide_api_details_halide,
// against Halide): Param<void> made from and assigned typed Params, user_context_value(),
// Runtime::Buffer's default allocation functions, halide_buffer_t's C++ helpers, unrolling long
// loops, HL_PERMIT_FAILED_UNROLL, where print_loop_nest writes and how it names RVars, and long
// chains of inlined Funcs.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;

namespace {

int allocations = 0, deallocations = 0;
void *counting_malloc(size_t n) {
    allocations++;
    return std::malloc(n);
}
void counting_free(void *p) {
    deallocations++;
    std::free(p);
}

} // namespace

TEST(HalideApiDetails, ParamVoidConversions) {
    Param<int> typed("typed_param", 7);
    Param<void> any = typed; // the same parameter
    EXPECT_EQ(any.type(), Int(32));
    EXPECT_EQ(any.name(), typed.name());
    any.set(12);
    EXPECT_EQ(typed.get(), 12);
    Param<int> back = any;
    EXPECT_EQ(back.get(), 12);
    Param<float> wrong("wrong_param");
    Param<void> other = wrong;
    bool refused = false;
    try {
        Param<int> bad = other;
        (void)bad;
    } catch (const CompileError &) {
        refused = true;
    }
    EXPECT_TRUE(refused);
    Param<void> assigned(Float(32), "assigned_param");
    assigned = typed;
    EXPECT_EQ(assigned.type(), Int(32));

    Var x("x");
    Func f("param_void_user");
    f(x) = x + any;
    Buffer<int> out = f.realize({3});
    EXPECT_EQ(out(2), 14);
}

TEST(HalideApiDetails, UserContextValue) {
    Func f("uses_user_context");
    f() = cast<int>(reinterpret<uint64_t>(user_context_value()) != cast<uint64_t>(0));
    Buffer<int> out = f.realize();
    EXPECT_EQ(out(), 1); // JIT calls pass a context
}

TEST(HalideApiDetails, RuntimeBufferDefaultAllocators) {
    Runtime::Buffer<int>::set_default_allocate_fn(counting_malloc);
    Runtime::Buffer<int>::set_default_deallocate_fn(counting_free);
    {
        Runtime::Buffer<float> b(16, 4); // every element type shares the defaults
        b.fill(1.5f);
        EXPECT_EQ(b(3, 2), 1.5f);
    }
    Runtime::Buffer<int>::set_default_allocate_fn(nullptr);
    Runtime::Buffer<int>::set_default_deallocate_fn(nullptr);
    EXPECT_EQ(allocations, 1);
    EXPECT_EQ(deallocations, 1);
    Runtime::Buffer<uint8_t> c(8);
    EXPECT_EQ(allocations, 1);
    EXPECT_EQ(Runtime::Buffer<uint16_t>::static_halide_type(), halide_type_of<uint16_t>());
}

TEST(HalideApiDetails, RawBufferHelpers) {
    Buffer<int> b(5, 4);
    b.set_min(2, -1);
    for (int y = -1; y < 3; y++) {
        for (int x = 2; x < 7; x++) b(x, y) = x * 10 + y;
    }
    const halide_buffer_t *raw = b.raw_buffer();
    int pos[2] = {4, 1};
    EXPECT_EQ(*(const int *)raw->address_of(pos), 41);
    EXPECT_EQ(raw->number_of_elements(), 20u);
    EXPECT_EQ(raw->size_in_bytes(), 20 * sizeof(int));
    EXPECT_EQ(raw->end() - raw->begin(), (ptrdiff_t)(20 * sizeof(int)));
    EXPECT_EQ(raw->begin(), raw->host);
}

TEST(HalideApiDetails, UnrollingLongLoopsAndPermittedFailures) {
    Var x("x");
    Func f("unrolled_long");
    f(x) = x * 2;
    f.bound(x, 0, 2000).unroll(x);
    Buffer<int> a = f.realize({2000});
    EXPECT_EQ(a(1999), 3998);

    Func g("unrolled_unknown");
    g(x) = x * 3;
    g.unroll(x);
    bool refused = false;
    try {
        g.realize({5});
    } catch (const CompileError &) {
        refused = true;
    }
    EXPECT_TRUE(refused);

    setenv("HL_PERMIT_FAILED_UNROLL", "1", 1);
    Func h("unrolled_permitted");
    h(x) = x * 3;
    h.unroll(x);
    Buffer<int> c = h.realize({5});
    unsetenv("HL_PERMIT_FAILED_UNROLL");
    for (int i = 0; i < 5; i++) EXPECT_EQ(c(i), 3 * i);
}

// print_loop_nest writes to stderr (a program's stdout is its own) and shows an RVar as its
// RDom's name: Halide names the RVars of RDom q "q$x" and "q$y" and prints both loops as "q".
TEST(HalideApiDetails, LoopNestGoesToStderrWithRDomNames) {
    Var x("x");
    RDom r(0, 10, "r"), q(0, 3, 0, 4, "q");
    Func k("nest_names");
    k(x) = 0;
    k(x) += r;
    k(x) += q.x * q.y;
    RVar ro("ro"), ri("ri");
    k.update(0).split(r, ro, ri, 2);
    k.update(1).unscheduled();
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    k.print_loop_nest();
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    EXPECT_EQ(err, "produce nest_names:\n"
                   "  for x:\n"
                   "    nest_names(...) = ...\n"
                   "  for x:\n"
                   "    for r.ro in [0, 4]:\n"
                   "      for r.ri in [0, 1]:\n"
                   "        nest_names(...) = ...\n"
                   "  for x:\n"
                   "    for q in [0, 3]:\n"
                   "      for q in [0, 2]:\n"
                   "        nest_names(...) = ...\n");
}

// Inlining a chain of Funcs that each read the previous one several times at the same point
// names each value once (a chain of 100 ran out of memory when each call got its own copy),
// and a chain of inlined stencils reads each point once however many paths lead to it.
TEST(HalideApiDetails, LongChainsOfInlinedFuncs) {
    Var x("x"), y("y");
    Func prev("chain_0");
    prev(x, y) = x - 2 * y;
    for (int i = 1; i < 100; i++) {
        Func f("chain_" + std::to_string(i));
        f(x, y) = select(prev(x, y) > 0, prev(x, y), 0 - prev(x, y)) + 1;
        prev = f;
    }
    Buffer<int> chain = prev.realize({6, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 6; i++) {
            int v = i - 2 * j;
            for (int k = 1; k < 100; k++) v = (v > 0 ? v : -v) + 1;
            ASSERT_EQ(chain(i, j), v) << i << ", " << j;
        }
    }

    const int stages = 8, width = 16;
    Func blur("stencil_0");
    blur(x) = (x * 37) % 101;
    for (int i = 1; i <= stages; i++) {
        Func f("stencil_" + std::to_string(i));
        f(x) = (blur(x - 1) + 2 * blur(x) + blur(x + 1)) / 4;
        blur = f;
    }
    Buffer<int> blurred = blur.realize({width});
    // Reference: each stage over the region the next one reads.
    std::vector<int> row(width + 2 * stages);
    // Halide's % of a negative number is Euclidean: the result is never negative.
    for (int i = 0; i < (int)row.size(); i++) row[i] = (((i - stages) * 37) % 101 + 101) % 101;
    for (int s = 1; s <= stages; s++) {
        std::vector<int> next(row.size(), 0);
        for (int i = s; i < (int)row.size() - s; i++) {
            next[i] = (row[i - 1] + 2 * row[i] + row[i + 1]) / 4;
        }
        row = next;
    }
    for (int i = 0; i < width; i++) ASSERT_EQ(blurred(i), row[i + stages]) << i;
}
