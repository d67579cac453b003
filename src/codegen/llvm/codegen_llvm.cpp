// CodeGenLLVM core: module and function setup, types, scalar arithmetic,
// casts, comparisons and control flow. Memory (Load/Store/Allocate/Free) and vector nodes are
// in codegen_vector.cpp, calls in codegen_intrinsics.cpp.
#include "codegen/llvm/codegen_llvm.h"

#include "codegen/device_code.h"
#include "support/error.h"

namespace loom {
namespace internal {

using llvm::Value;

std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                           llvm::TargetMachine &tm, const Target &target) {
    if (tm.getTargetTriple().isX86()) return codegen_x86(f, ctx, tm, target);
    CodeGenLLVM cg(ctx, tm, target);
    return cg.compile(f);
}

void optimize_module(llvm::Module &m, llvm::TargetMachine &tm, bool llvm_loop_opt) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // Halide's configuration: LLVM's loop vectorizer, interleaver and unrollers only with
    // Target::EnableLLVMLoopOpt. Loops are vectorized and unrolled by the schedule; LLVM's
    // copies of them were a quarter to a third of the JIT time of the apps that compile
    // slower than Halide (nl_means 691 -> 517 ms, local_laplacian 2726 -> 1570, max_filter
    // 350 -> 253 on a Zen 4 VM) and no app's run time moved beyond the machine's noise, which
    // also leaves the generated loops as Halide's are. The SLP vectorizer stays on (Halide's
    // default too): it packs scalar code an unrolled schedule leaves.
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = llvm_loop_opt;
    pto.LoopInterleaving = llvm_loop_opt;
    pto.LoopUnrolling = llvm_loop_opt;
    pto.SLPVectorization = true;
    // With loop optimizations on: rebuilding scalar evolution is cheaper than updating it
    // after each unrolled loop (Halide sets this too).
    pto.ForgetAllSCEVInLoopUnroll = true;
    // LLVM's standard instrumentation, for HL_LLVM_ARGS such as -time-passes or
    // -print-after-all.
    llvm::PassInstrumentationCallbacks pic;
    llvm::StandardInstrumentations si(m.getContext(), /*DebugLogging=*/false);
    si.registerCallbacks(pic, &mam);
    llvm::PassBuilder pb(&tm, pto, std::nullopt, &pic);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(m, mam);
}

CodeGenLLVM::CodeGenLLVM(llvm::LLVMContext &ctx, llvm::TargetMachine &tm, const Target &target)
    : context_(ctx), target_machine_(tm), target_(target) {
    i1_t = llvm::Type::getInt1Ty(ctx);
    i8_t = llvm::Type::getInt8Ty(ctx);
    i16_t = llvm::Type::getInt16Ty(ctx);
    i32_t = llvm::Type::getInt32Ty(ctx);
    i64_t = llvm::Type::getInt64Ty(ctx);
    f32_t = llvm::Type::getFloatTy(ctx);
    f64_t = llvm::Type::getDoubleTy(ctx);
    ptr_t = llvm::PointerType::get(ctx, 0);
    void_t = llvm::Type::getVoidTy(ctx);
}

CodeGenLLVM::~CodeGenLLVM() = default;

llvm::FastMathFlags CodeGenLLVM::default_fast_math_flags() {
    // Halide's float semantics: the compiler may contract a * b + c into an FMA, reassociate,
    // use approximate functions, and ignore the sign of zero, but, as in Halide, not replace a
    // division by a multiplication with the reciprocal (two roundings, so results would differ
    // from Halide's in the last bit even where nothing is reassociated); strict_float()
    // and Target::StrictFloat turn this off. Unlike Halide, NaNs and infinities are not
    // assumed away, so is_nan/is_inf/is_finite see the true value (reassociation may still
    // change whether an intermediate overflows: x * 0 + x may become x).
    llvm::FastMathFlags f;
    f.setAllowContract(true);
    f.setAllowReassoc();
    f.setApproxFunc();
    f.setNoSignedZeros();
    return f;
}

namespace {

// Every function gets the host's CPU and features so the optimizer's cost model and the
// instruction selector use AVX2/AVX-512 where present.
void set_function_attributes(llvm::Function *fn, llvm::TargetMachine &tm) {
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    if (!tm.getTargetCPU().empty()) fn->addFnAttr("target-cpu", tm.getTargetCPU());
    if (!tm.getTargetFeatureString().empty()) {
        fn->addFnAttr("target-features", tm.getTargetFeatureString());
    }
}

} // namespace

