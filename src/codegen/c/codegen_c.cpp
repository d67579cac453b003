// The C back end's printer (codegen_c.h): statements and expressions of a LoweredFunc as C99,
// with the operations' semantics from c_ops.
#include "codegen/c/codegen_c.h"

#include "codegen/c/c_ops.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/scratchpads.h"
#include "lower/lower_utils.h"
#include "support/error.h"
#include "support/util.h"

#include <map>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

std::string p(const std::string &s) { return "(" + s + ")"; }

std::string join(const std::vector<std::string> &v, const std::string &sep = ", ") {
    std::string r;
    for (size_t i = 0; i < v.size(); i++) r += (i ? sep : "") + v[i];
    return r;
}

/// The halide_buffer_t accessors, as functions so that the buffer's expression is evaluated
/// once (the IR's _halide_buffer_<name> intrinsics are loom_c_buffer_<name>).
const char *const buffer_helpers = R"(LOOM_C_INLINE void *loom_c_buffer_get_host(const void *b) {
    return ((const halide_buffer_t *)b)->host;
}
LOOM_C_INLINE uint64_t loom_c_buffer_get_device(const void *b) {
    return ((const halide_buffer_t *)b)->device;
}
LOOM_C_INLINE void *loom_c_buffer_get_device_interface(const void *b) {
    return (void *)((const halide_buffer_t *)b)->device_interface;
}
LOOM_C_INLINE uint64_t loom_c_buffer_get_flags(const void *b) {
    return ((const halide_buffer_t *)b)->flags;
}
LOOM_C_INLINE int32_t loom_c_buffer_get_dimensions(const void *b) {
    return ((const halide_buffer_t *)b)->dimensions;
}
LOOM_C_INLINE uint32_t loom_c_buffer_get_type(const void *b) {
    const halide_buffer_t *buf = (const halide_buffer_t *)b;
    return (uint32_t)buf->type.code | (uint32_t)buf->type.bits << 8 |
           (uint32_t)buf->type.lanes << 16;
}
LOOM_C_INLINE int32_t loom_c_buffer_get_min(const void *b, int d) {
    return ((const halide_buffer_t *)b)->dim[d].min;
}
LOOM_C_INLINE int32_t loom_c_buffer_get_extent(const void *b, int d) {
    return ((const halide_buffer_t *)b)->dim[d].extent;
}
LOOM_C_INLINE int32_t loom_c_buffer_get_stride(const void *b, int d) {
    return ((const halide_buffer_t *)b)->dim[d].stride;
}
LOOM_C_INLINE int32_t loom_c_buffer_get_max(const void *b, int d) {
    const halide_dimension_t *dim = &((const halide_buffer_t *)b)->dim[d];
    return dim->min + dim->extent - 1;
}
LOOM_C_INLINE bool loom_c_buffer_is_bounds_query(const void *b) {
    return ((const halide_buffer_t *)b)->host == NULL && ((const halide_buffer_t *)b)->device == 0;
}
LOOM_C_INLINE bool loom_c_buffer_get_host_dirty(const void *b) {
    return (((const halide_buffer_t *)b)->flags & halide_buffer_flag_host_dirty) != 0;
}
LOOM_C_INLINE bool loom_c_buffer_get_device_dirty(const void *b) {
    return (((const halide_buffer_t *)b)->flags & halide_buffer_flag_device_dirty) != 0;
}
LOOM_C_INLINE int32_t loom_c_buffer_set_flag(void *b, uint64_t bit, bool on) {
    halide_buffer_t *buf = (halide_buffer_t *)b;
    buf->flags = on ? (buf->flags | bit) : (buf->flags & ~bit);
    return 0;
}
LOOM_C_INLINE int32_t loom_c_buffer_set_host_dirty(void *b, bool on) {
    return loom_c_buffer_set_flag(b, halide_buffer_flag_host_dirty, on);
}
LOOM_C_INLINE int32_t loom_c_buffer_set_device_dirty(void *b, bool on) {
    return loom_c_buffer_set_flag(b, halide_buffer_flag_device_dirty, on);
}
LOOM_C_INLINE int32_t loom_c_buffer_set_bounds(void *b, int d, int32_t min, int32_t extent) {
    ((halide_buffer_t *)b)->dim[d].min = min;
    ((halide_buffer_t *)b)->dim[d].extent = extent;
    return 0;
}
LOOM_C_INLINE int32_t loom_c_buffer_init_strides(void *b) {
    halide_buffer_t *buf = (halide_buffer_t *)b;
    int32_t stride = 1, d;
    for (d = 0; d < buf->dimensions; d++) {
        buf->dim[d].stride = stride;
        stride *= buf->dim[d].extent;
    }
    return 0;
}
)";

const std::set<std::string> buffer_accessors = {
    "get_host",         "get_device",      "get_device_interface",
    "get_flags",        "get_dimensions",  "get_type",
    "get_min",          "get_extent",      "get_stride",
    "get_max",          "is_bounds_query", "get_host_dirty",
    "get_device_dirty", "set_host_dirty",  "set_device_dirty",
    "set_bounds",       "init_strides"};

/// Whether e is a constant (or a broadcast of one) in [0, bits).
bool in_range_shift(const Expr &e, int bits) {
    const Broadcast *b = e.as<Broadcast>();
    const Expr &v = b ? b->value : e;
    const int64_t *i = as_const_int(v);
    const uint64_t *u = as_const_uint(v);
    return (i && *i >= 0 && *i < bits) || (u && *u < (uint64_t)bits);
}

/// Runtime entry points the C runtime does not carry: their features are refused.
bool unsupported_runtime_call(const std::string &n) {
    for (const char *prefix :
         {"halide_profiler_", "halide_trace", "halide_memoization_", "halide_copy_to_",
          "halide_device_", "loom_prepare_device_buffer", "halide_cuda_", "halide_opencl_"}) {
        if (starts_with(n, prefix)) return true;
    }
    return false;
}

class CodeGenC : public IRVisitor {
public:
    explicit CodeGenC(const std::string &declared) : declared_(declared), ops_(defs_) {}

