// Runtime::Buffer: layouts, views and element iteration, checked against hand-computed strides
// and addresses.

#include <loom/runtime/loom_buffer.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

using loom::AnyDims;
using loom::Runtime::Buffer;

namespace {

// Byte offset of element (coords) from the element at the mins.
template <typename B>
ptrdiff_t offset_of(const B &b, const uint8_t *p) {
    return p - (const uint8_t *)b.data();
}

TEST(RuntimeBuffer, PlanarLayoutAndAccess) {
    Buffer<int32_t> b(5, 4, 3);
    ASSERT_EQ(b.dimensions(), 3);
    EXPECT_EQ(b.stride(0), 1);
    EXPECT_EQ(b.stride(1), 5);
    EXPECT_EQ(b.stride(2), 20);
    EXPECT_EQ(b.width(), 5);
    EXPECT_EQ(b.height(), 4);
    EXPECT_EQ(b.channels(), 3);
    EXPECT_EQ(b.number_of_elements(), 60u);
    EXPECT_EQ(b.size_in_bytes(), 240u);
    EXPECT_TRUE(b.is_contiguous());
    EXPECT_TRUE(b.owns_host_memory());
    EXPECT_TRUE(b.all_equal(0)); // zero-initialized
    b(2, 3, 1) = 7;
    EXPECT_EQ(b.data()[2 + 3 * 5 + 1 * 20], 7);
    int pos[3] = {2, 3, 1};
    EXPECT_EQ(b(pos), 7);
    EXPECT_EQ(b(std::vector<int>{2, 3, 1}), 7);
    EXPECT_EQ(offset_of(b, (const uint8_t *)&b(4, 0, 0)), 16);
    EXPECT_TRUE(b.type() == halide_type_of<int32_t>());
}

TEST(RuntimeBuffer, AllocationIsAlignedAndZeroSizeIsBoundsQuery) {
    for (int w = 1; w < 40; w += 7) {
        Buffer<uint8_t> b(w, 3);
        EXPECT_EQ((uintptr_t)b.data() % 128, 0u) << w;
    }
    Buffer<float> q(0, 0);
    EXPECT_TRUE(q.is_bounds_query());
    EXPECT_EQ(q.data(), nullptr);
    EXPECT_FALSE(q.owns_host_memory());
    EXPECT_EQ(q.dimensions(), 2);
    q.raw_buffer()->dim[0] = halide_dimension_t(-2, 6, 1);
    q.raw_buffer()->dim[1] = halide_dimension_t(1, 2, 6);
    q.allocate();
    EXPECT_FALSE(q.is_bounds_query());
    EXPECT_EQ((uintptr_t)q.data() % 128, 0u);
    q(-2, 1) = 1;
    q(3, 2) = 2;
    EXPECT_EQ(q.begin()[0], 1);
    EXPECT_EQ(q.end()[-1], 2);
    q.deallocate();
    EXPECT_TRUE(q.is_bounds_query());
}

TEST(RuntimeBuffer, CustomAllocator) {
    static int allocs = 0, frees = 0;
    struct F {
        static void *a(size_t n) {
            allocs++;
            return malloc(n);
        }
        static void f(void *p) {
            frees++;
            free(p);
        }
    };
    {
        Buffer<double> b(3, 3);
        b.allocate(F::a, F::f);
        Buffer<double> c = b;
        EXPECT_EQ(allocs, 1);
        EXPECT_EQ(frees, 0);
    }
    EXPECT_EQ(frees, 1);
}

TEST(RuntimeBuffer, SharedOwnership) {
    Buffer<int> a(4);
    Buffer<int> b = a; // shares the allocation
    b(2) = 9;
    EXPECT_EQ(a(2), 9);
    a = Buffer<int>(); // b keeps the memory alive
    EXPECT_EQ(b(2), 9);
    Buffer<int> c(std::move(b));
    EXPECT_EQ(c(2), 9);
    EXPECT_EQ(b.data(), nullptr);
}

TEST(RuntimeBuffer, ViewOfExternalMemory) {
    int data[12];
    for (int i = 0; i < 12; i++) data[i] = i;
    Buffer<int> b(data, 4, 3);
    EXPECT_FALSE(b.owns_host_memory());
    EXPECT_EQ(b(3, 2), 11);
    halide_dimension_t shape[2] = {{10, 3, 4}, {20, 4, 1}}; // transposed view
    Buffer<int> t(data, 2, shape);
    EXPECT_EQ(t(10, 20), 0);
    EXPECT_EQ(t(12, 21), 9);
    Buffer<void> v(halide_type_of<int>(), data, std::vector<int>{12});
    EXPECT_EQ(*(int *)v.address_of(5), 5);
    Buffer<int> from_raw(*b.raw_buffer());
    EXPECT_EQ(from_raw(1, 1), 5);
}

TEST(RuntimeBuffer, ViewHoldingItsOwner) {
    // The owner is released once, when the last Buffer sharing the memory (copies, crops and
    // typed views alike) goes away.
    struct Owner {
        int data[6] = {0, 1, 2, 3, 4, 5};
        int releases = 0;
    } owner;
    auto release = [](void *o) { ((Owner *)o)->releases++; };
    halide_dimension_t shape[2] = {{0, 3, 1}, {0, 2, 3}};
    {
        Buffer<void> v(halide_type_of<int>(), owner.data, 2, shape, release, &owner);
        EXPECT_TRUE(v.owns_host_memory());
        Buffer<int> typed = v;
        Buffer<int> crop = typed.cropped(0, 1, 2);
        v = Buffer<void>();
        typed = Buffer<int>();
        EXPECT_EQ(owner.releases, 0);
        EXPECT_EQ(crop(2, 1), 5);
    }
    EXPECT_EQ(owner.releases, 1);
}

TEST(RuntimeBuffer, TypeAndDimsConversions) {
    Buffer<float> f(3, 2);
    Buffer<void> v = f;
    EXPECT_TRUE(v.type() == halide_type_of<float>());
    Buffer<float, 2> f2 = v; // checked at run time
    EXPECT_EQ(f2.dimensions(), 2);
    Buffer<const float> cf = f;
    EXPECT_EQ(cf.data(), f.data());
    EXPECT_THROW((Buffer<int>(v)), std::runtime_error);
    EXPECT_THROW((Buffer<float, 3>(v)), std::runtime_error);
    EXPECT_TRUE(v.can_convert_to<float>());
    EXPECT_FALSE(v.can_convert_to<int>());
    EXPECT_FALSE((v.can_convert_to<float, 3>()));
    Buffer<void> vt(halide_type_of<uint16_t>(), 4, 2);
    EXPECT_EQ(vt.size_in_bytes(), 16u);
    EXPECT_EQ(vt.as<uint16_t>()(3, 1), 0);
    EXPECT_THROW(Buffer<int>(halide_type_of<float>(), 3), std::runtime_error);
}

TEST(RuntimeBuffer, CropTranslateSetMin) {
    Buffer<int> b(10, 8);
    b.fill([](int x, int y) { return x + 100 * y; });
    Buffer<int> c = b.cropped(0, 2, 5).cropped(1, 3, 4);
    EXPECT_EQ(c.min(0), 2);
    EXPECT_EQ(c.extent(0), 5);
    EXPECT_EQ(c.min(1), 3);
    EXPECT_EQ(c.extent(1), 4);
    EXPECT_EQ(c.stride(1), 10);
    EXPECT_EQ((int *)c.data() - (int *)b.data(), 2 + 3 * 10);
    EXPECT_EQ(c(2, 3), 302);
    EXPECT_EQ(c(6, 6), 606);
    EXPECT_EQ(c.left(), 2);
    EXPECT_EQ(c.right(), 6);
    EXPECT_EQ(c.top(), 3);
    EXPECT_EQ(c.bottom(), 6);
    EXPECT_THROW(b.cropped(0, 5, 6), std::runtime_error);
    EXPECT_THROW(b.cropped(0, -1, 2), std::runtime_error);

    Buffer<int> t = c.translated(0, -2);
    EXPECT_EQ(t(0, 3), 302);
    t.set_min(-1, -1);
    EXPECT_EQ(t(-1, -1), 302);
    EXPECT_EQ(t.data(), c.data()); // memory never moves
    Buffer<int> r = b.cropped({{1, 2}, {1, 2}});
    EXPECT_EQ(r(2, 2), 202);
    EXPECT_TRUE(b.contains(9, 7));
    EXPECT_FALSE(b.contains(10, 0));
    EXPECT_FALSE(c.contains(1, 3));
}

TEST(RuntimeBuffer, SliceAndEmbed) {
    Buffer<int> b(4, 3, 2);
    b.fill([](int x, int y, int c) { return x + 10 * y + 100 * c; });
    Buffer<int> s = b.sliced(1, 2); // (x, c) at y = 2
    ASSERT_EQ(s.dimensions(), 2);
    EXPECT_EQ(s.extent(0), 4);
    EXPECT_EQ(s.extent(1), 2);
    EXPECT_EQ(s.stride(1), 12);
    EXPECT_EQ(s(3, 1), 123);
    EXPECT_EQ((int *)s.data() - (int *)b.data(), 2 * 4);
    Buffer<int> s0 = b.sliced(2); // at the min
    EXPECT_EQ(s0(1, 1), 11);
    EXPECT_THROW(b.sliced(0, 4), std::runtime_error);

    Buffer<int, 3> fixed = b;
    Buffer<int, 2> fs = fixed.sliced(0, 1);
    EXPECT_EQ(fs(2, 1), 121);

    // Embedding at dimension 1 with coordinate 7 restores a 3-D view.
    Buffer<int> e = s.embedded(1, 7);
    ASSERT_EQ(e.dimensions(), 3);
    EXPECT_EQ(e.min(1), 7);
    EXPECT_EQ(e.extent(1), 1);
    EXPECT_EQ(e.stride(1), 2 * 12); // extent * stride of the previous last dimension
    EXPECT_EQ(e.stride(2), 12);
    EXPECT_EQ(e(3, 7, 1), 123);
    Buffer<int> sc = Buffer<int>::make_scalar();
    sc() = 5;
    sc.embed(0, 3);
    EXPECT_EQ(sc.dimensions(), 1);
    EXPECT_EQ(sc(3), 5);
}

TEST(RuntimeBuffer, Transpose) {
    Buffer<int> b(4, 3, 2);
    b.fill([](int x, int y, int c) { return x + 10 * y + 100 * c; });
    Buffer<int> t = b.transposed(0, 2);
    EXPECT_EQ(t.stride(0), 12);
    EXPECT_EQ(t.stride(2), 1);
    EXPECT_EQ(t(1, 2, 3), 3 + 20 + 100);
    Buffer<int> p = b.transposed({2, 0, 1}); // new dim i = old dim order[i]
    EXPECT_EQ(p.extent(0), 2);
    EXPECT_EQ(p.extent(1), 4);
    EXPECT_EQ(p.extent(2), 3);
    EXPECT_EQ(p.stride(0), 12);
    EXPECT_EQ(p.stride(1), 1);
    EXPECT_EQ(p.stride(2), 4);
    EXPECT_EQ(p(1, 3, 2), 123);
    EXPECT_THROW(b.transposed({0, 0, 1}), std::runtime_error);
}

TEST(RuntimeBuffer, Interleaved) {
    Buffer<uint8_t> b = Buffer<uint8_t>::make_interleaved(5, 4, 3);
    EXPECT_EQ(b.stride(0), 3);
    EXPECT_EQ(b.stride(1), 15);
    EXPECT_EQ(b.stride(2), 1);
    b(2, 1, 2) = 42;
    EXPECT_EQ(b.data()[2 * 3 + 1 * 15 + 2], 42);
    b.fill([](int x, int y, int c) { return (uint8_t)(x + 5 * y + 20 * c); });
    Buffer<uint8_t> planar = b.copy_to_planar();
    EXPECT_EQ(planar.stride(0), 1);
    EXPECT_EQ(planar.stride(1), 5);
    EXPECT_EQ(planar.stride(2), 20);
    for (int i = 0; i < 60; i++) EXPECT_EQ(planar.data()[i], i);
    Buffer<uint8_t> back = planar.copy_to_interleaved();
    EXPECT_EQ(back.stride(2), 1);
    EXPECT_EQ(back(4, 3, 2), 4 + 15 + 40);
    Buffer<uint8_t> same = b.copy(); // keeps the interleaved order
    EXPECT_EQ(same.stride(2), 1);
    EXPECT_EQ(same.stride(0), 3);
    Buffer<float> shaped = Buffer<float>::make_with_shape_of(b.cropped(0, 1, 2));
    EXPECT_EQ(shaped.min(0), 1);
    EXPECT_EQ(shaped.stride(2), 1);
    EXPECT_EQ(shaped.stride(0), 3);
    EXPECT_EQ(shaped.stride(1), 6);
    uint8_t raw[24];
    Buffer<uint8_t> v = Buffer<uint8_t>::make_interleaved(raw, 4, 2, 3);
    EXPECT_EQ(&v(1, 1, 2), raw + 3 + 12 + 2);
}

TEST(RuntimeBuffer, ForEachElementVisitsEachCoordinateOnce) {
    Buffer<int> b(3, 4, 2);
    b.translate(0, -1);
    b.translate(1, 5);
    std::map<std::vector<int>, int> seen;
    b.for_each_element([&](int x, int y, int c) { seen[{x, y, c}]++; });
    EXPECT_EQ(seen.size(), 24u);
    for (auto &kv : seen) {
        EXPECT_EQ(kv.second, 1);
        EXPECT_TRUE(b.contains(kv.first));
    }
    // The array form sees the same coordinates, dimension 0 fastest.
    std::vector<std::vector<int>> order;
    b.for_each_element([&](const int *pos) { order.push_back({pos[0], pos[1], pos[2]}); });
    ASSERT_EQ(order.size(), 24u);
    EXPECT_EQ(order[0], (std::vector<int>{-1, 5, 0}));
    EXPECT_EQ(order[1], (std::vector<int>{0, 5, 0}));
    EXPECT_EQ(order[3], (std::vector<int>{-1, 6, 0}));
    EXPECT_EQ(order[23], (std::vector<int>{1, 8, 1}));
    // Fewer arguments than dimensions visit only the leading dimensions.
    int count = 0;
    b.for_each_element([&](int x) { count++; });
    EXPECT_EQ(count, 3);
    Buffer<int> empty(0, 3);
    count = 0;
    empty.for_each_element([&](int, int) { count++; });
    EXPECT_EQ(count, 0);
}

TEST(RuntimeBuffer, ForEachValueAndFill) {
    Buffer<int> a(5, 3), b(5, 3);
    a.fill(3);
    EXPECT_TRUE(a.all_equal(3));
    b.fill([](const int *p) { return p[0] * p[1]; });
    a.for_each_value([](int &x, int &y) { x += y; }, b);
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 5; x++) EXPECT_EQ(a(x, y), 3 + x * y);
    }
    // A strided (transposed) second buffer is read at the same coordinates.
    Buffer<float> t(3, 5);
    t.fill([](int x, int y) { return x - y; });
    Buffer<float> tt = t.transposed(0, 1);
    Buffer<float> sum(5, 3);
    sum.for_each_value([](float &s, float &v) { s = v; }, tt);
    EXPECT_EQ(sum(4, 1), 1 - 4);
    int n = 0;
    a.for_each_value([&](int &) { n++; });
    EXPECT_EQ(n, 15);
}