llvm::Function *CodeGenLLVM::declare_function(const LoweredFunc &f,
                                              llvm::GlobalValue::LinkageTypes linkage) {
    internal_assert(!f.args.empty() && f.args[0].name == "__user_context")
        << "LoweredFunc " << f.name << ": args[0] must be __user_context\n";
    internal_assert(f.body.defined()) << "LoweredFunc " << f.name << " has no body\n";
    std::vector<llvm::Type *> arg_types{ptr_t};
    for (size_t i = 1; i < f.args.size(); i++) {
        const LoweredArgument &a = f.args[i];
        arg_types.push_back(a.is_buffer() ? ptr_t : llvm_storage_type_of(a.type));
    }
    llvm::FunctionType *fn_type = llvm::FunctionType::get(i32_t, arg_types, false);
    llvm::Function *fn = llvm::Function::Create(fn_type, linkage, f.name, module_.get());
    set_function_attributes(fn, target_machine_);
    return fn;
}

void CodeGenLLVM::generate_function(const LoweredFunc &f, llvm::Function *fn) {
    // Set up: a fresh entry block and symbol table holding the arguments.
    llvm::IRBuilderBase::InsertPointGuard guard(*builder_);
    FunctionState outer{function_, entry_block_, user_context_, {}, {}};
    outer.symbols.swap(symbols_);
    outer.cleanups.swap(cleanups_);
    function_ = fn;
    entry_block_ = llvm::BasicBlock::Create(context_, "entry", function_);
    builder_->SetInsertPoint(entry_block_);
    user_context_ = function_->getArg(0);
    user_context_->setName("__user_context");
    sym_push("__user_context", user_context_);
    for (size_t i = 1; i < f.args.size(); i++) {
        const LoweredArgument &a = f.args[i];
        Value *arg = function_->getArg(i);
        if (a.is_buffer()) {
            arg->setName(a.name + ".buffer");
            sym_push(a.name + ".buffer", arg);
        } else {
            arg->setName(a.name);
            sym_push(a.name, from_storage(arg, a.type));
        }
    }
    // The body; reaching its end returns 0.
    codegen(f.body);
    builder_->CreateRet(llvm::ConstantInt::get(i32_t, 0));
    // Back to the function being generated before (this one may have been met inside it).
    function_ = outer.function;
    entry_block_ = outer.entry_block;
    user_context_ = outer.user_context;
    symbols_.swap(outer.symbols);
    cleanups_.swap(outer.cleanups);
}

llvm::Function *CodeGenLLVM::function_reference(const std::string &name) {
    auto it = internal_functions_.find(name);
    if (it == internal_functions_.end()) return nullptr;
    InternalFunction &f = it->second;
    if (!f.generated) {
        f.generated = true;
        generate_function(*f.lowered, f.fn);
    }
    return f.fn;
}

std::unique_ptr<llvm::Module> CodeGenLLVM::compile(const LoweredFunc &f) {
    module_ = std::make_unique<llvm::Module>(f.name, context_);
    module_->setTargetTriple(target_machine_.getTargetTriple().str());
    module_->setDataLayout(target_machine_.createDataLayout());
    builder_ = std::make_unique<llvm::IRBuilder<>>(context_);
    builder_->setFastMathFlags(default_fast_math_flags());

    // Every function is declared first, so that any body may refer to any of them. An internal
    // function's body is generated where it is first referenced (a task at its launch), inside
    // the referencing function's state: what that function knows about the buffers it passes
    // (their alignment) then holds in the task too.
    // The device modules first: launches refer to them.
    std::map<DeviceAPI, std::vector<LoweredKernel>> by_api;
    for (const LoweredKernel &k : f.kernels) {
        kernels_[k.name] = &k;
        by_api[k.api].push_back(k);
    }
    for (const auto &[api, kernels] : by_api) {
        device_modules_[api] = compile_device_kernels(api, kernels, target_);
    }

    llvm::Function *entry = declare_function(f, llvm::Function::ExternalLinkage);
    for (const LoweredFunc &g : f.functions) {
        internal_functions_[g.name] = {&g, declare_function(g, llvm::Function::InternalLinkage)};
    }
    generate_function(f, entry);
    for (const LoweredFunc &g : f.functions) function_reference(g.name);

    std::string err;
    llvm::raw_string_ostream err_os(err);
    if (llvm::verifyModule(*module_, &err_os)) {
        std::string ir;
        llvm::raw_string_ostream ir_os(ir);
        module_->print(ir_os, nullptr);
        internal_error << "The LLVM module for " << f.name << " failed to verify:\n"
                       << err_os.str() << "\n"
                       << ir_os.str();
    }
    return std::move(module_);
}

// ---- Values and types ----

Value *CodeGenLLVM::codegen(const Expr &e) {
    internal_assert(e.defined()) << "codegen of an undefined Expr\n";
    value_ = nullptr;
    dispatch(e);
    internal_assert(value_) << "codegen produced no value for a " << node_type_name(e.node_type())
                            << "\n";
    Value *v = value_;
    value_ = nullptr;
    return v;
}