    std::string generate(const LoweredFunc &f, const std::string &impl_name);

protected:
    using IRVisitor::visit;
#define LOOM_IR_EXPR(N) void visit(const N *op) override;
#define LOOM_IR_STMT(N) void visit(const N *op) override;
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT

private:
    /// What leaving a function early must undo: a heap allocation to free, or a destructor.
    struct Cleanup {
        std::string id;       ///< the C variable holding the pointer
        std::string function; ///< halide_free, or the destructor's name
    };

    const std::string &declared_;
    CDefinitions defs_;
    COps ops_;
    std::ostringstream out_;
    int indent_ = 1;
    std::string id_;
    std::set<std::string> used_;
    std::map<std::string, std::vector<std::string>> scope_;
    std::map<std::string, std::string> functions_; ///< IR task name -> C function
    std::map<std::string, std::string> structs_;   ///< member types -> struct name
    std::vector<Cleanup> cleanups_;
    std::string function_name_;
    std::vector<std::string> param_ids_; ///< the C parameters of the function being written
    bool uses_atomics_ = false;
    /// The buffers of the function being printed whose pointers are restrict (see function()).
    std::set<std::string> restrict_ok_;

    void line(const std::string &s) { out_ << std::string(indent_ * 4, ' ') << s << "\n"; }
    void open(const std::string &s) {
        line(s + " {");
        indent_++;
    }
    void close(const std::string &tail = "") {
        indent_--;
        line("}" + tail);
    }
    std::string emit(const Expr &e) {
        id_.clear();
        dispatch(e);
        internal_assert(!id_.empty()) << "C: no value for " << e << "\n";
        return id_;
    }
    void emit(const Stmt &s) { dispatch(s); }
    std::string fresh(const std::string &ir_name);
    void push(const std::string &name, const std::string &c) { scope_[name].push_back(c); }
    void pop(const std::string &name) {
        scope_[name].pop_back();
        if (scope_[name].empty()) scope_.erase(name);
    }
    /// The C type of a value of type t (vectors included).
    std::string type_of(Type t) { return t.is_vector() ? ops_.vector_type(t) : c_scalar_type(t); }
    /// "T name" (no space after a '*').
    std::string declaration(Type t, const std::string &name) {
        std::string ty = type_of(t);
        return ty + (ty.back() == '*' ? "" : " ") + name;
    }
    /// Declares a fresh variable of type t holding `value`; returns its name.
    std::string bind(const std::string &hint, Type t, const std::string &value) {
        std::string c = fresh(hint);
        line(declaration(t, c) + " = " + value + ";");
        return c;
    }
    /// The C expression for buffer or allocation `name` as a pointer to t's element storage.
    std::string pointer(const std::string &name, Type t);
    void error_return(const std::string &code);
    void function(const LoweredFunc &f, const std::string &c_name, bool is_task);
    std::string signature(const LoweredFunc &f, const std::string &c_name, bool is_task,
                          std::vector<std::pair<std::string, std::string>> *bindings);

    // Calls.
    std::string intrinsic(const Call *op);
    std::string extern_call(const Call *op);
    std::string buffer_call(const Call *op);
    std::string make_struct(const Call *op);
    std::string scratchpad_address(const Call *op);
    std::string struct_type(const std::vector<Type> &members);
    std::string stringify(const Call *op);
    std::vector<std::string> emit_args(const Call *op, std::vector<Type> *types);
    /// Whether COps::call knows `name` (an intrinsic or a math function) for these types.
    bool has_scalar_semantics(const std::string &name, Type rt, const std::vector<Type> &types) {
        std::vector<Type> elems;
        for (const Type &a : types) elems.push_back(a.element_of());
        return !ops_.call(name, rt.element_of(), elems, std::vector<std::string>(types.size(), "x"))
                    .empty();
    }
    [[noreturn]] void refuse(const std::string &what) {
        user_error << "The C back end cannot compile " << what << " (in " << function_name_
                   << "). Compile this pipeline to an object file or static library instead, "
                      "or remove the feature.\n";
        __builtin_unreachable(); // user_error throws when its statement ends
    }
};

std::string CodeGenC::fresh(const std::string &ir_name) {
    std::string base = c_identifier_of(ir_name);
    // Names starting with "loom_" or "halide_" belong to the runtime and the helpers.
    if (starts_with(base, "loom_") || starts_with(base, "halide_") || base[0] == '_') {
        base = "v" + base;
    }
    std::string s = base;
    for (int k = 1; used_.count(s); k++) s = base + "_" + std::to_string(k);
    used_.insert(s);
    return s;
}

std::string CodeGenC::pointer(const std::string &name, Type t) {
    auto it = scope_.find(name);
    internal_assert(it != scope_.end()) << "C: no buffer or allocation " << name << " in scope\n";
    return "((" + c_storage_type(t.element_of(), "an element of " + name) + " *)" +
           it->second.back() + ")";
}

void CodeGenC::error_return(const std::string &code) {
    for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) {
        line("if (" + it->id + ") " + it->function + "(uc, " + it->id + ");");
    }
    line("return (int)" + p(code) + ";");
}

// ---- Functions ----

std::string CodeGenC::signature(const LoweredFunc &f, const std::string &c_name, bool is_task,
                                std::vector<std::pair<std::string, std::string>> *bindings) {
    std::vector<std::string> params;
    for (size_t i = 0; i < f.args.size(); i++) {
        const LoweredArgument &a = f.args[i];
        std::string c;
        if (i == 0) {
            internal_assert(a.name == "__user_context") << "C: args[0] of " << f.name << "\n";
            params.push_back("void *uc");
            if (bindings) bindings->push_back({a.name, "uc"});
            continue;
        }
        c = bindings ? fresh(a.name) : "a" + std::to_string(i);
        if (bindings) param_ids_.push_back(c);
        if (a.is_buffer()) {
            params.push_back("halide_buffer_t *" + c);
            if (bindings) bindings->push_back({a.name + ".buffer", "((void *)" + c + ")"});
        } else if (is_task && a.type.is_handle() && ends_with(a.name, ".closure")) {
            // The runtime's task types pass the closure as uint8_t *.
            params.push_back("uint8_t *" + c);
            if (bindings) bindings->push_back({a.name, "((void *)" + c + ")"});
        } else {
            std::string t = a.type == Int(32) && is_task ? "int" : c_scalar_type(a.type, a.name);
            params.push_back(t + (t.back() == '*' ? "" : " ") + c);
            if (bindings) bindings->push_back({a.name, c});
        }
    }
    return "static int " + c_name + "(" + join(params) + ")";
}

