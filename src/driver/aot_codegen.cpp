// The LLVM module of an ahead-of-time pipeline: the lowered code from codegen_llvm becomes an
// internal function behind the public entry points of Halide's AOT ABI (see aot_llvm.h).
#include "driver/aot_llvm.h"

#include <loom/buffer.h>

#include "codegen/llvm/codegen_llvm.h"
#include "support/error.h"

#include <cstring>

namespace loom {
namespace internal {

namespace {

using llvm::Value;

/// Builds the entry points around the lowered function of one module.
class AotModuleBuilder {
public:
    AotModuleBuilder(const ModuleContents &m, llvm::Module &module, llvm::TargetMachine &tm)
        : m_(m), module_(module), tm_(tm), ctx_(module.getContext()), builder_(ctx_) {
        i8_ = llvm::Type::getInt8Ty(ctx_);
        i16_ = llvm::Type::getInt16Ty(ctx_);
        i32_ = llvm::Type::getInt32Ty(ctx_);
        i64_ = llvm::Type::getInt64Ty(ctx_);
        ptr_ = llvm::PointerType::get(ctx_, 0);
        type_t_ = llvm::StructType::create(ctx_, {i8_, i8_, i16_}, "struct.halide_type_t");
        dim_t_ =
            llvm::StructType::create(ctx_, {i32_, i32_, i32_, i32_}, "struct.halide_dimension_t");
        buffer_t_ = llvm::StructType::create(
            ctx_, {i64_, ptr_, ptr_, i64_, type_t_, i32_, ptr_, ptr_}, "struct.halide_buffer_t");
    }

    void build() {
        bool uc = m_.target.has_feature(Target::UserContext);
        llvm::Function *impl = module_.getFunction(m_.name);
        internal_assert(impl) << "codegen_llvm produced no function " << m_.name << "\n";
        impl->setName("__loom_impl_" + m_.name);
        impl->setLinkage(llvm::GlobalValue::InternalLinkage);
        llvm::Function *fn = build_public_function(impl, uc);
        if (m_.with_argv) build_argv_function(fn, uc);
        if (m_.with_metadata) build_metadata_function(uc);
    }

private:
    void set_attributes(llvm::Function *f) {
        f->addFnAttr(llvm::Attribute::NoUnwind);
        if (!tm_.getTargetCPU().empty()) f->addFnAttr("target-cpu", tm_.getTargetCPU());
        if (!tm_.getTargetFeatureString().empty()) {
            f->addFnAttr("target-features", tm_.getTargetFeatureString());
        }
    }

    llvm::GlobalValue::LinkageTypes linkage() const {
        return m_.external ? llvm::GlobalValue::ExternalLinkage
                           : llvm::GlobalValue::InternalLinkage;
    }

    /// The ABI type of an argument: halide_buffer_t* for buffers, the scalar's own type
    /// otherwise (bool as one byte), as codegen_llvm passes them.
    llvm::Type *abi_type(const LoweredArgument &a) {
        if (a.is_buffer() || a.type.is_handle()) return ptr_;
        if (a.type.is_bool()) return i8_;
        // (BFloat before Float: is_float() holds for both.)
        if (a.type.is_bfloat()) return llvm::Type::getBFloatTy(ctx_);
        if (a.type.is_float()) {
            return a.type.bits() == 64   ? llvm::Type::getDoubleTy(ctx_)
                   : a.type.bits() == 32 ? llvm::Type::getFloatTy(ctx_)
                                         : llvm::Type::getHalfTy(ctx_);
        }
        return llvm::IntegerType::get(ctx_, a.type.bits());
    }

    llvm::Function *build_public_function(llvm::Function *impl, bool uc) {
        std::vector<llvm::Type *> types;
        if (uc) types.push_back(ptr_);
        for (const AotArgument &a : m_.public_args) types.push_back(abi_type(a.arg));
        llvm::Function *fn = llvm::Function::Create(llvm::FunctionType::get(i32_, types, false),
                                                    linkage(), m_.name, &module_);
        set_attributes(fn);
        builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));