void CodeGenLLVM::codegen(const Stmt &s) {
    if (s.defined()) dispatch(s);
}

llvm::Type *CodeGenLLVM::llvm_type_of(Type t) const {
    llvm::Type *e = nullptr;
    switch (t.code()) {
    case Type::Int:
    case Type::UInt:
        e = llvm::IntegerType::get(context_, t.bits());
        break;
    case Type::Float:
        e = t.bits() == 16   ? llvm::Type::getHalfTy(context_)
            : t.bits() == 32 ? f32_t
            : t.bits() == 64 ? f64_t
                             : nullptr;
        break;
    case Type::BFloat:
        e = t.bits() == 16 ? llvm::Type::getBFloatTy(context_) : nullptr;
        break;
    case Type::Handle:
        e = ptr_t;
        break;
    }
    internal_assert(e) << "No LLVM type for " << t << "\n";
    return t.is_scalar() ? e : llvm::FixedVectorType::get(e, t.lanes());
}

llvm::Type *CodeGenLLVM::llvm_storage_type_of(Type t) const {
    return t.is_bool() ? llvm_type_of(UInt(8, t.lanes())) : llvm_type_of(t);
}

Value *CodeGenLLVM::to_storage(Value *v, Type t) {
    return t.is_bool() ? builder_->CreateZExt(v, llvm_storage_type_of(t)) : v;
}

Value *CodeGenLLVM::from_storage(Value *v, Type t) {
    return t.is_bool() ? builder_->CreateICmpNE(v, llvm::Constant::getNullValue(v->getType())) : v;
}

void CodeGenLLVM::sym_push(const std::string &name, Value *v) { symbols_[name].push_back(v); }

void CodeGenLLVM::sym_pop(const std::string &name) {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end() && !it->second.empty()) << "sym_pop of " << name << "\n";
    it->second.pop_back();
    if (it->second.empty()) symbols_.erase(it);
}

Value *CodeGenLLVM::sym_get(const std::string &name) const {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end())
        << "Symbol not found in code generation: " << name << "\n";
    return it->second.back();
}

bool CodeGenLLVM::sym_exists(const std::string &name) const { return symbols_.count(name) != 0; }

llvm::AllocaInst *CodeGenLLVM::create_entry_alloca(llvm::Type *t, uint64_t count, unsigned align,
                                                   const std::string &name) {
    llvm::IRBuilderBase::InsertPointGuard guard(*builder_);
    builder_->SetInsertPoint(entry_block_, entry_block_->getFirstInsertionPt());
    llvm::AllocaInst *a = builder_->CreateAlloca(
        t, count == 1 ? nullptr : llvm::ConstantInt::get(i64_t, count), name);
    // Never below the type's own alignment: loads and stores of it (a closure that captures a
    // 16 x i32 vector, say) assume that alignment, and x86 faults on an aligned vector move to
    // a less aligned address.
    llvm::Align abi = module_->getDataLayout().getABITypeAlign(t);
    a->setAlignment(std::max(llvm::Align(align), abi));
    return a;
}

Value *CodeGenLLVM::splat(Value *v, int lanes) {
    return lanes == 1 ? v : builder_->CreateVectorSplat(lanes, v);
}

Value *CodeGenLLVM::const_int(Type t, int64_t v) {
    return llvm::ConstantInt::get(llvm_type_of(t), (uint64_t)v, true);
}

Value *CodeGenLLVM::string_constant(const std::string &s) {
    Value *&g = strings_[s];
    if (!g) {
        // Aligned as Halide aligns its constants: a string passed as a handle may be read by
        // an extern as wider data.
        llvm::GlobalVariable *v = builder_->CreateGlobalString(s, "str", 0, module_.get());
        v->setAlignment(llvm::Align(32));
        g = v;
    }
    return g;
}

Value *CodeGenLLVM::add_tbaa(Value *v, const std::string &name) {
    llvm::MDBuilder md(context_);
    if (!tbaa_root_) tbaa_root_ = md.createTBAARoot("loom buffers");
    llvm::MDNode *&tag = tbaa_tags_[name];
    if (!tag) {
        llvm::MDNode *type = md.createTBAAScalarTypeNode(name, tbaa_root_);
        tag = md.createTBAAStructTagNode(type, type, 0);
    }
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(v)) {
        inst->setMetadata(llvm::LLVMContext::MD_tbaa, tag);
    }
    return v;
}

bool CodeGenLLVM::constant_int_value(const Expr &e, int64_t *v) {
    if (const Broadcast *b = e.as<Broadcast>()) return constant_int_value(b->value, v);
    if (const IntImm *i = e.as<IntImm>()) {
        *v = i->value;
        return true;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        if (u->value > (uint64_t)INT64_MAX) return false;
        *v = (int64_t)u->value;
        return true;
    }
    return false;
}

