// The C back end's operations as C99 text (see c_ops.h): scalar semantics first, then the
// vector operations defined lane by lane on them.
#include "codegen/c/c_ops.h"

#include "support/error.h"
#include "support/util.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace loom {
namespace internal {

namespace {

std::string unsigned_name(int bits) { return "uint" + std::to_string(bits) + "_t"; }
/// The unsigned type narrow arithmetic wraps in (C promotes narrower types to int).
std::string wrap_name(int bits) { return bits <= 32 ? "uint32_t" : "uint64_t"; }
std::string p(const std::string &s) { return "(" + s + ")"; }

std::string subst(const std::string &tmpl, const std::map<char, std::string> &vars) {
    std::string r;
    for (size_t i = 0; i < tmpl.size(); i++) {
        if (tmpl[i] == '$' && i + 1 < tmpl.size() && vars.count(tmpl[i + 1])) {
            r += vars.at(tmpl[i + 1]);
            i++;
        } else {
            r += tmpl[i];
        }
    }
    return r;
}

std::string join(const std::vector<std::string> &v, const std::string &sep = ", ") {
    std::string r;
    for (size_t i = 0; i < v.size(); i++) r += (i ? sep : "") + v[i];
    return r;
}

/// "i32", "u8", "f64", "b": an element type in names.
std::string element_tag(Type t) {
    t = t.element_of();
    if (t.is_bool()) return "b";
    if (t.is_handle()) return "h";
    const char *code = t.is_float() ? "f" : t.is_int() ? "i" : "u";
    return code + std::to_string(t.bits());
}

bool is_power_of_two_lanes(Type t) { return t.lanes() >= 2 && (t.lanes() & (t.lanes() - 1)) == 0; }

/// The largest and smallest value of integer type t, as C literals of int64_t / uint64_t.
std::string int_max_literal(Type t) {
    if (t.is_uint()) {
        uint64_t m = t.bits() == 64 ? ~uint64_t(0) : (uint64_t(1) << t.bits()) - 1;
        return "UINT64_C(" + std::to_string(m) + ")";
    }
    return "INT64_C(" + std::to_string((int64_t)((uint64_t(1) << (t.bits() - 1)) - 1)) + ")";
}

std::string int_min_literal(Type t) {
    if (t.is_uint()) return "INT64_C(0)";
    if (t.bits() == 64) return "(-INT64_C(9223372036854775807) - 1)";
    return "INT64_C(" + std::to_string(-(int64_t)(uint64_t(1) << (t.bits() - 1))) + ")";
}

} // namespace

// ---- Types and names ----

std::string c_scalar_type(Type t, const std::string &what) {
    user_assert(t.is_scalar()) << "The C back end cannot declare " << what << " of vector type "
                               << t << " as a scalar.\n";
    if (t.is_bool()) return "bool";
    if (t.is_handle()) return "void *";
    if (t.is_bfloat() || (t.is_float() && t.bits() == 16)) {
        user_error << "The C back end does not support " << t << " (" << what
                   << "): C99 has no 16-bit float type. Compute in float32 (cast on load and "
                      "store) or compile with an object-file output instead.\n";
    }
    if (t.is_float()) return t.bits() == 32 ? "float" : "double";
    return (t.is_uint() ? "uint" : "int") + std::to_string(t.bits()) + "_t";
}

std::string c_storage_type(Type t, const std::string &what) {
    return t.is_bool() ? "uint8_t" : c_scalar_type(t.element_of(), what);
}

std::string c_identifier_of(const std::string &s) {
    std::string r;
    for (char c : s) r += std::isalnum((unsigned char)c) ? c : '_';
    if (r.empty() || std::isdigit((unsigned char)r[0])) r = "_" + r;
    return r;
}

std::string c_string_literal(const std::string &s) {
    std::string r = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            r += '\\';
            r += (char)c;
        } else if (c == '\n') {
            r += "\\n";
        } else if (c < 32 || c >= 127) {
            // Octal escapes stop after three digits, unlike hex ones.
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\%03o", c);
            r += buf;
        } else {
            r += (char)c;
        }
    }
    return r + "\"";
}

void CDefinitions::add(const std::string &name, const std::string &text) {
    if (names_.insert(name).second) texts_.push_back(text);
}

std::string CDefinitions::text() const { return join(texts_, ""); }

// ---- Constants ----

std::string COps::int_literal(Type t, int64_t v) const {
    if (t.is_bool()) return v ? "true" : "false";
    if (t.bits() == 64) {
        if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
        return "INT64_C(" + std::to_string(v) + ")";
    }
    if (t.bits() == 32 && v == INT32_MIN) return "(-2147483647 - 1)";
    std::string s = std::to_string(v);
    return t == Int(32) ? (v < 0 ? p(s) : s) : "((" + c_scalar_type(t) + ")" + s + ")";
}

std::string COps::uint_literal(Type t, uint64_t v) const {
    if (t.is_bool()) return v ? "true" : "false";
    if (t.bits() == 64) return "UINT64_C(" + std::to_string(v) + ")";
    return "((" + c_scalar_type(t) + ")" + std::to_string(v) + "u)";
}

std::string COps::float_literal(Type t, double v) const {
    bool f32 = t.bits() == 32;
    std::string suffix = f32 ? "f" : "";
    if (std::isnan(v)) return f32 ? "NAN" : "((double)NAN)";
    if (std::isinf(v))
        return std::string(v < 0 ? "(-" : "(") + (f32 ? "" : "(double)") + "INFINITY)";
    // Hexadecimal floats are exact.
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%a", f32 ? (double)(float)v : v);
    std::string s = buf;
    return s[0] == '-' ? p(s + suffix) : s + suffix;
}

// ---- Scalar arithmetic ----

std::string COps::helper(const std::string &name, const std::string &text) {
    defs_.add(name, text);
    return name;
}

std::string COps::arith(char op, Type t, const std::string &a, const std::string &b) {
    t = t.element_of();
    internal_assert(!t.is_bool()) << "C: arithmetic on bool\n";
    std::string o = std::string(" ") + op + " ";
    // int32 overflow is assumed away (as the LLVM back end's nsw); unsigned 32/64-bit wrap.
    if (t.is_float() || t == Int(32) || (t.is_uint() && t.bits() >= 32)) return p(a + o + b);
    std::string w = "(" + wrap_name(t.bits()) + ")";
    return "((" + c_scalar_type(t) + ")(" + w + p(a) + o + w + p(b) + "))";
}

