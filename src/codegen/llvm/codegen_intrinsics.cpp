// CodeGenLLVM: calls. Loom intrinsics (bit operations, lerp, saturating and widening
// arithmetic, stringify, buffer accessors, make_struct), math functions (LLVM intrinsics or
// libm), and calls to any other C function.
#include "codegen/llvm/codegen_llvm.h"
#include "ir/ir_utils.h"
#include "ir/scratchpads.h"

#include "support/error.h"
#include "support/util.h"

#include <llvm/MC/MCSubtargetInfo.h>
#include <loom/runtime/loom_runtime.h>

#include <cmath>
#include <cstddef>
#include <map>

namespace loom {
namespace internal {

using llvm::Value;

void CodeGenLLVM::visit(const Call *op) {
    switch (op->call_type) {
    case Call::Halide:
    case Call::Image:
        internal_error << "Call to " << op->name
                       << (op->call_type == Call::Halide ? " (a Func)" : " (an image)")
                       << " reached code generation; lowering must replace it by a Load\n";
        break;
    case Call::Intrinsic:
    case Call::PureIntrinsic:
        value_ = codegen_intrinsic(op);
        break;
    case Call::Extern:
    case Call::ExternCPlusPlus:
    case Call::PureExtern: {
        bool handled = false;
        // Halide spells the buffer accessors as extern calls; accept both forms.
        value_ = codegen_buffer_intrinsic(op, &handled);
        if (!handled) value_ = codegen_math(op, &handled);
        if (!handled) value_ = codegen_extern(op);
        break;
    }
    }
}

// ---- Calls to C functions ----

Value *CodeGenLLVM::codegen_extern(const Call *op) {
    std::vector<Value *> args;
    std::vector<Type> types;
    for (const Expr &e : op->args) {
        args.push_back(codegen(e));
        types.push_back(e.type());
    }
    Type rt = op->type;
    llvm::Type *ret = llvm_storage_type_of(rt.element_of());
    auto call_one = [&](const std::vector<Value *> &lane_args) {
        std::vector<Value *> c_args;
        for (size_t i = 0; i < lane_args.size(); i++) {
            // bool travels as a byte, as C passes it.
            c_args.push_back(types[i].is_bool() ? builder_->CreateZExt(lane_args[i], i8_t)
                                                : lane_args[i]);
        }
        return from_storage(call_c(op->name, ret, c_args), rt.element_of());
    };
    bool any_vector = rt.is_vector();
    for (const Type &t : types) any_vector = any_vector || t.is_vector();
    if (!any_vector) return call_one(args);
    return scalarize(args, rt, call_one);
}

// ---- Math ----

namespace {

/// e^x for a vector of float32, inline: LLVM has no vector exp on x86 and would call expf once
/// per lane (nl_means spent 38% of its time there). Cody-Waite reduction x = k ln2 + r with
/// |r| <= ln2 / 2 (ln2 split in two so k ln2 is exact for the k that matter), the Cephes
/// minimax polynomial for e^r (within 1-2 ulp of the correctly rounded result), and the scale
/// 2^k applied in two halves so results down to the subnormals stay right. x is clamped to
/// [-104, 89] first (beyond: 0 and +inf); NaN passes through.
Value *vector_exp_f32(llvm::IRBuilder<> &b, Value *x) {
    llvm::Type *ft = x->getType();
    auto *vt = llvm::cast<llvm::VectorType>(ft);
    llvm::Type *it = llvm::VectorType::get(b.getInt32Ty(), vt->getElementCount());
    auto c = [&](double v) { return llvm::ConstantFP::get(ft, v); };
    auto ci = [&](int v) { return llvm::ConstantInt::get(it, v); };
    Value *lo = c(-104.0), *hi = c(89.0);
    Value *xc = b.CreateSelect(b.CreateFCmpOLT(x, lo), lo, x);
    xc = b.CreateSelect(b.CreateFCmpOGT(xc, hi), hi, xc);
    Value *k = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven,
                                      b.CreateFMul(xc, c(1.44269504088896341)));
    // a * b + c, fused where the target has FMA (llvm.fmuladd).
    auto mad = [&](Value *x0, Value *x1, Value *x2) {
        return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ft}, {x0, x1, x2});
    };
    Value *r = mad(k, c(-0.693359375), xc);
    r = mad(k, c(2.12194440e-4), r);
    Value *z = b.CreateFMul(r, r);
    Value *y = c(1.9875691500e-4);
    for (double coeff :
         {1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}) {
        y = mad(y, r, c(coeff));
    }
    Value *p = b.CreateFAdd(mad(y, z, r), c(1.0));
    Value *ki = b.CreateFPToSI(k, it);
    Value *k1 = b.CreateAShr(ki, ci(1));
    Value *k2 = b.CreateSub(ki, k1);
    auto pow2 = [&](Value *e) {
        return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, ci(127)), ci(23)), ft);
    };
    Value *res = b.CreateFMul(b.CreateFMul(p, pow2(k1)), pow2(k2));
    return b.CreateSelect(b.CreateFCmpUNO(x, x), x, res);
}

/// Whether tm's CPU and features include FMA (the vector sin/cos needs it).
bool has_fma(const llvm::TargetMachine &tm) {
    // AArch64 always has it (and its subtargets know no "fma" feature: asking prints a warning).
    if (tm.getTargetTriple().isAArch64()) return true;
    return tm.getMCSubtargetInfo()->checkFeatures("+fma");
}

