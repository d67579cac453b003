// add_image_checks: the argument checks at entry and the bounds-query protocol, on a loop nest
// built by hand (out(x) = in(x + 1) over [0, 10)). IR before -> IR expected, compared
// structurally: 1. null / type / dimension assertions on the raw handles; 2. the required
// regions let-bound; 3. a bounds query sets each queried buffer to its region (adjusted to its
// constraints) and returns without computing; 4. otherwise the requirements, the buffer checks
// (in the region, extents non-negative, constraints, sizes), Param ranges, then the body (with
// the constrained fields substituted). Also with Target::NoAsserts and NoBoundsQuery, and the
// size check of a 2-D buffer.
#include "lower_test_util.h"

#include "lower/add_image_checks.h"

using namespace loom;
using namespace loom::test;

namespace {

Expr user_context() { return Variable::make(Handle(), "__user_context"); }
Expr error(const std::string &fn, std::vector<Expr> args) {
    args.insert(args.begin(), user_context());
    return Call::make(Int(32), fn, args, Call::Extern);
}
Expr handle_of(const std::string &b) { return Variable::make(Handle(), b + ".buffer"); }
Expr field(const std::string &b, const std::string &f, int d) {
    return ivar(b + "." + f + "." + std::to_string(d));
}
Expr intrinsic(Type t, const char *name, const std::vector<Expr> &args, bool pure = true) {
    return Call::make(t, name, args, pure ? Call::PureIntrinsic : Call::Intrinsic);
}

/// What the header promises for one 1-D Int(32) buffer `b` required over [rmin_value,
/// rmax_value], in its four parts.
struct Expected {
    std::vector<Stmt> entry;
    std::vector<std::pair<std::string, Expr>> lets;
    std::vector<Stmt> query;
    std::vector<Stmt> checks;
    Expr any_query;

    /// `constraints`: the min, extent and stride constraints of dimension 0 (undefined: none);
    /// `query_min` / `query_extent`: what a bounds query answers.
    /// The type, dimension and region messages name the buffer as Halide's do ("Input buffer
    /// b", or "Output buffer b" for an `output`).
    void buffer(const std::string &b, bool output, const Expr &rmin_value, const Expr &rmax_value,
                const std::vector<Expr> &constraints = {Expr(), Expr(), Expr()},
                Expr query_min = Expr(), Expr query_extent = Expr()) {
        Expr h = handle_of(b);
        Expr described = Expr((output ? "Output buffer " : "Input buffer ") + b);
        entry.push_back(
            AssertStmt::make(NE::make(Reinterpret::make(UInt(64), h), make_zero(UInt(64))),
                             error("halide_error_buffer_argument_is_null", {Expr(b)})));
        Expr packed = make_const(UInt(32), (uint64_t)(0 | (32 << 8) | (1 << 16)));
        Expr type = intrinsic(UInt(32), Call::buffer_get_type, {h});
        entry.push_back(AssertStmt::make(
            type == packed, error("halide_error_bad_type", {described, type, packed})));
        Expr dims = intrinsic(Int(32), Call::buffer_get_dimensions, {h});
        entry.push_back(AssertStmt::make(
            dims == 1, error("halide_error_bad_dimensions", {described, dims, Expr(1)})));
        Expr is_query = intrinsic(Bool(), Call::buffer_is_bounds_query, {h});
        any_query = any_query.defined() ? Or::make(any_query, is_query) : is_query;

        Expr mn = field(b, "min", 0), ext = field(b, "extent", 0), st = field(b, "stride", 0);
        Expr max = mn + ext - 1;
        lets.emplace_back(b + ".min.0.required", rmin_value);
        lets.emplace_back(b + ".extent.0.required", (rmax_value + 1) - rmin_value);
        Expr rmin = ivar(b + ".min.0.required"), rext = ivar(b + ".extent.0.required");
        Expr rmax = rmin + rext - 1;
        query.push_back(IfThenElse::make(
            is_query,
            Block::make(
                Evaluate::make(intrinsic(Int(32), Call::buffer_set_bounds,
                                         {h, Expr(0), query_min.defined() ? query_min : rmin,
                                          query_extent.defined() ? query_extent : rext},
                                         false)),
                Evaluate::make(intrinsic(Int(32), Call::buffer_init_strides, {h}, false)))));
        checks.push_back(AssertStmt::make(
            rext <= 0 || (mn <= rmin && rmax <= max),
            error("halide_error_access_out_of_bounds", {described, Expr(0), rmin, rmax, mn, max})));
        checks.push_back(AssertStmt::make(
            ext >= 0, error("halide_error_buffer_extents_negative", {Expr(b), Expr(0), ext})));
        const Expr fields[] = {mn, ext, st};
        for (int i = 0; i < 3; i++) {
            if (!constraints[i].defined()) continue;
            const std::string &name = fields[i].as<Variable>()->name;
            checks.push_back(AssertStmt::make(
                fields[i] == constraints[i],
                error("halide_error_constraint_violated",
                      {Expr(name), fields[i], Expr(text(constraints[i])), constraints[i]})));
        }
        Expr max_size = make_const(Int(64), (int64_t)0x7fffffff);
        Expr span = Cast::make(Int(64), ext) * Cast::make(Int(64), st);
        span = Select::make(span < make_zero(Int(64)), make_zero(Int(64)) - span, span);
        checks.push_back(AssertStmt::make(
            span <= max_size,
            error("halide_error_buffer_allocation_too_large",
                  {Expr(b), Cast::make(UInt(64), span), Cast::make(UInt(64), max_size)})));
    }

