#include "codegen/llvm/codegen_ptx.h"

#include "codegen/llvm/codegen_llvm.h"
#include "codegen/llvm/llvm_target.h"
#include "ir/ir_printer.h"
#include "lower/lower_utils.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <glob.h>
#include <map>
#include <set>

namespace loom {
namespace internal {

using llvm::Value;

namespace {

const char *const ptx_triple = "nvptx64-nvidia-cuda";

/// The PTX ISA version an architecture needs (LLVM's default, 6.0, is too old for sm_80+).
std::string ptx_version_feature(const std::string &sm) {
    int n = std::atoi(sm.c_str() + 3);
    if (n >= 86) return "+ptx71";
    if (n >= 80) return "+ptx70";
    return "+ptx60";
}

/// libdevice.10.bc: LOOM_LIBDEVICE_PATH, the CUDA toolkit, or the nvidia-cuda-nvcc wheel in one
/// of the usual Python installations (system, user, virtualenv, pyenv).
std::string find_libdevice() {
    std::string env = get_env("LOOM_LIBDEVICE_PATH");
    if (!env.empty()) return env;
    const std::string wheel = "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc";
    std::vector<std::string> patterns = {
        "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
        "/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc",
        "/usr/local/lib/python3*/dist-packages" + wheel,
        "/usr/local/lib/python3*/site-packages" + wheel,
        "/usr/lib/python3/dist-packages" + wheel,
    };
    std::string venv = get_env("VIRTUAL_ENV");
    if (!venv.empty()) patterns.push_back(venv + "/lib/python3*/site-packages" + wheel);
    std::string home = get_env("HOME");
    if (!home.empty()) {
        patterns.push_back(home + "/.local/lib/python3*/site-packages" + wheel);
        patterns.push_back(home + "/.pyenv/versions/*/lib/python3*/site-packages" + wheel);
    }
    for (const std::string &p : patterns) {
        glob_t g;
        if (glob(p.c_str(), 0, nullptr, &g) == 0 && g.gl_pathc > 0) {
            std::string found = g.gl_pathv[0];
            globfree(&g);
            return found;
        }
        globfree(&g);
    }
    return "";
}

class CodeGenPTX : public CodeGenLLVM {
public:
    CodeGenPTX(llvm::LLVMContext &ctx, llvm::TargetMachine &tm, const Target &target,
               bool have_libdevice)
        : CodeGenLLVM(ctx, tm, target), have_libdevice(have_libdevice) {}

    std::unique_ptr<llvm::Module> compile_kernels(const std::vector<LoweredKernel> &kernels) {
        module_ = std::make_unique<llvm::Module>("loom_kernels", context_);
        module_->setTargetTriple(target_machine_.getTargetTriple().str());
        module_->setDataLayout(target_machine_.createDataLayout());
        builder_ = std::make_unique<llvm::IRBuilder<>>(context_);
        builder_->setFastMathFlags(default_fast_math_flags());
        for (const LoweredKernel &k : kernels) compile_kernel(k);
        std::string err;
        llvm::raw_string_ostream err_os(err);
        if (llvm::verifyModule(*module_, &err_os)) {
            std::string ir;
            llvm::raw_string_ostream ir_os(ir);
            module_->print(ir_os, nullptr);
            internal_error << "The PTX module failed to verify:\n"
                           << err_os.str() << "\n"
                           << ir_os.str();
        }
        return std::move(module_);
    }

    /// Whether the module calls libdevice (__nv_*) functions.
    bool uses_libdevice = false;

protected:
    using CodeGenLLVM::visit;

