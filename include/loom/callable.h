#ifndef LOOM_CALLABLE_H
#define LOOM_CALLABLE_H

/// \file Callable: a JIT-compiled pipeline called like a C function (Halide's
/// Pipeline::compile_to_callable). The arguments are those given to compile_to_callable, in
/// that order, then one output buffer per output Func (and Tuple element), optionally preceded
/// by a JITUserContext*:
///
///   Callable c = f.compile_to_callable({input, scale});
///   int rc = c(in_buffer, 2.5f, out_buffer);          // or c(&context, in_buffer, ...)
///
/// Buffers are passed as loom::Buffer, Runtime::Buffer or halide_buffer_t*; scalars by value,
/// of exactly the Param's type (a float where an int is expected is an error, not a conversion).
/// Unlike realize(), nothing is allocated or bound: the caller's buffers are used as they are,
/// and the Params' own values are not read. A call returns 0 on success. On an error (a wrong
/// argument, or one the pipeline's checks reject) the message goes to the context's
/// custom_error handler and the call returns its nonzero code; without such a handler the call
/// throws RuntimeError with the message, as realize() does. Copies share the compiled code, and
/// a Callable may be called from several threads at once. Tests: tests/compat/halide_callable.cpp.

#include <loom/buffer.h>
#include <loom/jit_handlers.h>
#include <loom/runtime/loom_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace loom {

namespace internal {
struct CallableContents;

template <typename T>
struct IsLoomBuffer : std::false_type {};
template <typename T, int Dims>
struct IsLoomBuffer<Buffer<T, Dims>> : std::true_type {};
template <typename T, int Dims>
struct IsLoomBuffer<Runtime::Buffer<T, Dims>> : std::true_type {};
} // namespace internal

class Callable {
public:
    /// What the caller passes in one argument slot, checked against what the pipeline takes.
    struct ArgKind {
        enum Kind : uint8_t { Scalar, Buffer, Context } kind;
        halide_type_t type; ///< of a Scalar
    };

    /// An empty Callable: defined() is false and calling it is an error.
    Callable();
    bool defined() const;

    template <typename... Args>
    int operator()(JITUserContext *context, Args &&...args) const {
        const std::array<ArgKind, 1 + sizeof...(Args)> kinds = {
            ArgKind{ArgKind::Context, halide_type_t()}, kind_of<Args>()...};
        Slots<1 + sizeof...(Args)> slots(context, std::forward<Args>(args)...);
        return call_checked(kinds.size(), kinds.data(), slots.argv);
    }
    template <typename... Args>
    int operator()(Args &&...args) const {
        return (*this)(static_cast<JITUserContext *>(nullptr), std::forward<Args>(args)...);
    }

    /// A std::function with the argument types given (a JITUserContext* first or not), checked
    /// once here: when they do not match the pipeline's, calling the function reports that
    /// mismatch (as a call with wrong arguments does) without running the pipeline.
    template <typename First, typename... Rest>
    std::function<int(First, Rest...)> make_std_function() const {
        if constexpr (std::is_same_v<std::decay_t<First>, JITUserContext *>) {
            const std::array<ArgKind, 1 + sizeof...(Rest)> kinds = {kind_of<First>(),
                                                                    kind_of<Rest>()...};
            const std::string mismatch = check(kinds.size(), kinds.data());
            Callable self = *this;
            return [self, mismatch](First context, Rest... rest) -> int {
                if (!mismatch.empty()) return self.report(context, mismatch);
                Slots<1 + sizeof...(Rest)> slots(context, rest...);
                return self.call_argv_fast(1 + sizeof...(Rest), slots.argv);
            };
        } else {
            const std::array<ArgKind, 2 + sizeof...(Rest)> kinds = {
                ArgKind{ArgKind::Context, halide_type_t()}, kind_of<First>(), kind_of<Rest>()...};
            const std::string mismatch = check(kinds.size(), kinds.data());
            Callable self = *this;
            return [self, mismatch](First first, Rest... rest) -> int {
                if (!mismatch.empty()) return self.report(nullptr, mismatch);
                Slots<2 + sizeof...(Rest)> slots(static_cast<JITUserContext *>(nullptr), first,
                                                 rest...);
                return self.call_argv_fast(2 + sizeof...(Rest), slots.argv);
            };
        }
    }

    /// The unchecked call (Halide's argv convention): argv[0] points at a JITUserContext* (which
    /// may be null), then each argument in order: a halide_buffer_t* for a buffer, a pointer
    /// to the value for a scalar.
    int call_argv_fast(size_t argc, const void *const *argv) const;

    /// Used by compile_to_callable.
    explicit Callable(std::shared_ptr<internal::CallableContents> contents);

private:
    std::shared_ptr<internal::CallableContents> contents;

    template <typename T>
    static ArgKind kind_of() {
        using D = std::remove_cv_t<std::remove_reference_t<T>>;
        if constexpr (std::is_same_v<D, JITUserContext *>) {
            return ArgKind{ArgKind::Context, halide_type_t()};
        } else if constexpr (internal::IsLoomBuffer<D>::value ||
                             std::is_same_v<D, halide_buffer_t *> ||
                             std::is_same_v<D, const halide_buffer_t *>) {
            return ArgKind{ArgKind::Buffer, halide_type_t()};
        } else if constexpr (std::is_arithmetic_v<D> || std::is_pointer_v<D>) {
            return ArgKind{ArgKind::Scalar, halide_type_of<D>()};
        } else {
            static_assert(!sizeof(D), "A Callable takes buffers, scalars and a JITUserContext*.");
        }
    }

    /// The argv of one call: buffers as their halide_buffer_t*, scalars and the context as a
    /// pointer to a copy of the value.
    template <size_t N>
    struct Slots {
        const void *argv[N];
        uint64_t values[N];
        template <typename... Args>
        explicit Slots(Args &&...args) {
            size_t i = 0;
            (fill(i++, std::forward<Args>(args)), ...);
        }
        template <typename T, int Dims>
        void fill(size_t i, const Buffer<T, Dims> &b) {
            argv[i] = b.defined() ? b.raw_buffer() : nullptr;
        }
        template <typename T, int Dims>
        void fill(size_t i, const Runtime::Buffer<T, Dims> &b) {
            argv[i] = b.raw_buffer();
        }
        void fill(size_t i, halide_buffer_t *b) { argv[i] = b; }
        void fill(size_t i, const halide_buffer_t *b) { argv[i] = b; }
        template <typename T>
        void fill(size_t i, const T &v) {
            static_assert(sizeof(T) <= sizeof(uint64_t), "scalar argument too large");
            std::memcpy(&values[i], &v, sizeof(T));
            argv[i] = &values[i];
        }
    };

    /// "" when `kinds` (the context's first, then one per argument) match the pipeline's
    /// arguments, else what is wrong.
    std::string check(size_t argc, const ArgKind *kinds) const;
    /// Reports `message` to the context's error handler (or throws RuntimeError) and returns
    /// the error code.
    int report(JITUserContext *context, const std::string &message) const;
    int call_checked(size_t argc, const ArgKind *kinds, const void *const *argv) const;
};

} // namespace loom

#endif