    /// The whole statement around `body` (already with the constrained fields substituted).
    Stmt build(const Stmt &body, bool asserts = true, bool bounds_query = true) const {
        Stmt s = body;
        if (asserts) {
            std::vector<Stmt> c = checks;
            c.push_back(body);
            s = Block::make(c);
        }
        if (bounds_query) s = IfThenElse::make(any_query, Block::make(query), s);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        if (asserts) {
            std::vector<Stmt> e = entry;
            e.push_back(s);
            s = Block::make(e);
        }
        return s;
    }
};

/// out(x) = in(x + 1) for x in [0, 10): reads in over [1, 10], writes out over [0, 9].
struct Nest {
    Parameter in{Int(32), true, 1, "ic_in"};
    Function out = make_func("ic_out", {"x"}, {ivar("x")});
    std::vector<LoweredArgument> args;

    Nest() {
        LoweredArgument a;
        a.name = "ic_in";
        a.kind = LoweredArgument::InputBuffer;
        a.type = Int(32);
        a.dimensions = 1;
        a.param = in;
        args.push_back(a);
        LoweredArgument o;
        o.name = "ic_out";
        o.kind = LoweredArgument::OutputBuffer;
        o.type = Int(32);
        o.dimensions = 1;
        args.push_back(o);
    }

    Stmt body(const Stmt &extra = Stmt()) const {
        Expr x = ivar("ic_out.s0.x");
        Expr read = Call::make(Int(32), "ic_in", {x + 1}, Call::Image, nullptr, 0, in);
        Stmt s = For::make("ic_out.s0.x", 0, 10, ForType::Serial, DeviceAPI::None,
                           Provide::make("ic_out", {read}, {x}, const_true()));
        return extra.defined() ? Block::make(s, extra) : s;
    }

    /// The expected checks of both buffers. Both innermost strides must be 1: the output's by
    /// Halide's default for outputs, the input's by its Parameter's default constraint.
    Expected expected() const {
        Expected e;
        e.buffer("ic_in", false, 1, 10, {Expr(), Expr(), Expr(1)});
        e.buffer("ic_out", true, 0, 9, {Expr(), Expr(), Expr(1)});
        return e;
    }
};

/// The assertions in s whose message calls `fn`.
std::vector<Stmt> asserts_calling(const Stmt &s, const std::string &fn) {
    std::vector<Stmt> found;
    class Find : public IRVisitor {
    public:
        const std::string &fn;
        std::vector<Stmt> &found;
        Find(const std::string &f, std::vector<Stmt> &o) : fn(f), found(o) {}

    protected:
        using IRVisitor::visit;
        void visit(const AssertStmt *op) override {
            const Call *c = op->message.as<Call>();
            if (c && c->name == fn) found.push_back(op);
        }
    } find(fn, found);
    find.dispatch(s);
    return found;
}

} // namespace

TEST(AddImageChecks, EntryChecksRequiredRegionsBoundsQueryThenChecksAndBody) {
    Nest n;
    Stmt after = add_image_checks(n.body(), n.args, {n.out}, {});
    EXPECT_IR_EQ(after, n.expected().build(n.body()));
}

TEST(AddImageChecks, NoAssertsKeepsOnlyTheBoundsQuery) {
    Nest n;
    ImageCheckOptions options;
    options.asserts = false;
    Stmt after = add_image_checks(n.body(), n.args, {n.out}, {}, options);
    EXPECT_IR_EQ(after, n.expected().build(n.body(), /*asserts=*/false));
}

TEST(AddImageChecks, NoBoundsQueryKeepsOnlyTheAssertions) {
    Nest n;
    ImageCheckOptions options;
    options.bounds_query = false;
    Stmt after = add_image_checks(n.body(), n.args, {n.out}, {}, options);
    EXPECT_IR_EQ(after, n.expected().build(n.body(), true, /*bounds_query=*/false));
}

