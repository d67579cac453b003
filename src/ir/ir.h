#ifndef LOOM_IR_IR_H
#define LOOM_IR_IR_H

/// \file The IR node kinds (DESIGN.md §4). Every node is immutable and built with a static
/// make() that checks its invariants. The list of kinds is ir_node_list.h.

#include "ir/parameter.h"
#include "ir/reduction.h"

#include <loom/device_api.h>
#include <loom/expr.h>
#include <loom/memory_type.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

enum class IRNodeType : uint8_t {
#define LOOM_IR_EXPR(N) N,
#define LOOM_IR_STMT(N) N,
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
};

/// The node kind's name ("Add", "For", ...).
const char *node_type_name(IRNodeType t);
/// True for expression kinds.
bool is_expr_node(IRNodeType t);

template <typename T>
struct ExprNode : BaseExprNode {
    explicit ExprNode(Type t) : BaseExprNode(T::_node_type, t) {}
};
template <typename T>
struct StmtNode : BaseStmtNode {
    StmtNode() : BaseStmtNode(T::_node_type) {}
};

#define LOOM_NODE_TYPE(N) static constexpr IRNodeType _node_type = IRNodeType::N

// ---- Constants ----
struct IntImm : ExprNode<IntImm> {
    using ExprNode::ExprNode;
    int64_t value;
    /// t must be a scalar Int; the value is wrapped to t's width.
    static const IntImm *make(Type t, int64_t value);
    LOOM_NODE_TYPE(IntImm);
};
struct UIntImm : ExprNode<UIntImm> {
    using ExprNode::ExprNode;
    uint64_t value;
    /// t must be a scalar UInt (incl. bool); the value is wrapped to t's width.
    static const UIntImm *make(Type t, uint64_t value);
    LOOM_NODE_TYPE(UIntImm);
};
struct FloatImm : ExprNode<FloatImm> {
    using ExprNode::ExprNode;
    double value;
    /// t must be a scalar Float; the value is rounded to t's precision.
    static const FloatImm *make(Type t, double value);
    LOOM_NODE_TYPE(FloatImm);
};
struct StringImm : ExprNode<StringImm> {
    using ExprNode::ExprNode;
    std::string value;
    static const StringImm *make(const std::string &value);
    LOOM_NODE_TYPE(StringImm);
};

// ---- Conversions ----
/// Value conversion (truncation/extension for ints, rounding toward zero float->int with
/// saturation undefined as in C, exact where representable).
struct Cast : ExprNode<Cast> {
    using ExprNode::ExprNode;
    Expr value;
    static Expr make(Type t, Expr value);
    LOOM_NODE_TYPE(Cast);
};
/// Bit-pattern reinterpretation; total bits must match.
struct Reinterpret : ExprNode<Reinterpret> {
    using ExprNode::ExprNode;
    Expr value;
    static Expr make(Type t, Expr value);
    LOOM_NODE_TYPE(Reinterpret);
};

/// A named value: a loop variable, a Let/LetStmt binding, a scalar Parameter, or a reduction
/// variable (reduction_domain defined).
struct Variable : ExprNode<Variable> {
    using ExprNode::ExprNode;
    std::string name;
    Parameter param;
    ReductionDomain reduction_domain;
    static Expr make(Type t, const std::string &name);
    static Expr make(Type t, const std::string &name, const Parameter &param);
    static Expr make(Type t, const std::string &name, const ReductionDomain &rdom);
    LOOM_NODE_TYPE(Variable);
};

// ---- Binary arithmetic: both operands and the result have the same type. ----
// Div and Mod on integers are Euclidean; division or modulo by zero is zero (DESIGN.md §4).
#define LOOM_BINARY_NODE(N)                                                                        \
    struct N : ExprNode<N> {                                                                       \
        using ExprNode::ExprNode;                                                                  \
        Expr a, b;                                                                                 \
        static Expr make(Expr a, Expr b);                                                          \
        LOOM_NODE_TYPE(N);                                                                         \
    };
