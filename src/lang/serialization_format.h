#ifndef LOOM_LANG_SERIALIZATION_FORMAT_H
#define LOOM_LANG_SERIALIZATION_FORMAT_H

/// \file What the encoder (serialization.cpp) and the decoder (deserialization.cpp) of serialized
/// pipelines share (the layout is in serialization.h): the header, the tags, the canonical
/// names, and the encoding of numbers (unsigned LEB128 varints, zigzag for signed ones, IEEE bits
/// for doubles, little-endian fixed-size fields), strings (length, then bytes) and Types.
/// ByteReader checks every read against the end of the data and every count against the bytes left,
/// so corrupt data is a CompileError, never a read out of bounds or a huge allocation.

#include <loom/error.h>
#include <loom/runtime/loom_runtime.h>
#include <loom/type.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The first bytes of every serialized pipeline.
constexpr char serialized_magic[8] = {'L', 'O', 'O', 'M', 'P', 'I', 'P', 'E'};
/// Bumped by every change to the format; data of another version is refused.
constexpr uint32_t serialized_format_version = 1;
/// magic, version (u32), body size (u64), body hash (u64).
constexpr size_t serialized_header_size = 8 + 4 + 8 + 8;

/// The kinds of objects in the table.
enum class ObjectKind : uint8_t { Function, Parameter, ReductionDomain };
constexpr int num_object_kinds = 3;

/// The first byte of an Expr: undefined, a node written before (its number follows: nodes are
/// numbered in the order they are completed, operands first), or a node of kind
/// expr_node + IRNodeType.
constexpr uint8_t expr_undefined = 0, expr_backref = 1, expr_node = 2;

/// The flags of a Parameter in the table.
constexpr uint8_t param_is_buffer = 1, param_is_bound = 2, param_is_output = 4;

/// `name` without the suffixes Loom adds to reused names ("f$1" -> "f"), and an anonymous name
/// (one letter, then digits: "f12") as the letter and "$": what a Func built the same way is
/// called in every process. The decoder makes the names unique again (unique_name(name), or
/// unique_name(letter) for an anonymous one).
inline std::string canonical_func_name(const std::string &name) {
    std::string s;
    for (size_t i = 0; i < name.size(); i++) {
        if (name[i] == '$' && i + 1 < name.size() && std::isdigit((unsigned char)name[i + 1])) {
            while (i + 1 < name.size() && std::isdigit((unsigned char)name[i + 1])) i++;
            continue;
        }
        s += name[i];
    }
    bool anonymous = s.size() >= 2;
    for (size_t i = 1; i < s.size(); i++)
        anonymous = anonymous && std::isdigit((unsigned char)s[i]);
    return anonymous ? s.substr(0, 1) + "$" : s;
}

/// The components of a loop or variable name ("x.v12" has "x" and "v12") that Loom made up for
/// an anonymous Var, RVar, RDom or Buffer (unique_name('v'), 'r', 'b': the letter, then digits),
/// which differ from build to build, are written as "<letter>$<n>", numbered in the order met;
/// the decoder gives each a fresh unique name. `seen` holds the numbering (reading: the fresh
/// names).
inline std::string rename_anonymous(const std::string &name, bool writing,
                                    std::map<std::string, std::string> &seen,
                                    std::string (*fresh)(char)) {
    std::string result;
    size_t begin = 0;
    while (true) {
        size_t end = name.find('.', begin);
        if (end == std::string::npos) end = name.size();
        std::string part = name.substr(begin, end - begin);
        const char c = part.empty() ? 0 : part[0];
        size_t digits = writing ? 1 : 2;
        bool anonymous = (c == 'v' || c == 'r' || c == 'b') && part.size() > digits &&
                         (writing || part[1] == '$');
        for (size_t i = digits; anonymous && i < part.size(); i++) {
            anonymous = std::isdigit((unsigned char)part[i]) != 0;
        }
        if (anonymous) {
            auto it = seen.find(part);
            if (it == seen.end()) {
                std::string to =
                    writing ? std::string(1, c) + "$" + std::to_string(seen.size()) : fresh(c);
                it = seen.emplace(part, to).first;
            }
            part = it->second;
        }
        result += part;
        if (end == name.size()) return result;
        result += '.';
        begin = end + 1;
    }
}

/// A Buffer's name as written: empty for an anonymous one (a new one is made when read).
inline std::string canonical_buffer_name(const std::string &name) {
    std::string s = canonical_func_name(name);
    return s.size() == 2 && s[1] == '$' ? std::string() : s;
}

/// Calls f(address) for every element of `b`, dimension 0 fastest.
template <typename F>
void for_each_element_address(const halide_buffer_t &b, F f) {
    const int dims = b.dimensions;
    for (int d = 0; d < dims; d++) {
        if (b.dim[d].extent <= 0) return;
    }
    const int64_t bytes = (b.type.bits + 7) / 8;
    std::vector<int> pos(dims, 0);
    while (true) {
        int64_t offset = 0;
        for (int d = 0; d < dims; d++) offset += (int64_t)pos[d] * b.dim[d].stride;
        f(b.host + offset * bytes);
        int d = 0;
        while (d < dims && ++pos[d] == b.dim[d].extent) pos[d++] = 0;
        if (d == dims) return;
    }
}

