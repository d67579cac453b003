// loom::Buffer: the shared, named handle over Runtime::Buffer.

#include <loom/buffer.h>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using loom::Buffer;
using loom::CompileError;
using loom::Type;
namespace Runtime = loom::Runtime;

namespace {

TEST(Buffer, UndefinedAndNames) {
    Buffer<float> u;
    EXPECT_FALSE(u.defined());
    EXPECT_THROW(u.dimensions(), CompileError);
    Buffer<float> a(3, 2), b(3, 2);
    EXPECT_TRUE(a.defined());
    EXPECT_FALSE(a.name().empty());
    EXPECT_NE(a.name(), b.name()); // unique names, as Halide's "b0", "b1", ...
    Buffer<int> named({4, 4}, "input");
    EXPECT_EQ(named.name(), "input");
    named.set_name("renamed");
    EXPECT_EQ(named.name(), "renamed");
}

TEST(Buffer, CopiesShareTheBuffer) {
    Buffer<int> a(5, 5);
    Buffer<int> b = a;
    EXPECT_TRUE(a.same_as(b));
    b(1, 2) = 12;
    EXPECT_EQ(a(1, 2), 12);
    // In-place view changes are seen through every handle (Halide's semantics).
    b.crop(0, 1, 3);
    EXPECT_EQ(a.min(0), 1);
    EXPECT_EQ(a.extent(0), 3);
    EXPECT_EQ(a(1, 2), 12);
    // The -ed forms make new buffers with new names.
    Buffer<int> c = a.cropped(1, 2, 2);
    EXPECT_FALSE(c.same_as(a));
    EXPECT_NE(c.name(), a.name());
    EXPECT_EQ(a.extent(1), 5);
    EXPECT_EQ(c(1, 2), 12);
}

TEST(Buffer, ConversionsAreChecked) {
    Buffer<float> f(4, 3);
    f(3, 2) = 1.5f;
    Buffer<void> v = f; // shares contents and name
    EXPECT_TRUE(v.same_as(f));
    EXPECT_EQ(v.name(), f.name());
    EXPECT_TRUE(v.type() == loom::Float(32));
    Buffer<float> back = v;
    EXPECT_EQ(back(3, 2), 1.5f);
    Buffer<float, 2> fixed = v;
    EXPECT_EQ(fixed.dimensions(), 2);
    EXPECT_THROW(Buffer<int> bad = v, CompileError);
    EXPECT_THROW((Buffer<float, 3>(v)), CompileError);
    Buffer<void> undefined;
    Buffer<int> still_undefined = undefined; // nothing to check
    EXPECT_FALSE(still_undefined.defined());
}

TEST(Buffer, ConstructionFromTypeAndShapes) {
    Buffer<> u(loom::UInt(16), {3, 2}, "u");
    EXPECT_EQ(u.size_in_bytes(), 12u);
    EXPECT_EQ(u.name(), "u");
    Buffer<> t(loom::Int(8), 5, 4, 3);
    EXPECT_EQ(t.dimensions(), 3);
    EXPECT_EQ(t.stride(2), 20);
    EXPECT_THROW(Buffer<float>(loom::Int(32), 3), CompileError);
    Buffer<int> ordered(std::vector<int>{2, 3}, std::vector<int>{1, 0});
    EXPECT_EQ(ordered.stride(0), 3);
    EXPECT_EQ(ordered.stride(1), 1);

    int data[6] = {0, 1, 2, 3, 4, 5};
    Buffer<int> view(data, 3, 2);
    EXPECT_EQ(view(2, 1), 5);
    EXPECT_FALSE(view.owns_host_memory());
    halide_dimension_t shape[2] = {{0, 2, 3}, {0, 3, 1}};
    Buffer<int> tv(data, 2, shape, "tv");
    EXPECT_EQ(tv(1, 2), 5);
    Buffer<> raw(*tv.raw_buffer(), "raw");
    EXPECT_EQ(raw.stride(0), 3);
    EXPECT_EQ(raw.data(), (void *)data);
}

TEST(Buffer, RuntimeBufferRoundTrip) {
    Runtime::Buffer<uint8_t> r(4, 4);
    r(2, 3) = 7;
    Buffer<uint8_t> b(r, "wrapped");
    EXPECT_EQ(b(2, 3), 7);
    EXPECT_EQ(b.data(), r.data());
    Runtime::Buffer<uint8_t> again = b;
    again(0, 0) = 1;
    EXPECT_EQ(b(0, 0), 1);
    EXPECT_EQ(b.get()->dimensions(), 2);
    EXPECT_EQ(&(*b.get())(2, 3), &b(2, 3));
    Runtime::Buffer<const uint8_t> cr = r;
    Buffer<const uint8_t> cb(cr);
    EXPECT_EQ(cb(2, 3), 7);
    Buffer<void> cv = cb;
    EXPECT_EQ(cv.raw_buffer()->host, r.raw_buffer()->host);
}

TEST(Buffer, ShapeOperations) {
    Buffer<int> b(6, 4, 3);
    b.fill([](int x, int y, int c) { return x + 10 * y + 100 * c; });
    EXPECT_EQ(b.width(), 6);
    EXPECT_EQ(b.height(), 4);
    EXPECT_EQ(b.channels(), 3);
    EXPECT_EQ(b.dim(1).stride(), 6);
    EXPECT_EQ(b.dim(2).max(), 2);
    Buffer<int> s = b.sliced(2, 1);
    EXPECT_EQ(s.dimensions(), 2);
    EXPECT_EQ(s(5, 3), 135);
    Buffer<int> e = s.embedded(2, 1);
    EXPECT_EQ(e(5, 3, 1), 135);
    EXPECT_EQ(e.stride(2), 24);
    Buffer<int> t = b.transposed(0, 1);
    EXPECT_EQ(t(3, 5, 2), 235);
    EXPECT_EQ(t.stride(0), 6);
    Buffer<int> tr = b.translated({1, 1, 1});
    EXPECT_EQ(tr(1, 1, 1), 0);
    EXPECT_EQ(tr.left(), 1);
    EXPECT_EQ(tr.right(), 6);
    EXPECT_EQ(tr.top(), 1);
    EXPECT_EQ(tr.bottom(), 4);
    Buffer<int> c = b.cropped({{2, 2}, {1, 2}});
    EXPECT_EQ(c(3, 2, 2), 223);
    EXPECT_EQ(c.number_of_elements(), 2u * 2u * 3u);
    Buffer<int> cp = c.copy();
    EXPECT_EQ(cp.stride(1), 2);
    EXPECT_EQ(cp(3, 2, 2), 223);
    Buffer<int> in_place(4);
    in_place.set_min(10);
    EXPECT_EQ(in_place.min(0), 10);
    in_place.translate(0, -10);
    EXPECT_EQ(in_place.min(0), 0);
    Buffer<int> dyn(3, 2);
    dyn.slice(1, 1);
    EXPECT_EQ(dyn.dimensions(), 1);
    dyn.embed(0, 5);
    EXPECT_EQ(dyn.min(0), 5);
    dyn.transpose(0, 1);
    EXPECT_EQ(dyn.extent(0), 3);
}

TEST(Buffer, IterationFillAndCopyFrom) {
    Buffer<float> a(4, 3), b(4, 3);
    a.fill(2.0f);
    EXPECT_TRUE(a.all_equal(2.0f));
    b.fill([](int x, int y) { return (float)(x * y); });
    a.for_each_value([](float &x, const float &y) { x *= y; }, b);
    EXPECT_EQ(a(3, 2), 12.0f);
    std::set<std::pair<int, int>> seen;
    a.for_each_element([&](int x, int y) { seen.insert({x, y}); });
    EXPECT_EQ(seen.size(), 12u);
    Buffer<float> d(2, 2);
    d.translate({1, 1});
    d.copy_from(b);
    EXPECT_EQ(d(2, 2), 4.0f);
    Runtime::Buffer<float> r(4, 3);
    r.fill(9.0f);
    d.copy_from(r);
    EXPECT_TRUE(d.all_equal(9.0f));
}

TEST(Buffer, FactoriesAndDevices) {
    Buffer<int> s = Buffer<int>::make_scalar("s");
    EXPECT_EQ(s.dimensions(), 0);
    s() = 4;
    EXPECT_EQ(s(), 4);
    Buffer<> vs = Buffer<>::make_scalar(loom::Float(64));
    EXPECT_EQ(vs.size_in_bytes(), 8u);
    Buffer<uint8_t> il = Buffer<uint8_t>::make_interleaved(8, 6, 4);
    EXPECT_EQ(il.stride(2), 1);
    EXPECT_EQ(il.stride(0), 4);
    EXPECT_EQ(il.stride(1), 32);
    Buffer<float> shaped = Buffer<float>::make_with_shape_of(il);
    EXPECT_EQ(shaped.stride(2), 1);
    EXPECT_TRUE(shaped.type() == loom::Float(32));
    EXPECT_EQ(il.copy_to_host(), 0);
    EXPECT_EQ(il.device_sync(), 0);
    EXPECT_FALSE(il.has_device_allocation());
    il.set_host_dirty();
    EXPECT_TRUE(il.host_dirty());
    EXPECT_FALSE(il.device_dirty());
    Buffer<float> q(0, 0);
    EXPECT_TRUE(q.is_bounds_query());
}

} // namespace
