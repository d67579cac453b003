#ifndef LOOM_CODEGEN_LLVM_CODEGEN_LLVM_H
#define LOOM_CODEGEN_LLVM_CODEGEN_LLVM_H

/// \file LLVM code generation for CPUs: a LoweredFunc (the flat loop nest of
/// src/lower/lowered_func.h) becomes an llvm::Module. Only src/codegen/llvm and src/driver
/// include this header.
///
/// The module defines
///   int32_t <name>(void *__user_context, <args...>)
///       args in LoweredFunc order after args[0]; a buffer argument is a halide_buffer_t*
///       (ptr), a scalar is passed by value in its own type, except bool, passed as i8 (0 or 1)
///       so that C callers can pass a `bool` without relying on i1 ABI details. It returns 0,
///       or the value of the message of the first AssertStmt that failed;
/// and each of f.functions (parallel tasks) the same way, with internal linkage. The entry
/// points users call (the public function, argv, metadata) are the driver's, for JIT and AOT
/// alike: driver/aot_llvm.h.

#include <loom/target.h>

#include "codegen/llvm/llvm_headers.h"
#include "ir/ir_visitor.h"
#include "lower/lowered_func.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Generates the module for `f` with `tm`'s data layout and triple, and verifies it (a module
/// that fails llvm::verifyModule throws InternalError with the IR dumped). The module is not
/// optimized; see optimize_module.
///
/// f's GPU kernels (LoweredFunc::kernels) are compiled for `target`'s device features
/// (codegen/device_code.h) into one device module per API, embedded in the host module as a
/// constant and launched by the gpu_launch intrinsic.
std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                           llvm::TargetMachine &tm,
                                           const Target &target = Target());

/// codegen_llvm for x86 targets: CodeGenLLVM with x86 instruction selection for some idioms
/// (pmaddwd, pmulhrsw, ...; codegen_x86.cpp). codegen_llvm calls it for x86 triples.
std::unique_ptr<llvm::Module> codegen_x86(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                          llvm::TargetMachine &tm, const Target &target);

/// Runs LLVM's default -O3 pipeline for `tm` with the SLP vectorizer; LLVM's loop vectorizer,
/// interleaver and unrollers only when `llvm_loop_opt` (Target::EnableLLVMLoopOpt), as in
/// Halide. Float semantics come from the fast-math flags on each instruction
/// (CodeGenLLVM::default_fast_math_flags).
void optimize_module(llvm::Module &m, llvm::TargetMachine &tm, bool llvm_loop_opt = false);

class AtomicCodeGen;

/// The code generator. One instance compiles one LoweredFunc; architecture-specific subclasses
/// may override the visit methods (e.g. to pick better instructions for some intrinsics).
class CodeGenLLVM : public IRVisitor {
public:
    /// `target` says what f's GPU kernels are compiled for (see codegen_llvm).
    CodeGenLLVM(llvm::LLVMContext &ctx, llvm::TargetMachine &tm, const Target &target = Target());
    ~CodeGenLLVM() override;

    /// Builds the module for f (see codegen_llvm for the functions it defines).
    std::unique_ptr<llvm::Module> compile(const LoweredFunc &f);

protected:
    using IRVisitor::visit;

    // ---- Functions ----
    /// Declares f's function (its signature from f.args) with `linkage` and the target's
    /// attributes.
    llvm::Function *declare_function(const LoweredFunc &f, llvm::GlobalValue::LinkageTypes linkage);
    /// Generates f's body into `fn`: setup (entry block, arguments as symbols), body, finish
    /// (return 0). Saves and restores the state of the function being generated, so it can run
    /// in the middle of another one.
    void generate_function(const LoweredFunc &f, llvm::Function *fn);
    /// The internal function (LoweredFunc::functions) named `name`, generated now if it was not
    /// yet; null when there is none of that name.
    llvm::Function *function_reference(const std::string &name);

    // ---- Values ----
    /// Emits e and returns its value (i1 for bools, vectors for vector types).
    llvm::Value *codegen(const Expr &e);
    /// Emits s at the current insertion point.
    void codegen(const Stmt &s);

    /// The fast-math flags every float instruction gets outside strict_float (Halide's set
    /// minus nnan/ninf).
    static llvm::FastMathFlags default_fast_math_flags();

    // ---- Types ----
    /// The SSA type of t: bool is i1, handles are ptr, vectors are fixed vectors.
    llvm::Type *llvm_type_of(Type t) const;
    /// The in-memory / ABI type of t: like llvm_type_of but bool is i8.
    llvm::Type *llvm_storage_type_of(Type t) const;

    // ---- Symbols ----
    void sym_push(const std::string &name, llvm::Value *v);
    void sym_pop(const std::string &name);
    /// The innermost binding of name; internal_error when unbound.
    llvm::Value *sym_get(const std::string &name) const;
    bool sym_exists(const std::string &name) const;