bool CodeGenLLVM::is_all_true(const Expr &e) {
    int64_t v;
    return e.type().is_bool() && constant_int_value(e, &v) && v == 1;
}

Value *CodeGenLLVM::call_intrin(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type *> types,
                                llvm::ArrayRef<Value *> args) {
    llvm::Function *fn = llvm::Intrinsic::getDeclaration(module_.get(), id, types);
    return builder_->CreateCall(fn, args);
}

Value *CodeGenLLVM::call_c(const std::string &name, llvm::Type *ret, llvm::ArrayRef<Value *> args) {
    std::vector<llvm::Type *> types;
    for (Value *a : args) types.push_back(a->getType());
    llvm::FunctionType *ft = llvm::FunctionType::get(ret, types, false);
    llvm::FunctionCallee callee = module_->getOrInsertFunction(name, ft);
    if (auto *fn = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
        fn->addFnAttr(llvm::Attribute::NoUnwind);
    }
    return builder_->CreateCall(callee, args);
}

// ---- Casts ----

Value *CodeGenLLVM::cast_value(Value *v, Type from, Type to) {
    if (from == to) return v;
    Type fe = from.element_of(), te = to.element_of();
    llvm::Type *dst = llvm_type_of(to);
    if (te.is_bool()) {
        // Halide: a cast to bool is a comparison with zero.
        if (fe.is_float()) {
            return builder_->CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
        }
        return builder_->CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    }
    if (fe.is_handle() || te.is_handle()) {
        if (fe.is_handle() && te.is_handle()) return v;
        if (fe.is_handle()) return builder_->CreatePtrToInt(v, dst);
        return builder_->CreateIntToPtr(
            builder_->CreateZExtOrTrunc(v, llvm_type_of(UInt(64, to.lanes()))), dst);
    }
    if (fe.is_float() && te.is_float()) return builder_->CreateFPCast(v, dst);
    if (fe.is_float()) {
        return te.is_int() ? builder_->CreateFPToSI(v, dst) : builder_->CreateFPToUI(v, dst);
    }
    if (te.is_float()) {
        return fe.is_int() ? builder_->CreateSIToFP(v, dst) : builder_->CreateUIToFP(v, dst);
    }
    // Integer to integer: the source's signedness decides the extension.
    if (te.bits() > fe.bits()) {
        return fe.is_int() ? builder_->CreateSExt(v, dst) : builder_->CreateZExt(v, dst);
    }
    if (te.bits() < fe.bits()) return builder_->CreateTrunc(v, dst);
    return v;
}

void CodeGenLLVM::visit(const IntImm *op) { value_ = const_int(op->type, op->value); }

void CodeGenLLVM::visit(const UIntImm *op) {
    value_ = llvm::ConstantInt::get(llvm_type_of(op->type), op->value, false);
}

void CodeGenLLVM::visit(const FloatImm *op) {
    value_ = llvm::ConstantFP::get(llvm_type_of(op->type), op->value);
}

void CodeGenLLVM::visit(const StringImm *op) { value_ = string_constant(op->value); }

void CodeGenLLVM::visit(const Cast *op) {
    value_ = cast_value(codegen(op->value), op->value.type(), op->type);
}

void CodeGenLLVM::visit(const Reinterpret *op) {
    Value *v = codegen(op->value);
    Type from = op->value.type(), to = op->type;
    llvm::Type *dst = llvm_type_of(to);
    if (from.is_handle() && !to.is_handle()) {
        value_ = builder_->CreatePtrToInt(v, dst);
    } else if (!from.is_handle() && to.is_handle()) {
        value_ = builder_->CreateIntToPtr(v, dst);
    } else {
        value_ = builder_->CreateBitCast(v, dst);
    }
}

void CodeGenLLVM::visit(const Variable *op) {
    // A variable naming a function of the module (a parallel task) is its address.
    llvm::Function *fn = sym_exists(op->name) ? nullptr : function_reference(op->name);
    value_ = fn ? fn : sym_get(op->name);
}

// ---- Arithmetic ----

// Int32 arithmetic is marked no-signed-wrap, as in Halide: int32 overflow in index math is an
// error the compiler may assume away, which lets LLVM widen induction variables.
void CodeGenLLVM::visit(const Add *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    Type t = op->type.element_of();
    if (t.is_float())
        value_ = builder_->CreateFAdd(a, b);
    else if (t == Int(32))
        value_ = builder_->CreateNSWAdd(a, b);
    else
        value_ = builder_->CreateAdd(a, b);
}

void CodeGenLLVM::visit(const Sub *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    Type t = op->type.element_of();
    if (t.is_float())
        value_ = builder_->CreateFSub(a, b);
    else if (t == Int(32))
        value_ = builder_->CreateNSWSub(a, b);
    else
        value_ = builder_->CreateSub(a, b);
}