LOOM_BINARY_NODE(Add)
LOOM_BINARY_NODE(Sub)
LOOM_BINARY_NODE(Mul)
LOOM_BINARY_NODE(Div)
LOOM_BINARY_NODE(Mod)
LOOM_BINARY_NODE(Min)
LOOM_BINARY_NODE(Max)
// Comparisons: operands of one type, result Bool with the operands' lanes.
LOOM_BINARY_NODE(EQ)
LOOM_BINARY_NODE(NE)
LOOM_BINARY_NODE(LT)
LOOM_BINARY_NODE(LE)
LOOM_BINARY_NODE(GT)
LOOM_BINARY_NODE(GE)
// Logical: Bool operands.
LOOM_BINARY_NODE(And)
LOOM_BINARY_NODE(Or)
#undef LOOM_BINARY_NODE

struct Not : ExprNode<Not> {
    using ExprNode::ExprNode;
    Expr a;
    static Expr make(Expr a);
    LOOM_NODE_TYPE(Not);
};

/// condition ? true_value : false_value. The condition is a scalar Bool or has the values' lanes.
struct Select : ExprNode<Select> {
    using ExprNode::ExprNode;
    Expr condition, true_value, false_value;
    static Expr make(Expr condition, Expr true_value, Expr false_value);
    LOOM_NODE_TYPE(Select);
};

/// Known alignment of an index: index == modulus * k + remainder for some integer k.
struct ModulusRemainder {
    int64_t modulus = 1, remainder = 0;
    ModulusRemainder() = default;
    ModulusRemainder(int64_t m, int64_t r) : modulus(m), remainder(r) {}
};

/// A load from a flat buffer (after storage flattening): element `index` (in elements of
/// type.element_of()) of the allocation or input named `name`. A vector index loads a vector.
/// `predicate` (all-true when unpredicated) masks lanes.
struct Load : ExprNode<Load> {
    using ExprNode::ExprNode;
    std::string name;
    Expr index, predicate;
    Parameter param; ///< set when loading from an input buffer
    ModulusRemainder alignment;
    static Expr make(Type t, const std::string &name, Expr index, Expr predicate,
                     const Parameter &param = Parameter(),
                     ModulusRemainder alignment = ModulusRemainder());
    LOOM_NODE_TYPE(Load);
};

/// The vector [base, base + stride, ..., base + (lanes-1)*stride].
struct Ramp : ExprNode<Ramp> {
    using ExprNode::ExprNode;
    Expr base, stride;
    int lanes;
    static Expr make(Expr base, Expr stride, int lanes);
    LOOM_NODE_TYPE(Ramp);
};

/// A scalar (or vector) repeated `lanes` times.
struct Broadcast : ExprNode<Broadcast> {
    using ExprNode::ExprNode;
    Expr value;
    int lanes;
    static Expr make(Expr value, int lanes);
    LOOM_NODE_TYPE(Broadcast);
};

/// `name` bound to `value` within `body`.
struct Let : ExprNode<Let> {
    using ExprNode::ExprNode;
    std::string name;
    Expr value, body;
    static Expr make(const std::string &name, Expr value, Expr body);
    LOOM_NODE_TYPE(Let);
};