std::string COps::div_mod_helper(bool is_mod, bool round_to_zero, Type t) {
    std::string name = std::string("loom_") +
                       (round_to_zero ? (is_mod ? "rem_" : "quo_") : (is_mod ? "mod_" : "div_")) +
                       element_tag(t);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {
        {'N', name}, {'T', c_scalar_type(t)}, {'U', unsigned_name(t.bits())}};
    std::string body;
    if (t.is_float()) {
        // Halide's float modulus: a - b * floor(a / b).
        v['F'] = t.bits() == 32 ? "floorf" : "floor";
        body = "    return a - b * $F(a / b);\n";
    } else if (t.is_uint()) {
        body = is_mod ? "    return b == 0 ? ($T)0 : ($T)(a % b);\n"
                      : "    return b == 0 ? ($T)0 : ($T)(a / b);\n";
    } else if (!is_mod) {
        // b == -1 negates with wrap-around (INT_MIN / -1 is INT_MIN), as the LLVM back end.
        body = "    if (b == 0) return ($T)0;\n"
               "    if (b == -1) return ($T)(($U)0 - ($U)a);\n";
        if (round_to_zero) {
            body += "    return ($T)(a / b);\n";
        } else {
            // Round toward -inf for b > 0 and +inf for b < 0: the remainder is never negative.
            body += "    {\n        $T q = ($T)(a / b), r = ($T)(a % b);\n"
                    "        return r < 0 ? ($T)(b > 0 ? q - 1 : q + 1) : q;\n    }\n";
        }
    } else {
        body = "    if (b == 0 || b == -1) return ($T)0;\n";
        if (round_to_zero) {
            body += "    return ($T)(a % b);\n";
        } else {
            // A negative remainder moves up by |b|, in unsigned arithmetic (|INT_MIN| wraps).
            body += "    {\n        $T r = ($T)(a % b);\n"
                    "        $U m = b < 0 ? ($U)(($U)0 - ($U)b) : ($U)b;\n"
                    "        return r < 0 ? ($T)(($U)r + m) : r;\n    }\n";
        }
    }
    return helper(name, subst("LOOM_C_INLINE $T $N($T a, $T b) {\n" + body + "}\n", v));
}

std::string COps::div(Type t, const std::string &a, const std::string &b, bool round_to_zero) {
    t = t.element_of();
    if (t.is_float()) return p(a + " / " + b);
    return div_mod_helper(false, round_to_zero, t) + "(" + a + ", " + b + ")";
}

std::string COps::mod(Type t, const std::string &a, const std::string &b, bool round_to_zero) {
    return div_mod_helper(true, round_to_zero, t.element_of()) + "(" + a + ", " + b + ")";
}

std::string COps::min_max_helper(bool is_min, Type t) {
    std::string name = std::string(is_min ? "loom_min_" : "loom_max_") + element_tag(t);
    std::map<char, std::string> v = {{'N', name}, {'T', c_scalar_type(t)}};
    // Floats as the LLVM back end: min = a < b ? a : b, max = b < a ? a : b.
    return helper(name,
                  subst(is_min ? "LOOM_C_INLINE $T $N($T a, $T b) { return a < b ? a : b; }\n"
                               : "LOOM_C_INLINE $T $N($T a, $T b) { return b < a ? a : b; }\n",
                        v));
}

std::string COps::min(Type t, const std::string &a, const std::string &b) {
    return min_max_helper(true, t.element_of()) + "(" + a + ", " + b + ")";
}

std::string COps::max(Type t, const std::string &a, const std::string &b) {
    return min_max_helper(false, t.element_of()) + "(" + a + ", " + b + ")";
}

std::string COps::compare(const std::string &op, Type, const std::string &a, const std::string &b) {
    return p(a + " " + op + " " + b);
}

std::string COps::cast(Type from, Type to, const std::string &v) {
    from = from.element_of();
    to = to.element_of();
    if (from == to) return v;
    // Halide: a cast to bool is a comparison with zero (NaN is true, as != says).
    if (to.is_bool()) return p(p(v) + " != 0");
    if (from.is_handle()) return "((" + c_scalar_type(to) + ")(uintptr_t)" + p(v) + ")";
    if (to.is_handle()) return "((void *)(uintptr_t)" + p(v) + ")";
    // C's conversions are LLVM's: truncation or extension by the source's signedness,
    // toward zero from float to integer, to nearest otherwise.
    return "((" + c_scalar_type(to) + ")" + p(v) + ")";
}

std::string COps::reinterpret(Type from, Type to, const std::string &v) {
    from = from.element_of();
    to = to.element_of();
    if (from == to) return v;
    if (from.is_handle() || to.is_handle()) return cast(from, to, v);
    if (from.is_int_or_uint() && to.is_int_or_uint()) return cast(from, to, v);
    std::string name = "loom_reinterpret_" + element_tag(to) + "_" + element_tag(from);
    std::map<char, std::string> m = {
        {'N', name}, {'T', c_scalar_type(to)}, {'F', c_scalar_type(from)}};
    helper(name, subst("LOOM_C_INLINE $T $N($F x) {\n    $T r;\n    memcpy(&r, &x, sizeof r);\n"
                       "    return r;\n}\n",
                       m));
    return name + "(" + v + ")";
}

// ---- Intrinsics with scalar semantics ----

std::string COps::shift_helper(bool left, Type ta, Type tb) {
    std::string name =
        std::string(left ? "loom_shl_" : "loom_shr_") + element_tag(ta) + "_" + element_tag(tb);
    int bits = ta.bits();
    std::map<char, std::string> v = {{'N', name},
                                     {'T', c_scalar_type(ta)},
                                     {'B', c_scalar_type(tb)},
                                     {'W', wrap_name(bits)},
                                     {'K', std::to_string(bits)},
                                     {'J', std::to_string(bits - 1)}};
    // The magnitude of the amount, exact in 64 bits; amounts of at least the width give 0 (or
    // the sign fill to the right); a negative signed amount shifts the other way.
    std::string body = tb.is_int()
                           ? "    uint64_t m = b < 0 ? (uint64_t)0 - (uint64_t)(int64_t)b : "
                             "(uint64_t)b;\n"
                           : "    uint64_t m = (uint64_t)b;\n";
    body += "    $T l = m >= $K ? ($T)0 : ($T)(($W)a << m);\n";
    // (>> of a negative value is arithmetic in every compiler Loom targets.)
    body += ta.is_int() ? "    $T r = ($T)(a >> (m >= $K ? $J : m));\n"
                        : "    $T r = m >= $K ? ($T)0 : ($T)(a >> m);\n";
    std::string fwd = left ? "l" : "r", rev = left ? "r" : "l";
    body += tb.is_int() ? "    return b < 0 ? " + rev + " : " + fwd + ";\n"
                        : "    return " + fwd + ";\n";
    return helper(name, subst("LOOM_C_INLINE $T $N($T a, $B b) {\n" + body + "}\n", v));
}

