// The JIT's persistent compile cache (src/driver/jit_disk_cache.h) across
// processes. Each case runs this binary again as child processes (the
// JITDiskCacheChild test, which does something only when LOOM_TEST_CHILD says
// what to compile), each with the cache directory the case gives it under
// LOOM_TEST_CACHE_ROOT (set by tests/CMakeLists.txt; a fresh /tmp folder
// otherwise), and checks the children's counters, their results against naive
// C++, and the directory.
#include <loom/loom.h>

#include "driver/jit.h"
#include "driver/jit_disk_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace loom;
using loom::internal::JITModule;
namespace fs = std::filesystem;

namespace {

// ---- The child side: compile one pipeline, run it, report.

int32_t disk_affine(int32_t v, int32_t y) { return 7 * v - y; }

} // namespace

HalidePureExtern_2(int32_t, loomtest_disk_affine, int32_t, int32_t);

namespace {

/// Compiles and runs `which` ("a"; "b", "a" with another constant; "a4", "a"
/// vectorized by 4 instead of 8; "extern", which calls a function the JIT finds
/// by the address set_jit_externs gives) for target t; returns whether every
/// output value matches the naive C++ computation.
bool run_pipeline(const std::string &which, const Target &t) {
    const int W = 67, H = 23;
    Buffer<int32_t> in({W, H}, "disk_input");
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = (x * 7 + y * 13) % 101 - 50;
    const int k = which == "b" ? 5 : 3;
    Var x("x"), y("y");
    Func f("disk_cached");
    if (which == "extern") {
        f(x, y) = loomtest_disk_affine(in(x, y), y) + x;
    } else {
        f(x, y) = in(x, y) * k + x - 2 * y;
    }
    f.vectorize(x, which == "a4" ? 4 : 8).parallel(y);
    Pipeline p(f);
    if (which == "extern") {
        std::map<std::string, JITExtern> externs;
        externs.emplace("loomtest_disk_affine", JITExtern(disk_affine));
        p.set_jit_externs(externs);
    }
    p.compile_jit(t);
    Buffer<int32_t> out = p.realize({W, H}, t);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int32_t v = in(x, y);
            int32_t expected = which == "extern" ? disk_affine(v, y) + x : v * k + x - 2 * y;
            if (out(x, y) != expected) return false;
        }
    }
    return true;
}

/// The concurrent-writers case starts its children together: each waits for
/// this file.
void wait_for_barrier() {
    const char *barrier = getenv("LOOM_TEST_CHILD_BARRIER");
    if (!barrier) return;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(barrier) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

} // namespace

TEST(JITDiskCacheChild, Run) {
    const char *what = getenv("LOOM_TEST_CHILD");
    if (!what) GTEST_SKIP() << "runs only as a child of the JITDiskCache tests";
    // "<pipeline> <host|base>": base is the host's architecture, bits and OS
    // without features.
    std::istringstream spec(what);
    std::string which, target_name;
    spec >> which >> target_name;
    Target host = get_host_target();
    Target t = target_name == "base" ? Target(host.os, host.arch, host.bits) : host;
    wait_for_barrier();
    int c0 = JITModule::compilation_count(), h0 = JITModule::disk_cache_hits(),
        s0 = JITModule::disk_cache_stores(), d0 = JITModule::definition_hits();
    bool correct = run_pipeline(which, t);
    std::ofstream out(getenv("LOOM_TEST_CHILD_OUT"));
    out << JITModule::compilation_count() - c0 << " " << JITModule::disk_cache_hits() - h0 << " "
        << JITModule::disk_cache_stores() - s0 << " " << correct << " "
        << JITModule::definition_hits() - d0 << "\n";
}

