// CodeGenLLVM: the Atomic node (atomic() updates, src/lang/atomic.cpp). The body of an Atomic is
// the Provide of one update, flattened to stores. Three strategies, cheapest first:
//  - one scalar store f[i] = f[i] op y with op +, &, |, ^, min or max on integers, or + on
//    floats: a single atomicrmw (y is computed outside the atomic operation);
//  - any other single scalar store whose value reads f only at f[i]: a compare-and-swap loop
//    that recomputes the value from the freshly loaded f[i] until the swap succeeds;
//  - anything else (Tuple updates store several buffers, vector stores): the body runs under a
//    spin lock, one per producer (a module global), so whole updates never interleave.
#include "codegen/llvm/codegen_llvm.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "support/error.h"
#include "support/util.h"

namespace loom {
namespace internal {

using llvm::Value;

namespace {

/// Whether e loads buffer `name` anywhere.
bool loads_buffer(const Expr &e, const std::string &name) {
    bool found = false;
    visit_exprs(e, [&](const Expr &x) {
        if (const Load *l = x.as<Load>()) found |= l->name == name;
        return true;
    });
    return found;
}

/// The value of an atomic store with the lets around it substituted: common subexpression
/// elimination names the pieces of f[i] + y (the index of the load of f[i] among them), and the
/// self-load is recognized by comparing indices.
Expr atomic_value(const Store *st) {
    Expr e = st->value;
    while (const Let *l = e.as<Let>()) e = substitute(l->name, l->value, l->body);
    return e;
}

/// The single store a rmw/CAS body ends in, or null when the body needs the lock: the store
/// must be scalar and unpredicated, reached through LetStmts and IfThenElses that do not read
/// the stored buffer, and its value must read that buffer only at the stored index.
const Store *single_atomic_store(const Stmt &s) {
    const Store *st = nullptr;
    std::vector<Expr> guards; // Let values and conditions on the way down
    Stmt cur = s;
    while (true) {
        if (const LetStmt *l = cur.as<LetStmt>()) {
            guards.push_back(l->value);
            cur = l->body;
        } else if (const IfThenElse *i = cur.as<IfThenElse>()) {
            if (i->else_case.defined()) return nullptr;
            guards.push_back(i->condition);
            cur = i->then_case;
        } else if ((st = cur.as<Store>())) {
            break;
        } else {
            return nullptr;
        }
    }
    if (!st->value.type().is_scalar() || (st->predicate.defined() && !is_const_true(st->predicate)))
        return nullptr;
    for (const Expr &g : guards) {
        if (loads_buffer(g, st->name)) return nullptr;
    }
    if (loads_buffer(st->index, st->name)) return nullptr;
    bool ok = true;
    visit_exprs(atomic_value(st), [&](const Expr &x) {
        const Load *l = x.as<Load>();
        if (l && l->name == st->name && !equal(l->index, st->index)) ok = false;
        return true;
    });
    return ok ? st : nullptr;
}

} // namespace

bool CodeGenLLVM::atomic_needs_lock(const Atomic *op) {
    return !op->mutex_name.empty() || !single_atomic_store(op->body);
}

/// Emits the parts of an Atomic node (friend of CodeGenLLVM).
class AtomicCodeGen {
public:
    explicit AtomicCodeGen(CodeGenLLVM &cg) : cg(cg) {}

    void emit(const Atomic *op) {
        const Store *st = op->mutex_name.empty() ? single_atomic_store(op->body) : nullptr;
        if (!st) {
            emit_locked(op);
            return;
        }
        emit_path(op->body);
    }

private:
    /// Walks the LetStmts and IfThenElses down to the store, emitting them as usual.
    void emit_path(const Stmt &s) {
        if (const LetStmt *l = s.as<LetStmt>()) {
            cg.sym_push(l->name, cg.codegen(l->value));
            emit_path(l->body);
            cg.sym_pop(l->name);
        } else if (const IfThenElse *i = s.as<IfThenElse>()) {
            Value *c = cg.codegen(i->condition);
            auto *then_bb = llvm::BasicBlock::Create(cg.context_, "atomic_then", cg.function_);
            auto *after_bb = llvm::BasicBlock::Create(cg.context_, "atomic_after", cg.function_);
            cg.builder_->CreateCondBr(c, then_bb, after_bb);
            cg.builder_->SetInsertPoint(then_bb);
            emit_path(i->then_case);
            cg.builder_->CreateBr(after_bb);
            cg.builder_->SetInsertPoint(after_bb);
        } else {
            emit_store(s.as<Store>());
        }
    }