std::string COps::lerp_helper(Type t, Type wt) {
    std::string name = "loom_lerp_" + element_tag(t) + "_" + element_tag(wt);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {
        {'N', name}, {'T', c_scalar_type(t)}, {'V', c_scalar_type(wt)}};
    std::string body;
    if (t.is_bool()) {
        // One when the weight is above one half.
        if (wt.is_float()) {
            body = "    return w > ($V)0.5 ? one : zero;\n";
        } else {
            uint64_t half = (wt.bits() >= 64 ? ~uint64_t(0) : ((uint64_t(1) << wt.bits()) - 1)) / 2;
            v['H'] = uint_literal(UInt(wt.bits()), half);
            v['Q'] = unsigned_name(wt.bits());
            body = "    return ($Q)w > $H ? one : zero;\n";
        }
    } else if (t.is_float()) {
        // zero * (1 - w) + one * w, an integer weight first scaled to [0, 1].
        if (wt.is_float()) {
            body = "    $T f = ($T)w;\n";
        } else if (wt.bits() == 32) {
            body = "    $T f = ($T)((double)w / 4294967295.0);\n";
        } else {
            v['S'] = float_literal(Float(32), std::ldexp(1.0, wt.bits()) - 1);
            body = "    $T f = ($T)((float)w / $S);\n";
        }
        body += "    return zero * (($T)1 - f) + one * f;\n";
    } else {
        // Integers, as the LLVM back end: in the unsigned type (signed values biased by the
        // type's minimum), products in twice the width, divided by 2^bits - 1 with rounding.
        int bits = t.bits();
        user_assert(bits <= 32) << "The C back end does not support lerp of " << t
                                << " values (it needs 128-bit products).\n";
        uint64_t umax = (uint64_t(1) << bits) - 1;
        v['U'] = unsigned_name(bits);
        v['W'] = bits == 32 ? "uint64_t" : "uint32_t";
        v['M'] = uint_literal(UInt(bits == 32 ? 64 : 32), umax);
        v['R'] = uint_literal(UInt(bits == 32 ? 64 : 32), uint64_t(1) << (bits - 1));
        v['K'] = std::to_string(bits);
        v['S'] = uint_literal(UInt(32), uint64_t(1) << (bits - 1));
        std::string bias = t.is_int() ? " ^ $S" : "";
        body = "    $U z = ($U)(($U)zero" + bias + "), o = ($U)(($U)one" + bias + ");\n";
        if (wt.is_float()) {
            if (bits == 32) {
                body += "    $U tw = ($U)((double)w * (65535.0 * 65537.0));\n";
            } else {
                v['F'] = wt.bits() == 32 ? float_literal(Float(32), (double)umax)
                                         : float_literal(Float(64), (double)umax);
                body += "    $U tw = ($U)($F * w);\n";
            }
        } else {
            v['Q'] = unsigned_name(wt.bits());
            if (wt.bits() == bits) {
                body += "    $U tw = ($U)w;\n";
            } else if (wt.bits() < bits) {
                uint64_t scale = umax / ((uint64_t(1) << wt.bits()) - 1);
                v['C'] = uint_literal(UInt(32), scale);
                body += "    $U tw = ($U)((uint32_t)($Q)w * $C);\n";
            } else {
                uint64_t wmax = wt.bits() >= 64 ? ~uint64_t(0) : (uint64_t(1) << wt.bits()) - 1;
                v['C'] = uint_literal(UInt(wt.bits() < 32 ? 32 : wt.bits()), wmax / umax);
                // Truncating, as Halide: a uint16 weight for uint8 values is w / 257.
                body += "    $U tw = ($U)(($Q)w / $C);\n";
            }
        }
        body += "    $W p = ($W)z * ($W)($U)($M - tw) + ($W)o * ($W)tw + $R;\n"
                "    $U r = ($U)(((p >> $K) + p) >> $K);\n";
        body += t.is_int() ? "    return ($T)(r ^ $S);\n" : "    return r;\n";
    }
    return helper(name, subst("LOOM_C_INLINE $T $N($T zero, $T one, $V w) {\n" + body + "}\n", v));
}

std::string COps::saturating_cast_helper(Type from, Type to) {
    std::string name = "loom_satcast_" + element_tag(to) + "_" + element_tag(from);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {{'N', name},
                                     {'T', c_scalar_type(to)},
                                     {'F', c_scalar_type(from)},
                                     {'X', int_max_literal(to)},
                                     {'I', int_min_literal(to)}};
    std::string body;
    if (to.is_float()) {
        // Clamp to the finite range of a narrower float (NaN stays NaN).
        body = from.is_float() && to.bits() < from.bits()
                   ? "    if (x > ($F)3.4028234663852886e38) x = ($F)3.4028234663852886e38;\n"
                     "    if (x < ($F)-3.4028234663852886e38) x = ($F)-3.4028234663852886e38;\n"
                   : "";
        body += "    return ($T)x;\n";
    } else if (from.is_float()) {
        // NaN gives 0; the bounds compared in the float type, as the LLVM back end.
        body = "    if (x != x) return 0;\n"
               "    if (x >= ($F)$X) return ($T)$X;\n"
               "    if (x < ($F)$I) return ($T)$I;\n"
               "    return ($T)x;\n";
    } else if (from == UInt(64)) {
        body = "    return x > (uint64_t)$X ? ($T)$X : ($T)x;\n";
    } else if (to == UInt(64)) {
        body = from.is_int() ? "    return x < 0 ? 0 : (uint64_t)x;\n" : "    return x;\n";
    } else {
        // Both fit int64.
        body = "    int64_t w = (int64_t)x;\n"
               "    if (w < $I) w = $I;\n"
               "    if (w > $X) w = $X;\n"
               "    return ($T)w;\n";
    }
    return helper(name, subst("LOOM_C_INLINE $T $N($F x) {\n" + body + "}\n", v));
}