void CodeGenLLVM::visit(const Mul *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    Type t = op->type.element_of();
    if (t.is_float())
        value_ = builder_->CreateFMul(a, b);
    else if (t == Int(32))
        value_ = builder_->CreateNSWMul(a, b);
    else
        value_ = builder_->CreateMul(a, b);
}

namespace {
bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
int log2_of(uint64_t v) {
    int k = 0;
    while ((uint64_t(1) << k) != v) k++;
    return k;
}
} // namespace

Value *CodeGenLLVM::emit_div(const Expr &ea, const Expr &eb, Type t) {
    Type e = t.element_of();
    if (e.is_float()) return builder_->CreateFDiv(codegen(ea), codegen(eb));
    Value *a = codegen(ea);
    llvm::Type *ty = a->getType();
    int64_t c;
    if (constant_int_value(eb, &c)) {
        // Constant divisors: shifts for powers of two; LLVM turns the rest into multiplies.
        uint64_t uc = (uint64_t)c;
        if (c == 0) return llvm::Constant::getNullValue(ty);
        if (c == 1) return a;
        if (e.is_uint()) {
            if (is_power_of_two(uc)) {
                return builder_->CreateLShr(a, llvm::ConstantInt::get(ty, log2_of(uc)));
            }
            return builder_->CreateUDiv(a, llvm::ConstantInt::get(ty, uc));
        }
        if (c > 0 && is_power_of_two((uint64_t)c)) {
            return builder_->CreateAShr(a, llvm::ConstantInt::get(ty, log2_of((uint64_t)c)));
        }
        if (c == -1) return builder_->CreateNeg(a);
        Value *cv = llvm::ConstantInt::get(ty, (uint64_t)c, true);
        Value *q0 = builder_->CreateSDiv(a, cv);
        Value *r0 = builder_->CreateSRem(a, cv);
        Value *neg =
            builder_->CreateSExt(builder_->CreateICmpSLT(r0, llvm::Constant::getNullValue(ty)), ty);
        // r0 < 0: round toward -inf for c > 0 (q0 - 1), toward +inf for c < 0 (q0 + 1).
        return c > 0 ? builder_->CreateAdd(q0, neg) : builder_->CreateSub(q0, neg);
    }
    Value *b = codegen(eb);
    Value *zero = llvm::Constant::getNullValue(ty);
    Value *one = llvm::ConstantInt::get(ty, 1);
    Value *b_zero = builder_->CreateICmpEQ(b, zero);
    if (e.is_uint()) {
        Value *b_safe = builder_->CreateSelect(b_zero, one, b);
        return builder_->CreateSelect(b_zero, zero, builder_->CreateUDiv(a, b_safe));
    }
    // INT_MIN / -1 overflows in sdiv; dividing by 1 instead gives INT_MIN, which is the
    // wrapped result of -INT_MIN.
    Value *minus_one = llvm::Constant::getAllOnesValue(ty);
    Value *int_min = llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(e.bits()));
    Value *ovf = builder_->CreateAnd(builder_->CreateICmpEQ(a, int_min),
                                     builder_->CreateICmpEQ(b, minus_one));
    Value *b_safe = builder_->CreateSelect(builder_->CreateOr(b_zero, ovf), one, b);
    Value *q0 = builder_->CreateSDiv(a, b_safe);
    Value *r0 = builder_->CreateSRem(a, b_safe);
    Value *r_neg = builder_->CreateICmpSLT(r0, zero);
    Value *b_pos = builder_->CreateICmpSGT(b_safe, zero);
    Value *adj = builder_->CreateSelect(r_neg, builder_->CreateSelect(b_pos, minus_one, one), zero);
    return builder_->CreateSelect(b_zero, zero, builder_->CreateAdd(q0, adj));
}

