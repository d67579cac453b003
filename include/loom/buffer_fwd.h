#ifndef LOOM_BUFFER_FWD_H
#define LOOM_BUFFER_FWD_H

/// \file The one declaration of loom::Buffer's default template arguments, so headers that only
/// pass Buffers around need not include the full buffer.h.

namespace loom {

/// Dims value meaning "any number of dimensions, checked at run time".
constexpr int AnyDims = -1;

template <typename T = void, int Dims = AnyDims>
class Buffer;

namespace Runtime {
template <typename T = void, int Dims = AnyDims>
class Buffer;
} // namespace Runtime

} // namespace loom

#endif