std::string COps::saturating_add_sub_helper(bool add, Type t) {
    std::string name = std::string(add ? "loom_satadd_" : "loom_satsub_") + element_tag(t);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {{'N', name}, {'T', c_scalar_type(t)}};
    std::string op = add ? "+" : "-";
    std::string body;
    if (t.bits() < 64) {
        v['S'] = saturating_cast_helper(Int(64), t);
        body = "    return $S((int64_t)a " + op + " (int64_t)b);\n";
    } else if (t.is_uint()) {
        body = add ? "    uint64_t r = a + b;\n    return r < a ? ~(uint64_t)0 : r;\n"
                   : "    return a < b ? 0 : a - b;\n";
    } else {
        body = "    int64_t r = (int64_t)((uint64_t)a " + op + " (uint64_t)b);\n";
        body += add ? "    if (((a ^ r) & (b ^ r)) < 0)" : "    if (((a ^ b) & (a ^ r)) < 0)";
        body += " r = a < 0 ? (-INT64_C(9223372036854775807) - 1) : INT64_C(9223372036854775807);\n"
                "    return r;\n";
    }
    return helper(name, subst("LOOM_C_INLINE $T $N($T a, $T b) {\n" + body + "}\n", v));
}

std::string COps::halving_helper(const std::string &which, Type t) {
    std::string name = "loom_" + which + "_" + element_tag(t);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {{'N', name}, {'T', c_scalar_type(t)}};
    std::string body;
    if (t.is_float()) {
        body = std::string("    return (a ") + (which == "halving_sub" ? "-" : "+") +
               " b) * ($T)0.5;\n";
    } else if (t.bits() < 64) {
        // Exact in 64 bits, then halved and narrowed (>> of a negative value is arithmetic).
        std::string w = t.is_int() ? "int64_t" : "uint64_t";
        if (which == "halving_sub") w = "int64_t";
        v['W'] = w;
        body = which == "halving_add"            ? "    return ($T)((($W)a + ($W)b) >> 1);\n"
               : which == "rounding_halving_add" ? "    return ($T)((($W)a + ($W)b + 1) >> 1);\n"
                                                 : "    return ($T)((($W)a - ($W)b) >> 1);\n";
    } else {
        // Without a wider type: a = 2p + r, b = 2q + s.
        if (which == "halving_add") {
            body = "    return ($T)((a >> 1) + (b >> 1) + (a & b & 1));\n";
        } else if (which == "rounding_halving_add") {
            body = "    return ($T)((a >> 1) + (b >> 1) + ((a | b) & 1));\n";
        } else if (t.is_int()) {
            body = "    return ($T)((a >> 1) - (b >> 1) - (~a & b & 1));\n";
        } else {
            // The 65-bit difference's top bit comes back as bit 63.
            body = "    return ((a - b) >> 1) | (a < b ? (uint64_t)1 << 63 : 0);\n";
        }
    }
    return helper(name, subst("LOOM_C_INLINE $T $N($T a, $T b) {\n" + body + "}\n", v));
}

std::string COps::mul_shift_right_helper(bool rounding, Type rt, Type ta, Type tb, Type tq) {
    user_assert(ta.bits() <= 32) << "The C back end does not support mul_shift_right of " << ta
                                 << " values (it needs 128-bit products).\n";
    std::string name = std::string(rounding ? "loom_rmsr_" : "loom_msr_") + element_tag(rt) + "_" +
                       element_tag(ta) + "_" + element_tag(tb) + "_" + element_tag(tq);
    if (defs_.has(name)) return name;
    Type wide = ta.with_bits(ta.bits() * 2);
    std::map<char, std::string> v = {{'N', name},
                                     {'R', c_scalar_type(rt)},
                                     {'A', c_scalar_type(ta)},
                                     {'B', c_scalar_type(tb)},
                                     {'Q', c_scalar_type(tq)},
                                     {'P', unsigned_name(tq.bits())},
                                     {'W', c_scalar_type(wide)},
                                     {'X', unsigned_name(wide.bits())},
                                     {'Y', wrap_name(wide.bits())},
                                     {'J', std::to_string(wide.bits() - 1)},
                                     {'S', saturating_cast_helper(wide, rt)}};
    // saturating_cast<R>(widening_mul(a, b) >> q), q read as unsigned and at most the wide
    // width - 1; the rounding form adds half the divisor first. Wrapping arithmetic in $Y.
    std::string body = "    $W p = ($W)(($Y)($W)a * ($Y)($W)b);\n"
                       "    uint64_t s = (uint64_t)($X)($P)q;\n"
                       "    if (s > $J) s = $J;\n";
    if (rounding) body += "    p = ($W)(($Y)p + ((($Y)1 << s) >> 1));\n";
    body += "    p = ($W)(p >> s);\n"
            "    return $S(p);\n";
    return helper(name, subst("LOOM_C_INLINE $R $N($A a, $B b, $Q q) {\n" + body + "}\n", v));
}

std::string COps::bit_count_helper(const std::string &which, Type t) {
    std::string name = "loom_" + which + "_" + element_tag(t);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {{'N', name},
                                     {'T', c_scalar_type(t)},
                                     {'U', unsigned_name(t.bits())},
                                     {'K', std::to_string(t.bits())}};
    std::string body = "    $U u = ($U)a;\n    int n = 0, i;\n";
    if (which == "popcount") {
        body += "    for (i = 0; i < $K; i++) n += (int)((u >> i) & 1u);\n";
    } else if (which == "count_leading_zeros") {
        body += "    for (i = $K - 1; i >= 0 && !((u >> i) & 1u); i--) n++;\n";
    } else {
        body += "    for (i = 0; i < $K && !((u >> i) & 1u); i++) n++;\n";
    }
    body += "    return n;\n";
    return helper(name, subst("LOOM_C_INLINE int $N($T a) {\n" + body + "}\n", v));
}