TEST(RuntimeBuffer, CopyAndCopyFrom) {
    Buffer<int> a(6, 4);
    a.fill([](int x, int y) { return x + 10 * y; });
    Buffer<int> c = a.cropped(0, 1, 3).copy();
    EXPECT_EQ(c.min(0), 1);
    EXPECT_EQ(c.extent(0), 3);
    EXPECT_EQ(c.stride(1), 3); // holes compacted
    EXPECT_EQ(c(2, 3), 32);
    c(2, 3) = -1;
    EXPECT_EQ(a(2, 3), 32); // a deep copy

    // copy_from only touches the intersection.
    Buffer<int> dst(4, 4);
    dst.fill(-5);
    dst.translate(0, 4); // x in [4, 7]
    dst.copy_from(a);    // intersection x in [4, 5]
    EXPECT_EQ(dst(4, 2), 24);
    EXPECT_EQ(dst(5, 3), 35);
    EXPECT_EQ(dst(6, 0), -5);
}

TEST(RuntimeBuffer, CopyFromOverlappingCrop) {
    // Shift a row left by one within the same memory: source and destination overlap, and the
    // result must be as if the source were read first.
    Buffer<int> a(8);
    a.fill([](int x) { return x * x; });
    Buffer<int> dst = a.cropped(0, 0, 7);
    Buffer<int> src = a.cropped(0, 1, 7);
    src.translate(0, -1); // src(x) = old a(x + 1)
    dst.copy_from(src);
    for (int x = 0; x < 7; x++) EXPECT_EQ(a(x), (x + 1) * (x + 1)) << x;
    EXPECT_EQ(a(7), 49);

    // The other direction (shift right), where a naive forward copy would smear a(0).
    Buffer<int> b(8);
    b.fill([](int x) { return x + 1; });
    Buffer<int> d2 = b.cropped(0, 1, 7);
    Buffer<int> s2 = b.cropped(0, 0, 7);
    s2.translate(0, 1); // s2(x) = old b(x - 1)
    d2.copy_from(s2);
    EXPECT_EQ(b(0), 1);
    for (int x = 1; x < 8; x++) EXPECT_EQ(b(x), x) << x;

    // The same with a stride of 2, so the copy goes element by element.
    Buffer<int> storage(16);
    halide_dimension_t shape[1] = {{0, 8, 2}};
    Buffer<int> strided(storage.data(), 1, shape);
    strided.fill([](int x) { return x + 1; });
    Buffer<int> d3 = strided.cropped(0, 1, 7);
    Buffer<int> s3 = strided.cropped(0, 0, 7);
    s3.translate(0, 1);
    d3.copy_from(s3);
    EXPECT_EQ(strided(0), 1);
    for (int x = 1; x < 8; x++) EXPECT_EQ(strided(x), x) << x;
    for (int i = 1; i < 16; i += 2) EXPECT_EQ(storage(i), 0); // the holes are untouched

    // Copying a crop onto itself changes nothing.
    Buffer<int> self = b.cropped(0, 2, 3);
    self.copy_from(b);
    for (int x = 1; x < 8; x++) EXPECT_EQ(b(x), x);
}