    void compile_kernel(const LoweredKernel &k) {
        current_kernel = k.name;
        std::vector<llvm::Type *> types;
        for (const LoweredKernel::Arg &a : k.args) {
            types.push_back(a.is_buffer ? ptr_t : llvm_storage_type_of(a.type));
        }
        llvm::Function *fn =
            llvm::Function::Create(llvm::FunctionType::get(void_t, types, false),
                                   llvm::Function::ExternalLinkage, k.name, module_.get());
        fn->addFnAttr(llvm::Attribute::NoUnwind);
        // A kernel entry point for NVPTX.
        llvm::Metadata *md[] = {llvm::ValueAsMetadata::get(fn),
                                llvm::MDString::get(context_, "kernel"),
                                llvm::ValueAsMetadata::get(llvm::ConstantInt::get(i32_t, 1))};
        module_->getOrInsertNamedMetadata("nvvm.annotations")
            ->addOperand(llvm::MDNode::get(context_, md));

        function_ = fn;
        entry_block_ = llvm::BasicBlock::Create(context_, "entry", fn);
        builder_->SetInsertPoint(entry_block_);
        symbols_.clear();
        user_context_ = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr_t));
        sym_push("__user_context", user_context_);
        for (size_t i = 0; i < k.args.size(); i++) {
            const LoweredKernel::Arg &a = k.args[i];
            Value *arg = fn->getArg(i);
            arg->setName(a.name);
            if (a.is_buffer) {
                // Buffers never alias, as everywhere in Loom (and Halide).
                fn->addParamAttr(i, llvm::Attribute::NoAlias);
                sym_push(a.name, arg);
            } else {
                sym_push(a.name, from_storage(arg, a.type));
            }
        }
        const llvm::Intrinsic::ID ids[6] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
        const char *names[6] = {"__block_id_x",  "__block_id_y",  "__block_id_z",
                                "__thread_id_x", "__thread_id_y", "__thread_id_z"};
        for (int i = 0; i < 6; i++) {
            sym_push(names[i], call_intrin(ids[i], {}, {}));
        }
        codegen(k.body);
        builder_->CreateRetVoid();
    }

    void visit(const Call *op) override {
        if (op->is_intrinsic(Call::gpu_thread_barrier)) {
            call_intrin(llvm::Intrinsic::nvvm_barrier0, {}, {});
            value_ = llvm::ConstantInt::get(i32_t, 0);
            return;
        }
        if ((op->call_type == Call::PureExtern || op->call_type == Call::Extern) && math_call(op)) {
            return;
        }
        CodeGenLLVM::visit(op);
        const bool runtime_call = op->call_type == Call::Extern ||
                                  op->call_type == Call::ExternCPlusPlus ||
                                  op->call_type == Call::PureExtern;
        if (runtime_call && value_ && llvm::isa<llvm::CallInst>(value_)) {
            llvm::Function *callee = llvm::cast<llvm::CallInst>(value_)->getCalledFunction();
            user_assert(!callee || !callee->isDeclaration() || callee->isIntrinsic())
                << "The GPU kernel " << current_kernel << " calls " << op->name
                << ", which has no CUDA implementation in Loom. Compute the stage that calls it "
                   "on the host.\n";
        }
    }

    void visit(const Atomic *op) override {
        // A spin lock would deadlock the threads of a warp: only what one atomic instruction
        // or a compare-and-swap loop does is accepted.
        user_assert(!atomic_needs_lock(op))
            << "The atomic update of Func " << op->producer_name
            << " in a GPU kernel would need a lock (it stores a Tuple or a vector, or its value "
               "reads other elements of the Func), which Loom does not support on GPUs. Make "
               "it a single scalar update of the element it reads.\n"
            << Stmt(op) << "\n";
        CodeGenLLVM::visit(op);
    }

    void visit(const Allocate *op) override {
        if (op->memory_type != MemoryType::GPUShared) return CodeGenLLVM::visit(op);
        // A block-level buffer: a static array in the block's shared memory (address space
        // 3), used through a generic pointer (the optimizer turns accesses back into
        // ld/st.shared).
        int64_t count = std::max<int64_t>(constant_allocation_elements(op), 1);
        llvm::Type *array =
            llvm::ArrayType::get(llvm_storage_type_of(op->type.element_of()), count);
        auto *g =
            new llvm::GlobalVariable(*module_, array, false, llvm::GlobalValue::InternalLinkage,
                                     llvm::UndefValue::get(array), current_kernel + "." + op->name,
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 3);
        g->setAlignment(llvm::Align(16));
        sym_push(op->name, builder_->CreateAddrSpaceCast(g, ptr_t));
        int &slot = allocation_alignment_[op->name];
        int outer = slot;
        slot = 16;
        codegen(op->body);
        allocation_alignment_[op->name] = outer;
        sym_pop(op->name);
    }

private:
    bool have_libdevice;
    std::string current_kernel;