void CodeGenC::function(const LoweredFunc &f, const std::string &c_name, bool is_task) {
    function_name_ = f.name;
    // Buffers this function reads or writes whose address it never passes on (no Variable use:
    // an extern stage, a closure or a buffer struct would see it): their pointers are
    // `restrict`, the C form of the LLVM back end's one TBAA type per buffer, so the C compiler
    // may keep loads of one buffer across stores to another (a color matrix read per vector
    // while uint8_t output is stored: a char store may alias anything otherwise).
    class Accesses : public IRVisitor {
    public:
        std::set<std::string> accessed, escaped;

    protected:
        using IRVisitor::visit;
        void visit(const Load *op) override {
            accessed.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            accessed.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            if (op->type.is_handle()) escaped.insert(op->name);
        }
    } accesses;
    accesses.dispatch(f.body);
    restrict_ok_.clear();
    for (const std::string &b : accesses.accessed) {
        if (!accesses.escaped.count(b)) restrict_ok_.insert(b);
    }
    std::vector<std::pair<std::string, std::string>> bindings;
    std::string sig = signature(f, c_name, is_task, &bindings);
    out_ << sig << " {\n";
    for (const auto &b : bindings) push(b.first, b.second);
    // Arguments a function may not read (C compilers warn about them).
    line("(void)uc;");
    for (const std::string &c : param_ids_) line("(void)" + c + ";");
    param_ids_.clear();
    emit(f.body);
    line("return 0;");
    out_ << "}\n\n";
    for (const auto &b : bindings) pop(b.first);
    internal_assert(cleanups_.empty()) << "C: cleanups left after " << f.name << "\n";
}

std::string CodeGenC::generate(const LoweredFunc &f, const std::string &impl_name) {
    internal_assert(f.kernels.empty()) << "C: GPU kernels reached the C back end\n";
    used_.insert(impl_name);
    for (const LoweredFunc &task : f.functions) {
        functions_[task.name] = fresh("loom_task_" + c_identifier_of(task.name));
    }
    std::ostringstream decls;
    for (const LoweredFunc &task : f.functions) {
        decls << signature(task, functions_.at(task.name), true, nullptr) << ";\n";
    }
    for (const LoweredFunc &task : f.functions) function(task, functions_.at(task.name), true);
    function(f, impl_name, false);

    std::ostringstream os;
    os << buffer_helpers << "\n";
    if (uses_atomics_) {
        os << "#if defined(LOOM_C_NO_THREADS)\n#define LOOM_C_ATOMIC_BEGIN\n"
           << "#define LOOM_C_ATOMIC_END\n#else\n"
           << "/* atomic() updates run under one lock: correct for any operation and type. */\n"
           << "static pthread_mutex_t loom_c_atomic_mutex = PTHREAD_MUTEX_INITIALIZER;\n"
           << "#define LOOM_C_ATOMIC_BEGIN pthread_mutex_lock(&loom_c_atomic_mutex);\n"
           << "#define LOOM_C_ATOMIC_END pthread_mutex_unlock(&loom_c_atomic_mutex);\n#endif\n\n";
    }
    os << defs_.text() << "\n" << decls.str() << "\n" << out_.str();
    return os.str();
}

// ---- Expressions ----

void CodeGenC::visit(const IntImm *op) { id_ = ops_.int_literal(op->type, op->value); }
void CodeGenC::visit(const UIntImm *op) { id_ = ops_.uint_literal(op->type, op->value); }
void CodeGenC::visit(const FloatImm *op) {
    c_scalar_type(op->type, "the constant " + std::to_string(op->value));
    id_ = ops_.float_literal(op->type, op->value);
}
void CodeGenC::visit(const StringImm *op) { id_ = c_string_literal(op->value); }

void CodeGenC::visit(const Cast *op) {
    std::string v = emit(op->value);
    Type from = op->value.type(), to = op->type;
    id_ = ops_.lanewise(to.is_bool() ? "ne0" : "cvt", to, {from}, {v},
                        [&](const std::vector<Type> &t, const std::vector<std::string> &a) {
                            return ops_.cast(t[0], to.element_of(), a[0]);
                        });
}

void CodeGenC::visit(const Reinterpret *op) {
    std::string v = emit(op->value);
    Type from = op->value.type(), to = op->type;
    if (from.lanes() == to.lanes()) {
        id_ = ops_.lanewise("reinterpret", to, {from}, {v},
                            [&](const std::vector<Type> &t, const std::vector<std::string> &a) {
                                return ops_.reinterpret(t[0], to.element_of(), a[0]);
                            });
        return;
    }
    // Different lane counts, same bits: through memory.
    std::string fname = "loom_" + COps::tag(to) + "_reinterpret_" + COps::tag(from);
    std::string tt = type_of(to), ft = type_of(from);
    std::string tc = c_storage_type(to.element_of()), fc = c_storage_type(from.element_of());
    defs_.add(
        fname,
        "LOOM_C_INLINE " + tt + " " + fname + "(" + ft + " v) {\n    " + fc + " x[" +
            std::to_string(from.lanes()) + "];\n    " + tc + " r[" + std::to_string(to.lanes()) +
            "];\n    " +
            (from.is_vector() ? "loom_" + COps::tag(from) + "_store(x, v);\n" : "x[0] = v;\n") +
            "    memcpy(r, x, sizeof r);\n    return " +
            (to.is_vector() ? "loom_" + COps::tag(to) + "_load(r)" : "r[0]") + ";\n}\n");
    id_ = fname + "(" + v + ")";
}

