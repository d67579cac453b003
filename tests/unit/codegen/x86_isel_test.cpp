// x86 instruction selection: the assembly of small vectorized pipelines compiled for
// x86-64-linux-avx2 (and SSE2-only / AVX-512 variants) contains the instruction each image
// processing idiom should become (vpaddusb, vpavgb, vpmulhw, vpmulhrsw, vpmaddwd, vpackuswb,
// ...), and a control pipeline of plain adds contains none of them. Also: interleaving stores
// leave no scalar byte stores, and provably aligned accesses are emitted aligned. The values
// are checked in tests/correctness/simd_patterns.cpp.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace loom;

namespace {

const char *const avx2 = "x86-64-linux-sse41-avx-avx2";
const char *const sse2 = "x86-64-linux";
const char *const avx512 = "x86-64-linux-sse41-avx-avx2-avx512-avx512_skylake";

/// The text of the output of `emit` (a compile_to_* call writing the given file name).
std::string emitted(const std::function<void(const std::string &)> &emit) {
    char name[] = "/tmp/loom_x86_isel_XXXXXX";
    int fd = mkstemp(name);
    close(fd);
    emit(name);
    std::ifstream in(name);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(name);
    return ss.str();
}

/// The mnemonics in the body of function `fn` in assembly text.
std::set<std::string> mnemonics(const std::string &s, const std::string &fn = "f") {
    std::set<std::string> m;
    std::istringstream is(s);
    std::string line;
    bool in = false;
    while (std::getline(is, line)) {
        if (line.rfind(fn + ":", 0) == 0) in = true;
        if (!in) continue;
        if (line.rfind(".Lfunc_end", 0) == 0) break;
        if (line.size() > 1 && line[0] == '\t' && line[1] != '.') {
            size_t end = line.find_first_of("\t ", 1);
            m.insert(line.substr(1, end == std::string::npos ? std::string::npos : end - 1));
        }
    }
    return m;
}

/// The instructions of f(x) = body(a(x), b(x)) vectorized `lanes` wide, for a and b of type t.
std::set<std::string> instructions(Type t, const std::function<Expr(Expr, Expr)> &body,
                                   const char *target = avx2, int lanes = 32) {
    ImageParam a(t, 1, "a"), b(t, 1, "b");
    Var x("x");
    Func f("f");
    f(x) = body(a(x), b(x));
    f.vectorize(x, lanes);
    return mnemonics(emitted([&](const std::string &file) {
        f.compile_to_assembly(file, {a, b}, "f", Target(target));
    }));
}

std::string list(const std::set<std::string> &s) {
    std::string r;
    for (const std::string &x : s) r += x + " ";
    return r;
}

Expr sat_add_u8(Expr a, Expr b) { return cast<uint8_t>(min(cast<uint16_t>(a) + b, 255)); }
Expr sat_add_i8(Expr a, Expr b) { return cast<int8_t>(clamp(cast<int16_t>(a) + b, -128, 127)); }
Expr sat_sub_u8(Expr a, Expr b) { return cast<uint8_t>(max(cast<int16_t>(a) - b, 0)); }
Expr sat_add_i16(Expr a, Expr b) {
    return cast<int16_t>(clamp(cast<int32_t>(a) + b, -32768, 32767));
}
Expr sat_sub_u16(Expr a, Expr b) { return cast<uint16_t>(max(cast<int32_t>(a) - b, 0)); }
Expr avg_u8(Expr a, Expr b) { return cast<uint8_t>((cast<uint16_t>(a) + b + 1) / 2); }
Expr avg_u16(Expr a, Expr b) { return cast<uint16_t>((cast<uint32_t>(a) + b + 1) / 2); }
Expr mulhi_i16(Expr a, Expr b) { return cast<int16_t>((cast<int32_t>(a) * b) >> 16); }
Expr mulhi_u16(Expr a, Expr b) { return cast<uint16_t>((cast<uint32_t>(a) * b) >> 16); }
Expr mulhi_i16_by_18(Expr a, Expr b) { return cast<int16_t>((cast<int32_t>(a) * b) >> 18); }
Expr q15(Expr a, Expr b) { return cast<int16_t>((cast<int32_t>(a) * b + 16384) >> 15); }
Expr q15_sat(Expr a, Expr b) {
    return cast<int16_t>(clamp((cast<int32_t>(a) * b + 16384) >> 15, -32768, 32767));
}
Expr absd_u8(Expr a, Expr b) { return cast<uint8_t>(abs(cast<int16_t>(a) - b)); }
// (Not a * b + b * 5: the simplifier factors that into one product.)
Expr dot2_i16(Expr a, Expr b) { return cast<int32_t>(a) * cast<int32_t>(a) + cast<int32_t>(b) * 5; }
Expr control(Expr a, Expr b) { return a + b; }

/// The instructions every idiom below selects; none may appear in the control pipeline.
const char *const idiom_insns[] = {"vpaddusb", "vpaddsb",   "vpsubusb", "vpaddsw",  "vpsubusw",
                                   "vpavgb",   "vpavgw",    "vpmulhw",  "vpmulhuw", "vpmulhrsw",
                                   "vpmaddwd", "vpackuswb", "vpminub",  "vpmaxub"};

TEST(X86Isel, Avx2Idioms) {
    struct Case {
        const char *name;
        Type type;
        Expr (*body)(Expr, Expr);
        std::vector<const char *> want;
    };
    const Case cases[] = {
        {"saturating add u8", UInt(8), sat_add_u8, {"vpaddusb"}},
        {"saturating add i8", Int(8), sat_add_i8, {"vpaddsb"}},
        {"saturating sub u8", UInt(8), sat_sub_u8, {"vpsubusb"}},
        {"saturating add i16", Int(16), sat_add_i16, {"vpaddsw"}},
        {"saturating sub u16", UInt(16), sat_sub_u16, {"vpsubusw"}},
        {"rounding average u8", UInt(8), avg_u8, {"vpavgb"}},
        {"rounding average u16", UInt(16), avg_u16, {"vpavgw"}},
        {"multiply-high i16", Int(16), mulhi_i16, {"vpmulhw"}},
        {"multiply-high u16", UInt(16), mulhi_u16, {"vpmulhuw"}},
        {"multiply-high i16 >> 18", Int(16), mulhi_i16_by_18, {"vpmulhw", "vpsraw"}},
        {"Q15 multiply", Int(16), q15, {"vpmulhrsw"}},
        {"saturating Q15 multiply", Int(16), q15_sat, {"vpmulhrsw"}},
        {"absd u8", UInt(8), absd_u8, {"vpmaxub", "vpminub", "vpsubb"}},
        {"dot pairs i16", Int(16), dot2_i16, {"vpmaddwd"}},
    };
    for (const Case &c : cases) {
        std::set<std::string> insns = instructions(c.type, c.body);
        for (const char *w : c.want) {
            EXPECT_TRUE(insns.count(w)) << c.name << " lacks " << w << ": " << list(insns);
        }
        // The wide arithmetic the idiom replaces is gone.
        for (const char *no : {"vpmulld", "vpmovzxbw", "vpmovsxwd", "vpmovzxwd"}) {
            EXPECT_FALSE(insns.count(no)) << c.name << " still widens (" << no << ")";
        }
    }
    std::set<std::string> plain = instructions(UInt(8), control);
    EXPECT_TRUE(plain.count("vpaddb")) << list(plain);
    for (const char *no : idiom_insns) EXPECT_FALSE(plain.count(no)) << "control uses " << no;
}

TEST(X86Isel, SaturatingNarrowsArePacks) {
    auto narrow = [](Type from, std::function<Expr(Expr)> body) {
        return instructions(from, [&](Expr a, Expr) { return body(a); });
    };
    EXPECT_TRUE(
        narrow(Int(16), [](Expr a) { return cast<uint8_t>(clamp(a, 0, 255)); }).count("vpackuswb"));
    EXPECT_TRUE(narrow(Int(16), [](Expr a) {
                    return cast<int8_t>(clamp(a, -128, 127));
                }).count("vpacksswb"));
    EXPECT_TRUE(narrow(Int(32), [](Expr a) {
                    return cast<int16_t>(clamp(a, -32768, 32767));
                }).count("vpackssdw"));
    EXPECT_TRUE(narrow(Int(32), [](Expr a) {
                    return cast<uint16_t>(clamp(a, 0, 65535));
                }).count("vpackusdw"));
    // A plain truncation wraps: no clamp of any kind.
    std::set<std::string> trunc = narrow(Int(16), [](Expr a) { return cast<uint8_t>(a); });
    for (const char *no : {"vpminsw", "vpmaxsw", "vpminuw", "vpacksswb"}) {
        EXPECT_FALSE(trunc.count(no)) << no << ": " << list(trunc);
    }
}

TEST(X86Isel, MinMaxAndBlends) {
    EXPECT_TRUE(instructions(UInt(8), [](Expr a, Expr b) { return min(a, b); }).count("vpminub"));
    EXPECT_TRUE(instructions(Int(16), [](Expr a, Expr b) { return max(a, b); }).count("vpmaxsw"));
    std::set<std::string> blend =
        instructions(UInt(8), [](Expr a, Expr b) { return select(a > 100, a, b); });
    EXPECT_TRUE(blend.count("vpblendvb")) << list(blend);
}

TEST(X86Isel, Sse2AndAvx512Forms) {
    // SSE2 alone has the saturating, averaging, multiply-high and pmaddwd forms, but no
    // pmulhrsw (SSSE3): the Q15 multiply still computes, from pmulhw/pmullw.
    EXPECT_TRUE(instructions(UInt(8), sat_add_u8, sse2, 16).count("paddusb"));
    EXPECT_TRUE(instructions(UInt(8), avg_u8, sse2, 16).count("pavgb"));
    EXPECT_TRUE(instructions(Int(16), mulhi_i16, sse2, 8).count("pmulhw"));
    EXPECT_TRUE(instructions(Int(16), dot2_i16, sse2, 8).count("pmaddwd"));
    std::set<std::string> q = instructions(Int(16), q15, sse2, 8);
    EXPECT_FALSE(q.count("pmulhrsw")) << list(q);
    // AVX-512 uses the 512-bit forms for 64-lane vectors.
    std::string s = emitted([&](const std::string &file) {
        ImageParam a(Int(16), 1, "a"), b(Int(16), 1, "b");
        Var x("x");
        Func f("f");
        f(x) = dot2_i16(a(x), b(x)) + cast<int32_t>(q15(a(x), b(x)));
        f.vectorize(x, 32);
        f.compile_to_assembly(file, {a, b}, "f", Target(avx512));
    });
    EXPECT_TRUE(std::regex_search(s, std::regex("vpmaddwd\\s+%zmm"))) << "no 512-bit vpmaddwd";
    EXPECT_TRUE(std::regex_search(s, std::regex("vpmulhrsw\\s+[^\\n]*%zmm")))
        << "no 512-bit vpmulhrsw";
}

TEST(X86Isel, DotProductOfStridedPairsIsOnePmaddwd) {
    // The even and odd elements of a and b: the interleave of the two strided loads is the
    // dense load, so no shuffles remain.
    ImageParam a(Int(16), 1, "a"), b(Int(16), 1, "b");
    Var x("x");
    Func f("f");
    f(x) = cast<int32_t>(a(2 * x)) * b(2 * x) + cast<int32_t>(a(2 * x + 1)) * b(2 * x + 1);
    f.vectorize(x, 16);
    std::set<std::string> insns = mnemonics(emitted([&](const std::string &file) {
        f.compile_to_assembly(file, {a, b}, "f", Target(avx2));
    }));
    EXPECT_TRUE(insns.count("vpmaddwd")) << list(insns);
    for (const char *no : {"vpmulld", "vpshufb", "vpunpcklwd", "vpermq"}) {
        EXPECT_FALSE(insns.count(no)) << "uses " << no << ": " << list(insns);
    }
}

TEST(X86Isel, InterleavedStoreHasNoScalarStores) {
    ImageParam in(UInt(8), 3, "in");
    Var x("x"), y("y"), c("c");
    Func out("out");
    out(x, y, c) = in(x, y, c);
    out.output_buffer().dim(0).set_stride(3).dim(2).set_stride(1).set_bounds(0, 3);
    out.reorder(c, x, y).bound(c, 0, 3).unroll(c).vectorize(x, 16);
    std::string stmt = emitted([&](const std::string &file) {
        out.compile_to_lowered_stmt(file, {in}, Text, Target(avx2));
    });
    EXPECT_NE(stmt.find("1, 48)]"), std::string::npos) << "no dense 48-lane store:\n" << stmt;
    EXPECT_NE(stmt.find("interleave"), std::string::npos) << stmt;
    std::string s = emitted(
        [&](const std::string &file) { out.compile_to_assembly(file, {in}, "out", Target(avx2)); });
    std::set<std::string> insns = mnemonics(s, "out");
    for (const char *no : {"vpextrb", "movb", "vpscatterdd"}) {
        EXPECT_FALSE(insns.count(no)) << "scalar store " << no << ": " << list(insns);
    }
    EXPECT_TRUE(insns.count("vmovdqu")) << list(insns);
}

TEST(X86Isel, DownsampleLoadsEachRowOnce) {
    // The even and odd columns of a row are slices of one dense 64-byte load (not two loads of
    // 63 bytes), and nothing is gathered or assembled byte by byte.
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    Expr sum = cast<uint16_t>(in(2 * x, 2 * y)) + in(2 * x + 1, 2 * y) + in(2 * x, 2 * y + 1) +
               in(2 * x + 1, 2 * y + 1);
    f(x, y) = cast<uint8_t>((sum + 2) / 4);
    f.vectorize(x, 32);
    std::string stmt = emitted([&](const std::string &file) {
        f.compile_to_lowered_stmt(file, {in}, Text, Target(avx2));
    });
    EXPECT_NE(stmt.find("1, 64)]"), std::string::npos) << stmt;
    EXPECT_EQ(stmt.find(", 2, 32)]"), std::string::npos) << "a stride-2 load is left:\n" << stmt;
    std::set<std::string> insns = mnemonics(emitted(
        [&](const std::string &file) { f.compile_to_assembly(file, {in}, "f", Target(avx2)); }));
    for (const char *no : {"vpgatherdd", "vpinsrb", "vpextrb"}) {
        EXPECT_FALSE(insns.count(no)) << "uses " << no << ": " << list(insns);
    }
}

TEST(X86Isel, ProvablyAlignedAccessesAreAligned) {
    // g is computed at the root with rows of exactly 256 elements: every vector of 8 int16s
    // starts at a multiple of 16 bytes of its (16-byte aligned) heap allocation. The input's
    // alignment is unknown.
    ImageParam in(UInt(16), 2, "in");
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = in(x, y) * cast<uint16_t>(3);
    f(x, y) = g(x, y) + g(x, y + 1);
    f.bound(x, 0, 256).vectorize(x, 8);
    g.compute_root().vectorize(x, 8);
    std::string ll = emitted([&](const std::string &file) {
        f.compile_to_llvm_assembly(file, {in}, "f", Target(sse2));
    });
    EXPECT_TRUE(std::regex_search(ll, std::regex("load <8 x i16>, ptr %[0-9a-z.]+, align 16")))
        << "no aligned vector load";
    EXPECT_TRUE(
        std::regex_search(ll, std::regex("store <8 x i16> %[0-9a-z.]+, ptr %[0-9a-z.]+, align 16")))
        << "no aligned vector store";
    // The input's loads keep the element alignment.
    EXPECT_TRUE(std::regex_search(ll, std::regex("load <8 x i16>, ptr %[0-9a-z.]+, align 2")));
}

} // namespace
