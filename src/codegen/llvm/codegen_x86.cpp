// CodeGenX86: CodeGenLLVM with x86 instruction selection for the idioms LLVM's generic lowering
// misses. Most of what src/lower/find_intrinsics.h recognizes already selects the right
// instruction from its generic form (llvm.uadd.sat -> paddusb, the zext-add-lshr average ->
// pavgb, trunc(mul >> 16) -> pmulhw, smin/smax + trunc -> packsswb/packuswb, umin/umax ->
// pminub, select -> blends); this file handles the rest, choosing the vector width from the
// TargetMachine's features:
//  - pmaddwd for sums of pairs of widening 16-bit products (dot products, 2-tap filters) and
//    for VectorReduce adds of them;
//  - pmulhrsw for the Q15 rounding multiply i16((i32(a) * i32(b) + 2^14) >> 15) and for
//    rounding_mul_shift_right(a, b, 15) of int16 (with its one saturating case fixed up);
//  - pmulhw/pmulhuw plus a narrow shift for mul_shift_right of 16-bit values by 17..31.
#include "codegen/llvm/codegen_llvm.h"

#include "ir/ir_utils.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/MC/MCSubtargetInfo.h>

namespace loom {
namespace internal {

using llvm::Value;

namespace {

/// The 128-, 256- and 512-bit forms of one x86 instruction (not_intrinsic where absent).
struct X86Family {
    llvm::Intrinsic::ID w128, w256, w512;
};

const X86Family pmaddwd = {llvm::Intrinsic::x86_sse2_pmadd_wd, llvm::Intrinsic::x86_avx2_pmadd_wd,
                           llvm::Intrinsic::x86_avx512_pmaddw_d_512};
const X86Family pmulhw = {llvm::Intrinsic::x86_sse2_pmulh_w, llvm::Intrinsic::x86_avx2_pmulh_w,
                          llvm::Intrinsic::x86_avx512_pmulh_w_512};
const X86Family pmulhuw = {llvm::Intrinsic::x86_sse2_pmulhu_w, llvm::Intrinsic::x86_avx2_pmulhu_w,
                           llvm::Intrinsic::x86_avx512_pmulhu_w_512};
const X86Family pmulhrsw = {llvm::Intrinsic::x86_ssse3_pmul_hr_sw_128,
                            llvm::Intrinsic::x86_avx2_pmul_hr_sw,
                            llvm::Intrinsic::x86_avx512_pmul_hr_sw_512};

/// The value of an integer constant (or a broadcast of one).
bool const_value(const Expr &e, int64_t *v) {
    if (const Broadcast *b = e.as<Broadcast>()) return const_value(b->value, v);
    if (const int64_t *i = as_const_int(e)) {
        *v = *i;
        return true;
    }
    if (const uint64_t *u = as_const_uint(e)) {
        if (*u > (uint64_t)INT64_MAX) return false;
        *v = (int64_t)*u;
        return true;
    }
    return false;
}

/// The terms of a tree of Adds of one type.
void flatten_adds(const Expr &e, std::vector<Expr> *terms) {
    if (const Add *a = e.as<Add>()) {
        flatten_adds(a->a, terms);
        flatten_adds(a->b, terms);
    } else {
        terms->push_back(e);
    }
}

/// x >> k or x / 2^k with a constant k (vector or scalar): sets *x and *k.
bool shift_right_by_const(const Expr &e, Expr *x, int64_t *k) {
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Call::shift_right) && const_value(c->args[1], k)) {
            *x = c->args[0];
            return true;
        }
    }
    if (const Div *d = e.as<Div>()) {
        int64_t v;
        if (const_value(d->b, &v) && v > 0 && (v & (v - 1)) == 0) {
            *x = d->a;
            *k = 0;
            while (((int64_t)1 << *k) < v) ++*k;
            return true;
        }
    }
    return false;
}

