// CodeGenLLVM: memory (Load, Store, Allocate, Free) and vector nodes (Ramp, Broadcast,
// Shuffle, VectorReduce). Dense accesses become single vector loads/stores, small constant strides
// become a dense load plus a shuffle, everything else gathers/scatters.
#include "codegen/llvm/codegen_llvm.h"
#include "lower/lower_utils.h"

#include "support/error.h"

namespace loom {
namespace internal {

using llvm::Value;

namespace {

// The largest stride for which a strided load reads the whole span densely and shuffles.
const int64_t max_dense_stride = 4;

// Alignment of the base of a heap allocation: halide_default_malloc gives 128 bytes, but a
// custom halide_malloc may be a plain malloc, which x86-64 and AArch64 align to 16.
const int heap_alignment = 16;
// Stack allocations are over-aligned (create_entry_alloca below) for any vector width.
const int stack_alignment = 64;

/// An Int(32) index in Int(64) arithmetic, as Halide computes addresses: the sign extension
/// moves from the whole sum to its leaves. Int(32) adds, subtractions and multiplications are
/// emitted no-signed-wrap (overflow in index math is assumed away), so doing each in 64 bits
/// gives the same value. It matters once LLVM reassociates a sum to hoist its loop-invariant
/// part: reassociation drops the nsw flags, and the sign extension of a 32-bit sum that may now
/// wrap stays in the loop (nl_means' patch differences: a lea and a movslq per load, where
/// Halide's loop only bumps a pointer).
Expr promote_index_to_64(const Expr &e) {
    if (const Add *a = e.as<Add>()) {
        return Add::make(promote_index_to_64(a->a), promote_index_to_64(a->b));
    }
    if (const Sub *s = e.as<Sub>()) {
        return Sub::make(promote_index_to_64(s->a), promote_index_to_64(s->b));
    }
    if (const Mul *m = e.as<Mul>()) {
        return Mul::make(promote_index_to_64(m->a), promote_index_to_64(m->b));
    }
    if (const IntImm *i = e.as<IntImm>()) return make_const(Int(64), i->value);
    return Cast::make(Int(64), e);
}

/// The largest power of two dividing v (v > 0), capped at 2^30.
int64_t pow2_factor(int64_t v) {
    int64_t p = 1;
    while (p < (1 << 30) && v % (p * 2) == 0) p *= 2;
    return p;
}

/// The alignment of the address of element `index` of a buffer whose base is aligned to
/// `base_align` bytes, when the index is known to be modulus * k + remainder (elements of
/// `elem_bytes` bytes): never below the element's own alignment.
llvm::Align access_alignment(int base_align, const ModulusRemainder &index, int elem_bytes) {
    int64_t align = std::max(1, elem_bytes);
    if (base_align <= align || index.modulus < 0 || index.remainder < 0) return llvm::Align(align);
    int64_t offset_align;
    if (index.modulus == 0) {
        // Exactly `remainder`: any alignment when it is zero.
        offset_align =
            index.remainder == 0 ? base_align : pow2_factor(index.remainder * elem_bytes);
    } else {
        offset_align = pow2_factor(index.modulus * elem_bytes);
        if (index.remainder) {
            offset_align = std::min(offset_align, pow2_factor(index.remainder * elem_bytes));
        }
    }
    return llvm::Align((uint64_t)std::max(align, std::min<int64_t>(base_align, offset_align)));
}

} // namespace

Value *CodeGenLLVM::element_address(const std::string &name, Type t, Value *index) {
    Value *base = sym_get(name);
    Value *idx = builder_->CreateSExt(
        index, index->getType()->isVectorTy()
                   ? llvm::VectorType::get(
                         i64_t, llvm::cast<llvm::VectorType>(index->getType())->getElementCount())
                   : i64_t);
    return builder_->CreateInBoundsGEP(llvm_storage_type_of(t.element_of()), base, idx);
}

Value *CodeGenLLVM::element_address(const std::string &name, Type t, const Expr &index,
                                    int64_t offset) {
    internal_assert(index.type().is_scalar()) << "element_address of a vector index " << index;
    Expr i = index.type() == Int(32) ? promote_index_to_64(index) : index;
    if (offset != 0) i = Add::make(i, make_const(i.type(), offset));
    return element_address(name, t, codegen(i));
}

Value *CodeGenLLVM::scalarize(const std::vector<Value *> &args, Type result,
                              const std::function<Value *(const std::vector<Value *> &)> &fn) {
    int lanes = result.lanes();
    Value *out = llvm::PoisonValue::get(llvm_type_of(result));
    for (int i = 0; i < lanes; i++) {
        std::vector<Value *> lane_args;
        for (Value *a : args) {
            lane_args.push_back(
                a->getType()->isVectorTy() ? builder_->CreateExtractElement(a, (uint64_t)i) : a);
        }
        Value *r = fn(lane_args);
        out = lanes == 1 ? r : builder_->CreateInsertElement(out, r, (uint64_t)i);
    }
    return out;
}

namespace {

/// The known alignment of buffer `name`'s base: an allocation's, or what an input or output
/// parameter promises (set_host_alignment; by default its element size).
int base_alignment(const std::map<std::string, int> &allocations, const std::string &name,
                   const Parameter &param) {
    auto it = allocations.find(name);
    if (it != allocations.end()) return it->second;
    if (param.defined() && param.is_buffer()) return param.host_alignment();
    return 1;
}

} // namespace

void CodeGenLLVM::visit(const Load *op) {
    Type t = op->type;
    Type et = t.element_of();
    llvm::Type *st = llvm_storage_type_of(et);
    llvm::Align align(std::max(1, et.bytes()));
    bool unpredicated = is_all_true(op->predicate);
    int lanes = t.lanes();

    if (t.is_scalar()) {
        if (unpredicated) {
            Value *p = element_address(op->name, et, op->index);
            value_ =
                from_storage(add_tbaa(builder_->CreateAlignedLoad(st, p, align), op->name), et);
            return;
        }
        // A predicated scalar load must not touch memory when the predicate is false.
        Value *pred = codegen(op->predicate);
        llvm::BasicBlock *pre = builder_->GetInsertBlock();
        llvm::BasicBlock *do_load = llvm::BasicBlock::Create(context_, "pred load", function_);
        llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "after pred load", function_);
        builder_->CreateCondBr(pred, do_load, after);
        builder_->SetInsertPoint(do_load);
        Value *p = element_address(op->name, et, op->index);
        Value *v = add_tbaa(builder_->CreateAlignedLoad(st, p, align), op->name);
        llvm::BasicBlock *load_end = builder_->GetInsertBlock();
        builder_->CreateBr(after);
        builder_->SetInsertPoint(after);
        llvm::PHINode *phi = builder_->CreatePHI(st, 2);
        phi->addIncoming(v, load_end);
        phi->addIncoming(llvm::Constant::getNullValue(st), pre);
        value_ = from_storage(phi, et);
        return;
    }