/// sin(x) or cos(x) for a vector of float32, inline: LLVM scalarizes llvm.sin/llvm.cos into one
/// sinf/cosf call per lane (a third of snake's run time). Needs FMA. Reduction by pi/2:
/// k = round(x 2/pi), r = x - k pi/2 with pi/2 split in three floats (C1 + C2 + C3, 72 bits)
/// and each step one fused multiply-add, so x - k C1 is exact (it is a multiple of ulp(C1)
/// below 2) and r carries about one rounding; then the Cephes minimax polynomials for sin and
/// cos on [-pi/4, pi/4], chosen and negated by the quadrant k mod 4 (plus one for cos).
/// Within 2 ulp of the correctly rounded result for |x| up to 1e6 (tests/correctness/
/// math_regressions.cpp); beyond ~1e7 the float k is no longer the nearest integer and the
/// result loses accuracy (it stays in [-1, 1]). sin(+-0) = +-0; sin/cos of +-inf or NaN is NaN.
Value *vector_sin_cos_f32(llvm::IRBuilder<> &b, Value *x, bool is_cos) {
    llvm::Type *ft = x->getType();
    auto *vt = llvm::cast<llvm::VectorType>(ft);
    llvm::Type *it = llvm::VectorType::get(b.getInt32Ty(), vt->getElementCount());
    auto c = [&](double v) { return llvm::ConstantFP::get(ft, v); };
    auto ci = [&](int v) { return llvm::ConstantInt::get(it, v); };
    auto mad = [&](Value *x0, Value *x1, Value *x2) {
        return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ft}, {x0, x1, x2});
    };
    // The reduction's exactness argument needs a single rounding per step: llvm.fma, not
    // fmuladd (which may split into a multiply and an add).
    auto fma = [&](Value *x0, Value *x1, Value *x2) {
        return b.CreateIntrinsic(llvm::Intrinsic::fma, {ft}, {x0, x1, x2});
    };
    // Infinities and NaNs reduce as 0 (no poison from the conversion of k) and give NaN at
    // the end.
    Value *ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    Value *finite = b.CreateFCmpOLT(ax, llvm::ConstantFP::getInfinity(ft));
    Value *xs = b.CreateSelect(finite, x, c(0.0));
    Value *k =
        b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, b.CreateFMul(xs, c(0x1.45f306p-1)));
    Value *r = fma(k, c(-0x1.921fb6p+0), xs);
    r = fma(k, c(0x1.777a5cp-25), r);
    r = fma(k, c(0x1.ee59dap-50), r);
    // Far beyond the accurate range (|x| > ~1e7) k is no longer the nearest integer and r is
    // not reduced: bound it so that z cannot overflow (inf - inf in the polynomials is NaN).
    r = b.CreateSelect(b.CreateFCmpOGT(r, c(2.0)), c(2.0), r);
    r = b.CreateSelect(b.CreateFCmpOLT(r, c(-2.0)), c(-2.0), r);
    Value *z = b.CreateFMul(r, r);
    // sin r = r + r z P(z), cos r = 1 - z / 2 + z^2 Q(z) (Cephes sinf/cosf coefficients).
    Value *ps = mad(mad(c(-1.9515295891e-4), z, c(8.3321608736e-3)), z, c(-1.6666654611e-1));
    Value *sin_r = mad(b.CreateFMul(ps, z), r, r);
    Value *pc =
        mad(mad(c(2.443315711809948e-5), z, c(-1.388731625493765e-3)), z, c(4.166664568298827e-2));
    Value *cos_r = mad(pc, b.CreateFMul(z, z), mad(z, c(-0.5), c(1.0)));
    // k mod 4 survives a clamp to +-2^30: every float beyond 2^26 is a multiple of 4.
    Value *kc = b.CreateSelect(b.CreateFCmpOGT(k, c(0x1p30)), c(0x1p30), k);
    kc = b.CreateSelect(b.CreateFCmpOLT(kc, c(-0x1p30)), c(-0x1p30), kc);
    Value *q = b.CreateFPToSI(kc, it);
    if (is_cos) q = b.CreateAdd(q, ci(1));
    Value *odd = b.CreateICmpNE(b.CreateAnd(q, ci(1)), ci(0));
    Value *res = b.CreateSelect(odd, cos_r, sin_r);
    Value *sign = b.CreateShl(b.CreateAnd(q, ci(2)), ci(30));
    res = b.CreateBitCast(b.CreateXor(b.CreateBitCast(res, it), sign), ft);
    // The polynomials at such a bounded r may stray slightly beyond 1.
    res = b.CreateSelect(b.CreateFCmpOGT(res, c(1.0)), c(1.0), res);
    res = b.CreateSelect(b.CreateFCmpOLT(res, c(-1.0)), c(-1.0), res);
    // k = -0 reduces -0 to +0; sin keeps the sign of a zero argument.
    if (!is_cos) res = b.CreateSelect(b.CreateFCmpOEQ(xs, c(0.0)), xs, res);
    return b.CreateSelect(finite, res, llvm::ConstantFP::getNaN(ft));
}

} // namespace

