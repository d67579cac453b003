// Parallel loops: the body of a ForType::Parallel loop becomes a task function that the runtime's
// halide_do_par_for runs for every iteration, on the thread pool.
//
//   parallel for (y, min, extent) { body }
// becomes
//   closure = { every enclosing value the body uses }
//   r = halide_do_par_for(__user_context, <fn>.par_for.y, min, extent, &closure)
//   if (r != 0) return r
// with
//   int32_t <fn>.par_for.y(void *__user_context, int32_t y, uint8_t *closure)
//       { unpack closure; body; return 0 }   (a failed assertion in body returns its code)
#include "codegen/llvm/codegen_llvm.h"

#include "ir/ir_utils.h"
#include "support/error.h"

namespace loom {
namespace internal {

using llvm::Value;

void CodeGenLLVM::codegen_parallel_for(const For *op) {
    Value *min = codegen(op->min);
    Value *extent = codegen(op->extent);

    // The closure: every symbol in scope that the body uses (the loop variable is the task
    // index, the user context the task's own argument).
    std::vector<std::string> captured;
    std::vector<llvm::Type *> field_types;
    for (const std::string &n : names_referenced(op->body)) {
        if (n == op->name || n == "__user_context" || !sym_exists(n)) continue;
        captured.push_back(n);
        field_types.push_back(sym_get(n)->getType());
    }
    llvm::StructType *closure_t =
        llvm::StructType::create(context_, field_types, function_->getName().str() + ".closure");
    llvm::AllocaInst *closure = create_entry_alloca(closure_t, 1, 16, op->name + ".closure");
    for (size_t i = 0; i < captured.size(); i++) {
        builder_->CreateStore(sym_get(captured[i]),
                              builder_->CreateStructGEP(closure_t, closure, (unsigned)i));
    }

    // The task function, generated with its own symbols, allocations and entry block.
    llvm::FunctionType *task_t = llvm::FunctionType::get(i32_t, {ptr_t, i32_t, ptr_t}, false);
    llvm::Function *task =
        llvm::Function::Create(task_t, llvm::Function::InternalLinkage,
                               function_->getName().str() + ".par_for." + op->name, module_.get());
    task->addFnAttrs(llvm::AttrBuilder(context_, function_->getAttributes().getFnAttrs()));
    {
        llvm::IRBuilderBase::InsertPointGuard guard(*builder_);
        llvm::Function *parent = function_;
        llvm::BasicBlock *parent_entry = entry_block_;
        Value *parent_user_context = user_context_;
        std::map<std::string, std::vector<Value *>> parent_symbols;
        std::vector<HeapAllocation> parent_allocations;
        parent_symbols.swap(symbols_);
        parent_allocations.swap(heap_allocations_);

        function_ = task;
        entry_block_ = llvm::BasicBlock::Create(context_, "entry", task);
        builder_->SetInsertPoint(entry_block_);
        user_context_ = task->getArg(0);
        user_context_->setName("__user_context");
        sym_push("__user_context", user_context_);
        task->getArg(1)->setName(op->name);
        sym_push(op->name, task->getArg(1));
        Value *fields = task->getArg(2);
        fields->setName("closure");
        for (size_t i = 0; i < captured.size(); i++) {
            Value *v = builder_->CreateLoad(
                field_types[i], builder_->CreateStructGEP(closure_t, fields, (unsigned)i),
                captured[i]);
            sym_push(captured[i], v);
        }
        codegen(op->body);
        builder_->CreateRet(llvm::ConstantInt::get(i32_t, 0));

        function_ = parent;
        entry_block_ = parent_entry;
        user_context_ = parent_user_context;
        symbols_.swap(parent_symbols);
        heap_allocations_.swap(parent_allocations);
    }

    Value *result = call_c("halide_do_par_for", i32_t, {user_context_, task, min, extent, closure});
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context_, "par_for failed", function_);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context_, "par_for done", function_);
    llvm::MDBuilder md(context_);
    builder_->CreateCondBr(builder_->CreateICmpNE(result, llvm::ConstantInt::get(i32_t, 0)), failed,
                           done, md.createBranchWeights(1, 1 << 20));
    builder_->SetInsertPoint(failed);
    emit_error_return(result);
    builder_->SetInsertPoint(done);
}

} // namespace internal
} // namespace loom
