#ifndef LOOM_COMPAT_HALIDE_NAMESPACE_H
#define LOOM_COMPAT_HALIDE_NAMESPACE_H

/// \file The namespace Halide of the compatibility headers. It is a real namespace, not an alias
/// of loom, so that Halide programs and Halide's own tool headers (halide_benchmark.h,
/// halide_thread_pool.h, ...) can reopen it with `namespace Halide { ... }`. Every Loom name is
/// found through it by a using-directive: `Halide::Func` is `loom::Func`, the same type.
/// Halide::Runtime is Loom's Runtime (an alias: both names must denote one namespace, or
/// `Runtime::Buffer` would be ambiguous after `using namespace Halide;`); Halide::Internal is
/// a namespace of its own that sees loom::internal, so it can be reopened too.

namespace loom {
namespace Runtime {}
namespace internal {}
} // namespace loom

namespace Halide {
using namespace loom;
namespace Runtime = loom::Runtime;
namespace Internal {
using namespace loom::internal;
} // namespace Internal
} // namespace Halide

#endif