    llvm::Type *vt = llvm::FixedVectorType::get(st, lanes);
    const Ramp *ramp = op->index.as<Ramp>();
    int64_t stride = 0;
    bool const_stride =
        ramp && ramp->base.type().is_scalar() && constant_int_value(ramp->stride, &stride);
    if (const_stride && stride > 0) {
        // A dense load, or the span of a strided one, starts at the ramp's base.
        align = access_alignment(base_alignment(allocation_alignment_, op->name, op->param),
                                 op->alignment, et.bytes());
    }
    if (const_stride && stride == 1) {
        Value *p = element_address(op->name, et, ramp->base);
        Value *v;
        if (unpredicated) {
            v = add_tbaa(builder_->CreateAlignedLoad(vt, p, align), op->name);
        } else {
            v = add_tbaa(builder_->CreateMaskedLoad(vt, p, align, codegen(op->predicate),
                                                    llvm::Constant::getNullValue(vt)),
                         op->name);
        }
        value_ = from_storage(v, t);
        return;
    }
    if (const_stride && unpredicated && stride != 0 && stride >= -max_dense_stride &&
        stride <= max_dense_stride) {
        // Load exactly the span the lanes cover (never past the first or last lane) and pick
        // the lanes out with a shuffle: cheaper than a gather for interleaved data.
        int64_t span = (lanes - 1) * std::abs(stride) + 1;
        Value *p = element_address(op->name, et, ramp->base, stride < 0 ? (lanes - 1) * stride : 0);
        std::vector<int> idx;
        for (int i = 0; i < lanes; i++) {
            idx.push_back(stride > 0 ? (int)(i * stride) : (int)(span - 1 + i * stride));
        }
        // A span of an odd number of elements (31 for 16 lanes of stride 2) is legalized into
        // a chain of ever smaller loads and inserts. Two loads of half of lanes * |stride|
        // elements, the first from the span's start and the second ending at its last element,
        // cover it without reading past it, and one two-source shuffle picks the lanes
        // (Halide does the same).
        const int64_t half = lanes * std::abs(stride) / 2;
        if ((lanes * std::abs(stride)) % 2 == 0 && (span & (span - 1)) != 0 && half >= 4) {
            llvm::Type *ht = llvm::FixedVectorType::get(st, (unsigned)half);
            const int64_t second = span - half;
            Value *lo = add_tbaa(builder_->CreateAlignedLoad(ht, p, align), op->name);
            Value *p2 =
                builder_->CreateInBoundsGEP(st, p, llvm::ConstantInt::get(i64_t, (uint64_t)second));
            Value *hi =
                add_tbaa(builder_->CreateAlignedLoad(
                             ht, p2, llvm::commonAlignment(align, (uint64_t)(second * et.bytes()))),
                         op->name);
            for (int &e : idx) {
                if (e >= half) e = (int)(half + e - second);
            }
            value_ = from_storage(builder_->CreateShuffleVector(lo, hi, idx), t);
            return;
        }
        Value *wide = add_tbaa(
            builder_->CreateAlignedLoad(llvm::FixedVectorType::get(st, (unsigned)span), p, align),
            op->name);
        value_ = from_storage(builder_->CreateShuffleVector(wide, idx), t);
        return;
    }
    if (const Broadcast *b = op->index.as<Broadcast>()) {
        if (unpredicated && b->value.type().is_scalar()) {
            Value *p = element_address(op->name, et, b->value);
            value_ = from_storage(
                splat(add_tbaa(builder_->CreateAlignedLoad(st, p, align), op->name), lanes), t);
            return;
        }
    }
    if (unpredicated && et.bytes() <= 2) {
        // x86 has no gather of 8- or 16-bit elements, and LLVM scalarizes a masked gather
        // through a vector of 64-bit pointers (sign-extended, added and extracted two by two).
        // One scalar load per lane at its extracted 32-bit index, as Halide emits, addresses
        // base + index directly (camera_pipe's tone curve).
        Value *index = codegen(op->index);
        Value *v = llvm::PoisonValue::get(vt);
        for (int i = 0; i < lanes; i++) {
            Value *p =
                element_address(op->name, et, builder_->CreateExtractElement(index, (uint64_t)i));
            v = builder_->CreateInsertElement(
                v, add_tbaa(builder_->CreateAlignedLoad(st, p, align), op->name), (uint64_t)i);
        }
        value_ = from_storage(v, t);
        return;
    }
    Value *ptrs = element_address(op->name, et, codegen(op->index));
    Value *mask = unpredicated ? nullptr : codegen(op->predicate);
    Value *v = add_tbaa(
        builder_->CreateMaskedGather(vt, ptrs, align, mask, llvm::Constant::getNullValue(vt)),
        op->name);
    value_ = from_storage(v, t);
}

void CodeGenLLVM::visit(const Store *op) {
    Type t = op->value.type();
    Type et = t.element_of();
    llvm::Align align(std::max(1, et.bytes()));
    bool unpredicated = is_all_true(op->predicate);
    int lanes = t.lanes();
    Value *v = to_storage(codegen(op->value), t);

    if (t.is_scalar()) {
        if (unpredicated) {
            add_tbaa(
                builder_->CreateAlignedStore(v, element_address(op->name, et, op->index), align),
                op->name);
            return;
        }
        Value *pred = codegen(op->predicate);
        llvm::BasicBlock *do_store = llvm::BasicBlock::Create(context_, "pred store", function_);
        llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "after pred store", function_);
        builder_->CreateCondBr(pred, do_store, after);
        builder_->SetInsertPoint(do_store);
        add_tbaa(builder_->CreateAlignedStore(v, element_address(op->name, et, op->index), align),
                 op->name);
        builder_->CreateBr(after);
        builder_->SetInsertPoint(after);
        return;
    }