Value *CodeGenLLVM::emit_mod(const Expr &ea, const Expr &eb, Type t) {
    Type e = t.element_of();
    if (e.is_float()) {
        // Halide's float modulus: a - b * floor(a / b).
        Value *a = codegen(ea), *b = codegen(eb);
        Value *q = builder_->CreateFDiv(a, b);
        Value *fl = call_intrin(llvm::Intrinsic::floor, {q->getType()}, {q});
        return builder_->CreateFSub(a, builder_->CreateFMul(b, fl));
    }
    Value *a = codegen(ea);
    llvm::Type *ty = a->getType();
    Value *zero = llvm::Constant::getNullValue(ty);
    int64_t c;
    if (constant_int_value(eb, &c)) {
        uint64_t uc = (uint64_t)c;
        if (c == 0 || c == 1 || (e.is_int() && c == -1)) return zero;
        if ((e.is_uint() || c > 0) && is_power_of_two(uc)) {
            return builder_->CreateAnd(a, llvm::ConstantInt::get(ty, uc - 1));
        }
        if (e.is_uint()) return builder_->CreateURem(a, llvm::ConstantInt::get(ty, uc));
        Value *r0 = builder_->CreateSRem(a, llvm::ConstantInt::get(ty, uc, true));
        // A negative remainder moves up by |c| (which wraps correctly for c == INT_MIN).
        Value *abs_c = llvm::ConstantInt::get(ty, c > 0 ? uc : (uint64_t)0 - uc, true);
        Value *r_neg = builder_->CreateICmpSLT(r0, zero);
        return builder_->CreateAdd(r0, builder_->CreateSelect(r_neg, abs_c, zero));
    }
    Value *b = codegen(eb);
    Value *one = llvm::ConstantInt::get(ty, 1);
    Value *b_zero = builder_->CreateICmpEQ(b, zero);
    if (e.is_uint()) {
        // x % 1 == 0, so a zero divisor already gives zero.
        return builder_->CreateURem(a, builder_->CreateSelect(b_zero, one, b));
    }
    Value *minus_one = llvm::Constant::getAllOnesValue(ty);
    Value *b_bad = builder_->CreateOr(b_zero, builder_->CreateICmpEQ(b, minus_one));
    Value *b_safe = builder_->CreateSelect(b_bad, one, b);
    Value *r0 = builder_->CreateSRem(a, b_safe);
    Value *r_neg = builder_->CreateICmpSLT(r0, zero);
    Value *abs_b = builder_->CreateSelect(builder_->CreateICmpSLT(b_safe, zero),
                                          builder_->CreateNeg(b_safe), b_safe);
    return builder_->CreateAdd(r0, builder_->CreateSelect(r_neg, abs_b, zero));
}

Value *CodeGenLLVM::emit_div_round_to_zero(Value *a, Value *b, Type t, bool is_mod) {
    Type e = t.element_of();
    if (e.is_float()) return is_mod ? builder_->CreateFRem(a, b) : builder_->CreateFDiv(a, b);
    llvm::Type *ty = a->getType();
    Value *zero = llvm::Constant::getNullValue(ty);
    Value *one = llvm::ConstantInt::get(ty, 1);
    Value *b_zero = builder_->CreateICmpEQ(b, zero);
    Value *b_bad = b_zero;
    if (e.is_int()) {
        Value *int_min = llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(e.bits()));
        Value *ovf =
            builder_->CreateAnd(builder_->CreateICmpEQ(a, int_min),
                                builder_->CreateICmpEQ(b, llvm::Constant::getAllOnesValue(ty)));
        b_bad = builder_->CreateOr(b_zero, ovf);
    }
    Value *b_safe = builder_->CreateSelect(b_bad, one, b);
    if (is_mod)
        return e.is_int() ? builder_->CreateSRem(a, b_safe) : builder_->CreateURem(a, b_safe);
    Value *q = e.is_int() ? builder_->CreateSDiv(a, b_safe) : builder_->CreateUDiv(a, b_safe);
    return builder_->CreateSelect(b_zero, zero, q);
}

void CodeGenLLVM::visit(const Div *op) { value_ = emit_div(op->a, op->b, op->type); }
void CodeGenLLVM::visit(const Mod *op) { value_ = emit_mod(op->a, op->b, op->type); }

Value *CodeGenLLVM::emit_lt(Value *a, Value *b, Type t) {
    Type e = t.element_of();
    if (e.is_float()) return builder_->CreateFCmpOLT(a, b);
    return e.is_int() ? builder_->CreateICmpSLT(a, b) : builder_->CreateICmpULT(a, b);
}

// Min and max are select(a < b, a, b) / select(b < a, a, b) as in Halide, which fixes which
// operand a NaN yields.
Value *CodeGenLLVM::emit_min(Value *a, Value *b, Type t) {
    Type e = t.element_of();
    if (e.is_int_or_uint() && !e.is_bool()) {
        return builder_->CreateBinaryIntrinsic(
            e.is_int() ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, a, b);
    }
    return builder_->CreateSelect(emit_lt(a, b, t), a, b);
}

Value *CodeGenLLVM::emit_max(Value *a, Value *b, Type t) {
    Type e = t.element_of();
    if (e.is_int_or_uint() && !e.is_bool()) {
        return builder_->CreateBinaryIntrinsic(
            e.is_int() ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a, b);
    }
    return builder_->CreateSelect(emit_lt(b, a, t), a, b);
}

void CodeGenLLVM::visit(const Min *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    value_ = emit_min(a, b, op->type);
}

void CodeGenLLVM::visit(const Max *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    value_ = emit_max(a, b, op->type);
}

