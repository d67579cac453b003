// The JIT's on-disk object cache: file names, entry format, atomic stores, LRU eviction.
#include "driver/jit_disk_cache.h"

#include "support/error.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace loom {
namespace internal {

namespace {

// ---- xxHash64 (Yann Collet's algorithm): fast enough to fingerprint libloom in a millisecond.

constexpr uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full,
                   P3 = 0x165667B19E3779F9ull, P4 = 0x85EBCA77C2B2AE63ull,
                   P5 = 0x27D4EB2F165667C5ull;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t read64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

uint32_t read32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

uint64_t round64(uint64_t acc, uint64_t input) { return rotl(acc + input * P2, 31) * P1; }

uint64_t merge_round(uint64_t acc, uint64_t v) { return (acc ^ round64(0, v)) * P1 + P4; }

uint64_t xxh64(const unsigned char *p, size_t n, uint64_t seed) {
    const unsigned char *end = p + n;
    uint64_t h;
    if (n >= 32) {
        uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
        for (; p + 32 <= end; p += 32) {
            v1 = round64(v1, read64(p));
            v2 = round64(v2, read64(p + 8));
            v3 = round64(v3, read64(p + 16));
            v4 = round64(v4, read64(p + 24));
        }
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge_round(merge_round(merge_round(merge_round(h, v1), v2), v3), v4);
    } else {
        h = seed + P5;
    }
    h += n;
    for (; p + 8 <= end; p += 8) h = rotl(h ^ round64(0, read64(p)), 27) * P1 + P4;
    if (p + 4 <= end) {
        h = rotl(h ^ (read32(p) * P1), 23) * P2 + P3;
        p += 4;
    }
    for (; p < end; p++) h = rotl(h ^ (*p * P5), 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    return h ^ (h >> 32);
}

// ---- Entries.

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'J', 'I', 'T', '\n'};
// Bump when the header or the meaning of the payload changes.
constexpr uint64_t kFormatVersion = 1;
constexpr const char *kEntrySuffix = ".jit";
constexpr const char *kTempInfix = ".jit.tmp.";
// A temporary file this old belongs to a writer that died: eviction removes it.
constexpr time_t kStaleTempSeconds = 3600;

struct EntryHeader {
    char magic[8];
    uint64_t version;
    uint64_t key[2];
    uint64_t payload_size;
    uint64_t checksum[2];
};
static_assert(sizeof(EntryHeader) == 56, "EntryHeader must have no padding");

bool is_entry_name(const std::string &name) {
    if (name.size() != 32 + strlen(kEntrySuffix) || name.compare(32, 4, kEntrySuffix) != 0) {
        return false;
    }
    return std::all_of(name.begin(), name.begin() + 32,
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// Closes a file descriptor when it goes out of scope.
struct Fd {
    int fd;
    explicit Fd(int fd) : fd(fd) {}
    ~Fd() {
        if (fd >= 0) close(fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

bool read_all(int fd, void *data, size_t n) {
    char *p = (char *)data;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

bool write_all(int fd, const void *data, size_t n) {
    const char *p = (const char *)data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

// ---- Configuration.

/// The directory the environment names; "" when the cache is off.
std::string cache_dir() {
    if (const char *d = getenv("LOOM_CACHE_DIR")) {
        return strcmp(d, "off") == 0 ? "" : d;
    }
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/loom";
    const char *home = getenv("HOME");
    if (home && *home) return std::string(home) + "/.cache/loom";
    return "";
}

uint64_t size_bound() {
    uint64_t mb = 512;
    if (const char *s = getenv("LOOM_CACHE_SIZE_MB")) {
        char *end = nullptr;
        unsigned long long v = strtoull(s, &end, 10);
        if (end != s && *end == '\0' && v > 0) mb = v;
    }
    return mb << 20;
}

/// mkdir -p, new directories private to the user (as XDG asks of cache directories).
bool make_dirs(const std::string &dir) {
    for (size_t i = 1; i <= dir.size(); i++) {
        if (i < dir.size() && dir[i] != '/') continue;
        std::string prefix = dir.substr(0, i);
        if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return false;
    }
    struct stat st;
    return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::optional<Fingerprint> file_fingerprint(const std::string &path) {
    Fd f(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat st;
    if (f.fd < 0 || fstat(f.fd, &st) != 0) return std::nullopt;
    if (st.st_size == 0) return fingerprint(nullptr, 0);
    void *p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (p == MAP_FAILED) return std::nullopt;
    Fingerprint fp = fingerprint(p, (size_t)st.st_size);
    munmap(p, (size_t)st.st_size);
    return fp;
}

/// The build identity of the library at `path`, read once per process.
std::optional<Fingerprint> build_identity(const std::string &path) {
    static std::mutex mutex;
    static auto *known = new std::map<std::string, std::optional<Fingerprint>>;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known->find(path);
    if (it == known->end()) {
        it = known->emplace(path, path.empty() ? std::nullopt : file_fingerprint(path)).first;
    }
    return it->second;
}

} // namespace

std::string Fingerprint::hex() const {
    char s[33];
    snprintf(s, sizeof s, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
    return s;
}

Fingerprint fingerprint(const void *data, size_t size) {
    const unsigned char *p = (const unsigned char *)data;
    return {xxh64(p, size, 0), xxh64(p, size, 0x6c6f6f6d6a697421ull)};
}

std::optional<JITDiskCache> JITDiskCache::from_environment(const std::string &library_path) {
    std::string dir = cache_dir();
    if (dir.empty()) return std::nullopt;
    if (!make_dirs(dir) || access(dir.c_str(), W_OK | X_OK) != 0) {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true)) {
            user_warning << "The JIT cache directory " << dir
                         << " cannot be created or written; JIT results are not cached on disk "
                            "(LOOM_CACHE_DIR names another directory, or \"off\").\n";
        }
        return std::nullopt;
    }
    std::optional<Fingerprint> build = build_identity(library_path);
    if (!build) return std::nullopt;
    return JITDiskCache(dir, size_bound(), *build);
}

JITDiskCache::JITDiskCache(std::string dir, uint64_t max_bytes, Fingerprint build)
    : dir_(std::move(dir)), max_bytes_(max_bytes), build_(build) {}

Fingerprint JITDiskCache::key(const std::string &text) const {
    std::string all = "build " + build_.hex() + "\n" + text;
    return fingerprint(all.data(), all.size());
}

std::string JITDiskCache::entry_path(const Fingerprint &key) const {
    return dir_ + "/" + key.hex() + kEntrySuffix;
}

std::optional<std::string> JITDiskCache::load(const Fingerprint &key) const {
    Fd f(open(entry_path(key).c_str(), O_RDONLY | O_CLOEXEC));
    struct stat st;
    if (f.fd < 0 || fstat(f.fd, &st) != 0 || (uint64_t)st.st_size < sizeof(EntryHeader)) {
        return std::nullopt;
    }
    EntryHeader h;
    if (!read_all(f.fd, &h, sizeof h) || memcmp(h.magic, kMagic, sizeof kMagic) != 0 ||
        h.version != kFormatVersion || h.key[0] != key.a || h.key[1] != key.b ||
        h.payload_size != (uint64_t)st.st_size - sizeof h) {
        return std::nullopt;
    }
    std::string payload(h.payload_size, '\0');
    if (!read_all(f.fd, payload.data(), payload.size())) return std::nullopt;
    Fingerprint sum = fingerprint(payload.data(), payload.size());
    if (h.checksum[0] != sum.a || h.checksum[1] != sum.b) return std::nullopt;
    futimens(f.fd, nullptr); // most recently used (best effort: the hit stands either way)
    return payload;
}

bool JITDiskCache::store(const Fingerprint &key, const std::string &payload) const {
    EntryHeader h;
    memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kFormatVersion;
    h.key[0] = key.a;
    h.key[1] = key.b;
    h.payload_size = payload.size();
    Fingerprint sum = fingerprint(payload.data(), payload.size());
    h.checksum[0] = sum.a;
    h.checksum[1] = sum.b;

    // A name no other writer uses, even on another host sharing the directory: pid, a counter,
    // and a random number per process; O_EXCL makes any collision a retry.
    static const unsigned long long nonce = std::random_device{}();
    static std::atomic<unsigned> counter{0};
    const std::string path = entry_path(key);
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; attempt++) {
        tmp = dir_ + "/" + key.hex() + kTempInfix + std::to_string(getpid()) + "." +
              std::to_string(nonce) + "." + std::to_string(counter++);
        fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) return false;
    }
    if (fd < 0) return false;
    bool ok = write_all(fd, &h, sizeof h) && write_all(fd, payload.data(), payload.size());
    ok = close(fd) == 0 && ok;
    // rename() replaces the entry in one step: a reader has the old file open or the new one.
    ok = ok && rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) {
        unlink(tmp.c_str());
        return false;
    }
    evict();
    return true;
}

void JITDiskCache::evict() const {
    struct Entry {
        std::string path;
        uint64_t size;
        struct timespec mtime;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    DIR *d = opendir(dir_.c_str());
    if (!d) return;
    const time_t now = time(nullptr);
    while (struct dirent *e = readdir(d)) {
        std::string name = e->d_name;
        const bool temp = name.find(kTempInfix) != std::string::npos;
        if (!temp && !is_entry_name(name)) continue;
        std::string path = dir_ + "/" + name;
        struct stat st;
        if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (temp) {
            if (now - st.st_mtime > kStaleTempSeconds) unlink(path.c_str());
            continue;
        }
        entries.push_back({path, (uint64_t)st.st_size, st.st_mtim});
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    if (total <= max_bytes_) return;
    std::sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) {
        if (x.mtime.tv_sec != y.mtime.tv_sec) return x.mtime.tv_sec < y.mtime.tv_sec;
        return x.mtime.tv_nsec < y.mtime.tv_nsec;
    });
    // Down to 90% of the bound, so the next few stores do not each scan and evict again.
    const uint64_t goal = max_bytes_ / 10 * 9;
    for (const Entry &e : entries) {
        if (total <= goal) break;
        // Another process evicting at the same time may have removed it already.
        if (unlink(e.path.c_str()) == 0 || errno == ENOENT) total -= e.size;
    }
}

} // namespace internal
} // namespace loom