void CodeGenC::visit(const Variable *op) {
    auto it = scope_.find(op->name);
    if (it != scope_.end()) {
        id_ = it->second.back();
        return;
    }
    auto fn = functions_.find(op->name);
    internal_assert(fn != functions_.end()) << "C: variable " << op->name << " is not in scope\n";
    // A parallel task, passed to the runtime by its own (function pointer) type.
    id_ = fn->second;
}

namespace {
/// Whether e is a positive integer constant (or a broadcast of one).
bool positive_constant(const Expr &e) {
    const Broadcast *b = e.as<Broadcast>();
    const Expr &v = b ? b->value : e;
    const int64_t *i = as_const_int(v);
    const uint64_t *u = as_const_uint(v);
    return (i && *i > 0) || (u && *u > 0);
}
} // namespace

#define LOOM_C_BINARY(Node, op_name, expr)                                                         \
    void CodeGenC::visit(const Node *op) {                                                         \
        std::string a0 = emit(op->a), b0 = emit(op->b);                                            \
        Type t = op->a.type();                                                                     \
        id_ = ops_.lanewise(op_name, op->type, {t, op->b.type()}, {a0, b0},                        \
                            [&](const std::vector<Type> &ts, const std::vector<std::string> &x) {  \
                                (void)ts;                                                          \
                                return expr;                                                       \
                            });                                                                    \
    }

LOOM_C_BINARY(Add, "add", ops_.arith('+', t, x[0], x[1]))
LOOM_C_BINARY(Sub, "sub", ops_.arith('-', t, x[0], x[1]))
LOOM_C_BINARY(Mul, "mul", ops_.arith('*', t, x[0], x[1]))
namespace {
/// k when e is the integer constant 2^k, k > 0 (or a broadcast of it), else -1.
int power_of_two_divisor(const Expr &e) {
    const Broadcast *b = e.as<Broadcast>();
    const Expr &v = b ? b->value : e;
    const int64_t *i = as_const_int(v);
    const uint64_t *u = as_const_uint(v);
    uint64_t c = i ? (*i > 0 ? (uint64_t)*i : 0) : (u ? *u : 0);
    if (c < 2 || (c & (c - 1)) != 0) return -1;
    int k = 0;
    while (c >>= 1) k++;
    return k;
}
} // namespace

// Euclidean division and modulus by 2^k are an arithmetic shift right and a mask (exactly, for
// signed values too). Said so here because compilers do not see it through the vector forms:
// GCC divides a 32-lane vector by a splat of 256 one lane at a time (camera_pipe's color
// matrix: 3x slower than the shift).
void CodeGenC::visit(const Div *op) {
    const int k = op->type.is_float() ? -1 : power_of_two_divisor(op->b);
    if (k > 0) {
        id_ = emit(Call::make(op->type, Call::shift_right, {op->a, make_const(op->type, k)},
                              Call::PureIntrinsic));
        return;
    }
    std::string a0 = emit(op->a), b0 = emit(op->b);
    Type t = op->a.type();
    // A divisor known to be positive has simpler vector forms (README.md in simd/).
    id_ = ops_.lanewise(t.is_float()               ? "div"
                        : positive_constant(op->b) ? "div_c"
                                                   : "ediv",
                        op->type, {t, op->b.type()}, {a0, b0},
                        [&](const std::vector<Type> &, const std::vector<std::string> &x) {
                            return ops_.div(t, x[0], x[1]);
                        });
}

void CodeGenC::visit(const Mod *op) {
    const int k = op->type.is_float() ? -1 : power_of_two_divisor(op->b);
    if (k > 0) {
        id_ = emit(Call::make(op->type, Call::bitwise_and,
                              {op->a, make_const(op->type, (int64_t(1) << k) - 1)},
                              Call::PureIntrinsic));
        return;
    }
    std::string a0 = emit(op->a), b0 = emit(op->b);
    Type t = op->a.type();
    id_ = ops_.lanewise(t.is_float()               ? "fmod"
                        : positive_constant(op->b) ? "mod_c"
                                                   : "emod",
                        op->type, {t, op->b.type()}, {a0, b0},
                        [&](const std::vector<Type> &, const std::vector<std::string> &x) {
                            return ops_.mod(t, x[0], x[1]);
                        });
}
LOOM_C_BINARY(Min, "min", ops_.min(t, x[0], x[1]))
LOOM_C_BINARY(Max, "max", ops_.max(t, x[0], x[1]))
LOOM_C_BINARY(EQ, "eq", ops_.compare("==", t, x[0], x[1]))
LOOM_C_BINARY(NE, "ne", ops_.compare("!=", t, x[0], x[1]))
LOOM_C_BINARY(LT, "lt", ops_.compare("<", t, x[0], x[1]))
LOOM_C_BINARY(LE, "le", ops_.compare("<=", t, x[0], x[1]))
LOOM_C_BINARY(GT, "gt", ops_.compare(">", t, x[0], x[1]))
LOOM_C_BINARY(GE, "ge", ops_.compare(">=", t, x[0], x[1]))
// Both sides are evaluated, as in the IR: & and | on bools, not the short-circuit forms.
LOOM_C_BINARY(And, "and", "((bool)((int)" + p(x[0]) + " & (int)" + p(x[1]) + "))")
LOOM_C_BINARY(Or, "or", "((bool)((int)" + p(x[0]) + " | (int)" + p(x[1]) + "))")
#undef LOOM_C_BINARY

void CodeGenC::visit(const Not *op) {
    std::string a = emit(op->a);
    id_ = ops_.lanewise("not", op->type, {op->a.type()}, {a},
                        [](const std::vector<Type> &, const std::vector<std::string> &x) {
                            return "(!" + p(x[0]) + ")";
                        });
}

void CodeGenC::visit(const Select *op) {
    std::string c = emit(op->condition);
    std::string a = emit(op->true_value), b = emit(op->false_value);
    if (op->condition.type().is_scalar()) {
        id_ = p(c + " ? " + a + " : " + b);
        return;
    }
    Type t = op->type;
    id_ = ops_.lanewise("select", t, {op->condition.type(), t, t}, {c, a, b},
                        [](const std::vector<Type> &, const std::vector<std::string> &x) {
                            return p(x[0] + " ? " + x[1] + " : " + x[2]);
                        });
}

