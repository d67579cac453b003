// ImageParam / OutputImageParam / Dimension and Buffer calls: the Exprs they build, the
// constraints they record in the Parameter, binding buffers, and the errors for bad calls.
#include <loom/argument.h>
#include <loom/buffer.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/ir_operator.h>
#include <loom/param.h>
#include <loom/rdom.h>
#include <loom/var.h>

#include "ir/ir.h"
#include "ir/parameter.h"
#include "lang/function.h"

#include <gtest/gtest.h>

#include <functional>

using namespace loom;
using namespace loom::internal;

namespace {

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "<no error>";
}

void expect_shape_var(const Expr &e, const std::string &name, const Parameter &p) {
    const Variable *v = e.as<Variable>();
    ASSERT_NE(v, nullptr) << e;
    EXPECT_EQ(v->name, name);
    EXPECT_EQ(v->type, Int(32));
    EXPECT_TRUE(v->param.same_as(p)) << name;
}

int64_t const_int(const Expr &e) {
    const IntImm *i = e.as<IntImm>();
    EXPECT_NE(i, nullptr) << e;
    return i ? i->value : -999;
}

} // namespace

TEST(ImageParam, BasicQueries) {
    ImageParam im(UInt(8), 3, "input");
    EXPECT_TRUE(im.defined());
    EXPECT_EQ(im.name(), "input");
    EXPECT_EQ(im.type(), UInt(8));
    EXPECT_EQ(im.dimensions(), 3);
    Parameter p = im.parameter();
    EXPECT_TRUE(p.is_buffer());
    EXPECT_EQ(p.dimensions(), 3);
    EXPECT_EQ(p.name(), "input");

    ImageParam unnamed(Float(32), 1);
    EXPECT_EQ(unnamed.name()[0], 'p');
    ImageParam unnamed2(Float(32), 1);
    EXPECT_NE(unnamed.name(), unnamed2.name());
    EXPECT_FALSE(ImageParam().defined());
}

TEST(ImageParam, DimensionExprsAreTheNamesLoweringBinds) {
    ImageParam im(Int(16), 3, "im");
    Parameter p = im.parameter();
    for (int i = 0; i < 3; i++) {
        std::string s = std::to_string(i);
        expect_shape_var(im.dim(i).min(), "im.min." + s, p);
        expect_shape_var(im.dim(i).extent(), "im.extent." + s, p);
        expect_shape_var(im.dim(i).stride(), "im.stride." + s, p);
        // max = min + extent - 1
        Expr sub_e = im.dim(i).max();
        const Sub *sub = sub_e.as<Sub>();
        ASSERT_NE(sub, nullptr);
        EXPECT_EQ(const_int(sub->b), 1);
        const Add *add = sub->a.as<Add>();
        ASSERT_NE(add, nullptr);
        expect_shape_var(add->a, "im.min." + s, p);
        expect_shape_var(add->b, "im.extent." + s, p);
        EXPECT_EQ(im.dim(i).index(), i);
    }
    expect_shape_var(im.width(), "im.extent.0", p);
    expect_shape_var(im.height(), "im.extent.1", p);
    expect_shape_var(im.channels(), "im.extent.2", p);
    expect_shape_var(im.left(), "im.min.0", p);
    expect_shape_var(im.top(), "im.min.1", p);
    Expr right_e = im.right();
    const Sub *right = right_e.as<Sub>();
    ASSERT_NE(right, nullptr);
    expect_shape_var(right->a.as<Add>()->b, "im.extent.0", p);
    Expr bottom_e = im.bottom();
    const Sub *bottom = bottom_e.as<Sub>();
    ASSERT_NE(bottom, nullptr);
    expect_shape_var(bottom->a.as<Add>()->a, "im.min.1", p);
}

