// The JIT disk cache's file layer (src/driver/jit_disk_cache.h) in one process: the fingerprint
// is xxHash64, entries round-trip, and an entry is found only under its own key and build.
// tests/correctness/jit_disk_cache.cpp checks the cache through the JIT across processes.
#include "driver/jit_disk_cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

using namespace loom::internal;
namespace fs = std::filesystem;

namespace {

/// An empty folder for one test, removed afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/loom_jit_disk_cache_test.XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

} // namespace

TEST(JITDiskCacheFiles, FingerprintIsXXHash64) {
    // xxHash64 (seed 0) reference values.
    auto first = [](const char *s) { return fingerprint(s, strlen(s)).a; };
    EXPECT_EQ(first(""), 0xEF46DB3751D8E999ull);
    EXPECT_EQ(first("a"), 0xD24EC4F1A98C6E5Bull);
    EXPECT_EQ(first("abc"), 0x44BC2CF5AD770999ull);
    EXPECT_EQ(first("Nobody inspects the spammish repetition"), 0xFBCEA83C8A378BF1ull);
    Fingerprint f = fingerprint("abc", 3);
    EXPECT_NE(f.a, f.b);
    EXPECT_EQ(f.hex().substr(0, 16), "44bc2cf5ad770999");
    EXPECT_EQ(f.hex().size(), 32u);
}

TEST(JITDiskCacheFiles, StoreThenLoad) {
    TempDir dir;
    JITDiskCache cache(dir.path.string(), 1 << 20, fingerprint("build", 5));
    Fingerprint k = cache.key("some pipeline"), other = cache.key("another pipeline");
    EXPECT_FALSE(cache.load(k));
    std::string payload(1000, '\0');
    for (size_t i = 0; i < payload.size(); i++) payload[i] = (char)(i * 31);
    ASSERT_TRUE(cache.store(k, payload));
    EXPECT_EQ(cache.load(k), payload);
    EXPECT_FALSE(cache.load(other));
    EXPECT_TRUE(fs::exists(dir.path / (k.hex() + ".jit")));
    // An empty payload is an entry too.
    ASSERT_TRUE(cache.store(other, ""));
    EXPECT_EQ(cache.load(other), std::string());
}

TEST(JITDiskCacheFiles, EntriesAreFoundOnlyUnderTheirKeyAndBuild) {
    TempDir dir;
    JITDiskCache cache(dir.path.string(), 1 << 20, fingerprint("build", 5));
    JITDiskCache rebuilt(dir.path.string(), 1 << 20, fingerprint("build 2", 7));
    Fingerprint k = cache.key("pipeline"), k2 = cache.key("pipeline 2");
    EXPECT_FALSE(rebuilt.key("pipeline") == k);
    ASSERT_TRUE(cache.store(k, "object"));
    // An entry copied under another key's name is for another key.
    fs::copy_file(dir.path / (k.hex() + ".jit"), dir.path / (k2.hex() + ".jit"));
    EXPECT_FALSE(cache.load(k2));
    EXPECT_EQ(cache.load(k), std::string("object"));
}