std::string COps::abs_helper(bool diff, Type t, Type rt) {
    std::string name = std::string(diff ? "loom_absd_" : "loom_abs_") + element_tag(t);
    if (defs_.has(name)) return name;
    std::map<char, std::string> v = {
        {'N', name}, {'T', c_scalar_type(t)}, {'R', c_scalar_type(rt)}};
    if (t.is_float()) {
        v['F'] = t.bits() == 32 ? "fabsf" : "fabs";
        return helper(name, subst(diff ? "LOOM_C_INLINE $T $N($T a, $T b) { return $F(a - b); }\n"
                                       : "LOOM_C_INLINE $T $N($T a) { return $F(a); }\n",
                                  v));
    }
    // The difference (or |INT_MIN|) fits the unsigned type of the same width.
    v['U'] = unsigned_name(t.bits());
    return helper(name,
                  subst(diff ? "LOOM_C_INLINE $R $N($T a, $T b) {\n"
                               "    return a < b ? ($R)(($U)b - ($U)a) : ($R)(($U)a - ($U)b);\n}\n"
                             : "LOOM_C_INLINE $R $N($T a) {\n"
                               "    return a < 0 ? ($R)(($U)0 - ($U)a) : ($R)a;\n}\n",
                        v));
}

std::string COps::math(const std::string &name, Type rt, const std::vector<Type> &types,
                       const std::vector<std::string> &args) {
    std::string suffix;
    for (const char *s : {"_f16", "_f32", "_f64"}) {
        if (ends_with(name, s)) suffix = s;
    }
    if (suffix.empty() || args.empty()) return "";
    for (const Type &t : types) {
        if (!t.is_float()) return "";
    }
    std::string fn = name.substr(0, name.size() - suffix.size());
    // fast_* variants are computed precisely (allowed: they only promise an approximation).
    if (starts_with(fn, "fast_")) fn = fn.substr(5);
    if (suffix == "_f16") c_scalar_type(Float(16), "the argument of " + name); // refuses
    std::string f = suffix == "_f32" ? "f" : "";
    if (fn == "is_nan") return "(isnan(" + args[0] + ") != 0)";
    if (fn == "is_inf") return "(isinf(" + args[0] + ") != 0)";
    if (fn == "is_finite") return "(isfinite(" + args[0] + ") != 0)";
    std::string one = suffix == "_f32" ? "1.0f" : "1.0";
    if (fn == "inverse") return p(one + " / " + p(args[0]));
    if (fn == "inverse_sqrt") return p(one + " / sqrt" + f + "(" + args[0] + ")");
    // round is to nearest even, as nearbyint in the default rounding mode.
    if (fn == "round") return "nearbyint" + f + "(" + args[0] + ")";
    if (fn == "abs") fn = "fabs";
    static const char *libm[] = {"sqrt",  "floor", "ceil", "trunc",   "exp",   "log",   "pow",
                                 "sin",   "cos",   "fabs", "tan",     "asin",  "acos",  "atan",
                                 "atan2", "sinh",  "cosh", "tanh",    "asinh", "acosh", "atanh",
                                 "erf",   "hypot", "exp2", "log2",    "log10", "expm1", "log1p",
                                 "cbrt",  "fmod",  "erfc", "copysign"};
    for (const char *l : libm) {
        if (fn == l) return fn + f + "(" + join(args) + ")";
    }
    (void)rt;
    return "";
}

std::string COps::intrinsic(const std::string &n, Type rt, const std::vector<Type> &types,
                            const std::vector<std::string> &a) {
    auto call = [&](const std::string &fn) { return fn + "(" + join(a) + ")"; };
    Type t0 = types.empty() ? Type() : types[0];
    if (n == Call::likely || n == Call::likely_if_innermost || n == Call::promise_clamped ||
        n == Call::unsafe_promise_clamped || n == Call::strict_float) {
        return a[0];
    }
    if (n == Call::bitwise_and || n == Call::bitwise_or || n == Call::bitwise_xor) {
        const char *op = n == Call::bitwise_and ? " & " : n == Call::bitwise_or ? " | " : " ^ ";
        return "((" + c_scalar_type(rt) + ")(" + p(a[0]) + op + p(a[1]) + "))";
    }
    if (n == Call::bitwise_not) {
        return rt.is_bool() ? "(!" + p(a[0]) + ")"
                            : "((" + c_scalar_type(rt) + ")~" + p(a[0]) + ")";
    }
    if (n == Call::shift_left || n == Call::shift_right) {
        return call(shift_helper(n == Call::shift_left, t0, types[1]));
    }
    if (n == Call::abs) return call(abs_helper(false, t0, rt));
    if (n == Call::absd) return call(abs_helper(true, t0, rt));
    if (n == Call::count_leading_zeros || n == Call::count_trailing_zeros || n == Call::popcount) {
        return "((" + c_scalar_type(rt) + ")" + call(bit_count_helper(n, t0)) + ")";
    }
    if (n == Call::lerp) return call(lerp_helper(t0, types[2]));
    if (n == Call::div_round_to_zero) return div(rt, a[0], a[1], true);
    if (n == Call::mod_round_to_zero) return mod(rt, a[0], a[1], true);
    if (n == Call::saturating_add || n == Call::saturating_sub) {
        if (rt.is_float()) return arith(n == Call::saturating_add ? '+' : '-', rt, a[0], a[1]);
        return call(saturating_add_sub_helper(n == Call::saturating_add, rt));
    }
    if (n == Call::saturating_cast) return call(saturating_cast_helper(t0, rt));
    if (n == Call::widening_add || n == Call::widening_mul || n == "widening_sub") {
        char op = n == Call::widening_add ? '+' : n == Call::widening_mul ? '*' : '-';
        return arith(op, rt, cast(t0, rt, a[0]), cast(types[1], rt, a[1]));
    }
    if (n == Call::halving_add || n == Call::rounding_halving_add || n == "halving_sub") {
        return call(halving_helper(n, rt));
    }
    if (n == Call::mul_shift_right || n == "rounding_mul_shift_right") {
        return call(mul_shift_right_helper(n != Call::mul_shift_right, rt, t0, types[1], types[2]));
    }
    return "";
}

std::string COps::call(const std::string &name, Type rt, const std::vector<Type> &types,
                       const std::vector<std::string> &args) {
    std::vector<Type> elems;
    for (const Type &t : types) elems.push_back(t.element_of());
    std::string r = intrinsic(name, rt.element_of(), elems, args);
    return r.empty() ? math(name, rt.element_of(), elems, args) : r;
}