TEST(AddImageChecks, ConstraintsAreCheckedAnsweredToQueriesAndAssumedByTheBody) {
    // in.dim(0).set_min(0).set_extent(16).set_stride(1): each is asserted; a query answers
    // [0, 16); the body, which reads the three fields, sees the constants.
    Nest n;
    n.in.set_min_constraint(0, 0);
    n.in.set_extent_constraint(0, 16);
    n.in.set_stride_constraint(0, 1);
    Stmt reads = Evaluate::make(field("ic_in", "min", 0) + field("ic_in", "extent", 0) +
                                field("ic_in", "stride", 0));
    Stmt after = add_image_checks(n.body(reads), n.args, {n.out}, {});
    Expected e;
    e.buffer("ic_in", false, 1, 10, {Expr(0), Expr(16), Expr(1)}, Expr(0), Expr(16));
    e.buffer("ic_out", true, 0, 9, {Expr(), Expr(), Expr(1)});
    Stmt assumed = Evaluate::make(Expr(0) + Expr(16) + Expr(1));
    EXPECT_IR_EQ(after, e.build(n.body(assumed)));
}

TEST(AddImageChecks, RequirementsComeFirstAndParamRangesAreChecked) {
    Nest n;
    Parameter p(Int(32), false, 0, "ic_p");
    p.set_min_value(Expr(0));
    p.set_max_value(Expr(100));
    Expr pv = Variable::make(Int(32), "ic_p", p);
    LoweredArgument a;
    a.name = "ic_p";
    a.type = Int(32);
    a.param = p;
    n.args.insert(n.args.begin(), a);
    Requirement r;
    r.condition = pv > 3;
    r.error_args = {Expr("p is "), pv};
    Stmt after = add_image_checks(n.body(), n.args, {n.out}, {r});

    Expected e = n.expected();
    std::vector<Stmt> front = {
        AssertStmt::make(
            pv > 3, error("halide_error_requirement_failed",
                          {Expr(text(pv > 3)),
                           Call::make(Handle(), Call::stringify, r.error_args, Call::Intrinsic)})),
        AssertStmt::make(pv >= Expr(0), error("halide_error_param_too_small_i64",
                                              {Expr("ic_p"), Cast::make(Int(64), pv),
                                               Cast::make(Int(64), Expr(0))})),
        AssertStmt::make(pv <= Expr(100), error("halide_error_param_too_large_i64",
                                                {Expr("ic_p"), Cast::make(Int(64), pv),
                                                 Cast::make(Int(64), Expr(100))}))};
    e.checks.insert(e.checks.begin(), front.begin(), front.end());
    EXPECT_IR_EQ(after, e.build(n.body()));
}

TEST(AddImageChecks, TwoDimensionalBufferChecksItsElementCount) {
    Parameter in(UInt(8), true, 2, "ic_in2");
    LoweredArgument a;
    a.name = "ic_in2";
    a.kind = LoweredArgument::InputBuffer;
    a.type = UInt(8);
    a.dimensions = 2;
    a.param = in;
    Expr x = ivar("x"), y = ivar("y");
    Stmt body = For::make("y", 0, 4, ForType::Serial, DeviceAPI::None,
                          For::make("x", 0, 8, ForType::Serial, DeviceAPI::None,
                                    Evaluate::make(Call::make(UInt(8), "ic_in2", {x, y},
                                                              Call::Image, nullptr, 0, in))));
    Stmt after = add_image_checks(body, {a}, {}, {});
    // The type check packs uint8 as code 1, 8 bits, 1 lane.
    std::vector<Stmt> type = asserts_calling(after, "halide_error_bad_type");
    ASSERT_EQ(type.size(), 1u) << after;
    const Call *msg = type[0].as<AssertStmt>()->message.as<Call>();
    EXPECT_IR_EQ(msg->args[3], make_const(UInt(32), (uint64_t)(1 | (8 << 8) | (1 << 16))));
    // Both dimensions are checked; the element count fits in 2^31 - 1.
    EXPECT_EQ(asserts_calling(after, "halide_error_access_out_of_bounds").size(), 2u) << after;
    std::vector<Stmt> count = asserts_calling(after, "halide_error_buffer_extents_too_large");
    ASSERT_EQ(count.size(), 1u) << after;
    Expr n = Cast::make(Int(64), field("ic_in2", "extent", 0)) *
             Cast::make(Int(64), field("ic_in2", "extent", 1));
    EXPECT_IR_EQ(count[0].as<AssertStmt>()->condition,
                 n <= make_const(Int(64), (int64_t)0x7fffffff));
    // The regions required: [0, 7] x [0, 3].
    auto lets = let_bindings(after);
    EXPECT_EQ(eval_let(lets, "ic_in2.min.1.required", {}), 0);
    EXPECT_EQ(eval_let(lets, "ic_in2.extent.1.required", {}), 4);
    EXPECT_EQ(eval_let(lets, "ic_in2.extent.0.required", {}), 8);
}