/// The lanes of x0 and x1 alternated. Two stride-2 loads of one buffer one element apart
/// (the even and odd elements of a span) interleave to the dense load of the span, which is
/// cheaper than loading twice, deinterleaving and interleaving back.
Expr interleave(const Expr &x0, const Expr &x1) {
    const Load *l0 = x0.as<Load>(), *l1 = x1.as<Load>();
    const Ramp *r0 = l0 ? l0->index.as<Ramp>() : nullptr;
    const Ramp *r1 = l1 ? l1->index.as<Ramp>() : nullptr;
    if (r0 && r1 && l0->name == l1->name && is_const(r0->stride, 2) && is_const(r1->stride, 2) &&
        r0->base.type().is_scalar() && is_const_one(l0->predicate) && is_const_one(l1->predicate) &&
        is_const(simplify(Sub::make(r1->base, r0->base)), 1)) {
        int lanes = 2 * x0.type().lanes();
        return Load::make(x0.type().with_lanes(lanes), l0->name,
                          Ramp::make(r0->base, make_one(r0->base.type()), lanes), const_true(lanes),
                          l0->param);
    }
    return Shuffle::make_interleave({x0, x1});
}

class CodeGenX86 : public CodeGenLLVM {
public:
    CodeGenX86(llvm::LLVMContext &ctx, llvm::TargetMachine &tm, const Target &target)
        : CodeGenLLVM(ctx, tm, target) {
        const llvm::MCSubtargetInfo *sti = tm.getMCSubtargetInfo();
        ssse3_ = sti->checkFeatures("+ssse3");
        avx2_ = sti->checkFeatures("+avx2");
        avx512bw_ = sti->checkFeatures("+avx512bw");
    }

protected:
    using CodeGenLLVM::visit;

    void visit(const Add *op) override {
        if (!codegen_pmaddwd_sum(op)) CodeGenLLVM::visit(op);
    }

    void visit(const Cast *op) override {
        if (!codegen_q15_multiply(op)) CodeGenLLVM::visit(op);
    }

    void visit(const Call *op) override {
        if (op->call_type == Call::PureIntrinsic && op->type.is_vector() &&
            codegen_x86_intrinsic(op)) {
            return;
        }
        CodeGenLLVM::visit(op);
    }

    void visit(const VectorReduce *op) override {
        if (!codegen_pmaddwd_reduce(op)) CodeGenLLVM::visit(op);
    }

    // Lets are recorded so the idioms are seen through the variables CSE introduced (e.g.
    // `let t = i32(a) in t * t`).
    void visit(const Let *op) override {
        lets_[op->name].push_back(op->value);
        CodeGenLLVM::visit(op);
        lets_[op->name].pop_back();
    }

    void visit(const LetStmt *op) override {
        lets_[op->name].push_back(op->value);
        CodeGenLLVM::visit(op);
        lets_[op->name].pop_back();
    }

private:
    bool ssse3_ = false, avx2_ = false, avx512bw_ = false;
    /// The values of the lets in scope, innermost last.
    std::map<std::string, std::vector<Expr>> lets_;

    /// e converted losslessly to type n (lossless_cast), looking through let-bound variables;
    /// undefined when e may not fit n.
    Expr narrow(Type n, const Expr &e) {
        Expr r = lossless_cast(n, e);
        if (r.defined()) return r;
        if (const Variable *v = e.as<Variable>()) {
            auto it = lets_.find(v->name);
            if (it != lets_.end() && !it->second.empty()) return narrow(n, it->second.back());
        }
        return Expr();
    }

    /// Whether e (an int32 vector) is the exact product of two int16 vectors, as
    /// i32(x) * i32(y) with x and y fitting int16 (not both constant) or widening_mul(x, y);
    /// sets x and y to the int16 operands.
    bool widening_i16_product(const Expr &e, Expr *x, Expr *y) {
        Type t = e.type();
        if (t.element_of() != Int(32) || t.is_scalar()) return false;
        Type n = Int(16, t.lanes());
        if (const Mul *m = e.as<Mul>()) {
            if (is_const(m->a) && is_const(m->b)) return false;
            *x = narrow(n, m->a);
            *y = narrow(n, m->b);
            return x->defined() && y->defined();
        }
        if (const Call *c = e.as<Call>()) {
            if (c->is_intrinsic(Call::widening_mul) && c->args.size() == 2) {
                *x = narrow(n, c->args[0]);
                *y = narrow(n, c->args[1]);
                return x->defined() && y->defined();
            }
        }
        return false;
    }

    /// A shufflevector of a (and b) with the given indices (-1: poison).
    Value *shuffle(Value *a, Value *b, const std::vector<int> &idx) {
        return b ? builder_->CreateShuffleVector(a, b, idx) : builder_->CreateShuffleVector(a, idx);
    }