    /// Math functions (<fn>_f32 / _f64): LLVM intrinsics NVPTX implements exactly, libdevice,
    /// or the approximate instructions. Returns false for what CodeGenLLVM handles the same
    /// way on every target (is_nan, ...).
    bool math_call(const Call *op) {
        std::string name = op->name, suffix;
        for (const char *s : {"_f16", "_f32", "_f64"}) {
            if (ends_with(name, s)) suffix = s;
        }
        if (suffix.empty() || op->args.empty()) return false;
        for (const Expr &e : op->args) {
            if (!e.type().is_float()) return false;
        }
        std::string fn = name.substr(0, name.size() - suffix.size());
        bool fast = starts_with(fn, "fast_");
        if (fast) fn = fn.substr(5);
        static const std::map<std::string, llvm::Intrinsic::ID> exact = {
            {"sqrt", llvm::Intrinsic::sqrt},   {"floor", llvm::Intrinsic::floor},
            {"ceil", llvm::Intrinsic::ceil},   {"round", llvm::Intrinsic::roundeven},
            {"trunc", llvm::Intrinsic::trunc}, {"fabs", llvm::Intrinsic::fabs},
            {"abs", llvm::Intrinsic::fabs},
        };
        static const std::set<std::string> libdevice = {
            "exp",   "log",  "pow",   "sin",   "cos",   "tan",   "asin",  "acos", "atan",
            "atan2", "sinh", "cosh",  "tanh",  "asinh", "acosh", "atanh", "erf",  "hypot",
            "exp2",  "log2", "log10", "expm1", "log1p", "cbrt",  "fmod",  "erfc", "copysign"};
        if (!exact.count(fn) && !libdevice.count(fn)) return false;

        Type at = op->args[0].type();
        Type ct = at.bits() == 16 ? Float(32, at.lanes()) : at;
        std::vector<Value *> args;
        for (const Expr &e : op->args) {
            Value *v = codegen(e);
            if (ct != at) v = builder_->CreateFPExt(v, llvm_type_of(ct));
            args.push_back(v);
        }
        Value *r;
        if (exact.count(fn)) {
            r = call_intrin(exact.at(fn), {args[0]->getType()}, args);
        } else if (have_libdevice && !fast) {
            uses_libdevice = true;
            std::string nv = "__nv_" + fn + (ct.bits() == 32 ? "f" : "");
            llvm::Type *scalar_t = llvm_type_of(ct.element_of());
            auto call_one = [&](const std::vector<Value *> &lane_args) {
                return call_c(nv, scalar_t, lane_args);
            };
            r = ct.is_vector() ? scalarize(args, ct, call_one) : call_one(args);
        } else {
            r = approximate(fn, ct, args);
        }
        if (ct != at) r = builder_->CreateFPTrunc(r, llvm_type_of(op->type));
        value_ = r;
        return true;
    }