TEST(RuntimeBuffer, HeapDimensionsAndStaticDims) {
    Buffer<int> b(2, 3, 2, 2, 2, 3); // more dimensions than stored in the object
    ASSERT_EQ(b.dimensions(), 6);
    EXPECT_EQ(b.stride(5), 2 * 3 * 2 * 2 * 2);
    b(1, 2, 1, 1, 1, 2) = 17;
    Buffer<int> c = b;
    Buffer<int> d = std::move(c);
    EXPECT_EQ(d(1, 2, 1, 1, 1, 2), 17);
    Buffer<int> s = d.sliced(5, 2);
    EXPECT_EQ(s(1, 2, 1, 1, 1), 17);
    Buffer<int, 2> fixed(3, 3);
    EXPECT_EQ(fixed.static_dimensions(), 2);
    Buffer<int, 2> fixed_default;
    EXPECT_EQ(fixed_default.dimensions(), 2);
    EXPECT_THROW((Buffer<int, 2>(std::vector<int>{1, 2, 3})), std::runtime_error);
}

TEST(RuntimeBuffer, ScalarAndHostOnlyDeviceCalls) {
    Buffer<double> s = Buffer<double>::make_scalar();
    EXPECT_EQ(s.dimensions(), 0);
    EXPECT_EQ(s.number_of_elements(), 1u);
    s() = 2.5;
    EXPECT_EQ(*s.data(), 2.5);
    double x = 1.5;
    Buffer<double> sv = Buffer<double>::make_scalar(&x);
    EXPECT_EQ(sv(), 1.5);
    // A host-only buffer has nothing to copy back, wait for or free; copying it to the device
    // needs a device interface (the device tests are in device_interface_test.cpp).
    EXPECT_EQ(s.copy_to_host(), 0);
    EXPECT_EQ(s.device_sync(), 0);
    EXPECT_EQ(s.device_free(), 0);
    EXPECT_FALSE(s.has_device_allocation());
    testing::internal::CaptureStderr();
    EXPECT_EQ(s.copy_to_device(nullptr), halide_error_code_no_device_interface);
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "Error: halide_copy_to_device: no device interface was given and the buffer has no "
              "device allocation\n");
    s.set_host_dirty();
    EXPECT_TRUE(s.host_dirty());
    s.set_host_dirty(false);
    EXPECT_FALSE(s.host_dirty());
    s.set_device_dirty(true);
    EXPECT_TRUE(s.device_dirty());
    Buffer<void> v = Buffer<void>::make_scalar(halide_type_of<int8_t>());
    EXPECT_EQ(v.size_in_bytes(), 1u);
}

TEST(RuntimeBuffer, DimensionIteration) {
    Buffer<int> b(3, 2);
    b.translate(0, 4);
    std::vector<int> xs;
    for (int x : b.dim(0)) xs.push_back(x);
    EXPECT_EQ(xs, (std::vector<int>{4, 5, 6}));
    EXPECT_EQ(b.dim(0).max(), 6);
    Buffer<int> so({3, 2}, {1, 0}); // storage order: dimension 1 innermost
    EXPECT_EQ(so.stride(1), 1);
    EXPECT_EQ(so.stride(0), 2);
}

} // namespace