/// A call: to a Func (Halide, before lowering replaces it), to an input buffer (Image, before
/// storage flattening), to a C function (Extern / PureExtern), or an intrinsic.
struct Call : ExprNode<Call> {
    using ExprNode::ExprNode;
    enum CallType {
        Image,           ///< read of an input buffer or bound Buffer (param holds it)
        Extern,          ///< C function with side effects
        ExternCPlusPlus, ///< C++ function (mangled name)
        PureExtern,      ///< C function without side effects (math functions)
        Halide,          ///< read of a Func (func holds it)
        Intrinsic,       ///< a Loom intrinsic with side effects
        PureIntrinsic,   ///< a Loom intrinsic without side effects
    };
    /// Intrinsic names: Call::make with one of these and call type (Pure)Intrinsic.
    static constexpr const char *bitwise_and = "bitwise_and";
    static constexpr const char *bitwise_or = "bitwise_or";
    static constexpr const char *bitwise_xor = "bitwise_xor";
    static constexpr const char *bitwise_not = "bitwise_not";
    static constexpr const char *shift_left = "shift_left";
    static constexpr const char *shift_right = "shift_right";
    static constexpr const char *abs = "abs";   ///< result is the unsigned type for ints
    static constexpr const char *absd = "absd"; ///< |a - b| without overflow, unsigned result
    static constexpr const char *count_leading_zeros = "count_leading_zeros";
    static constexpr const char *count_trailing_zeros = "count_trailing_zeros";
    static constexpr const char *popcount = "popcount";
    static constexpr const char *lerp = "lerp";
    static constexpr const char *likely = "likely";
    static constexpr const char *likely_if_innermost = "likely_if_innermost";
    static constexpr const char *promise_clamped = "promise_clamped";
    static constexpr const char *unsafe_promise_clamped = "unsafe_promise_clamped";
    static constexpr const char *strict_float = "strict_float";
    static constexpr const char *if_then_else = "if_then_else"; ///< lazily evaluated select
    static constexpr const char *return_second = "return_second";
    static constexpr const char *undef = "undef";
    static constexpr const char *require = "require";
    static constexpr const char *stringify = "stringify"; ///< args printed into a string
    static constexpr const char *div_round_to_zero = "div_round_to_zero";
    static constexpr const char *mod_round_to_zero = "mod_round_to_zero";
    static constexpr const char *mul_shift_right = "mul_shift_right";
    static constexpr const char *saturating_add = "saturating_add";
    static constexpr const char *saturating_sub = "saturating_sub";
    static constexpr const char *saturating_cast = "saturating_cast";
    static constexpr const char *widening_add = "widening_add";
    static constexpr const char *widening_mul = "widening_mul";
    static constexpr const char *rounding_halving_add = "rounding_halving_add";
    static constexpr const char *halving_add = "halving_add";
    static constexpr const char *random = "random";
    static constexpr const char *buffer_get_host = "_halide_buffer_get_host";
    static constexpr const char *buffer_get_min = "_halide_buffer_get_min";
    static constexpr const char *buffer_get_extent = "_halide_buffer_get_extent";
    static constexpr const char *buffer_get_stride = "_halide_buffer_get_stride";
    static constexpr const char *buffer_get_dimensions = "_halide_buffer_get_dimensions";
    static constexpr const char *buffer_get_type =
        "_halide_buffer_get_type"; ///< packed code|bits<<8|lanes<<16
    static constexpr const char *buffer_is_bounds_query = "_halide_buffer_is_bounds_query";
    static constexpr const char *buffer_set_bounds =
        "_halide_buffer_set_bounds"; ///< (buf, dim, min, extent)
    static constexpr const char *buffer_init_strides =
        "_halide_buffer_init_strides"; ///< dense strides for a query
    /// make_struct(a, b, ...): a pointer to a struct holding the values (C layout, storage
    /// types: bool is a byte), live until the function returns.
    static constexpr const char *make_struct = "make_struct";
    /// load_struct_member(ptr, make_struct(<a value of each member's type>), i): member i of the
    /// struct at ptr laid out as that make_struct would (its values are only a shape, never
    /// evaluated). Reads a closure (lower/lower_parallel_tasks.h).
    static constexpr const char *load_struct_member = "load_struct_member";
    /// prefetch(element, bytes): hint that `bytes` bytes from the element's address (a Load
    /// after storage flattening; a call before) will be read soon. Never changes values.
    static constexpr const char *prefetch = "prefetch";
    /// register_destructor(StringImm fn, handle): only as the value of a LetStmt (type
    /// Handle, the handle). When the LetStmt's body ends, normally or by an error return
    /// from inside it, the generated code calls the C function fn(user_context, handle).
    static constexpr const char *register_destructor = "register_destructor";
    /// gpu_launch(StringImm kernel, blocks x, y, z, threads x, y, z, shared bytes, args...):
    /// launches kernel (a LoweredKernel of the function) through its API's halide_<api>_run,
    /// passing each scalar argument's value and each buffer argument's device handle (the
    /// argument is the buffer's halide_buffer_t*). Int(32): 0 or the runtime's error code.
    static constexpr const char *gpu_launch = "loom_gpu_launch";
    /// gpu_thread_barrier(): inside a GPU kernel, waits until every thread of the block has
    /// reached it, with their writes to shared and global memory visible (Int(32), Evaluate).
    static constexpr const char *gpu_thread_barrier = "loom_gpu_thread_barrier";

    std::string name;
    std::vector<Expr> args;
    CallType call_type;
    /// For Halide calls: the Function (a FunctionContents, see src/lang/function.h).
    IntrusivePtr<RefCounted> func;
    /// For calls to Tuple-valued Funcs: which element.
    int value_index = 0;
    /// For Image calls: the input.
    Parameter param;

    static Expr make(Type t, const std::string &name, const std::vector<Expr> &args,
                     CallType call_type, const IntrusivePtr<RefCounted> &func = nullptr,
                     int value_index = 0, const Parameter &param = Parameter());