void CodeGenC::visit(const Load *op) {
    Type t = op->type;
    std::string ptr = pointer(op->name, t);
    if (t.is_scalar()) {
        std::string v = ptr + "[" + emit(op->index) + "]";
        id_ = t.is_bool() ? p(v + " != 0") : v;
        return;
    }
    bool dense_ok = is_const_one(op->predicate);
    const Ramp *r = op->index.as<Ramp>();
    if (dense_ok && r && is_const_one(r->stride)) {
        id_ = ops_.load(t, p(ptr + " + " + emit(r->base)));
        return;
    }
    const int64_t *stride_c = r ? as_const_int(r->stride) : nullptr;
    const int64_t stride = stride_c ? *stride_c : 0;
    const int lanes = t.lanes();
    if (dense_ok && r && r->base.type().is_scalar() && (stride == 2 || stride == 4) &&
        (lanes & (lanes - 1)) == 0) {
        // Interleaved data (a Bayer mosaic's channels): two dense loads of half of
        // lanes * stride elements, the first from the span's start and the second ending at its
        // last element (never past it), and one shuffle, as the LLVM back end does, instead of
        // a gather of one element per lane.
        const int half = lanes * (int)stride / 2;
        const int span = (lanes - 1) * (int)stride + 1;
        Type ht = t.with_lanes(half);
        std::string base = bind(op->name + ".strided", Int(64), "(int64_t)" + p(emit(r->base)));
        std::string lo = ops_.load(ht, p(ptr + " + " + base));
        std::string hi = ops_.load(ht, p(ptr + " + " + base + " + " + std::to_string(span - half)));
        std::vector<int> idx;
        for (int i = 0; i < lanes; i++) {
            int e = i * (int)stride;
            idx.push_back(e < half ? e : half + e - (span - half));
        }
        id_ = ops_.shuffle(t, {ht, ht}, {lo, hi}, idx);
        return;
    }
    std::string index = emit(op->index);
    std::string mask = dense_ok ? "" : emit(op->predicate);
    id_ = ops_.gather(t, ptr, op->index.type(), index, mask);
}

void CodeGenC::visit(const Ramp *op) {
    std::string b = emit(op->base), s = emit(op->stride);
    id_ = ops_.ramp(op->type, b, s);
}

void CodeGenC::visit(const Broadcast *op) {
    std::string v = emit(op->value);
    id_ = op->value.type().is_vector()
              ? ops_.shuffle(op->type, {op->value.type()}, {v},
                             [&] {
                                 std::vector<int> idx;
                                 for (int k = 0; k < op->type.lanes(); k++)
                                     idx.push_back(k % op->value.type().lanes());
                                 return idx;
                             }())
              : ops_.broadcast(op->type, v);
}

void CodeGenC::visit(const Let *op) {
    std::string v = emit(op->value);
    std::string c = bind(op->name, op->value.type(), v);
    push(op->name, c);
    id_ = emit(op->body);
    pop(op->name);
}

void CodeGenC::visit(const Shuffle *op) {
    std::vector<std::string> vs;
    std::vector<Type> ts;
    for (const Expr &e : op->vectors) {
        vs.push_back(emit(e));
        ts.push_back(e.type());
    }
    if (ts.size() == 1 && op->indices.size() == 1 && ts[0].is_vector()) {
        id_ = ops_.extract(ts[0], vs[0], op->indices[0]);
        return;
    }
    id_ = ops_.shuffle(op->type, ts, vs, op->indices);
}

void CodeGenC::visit(const VectorReduce *op) {
    static const char *names[] = {"add", "mul", "min", "max", "and", "or"};
    std::string v = emit(op->value);
    id_ = ops_.reduce(names[op->op], op->type, op->value.type(), v);
}

// ---- Calls ----

std::vector<std::string> CodeGenC::emit_args(const Call *op, std::vector<Type> *types) {
    std::vector<std::string> args;
    for (const Expr &e : op->args) {
        args.push_back(emit(e));
        types->push_back(e.type());
    }
    return args;
}

void CodeGenC::visit(const Call *op) {
    switch (op->call_type) {
    case Call::Halide:
    case Call::Image:
        internal_error << "C: call to " << op->name << " reached code generation\n";
        break;
    case Call::Intrinsic:
    case Call::PureIntrinsic:
        id_ = intrinsic(op);
        break;
    case Call::ExternCPlusPlus:
        refuse("a call to the C++ function " + op->name + " (C cannot call C++ names)");
    case Call::Extern:
    case Call::PureExtern:
        id_ = starts_with(op->name, "_halide_buffer_") ? buffer_call(op) : extern_call(op);
        break;
    }
}

std::string CodeGenC::buffer_call(const Call *op) {
    std::string what = op->name.substr(std::string("_halide_buffer_").size());
    internal_assert(buffer_accessors.count(what)) << "C: unknown buffer intrinsic " << op->name;
    std::vector<Type> types;
    std::vector<std::string> args = emit_args(op, &types);
    std::string call = "loom_c_buffer_" + what + "(" + join(args) + ")";
    return op->type.is_handle() ? call : "((" + c_scalar_type(op->type) + ")" + call + ")";
}

std::string CodeGenC::extern_call(const Call *op) {
    if (unsupported_runtime_call(op->name)) {
        refuse("the runtime call " + op->name +
               " (tracing, profiling, memoization and device buffers are not in the C runtime)");
    }
    std::vector<Type> types;
    std::vector<std::string> args = emit_args(op, &types);
    if (has_scalar_semantics(op->name, op->type, types)) {
        return ops_.lanewise(c_identifier_of(op->name), op->type, types, args,
                             [&](const std::vector<Type> &t, const std::vector<std::string> &a) {
                                 return ops_.call(op->name, op->type.element_of(), t, a);
                             });
    }
    // Any other C function: declared here unless the runtime header declares it.
    if (declared_.find(" " + op->name + "(") == std::string::npos &&
        declared_.find("*" + op->name + "(") == std::string::npos) {
        std::vector<std::string> params;
        for (const Type &t : types) params.push_back(c_scalar_type(t.element_of(), op->name));
        std::string rt = c_scalar_type(op->type.element_of(), "the result of " + op->name);
        defs_.add("extern " + op->name, "extern " + rt + (rt.back() == '*' ? "" : " ") + op->name +
                                            "(" + (params.empty() ? "void" : join(params)) +
                                            ");\n");
    }
    Type rt = op->type;
    return ops_.lanewise(c_identifier_of(op->name), rt, types, args,
                         [&](const std::vector<Type> &, const std::vector<std::string> &a) {
                             std::string c = op->name + "(" + join(a) + ")";
                             return rt.is_bool() ? p(c + " != 0") : c;
                         });
}