// ---- Vectors ----

std::string COps::tag(Type t) {
    return t.is_scalar() ? element_tag(t) : "v" + std::to_string(t.lanes()) + element_tag(t);
}

std::string COps::vector_type(Type t) {
    internal_assert(t.is_vector()) << "C: vector_type of a scalar\n";
    std::string tg = tag(t), name = "loom_" + tg;
    if (defs_.has("type " + tg)) return name;
    std::string ct = c_storage_type(t.element_of(), "a vector lane");
    std::map<char, std::string> v = {
        {'N', name}, {'G', tg}, {'C', ct}, {'L', std::to_string(t.lanes())}};
    if (is_power_of_two_lanes(t)) {
        // Bool lanes have a macro of their own: a mapping may keep them wider than their
        // uint8_t storage (the comparisons' width).
        const char *def =
            t.is_bool() ? "LOOM_BOOL_VECTOR_TYPE($G, $L)" : "LOOM_VECTOR_TYPE($G, $L, $C)";
        defs_.add("type " + tg,
                  subst(std::string("#ifndef LOOM_HAVE_TYPE_$G\n") + def + "\n#endif\n", v));
    } else {
        // Not a SIMD register shape: lanes in a struct, whatever the mapping.
        defs_.add(
            "type " + tg,
            subst("typedef struct { $C v[$L]; } $N;\n"
                  "LOOM_C_INLINE $N $N_load(const $C *p) {\n"
                  "    $N r;\n    memcpy(r.v, p, sizeof r.v);\n    return r;\n}\n"
                  "LOOM_C_INLINE void $N_store($C *p, $N x) { memcpy(p, x.v, sizeof x.v); }\n",
                  v));
    }
    return name;
}

std::string
COps::vector_op(const std::string &op, Type rt, const std::vector<Type> &types,
                const std::vector<std::string> &args,
                const std::function<std::string(const std::vector<std::string> &)> &lane) {
    // The name: result tag, op, then the arguments' tags unless all are the result's.
    std::string rtag = tag(rt);
    std::set<std::string> arg_tags;
    std::vector<std::string> tags;
    bool native = is_power_of_two_lanes(rt);
    for (const Type &t : types) {
        tags.push_back(tag(t));
        arg_tags.insert(tags.back());
        if (t.is_vector()) native = native && is_power_of_two_lanes(t);
    }
    std::string fname = "loom_" + rtag + "_" + op;
    if (!(arg_tags.size() == 1 && *arg_tags.begin() == rtag) && !arg_tags.empty()) {
        fname += "_" + (arg_tags.size() == 1 ? *arg_tags.begin() : join(tags, "_"));
    }
    std::string call = fname + "(" + join(args) + ")";
    if (defs_.has(fname)) return call;

    std::string rtype = rt.is_vector() ? vector_type(rt) : c_scalar_type(rt);
    std::string rct = c_storage_type(rt.element_of());
    std::vector<std::string> params, macro_args = {fname, rtype, rct, std::to_string(rt.lanes())};
    std::string body;
    std::vector<std::string> lane_args;
    for (size_t i = 0; i < types.size(); i++) {
        Type t = types[i];
        std::string arg = "a" + std::to_string(i);
        if (t.is_vector()) {
            internal_assert(t.lanes() == rt.lanes())
                << "C: vector op " << fname << " mixes lane counts\n";
            std::string ct = c_storage_type(t.element_of());
            params.push_back(vector_type(t) + " " + arg);
            macro_args.push_back(vector_type(t));
            macro_args.push_back(ct);
            body +=
                "    " + ct + " x" + std::to_string(i) + "[" + std::to_string(t.lanes()) + "];\n";
            lane_args.push_back(t.is_bool() ? "(x" + std::to_string(i) + "[i] != 0)"
                                            : "x" + std::to_string(i) + "[i]");
        } else {
            params.push_back(c_scalar_type(t) + " " + arg);
            macro_args.push_back(c_scalar_type(t));
            macro_args.push_back(c_scalar_type(t));
            lane_args.push_back(arg);
        }
    }
    body += "    " + rct + " r[" + std::to_string(rt.lanes()) + "];\n    int i;\n";
    for (size_t i = 0; i < types.size(); i++) {
        if (types[i].is_vector()) {
            body += "    loom_" + tags[i] + "_store(x" + std::to_string(i) + ", a" +
                    std::to_string(i) + ");\n";
        }
    }
    std::string value = lane(lane_args);
    if (rt.is_bool()) value = "(uint8_t)" + p(value);
    body += "    for (i = 0; i < " + std::to_string(rt.lanes()) + "; i++) r[i] = " + value + ";\n";
    body += "    return loom_" + rtag + "_load(r);\n";
    std::string def =
        "LOOM_C_INLINE " + rtype + " " + fname + "(" + join(params) + ") {\n" + body + "}\n";
    if (native) {
        // Last: the signed integer vector as wide as the result's lanes (masks, bit patterns);
        // for bool lanes the bool vector itself, whose lanes' width is the mapping's.
        auto integers_as_wide = [&](Type t) {
            return t.is_bool() ? vector_type(t) : vector_type(Int(t.bits(), t.lanes()));
        };
        macro_args.push_back(integers_as_wide(rt));
        // A conversion also gets the signed integer vector as wide as its argument's lanes.
        if (op == "cvt") macro_args.push_back(integers_as_wide(types[0].with_lanes(rt.lanes())));
    }
    std::string macro = "LOOM_OP_" + c_identifier_of(op);
    std::string text = "#if defined(LOOM_HAVE_" + fname + ")\n";
    if (native) {
        text += "#elif defined(" + macro + ")\n" + macro + "(" + join(macro_args) + ")\n";
    }
    text += "#else\n" + def + "#endif\n";
    defs_.add(fname, text);
    return call;
}

std::string COps::lanewise(
    const std::string &op, Type rt, const std::vector<Type> &types,
    const std::vector<std::string> &args,
    const std::function<std::string(const std::vector<Type> &, const std::vector<std::string> &)>
        &scalar) {
    bool any_vector = rt.is_vector();
    std::vector<Type> elems;
    for (const Type &t : types) {
        any_vector = any_vector || t.is_vector();
        elems.push_back(t.element_of());
    }
    if (!any_vector) return scalar(types, args);
    return vector_op(op, rt, types, args,
                     [&](const std::vector<std::string> &lanes) { return scalar(elems, lanes); });
}