Value *CodeGenLLVM::codegen_math(const Call *op, bool *handled) {
    *handled = false;
    if (op->call_type != Call::PureExtern && op->call_type != Call::Extern) return nullptr;
    std::string name = op->name;
    std::string suffix;
    for (const char *s : {"_f16", "_f32", "_f64"}) {
        if (ends_with(name, s)) suffix = s;
    }
    if (suffix.empty() || op->args.empty()) return nullptr;
    std::string fn = name.substr(0, name.size() - suffix.size());
    // fast_* variants are computed precisely (allowed: they only promise an approximation).
    if (starts_with(fn, "fast_")) fn = fn.substr(5);

    static const std::map<std::string, llvm::Intrinsic::ID> intrinsics = {
        {"sqrt", llvm::Intrinsic::sqrt},   {"floor", llvm::Intrinsic::floor},
        {"ceil", llvm::Intrinsic::ceil},   {"round", llvm::Intrinsic::roundeven},
        {"trunc", llvm::Intrinsic::trunc}, {"exp", llvm::Intrinsic::exp},
        {"log", llvm::Intrinsic::log},     {"pow", llvm::Intrinsic::pow},
        {"sin", llvm::Intrinsic::sin},     {"cos", llvm::Intrinsic::cos},
        {"fabs", llvm::Intrinsic::fabs},   {"abs", llvm::Intrinsic::fabs},
    };
    static const char *libm[] = {"tan",   "asin", "acos",  "atan",    "atan2", "sinh",
                                 "cosh",  "tanh", "asinh", "acosh",   "atanh", "erf",
                                 "hypot", "exp2", "log2",  "log10",   "expm1", "log1p",
                                 "cbrt",  "fmod", "erfc",  "copysign"};
    bool is_libm = false;
    for (const char *l : libm) is_libm = is_libm || fn == l;
    bool is_class = fn == "is_nan" || fn == "is_inf" || fn == "is_finite";
    bool is_inverse = fn == "inverse" || fn == "inverse_sqrt";
    if (!intrinsics.count(fn) && !is_libm && !is_class && !is_inverse) return nullptr;
    for (const Expr &e : op->args) {
        if (!e.type().is_float()) return nullptr;
    }
    *handled = true;

    Type at = op->args[0].type();
    std::vector<Value *> args;
    for (const Expr &e : op->args) args.push_back(codegen(e));

    // The math functions' own arithmetic (range reductions, polynomials) is evaluated as
    // written, FMAs allowed: reassociation would fold a Cody-Waite split constant back into
    // one rounded constant, and approximate-function flags could swap a call for a cruder one.
    llvm::IRBuilderBase::FastMathFlagGuard math_guard(*builder_);
    llvm::FastMathFlags math_flags;
    math_flags.setAllowContract(builder_->getFastMathFlags().allowContract());
    builder_->setFastMathFlags(math_flags);

    if (is_class) {
        Value *x = args[0];
        if (fn == "is_nan") return builder_->CreateFCmpUNO(x, x);
        Value *ax = call_intrin(llvm::Intrinsic::fabs, {x->getType()}, {x});
        Value *inf = llvm::ConstantFP::getInfinity(x->getType());
        return fn == "is_inf" ? builder_->CreateFCmpOEQ(ax, inf) : builder_->CreateFCmpOLT(ax, inf);
    }

    // Half precision is computed in float32 and rounded back.
    Type ct = at.bits() == 16 ? Float(32, at.lanes()) : at;
    if (ct != at) {
        for (Value *&a : args) a = builder_->CreateFPExt(a, llvm_type_of(ct));
    }
    Value *r;
    if (is_inverse) {
        Value *x = args[0];
        if (fn == "inverse_sqrt") x = call_intrin(llvm::Intrinsic::sqrt, {x->getType()}, {x});
        r = builder_->CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x);
    } else if (fn == "exp" && ct.is_vector() && ct.bits() == 32) {
        r = vector_exp_f32(*builder_, args[0]);
    } else if ((fn == "sin" || fn == "cos") && ct.is_vector() && ct.bits() == 32 &&
               has_fma(target_machine_)) {
        r = vector_sin_cos_f32(*builder_, args[0], fn == "cos");
    } else if (intrinsics.count(fn)) {
        r = call_intrin(intrinsics.at(fn), {args[0]->getType()}, args);
    } else {
        std::string c_name = ct.bits() == 32 ? fn + "f" : fn;
        llvm::Type *scalar_t = llvm_type_of(ct.element_of());
        auto call_one = [&](const std::vector<Value *> &lane_args) {
            return call_c(c_name, scalar_t, lane_args);
        };
        r = ct.is_vector() ? scalarize(args, ct, call_one) : call_one(args);
    }
    if (ct != at && op->type.is_float()) r = builder_->CreateFPTrunc(r, llvm_type_of(op->type));
    return r;
}

// ---- halide_buffer_t accessors ----

namespace {
// Field offsets of halide_buffer_t / halide_dimension_t in the host ABI (the JIT's target).
const uint64_t host_offset = offsetof(halide_buffer_t, host);
const uint64_t device_offset = offsetof(halide_buffer_t, device);
const uint64_t device_interface_offset = offsetof(halide_buffer_t, device_interface);
const uint64_t flags_offset = offsetof(halide_buffer_t, flags);
const uint64_t type_offset = offsetof(halide_buffer_t, type);
const uint64_t dimensions_offset = offsetof(halide_buffer_t, dimensions);
const uint64_t dim_offset = offsetof(halide_buffer_t, dim);
const uint64_t dim_min_offset = offsetof(halide_dimension_t, min);
const uint64_t dim_extent_offset = offsetof(halide_dimension_t, extent);
const uint64_t dim_stride_offset = offsetof(halide_dimension_t, stride);
const uint64_t dim_size = sizeof(halide_dimension_t);
} // namespace

