// CodeGenLLVM: the trace intrinsic (src/lower/inject_tracing.h) as a call to the runtime's
// halide_trace_helper. The value and the coordinates go to stack arrays; after vectorization
// any of them may be a vector, and the event then reports all lanes at once as Halide does
// (type.lanes = lanes, coordinates one vector per dimension, lanes innermost).
#include "codegen/llvm/codegen_llvm.h"

#include "support/error.h"

#include <loom/runtime/loom_runtime.h>

#include <algorithm>

namespace loom {
namespace internal {

using llvm::Value;

Value *CodeGenLLVM::codegen_trace(const Call *op) {
    internal_assert(op->args.size() >= 6) << "trace: too few arguments\n";
    int64_t event = 0;
    internal_assert(constant_int_value(op->args[1], &event)) << "trace: event is not constant\n";
    const bool is_access = event == halide_trace_load || event == halide_trace_store;
    const Expr &value = op->args[4];
    const size_t num_coords = op->args.size() - 6;

    int lanes = 1;
    if (is_access) {
        lanes = value.type().lanes();
        for (size_t i = 6; i < op->args.size(); i++) {
            lanes = std::max(lanes, op->args[i].type().lanes());
        }
    }
    // A scalar argument of a vector event: lane 0 of a vector one (all lanes agree).
    auto scalar = [&](const Expr &e) {
        Value *v = codegen(e);
        if (e.type().is_vector()) v = builder_->CreateExtractElement(v, (uint64_t)0);
        return v;
    };

    Value *func = codegen(op->args[0]);
    Value *parent = scalar(op->args[2]);
    Value *value_index = scalar(op->args[3]);
    Value *tag = codegen(op->args[5]);

    Value *value_ptr = llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
    Type vt = value.type().element_of();
    if (is_access) {
        Value *v = codegen(value);
        if (value.type().is_scalar() && lanes > 1) v = splat(v, lanes);
        Type full = vt.with_lanes(lanes);
        v = to_storage(v, full);
        llvm::Type *et = llvm_storage_type_of(vt);
        value_ptr = create_entry_alloca(et, lanes, 16, "trace_value");
        if (lanes == 1) {
            builder_->CreateStore(v, value_ptr);
        } else {
            for (int i = 0; i < lanes; i++) {
                builder_->CreateStore(builder_->CreateExtractElement(v, (uint64_t)i),
                                      builder_->CreateConstInBoundsGEP1_32(et, value_ptr, i));
            }
        }
    }

    Value *coords_ptr = llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
    if (num_coords > 0) {
        coords_ptr = create_entry_alloca(i32_t, num_coords * lanes, 16, "trace_coords");
        for (size_t j = 0; j < num_coords; j++) {
            const Expr &c = op->args[6 + j];
            Value *v = codegen(c);
            for (int i = 0; i < lanes; i++) {
                Value *lane =
                    c.type().is_vector() ? builder_->CreateExtractElement(v, (uint64_t)i) : v;
                builder_->CreateStore(lane, builder_->CreateConstInBoundsGEP1_32(
                                                i32_t, coords_ptr, (unsigned)(j * lanes + i)));
            }
        }
    }

    // Events without a value report Halide's placeholder type (handle, 0 bits, 0 lanes).
    int code = is_access ? (int)vt.code() : (int)halide_type_handle;
    int bits = is_access ? vt.bits() : 0;
    int type_lanes = is_access ? lanes : 0;
    auto i32 = [&](int64_t x) { return llvm::ConstantInt::get(i32_t, x); };
    Value *id =
        call_c("halide_trace_helper", i32_t,
               {user_context_, func, value_ptr, coords_ptr, i32(code), i32(bits), i32(type_lanes),
                i32(event), parent, value_index, i32((int64_t)num_coords * lanes), tag});
    if (op->type.is_vector()) id = splat(id, op->type.lanes());
    return id;
}

} // namespace internal
} // namespace loom