std::string CodeGenC::struct_type(const std::vector<Type> &members) {
    std::string key;
    for (const Type &t : members) key += COps::tag(t) + ",";
    auto it = structs_.find(key);
    if (it != structs_.end()) return it->second;
    std::string name = "loom_struct" + std::to_string(structs_.size());
    std::string text = "struct " + name + " {";
    for (size_t i = 0; i < members.size(); i++) {
        std::string t = members[i].is_handle() ? "void *" : c_storage_type(members[i]);
        text += " " + t + (t.back() == '*' ? "" : " ") + "f" + std::to_string(i) + ";";
    }
    defs_.add("struct " + name, text + " };\n");
    structs_[key] = name;
    return name;
}

std::string CodeGenC::scratchpad_address(const Call *op) {
    const StringImm *symbol = op->args[0].as<StringImm>();
    const StringImm *memory = op->args[1].as<StringImm>();
    const int64_t *size = as_const_int(op->args[2]);
    const int64_t *alignment = as_const_int(op->args[3]);
    internal_assert(symbol && memory && size && alignment) << "C: malformed " << op->name << "\n";
    const std::string &block = symbol->value;
    // One macro per memory, so a toolchain places every pipeline's block for it the same way.
    const std::string placement = "LOOM_SCRATCHPAD_PLACEMENT_" + memory->value;
    const std::string a = std::to_string(*alignment);
    // Over-allocated by alignment - 1 bytes and aligned at run time: C99 has no alignment
    // attribute, and a DSP's compiler may not be GCC.
    defs_.add("scratchpad " + block,
              "/* The static block of a scratchpad (lower/allocate_scratchpads.h). Define " +
                  placement + " to place it. */\n#ifndef " + placement + "\n#define " + placement +
                  "\n#endif\n" + placement + " static uint8_t " + block + "[" +
                  std::to_string(*size) + " + " + a + " - 1];\n");
    return "((void *)(" + block + " + (" + a + " - (uintptr_t)" + block + " % " + a + ") % " + a +
           " + " + p(emit(op->args[4])) + "))";
}

std::string CodeGenC::make_struct(const Call *op) {
    if (op->args.empty()) return "((void *)0)";
    std::vector<Type> types;
    std::vector<std::string> args = emit_args(op, &types);
    std::string s = struct_type(types);
    for (size_t i = 0; i < args.size(); i++) {
        if (types[i].is_bool()) args[i] = "(uint8_t)" + p(args[i]);
    }
    std::string c = fresh("loom_s");
    line("struct " + s + " " + c + " = {" + join(args) + "};");
    return "((void *)&" + c + ")";
}

std::string CodeGenC::stringify(const Call *op) {
    // A buffer sized as the LLVM back end's: strings exactly, other values by a bound per
    // lane; the runtime's writers stop at the end.
    uint64_t size = 1;
    for (const Expr &e : op->args) {
        if (const StringImm *s = e.as<StringImm>())
            size += s->value.size();
        else
            size += (e.type().is_float() ? 64 : 36) * (uint64_t)e.type().lanes() + 2;
    }
    size = std::max<uint64_t>(size, 64);
    std::string buf = fresh("loom_str"), dst = fresh("loom_dst"),
                end = buf + " + " + std::to_string(size);
    line("char " + buf + "[" + std::to_string(size) + "];");
    line("char *" + dst + " = " + buf + ";");
    line(buf + "[0] = 0;");
    auto put_scalar = [&](const std::string &v, Type t) {
        if (t.is_float()) {
            line(dst + " = halide_double_to_string(" + dst + ", " + end + ", (double)" + p(v) +
                 ", 0);");
        } else if (t.is_int()) {
            line(dst + " = halide_int64_to_string(" + dst + ", " + end + ", (int64_t)" + p(v) +
                 ", 1);");
        } else if (t.is_uint()) {
            line(dst + " = halide_uint64_to_string(" + dst + ", " + end + ", (uint64_t)" + p(v) +
                 ", 1);");
        } else {
            line(dst + " = halide_pointer_to_string(" + dst + ", " + end + ", " + v + ");");
        }
    };
    auto put_string = [&](const std::string &s) {
        line(dst + " = halide_string_to_string(" + dst + ", " + end + ", " + c_string_literal(s) +
             ");");
    };
    for (const Expr &e : op->args) {
        if (const StringImm *s = e.as<StringImm>()) {
            if (!s->value.empty()) put_string(s->value);
            continue;
        }
        std::string v = emit(e);
        Type t = e.type();
        if (t.is_scalar()) {
            put_scalar(v, t);
            continue;
        }
        std::string vv = bind("loom_vec", t, v);
        put_string("<");
        for (int i = 0; i < t.lanes(); i++) {
            if (i > 0) put_string(", ");
            put_scalar(ops_.extract(t, vv, i), t.element_of());
        }
        put_string(">");
    }
    line("(void)" + dst + ";");
    return "((void *)" + buf + ")";
}

