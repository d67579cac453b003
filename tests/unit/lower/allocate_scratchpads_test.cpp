// allocate_scratchpads: buffers in a scratchpad get offsets like a stack (nested ones follow
// each other, siblings share, the sides of a Fork never do), the block's size is the most used
// at once, extents are bounded through loops and assumed ranges, and a size that is not a
// constant is checked when the code runs.
#include "lower/allocate_scratchpads.h"

#include "ir/scratchpads.h"
#include "lower_test_util.h"

#include <map>
#include <vector>

namespace loom {
namespace test {
namespace {

MemoryType memory() { return declare_scratchpad("unit_pad", 1000, 16).type; }

Stmt use(const std::string &buf) {
    return Store::make(buf, make_const(Int(32), 1), 0, Parameter(), const_true());
}

Stmt alloc(const std::string &name, int elements, const Stmt &body) {
    return Allocate::make(name, Int(32), memory(), {elements}, const_true(), body);
}

/// The offset of each buffer and the block size, read from the scratchpad_address lets.
struct Placement {
    std::map<std::string, int64_t> offsets;
    int64_t block_size = -1;
};

Placement placement(const Stmt &s) {
    Placement p;
    class Reader : public IRVisitor {
    public:
        Placement *p;

    protected:
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            const Call *c = op->value.as<Call>();
            if (c && c->name == scratchpad_address_intrinsic) {
                p->offsets[op->name] = *as_const_int(c->args[4]);
                p->block_size = *as_const_int(c->args[2]);
            }
            IRVisitor::visit(op);
        }
    } reader;
    reader.p = &p;
    reader.dispatch(s);
    return p;
}

TEST(AllocateScratchpads, NestedFollowSiblingsShare) {
    // a (10 ints) around b (3 ints) and, after it, c (5 ints): b and c are never live at once.
    Stmt s =
        alloc("a", 10, Block::make({use("a"), alloc("b", 3, use("b")), alloc("c", 5, use("c"))}));
    Stmt r = allocate_scratchpads(s, "f", {});
    Placement p = placement(r);
    EXPECT_EQ(p.offsets["a"], 0);
    EXPECT_EQ(p.offsets["b"], 48); // 40 bytes, aligned to 16
    EXPECT_EQ(p.offsets["c"], 48);
    EXPECT_EQ(p.block_size, 48 + 20);
    EXPECT_EQ(count_nodes<Call>(r), 3) << r; // no size checks: constant sizes
    EXPECT_EQ(text(r).find("allocate"), std::string::npos) << r;
}

TEST(AllocateScratchpads, TheSidesOfAForkNeverShare) {
    Stmt s = Fork::make(alloc("b", 3, use("b")), alloc("c", 5, use("c")));
    Placement p = placement(allocate_scratchpads(s, "f", {}));
    EXPECT_EQ(p.offsets["b"], 0);
    EXPECT_EQ(p.offsets["c"], 16);
    EXPECT_EQ(p.block_size, 36);
}

TEST(AllocateScratchpads, ExtentsBoundedByLoopsAndAssumptions) {
    // for (x, 0, n) { allocate t[min(n - x, 8)] }: at most 8 elements, checked at run time.
    Expr x = ivar("x"), n = ivar("n");
    Stmt inner = Allocate::make("t", Int(32), memory(), {min(n - x, 8)}, const_true(), use("t"));
    Stmt s = For::make("x", 0, n, ForType::Serial, DeviceAPI::Host, inner);
    Stmt r = allocate_scratchpads(s, "f", {});
    EXPECT_EQ(placement(r).block_size, 32);
    EXPECT_NE(text(r).find("halide_error_buffer_allocation_too_large"), std::string::npos) << r;

    // allocate u[out.extent.0 + 2]: bounded only by an assumption (an estimate of 100).
    Expr w = ivar("out.extent.0");
    Stmt u = Allocate::make("u", Int(32), memory(), {w + 2}, const_true(), use("u"));
    ConstantScope assumed;
    assumed["out.extent.0"] = ConstantInterval::bounded(0, 100);
    EXPECT_EQ(placement(allocate_scratchpads(u, "f", assumed)).block_size, 408);
    EXPECT_THROW(allocate_scratchpads(u, "f", {}), CompileError);
}

TEST(AllocateScratchpads, OtherAllocationsAreLeftAlone) {
    Stmt s = Allocate::make("h", Int(32), MemoryType::Heap, {ivar("n")}, const_true(), use("h"));
    EXPECT_TRUE(allocate_scratchpads(s, "f", {}).same_as(s));
}

} // namespace
} // namespace test
} // namespace loom
