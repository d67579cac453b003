// Vector loads of every other element and small-table lookups (camera_pipe's hot-pixel stencil
// on the Bayer raw and its tone curve):
// - the taps in(2x - 2), in(2x), in(2x + 2) of one expression become dense loads of 32
//   elements and slices (rewrite_interleavings): a tap's dense load may read one element past
//   its last lane, or one before its first, only because a neighbouring tap reads it anyway;
// - a lone strided load is two dense loads of half the span and one two-source shuffle, never
//   past its first or last lane (before: a 31-element load, legalized into five loads and three
//   inserts);
// - a gather of 8- or 16-bit elements is one scalar load per lane at its 32-bit index (before:
//   a vector of 64-bit pointers, sign-extended, added and extracted two by two).
// The inputs sit against a PROT_NONE guard page, on either side, so a load that reads one
// element too many faults; results are checked against naive loops (integers: exact), and the
// lowered statement and the assembly for a known AVX-512 target against the patterns above.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <sstream>
#include <string>

using namespace loom;

namespace {

/// `count` uint16 elements flush against a PROT_NONE page: after them (at_end) or before them.
class GuardedArray {
public:
    GuardedArray(int count, bool at_end) {
        page_ = (size_t)sysconf(_SC_PAGESIZE);
        size_t bytes = (size_t)count * sizeof(uint16_t);
        size_t data_pages = (bytes + page_ - 1) / page_;
        size_ = (data_pages + 2) * page_;
        base_ = (char *)mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                             -1, 0);
        mprotect(base_, page_, PROT_NONE);
        mprotect(base_ + (data_pages + 1) * page_, page_, PROT_NONE);
        char *first = base_ + page_;
        data_ = (uint16_t *)(at_end ? first + data_pages * page_ - bytes : first);
    }
    ~GuardedArray() { munmap(base_, size_); }
    uint16_t *data() const { return data_; }

private:
    char *base_ = nullptr;
    size_t page_ = 0, size_ = 0;
    uint16_t *data_ = nullptr;
};

uint16_t sample(int i) { return (uint16_t)((i * 37 + 11) % 1021); }

/// in over [min, min + extent) (guarded on one side), filled with sample().
struct GuardedInput {
    GuardedArray mem;
    Buffer<uint16_t> buf;
    GuardedInput(int min, int extent, bool at_end) : mem(extent, at_end), buf(mem.data(), extent) {
        buf.set_min(min);
        for (int i = min; i < min + extent; i++) buf(i) = sample(i);
    }
};

/// The occurrences of `what` in `text`.
int count_of(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) n++;
    return n;
}

/// The hot-pixel clamp of a stride-2 row: min(in(2x), max(in(2x - 2), in(2x + 2))).
Func taps(ImageParam in, int lanes) {
    Func f("f");
    Var x("x");
    Expr c = cast<int16_t>(in(2 * x));
    Expr l = cast<int16_t>(in(2 * x - 2)), r = cast<int16_t>(in(2 * x + 2));
    f(x) = min(c, max(l, r));
    f.vectorize(x, lanes);
    return f;
}

/// A lone load of the odd elements: in(2x + 1) * 3.
Func odd(ImageParam in, int lanes) {
    Func g("g");
    Var x("x");
    g(x) = cast<int16_t>(in(2 * x + 1) * 3);
    g.vectorize(x, lanes);
    return g;
}

} // namespace

// The taps over outputs [0, w): the input is read over [-2, 2w], flush against a guard page on
// either side.
TEST(StridedLoads, StencilTapsMatchNaiveWithoutOverRead) {
    for (int lanes : {8, 16, 32}) {
        ImageParam in(UInt(16), 1, "in");
        Func f = taps(in, lanes);
        for (bool at_end : {false, true}) {
            for (int w : {lanes, 3 * lanes + 5, 100}) {
                GuardedInput input(-2, 2 * w + 3, at_end);
                in.set(input.buf);
                Buffer<int16_t> out = f.realize({w});
                for (int i = 0; i < w; i++) {
                    int16_t c = (int16_t)sample(2 * i), l = (int16_t)sample(2 * i - 2),
                            r = (int16_t)sample(2 * i + 2);
                    ASSERT_EQ(out(i), std::min(c, std::max(l, r)))
                        << "lanes " << lanes << " w " << w << " at_end " << at_end << " at " << i;
                }
            }
        }
    }
}

