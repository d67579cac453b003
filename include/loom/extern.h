#ifndef LOOM_EXTERN_H
#define LOOM_EXTERN_H

/// \file External code in a pipeline (Halide's extern mechanisms):
///  - HalideExtern_1..5 / HalidePureExtern_1..5 declare a C++ function `name(Expr...)` whose
///    value is a call to the C function `name` (impure / pure);
///  - ExternFuncArgument, NameMangling: the arguments of Func::define_extern, which makes a Func
///    an extern stage computed by a C function over halide_buffer_t's;
///  - JITExtern: a C function pointer given to Pipeline::set_jit_externs, so the JIT resolves
///    calls to that name to it (for functions the executable does not export).

#include <loom/buffer.h>
#include <loom/device_api.h>
#include <loom/error.h>
#include <loom/expr.h>
#include <loom/intrusive_ptr.h>
#include <loom/param.h>
#include <loom/type.h>

#include <string>
#include <type_traits>
#include <vector>

namespace loom {

class Func;
class OutputImageParam;
class Pipeline;

namespace internal {
class Parameter;

/// A Call of type `t` to the C function `name` (Call::PureExtern when `pure`, else
/// Call::Extern). What the HalideExtern macros expand to.
Expr make_extern_call(const Type &t, const std::string &name, const std::vector<Expr> &args,
                      bool pure);

/// Throws a CompileError unless `arg` (argument n, from 1, of extern function `fn`) has type
/// `expected`.
void check_extern_arg_type(const Type &expected, const char *fn, const Expr &arg, int n);

/// The Loom type of a C parameter or return type: Handle for pointers and references, Bool
/// for bool, else the integer or floating type of the same size and signedness.
template <typename T>
Type extern_type_of() {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (std::is_pointer<U>::value || std::is_reference<T>::value) {
        return Handle();
    } else if constexpr (std::is_same<U, bool>::value) {
        return Bool();
    } else if constexpr (is_float16_class<U>) {
        return type_of<U>();
    } else if constexpr (std::is_floating_point<U>::value) {
        return Float(8 * (int)sizeof(U));
    } else if constexpr (std::is_integral<U>::value || std::is_enum<U>::value) {
        return std::is_signed<U>::value ? Int(8 * (int)sizeof(U)) : UInt(8 * (int)sizeof(U));
    } else {
        return Handle();
    }
}
} // namespace internal

/// How the name of an extern stage's function is mangled.
enum class NameMangling {
    Default,  ///< as the Target says (C for every target Loom compiles for)
    C,        ///< no mangling
    CPlusPlus ///< C++ mangling (not supported by Loom: a CompileError when lowered)
};

/// One argument of an extern stage (Func::define_extern), in the order the C function takes
/// them: a Func is passed as the halide_buffer_t* of the region of it that was computed (one
/// buffer per Tuple element), a Buffer or ImageParam as its halide_buffer_t*, an Expr (or
/// Param) by value.
struct ExternFuncArgument {
    enum ArgType { UndefinedArg = 0, FuncArg, BufferArg, ExprArg, ImageParamArg };
    ArgType arg_type = UndefinedArg;
    /// FuncArg: the Function's contents (a FunctionContents).
    internal::IntrusivePtr<internal::RefCounted> func;
    /// BufferArg.
    Buffer<> buffer;
    /// ExprArg.
    Expr expr;
    /// ImageParamArg: the buffer Parameter's contents (a ParameterContents).
    internal::IntrusivePtr<internal::RefCounted> image_param;

    ExternFuncArgument(const Func &f);
    template <typename T, int Dims>
    ExternFuncArgument(const Buffer<T, Dims> &b) : arg_type(BufferArg), buffer(b) {}
    ExternFuncArgument(Expr e);
    ExternFuncArgument(int e);
    ExternFuncArgument(float e);
    /// A scalar Param, passed by value.
    template <typename T>
    ExternFuncArgument(const Param<T> &p) : ExternFuncArgument(Expr(p)) {}
    /// An ImageParam (or output buffer), passed as its halide_buffer_t*.
    ExternFuncArgument(const OutputImageParam &p);
    /// A buffer Parameter (internal form of an ImageParam).
    ExternFuncArgument(const internal::Parameter &p);
    ExternFuncArgument() = default;

    bool is_func() const { return arg_type == FuncArg; }
    bool is_expr() const { return arg_type == ExprArg; }
    bool is_buffer() const { return arg_type == BufferArg; }
    bool is_image_param() const { return arg_type == ImageParamArg; }
    bool defined() const { return arg_type != UndefinedArg; }
};

/// The C signature of a function given as a JITExtern.
struct ExternSignature {
    ExternSignature() = default;
    ExternSignature(const Type &ret_type, bool is_void_return, const std::vector<Type> &arg_types)
        : ret_type_(ret_type), is_void_return_(is_void_return), arg_types_(arg_types) {}
    template <typename RT, typename... Args>
    explicit ExternSignature(RT (*)(Args...))
        : is_void_return_(std::is_void<RT>::value),
          arg_types_({internal::extern_type_of<Args>()...}) {
        if constexpr (!std::is_void<RT>::value) ret_type_ = internal::extern_type_of<RT>();
    }

    /// The return type (meaningless for a void function).
    const Type &ret_type() const { return ret_type_; }
    bool is_void_return() const { return is_void_return_; }
    const std::vector<Type> &arg_types() const { return arg_types_; }

private:
    Type ret_type_;
    bool is_void_return_ = false;
    std::vector<Type> arg_types_;
};

/// A C function: its address and signature.
struct ExternCFunction {
    ExternCFunction() = default;
    ExternCFunction(void *address, const ExternSignature &signature)
        : address_(address), signature_(signature) {}
    template <typename RT, typename... Args>
    ExternCFunction(RT (*f)(Args...)) : ExternCFunction((void *)f, ExternSignature(f)) {}