    /// The GPU's approximate instructions (sin.approx, ex2.approx, lg2.approx), float32 only.
    Value *approximate(const std::string &fn, Type t, const std::vector<Value *> &args) {
        user_assert(t.bits() == 32 && (fn == "sin" || fn == "cos" || fn == "exp" || fn == "log" ||
                                       fn == "pow" || fn == "exp2" || fn == "log2"))
            << "The GPU kernel " << current_kernel << " calls " << fn << " on float" << t.bits()
            << ", which needs CUDA's libdevice, and none was found. Install the "
               "nvidia-cuda-nvcc-cu12 wheel or the CUDA toolkit, or set LOOM_LIBDEVICE_PATH to "
               "libdevice.10.bc.\n";
        llvm::IRBuilderBase::FastMathFlagGuard guard(*builder_);
        llvm::FastMathFlags flags = builder_->getFastMathFlags();
        flags.setApproxFunc();
        builder_->setFastMathFlags(flags);
        llvm::Type *ty = args[0]->getType();
        auto c = [&](double v) { return llvm::ConstantFP::get(ty, v); };
        auto exp2 = [&](Value *x) { return call_intrin(llvm::Intrinsic::exp2, {ty}, {x}); };
        auto log2 = [&](Value *x) { return call_intrin(llvm::Intrinsic::log2, {ty}, {x}); };
        if (fn == "sin") return call_intrin(llvm::Intrinsic::sin, {ty}, args);
        if (fn == "cos") return call_intrin(llvm::Intrinsic::cos, {ty}, args);
        if (fn == "exp2") return exp2(args[0]);
        if (fn == "log2") return log2(args[0]);
        if (fn == "exp") return exp2(builder_->CreateFMul(args[0], c(1.4426950408889634)));
        if (fn == "log") return builder_->CreateFMul(log2(args[0]), c(0.6931471805599453));
        return exp2(builder_->CreateFMul(args[1], log2(args[0]))); // pow, for x > 0
    }
};

} // namespace

std::string cuda_architecture(const Target &target) {
    static const std::pair<Target::Feature, const char *> archs[] = {
        {Target::CUDACapability86, "sm_86"}, {Target::CUDACapability80, "sm_80"},
        {Target::CUDACapability75, "sm_75"}, {Target::CUDACapability70, "sm_70"},
        {Target::CUDACapability61, "sm_61"}, {Target::CUDACapability50, "sm_50"},
        {Target::CUDACapability35, "sm_35"}, {Target::CUDACapability32, "sm_32"},
        {Target::CUDACapability30, "sm_30"},
    };
    for (const auto &[feature, sm] : archs) {
        if (target.has_feature(feature)) return sm;
    }
    return "sm_50";
}

std::string codegen_ptx(const std::vector<LoweredKernel> &kernels, const Target &target) {
    initialize_llvm_targets();
    std::string error;
    const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(ptx_triple, error);
    user_assert(nvptx) << "This LLVM has no NVPTX back end (" << error
                       << "); CUDA targets need one.\n";
    const std::string sm = cuda_architecture(target);
    llvm::TargetOptions options;
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
    std::unique_ptr<llvm::TargetMachine> tm(
        nvptx->createTargetMachine(ptx_triple, sm, ptx_version_feature(sm), options, std::nullopt,
                                   std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    internal_assert(tm) << "LLVM could not create the NVPTX TargetMachine for " << sm << "\n";

    llvm::LLVMContext ctx;
    const std::string libdevice_path = find_libdevice();
    CodeGenPTX cg(ctx, *tm, target, !libdevice_path.empty());
    std::unique_ptr<llvm::Module> module = cg.compile_kernels(kernels);
    if (cg.uses_libdevice) {
        auto buffer = llvm::MemoryBuffer::getFile(libdevice_path);
        user_assert(buffer) << "Cannot read libdevice at " << libdevice_path << "\n";
        auto libdevice = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), ctx);
        user_assert((bool)libdevice) << "Cannot parse libdevice at " << libdevice_path << ": "
                                     << llvm::toString(libdevice.takeError()) << "\n";
        (*libdevice)->setTargetTriple(ptx_triple);
        (*libdevice)->setDataLayout(module->getDataLayout());
        // Only what the kernels call, made internal so the optimizer inlines and drops it.
        internal_assert(!llvm::Linker::linkModules(*module, std::move(*libdevice),
                                                   llvm::Linker::LinkOnlyNeeded))
            << "Linking libdevice failed\n";
        for (llvm::Function &f : *module) {
            if (!f.isDeclaration() && starts_with(f.getName().str(), "__nv_")) {
                f.setLinkage(llvm::GlobalValue::InternalLinkage);
            }
        }
        // libdevice asks __nvvm_reflect whether to flush denormals: it should not.
        module->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", (uint32_t)0);
    }
    optimize_module(*module, *tm);
    return emit_module(*module, *tm, LLVMOutput::Assembly);
}

} // namespace internal
} // namespace loom