Value *CodeGenLLVM::codegen_buffer_intrinsic(const Call *op, bool *handled) {
    *handled = false;
    const std::string &n = op->name;
    if (!starts_with(n, "_halide_buffer_")) return nullptr;
    *handled = true;
    internal_assert(!op->args.empty()) << n << " without a buffer argument\n";
    Value *buf = codegen(op->args[0]);
    auto field = [&](uint64_t offset) {
        return builder_->CreateConstInBoundsGEP1_64(i8_t, buf, offset);
    };
    // Address of dim[d].<field>.
    auto dim_field = [&](Value *d, uint64_t offset) {
        Value *dims = builder_->CreateLoad(ptr_t, field(dim_offset));
        Value *d64 = builder_->CreateSExtOrTrunc(d, i64_t);
        Value *byte =
            builder_->CreateAdd(builder_->CreateMul(d64, llvm::ConstantInt::get(i64_t, dim_size)),
                                llvm::ConstantInt::get(i64_t, offset));
        return builder_->CreateInBoundsGEP(i8_t, dims, byte);
    };
    auto result = [&](Value *v) {
        llvm::Type *rt = llvm_type_of(op->type);
        if (v->getType() == rt) return v;
        if (rt->isIntegerTy() && v->getType()->isIntegerTy())
            return builder_->CreateZExtOrTrunc(v, rt);
        return v;
    };
    auto dim_arg = [&]() {
        internal_assert(op->args.size() >= 2) << n << " needs a dimension argument\n";
        return codegen(op->args[1]);
    };
    if (n == Call::buffer_get_host) return builder_->CreateLoad(ptr_t, field(host_offset));
    if (n == "_halide_buffer_get_device")
        return result(builder_->CreateLoad(i64_t, field(device_offset)));
    if (n == "_halide_buffer_get_device_interface") {
        return builder_->CreateLoad(ptr_t, field(device_interface_offset));
    }
    if (n == "_halide_buffer_get_flags")
        return result(builder_->CreateLoad(i64_t, field(flags_offset)));
    if (n == Call::buffer_get_dimensions)
        return result(builder_->CreateLoad(i32_t, field(dimensions_offset)));
    if (n == Call::buffer_get_type) {
        // {code, bits, lanes} read as one little-endian word: code | bits << 8 | lanes << 16.
        return result(builder_->CreateLoad(i32_t, field(type_offset)));
    }
    if (n == Call::buffer_get_min)
        return result(builder_->CreateLoad(i32_t, dim_field(dim_arg(), dim_min_offset)));
    if (n == Call::buffer_get_extent) {
        return result(builder_->CreateLoad(i32_t, dim_field(dim_arg(), dim_extent_offset)));
    }
    if (n == Call::buffer_get_stride) {
        return result(builder_->CreateLoad(i32_t, dim_field(dim_arg(), dim_stride_offset)));
    }
    if (n == "_halide_buffer_get_max") {
        Value *d = dim_arg();
        Value *mn = builder_->CreateLoad(i32_t, dim_field(d, dim_min_offset));
        Value *ex = builder_->CreateLoad(i32_t, dim_field(d, dim_extent_offset));
        return result(
            builder_->CreateSub(builder_->CreateAdd(mn, ex), llvm::ConstantInt::get(i32_t, 1)));
    }
    if (n == Call::buffer_is_bounds_query) {
        Value *host = builder_->CreateLoad(ptr_t, field(host_offset));
        Value *dev = builder_->CreateLoad(i64_t, field(device_offset));
        return builder_->CreateAnd(builder_->CreateIsNull(host),
                                   builder_->CreateICmpEQ(dev, llvm::ConstantInt::get(i64_t, 0)));
    }
    if (n == "_halide_buffer_get_host_dirty" || n == "_halide_buffer_get_device_dirty") {
        uint64_t bit = n == "_halide_buffer_get_host_dirty" ? halide_buffer_flag_host_dirty
                                                            : halide_buffer_flag_device_dirty;
        Value *flags = builder_->CreateLoad(i64_t, field(flags_offset));
        return builder_->CreateICmpNE(builder_->CreateAnd(flags, bit),
                                      llvm::ConstantInt::get(i64_t, 0));
    }
    if (n == "_halide_buffer_set_host_dirty" || n == "_halide_buffer_set_device_dirty") {
        uint64_t bit = n == "_halide_buffer_set_host_dirty" ? halide_buffer_flag_host_dirty
                                                            : halide_buffer_flag_device_dirty;
        internal_assert(op->args.size() == 2) << n << " takes (buffer, value)\n";
        Value *on = codegen(op->args[1]);
        if (on->getType() != i1_t) on = builder_->CreateIsNotNull(on);
        Value *p = field(flags_offset);
        Value *flags = builder_->CreateLoad(i64_t, p);
        Value *set = builder_->CreateOr(flags, bit);
        Value *cleared = builder_->CreateAnd(flags, ~bit);
        builder_->CreateStore(builder_->CreateSelect(on, set, cleared), p);
        return result(llvm::ConstantInt::get(i32_t, 0));
    }
    if (n == Call::buffer_set_bounds) {
        internal_assert(op->args.size() == 4) << n << " takes (buffer, dim, min, extent)\n";
        Value *d = codegen(op->args[1]);
        Value *mn = builder_->CreateSExtOrTrunc(codegen(op->args[2]), i32_t);
        Value *ex = builder_->CreateSExtOrTrunc(codegen(op->args[3]), i32_t);
        builder_->CreateStore(mn, dim_field(d, dim_min_offset));
        builder_->CreateStore(ex, dim_field(d, dim_extent_offset));
        return result(llvm::ConstantInt::get(i32_t, 0));
    }
    if (n == Call::buffer_init_strides) {
        // Dense strides in dimension order: stride[0] = 1, stride[i] = stride[i-1] * extent[i-1].
        Value *dims = builder_->CreateLoad(i32_t, field(dimensions_offset));
        llvm::BasicBlock *pre = builder_->GetInsertBlock();
        llvm::BasicBlock *loop = llvm::BasicBlock::Create(context_, "init strides", function_);
        llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "strides done", function_);
        Value *zero = llvm::ConstantInt::get(i32_t, 0);
        builder_->CreateCondBr(builder_->CreateICmpSGT(dims, zero), loop, after);
        builder_->SetInsertPoint(loop);
        llvm::PHINode *i = builder_->CreatePHI(i32_t, 2, "d");
        llvm::PHINode *stride = builder_->CreatePHI(i32_t, 2, "stride");
        i->addIncoming(zero, pre);
        stride->addIncoming(llvm::ConstantInt::get(i32_t, 1), pre);
        builder_->CreateStore(stride, dim_field(i, dim_stride_offset));
        Value *ex = builder_->CreateLoad(i32_t, dim_field(i, dim_extent_offset));
        Value *next_stride = builder_->CreateMul(stride, ex);
        Value *next = builder_->CreateAdd(i, llvm::ConstantInt::get(i32_t, 1));
        i->addIncoming(next, loop);
        stride->addIncoming(next_stride, loop);
        builder_->CreateCondBr(builder_->CreateICmpSLT(next, dims), loop, after);
        builder_->SetInsertPoint(after);
        return result(llvm::ConstantInt::get(i32_t, 0));
    }
    internal_error << "Unknown buffer intrinsic " << n << "\n";
    return nullptr;
}

// ---- stringify ----

Value *CodeGenLLVM::codegen_stringify(const Call *op) {
    // A stack buffer sized from the arguments: string constants exactly, other values by a
    // bound per lane plus vector punctuation. The runtime's writers stop at `end`, so a value
    // longer than its bound (a huge double in %f) is truncated, never overflows.
    uint64_t size = 1;
    for (const Expr &e : op->args) {
        if (const StringImm *s = e.as<StringImm>())
            size += s->value.size();
        else
            size += (e.type().is_float() ? 64 : 36) * (uint64_t)e.type().lanes() + 2;
    }
    size = std::max<uint64_t>(size, 64);
    Value *buf = create_entry_alloca(i8_t, size, 8, "stringify");
    Value *end = builder_->CreateConstInBoundsGEP1_64(i8_t, buf, size);
    Value *dst = buf;
    // An empty string first, so the result is terminated even with no arguments.
    builder_->CreateStore(llvm::ConstantInt::get(i8_t, 0), buf);
    auto put_string = [&](Value *s) {
        dst = call_c("halide_string_to_string", ptr_t, {dst, end, s});
    };
    auto put_scalar = [&](Value *v, Type t) {
        if (t.is_float()) {
            if (t.bits() != 64) v = builder_->CreateFPExt(v, f64_t);
            dst = call_c("halide_double_to_string", ptr_t,
                         {dst, end, v, llvm::ConstantInt::get(i32_t, 0)});
        } else if (t.is_int()) {
            v = builder_->CreateSExt(v, i64_t);
            dst = call_c("halide_int64_to_string", ptr_t,
                         {dst, end, v, llvm::ConstantInt::get(i32_t, 1)});
        } else if (t.is_uint()) {
            v = builder_->CreateZExt(v, i64_t);
            dst = call_c("halide_uint64_to_string", ptr_t,
                         {dst, end, v, llvm::ConstantInt::get(i32_t, 1)});
        } else {
            dst = call_c("halide_pointer_to_string", ptr_t, {dst, end, v});
        }
    };
    for (const Expr &e : op->args) {
        if (const StringImm *s = e.as<StringImm>()) {
            if (!s->value.empty()) put_string(string_constant(s->value));
            continue;
        }
        Value *v = codegen(e);
        Type t = e.type();
        if (t.is_scalar()) {
            put_scalar(v, t);
            continue;
        }
        put_string(string_constant("<"));
        for (int i = 0; i < t.lanes(); i++) {
            if (i > 0) put_string(string_constant(", "));
            put_scalar(builder_->CreateExtractElement(v, (uint64_t)i), t.element_of());
        }
        put_string(string_constant(">"));
    }
    return buf;
}