std::string CodeGenC::intrinsic(const Call *op) {
    const std::string &n = op->name;
    Type t = op->type;
    if (n == Call::if_then_else) {
        std::string c = emit(op->args[0]);
        if (op->args[0].type().is_vector()) {
            std::string a = emit(op->args[1]);
            std::string b = op->args.size() == 3 ? emit(op->args[2]) : emit(make_zero(t));
            return ops_.lanewise("select", t, {op->args[0].type(), t, t}, {c, a, b},
                                 [](const std::vector<Type> &, const std::vector<std::string> &x) {
                                     return p(x[0] + " ? " + x[1] + " : " + x[2]);
                                 });
        }
        // Only the chosen side is evaluated.
        std::string r = fresh("loom_ite");
        line(declaration(t, r) + ";");
        open("if (" + c + ")");
        line(r + " = " + emit(op->args[1]) + ";");
        close();
        open("else");
        line(r + " = " + (op->args.size() == 3 ? emit(op->args[2]) : emit(make_zero(t))) + ";");
        close();
        return r;
    }
    if (n == Call::require) {
        std::string c = emit(op->args[0]);
        if (op->args[0].type().is_vector()) c = ops_.reduce("and", Bool(), op->args[0].type(), c);
        open("if (!" + p(c) + ")");
        const Cast *as_value = op->args[2].as<Cast>();
        error_return(emit(as_value ? as_value->value : op->args[2]));
        close();
        return emit(op->args[1]);
    }
    if (n == Call::return_second) {
        line("(void)" + p(emit(op->args[0])) + ";");
        return emit(op->args[1]);
    }
    if (n == Call::make_struct) return make_struct(op);
    if (n == scratchpad_address_intrinsic) return scratchpad_address(op);
    if (n == Call::load_struct_member) {
        const Call *shape = op->args[1].as<Call>();
        const int64_t *index = as_const_int(op->args[2]);
        internal_assert(shape && shape->is_intrinsic(Call::make_struct) && index)
            << "C: load_struct_member needs a make_struct shape and a constant index\n";
        std::vector<Type> types;
        for (const Expr &e : shape->args) types.push_back(e.type());
        std::string v = "((struct " + struct_type(types) + " *)" + emit(op->args[0]) + ")->f" +
                        std::to_string(*index);
        return t.is_bool() ? p(v + " != 0") : v;
    }
    if (n == Call::stringify) return stringify(op);
    if (n == Call::prefetch) return "0"; // a hint; C has no portable prefetch
    if (starts_with(n, "_halide_buffer_")) return buffer_call(op);
    if (n == Call::gpu_launch) refuse("a GPU kernel launch");
    if (n == "trace") refuse("tracing");
    internal_assert(n != Call::undef && n != Call::random && n != Call::register_destructor)
        << "C: the intrinsic " << n << " reached code generation\n";
    if (t.is_vector() &&
        (n == Call::widening_add || n == Call::widening_mul || n == "widening_sub")) {
        // Conversions then arithmetic: two operations every mapping has.
        std::string a = emit(Cast::make(t, op->args[0])), b = emit(Cast::make(t, op->args[1]));
        char c = n == Call::widening_add ? '+' : n == Call::widening_mul ? '*' : '-';
        return ops_.lanewise(c == '+'   ? "add"
                             : c == '*' ? "mul"
                                        : "sub",
                             t, {t, t}, {a, b},
                             [&](const std::vector<Type> &, const std::vector<std::string> &x) {
                                 return ops_.arith(c, t, x[0], x[1]);
                             });
    }
    if (t.is_vector() && (n == Call::shift_left || n == Call::shift_right) &&
        in_range_shift(op->args[1], t.bits())) {
        // An amount in [0, bits): C's shift (in the unsigned wrap type to the left).
        std::string a = emit(op->args[0]), b = emit(op->args[1]);
        bool left = n == Call::shift_left;
        Type bt = op->args[1].type();
        return ops_.lanewise(left ? "shl_c" : "shr_c", t, {t, bt}, {a, b},
                             [&](const std::vector<Type> &, const std::vector<std::string> &x) {
                                 std::string w = t.bits() <= 32 ? "uint32_t" : "uint64_t";
                                 std::string ct = c_scalar_type(t.element_of());
                                 return left ? "((" + ct + ")((" + w + ")" + p(x[0]) + " << " +
                                                   p(x[1]) + "))"
                                             : "((" + ct + ")(" + p(x[0]) + " >> " + p(x[1]) + "))";
                             });
    }
    std::vector<Type> types;
    std::vector<std::string> args = emit_args(op, &types);
    internal_assert(has_scalar_semantics(n, t, types))
        << "C: code generation does not know the intrinsic " << n << "\n";
    return ops_.lanewise(c_identifier_of(n), t, types, args,
                         [&](const std::vector<Type> &ts, const std::vector<std::string> &a) {
                             return ops_.call(n, t.element_of(), ts, a);
                         });
}

// ---- Statements ----

void CodeGenC::visit(const LetStmt *op) {
    const Call *destructor = op->value.as<Call>();
    if (destructor && destructor->is_intrinsic(Call::register_destructor)) {
        const StringImm *fn = destructor->args[0].as<StringImm>();
        internal_assert(fn) << "C: register_destructor takes a function name\n";
        std::string handle = emit(destructor->args[1]);
        std::string c = bind(op->name, Handle(), handle);
        if (declared_.find(" " + fn->value + "(") == std::string::npos) {
            defs_.add("extern " + fn->value, "extern void " + fn->value + "(void *, void *);\n");
        }
        cleanups_.push_back({c, fn->value});
        push(op->name, c);
        emit(op->body);
        pop(op->name);
        cleanups_.pop_back();
        line("if (" + c + ") " + fn->value + "(uc, " + c + ");");
        return;
    }
    std::string v = emit(op->value);
    std::string c;
    if (op->value.type().is_handle() && restrict_ok_.count(op->name)) {
        c = fresh(op->name);
        line("void *restrict " + c + " = " + v + ";");
    } else {
        c = bind(op->name, op->value.type(), v);
    }
    push(op->name, c);
    emit(op->body);
    pop(op->name);
}

void CodeGenC::visit(const AssertStmt *op) {
    std::string c = emit(op->condition);
    if (op->condition.type().is_vector()) c = ops_.reduce("and", Bool(), op->condition.type(), c);
    open("if (!" + p(c) + ")");
    error_return(emit(op->message));
    close();
}

void CodeGenC::visit(const ProducerConsumer *op) {
    line(std::string("/* ") + (op->is_producer ? "produce " : "consume ") +
         c_identifier_of(op->name) + " */");
    emit(op->body);
}