/// FNV-1a, 64 bits: catches flipped and swapped bytes, which is all the header's hash is for.
inline uint64_t fnv1a64(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

class ByteWriter {
public:
    std::vector<uint8_t> bytes;

    void u8(uint8_t v) { bytes.push_back(v); }
    void fixed(uint64_t v, int n) {
        for (int i = 0; i < n; i++) bytes.push_back((uint8_t)(v >> (8 * i)));
    }
    void varint(uint64_t v) {
        while (v >= 0x80) {
            bytes.push_back((uint8_t)(v | 0x80));
            v >>= 7;
        }
        bytes.push_back((uint8_t)v);
    }
    void svarint(int64_t v) { varint(((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }
    void boolean(bool b) { u8(b ? 1 : 0); }
    void f64(double d) {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        fixed(bits, 8);
    }
    void string(const std::string &s) {
        varint(s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    void raw(const void *p, size_t n) {
        const uint8_t *b = (const uint8_t *)p;
        bytes.insert(bytes.end(), b, b + n);
    }
    void type(const Type &t) {
        u8((uint8_t)t.code());
        u8((uint8_t)t.bits());
        varint((uint64_t)t.lanes());
    }
};

class ByteReader {
public:
    ByteReader(const uint8_t *begin, const uint8_t *end) : p(begin), end(end) {}

    /// Throws the CompileError for corrupt data, saying what was wrong.
    [[noreturn]] static void corrupt(const std::string &what) {
        throw CompileError("Can't deserialize the pipeline: the data is corrupt (" + what + ").");
    }

    size_t left() const { return (size_t)(end - p); }
    bool at_end() const { return p == end; }

    uint8_t u8() {
        need(1, "a byte");
        return *p++;
    }
    uint64_t fixed(int n) {
        need((size_t)n, "a fixed-size field");
        uint64_t v = 0;
        for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
        p += n;
        return v;
    }
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            uint8_t b = u8();
            v |= (uint64_t)(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        corrupt("a number longer than 64 bits");
    }
    int64_t svarint() {
        uint64_t u = varint();
        return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    }
    /// A signed varint that must be in [lo, hi].
    int integer(int64_t lo, int64_t hi, const char *what) {
        int64_t v = svarint();
        if (v < lo || v > hi) corrupt(std::string(what) + " out of range: " + std::to_string(v));
        return (int)v;
    }
    /// An unsigned varint that must be in [lo, hi].
    int natural(uint64_t lo, uint64_t hi, const char *what) {
        uint64_t v = varint();
        if (v < lo || v > hi) corrupt(std::string(what) + " out of range: " + std::to_string(v));
        return (int)v;
    }
    bool boolean() {
        uint8_t b = u8();
        if (b > 1) corrupt("a flag that is neither 0 nor 1");
        return b == 1;
    }
    double f64() {
        uint64_t bits = fixed(8);
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    std::string string() {
        size_t n = count(1, "string");
        std::string s((const char *)p, n);
        p += n;
        return s;
    }
    const uint8_t *raw(size_t n) {
        need(n, "raw data");
        const uint8_t *r = p;
        p += n;
        return r;
    }
    /// A count of items each taking at least `min_bytes` of what is left (so a corrupt count
    /// can't make the reader allocate more than the data could describe).
    size_t count(size_t min_bytes, const char *what) {
        uint64_t n = varint();
        if (n > left() / (min_bytes ? min_bytes : 1)) {
            corrupt(std::string("a ") + what + " count of " + std::to_string(n) + " with only " +
                    std::to_string(left()) + " bytes left");
        }
        return (size_t)n;
    }
    /// An enumerator of E among its first `n` values.
    template <typename E>
    E enumerator(int n, const char *what) {
        uint8_t v = u8();
        if (v >= n) corrupt(std::string("an unknown ") + what + " " + std::to_string(v));
        return (E)v;
    }
    Type type() {
        uint8_t code = u8(), bits = u8();
        uint64_t lanes = varint();
        bool ok = lanes >= 1 && lanes <= 65535;
        switch (code) {
        case halide_type_int:
            ok = ok && (bits == 8 || bits == 16 || bits == 32 || bits == 64);
            break;
        case halide_type_uint:
            ok = ok && (bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64);
            break;
        case halide_type_float:
            ok = ok && (bits == 16 || bits == 32 || bits == 64);
            break;
        case halide_type_bfloat:
            ok = ok && bits == 16;
            break;
        case halide_type_handle:
            ok = ok && bits == 64;
            break;
        default:
            ok = false;
        }
        if (!ok) {
            corrupt("an invalid type (code " + std::to_string(code) + ", " + std::to_string(bits) +
                    " bits, " + std::to_string(lanes) + " lanes)");
        }
        return Type((halide_type_code_t)code, bits, (int)lanes);
    }

private:
    void need(size_t n, const char *what) {
        if (left() < n) corrupt(std::string("it ends inside ") + what);
    }

    const uint8_t *p, *end;
};

} // namespace internal
} // namespace loom

#endif