// ---- The intrinsics ----

Value *CodeGenLLVM::codegen_intrinsic(const Call *op) {
    const std::string &n = op->name;
    const std::vector<Expr> &args = op->args;
    Type t = op->type;
    Type et = t.element_of();
    auto arg = [&](size_t i) {
        internal_assert(i < args.size()) << "Too few arguments to " << n << "\n";
        return codegen(args[i]);
    };

    if (n == Call::prefetch) return codegen_prefetch(op);
    if (n == Call::gpu_launch) return codegen_gpu_launch(op);
    if (n == Call::likely || n == Call::likely_if_innermost || n == Call::promise_clamped ||
        n == Call::unsafe_promise_clamped) {
        return arg(0);
    }
    if (n == Call::strict_float) {
        // Every float operation inside is rounded as written: no contraction, no reordering.
        llvm::IRBuilderBase::FastMathFlagGuard strict(*builder_);
        builder_->clearFastMathFlags();
        return arg(0);
    }
    if (n == Call::return_second) {
        arg(0);
        return arg(1);
    }
    if (n == Call::bitwise_and) return builder_->CreateAnd(arg(0), arg(1));
    if (n == Call::bitwise_or) return builder_->CreateOr(arg(0), arg(1));
    if (n == Call::bitwise_xor) return builder_->CreateXor(arg(0), arg(1));
    if (n == Call::bitwise_not) return builder_->CreateNot(arg(0));
    if (n == Call::shift_left) return codegen_shift(op, true);
    if (n == Call::shift_right) return codegen_shift(op, false);
    if (n == Call::abs) {
        Type at = args[0].type();
        Value *a = arg(0);
        if (at.is_float()) return call_intrin(llvm::Intrinsic::fabs, {a->getType()}, {a});
        if (at.is_uint()) return a;
        // |INT_MIN| wraps to INT_MIN, whose bits read as unsigned are the right answer.
        Value *neg = builder_->CreateICmpSLT(a, llvm::Constant::getNullValue(a->getType()));
        return builder_->CreateSelect(neg, builder_->CreateNeg(a), a);
    }
    if (n == Call::absd) {
        Type at = args[0].type();
        Value *a = arg(0), *b = arg(1);
        if (at.is_float()) {
            Value *d = builder_->CreateFSub(a, b);
            return call_intrin(llvm::Intrinsic::fabs, {d->getType()}, {d});
        }
        // The difference fits the unsigned type of the same width.
        return builder_->CreateSelect(emit_lt(a, b, at), builder_->CreateSub(b, a),
                                      builder_->CreateSub(a, b));
    }
    if (n == Call::count_leading_zeros || n == Call::count_trailing_zeros || n == Call::popcount) {
        Value *a = arg(0);
        Value *r;
        if (n == Call::popcount) {
            r = call_intrin(llvm::Intrinsic::ctpop, {a->getType()}, {a});
        } else {
            r = call_intrin(n == Call::count_leading_zeros ? llvm::Intrinsic::ctlz
                                                           : llvm::Intrinsic::cttz,
                            {a->getType()}, {a, builder_->getFalse()});
        }
        return builder_->CreateZExtOrTrunc(r, llvm_type_of(t));
    }
    if (n == Call::lerp) return codegen_lerp(op);
    if (n == Call::if_then_else) {
        internal_assert(args.size() == 2 || args.size() == 3) << "if_then_else takes 2 or 3 args\n";
        Value *c = arg(0);
        if (c->getType()->isVectorTy()) {
            // A vector condition cannot branch: both sides are evaluated.
            Value *a = arg(1);
            Value *b = args.size() == 3 ? arg(2) : llvm::Constant::getNullValue(a->getType());
            return builder_->CreateSelect(c, a, b);
        }
        llvm::BasicBlock *then_bb = llvm::BasicBlock::Create(context_, "if_then", function_);
        llvm::BasicBlock *else_bb = llvm::BasicBlock::Create(context_, "if_else", function_);
        llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "if_after", function_);
        builder_->CreateCondBr(c, then_bb, else_bb);
        builder_->SetInsertPoint(then_bb);
        Value *a = arg(1);
        llvm::BasicBlock *then_end = builder_->GetInsertBlock();
        builder_->CreateBr(after);
        builder_->SetInsertPoint(else_bb);
        Value *b = args.size() == 3 ? arg(2) : llvm::Constant::getNullValue(a->getType());
        llvm::BasicBlock *else_end = builder_->GetInsertBlock();
        builder_->CreateBr(after);
        builder_->SetInsertPoint(after);
        llvm::PHINode *phi = builder_->CreatePHI(a->getType(), 2);
        phi->addIncoming(a, then_end);
        phi->addIncoming(b, else_end);
        return phi;
    }
    if (n == Call::require) {
        // require(condition, value, error): when the condition fails (in any lane) the error
        // call reports it and the pipeline returns its code; otherwise the value.
        internal_assert(args.size() == 3) << "require takes 3 args\n";
        Value *c = arg(0);
        if (c->getType()->isVectorTy()) c = builder_->CreateAndReduce(c);
        llvm::BasicBlock *ok = llvm::BasicBlock::Create(context_, "require ok", function_);
        llvm::BasicBlock *failed = llvm::BasicBlock::Create(context_, "require failed", function_);
        llvm::MDBuilder md(context_);
        builder_->CreateCondBr(c, ok, failed, md.createBranchWeights(1 << 20, 1));
        builder_->SetInsertPoint(failed);
        // The error is cast to the value's type only to type-check; return the Int(32) code.
        const Cast *as_value = args[2].as<Cast>();
        emit_error_return(codegen(as_value ? as_value->value : args[2]));
        builder_->SetInsertPoint(ok);
        return arg(1);
    }
    if (n == Call::div_round_to_zero || n == Call::mod_round_to_zero) {
        Value *a = arg(0), *b = arg(1);
        return emit_div_round_to_zero(a, b, t, n == Call::mod_round_to_zero);
    }
    if (n == Call::saturating_add || n == Call::saturating_sub) {
        Value *a = arg(0), *b = arg(1);
        bool add = n == Call::saturating_add;
        if (et.is_float()) return add ? builder_->CreateFAdd(a, b) : builder_->CreateFSub(a, b);
        llvm::Intrinsic::ID id =
            et.is_int() ? (add ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::ssub_sat)
                        : (add ? llvm::Intrinsic::uadd_sat : llvm::Intrinsic::usub_sat);
        return call_intrin(id, {a->getType()}, {a, b});
    }
    if (n == Call::saturating_cast) return codegen_saturating_cast(arg(0), args[0].type(), t);
    if (n == Call::widening_add || n == Call::widening_mul || n == "widening_sub") {
        Value *a = cast_value(arg(0), args[0].type(), t);
        Value *b = cast_value(arg(1), args[1].type(), t);
        if (et.is_float()) {
            return n == Call::widening_add   ? builder_->CreateFAdd(a, b)
                   : n == Call::widening_mul ? builder_->CreateFMul(a, b)
                                             : builder_->CreateFSub(a, b);
        }
        return n == Call::widening_add   ? builder_->CreateAdd(a, b)
               : n == Call::widening_mul ? builder_->CreateMul(a, b)
                                         : builder_->CreateSub(a, b);
    }
    if (n == Call::halving_add || n == Call::rounding_halving_add || n == "halving_sub") {
        Value *a = arg(0), *b = arg(1);
        if (et.is_float()) {
            Value *s = n == "halving_sub" ? builder_->CreateFSub(a, b) : builder_->CreateFAdd(a, b);
            return builder_->CreateFMul(s, llvm::ConstantFP::get(s->getType(), 0.5));
        }
        // Exact in twice the width, then halved and narrowed.
        Type wide = et.with_bits(et.bits() * 2).with_lanes(t.lanes());
        Value *wa = cast_value(a, t, wide), *wb = cast_value(b, t, wide);
        Value *s = n == "halving_sub" ? builder_->CreateSub(wa, wb) : builder_->CreateAdd(wa, wb);
        if (n == Call::rounding_halving_add) s = builder_->CreateAdd(s, const_int(wide, 1));
        s = et.is_int() ? builder_->CreateAShr(s, const_int(wide, 1))
                        : builder_->CreateLShr(s, const_int(wide, 1));
        return builder_->CreateTrunc(s, llvm_type_of(t));
    }
    if (n == Call::mul_shift_right || n == "rounding_mul_shift_right") {
        // saturating_cast<T>(widening_mul(a, b) >> q), q unsigned.
        Type at = args[0].type();
        Type wide = at.with_bits(at.bits() * 2);
        Value *p = builder_->CreateMul(cast_value(arg(0), at, wide),
                                       cast_value(arg(1), args[1].type(), wide));
        Value *q = cast_value(arg(2), args[2].type(), args[2].type().with_code(Type::UInt));
        if (!q->getType()->isVectorTy() && at.is_vector()) q = splat(q, at.lanes());
        q = builder_->CreateZExtOrTrunc(q, llvm_type_of(wide.with_code(Type::UInt)));
        q = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::umin, q,
                                            const_int(wide.with_code(Type::UInt), wide.bits() - 1));
        if (n == "rounding_mul_shift_right") {
            // Add half of the divisor (nothing when q == 0).
            Value *one = const_int(wide, 1);
            Value *half = builder_->CreateLShr(builder_->CreateShl(one, q), one);
            p = builder_->CreateAdd(p, half);
        }
        p = at.is_int() ? builder_->CreateAShr(p, q) : builder_->CreateLShr(p, q);
        // A product shifted right by at least the narrow width always fits: a plain
        // truncation, which LLVM selects as a multiply-high (pmulhw/pmulhuw).
        int64_t cq;
        if (n == Call::mul_shift_right && constant_int_value(args[2], &cq) && cq >= at.bits() &&
            cq < wide.bits()) {
            return builder_->CreateTrunc(p, llvm_type_of(t));
        }
        return codegen_saturating_cast(p, wide, t);
    }
    if (n == Call::stringify) return codegen_stringify(op);
    if (n == "trace") return codegen_trace(op);
    if (n == scratchpad_address_intrinsic) {
        // The pipeline's static block for one scratchpad (lower/allocate_scratchpads.h): a
        // module global, zeroed, shared by the function and its tasks.
        const StringImm *symbol = args[0].as<StringImm>();
        const int64_t *size = as_const_int(args[2]);
        const int64_t *alignment = as_const_int(args[3]);
        internal_assert(symbol && size && alignment) << "Malformed " << n << "\n";
        llvm::GlobalVariable *block = module_->getNamedGlobal(symbol->value);
        if (!block) {
            auto *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), (uint64_t)*size);
            block =
                new llvm::GlobalVariable(*module_, type, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantAggregateZero::get(type), symbol->value);
            block->setAlignment(llvm::Align((uint64_t)*alignment));
        }
        return builder_->CreateInBoundsGEP(llvm::Type::getInt8Ty(context_), block,
                                           builder_->CreateSExt(arg(4), builder_->getInt64Ty()));
    }
    if (n == Call::make_struct) {
        if (args.empty())
            return llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
        std::vector<Value *> vals;
        std::vector<llvm::Type *> types;
        for (size_t i = 0; i < args.size(); i++) {
            vals.push_back(to_storage(arg(i), args[i].type()));
            types.push_back(vals.back()->getType());
        }
        llvm::StructType *st = llvm::StructType::get(context_, types);
        Value *p = create_entry_alloca(st, 1, 16, "struct");
        for (size_t i = 0; i < vals.size(); i++) {
            builder_->CreateStore(vals[i], builder_->CreateStructGEP(st, p, (unsigned)i));
        }
        return p;
    }
    if (n == Call::load_struct_member) {
        // The layout make_struct gives the shape's values (storage types), never evaluated.
        const Call *shape = args[1].as<Call>();
        int64_t index;
        internal_assert(shape && shape->is_intrinsic(Call::make_struct) &&
                        constant_int_value(args[2], &index))
            << "load_struct_member needs a make_struct shape and a constant index\n";
        std::vector<llvm::Type *> types;
        for (const Expr &e : shape->args) types.push_back(llvm_storage_type_of(e.type()));
        llvm::StructType *st = llvm::StructType::get(context_, types);
        Value *field = builder_->CreateStructGEP(st, arg(0), (unsigned)index);
        return from_storage(builder_->CreateLoad(types[index], field), t);
    }
    if (starts_with(n, "_halide_buffer_")) {
        bool handled;
        return codegen_buffer_intrinsic(op, &handled);
    }
    if (n == Call::undef || n == Call::random) {
        internal_error << "The intrinsic " << n
                       << " reached code generation; lowering must remove it\n";
    }
    internal_error << "Code generation does not know the intrinsic " << n << "\n";
    return nullptr;
}