    /// The concatenation of equal-length vectors.
    Value *concat(std::vector<Value *> parts) {
        while (parts.size() > 1) {
            std::vector<Value *> next;
            for (size_t i = 0; i + 1 < parts.size(); i += 2) {
                int n =
                    (int)llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements();
                std::vector<int> idx;
                for (int j = 0; j < 2 * n; j++) idx.push_back(j);
                next.push_back(shuffle(parts[i], parts[i + 1], idx));
            }
            if (parts.size() % 2) {
                // An odd piece out: pad it to the length of the pairs so the tree stays even.
                Value *last = parts.back();
                int n = (int)llvm::cast<llvm::FixedVectorType>(last->getType())->getNumElements();
                std::vector<int> idx;
                for (int j = 0; j < 2 * n; j++) idx.push_back(j < n ? j : -1);
                next.push_back(shuffle(last, nullptr, idx));
            }
            parts = next;
        }
        return parts[0];
    }

    /// Applies the two-operand instruction family f to a and b (vectors of `lanes` elements
    /// of `elem_bits` bits) in the widest pieces the target has that the vector needs, and
    /// concatenates the results: each piece of k lanes gives k / ratio result lanes.
    Value *call_pieces(const X86Family &f, Value *a, Value *b, int lanes, int elem_bits,
                       int ratio) {
        int total = lanes * elem_bits;
        int width = 128;
        if (total > 128 && avx2_) width = 256;
        if (total > 256 && avx512bw_) width = 512;
        llvm::Intrinsic::ID id = width == 512 ? f.w512 : width == 256 ? f.w256 : f.w128;
        llvm::Function *fn = llvm::Intrinsic::getDeclaration(module_.get(), id);
        int piece = width / elem_bits;
        std::vector<Value *> results;
        for (int start = 0; start < lanes; start += piece) {
            Value *pa = a, *pb = b;
            if (!(start == 0 && piece == lanes)) {
                std::vector<int> idx;
                for (int j = start; j < start + piece; j++) idx.push_back(j < lanes ? j : -1);
                pa = shuffle(a, nullptr, idx);
                pb = shuffle(b, nullptr, idx);
            }
            results.push_back(builder_->CreateCall(fn, {pa, pb}));
        }
        Value *r = concat(results);
        int out = lanes / ratio;
        int have = (int)llvm::cast<llvm::FixedVectorType>(r->getType())->getNumElements();
        if (have == out) return r;
        std::vector<int> idx;
        for (int j = 0; j < out; j++) idx.push_back(j);
        return shuffle(r, nullptr, idx);
    }

    /// pmaddwd(x, y): lane i is x[2i] * y[2i] + x[2i+1] * y[2i+1] (int16 in, int32 out).
    Value *emit_pmaddwd(Value *x, Value *y, int in_lanes) {
        return call_pieces(pmaddwd, x, y, in_lanes, 16, 2);
    }

    /// A sum of int32 vector terms that contains two or more widening int16 products: each
    /// pair of products becomes one pmaddwd of the interleaved operands.
    bool codegen_pmaddwd_sum(const Add *op) {
        if (op->type.element_of() != Int(32) || op->type.is_scalar()) return false;
        std::vector<Expr> terms;
        flatten_adds(op, &terms);
        std::vector<std::pair<Expr, Expr>> products;
        std::vector<Expr> others;
        for (const Expr &t : terms) {
            Expr x, y;
            if (widening_i16_product(t, &x, &y)) {
                products.emplace_back(x, y);
            } else {
                others.push_back(t);
            }
        }
        if (products.size() < 2) return false;
        int n = op->type.lanes();
        // Sums wrap like the int32 adds they replace (no nsw: the order changed).
        Value *sum = nullptr;
        auto add = [&](Value *v) { sum = sum ? builder_->CreateAdd(sum, v) : v; };
        for (size_t i = 0; i + 1 < products.size(); i += 2) {
            Value *x = codegen(interleave(products[i].first, products[i + 1].first));
            Value *y = codegen(interleave(products[i].second, products[i + 1].second));
            add(emit_pmaddwd(x, y, 2 * n));
        }
        if (products.size() % 2) {
            const auto &p = products.back();
            Type wide = Int(32, n), narrow = Int(16, n);
            add(builder_->CreateMul(cast_value(codegen(p.first), narrow, wide),
                                    cast_value(codegen(p.second), narrow, wide)));
        }
        for (const Expr &e : others) add(codegen(e));
        value_ = sum;
        return true;
    }