std::string COps::load(Type t, const std::string &ptr) {
    vector_type(t);
    return "loom_" + tag(t) + "_load(" + ptr + ")";
}

std::string COps::store(Type t, const std::string &ptr, const std::string &v) {
    vector_type(t);
    return "loom_" + tag(t) + "_store(" + ptr + ", " + v + ")";
}

std::string COps::gather(Type t, const std::string &ptr, Type index_type, const std::string &index,
                         const std::string &mask) {
    std::string tg = tag(t), it = tag(index_type);
    std::string fname = "loom_" + tg + (mask.empty() ? "_gather_" : "_gather_pred_") + it;
    std::string ct = c_storage_type(t.element_of()), ic = c_scalar_type(index_type.element_of());
    std::string n = std::to_string(t.lanes());
    if (!defs_.has(fname)) {
        std::string vt = vector_type(t), ivt = vector_type(index_type);
        std::string mt = mask.empty() ? "" : vector_type(UInt(1, t.lanes()));
        std::string def =
            "LOOM_C_INLINE " + vt + " " + fname + "(const " + ct + " *p, " + ivt + " idx" +
            (mask.empty() ? "" : ", " + mt + " m") + ") {\n    " + ic + " x[" + n + "];\n    " +
            ct + " r[" + n + "];\n" + (mask.empty() ? "" : "    uint8_t k[" + n + "];\n") +
            "    int i;\n" + "    loom_" + it + "_store(x, idx);\n" +
            (mask.empty() ? "" : "    loom_v" + n + "b_store(k, m);\n") + "    for (i = 0; i < " +
            n + "; i++) r[i] = " + (mask.empty() ? "p[x[i]]" : "k[i] ? p[x[i]] : (" + ct + ")0") +
            ";\n" + "    return loom_" + tg + "_load(r);\n}\n";
        std::string text = "#if defined(LOOM_HAVE_" + fname + ")\n";
        if (is_power_of_two_lanes(t) && mask.empty()) {
            // A mapping's gathers for all types at once, as LOOM_OP_<op> for the lanewise ops.
            text += "#elif defined(LOOM_OP_gather)\nLOOM_OP_gather(" + fname + ", " + vt + ", " +
                    ct + ", " + n + ", " + ivt + ", " + ic + ")\n";
        }
        defs_.add(fname, text + "#else\n" + def + "#endif\n");
    }
    return fname + "(" + ptr + ", " + index + (mask.empty() ? "" : ", " + mask) + ")";
}

std::string COps::scatter(Type t, const std::string &ptr, Type index_type, const std::string &index,
                          const std::string &v, const std::string &mask) {
    std::string tg = tag(t), it = tag(index_type);
    std::string fname = "loom_" + tg + (mask.empty() ? "_scatter_" : "_scatter_pred_") + it;
    std::string ct = c_storage_type(t.element_of()), ic = c_scalar_type(index_type.element_of());
    std::string n = std::to_string(t.lanes());
    if (!defs_.has(fname)) {
        std::string vt = vector_type(t), ivt = vector_type(index_type);
        std::string mt = mask.empty() ? "" : vector_type(UInt(1, t.lanes()));
        // In lane order: where two lanes store to one element, the later one's value stays.
        std::string def = "LOOM_C_INLINE void " + fname + "(" + ct + " *p, " + ivt + " idx, " + vt +
                          " v" + (mask.empty() ? "" : ", " + mt + " m") + ") {\n    " + ic + " x[" +
                          n + "];\n    " + ct + " y[" + n + "];\n" +
                          (mask.empty() ? "" : "    uint8_t k[" + n + "];\n") + "    int i;\n" +
                          "    loom_" + it + "_store(x, idx);\n    loom_" + tg + "_store(y, v);\n" +
                          (mask.empty() ? "" : "    loom_v" + n + "b_store(k, m);\n") +
                          "    for (i = 0; i < " + n + "; i++) " +
                          (mask.empty() ? "" : "if (k[i]) ") + "p[x[i]] = y[i];\n}\n";
        defs_.add(fname, "#if !defined(LOOM_HAVE_" + fname + ")\n" + def + "#endif\n");
    }
    return fname + "(" + ptr + ", " + index + ", " + v + (mask.empty() ? "" : ", " + mask) + ")";
}

std::string COps::broadcast(Type t, const std::string &scalar) {
    Type et = t.element_of();
    return vector_op("broadcast", t, {et}, {scalar},
                     [](const std::vector<std::string> &a) { return a[0]; });
}

std::string COps::ramp(Type t, const std::string &base, const std::string &stride) {
    Type et = t.element_of();
    std::string lane_index = "((" + c_scalar_type(et) + ")i)";
    return vector_op("ramp", t, {et, et}, {base, stride}, [&](const std::vector<std::string> &a) {
        return arith('+', et, a[0], arith('*', et, a[1], lane_index));
    });
}

std::string COps::extract(Type t, const std::string &v, int i) {
    std::string tg = tag(t), fname = "loom_" + tg + "_extract";
    std::string ct = c_storage_type(t.element_of());
    std::string n = std::to_string(t.lanes());
    if (!defs_.has(fname)) {
        defs_.add(fname, "LOOM_C_INLINE " + ct + " " + fname + "(" + vector_type(t) +
                             " v, int i) {\n    " + ct + " x[" + n + "];\n    loom_" + tg +
                             "_store(x, v);\n    return x[i];\n}\n");
    }
    std::string r = fname + "(" + v + ", " + std::to_string(i) + ")";
    return t.is_bool() ? p(r + " != 0") : r;
}