Value *CodeGenLLVM::codegen_shift(const Call *op, bool left) {
    Type ta = op->args[0].type(), tb = op->args[1].type();
    Value *a = codegen(op->args[0]);
    int bits = ta.bits();
    llvm::Type *ty = a->getType();
    int64_t c;
    if (constant_int_value(op->args[1], &c) && c >= 0 && c < bits) {
        // The common case: a constant in-range amount.
        Value *amt = llvm::ConstantInt::get(ty, (uint64_t)c);
        if (left) return builder_->CreateShl(a, amt);
        return ta.is_int() ? builder_->CreateAShr(a, amt) : builder_->CreateLShr(a, amt);
    }
    Value *b = codegen(op->args[1]);
    if (!b->getType()->isVectorTy() && ty->isVectorTy()) b = splat(b, ta.lanes());
    // A signed amount shifts the other way when negative; the magnitude is unsigned.
    Value *reverse = builder_->getFalse();
    Value *mag = b;
    if (tb.is_int()) {
        Value *zero = llvm::Constant::getNullValue(b->getType());
        reverse = builder_->CreateICmpSLT(b, zero);
        mag = builder_->CreateSelect(reverse, builder_->CreateNeg(b), b);
    }
    // Clamp the magnitude to `bits` in its own width, then bring it to a's width.
    Type tm = tb.with_code(Type::UInt).with_lanes(ta.lanes());
    if (tm.bits() > bits) {
        mag = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::umin, mag, const_int(tm, bits));
    }
    mag = builder_->CreateZExtOrTrunc(mag, ty);
    // Shifting by `bits` or more gives the limit: 0, or the sign fill for arithmetic shifts.
    Value *too_far = builder_->CreateICmpUGE(mag, llvm::ConstantInt::get(ty, bits));
    Value *safe = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::umin, mag,
                                                  llvm::ConstantInt::get(ty, bits - 1));
    Value *zero = llvm::Constant::getNullValue(ty);
    Value *shl = builder_->CreateSelect(too_far, zero, builder_->CreateShl(a, safe));
    Value *shr = ta.is_int() ? builder_->CreateAShr(a, safe)
                             : builder_->CreateSelect(too_far, zero, builder_->CreateLShr(a, safe));
    if (!tb.is_int()) return left ? shl : shr;
    return left ? builder_->CreateSelect(reverse, shr, shl)
                : builder_->CreateSelect(reverse, shl, shr);
}