TEST(ImageParam, ConstraintsAreRecordedInTheParameter) {
    ImageParam im(UInt(8), 3, "c");
    Parameter p = im.parameter();
    for (int i = 0; i < 3; i++) {
        EXPECT_FALSE(p.min_constraint(i).defined());
        EXPECT_FALSE(p.extent_constraint(i).defined());
        // Halide's default: the innermost dimension is dense.
        EXPECT_EQ(p.stride_constraint(i).defined(), i == 0);
    }
    EXPECT_EQ(const_int(p.stride_constraint(0)), 1);
    Param<int> w("w");
    // Chaining through dim(i), as Halide code does.
    im.dim(0).set_min(0).set_stride(1).dim(2).set_bounds(0, 3).dim(1).set_extent(w);
    EXPECT_EQ(const_int(p.min_constraint(0)), 0);
    EXPECT_EQ(const_int(p.stride_constraint(0)), 1);
    EXPECT_EQ(const_int(p.min_constraint(2)), 0);
    EXPECT_EQ(const_int(p.extent_constraint(2)), 3);
    const Variable *wv = p.extent_constraint(1).as<Variable>();
    ASSERT_NE(wv, nullptr);
    EXPECT_EQ(wv->name, "w");
    EXPECT_FALSE(p.min_constraint(1).defined());
    EXPECT_FALSE(p.extent_constraint(0).defined());
    // Constant constraints are also the estimates; symbolic ones are not.
    EXPECT_EQ(const_int(p.min_constraint_estimate(0)), 0);
    EXPECT_EQ(const_int(p.extent_constraint_estimate(2)), 3);
    EXPECT_FALSE(p.extent_constraint_estimate(1).defined());
    EXPECT_EQ(const_int(im.dim(2).extent_estimate()), 3);

    // Narrower integer constraints become Int(32); an undefined Expr removes a constraint.
    im.dim(1).set_min(Expr((int16_t)4));
    EXPECT_EQ(p.min_constraint(1).type(), Int(32));
    im.dim(0).set_stride(Expr());
    EXPECT_FALSE(p.stride_constraint(0).defined());

    // Estimates alone constrain nothing.
    im.dim(1).set_estimate(0, 480);
    EXPECT_EQ(const_int(p.min_constraint_estimate(1)), 0);
    EXPECT_EQ(const_int(p.extent_constraint_estimate(1)), 480);
    EXPECT_EQ(const_int(im.dim(1).min_estimate()), 0);
    EXPECT_TRUE(p.extent_constraint(1).as<Variable>() != nullptr); // still w

    im.set_estimates({{0, 640}, {0, 480}, {0, 3}});
    EXPECT_EQ(const_int(p.extent_constraint_estimate(0)), 640);
    EXPECT_THROW(im.set_estimates({{0, 640}}), CompileError);

    EXPECT_THROW(im.dim(0).set_min(1.5f), CompileError);
}

TEST(ImageParam, HostAlignment) {
    ImageParam im(Float(32), 2, "al");
    im.set_host_alignment(64).set_host_alignment(32);
    EXPECT_EQ(im.host_alignment(), 32);
    EXPECT_EQ(im.parameter().host_alignment(), 32);
    EXPECT_THROW(im.set_host_alignment(24), CompileError);
}

TEST(ImageParam, BadDimensionIndexIsACompileError) {
    ImageParam im(UInt(8), 2, "twod");
    std::string msg = error_of([&] { im.dim(2); });
    EXPECT_NE(msg.find("twod"), std::string::npos) << msg;
    EXPECT_NE(msg.find("2"), std::string::npos) << msg;
    EXPECT_THROW(im.dim(-1), CompileError);
    EXPECT_THROW(im.channels(), CompileError);
    EXPECT_THROW(im.dim(0).dim(5), CompileError);
}

TEST(ImageParam, CallsAreImageCallsWithTheParameterAttached) {
    ImageParam im(UInt(16), 2, "src");
    Var x("x"), y("y");
    Expr c = im(x + 1, y);
    const Call *call = c.as<Call>();
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->call_type, Call::Image);
    EXPECT_EQ(call->name, "src");
    EXPECT_EQ(call->type, UInt(16));
    EXPECT_TRUE(call->param.same_as(im.parameter()));
    ASSERT_EQ(call->args.size(), 2u);
    EXPECT_TRUE(call->args[0].as<Add>() != nullptr);
    EXPECT_EQ(call->args[1].as<Variable>()->name, "y");

    // Vectors of Vars and Exprs, and ints.
    EXPECT_EQ(im(std::vector<Var>{x, y}).as<Call>()->args.size(), 2u);
    EXPECT_EQ(im(std::vector<Expr>{x, 3}).as<Call>()->args.size(), 2u);
    Expr ints_e = im(3, 4);
    const Call *ints = ints_e.as<Call>();
    ASSERT_NE(ints, nullptr);
    EXPECT_EQ(const_int(ints->args[1]), 4);

    // Narrow integer coordinates are cast to Int(32).
    Expr narrow_e = im(cast<uint8_t>(x), y);
    const Call *narrow = narrow_e.as<Call>();
    const Cast *cast0 = narrow->args[0].as<Cast>();
    ASSERT_NE(cast0, nullptr);
    EXPECT_EQ(cast0->type, Int(32));

    // RVars work as coordinates.
    RDom r(0, 10);
    Expr rc_e = im(r, y);
    const Call *rc = rc_e.as<Call>();
    EXPECT_TRUE(rc->args[0].as<Variable>()->reduction_domain.defined());
}