    void *address() const { return address_; }
    const ExternSignature &signature() const { return signature_; }

private:
    void *address_ = nullptr;
    ExternSignature signature_;
};

/// What a name in Pipeline::set_jit_externs resolves to: a C function pointer. (Halide also
/// accepts a Pipeline or Func here; Loom does not support that yet, and constructing one is a
/// CompileError.)
struct JITExtern {
    explicit JITExtern(const Pipeline &pipeline);
    explicit JITExtern(const Func &func);
    explicit JITExtern(const ExternCFunction &extern_c_function)
        : extern_c_function_(extern_c_function) {}
    template <typename RT, typename... Args>
    explicit JITExtern(RT (*f)(Args... args)) : JITExtern(ExternCFunction(f)) {}

    const ExternCFunction &extern_c_function() const { return extern_c_function_; }

private:
    ExternCFunction extern_c_function_;
};

} // namespace loom

// ---- HalideExtern_N / HalidePureExtern_N ----
// Each defines `Expr name(const Expr &a1, ...)`, checking that argument i has the C type ti,
// whose value is a call to the C function `name` returning rettype. The JIT resolves `name`
// among the process's exported symbols (link the executable with -rdynamic / CMake
// ENABLE_EXPORTS) or through Pipeline::set_jit_externs.

#define LOOM_EXTERN_CHECK_(t, name, e, n) ::loom::internal::check_extern_arg_type(t, #name, e, n)

#define LOOM_EXTERN_1_(pure, rt, name, t1)                                                         \
    inline ::loom::Expr name(const ::loom::Expr &a1) {                                             \
        LOOM_EXTERN_CHECK_(::loom::type_of<t1>(), name, a1, 1);                                    \
        return ::loom::internal::make_extern_call(::loom::type_of<rt>(), #name, {a1}, pure);       \
    }
#define LOOM_EXTERN_2_(pure, rt, name, t1, t2)                                                     \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2) {                     \
        LOOM_EXTERN_CHECK_(::loom::type_of<t1>(), name, a1, 1);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t2>(), name, a2, 2);                                    \
        return ::loom::internal::make_extern_call(::loom::type_of<rt>(), #name, {a1, a2}, pure);   \
    }
#define LOOM_EXTERN_3_(pure, rt, name, t1, t2, t3)                                                 \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3) {                                             \
        LOOM_EXTERN_CHECK_(::loom::type_of<t1>(), name, a1, 1);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t2>(), name, a2, 2);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t3>(), name, a3, 3);                                    \
        return ::loom::internal::make_extern_call(::loom::type_of<rt>(), #name, {a1, a2, a3},      \
                                                  pure);                                           \
    }
#define LOOM_EXTERN_4_(pure, rt, name, t1, t2, t3, t4)                                             \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3, const ::loom::Expr &a4) {                     \
        LOOM_EXTERN_CHECK_(::loom::type_of<t1>(), name, a1, 1);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t2>(), name, a2, 2);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t3>(), name, a3, 3);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t4>(), name, a4, 4);                                    \
        return ::loom::internal::make_extern_call(::loom::type_of<rt>(), #name, {a1, a2, a3, a4},  \
                                                  pure);                                           \
    }
#define LOOM_EXTERN_5_(pure, rt, name, t1, t2, t3, t4, t5)                                         \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3, const ::loom::Expr &a4,                       \
                             const ::loom::Expr &a5) {                                             \
        LOOM_EXTERN_CHECK_(::loom::type_of<t1>(), name, a1, 1);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t2>(), name, a2, 2);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t3>(), name, a3, 3);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t4>(), name, a4, 4);                                    \
        LOOM_EXTERN_CHECK_(::loom::type_of<t5>(), name, a5, 5);                                    \
        return ::loom::internal::make_extern_call(::loom::type_of<rt>(), #name,                    \
                                                  {a1, a2, a3, a4, a5}, pure);                     \
    }

/// An impure C function (called once per evaluation, never reordered or merged).
#define HalideExtern_1(rt, name, t1) LOOM_EXTERN_1_(false, rt, name, t1)
#define HalideExtern_2(rt, name, t1, t2) LOOM_EXTERN_2_(false, rt, name, t1, t2)
#define HalideExtern_3(rt, name, t1, t2, t3) LOOM_EXTERN_3_(false, rt, name, t1, t2, t3)
#define HalideExtern_4(rt, name, t1, t2, t3, t4) LOOM_EXTERN_4_(false, rt, name, t1, t2, t3, t4)
#define HalideExtern_5(rt, name, t1, t2, t3, t4, t5)                                               \
    LOOM_EXTERN_5_(false, rt, name, t1, t2, t3, t4, t5)
/// A pure C function (its result depends only on its arguments).
#define HalidePureExtern_1(rt, name, t1) LOOM_EXTERN_1_(true, rt, name, t1)
#define HalidePureExtern_2(rt, name, t1, t2) LOOM_EXTERN_2_(true, rt, name, t1, t2)
#define HalidePureExtern_3(rt, name, t1, t2, t3) LOOM_EXTERN_3_(true, rt, name, t1, t2, t3)
#define HalidePureExtern_4(rt, name, t1, t2, t3, t4) LOOM_EXTERN_4_(true, rt, name, t1, t2, t3, t4)
#define HalidePureExtern_5(rt, name, t1, t2, t3, t4, t5)                                           \
    LOOM_EXTERN_5_(true, rt, name, t1, t2, t3, t4, t5)

#endif