Value *CodeGenLLVM::codegen_saturating_cast(Value *v, Type from, Type to) {
    Type fe = from.element_of(), te = to.element_of();
    if (fe == te) return v;
    llvm::Type *src = v->getType();
    if (te.is_float()) {
        if (fe.is_float() && te.bits() < fe.bits()) {
            // Clamp to the finite range of the narrower float (NaN stays NaN).
            double mx = te.bits() == 32 ? 3.4028234663852886e38 : 65504.0;
            Value *hi = llvm::ConstantFP::get(src, mx), *lo = llvm::ConstantFP::get(src, -mx);
            v = builder_->CreateSelect(builder_->CreateFCmpOGT(v, hi), hi, v);
            v = builder_->CreateSelect(builder_->CreateFCmpOLT(v, lo), lo, v);
        }
        return cast_value(v, from, to);
    }
    if (te.is_bool()) return cast_value(v, from, to);
    int tb = te.bits();
    llvm::APInt tmax =
        te.is_int() ? llvm::APInt::getSignedMaxValue(tb) : llvm::APInt::getMaxValue(tb);
    llvm::APInt tmin =
        te.is_int() ? llvm::APInt::getSignedMinValue(tb) : llvm::APInt::getMinValue(tb);
    if (fe.is_float()) {
        // NaN gives 0. The bounds are powers of two (min) or one less (max); a max that rounds
        // up in the float type is handled by comparing with >= its rounded value.
        double dmax = te.is_int() ? tmax.roundToDouble(true) : tmax.roundToDouble(false);
        double dmin = te.is_int() ? tmin.roundToDouble(true) : 0.0;
        Value *fmax = llvm::ConstantFP::get(src, dmax), *fmin = llvm::ConstantFP::get(src, dmin);
        llvm::Type *dst = llvm_type_of(to);
        Value *clamped = builder_->CreateSelect(builder_->CreateFCmpOLT(v, fmin), fmin, v);
        Value *is_nan = builder_->CreateFCmpUNO(v, v);
        Value *too_big = builder_->CreateFCmpOGE(v, fmax);
        Value *safe = builder_->CreateSelect(builder_->CreateOr(too_big, is_nan), fmin, clamped);
        Value *conv =
            te.is_int() ? builder_->CreateFPToSI(safe, dst) : builder_->CreateFPToUI(safe, dst);
        Value *maxv = llvm::ConstantInt::get(dst, tmax);
        conv = builder_->CreateSelect(too_big, maxv, conv);
        return builder_->CreateSelect(is_nan, llvm::Constant::getNullValue(dst), conv);
    }
    // Integer to integer: clamp in the source type to the part of the target's range that the
    // source can represent, then convert.
    int sb = fe.is_bool() ? 1 : fe.bits();
    if (fe.is_bool()) return cast_value(v, from, to);
    llvm::Type *elem = src->getScalarType();
    auto splat_c = [&](const llvm::APInt &x) -> Value * {
        Value *c = llvm::ConstantInt::get(elem, x);
        return from.is_vector()
                   ? (Value *)llvm::ConstantVector::getSplat(
                         llvm::ElementCount::getFixed(from.lanes()), llvm::cast<llvm::Constant>(c))
                   : c;
    };
    if (fe.is_int()) {
        // Lower bound: the target's min when it is above the source's min.
        if (te.is_uint()) {
            v = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::smax, v,
                                                llvm::Constant::getNullValue(src));
        } else if (tb < sb) {
            v = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::smax, v, splat_c(tmin.sext(sb)));
        }
        // Upper bound: the target's max when it is below the source's max.
        if ((te.is_int() && tb < sb) || (te.is_uint() && tb < sb)) {
            v = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::smin, v, splat_c(tmax.zext(sb)));
        }
    } else {
        // Unsigned source: only an upper bound.
        int max_bits = te.is_int() ? tb - 1 : tb;
        if (max_bits < sb) {
            v = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::umin, v, splat_c(tmax.zext(sb)));
        }
    }
    return cast_value(v, from, to);
}

