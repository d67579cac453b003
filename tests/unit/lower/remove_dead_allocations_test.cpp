// remove_dead_allocations: an allocation only stored to disappears with its stores; one that is
// loaded, or passed out by its host pointer (extern stages), stays.
#include "lower/remove_dead_allocations.h"

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

bool has_allocate(const Stmt &s, const std::string &name) {
    bool found = false;
    visit_exprs(s, [](const Expr &) { return true; });
    class Find : public IRVisitor {
    public:
        std::string name;
        bool *found;
        Find(std::string n, bool *f) : name(std::move(n)), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            *found = *found || op->name == name;
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            *found = *found || op->name == name;
            IRVisitor::visit(op);
        }
    } f(name, &found);
    f.dispatch(s);
    return found;
}

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

TEST(RemoveDeadAllocations, StoredOnlyIsRemoved) {
    Expr x = ivar("x");
    Stmt body =
        Block::make(For::make("x", 0, 8, ForType::Serial, DeviceAPI::Host, store("tmp", x * 2, x)),
                    store("out", 7, 0));
    Stmt s = Allocate::make("tmp", Int(32), MemoryType::Auto, {8}, const_true(), body);
    Stmt r = remove_dead_allocations(s);
    EXPECT_FALSE(has_allocate(r, "tmp")) << r;
    EXPECT_TRUE(has_allocate(r, "out")) << r;
}

TEST(RemoveDeadAllocations, LoadedOrPassedOutStays) {
    Stmt loaded =
        Allocate::make("tmp", Int(32), MemoryType::Auto, {8}, const_true(),
                       Block::make(store("tmp", 1, 0),
                                   store("out", Load::make(Int(32), "tmp", 0, const_true()), 0)));
    EXPECT_TRUE(has_allocate(remove_dead_allocations(loaded), "tmp"));

    Expr call =
        Call::make(Int(32), "extern_stage", {Variable::make(Handle(), "tmp")}, Call::Extern);
    Stmt passed = Allocate::make("tmp", Int(32), MemoryType::Auto, {8}, const_true(),
                                 Block::make(store("tmp", 1, 0), Evaluate::make(call)));
    EXPECT_TRUE(has_allocate(remove_dead_allocations(passed), "tmp"));
}

TEST(RemoveDeadAllocations, SideEffectsOfStoredValuesStay) {
    Expr call = Call::make(Int(32), "side_effect", {}, Call::Extern);
    Stmt s =
        Allocate::make("tmp", Int(32), MemoryType::Auto, {8}, const_true(), store("tmp", call, 0));
    Stmt r = remove_dead_allocations(s);
    EXPECT_FALSE(has_allocate(r, "tmp"));
    const Evaluate *e = r.as<Evaluate>();
    ASSERT_NE(e, nullptr) << r;
    EXPECT_TRUE(equal(e->value, call));
}

} // namespace
} // namespace test
} // namespace loom