Value *CodeGenLLVM::emit_compare(IRNodeType kind, const Expr &ea, const Expr &eb) {
    Value *a = codegen(ea), *b = codegen(eb);
    Type e = ea.type().element_of();
    using P = llvm::CmpInst::Predicate;
    P p;
    if (e.is_float()) {
        // Ordered comparisons, except != which is true for NaN, as in C.
        switch (kind) {
        case IRNodeType::EQ:
            p = P::FCMP_OEQ;
            break;
        case IRNodeType::NE:
            p = P::FCMP_UNE;
            break;
        case IRNodeType::LT:
            p = P::FCMP_OLT;
            break;
        case IRNodeType::LE:
            p = P::FCMP_OLE;
            break;
        case IRNodeType::GT:
            p = P::FCMP_OGT;
            break;
        default:
            p = P::FCMP_OGE;
            break;
        }
        return builder_->CreateFCmp(p, a, b);
    }
    bool s = e.is_int();
    switch (kind) {
    case IRNodeType::EQ:
        p = P::ICMP_EQ;
        break;
    case IRNodeType::NE:
        p = P::ICMP_NE;
        break;
    case IRNodeType::LT:
        p = s ? P::ICMP_SLT : P::ICMP_ULT;
        break;
    case IRNodeType::LE:
        p = s ? P::ICMP_SLE : P::ICMP_ULE;
        break;
    case IRNodeType::GT:
        p = s ? P::ICMP_SGT : P::ICMP_UGT;
        break;
    default:
        p = s ? P::ICMP_SGE : P::ICMP_UGE;
        break;
    }
    return builder_->CreateICmp(p, a, b);
}

void CodeGenLLVM::visit(const EQ *op) { value_ = emit_compare(IRNodeType::EQ, op->a, op->b); }
void CodeGenLLVM::visit(const NE *op) { value_ = emit_compare(IRNodeType::NE, op->a, op->b); }
void CodeGenLLVM::visit(const LT *op) { value_ = emit_compare(IRNodeType::LT, op->a, op->b); }
void CodeGenLLVM::visit(const LE *op) { value_ = emit_compare(IRNodeType::LE, op->a, op->b); }
void CodeGenLLVM::visit(const GT *op) { value_ = emit_compare(IRNodeType::GT, op->a, op->b); }
void CodeGenLLVM::visit(const GE *op) { value_ = emit_compare(IRNodeType::GE, op->a, op->b); }

void CodeGenLLVM::visit(const And *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    value_ = builder_->CreateAnd(a, b);
}

void CodeGenLLVM::visit(const Or *op) {
    Value *a = codegen(op->a), *b = codegen(op->b);
    value_ = builder_->CreateOr(a, b);
}

void CodeGenLLVM::visit(const Not *op) { value_ = builder_->CreateNot(codegen(op->a)); }

void CodeGenLLVM::visit(const Select *op) {
    Value *c = codegen(op->condition);
    Value *t = codegen(op->true_value);
    Value *f = codegen(op->false_value);
    value_ = builder_->CreateSelect(c, t, f);
}

void CodeGenLLVM::visit(const Let *op) {
    Value *v = codegen(op->value);
    if (v->getName().empty() && llvm::isa<llvm::Instruction>(v)) v->setName(op->name);
    sym_push(op->name, v);
    value_ = codegen(op->body);
    sym_pop(op->name);
}

// ---- Statements ----

void CodeGenLLVM::visit(const LetStmt *op) {
    const Call *destructor = op->value.as<Call>();
    if (destructor && destructor->is_intrinsic(Call::register_destructor)) {
        const StringImm *fn = destructor->args[0].as<StringImm>();
        internal_assert(fn && destructor->args.size() == 2)
            << "register_destructor takes a function name and a handle\n";
        Value *handle = codegen(destructor->args[1]);
        llvm::Value *slot = create_entry_alloca(ptr_t, 1, 8, op->name + ".slot");
        builder_->CreateStore(handle, slot);
        cleanups_.push_back({op->name, slot, fn->value});
        sym_push(op->name, handle);
        codegen(op->body);
        sym_pop(op->name);
        Cleanup done = cleanups_.back();
        cleanups_.pop_back();
        run_cleanup(done);
        return;
    }
    Value *v = codegen(op->value);
    if (v->getName().empty() && llvm::isa<llvm::Instruction>(v)) v->setName(op->name);
    sym_push(op->name, v);
    codegen(op->body);
    sym_pop(op->name);
}

void CodeGenLLVM::run_cleanup(const Cleanup &c) {
    Value *p = builder_->CreateLoad(ptr_t, c.slot);
    llvm::BasicBlock *run = llvm::BasicBlock::Create(context_, "release " + c.name, function_);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "released " + c.name, function_);
    builder_->CreateCondBr(builder_->CreateIsNotNull(p), run, after);
    builder_->SetInsertPoint(run);
    call_c(c.function, void_t, {user_context_, p});
    builder_->CreateBr(after);
    builder_->SetInsertPoint(after);
}