    // ---- Helpers ----
    /// An alloca in the function's entry block (so it is allocated once, whatever loop it sits
    /// in), aligned to `align` bytes, or to the type's ABI alignment where that is more.
    llvm::AllocaInst *create_entry_alloca(llvm::Type *t, uint64_t count, unsigned align,
                                          const std::string &name);
    /// A splat of scalar v to `lanes` lanes (v itself when lanes == 1).
    llvm::Value *splat(llvm::Value *v, int lanes);
    /// A constant of type t (scalar or splat).
    llvm::Value *const_int(Type t, int64_t v);
    /// Converts between SSA and storage types (bool i1 <-> i8).
    llvm::Value *to_storage(llvm::Value *v, Type t);
    llvm::Value *from_storage(llvm::Value *v, Type t);
    /// Value conversion with Cast's semantics.
    llvm::Value *cast_value(llvm::Value *v, Type from, Type to);
    /// Integer/float min/max/compare helpers with the semantics of the IR nodes.
    llvm::Value *emit_min(llvm::Value *a, llvm::Value *b, Type t);
    llvm::Value *emit_max(llvm::Value *a, llvm::Value *b, Type t);
    llvm::Value *emit_lt(llvm::Value *a, llvm::Value *b, Type t);
    /// Euclidean division / modulus (zero divisor gives zero).
    llvm::Value *emit_div(const Expr &a, const Expr &b, Type t);
    llvm::Value *emit_mod(const Expr &a, const Expr &b, Type t);
    /// C (round toward zero) division / remainder; zero divisor gives zero.
    llvm::Value *emit_div_round_to_zero(llvm::Value *a, llvm::Value *b, Type t, bool is_mod);
    /// A call to an intrinsic overloaded on the types of its arguments' first element.
    llvm::Value *call_intrin(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type *> types,
                             llvm::ArrayRef<llvm::Value *> args);
    /// Declares (once) and calls the C function `name`.
    llvm::Value *call_c(const std::string &name, llvm::Type *ret,
                        llvm::ArrayRef<llvm::Value *> args);
    /// Calls `scalar_fn` per lane of vector arguments and reassembles the result.
    llvm::Value *
    scalarize(const std::vector<llvm::Value *> &args, Type result,
              const std::function<llvm::Value *(const std::vector<llvm::Value *> &)> &scalar_fn);
    /// The address of element `index` (an integer, or a vector of them for a gather or a
    /// scatter) of buffer `name` of element type t.
    llvm::Value *element_address(const std::string &name, Type t, llvm::Value *index);
    /// The address of element `index` + `offset` (a scalar Expr): an Int(32) index is computed
    /// in 64-bit arithmetic (see codegen_vector.cpp).
    llvm::Value *element_address(const std::string &name, Type t, const Expr &index,
                                 int64_t offset = 0);
    /// Returns `code` from the function after running the cleanups in scope (freeing live
    /// allocations, calling registered destructors).
    void emit_error_return(llvm::Value *code);
    /// An atomic() update's stores as atomic read-modify-writes or under a lock
    /// (codegen_atomic.cpp).
    void codegen_atomic(const Atomic *op);
    /// Whether codegen_atomic runs op's body under a lock (neither one atomicrmw nor a
    /// compare-and-swap loop does it).
    static bool atomic_needs_lock(const Atomic *op);
    friend class AtomicCodeGen;
    /// The prefetch intrinsic as llvm.prefetch of each cache line (codegen_prefetch.cpp).
    llvm::Value *codegen_prefetch(const Call *op);
    /// Tags a load or store of buffer `name` with type-based alias metadata unique to that
    /// name, telling LLVM that accesses to different buffers/allocations never alias (Halide's
    /// assumption too). Returns v.
    llvm::Value *add_tbaa(llvm::Value *v, const std::string &name);
    /// A global constant C string.
    llvm::Value *string_constant(const std::string &s);

    // ---- Calls (codegen_intrinsics.cpp) ----
    llvm::Value *codegen_intrinsic(const Call *op);
    llvm::Value *codegen_math(const Call *op, bool *handled);
    llvm::Value *codegen_extern(const Call *op);
    llvm::Value *codegen_buffer_intrinsic(const Call *op, bool *handled);
    llvm::Value *codegen_stringify(const Call *op);
    /// The trace intrinsic (src/lower/inject_tracing.h) as a call to halide_trace_helper
    /// (codegen_trace.cpp).
    llvm::Value *codegen_trace(const Call *op);
    llvm::Value *codegen_lerp(const Call *op);
    llvm::Value *codegen_shift(const Call *op, bool left);
    llvm::Value *codegen_saturating_cast(llvm::Value *v, Type from, Type to);
    /// The gpu_launch intrinsic: the kernel's module is loaded (once per context) by
    /// halide_<api>_initialize_kernels, then the kernel runs through halide_<api>_run
    /// (codegen_gpu_launch.cpp).
    llvm::Value *codegen_gpu_launch(const Call *op);