    bool is_intrinsic(const char *n) const {
        return (call_type == Intrinsic || call_type == PureIntrinsic) && name == n;
    }
    bool is_pure() const {
        return call_type == PureExtern || call_type == Image || call_type == PureIntrinsic ||
               call_type == Halide;
    }
    LOOM_NODE_TYPE(Call);
};

/// Concatenate `vectors` and pick `indices` from the concatenation.
struct Shuffle : ExprNode<Shuffle> {
    using ExprNode::ExprNode;
    std::vector<Expr> vectors;
    std::vector<int> indices;
    static Expr make(const std::vector<Expr> &vectors, const std::vector<int> &indices);
    static Expr make_concat(const std::vector<Expr> &vectors);
    static Expr make_slice(Expr vector, int begin, int stride, int size);
    static Expr make_extract_element(Expr vector, int i);
    static Expr make_interleave(const std::vector<Expr> &vectors);
    LOOM_NODE_TYPE(Shuffle);
};

/// Reduce groups of adjacent lanes of `value` with `op`, giving `lanes` lanes.
struct VectorReduce : ExprNode<VectorReduce> {
    using ExprNode::ExprNode;
    enum Operator { Add, Mul, Min, Max, And, Or };
    Operator op;
    Expr value;
    static Expr make(Operator op, Expr value, int lanes);
    LOOM_NODE_TYPE(VectorReduce);
};

// ---- Statements ----
struct LetStmt : StmtNode<LetStmt> {
    std::string name;
    Expr value;
    Stmt body;
    static Stmt make(const std::string &name, Expr value, Stmt body);
    LOOM_NODE_TYPE(LetStmt);
};

/// If `condition` is false, evaluate `message` (an Int(32) call to a runtime halide_error_*
/// function that reports the error and returns its code) and return that code.
struct AssertStmt : StmtNode<AssertStmt> {
    Expr condition, message;
    static Stmt make(Expr condition, Expr message);
    LOOM_NODE_TYPE(AssertStmt);
};

/// Marks the production (is_producer) or consumption of the Func `name`; no run-time effect.
struct ProducerConsumer : StmtNode<ProducerConsumer> {
    std::string name;
    bool is_producer;
    Stmt body;
    static Stmt make(const std::string &name, bool is_producer, Stmt body);
    static Stmt make_produce(const std::string &name, Stmt body) { return make(name, true, body); }
    static Stmt make_consume(const std::string &name, Stmt body) { return make(name, false, body); }
    LOOM_NODE_TYPE(ProducerConsumer);
};

enum class ForType : uint8_t {
    Serial,
    Parallel,
    Vectorized,
    Unrolled,
    Extern,
    GPUBlock,
    GPUThread,
    GPULane
};
/// The public enum (include/loom/device_api.h), so user code and the IR name the same type.
using DeviceAPI = ::loom::DeviceAPI;
/// The public enum (include/loom/memory_type.h), so Func::store_in and the IR name one type.
using MemoryType = ::loom::MemoryType;

/// Loop partitioning policy (Halide's Partition). Auto: partition where `likely` says the steady
/// state is; Never: leave the loop whole; Always: the user requires partitioning. The prologue
/// and epilogue loops partition_loops makes are Never: they run a few boundary iterations, so
/// code generation spends no compile time vectorizing them either.
enum class Partition : uint8_t { Auto, Never, Always };

/// for (name = min; name < min + extent; name++) body. min and extent are evaluated once.
struct For : StmtNode<For> {
    std::string name;
    Expr min, extent;
    ForType for_type;
    DeviceAPI device_api;
    Partition partition_policy;
    Stmt body;
    static Stmt make(const std::string &name, Expr min, Expr extent, ForType for_type,
                     DeviceAPI device_api, Stmt body, Partition partition_policy = Partition::Auto);
    /// This loop with another body; every other field kept (passes rebuild loops this way, so
    /// a field added to For is carried through them).
    Stmt with_body(Stmt body) const;
    /// This loop over [min, min + extent) with `body`.
    Stmt with_range(Expr min, Expr extent, Stmt body) const;
    /// This loop as a loop of kind `for_type` with `body`.
    Stmt with_for_type(ForType for_type, Stmt body) const;
    /// This loop with the partition policy `partition` and `body`.
    Stmt with_partition(Partition partition, Stmt body) const;
    LOOM_NODE_TYPE(For);
};