namespace {

// ---- The parent side.

struct ChildResult {
    int compilations = -1, hits = -1, stores = -1;
    bool correct = false;
    int definition_hits = -1; ///< pipelines taken from a recorded definition, not lowered
    std::string log;          ///< the child's stdout and stderr
};

/// Environment changes for a child: a value, or nullopt to unset the variable.
using Env = std::map<std::string, std::optional<std::string>>;

class Child {
public:
    /// Starts this binary's JITDiskCacheChild test compiling `what` with `env`
    /// applied to this process's environment; `out` is the file it reports into.
    Child(const std::string &what, Env env, const std::string &out) : out_(out) {
        env["LOOM_TEST_CHILD"] = what;
        env["LOOM_TEST_CHILD_OUT"] = out;
        env["GTEST_OUTPUT"] = std::nullopt; // the parent's XML report is its own
        std::vector<std::string> vars;
        for (char **e = environ; *e; e++) {
            std::string v = *e;
            if (!env.count(v.substr(0, v.find('=')))) vars.push_back(v);
        }
        for (const auto &[name, value] : env) {
            if (value) vars.push_back(name + "=" + *value);
        }
        std::vector<char *> envp;
        for (std::string &v : vars) envp.push_back(v.data());
        envp.push_back(nullptr);

        std::string exe = fs::read_symlink("/proc/self/exe").string();
        std::string filter = "--gtest_filter=JITDiskCacheChild.Run";
        char *argv[] = {exe.data(), filter.data(), nullptr};
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        std::string log = out + ".log";
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                         0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        int err = posix_spawn(&pid_, exe.c_str(), &actions, nullptr, argv, envp.data());
        posix_spawn_file_actions_destroy(&actions);
        if (err != 0) pid_ = -1;
    }

