// What Halide.h provides besides the language (built against Loom and, when the wheel is
// installed, against Halide 21 as compat_halide_headers_halide): the standard headers programs
// use without including them, Halide's portability and version macros, exceptions announced by
// HALIDE_WITH_EXCEPTIONS, a namespace Halide that user code and Halide's tool headers reopen,
// and the tool headers themselves (halide_benchmark.h, halide_thread_pool.h).
#include "Halide.h"
// Halide's tool headers come with its wheel (share/tools), which the build puts on the include
// path when it is installed (scripts/setup.sh installs it).
#if __has_include("halide_benchmark.h")
#include "halide_benchmark.h"
#include "halide_thread_pool.h"
#define LOOM_TEST_HAVE_HALIDE_TOOLS 1
#endif

#include <gtest/gtest.h>

// User code adds to namespace Halide, as Halide's own tools and many programs do.
namespace Halide {
namespace Testing {
Expr plus_one(const Expr &e) { return e + 1; }
} // namespace Testing
namespace Internal {
inline int internal_helper_of_the_program() { return 3; }
} // namespace Internal
} // namespace Halide

using namespace Halide;

namespace {

struct HALIDE_ATTRIBUTE_ALIGN(64) Aligned {
    int v;
};

HALIDE_MUST_USE_RESULT int must_use() { return 7; }

} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int loom_compat_exported(int x) { return x + 1; }

TEST(HalideHeaders, VersionAndPortabilityMacros) {
    EXPECT_EQ(HALIDE_VERSION_MAJOR, 21);
    EXPECT_EQ(HALIDE_VERSION_MINOR, 0);
    EXPECT_EQ(alignof(Aligned), 64u);
    EXPECT_EQ(must_use(), 7);
    EXPECT_EQ(loom_compat_exported(1), 2);
}

TEST(HalideHeaders, StandardHeadersComeWithHalideH) {
    // <random>, <map>, <mutex>, <cassert>, <iostream>, <sstream>, <functional>, <set>, <list>:
    // none is included above.
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> dist(0, 9);
    std::map<int, int> counts;
    std::mutex m;
    for (int i = 0; i < 100; i++) {
        std::lock_guard<std::mutex> lock(m);
        counts[dist(rng)]++;
    }
    int total = 0;
    for (const auto &kv : counts) total += kv.second;
    assert(total == 100);
    EXPECT_EQ(total, 100);
    std::ostringstream os;
    os << std::set<int>{1, 2}.size() << std::list<int>{3}.size();
    std::function<int()> f = [] { return 1; };
    EXPECT_EQ(os.str() + std::to_string(f()), "211");
}

TEST(HalideHeaders, ExceptionsAreAnnounced) {
#ifndef HALIDE_WITH_EXCEPTIONS
    FAIL() << "HALIDE_WITH_EXCEPTIONS is not defined";
#else
    Func f("f");
    Var x("x");
    f(x) = x;
    bool caught = false;
    try {
        f.vectorize(Var("no_such_var"));
    } catch (const Halide::CompileError &e) {
        caught = std::string(e.what()).find("no_such_var") != std::string::npos;
    } catch (const Halide::Error &) {
        ADD_FAILURE() << "expected a CompileError";
    }
    EXPECT_TRUE(caught);
#endif
}

TEST(HalideHeaders, ReopenedNamespaceAndToolHeaders) {
    Func f("f");
    Var x("x");
    f(x) = Halide::Testing::plus_one(x * 2);
    Buffer<int> out = f.realize({8});
    for (int i = 0; i < 8; i++) EXPECT_EQ(out(i), 2 * i + 1);
    EXPECT_EQ(Halide::Internal::internal_helper_of_the_program(), 3);

#ifndef LOOM_TEST_HAVE_HALIDE_TOOLS
    GTEST_SKIP() << "Halide's tool headers (the halide==21.0.0 wheel) are not installed";
#else
    // halide_benchmark.h times a realization; halide_thread_pool.h runs tasks.
    double t = Halide::Tools::benchmark(2, 2, [&] { f.realize(out); });
    EXPECT_GT(t, 0.0);
    Halide::Tools::ThreadPool<int> pool(2);
    std::vector<std::future<int>> results;
    for (int i = 0; i < 4; i++) {
        results.push_back(pool.async([](int v) { return v * v; }, i));
    }
    int sum = 0;
    for (auto &r : results) sum += r.get();
    EXPECT_EQ(sum, 0 + 1 + 4 + 9);
#endif
}
