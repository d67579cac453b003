// bound_small_allocations: allocations whose size has a constant upper bound (from enclosing
// lets and loop bounds, including per-tile regions under ShiftInwards splits) go on the stack
// with that size; large or unbounded ones stay; Stack/Register without a bound are errors.
#include "lower/bound_small_allocations.h"

#include "common/expect_error.h"
#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

const Allocate *find_allocate(const Stmt &s, const std::string &name) {
    const Allocate *found = nullptr;
    class Find : public IRVisitor {
    public:
        std::string name;
        const Allocate **found;
        Find(std::string n, const Allocate **f) : name(std::move(n)), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            if (op->name == name) *found = op;
            IRVisitor::visit(op);
        }
    } f(name, &found);
    f.dispatch(s);
    return found;
}

Stmt store_to(const std::string &buf, const Expr &index) {
    return Store::make(buf, make_const(Int(32), 1), index, Parameter(), const_true());
}

Stmt alloc(const std::string &name, Type t, MemoryType m, const std::vector<Expr> &extents,
           const Stmt &body) {
    return Allocate::make(name, t, m, extents, const_true(), body);
}

TEST(BoundSmallAllocations, ConstantExtentsGoOnTheStack) {
    Stmt s = alloc("f", Int(32), MemoryType::Auto, {16, 4}, store_to("f", 0));
    Stmt r = bound_small_allocations(s);
    const Allocate *a = find_allocate(r, "f");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->memory_type, MemoryType::Stack);
    ASSERT_EQ(a->extents.size(), 1u);
    EXPECT_TRUE(is_const(a->extents[0], 64)) << r;
}

TEST(BoundSmallAllocations, PerTileRegionOfShiftInwardsSplit) {
    // The per-tile region of a producer under a ShiftInwards split of a consumer by 32:
    // its rows are [min(t*32, n-32) - 1, min(t*32 + 32, n)], at most 34 of them, although
    // neither end is bounded.
    Expr t = ivar("t"), n = ivar("n");
    Expr ymin = min(t * 32, n - 32) - 1;
    Expr ymax = min(t * 32 + 32, n);
    Expr extent = ivar("f.y.extent");
    Stmt body = alloc("f", UInt(16), MemoryType::Auto, {256, extent}, store_to("f", 0));
    body = LetStmt::make("f.y.extent", ivar("f.y.max") - ivar("f.y.min") + 1, body);
    body = LetStmt::make("f.y.max", ymax, body);
    body = LetStmt::make("f.y.min", ymin, body);
    Stmt s = For::make("t", 0, (n + 31) / 32, ForType::Parallel, DeviceAPI::Host, body);
    Stmt r = bound_small_allocations(s);
    const Allocate *a = find_allocate(r, "f");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->memory_type, MemoryType::Stack) << r;
    ASSERT_EQ(a->extents.size(), 1u);
    EXPECT_TRUE(is_const(a->extents[0], 256 * 34)) << r;
}

TEST(BoundSmallAllocations, LoopBoundsBoundTheExtent) {
    // for (i, 0, 10) allocate f[int32 * (i + 1)]: at most 10 elements.
    Expr i = ivar("i");
    Stmt body = alloc("f", Int(32), MemoryType::Auto, {i + 1}, store_to("f", i));
    Stmt r = bound_small_allocations(For::make("i", 0, 10, ForType::Serial, DeviceAPI::Host, body));
    const Allocate *a = find_allocate(r, "f");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->memory_type, MemoryType::Stack);
    EXPECT_TRUE(is_const(a->extents[0], 10)) << r;
}

TEST(BoundSmallAllocations, LargeOrUnboundedStayOnTheHeap) {
    Stmt big = alloc("f", Int(32), MemoryType::Auto, {1024, 1024}, store_to("f", 0));
    Stmt r_big = bound_small_allocations(big);
    const Allocate *a = find_allocate(r_big, "f");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->memory_type, MemoryType::Auto);
    EXPECT_EQ(a->extents.size(), 2u);

    Stmt dynamic = alloc("g", Int(32), MemoryType::Auto, {ivar("n")}, store_to("g", 0));
    Stmt r_dynamic = bound_small_allocations(dynamic);
    a = find_allocate(r_dynamic, "g");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->memory_type, MemoryType::Auto);

    Stmt heap = alloc("h", Int(32), MemoryType::Heap, {4}, store_to("h", 0));
    Stmt r_heap = bound_small_allocations(heap);
    a = find_allocate(r_heap, "h");
    EXPECT_EQ(a->memory_type, MemoryType::Heap);
}

TEST(BoundSmallAllocations, ExplicitStackWithoutABoundStaysDynamic) {
    // Codegen allocas it for the allocation's scope, as Halide does.
    Stmt s = alloc("f", Int(32), MemoryType::Stack, {ivar("n")}, store_to("f", 0));
    EXPECT_IR_EQ(bound_small_allocations(s), s);
    // Explicit Stack has no size limit.
    Stmt big = alloc("g", Int(32), MemoryType::Stack, {256, 256}, store_to("g", 0));
    Stmt r_big = bound_small_allocations(big);
    const Allocate *a = find_allocate(r_big, "g");
    EXPECT_EQ(a->memory_type, MemoryType::Stack);
    EXPECT_TRUE(is_const(a->extents[0], 65536));
}

TEST(BoundSmallAllocations, RegisterNeedsConstantIndices) {
    Stmt ok = alloc("f", Int(32), MemoryType::Register, {4},
                    Block::make(store_to("f", 3), store_to("f", 1)));
    Stmt r_ok = bound_small_allocations(ok);
    const Allocate *a = find_allocate(r_ok, "f");
    EXPECT_EQ(a->memory_type, MemoryType::Register);

    Expr i = ivar("i");
    Stmt bad = alloc("f", Int(32), MemoryType::Register, {4},
                     For::make("i", 0, 4, ForType::Serial, DeviceAPI::Host, store_to("f", i)));
    loom_test::expect_error([&] { bound_small_allocations(bad); },
                            {"Allocation f", "registers", "non-constant index"});

    Stmt dynamic = alloc("g", Int(32), MemoryType::Register, {ivar("n")}, store_to("g", 0));
    loom_test::expect_error([&] { bound_small_allocations(dynamic); },
                            {"Allocation g has a dynamic size", "registers"});
}

} // namespace
} // namespace test
} // namespace loom