    ChildResult wait() {
        ChildResult r;
        int status = 0;
        if (pid_ < 0 || waitpid(pid_, &status, 0) != pid_ || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            ADD_FAILURE() << "child failed (status " << status << ")";
        }
        std::ifstream log(out_ + ".log");
        r.log.assign(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
        std::ifstream in(out_);
        in >> r.compilations >> r.hits >> r.stores >> r.correct >> r.definition_hits;
        return r;
    }

private:
    std::string out_;
    pid_t pid_ = -1;
};

/// The folder every case works under, emptied once per run.
const fs::path &test_root() {
    static const fs::path root = [] {
        const char *r = getenv("LOOM_TEST_CACHE_ROOT");
        fs::path p;
        if (r && *r) {
            p = r;
            fs::remove_all(p);
            fs::create_directories(p);
        } else {
            char tmpl[] = "/tmp/loom_jit_disk_cache.XXXXXX";
            p = mkdtemp(tmpl);
        }
        return p;
    }();
    return root;
}

/// A fresh folder for the current test: <root>/<test name>/ (cache dirs and
/// child reports).
fs::path case_dir() {
    fs::path d = test_root() / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

int report_counter = 0;

/// Runs one child to completion, with LOOM_CACHE_DIR=cache (and `env` on top).
ChildResult run_child(const std::string &what, const fs::path &cache, Env env = {}) {
    if (!env.count("LOOM_CACHE_DIR")) env["LOOM_CACHE_DIR"] = cache.string();
    fs::path out = test_root() / ("report" + std::to_string(report_counter++));
    return Child(what, env, out.string()).wait();
}

/// The names of the files in dir, sorted.
std::vector<std::string> files_in(const fs::path &dir) {
    std::vector<std::string> names;
    if (!fs::exists(dir)) return names;
    for (const auto &e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

std::string read_file(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The entries of dir holding object files (a compile_jit stores one, and a
/// definition's record that names it, JITModule::record_definition), or the
/// records when `objects` is false.
std::vector<fs::path> entries_in(const fs::path &dir, bool objects = true) {
    std::vector<fs::path> found;
    for (const std::string &name : files_in(dir)) {
        const bool object = read_file(dir / name)
                                .find("\x7f"
                                      "ELF") != std::string::npos;
        if (object == objects) found.push_back(dir / name);
    }
    return found;
}

/// The one object entry in dir (a failure when there is not exactly one).
fs::path only_entry(const fs::path &dir) {
    std::vector<fs::path> objects = entries_in(dir);
    EXPECT_EQ(objects.size(), 1u);
    return objects.empty() ? fs::path() : objects[0];
}

void write_file(const fs::path &p, const std::string &bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

/// r compiled (no disk hit) and computed the right values.
#define EXPECT_COMPILED(r)                                                                         \
    do {                                                                                           \
        const ChildResult &r_ = (r);                                                               \
        EXPECT_EQ(r_.compilations, 1) << r_.log;                                                   \
        EXPECT_EQ(r_.hits, 0) << r_.log;                                                           \
        EXPECT_EQ(r_.definition_hits, 0) << r_.log;                                                \
        EXPECT_TRUE(r_.correct) << r_.log;                                                         \
    } while (0)

/// r loaded its code from the disk cache instead of compiling, and computed the
/// right values.
#define EXPECT_LOADED(r)                                                                           \
    do {                                                                                           \
        const ChildResult &r_ = (r);                                                               \
        EXPECT_EQ(r_.compilations, 0) << r_.log;                                                   \
        EXPECT_EQ(r_.hits, 1) << r_.log;                                                           \
        EXPECT_EQ(r_.stores, 0) << r_.log;                                                         \
        EXPECT_TRUE(r_.correct) << r_.log;                                                         \
    } while (0)

} // namespace

TEST(JITDiskCache, SecondProcessLoadsInsteadOfCompiling) {
    fs::path cache = case_dir() / "cache";
    ChildResult first = run_child("a host", cache);
    EXPECT_COMPILED(first);
    EXPECT_EQ(first.stores, 1);
    EXPECT_EQ(entries_in(cache).size(), 1u);
    EXPECT_EQ(entries_in(cache, false).size(), 1u);
    // The second process finds the definition's record: it lowers nothing either.
    ChildResult second = run_child("a host", cache);
    EXPECT_LOADED(second);
    EXPECT_EQ(second.definition_hits, 1) << second.log;
    EXPECT_EQ(files_in(cache).size(), 2u);
}

TEST(JITDiskCache, ChangedScheduleMissesTheDefinition) {
    // Another schedule is another definition: lowered and compiled afresh, and
    // recorded too.
    fs::path cache = case_dir() / "cache";
    EXPECT_COMPILED(run_child("a host", cache));
    ChildResult other = run_child("a4 host", cache);
    EXPECT_COMPILED(other);
    EXPECT_EQ(other.stores, 1);
    EXPECT_EQ(entries_in(cache).size(), 2u);
    EXPECT_EQ(entries_in(cache, false).size(), 2u);
    ChildResult again = run_child("a4 host", cache);
    EXPECT_LOADED(again);
    EXPECT_EQ(again.definition_hits, 1) << again.log;
}

TEST(JITDiskCache, RecordWithoutItsObjectLowersAgain) {
    // The record names an object entry that was evicted: the process lowers and
    // compiles.
    fs::path cache = case_dir() / "cache";
    EXPECT_COMPILED(run_child("a host", cache));
    fs::remove(only_entry(cache));
    ChildResult r = run_child("a host", cache);
    EXPECT_COMPILED(r);
    EXPECT_EQ(r.stores, 1);
    EXPECT_LOADED(run_child("a host", cache));
}

TEST(JITDiskCache, ExternAddressesAreBoundInEachProcess) {
    // The extern's address differs from process to process (ASLR); its name is in
    // the key.
    fs::path cache = case_dir() / "cache";
    ChildResult first = run_child("extern host", cache);
    EXPECT_COMPILED(first);
    ChildResult second = run_child("extern host", cache);
    EXPECT_LOADED(second);
}

TEST(JITDiskCache, ChangedAlgorithmOrTargetMisses) {
    fs::path cache = case_dir() / "cache";
    EXPECT_COMPILED(run_child("a host", cache));
    ChildResult other_algorithm = run_child("b host", cache);
    EXPECT_COMPILED(other_algorithm);
    EXPECT_EQ(other_algorithm.stores, 1);
    EXPECT_EQ(entries_in(cache).size(), 2u);
    if (get_host_target() !=
        Target(get_host_target().os, get_host_target().arch, get_host_target().bits)) {
        ChildResult other_target = run_child("a base", cache);
        EXPECT_COMPILED(other_target);
        EXPECT_EQ(other_target.stores, 1);
        EXPECT_EQ(entries_in(cache).size(), 3u);
    }
    // The first entry is still there for the first pipeline.
    EXPECT_LOADED(run_child("a host", cache));
}

TEST(JITDiskCache, CorruptEntryIsIgnoredAndRewritten) {
    fs::path dir = case_dir();
    // Each damage to a valid entry: a flipped payload byte, a flipped key byte in
    // the header, a truncated payload, a file shorter than the header, an empty
    // file.
    const std::vector<std::pair<std::string, std::string (*)(std::string)>> damages = {
        {"payload byte",
         [](std::string s) {
             s[s.size() / 2] ^= 0x5a;
             return s;
         }},
        {"header key byte",
         [](std::string s) {
             s[20] ^= 1; // the key follows the 8-byte magic and the 8-byte version
             return s;
         }},
        {"truncated payload", [](std::string s) { return s.substr(0, s.size() - 100); }},
        {"short header", [](std::string s) { return s.substr(0, 10); }},
        {"empty file", [](std::string) { return std::string(); }},
    };
    for (const auto &[what, damage] : damages) {
        SCOPED_TRACE(what);
        fs::path cache = dir / what;
        EXPECT_COMPILED(run_child("a host", cache));
        fs::path entry = only_entry(cache);
        const std::string good = read_file(entry);
        write_file(entry, damage(good));
        ChildResult after = run_child("a host", cache);
        EXPECT_COMPILED(after);
        EXPECT_EQ(after.stores, 1);
        EXPECT_EQ(read_file(only_entry(cache)), good);
        EXPECT_LOADED(run_child("a host", cache));
    }
}

TEST(JITDiskCache, EntryThatDoesNotLinkIsReplaced) {
    // A whole, checksummed entry whose object calls a function this process lacks
    // (here the extern pipeline's object, filed under the key of pipeline "a",
    // whose process does not define loomtest_disk_affine): the child compiles
    // afresh and replaces the entry.
    using internal::Fingerprint;
    using internal::JITDiskCache;
    auto key_of = [](const fs::path &entry) {
        const std::string hex = entry.stem().string();
        return Fingerprint{std::stoull(hex.substr(0, 16), nullptr, 16),
                           std::stoull(hex.substr(16, 16), nullptr, 16)};
    };
    fs::path dir = case_dir(), cache = dir / "cache", other = dir / "other";
    EXPECT_COMPILED(run_child("a host", cache));
    EXPECT_COMPILED(run_child("extern host", other));
    const fs::path entry = only_entry(cache), extern_entry = only_entry(other);
    const std::string good = read_file(entry);
    std::optional<std::string> foreign =
        JITDiskCache(other.string(), 1 << 30, Fingerprint{}).load(key_of(extern_entry));
    ASSERT_TRUE(foreign.has_value());
    ASSERT_TRUE(
        JITDiskCache(cache.string(), 1 << 30, Fingerprint{}).store(key_of(entry), *foreign));
    ASSERT_NE(read_file(entry), good);
    ChildResult after = run_child("a host", cache);
    EXPECT_COMPILED(after);
    EXPECT_EQ(after.stores, 1);
    EXPECT_EQ(read_file(only_entry(cache)), good);
    EXPECT_LOADED(run_child("a host", cache));
}

TEST(JITDiskCache, ConcurrentWritersLeaveOneValidEntry) {
    fs::path dir = case_dir(), cache = dir / "cache", barrier = dir / "go";
    const int n = 4;
    std::vector<std::unique_ptr<Child>> children;
    for (int i = 0; i < n; i++) {
        fs::path out = dir / ("writer" + std::to_string(i));
        children.push_back(std::make_unique<Child>(
            "a host",
            Env{{"LOOM_CACHE_DIR", cache.string()}, {"LOOM_TEST_CHILD_BARRIER", barrier.string()}},
            out.string()));
    }
    write_file(barrier, "");
    int compiled = 0, loaded = 0, stored = 0;
    for (auto &c : children) {
        ChildResult r = c->wait();
        EXPECT_TRUE(r.correct) << r.log;
        EXPECT_EQ(r.compilations + r.hits, 1) << r.log;
        compiled += r.compilations;
        loaded += r.hits;
        stored += r.stores;
    }
    EXPECT_EQ(compiled + loaded, n);
    EXPECT_EQ(stored, compiled);
    EXPECT_GE(stored, 1);
    // Exactly the entry and its record: every writer's temporary file was renamed
    // onto them.
    std::vector<std::string> names = files_in(cache);
    ASSERT_EQ(names.size(), 2u);
    for (const std::string &name : names) {
        EXPECT_EQ(name.size(), 36u);
        EXPECT_EQ(fs::path(name).extension().string(), ".jit");
    }
    EXPECT_EQ(entries_in(cache).size(), 1u);
    EXPECT_LOADED(run_child("a host", cache));
}

TEST(JITDiskCache, SizeBoundEvictsLeastRecentlyUsed) {
    fs::path cache = case_dir() / "cache";
    EXPECT_COMPILED(run_child("a host", cache));
    fs::path a = only_entry(cache);
    // Two other entries (never valid: eviction goes by name, size and mtime
    // only), more than the 1 MiB bound together with a; a is the oldest of the
    // three.
    const auto now = fs::file_time_type::clock::now();
    fs::path older = cache / (std::string(32, '1') + ".jit"),
             newer = cache / (std::string(32, '2') + ".jit");
    write_file(older, std::string(600 << 10, 'x'));
    write_file(newer, std::string(600 << 10, 'x'));
    fs::last_write_time(a, now - std::chrono::seconds(1000));
    fs::last_write_time(older, now - std::chrono::seconds(500));
    fs::last_write_time(newer, now - std::chrono::seconds(100));
    const Env bound{{"LOOM_CACHE_SIZE_MB", "1"}};
    // A hit makes a the most recently used (and, storing nothing, evicts
    // nothing).
    EXPECT_LOADED(run_child("a host", cache, bound));
    EXPECT_GT(fs::last_write_time(a), now - std::chrono::seconds(60));
    EXPECT_TRUE(fs::exists(older));
    // A store takes the directory over the bound: the least recently used entry
    // goes, and one is enough to get under 90% of the bound.
    ChildResult b = run_child("b host", cache, bound);
    EXPECT_COMPILED(b);
    EXPECT_EQ(b.stores, 1);
    EXPECT_FALSE(fs::exists(older));
    EXPECT_TRUE(fs::exists(newer));
    EXPECT_TRUE(fs::exists(a));
    EXPECT_EQ(entries_in(cache).size(), 2u); // a and b
    EXPECT_EQ(entries_in(cache, false).size(),
              3u); // newer, and a's and b's records
}

TEST(JITDiskCache, OffStoresNothing) {
    fs::path dir = case_dir();
    // The default locations point into this case's folder, so a store anywhere
    // would show.
    for (const char *off : {"off", ""}) {
        SCOPED_TRACE(std::string("LOOM_CACHE_DIR=") + off);
        Env env{{"LOOM_CACHE_DIR", off},
                {"XDG_CACHE_HOME", (dir / "xdg").string()},
                {"HOME", (dir / "home").string()}};
        for (int i = 0; i < 2; i++) {
            ChildResult r = run_child("a host", dir, env);
            EXPECT_COMPILED(r);
            EXPECT_EQ(r.stores, 0);
        }
        EXPECT_FALSE(fs::exists(dir / "xdg"));
        EXPECT_FALSE(fs::exists(dir / "home"));
    }
}

TEST(JITDiskCache, DefaultLocations) {
    fs::path dir = case_dir();
    ChildResult xdg = run_child("a host", dir,
                                {{"LOOM_CACHE_DIR", std::nullopt},
                                 {"XDG_CACHE_HOME", (dir / "xdg").string()},
                                 {"HOME", (dir / "home").string()}});
    EXPECT_COMPILED(xdg);
    EXPECT_EQ(entries_in(dir / "xdg" / "loom").size(), 1u);
    ChildResult home = run_child("a host", dir,
                                 {{"LOOM_CACHE_DIR", std::nullopt},
                                  {"XDG_CACHE_HOME", std::nullopt},
                                  {"HOME", (dir / "home").string()}});
    EXPECT_COMPILED(home);
    EXPECT_EQ(entries_in(dir / "home" / ".cache" / "loom").size(), 1u);
}

TEST(JITDiskCache, UnusableDirectoryTurnsTheCacheOff) {
    // A directory under a regular file cannot be created, even by root.
    fs::path dir = case_dir();
    write_file(dir / "file", "");
    ChildResult r = run_child("a host", dir / "file" / "cache");
    EXPECT_COMPILED(r);
    EXPECT_EQ(r.stores, 0);
    EXPECT_NE(r.log.find("cannot be created or written"), std::string::npos) << r.log;
}