void CodeGenC::visit(const For *op) {
    internal_assert(op->for_type != ForType::Parallel && op->for_type != ForType::GPUBlock &&
                    op->for_type != ForType::GPUThread)
        << "C: the loop " << op->name << " reached code generation as a parallel or GPU loop\n";
    std::string mn = emit(op->min);
    std::string lo = bind(op->name + ".min", Int(32), mn);
    std::string ext = emit(op->extent);
    std::string end = bind(op->name + ".end", Int(32), lo + " + " + p(ext));
    std::string v = fresh(op->name);
    open("for (int32_t " + v + " = " + lo + "; " + v + " < " + end + "; " + v + "++)");
    push(op->name, v);
    emit(op->body);
    pop(op->name);
    close();
}

void CodeGenC::visit(const Store *op) {
    Type t = op->value.type();
    std::string v = emit(op->value);
    std::string ptr = pointer(op->name, t);
    if (t.is_scalar()) {
        std::string idx = emit(op->index);
        if (!is_const_one(op->predicate)) {
            open("if (" + emit(op->predicate) + ")");
            line(ptr + "[" + idx + "] = " + (t.is_bool() ? "(uint8_t)" + p(v) : v) + ";");
            close();
            return;
        }
        line(ptr + "[" + idx + "] = " + (t.is_bool() ? "(uint8_t)" + p(v) : v) + ";");
        return;
    }
    bool dense_ok = is_const_one(op->predicate);
    const Ramp *r = op->index.as<Ramp>();
    if (dense_ok && r && is_const_one(r->stride)) {
        line(ops_.store(t, p(ptr + " + " + emit(r->base)), v) + ";");
        return;
    }
    std::string index = emit(op->index);
    std::string mask = dense_ok ? "" : emit(op->predicate);
    line(ops_.scatter(t, ptr, op->index.type(), index, v, mask) + ";");
}

void CodeGenC::visit(const Allocate *op) {
    Type et = op->type.element_of();
    std::string ct = c_storage_type(et, "the allocation " + op->name);
    int64_t count = constant_allocation_elements(op);
    std::string c = fresh(op->name);
    if (count >= 0 && !allocated_on_heap(op)) {
        line(ct + " " + c + "[" + std::to_string(std::max<int64_t>(count, 1)) + "];");
        push(op->name, c);
        emit(op->body);
        pop(op->name);
        return;
    }
    std::string elems = "(int64_t)1";
    for (const Expr &e : op->extents) elems += " * (int64_t)" + p(emit(e));
    std::string cond = emit(op->condition);
    if (op->memory_type == MemoryType::Stack) {
        // store_in(Stack) of a dynamic size, as Halide allows: a variable-length array.
        std::string n = bind(op->name + ".count", Int(64), p(cond) + " ? " + p(elems) + " : 1");
        line(ct + " " + c + "[" + n + " > 0 ? " + n + " : 1];");
        push(op->name, c);
        emit(op->body);
        pop(op->name);
        return;
    }
    std::string bytes =
        bind(op->name + ".bytes", Int(64),
             p(cond) + " ? " + p(elems) + " * " + std::to_string(et.bytes()) + " : 0");
    line(ct + (restrict_ok_.count(op->name) ? " *restrict " : " *") + c + " = NULL;");
    open("if (" + bytes + " > 0)");
    line(c + " = (" + ct + " *)halide_malloc(uc, (size_t)" + bytes + ");");
    open("if (!" + c + ")");
    error_return("halide_error_out_of_memory(uc)");
    close();
    close();
    cleanups_.push_back({c, "halide_free"});
    push(op->name, c);
    emit(op->body);
    pop(op->name);
    cleanups_.pop_back();
    line("if (" + c + ") halide_free(uc, " + c + ");");
}

void CodeGenC::visit(const Free *op) {
    auto named = scope_.find(op->name);
    internal_assert(named != scope_.end()) << "C: Free of unknown allocation " << op->name << "\n";
    for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) {
        if (it->function != "halide_free" || named->second.back() != it->id) continue;
        line("if (" + it->id + ") halide_free(uc, " + it->id + ");");
        line(it->id + " = NULL;");
        return;
    }
    // A stack allocation: released at the end of its block.
}

void CodeGenC::visit(const Block *op) {
    emit(op->first);
    emit(op->rest);
}

void CodeGenC::visit(const IfThenElse *op) {
    std::string c = emit(op->condition);
    open("if (" + c + ")");
    emit(op->then_case);
    close();
    if (op->else_case.defined()) {
        open("else");
        emit(op->else_case);
        close();
    }
}

void CodeGenC::visit(const Evaluate *op) {
    std::string v = emit(op->value);
    line("(void)" + p(v) + ";");
}

void CodeGenC::visit(const Atomic *op) {
    uses_atomics_ = true;
    line("LOOM_C_ATOMIC_BEGIN");
    emit(op->body);
    line("LOOM_C_ATOMIC_END");
}

void CodeGenC::visit(const Provide *op) {
    internal_error << "C: Provide to " << op->name << " reached code generation\n";
}
void CodeGenC::visit(const Realize *op) {
    internal_error << "C: Realize of " << op->name << " reached code generation\n";
}
void CodeGenC::visit(const Fork *) { internal_error << "C: a Fork reached code generation\n"; }

} // namespace

bool c_needs_strict_float(const LoweredFunc &f, const Target &target) {
    if (target.has_feature(Target::StrictFloat)) return true;
    bool found = false;
    auto find = [&](const LoweredFunc &g, auto &self) -> void {
        visit_exprs(g.body, [&](const Expr &e) {
            const Call *c = e.as<Call>();
            found = found || (c && c->is_intrinsic(Call::strict_float));
            return !found;
        });
        for (const LoweredFunc &task : g.functions) self(task, self);
    };
    find(f, find);
    return found;
}

std::string codegen_c(const LoweredFunc &f, const std::string &impl_name, const Target &target,
                      const std::string &declared) {
    (void)target; // the C compiler's flags choose the instructions
    return CodeGenC(declared).generate(f, impl_name);
}

} // namespace internal
} // namespace loom