    const Ramp *ramp = op->index.as<Ramp>();
    int64_t stride = 0;
    bool const_stride =
        ramp && ramp->base.type().is_scalar() && constant_int_value(ramp->stride, &stride);
    if (const_stride && stride == 1) {
        Value *p = element_address(op->name, et, ramp->base);
        align = access_alignment(base_alignment(allocation_alignment_, op->name, op->param),
                                 op->alignment, et.bytes());
        if (unpredicated) {
            add_tbaa(builder_->CreateAlignedStore(v, p, align), op->name);
        } else {
            add_tbaa(builder_->CreateMaskedStore(v, p, align, codegen(op->predicate)), op->name);
        }
        return;
    }
    if (const_stride && stride == -1 && unpredicated) {
        std::vector<int> idx;
        for (int i = 0; i < lanes; i++) idx.push_back(lanes - 1 - i);
        add_tbaa(builder_->CreateAlignedStore(builder_->CreateShuffleVector(v, idx),
                                              element_address(op->name, et, ramp->base, 1 - lanes),
                                              align),
                 op->name);
        return;
    }
    // Scatter: lanes are written in order, so the last of duplicate indices wins.
    Value *ptrs = element_address(op->name, et, codegen(op->index));
    Value *mask = unpredicated ? nullptr : codegen(op->predicate);
    add_tbaa(builder_->CreateMaskedScatter(v, ptrs, align, mask), op->name);
}