// The lone odd load over outputs [0, w): the input is read over [1, 2w - 1] exactly.
TEST(StridedLoads, LoneStridedLoadMatchesNaiveWithoutOverRead) {
    for (int lanes : {4, 8, 16, 32}) {
        ImageParam in(UInt(16), 1, "in");
        Func g = odd(in, lanes);
        for (bool at_end : {false, true}) {
            for (int w : {lanes, 2 * lanes + 3, 77}) {
                GuardedInput input(1, 2 * w - 1, at_end);
                in.set(input.buf);
                Buffer<int16_t> out = g.realize({w});
                for (int i = 0; i < w; i++) {
                    ASSERT_EQ(out(i), (int16_t)(sample(2 * i + 1) * 3))
                        << "lanes " << lanes << " w " << w << " at_end " << at_end << " at " << i;
                }
            }
        }
    }
}

// The taps' steady state loads densely: no stride-2 load is left, each tap is a slice of a
// 32-element load.
TEST(StridedLoads, LoweredTapsAreDenseSlices) {
    ImageParam in(UInt(16), 1, "in");
    Func f = taps(in, 16);
    std::string text = lowered(f, {in});
    EXPECT_EQ(count_of(text, ", 2, 16)]"), 0) << text;
    EXPECT_GE(count_of(text, "slice_vectors("), 3) << text;
    EXPECT_GE(count_of(text, ", 1, 32)]"), 3) << text;
}

// The lone strided load's assembly: two dense loads and a word permute, not the odd-sized
// span's chain of narrowing loads and inserts.
TEST(StridedLoads, LoneStridedLoadAssemblyHasNoInsertChain) {
    Target avx512("x86-64-linux-sse41-avx-avx2-fma-f16c-avx512-avx512_skylake");
    ImageParam in(UInt(16), 1, "in");
    std::string s = assembly(odd(in, 16), {in}, avx512);
    EXPECT_EQ(count_of(s, "vpinsrw"), 0) << s;
    EXPECT_EQ(count_of(s, "vpinsrd"), 0) << s;
    EXPECT_GE(count_of(s, "vpermt2w") + count_of(s, "vpermi2w"), 1) << s;
}

// An 8-bit lookup table indexed by a clamped 16-bit value, and a 16-bit one: exact, and the
// 8-bit gather extracts 32-bit indices, not 64-bit pointers.
TEST(StridedLoads, SmallElementGathersMatchNaive) {
    Buffer<uint8_t> lut8(256);
    Buffer<uint16_t> lut16(256);
    for (int i = 0; i < 256; i++) {
        lut8(i) = (uint8_t)(255 - (i * 7) % 256);
        lut16(i) = (uint16_t)(i * 613 % 65521);
    }
    Buffer<uint16_t> in(300);
    for (int i = 0; i < 300; i++) in(i) = (uint16_t)((i * 131) % 400);
    for (int lanes : {16, 32}) {
        ImageParam p(UInt(16), 1, "p");
        ImageParam t8(UInt(8), 1, "t8");
        ImageParam t16(UInt(16), 1, "t16");
        Func h("h");
        Var x("x");
        Expr idx = cast<int32_t>(min(p(x), 255));
        h(x) = cast<uint16_t>(t8(idx)) + t16(255 - idx);
        h.vectorize(x, lanes);
        p.set(in);
        t8.set(lut8);
        t16.set(lut16);
        Buffer<uint16_t> out = h.realize({300});
        for (int i = 0; i < 300; i++) {
            int k = std::min<int>(in(i), 255);
            ASSERT_EQ(out(i), (uint16_t)(lut8(k) + lut16(255 - k)))
                << "lanes " << lanes << " at " << i;
        }
    }
    ImageParam p(UInt(16), 1, "p");
    ImageParam t8(UInt(8), 1, "t8");
    Func h("h");
    Var x("x");
    h(x) = t8(cast<int32_t>(min(p(x), 255)));
    h.vectorize(x, 16);
    std::string s =
        assembly(h, {p, t8}, Target("x86-64-linux-sse41-avx-avx2-fma-f16c-avx512-avx512_skylake"));
    EXPECT_EQ(count_of(s, "vpextrq"), 0) << s;
    EXPECT_GE(count_of(s, "vpinsrb"), 15) << s;
}