/// Store `value` at element `index` of the flat buffer `name` (after storage flattening).
struct Store : StmtNode<Store> {
    std::string name;
    Expr value, index, predicate;
    Parameter param; ///< set when storing into an output buffer
    ModulusRemainder alignment;
    static Stmt make(const std::string &name, Expr value, Expr index, Parameter param,
                     Expr predicate, ModulusRemainder alignment = ModulusRemainder());
    LOOM_NODE_TYPE(Store);
};

/// Multi-dimensional store of the value(s) of Func `name` at coordinates `args` (before
/// storage flattening). One value per Tuple element.
struct Provide : StmtNode<Provide> {
    std::string name;
    std::vector<Expr> values, args;
    Expr predicate;
    static Stmt make(const std::string &name, const std::vector<Expr> &values,
                     const std::vector<Expr> &args, Expr predicate);
    LOOM_NODE_TYPE(Provide);
};

/// A flat allocation of `type` elements, product(extents) of them, live within `body`.
struct Allocate : StmtNode<Allocate> {
    std::string name;
    Type type;
    MemoryType memory_type;
    std::vector<Expr> extents;
    Expr condition; ///< allocate only when true
    Stmt body;
    static Stmt make(const std::string &name, Type type, MemoryType memory_type,
                     const std::vector<Expr> &extents, Expr condition, Stmt body);
    LOOM_NODE_TYPE(Allocate);
};

/// Frees the allocation `name` (ends its lifetime early).
struct Free : StmtNode<Free> {
    std::string name;
    static Stmt make(const std::string &name);
    LOOM_NODE_TYPE(Free);
};

/// Multi-dimensional storage for Func `name` over `bounds` within `body` (before flattening).
struct Realize : StmtNode<Realize> {
    std::string name;
    std::vector<Type> types;
    MemoryType memory_type;
    Region bounds;
    Expr condition;
    Stmt body;
    static Stmt make(const std::string &name, const std::vector<Type> &types,
                     MemoryType memory_type, const Region &bounds, Expr condition, Stmt body);
    LOOM_NODE_TYPE(Realize);
};

/// first; rest
struct Block : StmtNode<Block> {
    Stmt first, rest;
    static Stmt make(Stmt first, Stmt rest);
    /// A right-nested sequence of the defined statements (undefined if none).
    static Stmt make(const std::vector<Stmt> &stmts);
    LOOM_NODE_TYPE(Block);
};

struct IfThenElse : StmtNode<IfThenElse> {
    Expr condition;
    Stmt then_case, else_case; ///< else_case may be undefined
    static Stmt make(Expr condition, Stmt then_case, Stmt else_case = Stmt());
    LOOM_NODE_TYPE(IfThenElse);
};

/// Evaluate an expression for its side effects.
struct Evaluate : StmtNode<Evaluate> {
    Expr value;
    static Stmt make(Expr value);
    LOOM_NODE_TYPE(Evaluate);
};

/// The body's updates of `producer_name` happen atomically.
struct Atomic : StmtNode<Atomic> {
    std::string producer_name, mutex_name;
    Stmt body;
    static Stmt make(const std::string &producer_name, const std::string &mutex_name, Stmt body);
    LOOM_NODE_TYPE(Atomic);
};

/// `first` and `rest` run concurrently, on different threads (an async producer and its
/// consumers, which synchronize through semaphores); done when both are. lower_parallel_tasks
/// turns every Fork into tasks for halide_do_parallel_tasks, so back ends never see one.
struct Fork : StmtNode<Fork> {
    Stmt first, rest;
    static Stmt make(Stmt first, Stmt rest);
    LOOM_NODE_TYPE(Fork);
};

#undef LOOM_NODE_TYPE

/// Scalar constants of a given type (broadcast when t is a vector).
Expr make_const(Type t, int64_t v);
Expr make_const(Type t, uint64_t v);
Expr make_const(Type t, double v);
inline Expr make_const(Type t, int v) { return make_const(t, (int64_t)v); }
Expr make_zero(Type t);
Expr make_one(Type t);
Expr make_bool(bool v, int lanes = 1);
Expr const_true(int lanes = 1);
Expr const_false(int lanes = 1);

} // namespace internal
} // namespace loom

#endif