Value *CodeGenLLVM::codegen_lerp(const Call *op) {
    // Halide's lerp(zero, one, weight), exactly as Halide lowers it.
    internal_assert(op->args.size() == 3) << "lerp takes 3 arguments\n";
    Type t = op->args[0].type();
    Type wt = op->args[2].type();
    Type et = t.element_of();
    int lanes = t.lanes();
    Value *zero = codegen(op->args[0]);
    Value *one = codegen(op->args[1]);
    Value *w = codegen(op->args[2]);
    if (w->getType()->isVectorTy() != zero->getType()->isVectorTy()) w = splat(w, lanes);
    wt = wt.with_lanes(lanes);

    if (et.is_bool()) {
        // One when the weight is above one half.
        Value *above;
        if (wt.is_float()) {
            above = builder_->CreateFCmpOGT(w, llvm::ConstantFP::get(w->getType(), 0.5));
        } else {
            uint64_t half = (wt.bits() >= 64 ? ~uint64_t(0) : ((uint64_t(1) << wt.bits()) - 1)) / 2;
            above = builder_->CreateICmpUGT(w, llvm::ConstantInt::get(w->getType(), half));
        }
        return builder_->CreateSelect(above, one, zero);
    }
    if (et.is_float()) {
        // zero * (1 - w) + one * w, with an integer weight scaled to [0, 1] first.
        Value *fw;
        if (wt.is_float()) {
            fw = cast_value(w, wt, t);
        } else if (wt.bits() == 32) {
            Value *d = cast_value(w, wt, Float(64, lanes));
            d = builder_->CreateFDiv(d, llvm::ConstantFP::get(d->getType(), 4294967295.0));
            fw = cast_value(d, Float(64, lanes), t);
        } else {
            Value *f = cast_value(w, wt, Float(32, lanes));
            f = builder_->CreateFDiv(
                f, llvm::ConstantFP::get(f->getType(), std::ldexp(1.0, wt.bits()) - 1));
            fw = cast_value(f, Float(32, lanes), t);
        }
        Value *inv = builder_->CreateFSub(llvm::ConstantFP::get(fw->getType(), 1.0), fw);
        return builder_->CreateFAdd(builder_->CreateFMul(zero, inv), builder_->CreateFMul(one, fw));
    }

    // Integers: computed in the unsigned type, signed values biased by the type's min.
    int bits = et.bits();
    Type ut = UInt(bits, lanes);
    Type wide = UInt(bits * 2, lanes);
    Value *sign = nullptr;
    if (et.is_int()) {
        sign = splat(llvm::ConstantInt::get(llvm_type_of(et), llvm::APInt::getSignedMinValue(bits)),
                     lanes);
        zero = builder_->CreateXor(zero, sign);
        one = builder_->CreateXor(one, sign);
    }
    llvm::APInt umax = llvm::APInt::getMaxValue(bits);
    Value *maxv = splat(llvm::ConstantInt::get(llvm_type_of(ut.element_of()), umax), lanes);
    Value *tw;
    if (wt.is_float()) {
        if (bits == 32) {
            Value *d = cast_value(w, wt, Float(64, lanes));
            d = builder_->CreateFMul(llvm::ConstantFP::get(d->getType(), 65535.0 * 65537.0), d);
            tw = cast_value(d, Float(64, lanes), ut);
        } else {
            Value *m = llvm::ConstantFP::get(w->getType(), umax.roundToDouble(false));
            tw = cast_value(builder_->CreateFMul(m, w), wt, ut);
        }
    } else if (wt.bits() == bits) {
        tw = w;
    } else if (wt.bits() < bits) {
        // Rescale: (2^bits - 1) / (2^wbits - 1) is an integer for power-of-two widths.
        llvm::APInt scale = umax.udiv(llvm::APInt::getMaxValue(wt.bits()).zext(bits));
        tw = builder_->CreateMul(
            builder_->CreateZExt(w, llvm_type_of(ut)),
            splat(llvm::ConstantInt::get(llvm_type_of(ut.element_of()), scale), lanes));
    } else {
        // Narrow by the same ratio, truncating as Halide does: a uint16 weight for uint8 values
        // is w / 257 (w >> 8 rounds some weights up: lerp(63, 246, 8973) is 87 in Halide).
        llvm::APInt scale = llvm::APInt::getMaxValue(wt.bits()).udiv(umax.zext(wt.bits()));
        tw = builder_->CreateTrunc(
            builder_->CreateUDiv(
                w, splat(llvm::ConstantInt::get(llvm_type_of(wt.element_of()), scale), lanes)),
            llvm_type_of(ut));
    }
    Value *inv = builder_->CreateSub(maxv, tw);
    llvm::Type *wty = llvm_type_of(wide);
    auto z = [&](Value *x) { return builder_->CreateZExt(x, wty); };
    Value *prod = builder_->CreateAdd(builder_->CreateMul(z(zero), z(inv)),
                                      builder_->CreateMul(z(one), z(tw)));
    Value *rounding = splat(
        llvm::ConstantInt::get(wty->getScalarType(), llvm::APInt::getOneBitSet(bits * 2, bits - 1)),
        lanes);
    Value *shift = splat(llvm::ConstantInt::get(wty->getScalarType(), bits), lanes);
    prod = builder_->CreateAdd(prod, rounding);
    // (p + (p >> bits)) >> bits == round(x / (2^bits - 1)) for x in range.
    Value *divided =
        builder_->CreateLShr(builder_->CreateAdd(builder_->CreateLShr(prod, shift), prod), shift);
    Value *r = builder_->CreateTrunc(divided, llvm_type_of(ut));
    if (sign) r = builder_->CreateXor(r, sign);
    return r;
}

} // namespace internal
} // namespace loom