std::string COps::reduce(const std::string &op, Type rt, Type vt, const std::string &v) {
    std::string fname = "loom_" + tag(rt) + "_reduce_" + op + "_" + tag(vt);
    if (!defs_.has(fname)) {
        Type et = vt.element_of();
        int factor = vt.lanes() / rt.lanes();
        std::string ct = c_storage_type(et), st = c_scalar_type(et);
        std::string lane = "x[j * " + std::to_string(factor) + " + k]";
        if (et.is_bool()) lane = p(lane + " != 0");
        std::string combined = op == "add"   ? arith('+', et, "acc", lane)
                               : op == "mul" ? arith('*', et, "acc", lane)
                               : op == "min" ? min(et, "acc", lane)
                               : op == "max" ? max(et, "acc", lane)
                               : op == "and" ? "(acc && " + lane + ")"
                                             : "(acc || " + lane + ")";
        std::string first = et.is_bool() ? "(x[j * " + std::to_string(factor) + "] != 0)"
                                         : "x[j * " + std::to_string(factor) + "]";
        std::string rtype = rt.is_vector() ? vector_type(rt) : c_scalar_type(rt);
        std::string body = "    " + ct + " x[" + std::to_string(vt.lanes()) + "];\n";
        if (rt.is_vector()) body += "    " + ct + " r[" + std::to_string(rt.lanes()) + "];\n";
        body += "    int j, k;\n    loom_" + tag(vt) + "_store(x, v);\n";
        body += "    for (j = 0; j < " + std::to_string(rt.lanes()) + "; j++) {\n        " + st +
                " acc = " + first + ";\n        for (k = 1; k < " + std::to_string(factor) +
                "; k++) acc = " + combined + ";\n";
        body += rt.is_vector()
                    ? "        r[j] = (" + ct + ")acc;\n    }\n    return loom_" + tag(rt) +
                          "_load(r);\n"
                    : "        return acc;\n    }\n    return " +
                          (et.is_bool() ? std::string("false") : "(" + st + ")0") + ";\n";
        std::string def = "LOOM_C_INLINE " + rtype + " " + fname + "(" + vector_type(vt) +
                          " v) {\n" + body + "}\n";
        defs_.add(fname, "#if !defined(LOOM_HAVE_" + fname + ")\n" + def + "#endif\n");
    }
    return fname + "(" + v + ")";
}

std::string COps::shuffle(Type rt, const std::vector<Type> &types,
                          const std::vector<std::string> &vectors,
                          const std::vector<int> &indices) {
    // One function per distinct shuffle: the inputs stored one after another, then picked.
    std::ostringstream key;
    key << tag(rt);
    for (const Type &t : types) key << "_" << tag(t);
    for (int i : indices) key << "_" << i;
    std::string fname;
    for (int k = 0;; k++) {
        fname = "loom_" + tag(rt) + "_shuffle" + std::to_string(k);
        if (!defs_.has(fname)) break;
        if (defs_.has("shuffle " + key.str() + " " + fname)) break;
    }
    if (!defs_.has(fname)) {
        defs_.add("shuffle " + key.str() + " " + fname, "");
        Type et = rt.element_of();
        std::string ct = c_storage_type(et);
        int total = 0;
        for (const Type &t : types) total += t.lanes();
        std::vector<std::string> params;
        std::string body = "    " + ct + " x[" + std::to_string(total) + "];\n";
        if (rt.is_vector()) body += "    " + ct + " r[" + std::to_string(rt.lanes()) + "];\n";
        int offset = 0;
        for (size_t i = 0; i < types.size(); i++) {
            std::string a = "a" + std::to_string(i);
            if (types[i].is_vector()) {
                params.push_back(vector_type(types[i]) + " " + a);
                body += "    loom_" + tag(types[i]) + "_store(x + " + std::to_string(offset) +
                        ", " + a + ");\n";
            } else {
                params.push_back(ct + " " + a);
                body += "    x[" + std::to_string(offset) + "] = " + a + ";\n";
            }
            offset += types[i].lanes();
        }
        std::string rtype;
        if (rt.is_vector()) {
            rtype = vector_type(rt);
            for (size_t j = 0; j < indices.size(); j++) {
                body +=
                    "    r[" + std::to_string(j) + "] = x[" + std::to_string(indices[j]) + "];\n";
            }
            body += "    return loom_" + tag(rt) + "_load(r);\n";
            // One or two vectors of one type whose lanes and the result's are powers of two:
            // the compiler's shuffle builtin where the mapping offers it (LOOM_SHUFFLEVECTOR),
            // one instruction or a few. GCC copies the lanes through memory one by one
            // otherwise (camera_pipe's deinterleaving: 4x slower than Clang).
            auto pow2 = [](int n) { return n > 1 && (n & (n - 1)) == 0; };
            bool builtin = pow2(rt.lanes()) && types.size() <= 2;
            for (const Type &t : types) {
                builtin = builtin && t == types[0] && pow2(t.lanes());
            }
            if (builtin) {
                std::string guard = "#ifdef LOOM_SHUFFLEVECTOR\n", halves;
                std::string call = "    return LOOM_SHUFFLEVECTOR(a0, " +
                                   std::string(types.size() == 2 ? "a1" : "a0");
                // Lanes of one vector twice the result's width: from its halves, as the
                // result's type. GCC 12 copies the lanes one by one out of a vector wider than
                // any register (pyramid_blend's 32 x f32 loads of stride 2), but shuffles two
                // halves that fit in one instruction. (Not for bools, whose lane width the
                // mapping chooses by lane count.)
                if (types.size() == 1 && types[0].lanes() == 2 * rt.lanes() && !rt.is_bool()) {
                    std::string half = vector_type(rt);
                    halves = "    " + half + " h0, h1;\n    memcpy(&h0, &a0, sizeof h0);\n" +
                             "    memcpy(&h1, (const char *)&a0 + sizeof h0, sizeof h1);\n";
                    call = "    return LOOM_SHUFFLEVECTOR(h0, h1";
                }
                for (int i : indices) call += ", " + std::to_string(i);
                body = guard + halves + call + ");\n#else\n" + body + "#endif\n";
            }
        } else {
            rtype = ct;
            body += "    return x[" + std::to_string(indices[0]) + "];\n";
        }
        defs_.add(fname, "LOOM_C_INLINE " + rtype + " " + fname + "(" + join(params) + ") {\n" +
                             body + "}\n");
    }
    std::vector<std::string> args = vectors;
    for (size_t i = 0; i < types.size(); i++) {
        if (types[i].is_scalar() && types[i].is_bool()) args[i] = "(uint8_t)" + p(args[i]);
    }
    std::string r = fname + "(" + join(args) + ")";
    return rt.is_scalar() && rt.is_bool() ? p(r + " != 0") : r;
}

} // namespace internal
} // namespace loom
