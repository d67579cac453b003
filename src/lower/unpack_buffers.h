#ifndef LOOM_LOWER_UNPACK_BUFFERS_H
#define LOOM_LOWER_UNPACK_BUFFERS_H

/// \file unpack_buffers: binds the fields of each buffer argument the body uses, reading the
/// halide_buffer_t "<b>.buffer" once at entry:
///   let b = _halide_buffer_get_host(b.buffer)
///   let b.min.<d> = _halide_buffer_get_min(b.buffer, d)   (likewise extent and stride)
/// Leading assertions that only look at the raw "<b>.buffer" handles (null, type and
/// dimension checks) stay in front of the lets, so a bad buffer is reported before any of its
/// fields is read. Tests: tests/unit/lower/unpack_buffers_test.cpp.

#include "lower/lowered_func.h"

#include <vector>

namespace loom {
namespace internal {

Stmt unpack_buffers(const Stmt &s, const std::vector<LoweredArgument> &args);

} // namespace internal
} // namespace loom

#endif