        std::vector<Value *> call_args(m_.lowered.args.size(), nullptr);
        call_args[0] = uc ? (Value *)fn->getArg(0) : llvm::ConstantPointerNull::get(ptr_);
        if (uc) fn->getArg(0)->setName("__user_context");
        for (size_t i = 0; i < m_.public_args.size(); i++) {
            llvm::Argument *arg = fn->getArg(i + (uc ? 1 : 0));
            const AotArgument &a = m_.public_args[i];
            arg->setName(a.arg.name);
            if (a.lowered_index >= 0) call_args[a.lowered_index] = arg;
        }
        for (int idx : m_.embedded) call_args[idx] = embed_buffer(m_.lowered.args[idx]);
        for (size_t i = 0; i < call_args.size(); i++) {
            internal_assert(call_args[i]) << "AOT function " << m_.name << ": lowered argument "
                                          << m_.lowered.args[i].name << " has no source\n";
        }
        llvm::CallInst *call = builder_.CreateCall(impl, call_args);
        builder_.CreateRet(call);
        return fn;
    }

    void build_argv_function(llvm::Function *fn, bool uc) {
        llvm::Function *argv_fn = llvm::Function::Create(
            llvm::FunctionType::get(i32_, {ptr_}, false), linkage(), m_.name + "_argv", &module_);
        set_attributes(argv_fn);
        builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", argv_fn));
        Value *argv = argv_fn->getArg(0);
        std::vector<Value *> args;
        size_t slot = 0;
        auto next = [&]() {
            Value *p = builder_.CreateConstInBoundsGEP1_64(ptr_, argv, slot++);
            return builder_.CreateLoad(ptr_, p);
        };
        if (uc) args.push_back(builder_.CreateLoad(ptr_, next(), "__user_context"));
        for (const AotArgument &a : m_.public_args) {
            Value *p = next();
            args.push_back(a.arg.is_buffer() ? p : builder_.CreateLoad(abi_type(a.arg), p));
        }
        builder_.CreateRet(builder_.CreateCall(fn, args));
    }

    // ---- Constant data ----

    llvm::Constant *private_global(llvm::Constant *init, const std::string &name,
                                   unsigned align = 8) {
        auto *g = new llvm::GlobalVariable(module_, init->getType(), true,
                                           llvm::GlobalValue::PrivateLinkage, init, name);
        g->setAlignment(llvm::Align(align));
        return g;
    }

    llvm::Constant *string_global(const std::string &s) {
        llvm::Constant *&g = strings_[s];
        if (!g) {
            g = private_global(llvm::ConstantDataArray::getString(ctx_, s), "str", 1);
            llvm::cast<llvm::GlobalVariable>(g)->setUnnamedAddr(
                llvm::GlobalValue::UnnamedAddr::Global);
        }
        return g;
    }

    llvm::Constant *type_constant(Type t) {
        return llvm::ConstantStruct::get(type_t_, {llvm::ConstantInt::get(i8_, (int)t.code()),
                                                   llvm::ConstantInt::get(i8_, t.bits()),
                                                   llvm::ConstantInt::get(i16_, t.lanes())});
    }

