// The OpenCL C generator: a printer over the kernel IR that names every compound value in a
// typed temporary (one C statement each), so evaluation order is the IR's and each value has
// exactly its IR type. Scalar helper functions (emitted once each, before the kernels) carry the
// integer semantics C lacks; vector operations without an exact OpenCL built-in apply them lane
// by lane. Vectors of bool are `charN` masks (0 or -1 per lane), as OpenCL's comparisons make
// them; scalar bools are `bool`; both are stored in memory as uchar 0/1, as on the CPU.
#include "codegen/opencl/codegen_opencl.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "support/error.h"
#include "support/util.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

bool native_lanes(int n) { return n == 1 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16; }

/// The scalar C type of an element type (bool is "bool"); null when OpenCL C has none.
const char *scalar_name(Type t) {
    int b = t.bits();
    switch (t.code()) {
    case Type::Int:
        return b == 8 ? "char" : b == 16 ? "short" : b == 32 ? "int" : b == 64 ? "long" : nullptr;
    case Type::UInt:
        return b == 1    ? "bool"
               : b == 8  ? "uchar"
               : b == 16 ? "ushort"
               : b == 32 ? "uint"
               : b == 64 ? "ulong"
                         : nullptr;
    case Type::Float:
        return b == 32 ? "float" : b == 64 ? "double" : nullptr;
    default:
        return nullptr;
    }
}

std::string unsigned_name(int bits) {
    return bits <= 8 ? "uchar" : bits == 16 ? "ushort" : bits == 32 ? "uint" : "ulong";
}

/// The unsigned type wide enough that C's integer promotions never make its arithmetic signed.
std::string wrap_name(int bits) { return bits <= 32 ? "uint" : "ulong"; }

/// A short tag of an element type for helper names: i8, u16, f32, b (bool), ...
std::string tag(Type t) {
    if (t.is_bool()) return "b";
    return (t.is_int() ? "i" : t.is_uint() ? "u" : "f") + std::to_string(t.bits());
}

bool is_identifier(const std::string &s) {
    if (s.empty() || std::isdigit((unsigned char)s[0])) return false;
    for (char c : s) {
        if (!std::isalnum((unsigned char)c) && c != '_') return false;
    }
    return true;
}

/// An operand in parentheses unless it is a name or a plain non-negative number.
std::string p(const std::string &s) {
    bool simple = is_identifier(s);
    if (!simple && !s.empty() && std::isdigit((unsigned char)s[0])) {
        simple = true;
        for (char c : s) simple = simple && (std::isalnum((unsigned char)c) || c == '.');
    }
    return simple ? s : "(" + s + ")";
}

std::string lane(const std::string &v, int k) {
    return v + ".s" + std::string(1, "0123456789abcdef"[k]);
}

std::string join(const std::vector<std::string> &v, const std::string &sep = ", ") {
    std::string r;
    for (size_t i = 0; i < v.size(); i++) r += (i ? sep : "") + v[i];
    return r;
}

/// `tmpl` with each $X replaced by its value in `vars`.
std::string subst(const std::string &tmpl, const std::map<char, std::string> &vars) {
    std::string r;
    for (size_t i = 0; i < tmpl.size(); i++) {
        if (tmpl[i] == '$' && i + 1 < tmpl.size() && vars.count(tmpl[i + 1])) {
            r += vars.at(tmpl[++i]);
        } else {
            r += tmpl[i];
        }
    }
    return r;
}

/// Names an IR identifier must not take: OpenCL C keywords, types and the built-ins and macros
/// the generated code (or the OpenCL headers) use.
bool reserved_name(const std::string &s) {
    static const std::set<std::string> words = [] {
        std::istringstream in(
            "auto break case char const continue default do double else enum extern float for "
            "goto if inline int long register restrict return short signed sizeof static struct "
            "switch typedef union unsigned void volatile while bool true false half uchar ushort "
            "uint ulong size_t ptrdiff_t intptr_t uintptr_t kernel global local constant private "
            "read_only write_only read_write uniform pipe image1d_t image2d_t image3d_t "
            "image1d_array_t image2d_array_t image1d_buffer_t sampler_t event_t complex "
            "imaginary quad select min max clamp abs abs_diff add_sat sub_sat hadd rhadd clz "
            "popcount mad_hi mul_hi mad24 mul24 rotate upsample sqrt rsqrt cbrt floor ceil rint "
            "round trunc exp exp2 exp10 expm1 log log2 log10 log1p pow pown powr sin cos tan "
            "asin acos atan atan2 sinh cosh tanh asinh acosh atanh erf erfc fabs hypot fmod "
            "copysign isnan isinf isfinite barrier mem_fence fma mad fmin fmax mix step sign dot "
            "cross length distance normalize any all bitselect shuffle shuffle2 printf main nan "
            "ldexp frexp modf fract ");
        std::set<std::string> w;
        for (std::string x; in >> x;) w.insert(x);
        return w;
    }();
    if (words.count(s)) return true;
    for (const char *prefix : {"convert_", "as_", "vload", "vstore", "loom_", "get_", "atom",
                               "read_image", "write_image", "async_"}) {
        if (starts_with(s, prefix)) return true;
    }
    // A vector type name: a scalar type followed by a lane count.
    size_t d = s.find_first_of("0123456789");
    if (d != std::string::npos && d > 0 && words.count(s.substr(0, d)) &&
        s.find_first_not_of("0123456789", d) == std::string::npos) {
        return true;
    }
    // Macros (NAN, INFINITY, CLK_..., FLT_MAX, M_PI) are upper case.
    bool lower = false;
    for (char c : s) lower = lower || std::islower((unsigned char)c);
    return !lower;
}

std::string int_literal(Type t, int64_t v) {
    switch (t.bits()) {
    case 8:
        return "(char)" + std::to_string(v);
    case 16:
        return "(short)" + std::to_string(v);
    case 32:
        return v == INT32_MIN ? "(-2147483647 - 1)" : std::to_string(v);
    default:
        return v == INT64_MIN ? "(-9223372036854775807L - 1L)" : std::to_string(v) + "L";
    }
}

std::string uint_literal(Type t, uint64_t v) {
    switch (t.bits()) {
    case 1:
        return v ? "(bool)1" : "(bool)0";
    case 8:
        return "(uchar)" + std::to_string(v);
    case 16:
        return "(ushort)" + std::to_string(v);
    case 32:
        return std::to_string(v) + "u";
    default:
        return std::to_string(v) + "ul";
    }
}