void CodeGenLLVM::emit_error_return(Value *code) {
    if (code->getType() != i32_t) code = builder_->CreateSExtOrTrunc(code, i32_t);
    for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) run_cleanup(*it);
    builder_->CreateRet(code);
}

void CodeGenLLVM::visit(const AssertStmt *op) {
    Value *c = codegen(op->condition);
    if (c->getType()->isVectorTy()) c = builder_->CreateAndReduce(c);
    llvm::BasicBlock *ok = llvm::BasicBlock::Create(context_, "assert ok", function_);
    llvm::BasicBlock *fail = llvm::BasicBlock::Create(context_, "assert failed", function_);
    llvm::MDBuilder md(context_);
    builder_->CreateCondBr(c, ok, fail, md.createBranchWeights(1 << 20, 1));
    builder_->SetInsertPoint(fail);
    Value *code = codegen(op->message);
    internal_assert(code->getType()->isIntegerTy())
        << "AssertStmt message must be an integer error code\n";
    emit_error_return(code);
    builder_->SetInsertPoint(ok);
}

void CodeGenLLVM::visit(const ProducerConsumer *op) { codegen(op->body); }

// Vectorizing and unrolling belong to lowering, parallel loops became tasks there
// (lower_parallel_tasks): every loop left runs serially here.
void CodeGenLLVM::visit(const For *op) {
    internal_assert(op->for_type != ForType::Parallel)
        << "The parallel loop " << op->name << " reached code generation; lowering turns "
        << "parallel loops into tasks (lower_parallel_tasks)\n";
    Value *min = codegen(op->min);
    Value *extent = codegen(op->extent);
    Value *end = builder_->CreateAdd(min, extent, op->name + ".end");
    llvm::BasicBlock *preheader = builder_->GetInsertBlock();
    llvm::BasicBlock *loop = llvm::BasicBlock::Create(context_, "for " + op->name, function_);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "end for " + op->name, function_);
    builder_->CreateCondBr(builder_->CreateICmpSLT(min, end), loop, after);
    builder_->SetInsertPoint(loop);
    llvm::PHINode *phi = builder_->CreatePHI(min->getType(), 2, op->name);
    phi->addIncoming(min, preheader);
    sym_push(op->name, phi);
    codegen(op->body);
    sym_pop(op->name);
    Value *next = builder_->CreateNSWAdd(phi, llvm::ConstantInt::get(min->getType(), 1));
    phi->addIncoming(next, builder_->GetInsertBlock());
    llvm::BranchInst *back_edge =
        builder_->CreateCondBr(builder_->CreateICmpNE(next, end), loop, after);
    if (op->partition_policy == Partition::Never) {
        // A boundary loop of a partitioned nest (a few iterations): vectorizing it would only
        // cost compile time.
        llvm::Metadata *disable[] = {
            llvm::MDString::get(context_, "llvm.loop.vectorize.enable"),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(context_))};
        llvm::Metadata *ops[] = {nullptr, llvm::MDNode::get(context_, disable)};
        llvm::MDNode *loop_id = llvm::MDNode::getDistinct(context_, ops);
        loop_id->replaceOperandWith(0, loop_id);
        back_edge->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
    }
    builder_->SetInsertPoint(after);
}

void CodeGenLLVM::visit(const Provide *op) {
    internal_error << "Provide to " << op->name
                   << " reached code generation; storage flattening must remove it\n";
}

void CodeGenLLVM::visit(const Realize *op) {
    internal_error << "Realize of " << op->name
                   << " reached code generation; storage flattening must remove it\n";
}

void CodeGenLLVM::visit(const Block *op) {
    codegen(op->first);
    codegen(op->rest);
}

void CodeGenLLVM::visit(const IfThenElse *op) {
    Value *c = codegen(op->condition);
    llvm::BasicBlock *then_bb = llvm::BasicBlock::Create(context_, "then", function_);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "after if", function_);
    llvm::BasicBlock *else_bb =
        op->else_case.defined() ? llvm::BasicBlock::Create(context_, "else", function_) : after;
    builder_->CreateCondBr(c, then_bb, else_bb);
    builder_->SetInsertPoint(then_bb);
    codegen(op->then_case);
    builder_->CreateBr(after);
    if (op->else_case.defined()) {
        builder_->SetInsertPoint(else_bb);
        codegen(op->else_case);
        builder_->CreateBr(after);
    }
    builder_->SetInsertPoint(after);
}

void CodeGenLLVM::visit(const Evaluate *op) { codegen(op->value); }

void CodeGenLLVM::visit(const Atomic *op) { codegen_atomic(op); }

void CodeGenLLVM::visit(const Fork *) {
    internal_error
        << "A Fork reached code generation: lower_parallel_tasks turns each into tasks\n";
}

} // namespace internal
} // namespace loom