    /// A constant halide_buffer_t (and its shape and data) holding a copy of the Buffer bound
    /// to a's parameter.
    llvm::Constant *embed_buffer(const LoweredArgument &a) {
        Buffer<void> b = a.param.buffer();
        internal_assert(b.defined()) << "Embedded buffer " << a.name << " is not bound\n";
        const halide_buffer_t *raw = b.raw_buffer();
        // The bytes from the lowest to the highest addressed element, and the host pointer's
        // offset into them (nonzero with negative strides).
        int64_t lo = 0;
        for (int d = 0; d < raw->dimensions; d++) {
            int64_t span = (int64_t)(raw->dim[d].extent - 1) * raw->dim[d].stride;
            if (span < 0) lo += span;
        }
        int bytes = raw->type.bytes();
        size_t size = raw->size_in_bytes();
        const uint8_t *begin = raw->host + lo * bytes;
        llvm::Constant *data =
            private_global(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint8_t>(begin, size)),
                           a.name + ".data", 128);
        llvm::Constant *host = lo == 0 ? data
                                       : llvm::ConstantExpr::getInBoundsGetElementPtr(
                                             i8_, data, llvm::ConstantInt::get(i64_, -lo * bytes));
        std::vector<llvm::Constant *> dims;
        for (int d = 0; d < raw->dimensions; d++) {
            const halide_dimension_t &dim = raw->dim[d];
            dims.push_back(llvm::ConstantStruct::get(
                dim_t_,
                {llvm::ConstantInt::get(i32_, dim.min), llvm::ConstantInt::get(i32_, dim.extent),
                 llvm::ConstantInt::get(i32_, dim.stride), llvm::ConstantInt::get(i32_, 0)}));
        }
        llvm::Constant *dim_array =
            dims.empty() ? llvm::ConstantPointerNull::get(ptr_)
                         : private_global(llvm::ConstantArray::get(
                                              llvm::ArrayType::get(dim_t_, dims.size()), dims),
                                          a.name + ".dims");
        llvm::Constant *buf = llvm::ConstantStruct::get(
            buffer_t_, {llvm::ConstantInt::get(i64_, 0), llvm::ConstantPointerNull::get(ptr_), host,
                        llvm::ConstantInt::get(i64_, 0), type_constant(raw->type),
                        llvm::ConstantInt::get(i32_, raw->dimensions), dim_array,
                        llvm::ConstantPointerNull::get(ptr_)});
        return private_global(buf, a.name + ".buffer");
    }

    /// A halide_scalar_value_t holding e (a constant of type t), or null when e is not a
    /// constant. The union is 8 bytes; both supported architectures are little-endian, so the
    /// value's bytes go first.
    llvm::Constant *scalar_value(const Expr &e, Type t) {
        if (!e.defined()) return llvm::ConstantPointerNull::get(ptr_);
        uint64_t bits = 0;
        if (const IntImm *i = e.as<IntImm>()) {
            bits = (uint64_t)i->value;
        } else if (const UIntImm *u = e.as<UIntImm>()) {
            bits = u->value;
        } else if (const FloatImm *f = e.as<FloatImm>()) {
            if (t.bits() == 32) {
                float v = (float)f->value;
                uint32_t b32;
                std::memcpy(&b32, &v, 4);
                bits = b32;
            } else {
                std::memcpy(&bits, &f->value, 8);
            }
        } else {
            return llvm::ConstantPointerNull::get(ptr_);
        }
        if (t.bits() < 64) bits &= (uint64_t(1) << t.bits()) - 1;
        return private_global(llvm::ConstantInt::get(i64_, bits), "scalar");
    }

    llvm::Constant *argument_constant(const LoweredArgument &a, int32_t kind,
                                      llvm::StructType *arg_t) {
        llvm::Constant *null = llvm::ConstantPointerNull::get(ptr_);
        llvm::Constant *def = null, *min = null, *max = null, *estimate = null;
        llvm::Constant *estimates = null;
        if (!a.is_buffer() && a.param.defined()) {
            def = scalar_value(a.param.scalar_expr(), a.type);
            min = scalar_value(a.param.min_value(), a.type);
            max = scalar_value(a.param.max_value(), a.type);
            estimate = scalar_value(a.param.estimate(), a.type);
        } else if (a.is_buffer()) {
            std::vector<llvm::Constant *> ptrs;
            for (int d = 0; d < a.dimensions; d++) {
                Expr min_e, extent_e;
                if (a.param.defined()) {
                    min_e = a.param.min_constraint_estimate(d);
                    extent_e = a.param.extent_constraint_estimate(d);
                }
                ptrs.push_back(int64_global(min_e));
                ptrs.push_back(int64_global(extent_e));
            }
            estimates = private_global(
                llvm::ConstantArray::get(llvm::ArrayType::get(ptr_, ptrs.size()), ptrs),
                a.name + ".estimates");
        }
        return llvm::ConstantStruct::get(
            arg_t, {string_global(a.name), llvm::ConstantInt::get(i32_, kind),
                    llvm::ConstantInt::get(i32_, a.is_buffer() ? a.dimensions : 0),
                    type_constant(a.type), def, min, max, estimate, estimates});
    }