void CodeGenLLVM::visit(const Ramp *op) {
    Value *base = codegen(op->base);
    Value *stride = codegen(op->stride);
    Type et = op->type.element_of();
    int k = op->base.type().lanes(); // lanes of each element of the ramp
    int n = op->lanes;
    int total = k * n;
    if (k > 1) {
        // Repeat the vector base and stride n times.
        std::vector<int> rep;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) rep.push_back(j);
        }
        base = builder_->CreateShuffleVector(base, rep);
        stride = builder_->CreateShuffleVector(stride, rep);
    } else {
        base = splat(base, total);
        stride = splat(stride, total);
    }
    std::vector<llvm::Constant *> steps;
    llvm::Type *elem_t = llvm_type_of(et);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            steps.push_back(et.is_float() ? llvm::ConstantFP::get(elem_t, (double)i)
                                          : llvm::ConstantInt::get(elem_t, (uint64_t)i));
        }
    }
    Value *step = llvm::ConstantVector::get(steps);
    if (et.is_float()) {
        value_ = builder_->CreateFAdd(base, builder_->CreateFMul(stride, step));
    } else {
        value_ = builder_->CreateAdd(base, builder_->CreateMul(stride, step));
    }
}

void CodeGenLLVM::visit(const Broadcast *op) {
    Value *v = codegen(op->value);
    int k = op->value.type().lanes();
    if (k == 1) {
        value_ = splat(v, op->lanes);
        return;
    }
    std::vector<int> rep;
    for (int i = 0; i < op->lanes; i++) {
        for (int j = 0; j < k; j++) rep.push_back(j);
    }
    value_ = builder_->CreateShuffleVector(v, rep);
}

