// The host side of a GPU kernel launch (Call::gpu_launch): the device module's source is a
// constant of the host module, loaded once per context by halide_<api>_initialize_kernels into
// a module-state global, and each launch calls halide_<api>_run with Halide's argument arrays.
#include "codegen/llvm/codegen_llvm.h"

#include "support/error.h"

#include <loom/runtime/loom_runtime.h>

#include <cstddef>

namespace loom {
namespace internal {

using llvm::Value;

namespace {
const uint64_t device_field_offset = offsetof(halide_buffer_t, device);
} // namespace

Value *CodeGenLLVM::codegen_gpu_launch(const Call *op) {
    const StringImm *name = op->args[0].as<StringImm>();
    internal_assert(name && kernels_.count(name->value) && op->args.size() >= 8)
        << "gpu_launch of an unknown kernel\n";
    const LoweredKernel &k = *kernels_.at(name->value);
    internal_assert(op->args.size() == 8 + k.args.size())
        << "gpu_launch of " << k.name << " with the wrong number of arguments\n";
    const std::string api = k.api == DeviceAPI::CUDA ? "cuda" : "opencl";

    llvm::GlobalVariable *&state = device_module_states_[k.api];
    if (!state) {
        state = new llvm::GlobalVariable(
            *module_, ptr_t, false, llvm::GlobalValue::InternalLinkage,
            llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr_t)),
            "loom." + api + ".module_state");
    }
    const std::string &source = device_modules_.at(k.api);
    // The argument arrays, filled before anything can fail.
    const size_t n = k.args.size();
    llvm::AllocaInst *values = create_entry_alloca(ptr_t, n + 1, 8, k.name + ".args");
    llvm::AllocaInst *sizes = create_entry_alloca(i64_t, n + 1, 8, k.name + ".arg_sizes");
    llvm::AllocaInst *is_buffer = create_entry_alloca(i8_t, n + 1, 1, k.name + ".arg_is_buffer");
    for (size_t i = 0; i <= n; i++) {
        Value *slot = nullptr;
        uint64_t bytes = 0;
        bool buffer = false;
        if (i < n) {
            const LoweredKernel::Arg &a = k.args[i];
            Value *v = codegen(op->args[8 + i]);
            buffer = a.is_buffer;
            if (buffer) {
                // The buffer's device handle (a CUdeviceptr, a cl_mem).
                Value *field = builder_->CreateConstInBoundsGEP1_64(i8_t, v, device_field_offset);
                v = builder_->CreateLoad(i64_t, field);
            } else {
                v = to_storage(v, a.type);
            }
            slot = create_entry_alloca(v->getType(), 1, 8, k.name + "." + a.name);
            builder_->CreateStore(v, slot);
            bytes = module_->getDataLayout().getTypeAllocSize(v->getType());
        }
        builder_->CreateStore(
            slot ? slot : llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr_t)),
            builder_->CreateConstInBoundsGEP1_64(ptr_t, values, i));
        builder_->CreateStore(llvm::ConstantInt::get(i64_t, bytes),
                              builder_->CreateConstInBoundsGEP1_64(i64_t, sizes, i));
        builder_->CreateStore(llvm::ConstantInt::get(i8_t, buffer ? 1 : 0),
                              builder_->CreateConstInBoundsGEP1_64(i8_t, is_buffer, i));
    }
    std::vector<Value *> dims;
    for (int i = 1; i < 8; i++) dims.push_back(codegen(op->args[i]));

    // Loading is cheap once the module is loaded in the current context; the runtime keeps it.
    Value *init = call_c("halide_" + api + "_initialize_kernels", i32_t,
                         {user_context_, state, string_constant(source),
                          llvm::ConstantInt::get(i32_t, source.size() + 1)});
    llvm::BasicBlock *before = builder_->GetInsertBlock();
    llvm::BasicBlock *run = llvm::BasicBlock::Create(context_, "launch " + k.name, function_);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context_, "launched " + k.name, function_);
    builder_->CreateCondBr(builder_->CreateICmpEQ(init, llvm::ConstantInt::get(i32_t, 0)), run,
                           done);
    builder_->SetInsertPoint(run);
    std::vector<Value *> run_args = {user_context_, builder_->CreateLoad(ptr_t, state),
                                     string_constant(k.name)};
    run_args.insert(run_args.end(), dims.begin(), dims.end());
    run_args.push_back(sizes);
    run_args.push_back(values);
    run_args.push_back(is_buffer);
    Value *result = call_c("halide_" + api + "_run", i32_t, run_args);
    llvm::BasicBlock *after_run = builder_->GetInsertBlock();
    builder_->CreateBr(done);
    builder_->SetInsertPoint(done);
    llvm::PHINode *phi = builder_->CreatePHI(i32_t, 2);
    phi->addIncoming(init, before);
    phi->addIncoming(result, after_run);
    return phi;
}

} // namespace internal
} // namespace loom