TEST(ImageParam, PlaceholderExpandsToImplicitVars) {
    ImageParam im(Int(32), 3, "p3");
    Var x("x");
    Expr all_e = im(_);
    const Call *all = all_e.as<Call>();
    ASSERT_NE(all, nullptr);
    ASSERT_EQ(all->args.size(), 3u);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(all->args[i].as<Variable>()->name, "_" + std::to_string(i));
    }
    Expr tail_e = im(x, _);
    const Call *tail = tail_e.as<Call>();
    ASSERT_EQ(tail->args.size(), 3u);
    EXPECT_EQ(tail->args[0].as<Variable>()->name, "x");
    EXPECT_EQ(tail->args[1].as<Variable>()->name, "_0");
    EXPECT_EQ(tail->args[2].as<Variable>()->name, "_1");
    Expr head_e = im(_, x);
    const Call *head = head_e.as<Call>();
    EXPECT_EQ(head->args[0].as<Variable>()->name, "_0");
    EXPECT_EQ(head->args[1].as<Variable>()->name, "_1");
    EXPECT_EQ(head->args[2].as<Variable>()->name, "x");
}

TEST(ImageParam, WrongArgumentsAreCompileErrors) {
    ImageParam im(UInt(8), 2, "lut2d");
    Var x("x"), y("y"), z("z");
    std::string msg = error_of([&] { im(x); });
    EXPECT_NE(msg.find("lut2d"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1 argument"), std::string::npos) << msg;
    EXPECT_NE(msg.find("2 dimensions"), std::string::npos) << msg;
    msg = error_of([&] { im(x, y, z); });
    EXPECT_NE(msg.find("3 arguments"), std::string::npos) << msg;
    EXPECT_THROW(im(), CompileError);
    msg = error_of([&] { im(cast<float>(x), y); });
    EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("lut2d"), std::string::npos) << msg;
    EXPECT_THROW(im(cast<int64_t>(x), y), CompileError);
    EXPECT_THROW(im(cast<uint32_t>(x), y), CompileError);
    EXPECT_THROW(im(Expr(), y), CompileError);
}

TEST(ImageParam, SetGetReset) {
    ImageParam im(Int(32), 2, "bound");
    EXPECT_FALSE(im.get().defined());
    Buffer<int32_t> b(std::vector<int>{4, 3}, "b_data");
    im.set(b);
    ASSERT_TRUE(im.get().defined());
    EXPECT_TRUE(im.get().same_as(Buffer<void>(b)));
    EXPECT_TRUE(im.parameter().buffer().same_as(Buffer<void>(b)));
    im.reset();
    EXPECT_FALSE(im.get().defined());

    Buffer<float> wrong_type(4, 3);
    std::string msg = error_of([&] { im.set(wrong_type); });
    EXPECT_NE(msg.find("bound"), std::string::npos) << msg;
    EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
    Buffer<int32_t> wrong_dims(4);
    EXPECT_THROW(im.set(wrong_dims), CompileError);
}

TEST(ImageParam, ConvertsToOneCachedFunc) {
    ImageParam im(UInt(8), 2, "wrapped");
    Func f = im;
    Func g = im;
    ImageParam copy = im;
    Func h = copy;
    EXPECT_TRUE(f.function().same_as(g.function()));
    EXPECT_TRUE(f.function().same_as(h.function()));
    EXPECT_EQ(f.dimensions(), 2);
    EXPECT_EQ(f.type(), UInt(8));
    Function fn = f.function();
    ASSERT_TRUE(fn.has_pure_definition());
    EXPECT_EQ(fn.args()[0], "_0");
    EXPECT_EQ(fn.args()[1], "_1");
    const Call *c = fn.definition().values[0].as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->call_type, Call::Image);
    EXPECT_TRUE(c->param.same_as(im.parameter()));
    EXPECT_EQ(c->args[0].as<Variable>()->name, "_0");
    EXPECT_NE(f.name(), im.name()); // a Func and an input can't share a name
}

