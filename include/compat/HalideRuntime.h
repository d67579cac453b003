#ifndef LOOM_COMPAT_HALIDE_RUNTIME_H
#define LOOM_COMPAT_HALIDE_RUNTIME_H

/// \file Halide-source compatibility: Halide's HalideRuntime.h is Loom's C runtime header (same
/// structs, same function names), plus the portability macros Halide's header defines, which
/// programs and generated-code callers use (HALIDE_MUST_USE_RESULT, HALIDE_ATTRIBUTE_ALIGN, ...).

#include <loom/runtime/loom_runtime.h>

/// The version of Halide whose API and semantics Loom follows.
#ifndef HALIDE_VERSION_MAJOR
#define HALIDE_VERSION_MAJOR 21
#define HALIDE_VERSION_MINOR 0
#define HALIDE_VERSION_PATCH 0
#endif

#ifndef HALIDE_ALWAYS_INLINE
#ifdef _MSC_VER
#define HALIDE_ALWAYS_INLINE __forceinline
#define HALIDE_NEVER_INLINE __declspec(noinline)
#else
#define HALIDE_ALWAYS_INLINE inline __attribute__((always_inline))
#define HALIDE_NEVER_INLINE __attribute__((noinline))
#endif
#endif

/// Warns when a caller drops the result (the runtime's error codes, Buffer's copy methods).
#ifndef HALIDE_MUST_USE_RESULT
#if defined(__cplusplus) && __cplusplus >= 201703L
#define HALIDE_MUST_USE_RESULT [[nodiscard]]
#elif defined(__GNUC__) || defined(__clang__)
#define HALIDE_MUST_USE_RESULT __attribute__((warn_unused_result))
#else
#define HALIDE_MUST_USE_RESULT
#endif
#endif

/// Attributes of the functions Halide's runtime implements; none are needed on the callers' side.
#ifndef HALIDE_FUNCTION_ATTRS
#define HALIDE_FUNCTION_ATTRS
#endif

/// Makes a symbol visible outside its shared object (extern functions a JIT pipeline calls).
#ifndef HALIDE_EXPORT_SYMBOL
#ifdef _MSC_VER
#define HALIDE_EXPORT_SYMBOL __declspec(dllexport)
#else
#define HALIDE_EXPORT_SYMBOL __attribute__((visibility("default")))
#endif
#endif

#ifndef HALIDE_ATTRIBUTE_ALIGN
#ifdef _MSC_VER
#define HALIDE_ATTRIBUTE_ALIGN(x) __declspec(align(x))
#else
#define HALIDE_ATTRIBUTE_ALIGN(x) __attribute__((aligned(x)))
#endif
#endif

#ifndef HALIDE_ATTRIBUTE_DEPRECATED
#ifdef _MSC_VER
#define HALIDE_ATTRIBUTE_DEPRECATED(x) __declspec(deprecated(x))
#else
#define HALIDE_ATTRIBUTE_DEPRECATED(x) __attribute__((deprecated(x)))
#endif
#endif

#endif