    /// f[i] = f[i] op y as one atomicrmw when op has a hardware form, else a CAS loop.
    void emit_store(const Store *st) {
        Type t = st->value.type();
        Value *ptr = cg.element_address(st->name, t, st->index);
        llvm::Align align(std::max(1, t.bytes()));
        Expr self = Load::make(t, st->name, st->index, const_true());
        Expr y;
        llvm::AtomicRMWInst::BinOp rmw = llvm::AtomicRMWInst::BAD_BINOP;
        auto other = [&](const Expr &a, const Expr &b) -> Expr {
            const Load *la = a.as<Load>(), *lb = b.as<Load>();
            auto is_self = [&](const Load *l) {
                return l && l->name == st->name && equal(l->index, st->index);
            };
            if (is_self(la) && !loads_buffer(b, st->name)) return b;
            if (is_self(lb) && !loads_buffer(a, st->name)) return a;
            return Expr();
        };
        const bool is_int = (t.is_int() || t.is_uint()) && t.bits() >= 8;
        const Expr value = atomic_value(st);
        if (const Add *a = value.as<Add>()) {
            y = other(a->a, a->b);
            rmw = t.is_float() ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
            if (!is_int && !(t.is_float() && t.bits() >= 32)) y = Expr();
        } else if (const Min *m = value.as<Min>()) {
            y = is_int ? other(m->a, m->b) : Expr();
            rmw = t.is_int() ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin;
        } else if (const Max *m = value.as<Max>()) {
            y = is_int ? other(m->a, m->b) : Expr();
            rmw = t.is_int() ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax;
        } else if (const Call *c = value.as<Call>()) {
            if (is_int && c->args.size() == 2) {
                if (c->is_intrinsic(Call::bitwise_and)) rmw = llvm::AtomicRMWInst::And;
                if (c->is_intrinsic(Call::bitwise_or)) rmw = llvm::AtomicRMWInst::Or;
                if (c->is_intrinsic(Call::bitwise_xor)) rmw = llvm::AtomicRMWInst::Xor;
                if (rmw != llvm::AtomicRMWInst::BAD_BINOP) y = other(c->args[0], c->args[1]);
            }
        }
        if (y.defined()) {
            Value *v = cg.to_storage(cg.codegen(y), t);
            cg.builder_->CreateAtomicRMW(rmw, ptr, v, align, llvm::AtomicOrdering::Monotonic);
            return;
        }
        emit_cas_loop(st, ptr, align);
    }

    /// Loads f[i], computes the new value from it, and swaps it in if f[i] is unchanged;
    /// otherwise retries with the value another thread stored.
    void emit_cas_loop(const Store *st, Value *ptr, llvm::Align align) {
        Type t = st->value.type();
        llvm::Type *storage = cg.llvm_storage_type_of(t);
        unsigned bits = (unsigned)cg.module_->getDataLayout().getTypeSizeInBits(storage);
        llvm::Type *it = llvm::IntegerType::get(cg.context_, bits);
        auto *init = cg.builder_->CreateAlignedLoad(it, ptr, align);
        init->setAtomic(llvm::AtomicOrdering::Monotonic);
        llvm::BasicBlock *pre = cg.builder_->GetInsertBlock();
        auto *loop_bb = llvm::BasicBlock::Create(cg.context_, "atomic_cas", cg.function_);
        auto *done_bb = llvm::BasicBlock::Create(cg.context_, "atomic_cas_done", cg.function_);
        cg.builder_->CreateBr(loop_bb);
        cg.builder_->SetInsertPoint(loop_bb);
        llvm::PHINode *old_bits = cg.builder_->CreatePHI(it, 2);
        old_bits->addIncoming(init, pre);
        const std::string old_name = unique_name("atomic_old");
        Value *old = cg.from_storage(cg.builder_->CreateBitCast(old_bits, storage), t);
        Expr old_var = Variable::make(t, old_name);
        Expr value = mutate_exprs_post(atomic_value(st), [&](const Expr &x) -> Expr {
            const Load *l = x.as<Load>();
            return l && l->name == st->name ? old_var : x;
        });
        cg.sym_push(old_name, old);
        Value *nv = cg.codegen(value);
        cg.sym_pop(old_name);
        Value *new_bits = cg.builder_->CreateBitCast(cg.to_storage(nv, t), it);
        auto *cas = cg.builder_->CreateAtomicCmpXchg(ptr, old_bits, new_bits, align,
                                                     llvm::AtomicOrdering::Monotonic,
                                                     llvm::AtomicOrdering::Monotonic);
        Value *seen = cg.builder_->CreateExtractValue(cas, 0);
        Value *ok = cg.builder_->CreateExtractValue(cas, 1);
        old_bits->addIncoming(seen, cg.builder_->GetInsertBlock());
        cg.builder_->CreateCondBr(ok, done_bb, loop_bb);
        cg.builder_->SetInsertPoint(done_bb);
    }

    /// Runs the body holding the producer's spin lock.
    void emit_locked(const Atomic *op) {
        const std::string gname = "loom.atomic_mutex." + op->producer_name;
        llvm::Type *i32 = llvm::Type::getInt32Ty(cg.context_);
        llvm::GlobalVariable *lock = cg.module_->getNamedGlobal(gname);
        if (!lock) {
            lock = new llvm::GlobalVariable(*cg.module_, i32, false,
                                            llvm::GlobalValue::InternalLinkage,
                                            llvm::ConstantInt::get(i32, 0), gname);
            lock->setAlignment(llvm::Align(4));
        }
        auto *spin_bb = llvm::BasicBlock::Create(cg.context_, "atomic_lock", cg.function_);
        auto *body_bb = llvm::BasicBlock::Create(cg.context_, "atomic_locked", cg.function_);
        cg.builder_->CreateBr(spin_bb);
        cg.builder_->SetInsertPoint(spin_bb);
        auto *cas = cg.builder_->CreateAtomicCmpXchg(
            lock, llvm::ConstantInt::get(i32, 0), llvm::ConstantInt::get(i32, 1), llvm::Align(4),
            llvm::AtomicOrdering::Acquire, llvm::AtomicOrdering::Monotonic);
        cg.builder_->CreateCondBr(cg.builder_->CreateExtractValue(cas, 1), body_bb, spin_bb);
        cg.builder_->SetInsertPoint(body_bb);
        cg.codegen(op->body);
        auto *unlock =
            cg.builder_->CreateAlignedStore(llvm::ConstantInt::get(i32, 0), lock, llvm::Align(4));
        unlock->setAtomic(llvm::AtomicOrdering::Release);
    }

    CodeGenLLVM &cg;
};

void CodeGenLLVM::codegen_atomic(const Atomic *op) { AtomicCodeGen(*this).emit(op); }

} // namespace internal
} // namespace loom