    llvm::Constant *int64_global(const Expr &e) {
        int64_t v;
        if (const IntImm *i = e.as<IntImm>()) {
            v = i->value;
        } else if (const UIntImm *u = e.as<UIntImm>()) {
            v = (int64_t)u->value;
        } else {
            return llvm::ConstantPointerNull::get(ptr_);
        }
        return private_global(llvm::ConstantInt::get(i64_, v), "estimate");
    }

    void build_metadata_function(bool uc) {
        llvm::StructType *arg_t = llvm::StructType::create(
            ctx_, {ptr_, i32_, i32_, type_t_, ptr_, ptr_, ptr_, ptr_, ptr_},
            "struct.halide_filter_argument_t");
        llvm::StructType *meta_t = llvm::StructType::create(ctx_, {i32_, i32_, ptr_, ptr_, ptr_},
                                                            "struct.halide_filter_metadata_t");
        std::vector<llvm::Constant *> args;
        if (uc) {
            LoweredArgument ctx_arg;
            ctx_arg.name = "__user_context";
            ctx_arg.type = Handle();
            args.push_back(argument_constant(ctx_arg, 0, arg_t));
        }
        for (const AotArgument &a : m_.public_args) {
            int32_t kind = a.arg.kind == LoweredArgument::Scalar        ? 0
                           : a.arg.kind == LoweredArgument::InputBuffer ? 1
                                                                        : 2;
            args.push_back(argument_constant(a.arg, kind, arg_t));
        }
        llvm::Constant *array = private_global(
            llvm::ConstantArray::get(llvm::ArrayType::get(arg_t, args.size()), args), "args");
        llvm::Constant *meta = private_global(
            llvm::ConstantStruct::get(
                meta_t, {llvm::ConstantInt::get(i32_, 1), llvm::ConstantInt::get(i32_, args.size()),
                         array, string_global(m_.target.to_string()), string_global(m_.name)}),
            m_.name + "_metadata_storage");
        llvm::Function *f = llvm::Function::Create(llvm::FunctionType::get(ptr_, {}, false),
                                                   linkage(), m_.name + "_metadata", &module_);
        set_attributes(f);
        builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", f));
        builder_.CreateRet(meta);
    }

    const ModuleContents &m_;
    llvm::Module &module_;
    llvm::TargetMachine &tm_;
    llvm::LLVMContext &ctx_;
    llvm::IRBuilder<> builder_;
    llvm::Type *i8_, *i16_, *i32_, *i64_;
    llvm::PointerType *ptr_;
    llvm::StructType *type_t_, *dim_t_, *buffer_t_;
    std::map<std::string, llvm::Constant *> strings_;
};

void verify(llvm::Module &m, const std::string &what) {
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(m, &os)) {
        internal_error << "The AOT module " << m.getName().str() << " failed to verify " << what
                       << ":\n"
                       << os.str() << "\n";
    }
}

} // namespace

void add_entry_points(llvm::Module &module, const ModuleContents &m, llvm::TargetMachine &tm) {
    AotModuleBuilder(m, module, tm).build();
    verify(module, "after adding the entry points");
}

std::unique_ptr<llvm::Module> build_aot_module(const ModuleContents &m, llvm::LLVMContext &ctx,
                                               llvm::TargetMachine &tm) {
    std::unique_ptr<llvm::Module> module = codegen_llvm(m.lowered, ctx, tm, m.target);
    add_entry_points(*module, m, tm);
    if (!m.target.has_feature(Target::NoRuntime)) {
        link_runtime(*module, m.target);
        verify(*module, "after linking the runtime");
    }
    optimize_module(*module, tm, m.target.has_feature(Target::EnableLLVMLoopOpt));
    return module;
}

} // namespace internal
} // namespace loom