std::string float_literal(Type t, double v) {
    bool f32 = t.bits() == 32;
    if (std::isnan(v)) return f32 ? "NAN" : "(double)NAN";
    if (std::isinf(v)) {
        std::string inf = f32 ? "INFINITY" : "(double)INFINITY";
        return v > 0 ? inf : "(-" + inf + ")";
    }
    char buf[64];
    // Enough digits to read back the same float or double.
    std::snprintf(buf, sizeof(buf), f32 ? "%.9g" : "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return f32 ? s + "f" : s;
}

/// What the kernels share: the helper functions they call and the extensions they need.
struct ModuleState {
    std::map<std::string, std::string> helpers; ///< name -> definition, emitted sorted
    bool fp64 = false;
    bool strict = false;
};

const char *const gpu_ids[6][2] = {
    {"__block_id_x", "(int)get_group_id(0)"},  {"__block_id_y", "(int)get_group_id(1)"},
    {"__block_id_z", "(int)get_group_id(2)"},  {"__thread_id_x", "(int)get_local_id(0)"},
    {"__thread_id_y", "(int)get_local_id(1)"}, {"__thread_id_z", "(int)get_local_id(2)"}};

const char *const shared_name = "__loom_shared";

class KernelPrinter : public IRVisitor {
public:
    KernelPrinter(const LoweredKernel &k, ModuleState &m) : k_(k), m_(m) {}
    std::string print();

protected:
#define LOOM_IR_EXPR(N) void visit(const N *op) override;
#define LOOM_IR_STMT(N) void visit(const N *op) override;
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT

private:
    /// A pointer the body loads from or stores to: a buffer argument, a private array or the
    /// shared-memory argument.
    struct Memory {
        std::string ident;
        Type type;         ///< element type
        std::string space; ///< "__global", "__local" or "" (private)
        bool is_const = false;
    };

    const LoweredKernel &k_;
    ModuleState &m_;
    std::ostringstream out_;
    /// The kernel's __local (shared) buffers, declared before its body.
    std::ostringstream local_decls_;
    int indent_ = 1;
    std::string id_; ///< the value of the expression just visited
    int next_temp_ = 0;
    std::set<std::string> used_;
    std::map<std::string, std::vector<std::string>> scope_;
    std::map<std::string, std::vector<Memory>> memory_;
    std::map<std::string, std::string> ids_;

    [[noreturn]] void refuse(const std::string &what) const {
        internal_error << "OpenCL C code generation: " << what << " in kernel " << k_.name
                       << " has no OpenCL translation\n";
        __builtin_unreachable(); // internal_error throws when its statement ends
    }

    void line(const std::string &s) { out_ << std::string(indent_ * 4, ' ') << s << "\n"; }
    std::string emit(const Expr &e) {
        id_.clear();
        dispatch(e);
        internal_assert(!id_.empty()) << "OpenCL C: no value for " << e << "\n";
        return id_;
    }
    std::string fresh(const std::string &ir_name);
    std::string temp(Type t, const std::string &rhs) {
        std::string n = "_t" + std::to_string(next_temp_++);
        line(type_name(t) + " " + n + " = " + rhs + ";");
        return n;
    }
    std::string named(const std::string &s, Type t) { return is_identifier(s) ? s : temp(t, s); }

    // Types and conversions.
    std::string type_name(Type t);
    std::string storage_name(Type t) { return type_name(t.is_bool() ? UInt(8, t.lanes()) : t); }
    std::string zero(Type t);
    std::string vector_of(Type t, const std::vector<std::string> &elems) {
        return "(" + type_name(t) + ")(" + join(elems) + ")";
    }
    std::string mask_of_compare(const std::string &cmp, Type operand, int lanes);
    std::string cast(const std::string &v, Type from, Type to);
    std::string from_storage(const std::string &v, Type t);
    std::string to_storage(const std::string &v, Type t);
    /// Lane k of v as a scalar value of t's element type (t scalar: v itself).
    std::string lane_value(const std::string &v, Type t, int k) {
        if (t.is_scalar()) return v;
        return t.is_bool() ? "(" + lane(v, k) + " != (char)0)" : lane(v, k);
    }
    /// A scalar of element type et as an element of a vector literal (bools become masks).
    std::string element(const std::string &s, Type et) {
        return et.is_bool() ? "(" + s + " ? (char)-1 : (char)0)" : s;
    }

    // Arithmetic with the IR's wrapping rules.
    std::string arith(char op, Type t, const std::string &a, const std::string &b);
    std::string lanewise(const std::string &fn, Type rt, std::vector<std::string> args,
                         const std::vector<Type> &types);
    void need(const std::string &name, const std::string &definition) {
        m_.helpers.emplace(name, definition);
    }
    std::string div_mod_helper(bool is_mod, bool round_to_zero, Type t);
    std::string shift_helper(bool left, Type ta, Type tb);
    std::string lerp_helper(Type t, Type wt);
    std::string mul_shift_right_helper(bool rounding, Type rt, Type ta, Type tb, Type tq);

    // Calls.
    std::string intrinsic(const Call *op);
    std::string math(const Call *op);
    std::string shift(const Call *op, bool left);
    std::string saturating_cast(const std::string &v, Type from, Type to);

    // Memory.
    const Memory &memory(const std::string &name, const char *node);
    std::string pointer(const Memory &m, Type elem);
    /// A store inside an Atomic node (atomic() updates): one atomic function or a
    /// compare-and-swap loop.
    void atomic_store(const Store *op);
    int atomic_depth_ = 0;
    void compare(const char *op, const Expr &a, const Expr &b, Type t);
};

std::string KernelPrinter::fresh(const std::string &ir_name) {
    std::string s;
    for (char c : ir_name) s += std::isalnum((unsigned char)c) ? c : '_';
    // Generated names (temporaries, ids) start with '_'; IR names never do here.
    if (s.empty() || std::isdigit((unsigned char)s[0]) || s[0] == '_') s = "v" + s;
    if (reserved_name(s)) s = "v_" + s;
    std::string base = s;
    for (int k = 1; used_.count(s); k++) s = base + "_" + std::to_string(k);
    used_.insert(s);
    return s;
}

std::string KernelPrinter::type_name(Type t) {
    const char *e = scalar_name(t.element_of());
    if (t.is_handle()) refuse("a value of handle type");
    if (!e) refuse("a value of type " + type_to_string(t));
    if (!native_lanes(t.lanes())) {
        refuse("a vector of " + std::to_string(t.lanes()) +
               " lanes (OpenCL C has 2, 3, 4, 8 and 16)");
    }
    if (t.is_float() && t.bits() == 64) m_.fp64 = true;
    if (t.is_scalar()) return e;
    return (t.is_bool() ? std::string("char") : std::string(e)) + std::to_string(t.lanes());
}

std::string KernelPrinter::zero(Type t) {
    Type et = t.element_of();
    std::string z = et.is_float()  ? float_literal(et, 0.0)
                    : et.is_int()  ? int_literal(et, 0)
                    : et.is_bool() ? (t.is_scalar() ? "(bool)0" : "(char)0")
                                   : uint_literal(et, 0);
    return t.is_scalar() ? z : vector_of(t, {z});
}

std::string KernelPrinter::mask_of_compare(const std::string &cmp, Type operand, int lanes) {
    // A vector comparison gives a signed vector of the operands' element width, -1 where true.
    int width = operand.is_bool() ? 8 : operand.bits();
    if (width == 8) return cmp;
    return "convert_char" + std::to_string(lanes) + "(" + cmp + ")";
}

std::string KernelPrinter::cast(const std::string &v, Type from, Type to) {
    if (from == to) return v;
    std::string tn = type_name(to);
    if (to.is_bool()) {
        // Halide: a cast to bool is a comparison with zero (NaN is true, as != says).
        std::string cmp = p(v) + " != " + zero(from);
        return to.is_scalar() ? "(" + cmp + ")" : mask_of_compare(cmp, from, to.lanes());
    }
    if (from.is_bool() && to.is_vector()) return "convert_" + tn + "(-" + p(v) + ")";
    // C's conversions are LLVM's: truncation or sign/zero extension by the source's
    // signedness, rounding toward zero from float to int, to nearest otherwise (convert_T's
    // defaults are the same).
    if (to.is_scalar()) return "(" + tn + ")" + p(v);
    return "convert_" + tn + "(" + v + ")";
}

std::string KernelPrinter::from_storage(const std::string &v, Type t) {
    if (!t.is_bool()) return v;
    return "(" + p(v) + " != " + zero(UInt(8, t.lanes())) + ")";
}

std::string KernelPrinter::to_storage(const std::string &v, Type t) {
    if (!t.is_bool()) return v;
    if (t.is_scalar()) return "(uchar)" + p(v);
    return "as_uchar" + std::to_string(t.lanes()) + "(-" + p(v) + ")";
}

std::string KernelPrinter::arith(char op, Type t, const std::string &a, const std::string &b) {
    std::string o = std::string(" ") + op + " ";
    Type et = t.element_of();
    if (et.is_bool()) refuse(std::string("arithmetic '") + op + "' on bool");
    // Int(32) overflow is assumed away (the CPU back end marks it no-signed-wrap); floats and
    // unsigned vectors and 32/64-bit unsigned scalars have the right semantics as written.
    if (et.is_float() || et == Int(32) || (et.is_uint() && (t.is_vector() || et.bits() >= 32))) {
        return p(a) + o + p(b);
    }
    std::string tn = type_name(t);
    if (t.is_scalar()) {
        // Narrow scalars promote to int, where a product can overflow: wrap in unsigned.
        std::string w = "(" + wrap_name(et.bits()) + ")";
        return "(" + tn + ")(" + w + p(a) + o + w + p(b) + ")";
    }
    std::string ut = unsigned_name(et.bits()) + std::to_string(t.lanes());
    return "as_" + tn + "(as_" + ut + "(" + a + ")" + o + "as_" + ut + "(" + b + "))";
}

std::string KernelPrinter::lanewise(const std::string &fn, Type rt, std::vector<std::string> args,
                                    const std::vector<Type> &types) {
    bool any_vector = rt.is_vector();
    for (const Type &t : types) any_vector = any_vector || t.is_vector();
    if (!any_vector) return fn + "(" + join(args) + ")";
    for (size_t i = 0; i < args.size(); i++) {
        if (types[i].is_vector()) args[i] = named(args[i], types[i]);
    }
    std::vector<std::string> elems;
    for (int k = 0; k < rt.lanes(); k++) {
        std::vector<std::string> lane_args;
        for (size_t i = 0; i < args.size(); i++)
            lane_args.push_back(lane_value(args[i], types[i], k));
        elems.push_back(element(fn + "(" + join(lane_args) + ")", rt.element_of()));
    }
    return vector_of(rt, elems);
}

// ---- Helper functions: the scalar integer semantics of the CPU back end ----

std::string KernelPrinter::div_mod_helper(bool is_mod, bool round_to_zero, Type t) {
    Type et = t.element_of();
    std::string name = std::string("loom_") +
                       (round_to_zero ? (is_mod ? "rem_" : "quo_") : (is_mod ? "mod_" : "div_")) +
                       tag(et);
    std::map<char, std::string> v = {
        {'N', name}, {'T', type_name(et)}, {'U', unsigned_name(et.bits())}};
    std::string body;
    if (et.is_uint()) {
        body = is_mod ? "    return b == ($T)0 ? ($T)0 : ($T)(a % b);\n"
                      : "    return b == ($T)0 ? ($T)0 : ($T)(a / b);\n";
    } else if (!is_mod) {
        // b == -1 negates with wrap-around (INT_MIN / -1 is INT_MIN), as the CPU back end.
        body = "    if (b == ($T)0) return ($T)0;\n"
               "    if (b == ($T)-1) return ($T)(($U)0 - ($U)a);\n";
        if (round_to_zero) {
            body += "    return ($T)(a / b);\n";
        } else {
            // Round toward -inf for b > 0 and +inf for b < 0: the remainder is never negative.
            body += "    $T q = ($T)(a / b), r = ($T)(a % b);\n"
                    "    return r < ($T)0 ? ($T)(b > ($T)0 ? q - ($T)1 : q + ($T)1) : q;\n";
        }
    } else {
        body = "    if (b == ($T)0 || b == ($T)-1) return ($T)0;\n";
        if (round_to_zero) {
            body += "    return ($T)(a % b);\n";
        } else {
            // A negative remainder moves up by |b|, in unsigned arithmetic (|INT_MIN| wraps).
            body += "    $T r = ($T)(a % b);\n"
                    "    $U m = b < ($T)0 ? ($U)(($U)0 - ($U)b) : ($U)b;\n"
                    "    return r < ($T)0 ? ($T)(($U)r + m) : r;\n";
        }
    }
    need(name, subst("static $T $N($T a, $T b) {\n" + body + "}\n", v));
    return name;
}

std::string KernelPrinter::shift_helper(bool left, Type ta, Type tb) {
    ta = ta.element_of();
    tb = tb.element_of();
    std::string name = std::string(left ? "loom_shl_" : "loom_shr_") + tag(ta) + "_" + tag(tb);
    int bits = ta.bits();
    std::map<char, std::string> v = {{'N', name},
                                     {'T', type_name(ta)},
                                     {'B', type_name(tb)},
                                     {'W', wrap_name(bits)},
                                     {'K', std::to_string(bits)},
                                     {'J', std::to_string(bits - 1)}};
    // The magnitude of the amount, exact in 64 bits; amounts of at least the width give 0 (or
    // the sign fill to the right); a negative signed amount shifts the other way.
    std::string body = tb.is_int() ? "    ulong m = b < ($B)0 ? (ulong)0 - (ulong)(long)b : "
                                     "(ulong)b;\n"
                                   : "    ulong m = (ulong)b;\n";
    body += "    $T l = m >= $K ? ($T)0 : ($T)(($W)a << m);\n";
    body += ta.is_int() ? "    $T r = ($T)(a >> (m >= $K ? $J : m));\n"
                        : "    $T r = m >= $K ? ($T)0 : ($T)(a >> m);\n";
    std::string fwd = left ? "l" : "r", rev = left ? "r" : "l";
    body += tb.is_int() ? "    return b < ($B)0 ? " + rev + " : " + fwd + ";\n"
                        : "    return " + fwd + ";\n";
    need(name, subst("static $T $N($T a, $B b) {\n" + body + "}\n", v));
    return name;
}

std::string KernelPrinter::lerp_helper(Type t, Type wt) {
    t = t.element_of();
    wt = wt.element_of();
    std::string name = "loom_lerp_" + tag(t) + "_" + tag(wt);
    std::map<char, std::string> v = {{'N', name}, {'T', type_name(t)}, {'V', type_name(wt)}};
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
            m_.fp64 = true;
            body = "    $T f = ($T)((double)w / 4294967295.0);\n";
        } else {
            v['S'] = float_literal(Float(32), std::ldexp(1.0, wt.bits()) - 1);
            body = "    $T f = ($T)((float)w / $S);\n";
        }
        body += "    return zero * (($T)1 - f) + one * f;\n";
    } else {
        // Integers, as the CPU back end: in the unsigned type (signed values biased by the
        // type's minimum), products in twice the width, divided by 2^bits - 1 with rounding.
        int bits = t.bits();
        if (bits > 32) refuse("lerp of " + type_to_string(t) + " (needs 128-bit products)");
        uint64_t umax = (uint64_t(1) << bits) - 1;
        v['U'] = unsigned_name(bits);
        v['W'] = bits == 32 ? "ulong" : "uint";
        v['M'] = uint_literal(UInt(bits == 32 ? 64 : 32), umax);
        v['R'] = uint_literal(UInt(bits == 32 ? 64 : 32), uint64_t(1) << (bits - 1));
        v['K'] = std::to_string(bits);
        v['S'] = uint_literal(UInt(32), uint64_t(1) << (bits - 1));
        std::string bias = t.is_int() ? " ^ $S" : "";
        body = "    $U z = ($U)(($U)zero" + bias + "), o = ($U)(($U)one" + bias + ");\n";
        if (wt.is_float()) {
            if (bits == 32) {
                m_.fp64 = true;
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
                body += "    $U tw = ($U)((uint)($Q)w * $C);\n";
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
    need(name, subst("static $T $N($T zero, $T one, $V w) {\n" + body + "}\n", v));
    return name;
}

std::string KernelPrinter::mul_shift_right_helper(bool rounding, Type rt, Type ta, Type tb,
                                                  Type tq) {
    rt = rt.element_of();
    ta = ta.element_of();
    tb = tb.element_of();
    tq = tq.element_of();
    if (ta.bits() > 32) refuse("mul_shift_right of " + type_to_string(ta) + " (needs 128 bits)");
    Type wide = ta.with_bits(ta.bits() * 2);
    std::string name = std::string(rounding ? "loom_rmsr_" : "loom_msr_") + tag(rt) + "_" +
                       tag(ta) + "_" + tag(tb) + "_" + tag(tq);
    std::map<char, std::string> v = {{'N', name},
                                     {'R', type_name(rt)},
                                     {'A', type_name(ta)},
                                     {'B', type_name(tb)},
                                     {'Q', type_name(tq)},
                                     {'P', unsigned_name(tq.bits())},
                                     {'W', type_name(wide)},
                                     {'X', unsigned_name(wide.bits())},
                                     {'Y', wrap_name(wide.bits())},
                                     {'J', std::to_string(wide.bits() - 1)}};
    // saturating_cast<R>(widening_mul(a, b) >> q), q read as unsigned and at most the wide
    // width - 1; the rounding form adds half the divisor first. Wrapping arithmetic in $Y.
    std::string body = "    $W p = ($W)(($Y)($W)a * ($Y)($W)b);\n"
                       "    ulong s = (ulong)($X)($P)q;\n"
                       "    if (s > $J) s = $J;\n";
    if (rounding) body += "    p = ($W)(($Y)p + ((($Y)1 << s) >> 1));\n";
    body += "    p = ($W)(p >> s);\n"
            "    return convert_$R_sat(p);\n";
    need(name, subst("static $R $N($A a, $B b, $Q q) {\n" + body + "}\n", v));
    return name;
}

// ---- Kernel ----

std::string KernelPrinter::print() {
    if (k_.api != DeviceAPI::OpenCL) refuse("a kernel for another device API");
    if (!is_identifier(k_.name) || reserved_name(k_.name)) refuse("the kernel name");
    internal_assert(k_.body.defined()) << "OpenCL C: kernel " << k_.name << " has no body\n";
    const std::set<std::string> names = names_referenced(k_.body);

    std::vector<std::string> params;
    for (const LoweredKernel::Arg &a : k_.args) {
        std::string ident = fresh(a.name);
        if (a.type.is_vector()) refuse("the vector argument " + a.name);
        if (a.is_buffer) {
            params.push_back("__global " + std::string(a.written ? "" : "const ") +
                             storage_name(a.type) + " *restrict " + ident);
            memory_[a.name].push_back({ident, a.type, "__global", !a.written});
        } else if (a.type.is_bool()) {
            // bool is not a kernel argument type in OpenCL C: a byte, read as != 0.
            params.push_back("uchar " + ident);
            scope_[a.name].push_back("(" + ident + " != (uchar)0)");
        } else {
            params.push_back(type_name(a.type) + " " + ident);
            scope_[a.name].push_back(ident);
        }
    }
    if (names.count(shared_name)) {
        params.push_back(std::string("__local uchar *") + shared_name);
        memory_[shared_name].push_back({shared_name, UInt(8), "__local", false});
    }
    for (const auto &id : gpu_ids) {
        if (!names.count(id[0])) continue;
        std::string ident = std::string(id[0]).substr(1); // "_block_id_x"
        line("int " + ident + " = " + id[1] + ";");
        ids_[id[0]] = ident;
    }
    dispatch(k_.body);

    std::ostringstream os;
    os << "__kernel void " << k_.name << "(";
    for (size_t i = 0; i < params.size(); i++) os << (i ? ",\n    " : "") << params[i];
    os << ") {\n" << local_decls_.str() << out_.str() << "}\n";
    return os.str();
}

// ---- Expressions ----

void KernelPrinter::visit(const IntImm *op) { id_ = int_literal(op->type, op->value); }
void KernelPrinter::visit(const UIntImm *op) { id_ = uint_literal(op->type, op->value); }
void KernelPrinter::visit(const FloatImm *op) {
    type_name(op->type); // refuses float16
    id_ = float_literal(op->type, op->value);
}
void KernelPrinter::visit(const StringImm *op) { refuse("the string \"" + op->value + "\""); }

void KernelPrinter::visit(const Cast *op) {
    std::string v = emit(op->value);
    id_ = temp(op->type, cast(v, op->value.type(), op->type));
}

void KernelPrinter::visit(const Reinterpret *op) {
    Type from = op->value.type(), to = op->type;
    std::string v = emit(op->value);
    if (from.is_bool() || to.is_bool()) refuse("a reinterpret of bool");
    if ((from.lanes() == 3) != (to.lanes() == 3)) refuse("a reinterpret to or from 3 lanes");
    id_ = temp(to, "as_" + type_name(to) + "(" + v + ")");
}

void KernelPrinter::visit(const Variable *op) {
    auto it = scope_.find(op->name);
    if (it != scope_.end() && !it->second.empty()) {
        id_ = it->second.back();
    } else if (ids_.count(op->name)) {
        id_ = ids_.at(op->name);
    } else if (op->name == shared_name) {
        id_ = shared_name;
    } else {
        refuse("the unbound variable " + op->name);
    }
}

void KernelPrinter::visit(const Add *op) {
    std::string a = emit(op->a), b = emit(op->b);
    id_ = temp(op->type, arith('+', op->type, a, b));
}
void KernelPrinter::visit(const Sub *op) {
    std::string a = emit(op->a), b = emit(op->b);
    id_ = temp(op->type, arith('-', op->type, a, b));
}
void KernelPrinter::visit(const Mul *op) {
    std::string a = emit(op->a), b = emit(op->b);
    id_ = temp(op->type, arith('*', op->type, a, b));
}

void KernelPrinter::visit(const Div *op) {
    Type t = op->type;
    std::string a = emit(op->a), b = emit(op->b);
    if (t.is_float()) {
        id_ = temp(t, p(a) + " / " + p(b));
        return;
    }
    int k;
    if (t.is_int_or_uint() && !t.is_bool() && is_const_power_of_two_integer(op->b, &k) &&
        k < t.bits() - (t.is_int() ? 1 : 0)) {
        // A floor division by 2^k is an (arithmetic) shift.
        std::string amount = t.is_scalar()
                                 ? std::to_string(k)
                                 : vector_of(t, {t.is_int() ? int_literal(t.element_of(), k)
                                                            : uint_literal(t.element_of(), k)});
        id_ = temp(t, p(a) + " >> " + amount);
        return;
    }
    id_ = temp(t, lanewise(div_mod_helper(false, false, t), t, {a, b}, {t, t}));
}

void KernelPrinter::visit(const Mod *op) {
    Type t = op->type;
    std::string a = emit(op->a), b = emit(op->b);
    if (t.is_float()) {
        // Halide's float modulus: a - b * floor(a / b).
        id_ = temp(t, p(a) + " - " + p(b) + " * floor(" + p(a) + " / " + p(b) + ")");
        return;
    }
    int k;
    if (t.is_int_or_uint() && !t.is_bool() && is_const_power_of_two_integer(op->b, &k) &&
        k < t.bits() - (t.is_int() ? 1 : 0)) {
        // The Euclidean remainder by 2^k keeps the low k bits (two's complement).
        uint64_t m = (uint64_t(1) << k) - 1;
        std::string mask =
            t.is_int() ? int_literal(t.element_of(), (int64_t)m) : uint_literal(t.element_of(), m);
        id_ = temp(t, p(a) + " & " + (t.is_scalar() ? mask : vector_of(t, {mask})));
        return;
    }
    id_ = temp(t, lanewise(div_mod_helper(true, false, t), t, {a, b}, {t, t}));
}

void KernelPrinter::visit(const Min *op) {
    Type t = op->type;
    std::string a = emit(op->a), b = emit(op->b);
    if (t.is_bool()) {
        id_ = temp(t, p(a) + (t.is_scalar() ? " && " : " & ") + p(b));
    } else if (t.is_float()) {
        // select(a < b, a, b), as the CPU back end: which operand a NaN gives is fixed.
        id_ = temp(t, t.is_scalar() ? p(a) + " < " + p(b) + " ? " + p(a) + " : " + p(b)
                                    : "select(" + b + ", " + a + ", " + p(a) + " < " + p(b) + ")");
    } else {
        id_ = temp(t, "min(" + a + ", " + b + ")");
    }
}

void KernelPrinter::visit(const Max *op) {
    Type t = op->type;
    std::string a = emit(op->a), b = emit(op->b);
    if (t.is_bool()) {
        id_ = temp(t, p(a) + (t.is_scalar() ? " || " : " | ") + p(b));
    } else if (t.is_float()) {
        id_ = temp(t, t.is_scalar() ? p(b) + " < " + p(a) + " ? " + p(a) + " : " + p(b)
                                    : "select(" + b + ", " + a + ", " + p(b) + " < " + p(a) + ")");
    } else {
        id_ = temp(t, "max(" + a + ", " + b + ")");
    }
}

void KernelPrinter::compare(const char *op, const Expr &ea, const Expr &eb, Type t) {
    Type ot = ea.type();
    std::string a = emit(ea), b = emit(eb);
    std::string o = op;
    if (ot.is_bool() && ot.is_vector() && o != "==" && o != "!=") {
        // Masks are -1 where true: compare them as unsigned so that false < true.
        std::string u = "as_uchar" + std::to_string(ot.lanes());
        a = u + "(" + a + ")";
        b = u + "(" + b + ")";
    }
    std::string cmp = p(a) + " " + o + " " + p(b);
    id_ = temp(t, t.is_scalar() ? cmp : mask_of_compare(cmp, ot, t.lanes()));
}

void KernelPrinter::visit(const EQ *op) { compare("==", op->a, op->b, op->type); }
void KernelPrinter::visit(const NE *op) { compare("!=", op->a, op->b, op->type); }
void KernelPrinter::visit(const LT *op) { compare("<", op->a, op->b, op->type); }
void KernelPrinter::visit(const LE *op) { compare("<=", op->a, op->b, op->type); }
void KernelPrinter::visit(const GT *op) { compare(">", op->a, op->b, op->type); }
void KernelPrinter::visit(const GE *op) { compare(">=", op->a, op->b, op->type); }

void KernelPrinter::visit(const And *op) {
    std::string a = emit(op->a), b = emit(op->b);
    id_ = temp(op->type, p(a) + (op->type.is_scalar() ? " && " : " & ") + p(b));
}

void KernelPrinter::visit(const Or *op) {
    std::string a = emit(op->a), b = emit(op->b);
    id_ = temp(op->type, p(a) + (op->type.is_scalar() ? " || " : " | ") + p(b));
}

void KernelPrinter::visit(const Not *op) {
    std::string a = emit(op->a);
    id_ = temp(op->type, (op->type.is_scalar() ? "!" : "~") + p(a));
}

void KernelPrinter::visit(const Select *op) {
    Type t = op->type;
    std::string c = emit(op->condition);
    std::string a = emit(op->true_value), b = emit(op->false_value);
    if (op->condition.type().is_scalar()) {
        id_ = temp(t, p(c) + " ? " + p(a) + " : " + p(b));
        return;
    }
    // select() wants a mask of the values' element width.
    int width = t.is_bool() ? 8 : t.bits();
    std::string mask =
        width == 8 ? c : "convert_" + type_name(Int(width, t.lanes())) + "(" + c + ")";
    id_ = temp(t, "select(" + b + ", " + a + ", " + mask + ")");
}

// ---- Memory ----

const KernelPrinter::Memory &KernelPrinter::memory(const std::string &name, const char *node) {
    auto it = memory_.find(name);
    if (it == memory_.end() || it->second.empty()) {
        refuse(std::string("a ") + node + " of " + name +
               " (neither a buffer argument nor an allocation)");
    }
    return it->second.back();
}

std::string KernelPrinter::pointer(const Memory &m, Type elem) {
    std::string st = storage_name(elem);
    if (storage_name(m.type) == st) return m.ident;
    // Indexed in elements of the access's type, as on the CPU.
    std::string space = m.space.empty() ? "" : m.space + " ";
    return "((" + space + (m.is_const ? "const " : "") + st + " *)" + m.ident + ")";
}

void KernelPrinter::visit(const Load *op) {
    Type t = op->type, et = t.element_of();
    Type st = t.is_bool() ? UInt(8, t.lanes()) : t;
    std::string ptr = pointer(memory(op->name, "Load"), et);
    bool predicated = !is_const_true(op->predicate);
    if (t.is_scalar()) {
        std::string i = emit(op->index);
        std::string access = ptr + "[" + i + "]";
        if (predicated) {
            // The load must not happen when the predicate is false (the value is then zero).
            access = p(emit(op->predicate)) + " ? " + access + " : " + zero(st);
        }
        id_ = temp(t, from_storage(access, t));
        return;
    }
    int lanes = t.lanes();
    std::string n = std::to_string(lanes);
    std::vector<std::string> index;
    const Ramp *ramp = op->index.as<Ramp>();
    const int64_t *stride = ramp ? as_const_int(ramp->stride) : nullptr;
    const Broadcast *bcast = op->index.as<Broadcast>();
    if (ramp && ramp->base.type().is_scalar() && stride) {
        std::string base = named(emit(ramp->base), ramp->base.type());
        if (*stride == 1 && !predicated) {
            id_ = temp(t, from_storage("vload" + n + "(0, " + ptr + " + " + base + ")", t));
            return;
        }
        for (int k = 0; k < lanes; k++) {
            int64_t off = k * *stride;
            index.push_back(off == 0  ? base
                            : off > 0 ? base + " + " + std::to_string(off)
                                      : base + " - " + std::to_string(-off));
        }
    } else if (bcast && bcast->value.type().is_scalar() && !predicated) {
        std::string one = temp(st.element_of(), ptr + "[" + emit(bcast->value) + "]");
        id_ = temp(t, from_storage(vector_of(st, {one}), t));
        return;
    } else {
        std::string iv = named(emit(op->index), op->index.type());
        for (int k = 0; k < lanes; k++) index.push_back(lane(iv, k));
    }
    std::string pv;
    if (predicated) pv = named(emit(op->predicate), op->predicate.type());
    std::vector<std::string> elems;
    for (int k = 0; k < lanes; k++) {
        std::string access = ptr + "[" + index[k] + "]";
        if (predicated) {
            std::string c = op->predicate.type().is_scalar() ? pv : lane(pv, k);
            access = "(" + c + " ? " + access + " : " + zero(st.element_of()) + ")";
        }
        elems.push_back(access);
    }
    id_ = temp(t, from_storage(vector_of(st, elems), t));
}

void KernelPrinter::visit(const Store *op) {
    if (atomic_depth_ > 0) return atomic_store(op);
    Type t = op->value.type();
    Type st = t.is_bool() ? UInt(8, t.lanes()) : t;
    const Memory &m = memory(op->name, "Store");
    if (m.is_const) refuse("a Store to " + op->name + ", an argument not marked written");
    std::string ptr = pointer(m, t.element_of());
    std::string v = to_storage(emit(op->value), t);
    bool predicated = !is_const_true(op->predicate);
    if (t.is_scalar()) {
        std::string i = emit(op->index);
        std::string s = ptr + "[" + i + "] = " + v + ";";
        line(predicated ? "if (" + emit(op->predicate) + ") " + s : s);
        return;
    }
    int lanes = t.lanes();
    std::vector<std::string> index;
    const Ramp *ramp = op->index.as<Ramp>();
    const int64_t *stride = ramp ? as_const_int(ramp->stride) : nullptr;
    if (ramp && ramp->base.type().is_scalar() && stride) {
        std::string base = named(emit(ramp->base), ramp->base.type());
        if (*stride == 1 && !predicated) {
            line("vstore" + std::to_string(lanes) + "(" + v + ", 0, " + ptr + " + " + base + ");");
            return;
        }
        for (int k = 0; k < lanes; k++) {
            int64_t off = k * *stride;
            index.push_back(off == 0  ? base
                            : off > 0 ? base + " + " + std::to_string(off)
                                      : base + " - " + std::to_string(-off));
        }
    } else {
        std::string iv = named(emit(op->index), op->index.type());
        for (int k = 0; k < lanes; k++) index.push_back(lane(iv, k));
    }
    std::string pv;
    if (predicated) pv = named(emit(op->predicate), op->predicate.type());
    // Lane by lane in order: the last of duplicate indices wins, as in the CPU's scatter.
    std::string vv = named(v, st);
    for (int k = 0; k < lanes; k++) {
        std::string s = ptr + "[" + index[k] + "] = " + lane(vv, k) + ";";
        if (predicated) {
            std::string c = op->predicate.type().is_scalar() ? pv : lane(pv, k);
            s = "if (" + c + ") " + s;
        }
        line(s);
    }
}

void KernelPrinter::visit(const Ramp *op) {
    Type t = op->type, et = t.element_of();
    std::string base = emit(op->base), stride = emit(op->stride);
    int k = op->base.type().lanes();
    if (k == 1) {
        // base + stride * (0, 1, ..., n - 1), with the type's wrapping rules.
        std::vector<std::string> steps;
        for (int i = 0; i < op->lanes; i++) {
            steps.push_back(et.is_float() ? float_literal(et, i)
                            : et.is_int() ? int_literal(et, i)
                                          : uint_literal(et, i));
        }
        std::string scaled = temp(t, arith('*', t, vector_of(t, {stride}), vector_of(t, steps)));
        id_ = temp(t, arith('+', t, vector_of(t, {base}), scaled));
        return;
    }
    // A ramp of vectors: lane j of element i is base[j] + stride[j] * i.
    Type vt = op->base.type();
    base = named(base, vt);
    stride = named(stride, vt);
    std::vector<std::string> elems;
    for (int i = 0; i < op->lanes; i++) {
        for (int j = 0; j < k; j++) {
            std::string step = et.is_float() ? float_literal(et, i)
                               : et.is_int() ? int_literal(et, i)
                                             : uint_literal(et, i);
            elems.push_back(
                temp(et, arith('+', et, lane(base, j), arith('*', et, lane(stride, j), step))));
        }
    }
    id_ = temp(t, vector_of(t, elems));
}

void KernelPrinter::visit(const Broadcast *op) {
    Type vt = op->value.type();
    std::string v = emit(op->value);
    if (vt.is_scalar()) {
        // Left unnamed (it is cheap); lane() is only applied to named vectors.
        id_ = vector_of(op->type, {element(v, vt)});
        return;
    }
    v = named(v, vt);
    std::vector<std::string> elems;
    for (int i = 0; i < op->lanes; i++) {
        for (int j = 0; j < vt.lanes(); j++) elems.push_back(lane(v, j));
    }
    id_ = temp(op->type, vector_of(op->type, elems));
}

void KernelPrinter::visit(const Let *op) {
    std::string v = emit(op->value);
    std::string ident = fresh(op->name);
    line(type_name(op->value.type()) + " " + ident + " = " + v + ";");
    scope_[op->name].push_back(ident);
    id_ = emit(op->body);
    scope_[op->name].pop_back();
}

void KernelPrinter::visit(const Shuffle *op) {
    Type t = op->type, et = t.element_of();
    // Every lane of the concatenation, as a vector element (bool lanes as mask chars).
    std::vector<std::string> all;
    for (const Expr &e : op->vectors) {
        std::string v = emit(e);
        if (e.type().is_scalar()) {
            all.push_back(element(v, et));
            continue;
        }
        v = named(v, e.type());
        for (int k = 0; k < e.type().lanes(); k++) all.push_back(lane(v, k));
    }
    std::vector<std::string> picked;
    for (int i : op->indices) {
        internal_assert(i >= 0 && i < (int)all.size()) << "Shuffle index out of range\n";
        picked.push_back(all[i]);
    }
    if (t.is_scalar()) {
        id_ = temp(t, et.is_bool() ? "(" + picked[0] + " != (char)0)" : picked[0]);
    } else {
        id_ = temp(t, vector_of(t, picked));
    }
}

void KernelPrinter::visit(const VectorReduce *op) {
    Type vt = op->value.type(), t = op->type, et = t.element_of();
    std::string v = named(emit(op->value), vt);
    int factor = vt.lanes() / t.lanes();
    if (factor == 1) {
        id_ = v;
        return;
    }
    auto combine = [&](const std::string &a, const std::string &b) -> std::string {
        if (et.is_bool()) {
            switch (op->op) {
            case VectorReduce::Add:
                return a + " != " + b;
            case VectorReduce::Max:
            case VectorReduce::Or:
                return a + " || " + b;
            default:
                return a + " && " + b;
            }
        }
        switch (op->op) {
        case VectorReduce::Add:
            return arith('+', et, a, b);
        case VectorReduce::Mul:
            return arith('*', et, a, b);
        case VectorReduce::Min:
            return et.is_float() ? a + " < " + b + " ? " + a + " : " + b
                                 : "min(" + a + ", " + b + ")";
        case VectorReduce::Max:
            return et.is_float() ? b + " < " + a + " ? " + a + " : " + b
                                 : "max(" + a + ", " + b + ")";
        case VectorReduce::And:
            return a + " & " + b;
        case VectorReduce::Or:
            return a + " | " + b;
        }
        return "";
    };
    // Groups of `factor` adjacent lanes, each combined in lane order.
    std::vector<std::string> elems;
    for (int j = 0; j < t.lanes(); j++) {
        std::string acc = lane_value(v, vt, j * factor);
        for (int k = 1; k < factor; k++) {
            acc = temp(et, combine(acc, lane_value(v, vt, j * factor + k)));
        }
        elems.push_back(t.is_scalar() ? acc : element(acc, et));
    }
    id_ = t.is_scalar() ? elems[0] : temp(t, vector_of(t, elems));
}

// ---- Calls ----

void KernelPrinter::visit(const Call *op) {
    switch (op->call_type) {
    case Call::Intrinsic:
    case Call::PureIntrinsic:
        id_ = intrinsic(op);
        return;
    case Call::PureExtern:
    case Call::Extern: {
        std::string r = math(op);
        if (r.empty()) refuse("the call to " + op->name);
        id_ = r;
        return;
    }
    default:
        refuse("the call to " + op->name + " (a Func, image or C++ function)");
    }
}

std::string KernelPrinter::math(const Call *op) {
    std::string fn = op->name, suffix;
    for (const char *s : {"_f16", "_f32", "_f64"}) {
        if (ends_with(fn, s)) suffix = s;
    }
    if (suffix.empty() || op->args.empty()) return "";
    fn = fn.substr(0, fn.size() - suffix.size());
    if (starts_with(fn, "fast_")) fn = fn.substr(5);
    static const std::map<std::string, std::string> builtins = {
        {"sqrt", "sqrt"},         {"floor", "floor"},  {"ceil", "ceil"},
        {"round", "rint"},        {"trunc", "trunc"},  {"exp", "exp"},
        {"log", "log"},           {"pow", "pow"},      {"sin", "sin"},
        {"cos", "cos"},           {"fabs", "fabs"},    {"abs", "fabs"},
        {"tan", "tan"},           {"asin", "asin"},    {"acos", "acos"},
        {"atan", "atan"},         {"atan2", "atan2"},  {"sinh", "sinh"},
        {"cosh", "cosh"},         {"tanh", "tanh"},    {"asinh", "asinh"},
        {"acosh", "acosh"},       {"atanh", "atanh"},  {"erf", "erf"},
        {"erfc", "erfc"},         {"hypot", "hypot"},  {"exp2", "exp2"},
        {"log2", "log2"},         {"log10", "log10"},  {"expm1", "expm1"},
        {"log1p", "log1p"},       {"cbrt", "cbrt"},    {"fmod", "fmod"},
        {"copysign", "copysign"}, {"is_nan", "isnan"}, {"is_inf", "isinf"},
        {"is_finite", "isfinite"}};
    bool inverse = fn == "inverse" || fn == "inverse_sqrt";
    if (!builtins.count(fn) && !inverse) return "";
    std::vector<std::string> args;
    for (const Expr &e : op->args) {
        if (!e.type().is_float()) return "";
        args.push_back(emit(e));
    }
    Type at = op->args[0].type(), t = op->type;
    if (suffix == "_f16" || at.bits() == 16) refuse("the float16 call " + op->name);
    if (inverse) {
        std::string x = fn == "inverse_sqrt" ? "sqrt(" + args[0] + ")" : p(args[0]);
        return temp(t, float_literal(at.element_of(), 1.0) + " / " + x);
    }
    std::string call = builtins.at(fn) + "(" + join(args) + ")";
    if (t.is_bool()) {
        // The classification built-ins give int (scalar) or a -1/0 vector of the width.
        return temp(t, t.is_scalar() ? call : mask_of_compare(call, at, t.lanes()));
    }
    return temp(t, call);
}

std::string KernelPrinter::shift(const Call *op, bool left) {
    Type ta = op->args[0].type(), tb = op->args[1].type(), t = op->type;
    if (ta.is_bool() || !ta.is_int_or_uint()) refuse("a shift of " + type_to_string(ta));
    std::string a = emit(op->args[0]);
    const int64_t *ci = as_const_int(op->args[1]);
    const uint64_t *cu = as_const_uint(op->args[1]);
    int64_t c = ci ? *ci : cu && *cu < 64 ? (int64_t)*cu : -1;
    if ((ci || cu) && c >= 0 && c < ta.bits()) {
        // The common case: a constant amount within the width. Left shifts in unsigned.
        std::string amount = std::to_string(c);
        if (t.is_scalar()) {
            return temp(t, left ? "(" + type_name(t) + ")((" + wrap_name(ta.bits()) + ")" + p(a) +
                                      " << " + amount + ")"
                                : p(a) + " >> " + amount);
        }
        Type ut = ta.with_code(Type::UInt);
        std::string un = type_name(ut);
        if (left && ta.is_int()) {
            return temp(t, "as_" + type_name(t) + "(as_" + un + "(" + a + ") << (" + un + ")(" +
                               amount + "))");
        }
        return temp(t, p(a) + (left ? " << " : " >> ") + "(" + type_name(ta) + ")(" + amount + ")");
    }
    std::string b = emit(op->args[1]);
    return temp(t, lanewise(shift_helper(left, ta, tb), t, {a, b}, {ta, tb}));
}

std::string KernelPrinter::saturating_cast(const std::string &v, Type from, Type to) {
    Type fe = from.element_of(), te = to.element_of();
    if (fe == te) return v;
    if (te.is_bool() || fe.is_bool()) return cast(v, from, to);
    if (te.is_float()) {
        if (fe.is_float() && te.bits() < fe.bits()) {
            // Clamped to the finite range of float (NaN stays NaN).
            std::string name = "loom_satf_" + tag(te) + "_" + tag(fe);
            need(name, "static float " + name +
                           "(double v) {\n"
                           "    if (v > 3.4028234663852886e38) v = 3.4028234663852886e38;\n"
                           "    if (v < -3.4028234663852886e38) v = -3.4028234663852886e38;\n"
                           "    return (float)v;\n"
                           "}\n");
            return lanewise(name, to, {v}, {from});
        }
        return cast(v, from, to);
    }
    // convert_T_sat clamps to the target's range (NaN gives 0), rounding float toward zero.
    return "convert_" + type_name(to) + "_sat(" + v + ")";
}

std::string KernelPrinter::intrinsic(const Call *op) {
    const std::string &n = op->name;
    const std::vector<Expr> &args = op->args;
    Type t = op->type, et = t.element_of();
    auto arity = [&](size_t k) {
        if (args.size() != k)
            refuse("the intrinsic " + n + " with " + std::to_string(args.size()) + " arguments");
    };
    if (n == Call::likely || n == Call::likely_if_innermost || n == Call::promise_clamped ||
        n == Call::unsafe_promise_clamped) {
        return emit(args[0]);
    }
    if (n == Call::strict_float) {
        m_.strict = true;
        return emit(args[0]);
    }
    if (n == Call::return_second) {
        arity(2);
        emit(args[0]);
        return emit(args[1]);
    }
    if (n == Call::bitwise_and || n == Call::bitwise_or || n == Call::bitwise_xor) {
        arity(2);
        if (args[0].type() != args[1].type() || et.is_float()) refuse("the intrinsic " + n);
        std::string a = emit(args[0]), b = emit(args[1]);
        const char *o = n == Call::bitwise_and ? " & " : n == Call::bitwise_or ? " | " : " ^ ";
        return temp(t, p(a) + o + p(b));
    }
    if (n == Call::bitwise_not) {
        arity(1);
        if (et.is_float()) refuse("the intrinsic " + n + " of a float");
        std::string a = emit(args[0]);
        return temp(t, (t.is_bool() && t.is_scalar() ? "!" : "~") + p(a));
    }
    if (n == Call::shift_left || n == Call::shift_right) {
        arity(2);
        return shift(op, n == Call::shift_left);
    }
    if (n == Call::abs) {
        arity(1);
        std::string a = emit(args[0]);
        // OpenCL's abs of an integer is |x| in the unsigned type, exact for INT_MIN.
        return temp(t, (args[0].type().is_float() ? "fabs(" : "abs(") + a + ")");
    }
    if (n == Call::absd) {
        arity(2);
        std::string a = emit(args[0]), b = emit(args[1]);
        if (args[0].type().is_float()) return temp(t, "fabs(" + p(a) + " - " + p(b) + ")");
        return temp(t, "abs_diff(" + a + ", " + b + ")");
    }
    if (n == Call::count_leading_zeros || n == Call::popcount || n == Call::count_trailing_zeros) {
        arity(1);
        Type at = args[0].type();
        if (at.is_bool() || !at.is_int_or_uint())
            refuse("the intrinsic " + n + " of a non-integer");
        std::string a = emit(args[0]);
        if (n == Call::count_trailing_zeros) {
            Type ut = at.with_code(Type::UInt);
            std::string name = "loom_ctz_" + tag(at);
            need(name, subst("static $U $N($T x) {\n"
                             "    $U u = ($U)x;\n"
                             "    return ($U)popcount(($U)(($U)(u & ($U)(($U)0 - u)) - ($U)1));\n"
                             "}\n",
                             {{'N', name},
                              {'T', type_name(at.element_of())},
                              {'U', type_name(ut.element_of())}}));
            std::string r = temp(ut, lanewise(name, ut, {a}, {at}));
            return ut == t ? r : temp(t, cast(r, ut, t));
        }
        // clz(0) is the width, as LLVM's ctlz with a defined zero.
        std::string r = temp(at, (n == Call::popcount ? "popcount(" : "clz(") + a + ")");
        return at == t ? r : temp(t, cast(r, at, t));
    }
    if (n == Call::lerp) {
        arity(3);
        std::string z = emit(args[0]), o = emit(args[1]), w = emit(args[2]);
        return temp(t, lanewise(lerp_helper(args[0].type(), args[2].type()), t, {z, o, w},
                                {args[0].type(), args[1].type(), args[2].type()}));
    }
    if (n == Call::if_then_else) {
        if (args.size() != 2 && args.size() != 3) arity(3);
        std::string c = emit(args[0]);
        if (args[0].type().is_vector()) {
            // A vector condition cannot branch: both sides are evaluated, as on the CPU.
            std::string a = emit(args[1]);
            std::string b = args.size() == 3 ? emit(args[2]) : zero(t);
            int width = t.is_bool() ? 8 : t.bits();
            std::string mask =
                width == 8 ? c : "convert_" + type_name(Int(width, t.lanes())) + "(" + c + ")";
            return temp(t, "select(" + b + ", " + a + ", " + mask + ")");
        }
        // Only the taken side is evaluated (it may load what the other side guards).
        std::string r = "_t" + std::to_string(next_temp_++);
        line(type_name(t) + " " + r + ";");
        line("if (" + c + ") {");
        indent_++;
        std::string a = emit(args[1]);
        line(r + " = " + a + ";");
        indent_--;
        line("} else {");
        indent_++;
        std::string b = args.size() == 3 ? emit(args[2]) : zero(t);
        line(r + " = " + b + ";");
        indent_--;
        line("}");
        return r;
    }
    if (n == Call::div_round_to_zero || n == Call::mod_round_to_zero) {
        arity(2);
        bool is_mod = n == Call::mod_round_to_zero;
        std::string a = emit(args[0]), b = emit(args[1]);
        if (et.is_float())
            return temp(t, is_mod ? "fmod(" + a + ", " + b + ")" : p(a) + " / " + p(b));
        return temp(t, lanewise(div_mod_helper(is_mod, true, t), t, {a, b}, {t, t}));
    }
    if (n == Call::saturating_add || n == Call::saturating_sub) {
        arity(2);
        bool add = n == Call::saturating_add;
        std::string a = emit(args[0]), b = emit(args[1]);
        if (et.is_bool()) refuse("the intrinsic " + n + " of bool");
        if (et.is_float()) return temp(t, p(a) + (add ? " + " : " - ") + p(b));
        return temp(t, std::string(add ? "add_sat(" : "sub_sat(") + a + ", " + b + ")");
    }
    if (n == Call::saturating_cast) {
        arity(1);
        std::string a = emit(args[0]);
        return temp(t, saturating_cast(a, args[0].type(), t));
    }
    if (n == Call::widening_add || n == Call::widening_mul || n == "widening_sub") {
        arity(2);
        std::string a = emit(args[0]), b = emit(args[1]);
        std::string wa = temp(t, cast(a, args[0].type(), t));
        std::string wb = temp(t, cast(b, args[1].type(), t));
        char o = n == Call::widening_add ? '+' : n == Call::widening_mul ? '*' : '-';
        return temp(t, arith(o, t, wa, wb));
    }
    if (n == Call::halving_add || n == Call::rounding_halving_add || n == "halving_sub") {
        arity(2);
        std::string a = emit(args[0]), b = emit(args[1]);
        if (et.is_bool()) refuse("the intrinsic " + n + " of bool");
        if (et.is_float()) {
            return temp(t, "(" + p(a) + (n == "halving_sub" ? " - " : " + ") + p(b) + ") * " +
                               float_literal(et, 0.5));
        }
        // hadd and rhadd: (a + b) >> 1 and (a + b + 1) >> 1 without overflow.
        if (n == Call::halving_add) return temp(t, "hadd(" + a + ", " + b + ")");
        if (n == Call::rounding_halving_add) return temp(t, "rhadd(" + a + ", " + b + ")");
        // floor((a - b) / 2) = (a >> 1) - (b >> 1) - (the borrow of the low bits).
        std::string name = "loom_hsub_" + tag(et);
        need(name, subst("static $T $N($T a, $T b) {\n"
                         "    return ($T)(($W)(a >> 1) - ($W)(b >> 1) - ($W)(~a & b & 1));\n"
                         "}\n",
                         {{'N', name}, {'T', type_name(et)}, {'W', wrap_name(et.bits())}}));
        return temp(t, lanewise(name, t, {a, b}, {t, t}));
    }
    if (n == Call::mul_shift_right || n == "rounding_mul_shift_right") {
        arity(3);
        std::string a = emit(args[0]), b = emit(args[1]), q = emit(args[2]);
        std::string name = mul_shift_right_helper(n != Call::mul_shift_right, t, args[0].type(),
                                                  args[1].type(), args[2].type());
        return temp(t,
                    lanewise(name, t, {a, b, q}, {args[0].type(), args[1].type(), args[2].type()}));
    }
    refuse("the intrinsic " + n);
}

// ---- Statements ----

void KernelPrinter::visit(const LetStmt *op) {
    std::string v = emit(op->value);
    std::string ident = fresh(op->name);
    line(type_name(op->value.type()) + " " + ident + " = " + v + ";");
    scope_[op->name].push_back(ident);
    dispatch(op->body);
    scope_[op->name].pop_back();
}

void KernelPrinter::visit(const AssertStmt *) { refuse("an AssertStmt"); }
void KernelPrinter::visit(const ProducerConsumer *op) { dispatch(op->body); }

void KernelPrinter::visit(const For *op) {
    if (op->for_type != ForType::Serial && op->for_type != ForType::Unrolled &&
        op->for_type != ForType::Vectorized) {
        refuse("the parallel or GPU loop " + op->name);
    }
    Type t = op->min.type();
    std::string mn = emit(op->min), ex = emit(op->extent);
    // min and extent are evaluated once, before the loop.
    std::string end = temp(t, arith('+', t, mn, ex));
    std::string ident = fresh(op->name);
    line("for (" + type_name(t) + " " + ident + " = " + mn + "; " + ident + " < " + end + "; " +
         ident + "++) {");
    indent_++;
    scope_[op->name].push_back(ident);
    dispatch(op->body);
    scope_[op->name].pop_back();
    indent_--;
    line("}");
}

void KernelPrinter::visit(const Provide *op) { refuse("the Provide to " + op->name); }

void KernelPrinter::visit(const Allocate *op) {
    const bool shared = op->memory_type == MemoryType::GPUShared;
    if (!shared && op->memory_type != MemoryType::Auto && op->memory_type != MemoryType::Stack &&
        op->memory_type != MemoryType::Register && op->memory_type != MemoryType::Heap) {
        refuse("the Allocate of " + op->name + " in special memory");
    }
    int64_t count = 1;
    for (const Expr &e : op->extents) {
        const int64_t *c = as_const_int(e);
        if (!c || *c < 0) refuse("the Allocate of " + op->name + " with a non-constant size");
        count *= *c;
    }
    std::string ident = fresh(op->name);
    Type et = op->type.element_of();
    const std::string decl =
        storage_name(et) + " " + ident + "[" + std::to_string(std::max<int64_t>(count, 1)) + "];";
    if (shared) {
        // Block-level buffers (lower/offload_gpu_loops.h): OpenCL C declares __local variables
        // only at the kernel's outermost scope.
        local_decls_ << "    __local " << decl << "\n";
    } else {
        line(decl);
    }
    memory_[op->name].push_back({ident, et, shared ? "__local" : "", false});
    dispatch(op->body);
    memory_[op->name].pop_back();
}

// Private memory ends with its scope.
void KernelPrinter::visit(const Free *) {}
void KernelPrinter::visit(const Realize *op) { refuse("the Realize of " + op->name); }

void KernelPrinter::visit(const Block *op) {
    dispatch(op->first);
    dispatch(op->rest);
}

void KernelPrinter::visit(const IfThenElse *op) {
    if (op->condition.type().is_vector()) refuse("an IfThenElse on a vector condition");
    std::string c = emit(op->condition);
    line("if (" + c + ") {");
    indent_++;
    dispatch(op->then_case);
    indent_--;
    const Evaluate *nothing = op->else_case.as<Evaluate>();
    if (op->else_case.defined() && !(nothing && is_const(nothing->value))) {
        line("} else {");
        indent_++;
        dispatch(op->else_case);
        indent_--;
    }
    line("}");
}

void KernelPrinter::visit(const Evaluate *op) {
    // Expressions in kernels have no side effects: an Evaluate is checked and dropped.
    if (is_const(op->value)) return;
    const Call *c = op->value.as<Call>();
    if (c && c->is_intrinsic(Call::prefetch)) return;
    if (c && c->is_intrinsic(Call::gpu_thread_barrier)) {
        line("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
        return;
    }
    std::ostringstream dropped;
    std::swap(out_, dropped);
    emit(op->value);
    std::swap(out_, dropped);
}

void KernelPrinter::visit(const Atomic *op) {
    atomic_depth_++;
    dispatch(op->body);
    atomic_depth_--;
}

void KernelPrinter::atomic_store(const Store *op) {
    Type t = op->value.type();
    if (!t.is_scalar() || t.bits() != 32 || t.is_bool() || !is_const_true(op->predicate)) {
        refuse("an atomic store of " + type_name(t) + " to " + op->name +
               " (only scalar 32-bit atomics are generated)");
    }
    const Memory &m = memory(op->name, "Store");
    if (m.space.empty()) refuse("an atomic store to private memory " + op->name);
    // The value with the lets common subexpression elimination put around it substituted, so
    // the load of the element being updated is found by its index.
    Expr value = op->value;
    while (const Let *l = value.as<Let>()) value = substitute(l->name, l->value, l->body);
    auto is_self = [&](const Expr &e) {
        const Load *l = e.as<Load>();
        return l && l->name == op->name && equal(l->index, op->index);
    };
    auto reads_buffer = [&](const Expr &e) {
        bool found = false;
        visit_exprs(e, [&](const Expr &x) {
            const Load *l = x.as<Load>();
            found = found || (l && l->name == op->name);
            return !found;
        });
        return found;
    };
    const std::string ptr = pointer(m, t);
    const std::string index = named(emit(op->index), op->index.type());
    const std::string tn = type_name(t);
    // Integer add, min and max have atomic functions; everything else is a compare-and-swap
    // loop that recomputes the value from the element another thread may have changed.
    const char *fn = nullptr;
    Expr a, b;
    if (const Add *x = value.as<Add>()) fn = "atomic_add", a = x->a, b = x->b;
    if (const Min *x = value.as<Min>()) fn = "atomic_min", a = x->a, b = x->b;
    if (const Max *x = value.as<Max>()) fn = "atomic_max", a = x->a, b = x->b;
    if (fn && !t.is_float()) {
        Expr other = is_self(a) && !reads_buffer(b)   ? b
                     : is_self(b) && !reads_buffer(a) ? a
                                                      : Expr();
        if (other.defined()) {
            std::string y = emit(other);
            line(std::string(fn) + "((volatile " + m.space + " " + tn + " *)(" + ptr + " + " +
                 index + "), " + y + ");");
            return;
        }
    }
    const std::string addr = fresh("atomic_addr"), old_bits = fresh("atomic_old_bits");
    const std::string old = fresh("atomic_old"), seen = fresh("atomic_seen");
    line("volatile " + m.space + " uint *" + addr + " = (volatile " + m.space + " uint *)(" + ptr +
         " + " + index + ");");
    line("uint " + old_bits + " = *" + addr + ";");
    line("for (;;) {");
    indent_++;
    line(tn + " " + old + " = as_" + tn + "(" + old_bits + ");");
    const std::string old_var = "__loom_atomic_old";
    Expr recomputed = mutate_exprs_post(
        value, [&](const Expr &x) -> Expr { return is_self(x) ? Variable::make(t, old_var) : x; });
    if (reads_buffer(recomputed)) {
        refuse("an atomic update of " + op->name + " that reads other elements of it");
    }
    scope_[old_var].push_back(old);
    std::string nv = emit(recomputed);
    scope_[old_var].pop_back();
    line("uint " + seen + " = atomic_cmpxchg(" + addr + ", " + old_bits + ", as_uint(" + nv +
         "));");
    line("if (" + seen + " == " + old_bits + ") break;");
    line(old_bits + " = " + seen + ";");
    indent_--;
    line("}");
}
void KernelPrinter::visit(const Fork *) { refuse("a Fork"); }

} // namespace

std::string codegen_opencl_source(const std::vector<LoweredKernel> &kernels, const Target &target) {
    ModuleState m;
    m.strict = target.has_feature(Target::StrictFloat);
    std::vector<std::string> bodies;
    std::set<std::string> names;
    for (const LoweredKernel &k : kernels) {
        internal_assert(names.insert(k.name).second)
            << "OpenCL C: two kernels named " << k.name << "\n";
        KernelPrinter printer(k, m);
        bodies.push_back(printer.print());
    }
    std::ostringstream os;
    os << "// OpenCL C generated by Loom\n";
    if (m.strict) os << "#define LOOM_STRICT_FLOAT 1\n#pragma OPENCL FP_CONTRACT OFF\n";
    if (m.fp64) os << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    os << "\n";
    for (const auto &h : m.helpers) os << h.second << "\n";
    for (size_t i = 0; i < bodies.size(); i++) os << (i ? "\n" : "") << bodies[i];
    return os.str();
}

} // namespace internal
} // namespace loom
