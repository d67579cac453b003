// CodeGenLLVM: the prefetch intrinsic (Func::prefetch, src/lower/inject_prefetch.cpp). Its first
// argument is a scalar Load naming the first element; the second the number of bytes from there.
// One llvm.prefetch (read, high locality, data cache) is emitted per 64-byte line; prefetches
// never fault, so no address needs guarding here.
#include "codegen/llvm/codegen_llvm.h"

#include "support/error.h"

namespace loom {
namespace internal {

using llvm::Value;

Value *CodeGenLLVM::codegen_prefetch(const Call *op) {
    internal_assert(op->args.size() == 2) << "prefetch takes an element and a byte count\n";
    const Load *l = op->args[0].as<Load>();
    internal_assert(l && l->type.is_scalar())
        << "prefetch's first argument must be a scalar load after storage flattening\n";
    Value *base = element_address(l->name, l->type, l->index);
    Value *bytes = codegen(op->args[1]);
    llvm::Type *i8 = llvm::Type::getInt8Ty(context_);
    llvm::Type *i32 = llvm::Type::getInt32Ty(context_);
    llvm::Function *fn = llvm::Intrinsic::getDeclaration(module_.get(), llvm::Intrinsic::prefetch,
                                                         {base->getType()});
    auto emit = [&](Value *offset) {
        Value *p = builder_->CreateInBoundsGEP(i8, base, offset);
        builder_->CreateCall(fn, {p, llvm::ConstantInt::get(i32, 0), llvm::ConstantInt::get(i32, 3),
                                  llvm::ConstantInt::get(i32, 1)});
    };
    // A loop over the lines: for (off = 0; off < bytes; off += 64).
    llvm::BasicBlock *pre = builder_->GetInsertBlock();
    auto *loop = llvm::BasicBlock::Create(context_, "prefetch_line", function_);
    auto *done = llvm::BasicBlock::Create(context_, "prefetch_done", function_);
    builder_->CreateCondBr(builder_->CreateICmpSGT(bytes, llvm::ConstantInt::get(i32, 0)), loop,
                           done);
    builder_->SetInsertPoint(loop);
    llvm::PHINode *off = builder_->CreatePHI(i32, 2);
    off->addIncoming(llvm::ConstantInt::get(i32, 0), pre);
    emit(off);
    Value *next = builder_->CreateAdd(off, llvm::ConstantInt::get(i32, 64));
    off->addIncoming(next, builder_->GetInsertBlock());
    builder_->CreateCondBr(builder_->CreateICmpSLT(next, bytes), loop, done);
    builder_->SetInsertPoint(done);
    return llvm::ConstantInt::get(i32, 0);
}

} // namespace internal
} // namespace loom