void CodeGenLLVM::visit(const Shuffle *op) {
    // Concatenate the inputs (as vectors), padding the shorter operand of each pairwise
    // concatenation so both sides of the shufflevector have one type.
    std::vector<Value *> vecs;
    std::vector<int> sizes;
    for (const Expr &e : op->vectors) {
        Value *v = codegen(e);
        if (!v->getType()->isVectorTy()) {
            v = builder_->CreateInsertElement(
                llvm::PoisonValue::get(llvm::FixedVectorType::get(v->getType(), 1)), v,
                (uint64_t)0);
        }
        vecs.push_back(v);
        sizes.push_back(e.type().lanes());
    }
    auto concat2 = [&](Value *a, int na, Value *b, int nb) {
        int n = std::max(na, nb);
        auto pad = [&](Value *v, int nv) {
            if (nv == n) return v;
            std::vector<int> idx;
            for (int i = 0; i < n; i++) idx.push_back(i < nv ? i : -1);
            return builder_->CreateShuffleVector(v, idx);
        };
        a = pad(a, na);
        b = pad(b, nb);
        std::vector<int> idx;
        for (int i = 0; i < na; i++) idx.push_back(i);
        for (int i = 0; i < nb; i++) idx.push_back(n + i);
        return builder_->CreateShuffleVector(a, b, idx);
    };
    Value *all = vecs[0];
    int n_all = sizes[0];
    if (vecs.size() == 2 && sizes[0] == sizes[1]) {
        // The common case (interleave / concat of equal halves): one shufflevector.
        if (op->indices.size() == 1) {
            all = concat2(vecs[0], sizes[0], vecs[1], sizes[1]);
        } else {
            value_ = builder_->CreateShuffleVector(vecs[0], vecs[1], op->indices);
            return;
        }
    } else {
        for (size_t i = 1; i < vecs.size(); i++) {
            all = concat2(all, n_all, vecs[i], sizes[i]);
            n_all += sizes[i];
        }
    }
    if (op->indices.size() == 1) {
        value_ = builder_->CreateExtractElement(all, (uint64_t)op->indices[0]);
        return;
    }
    value_ = builder_->CreateShuffleVector(all, op->indices);
}

void CodeGenLLVM::visit(const VectorReduce *op) {
    Value *v = codegen(op->value);
    Type t = op->type;
    Type et = t.element_of();
    int in_lanes = op->value.type().lanes();
    int out_lanes = t.lanes();
    int factor = in_lanes / out_lanes;
    if (factor == 1) {
        value_ = v;
        return;
    }
    auto combine = [&](Value *a, Value *b) -> Value * {
        switch (op->op) {
        case VectorReduce::Add:
            return et.is_float()  ? builder_->CreateFAdd(a, b)
                   : et.is_bool() ? builder_->CreateXor(a, b)
                                  : builder_->CreateAdd(a, b);
        case VectorReduce::Mul:
            return et.is_float()  ? builder_->CreateFMul(a, b)
                   : et.is_bool() ? builder_->CreateAnd(a, b)
                                  : builder_->CreateMul(a, b);
        case VectorReduce::Min:
            return et.is_bool() ? builder_->CreateAnd(a, b) : emit_min(a, b, et);
        case VectorReduce::Max:
            return et.is_bool() ? builder_->CreateOr(a, b) : emit_max(a, b, et);
        case VectorReduce::And:
            return builder_->CreateAnd(a, b);
        case VectorReduce::Or:
            return builder_->CreateOr(a, b);
        }
        return nullptr;
    };
    if (out_lanes == 1 && !et.is_bool()) {
        // The whole vector to one lane: LLVM's reduction intrinsics. The reduction order of a
        // VectorReduce is unspecified, so float sums may be reassociated.
        llvm::FastMathFlags reassoc;
        reassoc.setAllowReassoc();
        switch (op->op) {
        case VectorReduce::Add:
            if (et.is_float()) {
                Value *r = builder_->CreateFAddReduce(
                    llvm::ConstantFP::getNegativeZero(llvm_type_of(et)), v);
                llvm::cast<llvm::Instruction>(r)->setFastMathFlags(reassoc);
                value_ = r;
            } else {
                value_ = builder_->CreateAddReduce(v);
            }
            return;
        case VectorReduce::Mul:
            if (et.is_float()) {
                Value *r =
                    builder_->CreateFMulReduce(llvm::ConstantFP::get(llvm_type_of(et), 1.0), v);
                llvm::cast<llvm::Instruction>(r)->setFastMathFlags(reassoc);
                value_ = r;
            } else {
                value_ = builder_->CreateMulReduce(v);
            }
            return;
        case VectorReduce::Min:
            if (!et.is_float()) {
                value_ = builder_->CreateIntMinReduce(v, et.is_int());
                return;
            }
            break;
        case VectorReduce::Max:
            if (!et.is_float()) {
                value_ = builder_->CreateIntMaxReduce(v, et.is_int());
                return;
            }
            break;
        case VectorReduce::And:
            value_ = builder_->CreateAndReduce(v);
            return;
        case VectorReduce::Or:
            value_ = builder_->CreateOrReduce(v);
            return;
        }
    }
    if (out_lanes == 1 && et.is_bool() &&
        (op->op == VectorReduce::And || op->op == VectorReduce::Min ||
         op->op == VectorReduce::Mul)) {
        value_ = builder_->CreateAndReduce(v);
        return;
    }
    if (out_lanes == 1 && et.is_bool() &&
        (op->op == VectorReduce::Or || op->op == VectorReduce::Max)) {
        value_ = builder_->CreateOrReduce(v);
        return;
    }
    // Groups of `factor` adjacent lanes: combine the k-th lane of every group, k = 0..factor-1
    // (float min/max come here too, keeping select semantics).
    Value *acc = nullptr;
    for (int k = 0; k < factor; k++) {
        Value *slice;
        if (out_lanes == 1) {
            slice = builder_->CreateExtractElement(v, (uint64_t)k);
        } else {
            std::vector<int> idx;
            for (int j = 0; j < out_lanes; j++) idx.push_back(j * factor + k);
            slice = builder_->CreateShuffleVector(v, idx);
        }
        acc = acc ? combine(acc, slice) : slice;
    }
    value_ = acc;
}