TEST(ImageParam, ConvertsToArguments) {
    ImageParam im(UInt(16), 3, "arg_in");
    Argument a = im;
    EXPECT_EQ(a.name, "arg_in");
    EXPECT_EQ(a.kind, Argument::InputBuffer);
    EXPECT_EQ(a.type, UInt(16));
    EXPECT_EQ(a.dimensions, 3);

    Parameter out(Float(32), true, 2, "out_param");
    OutputImageParam o(out);
    EXPECT_EQ(o.name(), "out_param");
    expect_shape_var(o.dim(1).stride(), "out_param.stride.1", out);
    o.dim(0).set_stride(1);
    EXPECT_EQ(const_int(out.stride_constraint(0)), 1);
}

TEST(BufferCall, CallsReadABoundParameter) {
    Buffer<float> b(std::vector<int>{8, 6}, "weights");
    Var x("x"), y("y");
    Expr e = b(x, y + 1);
    const Call *c = e.as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->call_type, Call::Image);
    EXPECT_EQ(c->name, "weights");
    EXPECT_EQ(c->type, Float(32));
    ASSERT_TRUE(c->param.defined());
    EXPECT_TRUE(c->param.is_bound_buffer());
    EXPECT_TRUE(c->param.is_buffer());
    EXPECT_EQ(c->param.name(), "weights");
    EXPECT_EQ(c->param.dimensions(), 2);
    EXPECT_TRUE(c->param.buffer().same_as(Buffer<void>(b)));

    // Every call to the same buffer shares one Parameter (one pipeline input), through any
    // handle or element type.
    Buffer<void> untyped = b;
    Expr c2_e = untyped(std::vector<Expr>{x, 0});
    const Call *c2 = c2_e.as<Call>();
    EXPECT_TRUE(c2->param.same_as(c->param));
    Expr c3_e = b(std::vector<Var>{x, y});
    const Call *c3 = c3_e.as<Call>();
    EXPECT_TRUE(c3->param.same_as(c->param));

    // A different buffer gets a different Parameter.
    Buffer<float> other(std::vector<int>{8, 6}, "other");
    EXPECT_FALSE(other(x, y).as<Call>()->param.same_as(c->param));

    // _ expands as for ImageParams.
    Expr all_e = b(_);
    const Call *all = all_e.as<Call>();
    ASSERT_EQ(all->args.size(), 2u);
    EXPECT_EQ(all->args[1].as<Variable>()->name, "_1");
}

TEST(BufferCall, UnusedParametersAreReleased) {
    Var x("x");
    Buffer<int32_t> b(std::vector<int>{4}, "transient");
    Parameter first;
    {
        Expr e = b(x);
        first = e.as<Call>()->param;
    }
    // While a Parameter is referenced, calls keep using it.
    EXPECT_TRUE(b(x).as<Call>()->param.same_as(first));
    first = Parameter();
    // Once nothing refers to it, the cache may drop it; a new call still works and reads b.
    Expr again = b(x);
    EXPECT_TRUE(again.as<Call>()->param.buffer().same_as(Buffer<void>(b)));
}

TEST(BufferCall, WrongArgumentCountIsACompileError) {
    Buffer<uint8_t> b(std::vector<int>{8, 6}, "small_buf");
    Var x("x");
    std::string msg = error_of([&] { b(x); });
    EXPECT_NE(msg.find("small_buf"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1 argument"), std::string::npos) << msg;
    EXPECT_NE(msg.find("2 dimensions"), std::string::npos) << msg;
    EXPECT_THROW(b(x, x, x), CompileError);
    EXPECT_THROW(b(cast<float>(x), x), CompileError);
    Buffer<uint8_t> undefined;
    EXPECT_THROW(undefined(std::vector<Expr>{x}), CompileError);
}