    /// VectorReduce(Add) of widening int16 products over groups of an even number of lanes:
    /// pmaddwd sums the pairs, then the rest of each group is added up.
    bool codegen_pmaddwd_reduce(const VectorReduce *op) {
        if (op->op != VectorReduce::Add || op->type.element_of() != Int(32)) return false;
        int in_lanes = op->value.type().lanes(), out_lanes = op->type.lanes();
        int factor = in_lanes / out_lanes;
        if (factor < 2 || factor % 2) return false;
        Expr x, y;
        if (!widening_i16_product(op->value, &x, &y)) return false;
        Value *pairs = emit_pmaddwd(codegen(x), codegen(y), in_lanes);
        int rest = factor / 2;
        if (rest == 1) {
            value_ = pairs;
            return true;
        }
        Value *acc = nullptr;
        for (int k = 0; k < rest; k++) {
            std::vector<int> idx;
            for (int j = 0; j < out_lanes; j++) idx.push_back(j * rest + k);
            Value *slice = out_lanes == 1 ? builder_->CreateExtractElement(pairs, (uint64_t)k)
                                          : shuffle(pairs, nullptr, idx);
            acc = acc ? builder_->CreateAdd(acc, slice) : slice;
        }
        value_ = acc;
        return true;
    }

    /// pmulhrsw(a, b) for int16 vectors: (a * b + 2^14) >> 15, wrapped to 16 bits.
    Value *emit_pmulhrsw(Value *a, Value *b, int lanes) {
        return call_pieces(pmulhrsw, a, b, lanes, 16, 1);
    }

    /// i16((i32(a) * i32(b) + 16384) >> 15), the Q15 fixed-point multiply: exactly pmulhrsw
    /// (the one result that does not fit, for a = b = -32768, wraps in both).
    bool codegen_q15_multiply(const Cast *op) {
        if (!ssse3_ || op->type.element_of() != Int(16) || op->type.is_scalar()) return false;
        Expr x;
        int64_t k, c;
        if (!shift_right_by_const(op->value, &x, &k) || k != 15) return false;
        const Add *add = x.as<Add>();
        if (!add || !const_value(add->b, &c) || c != 16384) return false;
        const Mul *m = add->a.as<Mul>();
        if (!m || m->type.element_of() != Int(32)) return false;
        Type n = Int(16, op->type.lanes());
        Expr a = narrow(n, m->a), b = narrow(n, m->b);
        if (!a.defined() || !b.defined()) return false;
        value_ = emit_pmulhrsw(codegen(a), codegen(b), n.lanes());
        return true;
    }

    bool codegen_x86_intrinsic(const Call *op) {
        Type t = op->type;
        if (op->name == "rounding_mul_shift_right" && ssse3_ && t.element_of() == Int(16)) {
            int64_t q;
            if (!const_value(op->args[2], &q) || q != 15) return false;
            // pmulhrsw wraps where the intrinsic saturates: only a = b = -32768 gives 32768.
            Value *a = codegen(op->args[0]), *b = codegen(op->args[1]);
            Value *r = emit_pmulhrsw(a, b, t.lanes());
            Value *min = const_int(t, -32768);
            Value *both_min =
                builder_->CreateAnd(builder_->CreateICmpEQ(a, min), builder_->CreateICmpEQ(b, min));
            value_ = builder_->CreateSelect(both_min, const_int(t, 32767), r);
            return true;
        }
        if (op->is_intrinsic(Call::mul_shift_right) && t.bits() == 16 &&
            (t.is_int() || t.is_uint())) {
            // Shifts of 17..31: the high half of the product (pmulhw/pmulhuw) shifted right
            // in 16 bits. Explicitly: LLVM folds trunc(mul >> 16) >> k into one wide shift,
            // which it no longer selects as a multiply-high.
            int64_t q;
            if (!const_value(op->args[2], &q) || q <= 16 || q >= 32) return false;
            Value *hi = call_pieces(t.is_int() ? pmulhw : pmulhuw, codegen(op->args[0]),
                                    codegen(op->args[1]), t.lanes(), 16, 1);
            Value *amt = const_int(t, q - 16);
            value_ = t.is_int() ? builder_->CreateAShr(hi, amt) : builder_->CreateLShr(hi, amt);
            return true;
        }
        return false;
    }
};

} // namespace

std::unique_ptr<llvm::Module> codegen_x86(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                          llvm::TargetMachine &tm, const Target &target) {
    CodeGenX86 cg(ctx, tm, target);
    return cg.compile(f);
}

} // namespace internal
} // namespace loom