void CodeGenLLVM::visit(const Allocate *op) {
    Type et = op->type.element_of();
    int64_t bytes_per = et.bytes();
    int64_t count = constant_allocation_elements(op);
    // Records the alignment of this allocation's base for its body; returns what the name had
    // outside (0: none), to restore after it.
    auto set_alignment = [&](int bytes) {
        int &slot = allocation_alignment_[op->name];
        int outer = slot;
        slot = bytes;
        return outer;
    };
    // store_in(Stack/Register) asks for the stack whatever the size (bound_small_allocations
    // gave such allocations a constant size); Auto ones only when small.
    if (count >= 0 && !allocated_on_heap(op)) {
        // Over-align so vector loads and stores of any width are aligned.
        llvm::AllocaInst *a =
            create_entry_alloca(llvm_storage_type_of(et), (uint64_t)std::max<int64_t>(count, 1),
                                stack_alignment, op->name);
        sym_push(op->name, a);
        int outer = set_alignment(stack_alignment);
        codegen(op->body);
        allocation_alignment_[op->name] = outer;
        sym_pop(op->name);
        return;
    }

    // bytes = product of extents in 64 bits.
    Value *bytes = llvm::ConstantInt::get(i64_t, bytes_per);
    for (const Expr &e : op->extents) {
        Value *v = codegen(e);
        v = e.type().is_int() ? builder_->CreateSExtOrTrunc(v, i64_t)
                              : builder_->CreateZExtOrTrunc(v, i64_t);
        bytes = builder_->CreateMul(bytes, v);
    }
    Value *cond = codegen(op->condition);
    if (op->memory_type == MemoryType::Stack) {
        // store_in(Stack) of a dynamic size, as Halide allows: an alloca of the size, released
        // when the allocation's scope ends (so one inside a loop does not grow the stack).
        Value *size = builder_->CreateSelect(cond, bytes, llvm::ConstantInt::get(i64_t, 0));
        Value *saved = builder_->CreateStackSave();
        llvm::AllocaInst *a =
            builder_->CreateAlloca(llvm::Type::getInt8Ty(context_), size, op->name);
        a->setAlignment(llvm::Align(stack_alignment));
        sym_push(op->name, a);
        int outer = set_alignment(stack_alignment);
        codegen(op->body);
        allocation_alignment_[op->name] = outer;
        sym_pop(op->name);
        builder_->CreateStackRestore(saved);
        return;
    }
    llvm::Value *slot = create_entry_alloca(ptr_t, 1, 8, op->name + ".slot");
    llvm::BasicBlock *pre = builder_->GetInsertBlock();
    llvm::BasicBlock *do_alloc =
        llvm::BasicBlock::Create(context_, "malloc " + op->name, function_);
    llvm::BasicBlock *oom = llvm::BasicBlock::Create(context_, "out of memory", function_);
    llvm::BasicBlock *ok = llvm::BasicBlock::Create(context_, "malloc ok", function_);
    llvm::BasicBlock *after =
        llvm::BasicBlock::Create(context_, "allocated " + op->name, function_);
    builder_->CreateCondBr(cond, do_alloc, after);
    builder_->SetInsertPoint(do_alloc);
    Value *p = call_c("halide_malloc", ptr_t, {user_context_, bytes});
    Value *failed = builder_->CreateAnd(
        builder_->CreateIsNull(p), builder_->CreateICmpNE(bytes, llvm::ConstantInt::get(i64_t, 0)));
    llvm::MDBuilder md(context_);
    builder_->CreateCondBr(failed, oom, ok, md.createBranchWeights(1, 1 << 20));
    builder_->SetInsertPoint(oom);
    emit_error_return(call_c("halide_error_out_of_memory", i32_t, {user_context_}));
    builder_->SetInsertPoint(ok);
    builder_->CreateBr(after);
    builder_->SetInsertPoint(after);
    llvm::PHINode *ptr = builder_->CreatePHI(ptr_t, 2, op->name);
    ptr->addIncoming(p, ok);
    ptr->addIncoming(llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0)), pre);
    builder_->CreateStore(ptr, slot);

    cleanups_.push_back({op->name, slot, "halide_free"});
    sym_push(op->name, ptr);
    int outer = set_alignment(heap_alignment);
    codegen(op->body);
    allocation_alignment_[op->name] = outer;
    sym_pop(op->name);
    cleanups_.pop_back();

    // End of scope: free unless a Free node already did (it nulls the slot).
    Value *cur = builder_->CreateLoad(ptr_t, slot);
    llvm::BasicBlock *do_free = llvm::BasicBlock::Create(context_, "free " + op->name, function_);
    llvm::BasicBlock *done =
        llvm::BasicBlock::Create(context_, "end allocate " + op->name, function_);
    builder_->CreateCondBr(builder_->CreateIsNotNull(cur), do_free, done);
    builder_->SetInsertPoint(do_free);
    call_c("halide_free", void_t, {user_context_, cur});
    builder_->CreateBr(done);
    builder_->SetInsertPoint(done);
}

void CodeGenLLVM::visit(const Free *op) {
    for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) {
        if (it->name != op->name || it->function != "halide_free") continue;
        Value *cur = builder_->CreateLoad(ptr_t, it->slot);
        llvm::BasicBlock *do_free =
            llvm::BasicBlock::Create(context_, "free " + op->name, function_);
        llvm::BasicBlock *done = llvm::BasicBlock::Create(context_, "freed " + op->name, function_);
        builder_->CreateCondBr(builder_->CreateIsNotNull(cur), do_free, done);
        builder_->SetInsertPoint(do_free);
        call_c("halide_free", void_t, {user_context_, cur});
        builder_->CreateBr(done);
        builder_->SetInsertPoint(done);
        builder_->CreateStore(llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0)),
                              it->slot);
        return;
    }
    // A stack allocation: nothing to do.
    internal_assert(sym_exists(op->name)) << "Free of unknown allocation " << op->name << "\n";
}

} // namespace internal
} // namespace loom