    // ---- Visitors ----
    void visit(const IntImm *) override;
    void visit(const UIntImm *) override;
    void visit(const FloatImm *) override;
    void visit(const StringImm *) override;
    void visit(const Cast *) override;
    void visit(const Reinterpret *) override;
    void visit(const Variable *) override;
    void visit(const Add *) override;
    void visit(const Sub *) override;
    void visit(const Mul *) override;
    void visit(const Div *) override;
    void visit(const Mod *) override;
    void visit(const Min *) override;
    void visit(const Max *) override;
    void visit(const EQ *) override;
    void visit(const NE *) override;
    void visit(const LT *) override;
    void visit(const LE *) override;
    void visit(const GT *) override;
    void visit(const GE *) override;
    void visit(const And *) override;
    void visit(const Or *) override;
    void visit(const Not *) override;
    void visit(const Select *) override;
    void visit(const Load *) override;
    void visit(const Ramp *) override;
    void visit(const Broadcast *) override;
    void visit(const Let *) override;
    void visit(const Call *) override;
    void visit(const Shuffle *) override;
    void visit(const VectorReduce *) override;
    void visit(const LetStmt *) override;
    void visit(const AssertStmt *) override;
    void visit(const ProducerConsumer *) override;
    void visit(const For *) override;
    void visit(const Store *) override;
    void visit(const Provide *) override;
    void visit(const Allocate *) override;
    void visit(const Free *) override;
    void visit(const Realize *) override;
    void visit(const Block *) override;
    void visit(const IfThenElse *) override;
    void visit(const Evaluate *) override;
    void visit(const Atomic *) override;
    void visit(const Fork *) override;

    /// Whether e is an integer constant (IntImm, UIntImm below 2^63, or a Broadcast of one).
    static bool constant_int_value(const Expr &e, int64_t *v);
    /// Whether e is the constant true (scalar or broadcast).
    static bool is_all_true(const Expr &e);

    /// Comparison shared by EQ..GE: picks the signed/unsigned/ordered-float predicate.
    llvm::Value *emit_compare(IRNodeType kind, const Expr &a, const Expr &b);

    llvm::LLVMContext &context_;
    llvm::TargetMachine &target_machine_;
    std::unique_ptr<llvm::Module> module_;
    std::unique_ptr<llvm::IRBuilder<>> builder_;
    llvm::Function *function_ = nullptr;
    llvm::BasicBlock *entry_block_ = nullptr;
    /// The result of the last Expr visited.
    llvm::Value *value_ = nullptr;
    /// The "__user_context" argument.
    llvm::Value *user_context_ = nullptr;
    std::map<std::string, std::vector<llvm::Value *>> symbols_;
    llvm::MDNode *tbaa_root_ = nullptr;
    std::map<std::string, llvm::MDNode *> tbaa_tags_;
    std::map<std::string, llvm::Value *> strings_;

    /// What an error return must release: a heap allocation in scope, or a destructor
    /// registered by a LetStmt (Call::register_destructor) whose body is being generated. The
    /// slot (an entry-block alloca) holds the pointer passed to `function`(user_context, p);
    /// a heap allocation's is null once freed, so a Free and every early return free it at
    /// most once.
    struct Cleanup {
        std::string name;
        llvm::Value *slot;
        std::string function; ///< "halide_free" for heap allocations
    };
    std::vector<Cleanup> cleanups_;
    /// Emits the call of c's function on its slot's pointer, unless that is null.
    void run_cleanup(const Cleanup &c);
    /// The state of one function being generated (generate_function nests them).
    struct FunctionState {
        llvm::Function *function;
        llvm::BasicBlock *entry_block;
        llvm::Value *user_context;
        std::map<std::string, std::vector<llvm::Value *>> symbols;
        std::vector<Cleanup> cleanups;
    };
    /// The module's internal functions, by name.
    struct InternalFunction {
        const LoweredFunc *lowered = nullptr;
        llvm::Function *fn = nullptr;
        bool generated = false;
    };
    std::map<std::string, InternalFunction> internal_functions_;
    /// The alignment in bytes of the base of each allocation in scope, by name
    /// (codegen_vector.cpp: vector loads and stores at provably aligned offsets use it).
    std::map<std::string, int> allocation_alignment_;

    /// What GPU kernels are compiled for; the kernels of the function being compiled, by name;
    /// the device module of each API (PTX, OpenCL C) and its module-state global.
    Target target_;
    std::map<std::string, const LoweredKernel *> kernels_;
    std::map<DeviceAPI, std::string> device_modules_;
    std::map<DeviceAPI, llvm::GlobalVariable *> device_module_states_;

    llvm::Type *i1_t = nullptr, *i8_t = nullptr, *i16_t = nullptr, *i32_t = nullptr,
               *i64_t = nullptr, *f32_t = nullptr, *f64_t = nullptr, *ptr_t = nullptr;
    llvm::Type *void_t = nullptr;
};

} // namespace internal
} // namespace loom

#endif
