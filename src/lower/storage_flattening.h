#ifndef LOOM_LOWER_STORAGE_FLATTENING_H
#define LOOM_LOWER_STORAGE_FLATTENING_H

/// \file Storage flattening: multi-dimensional storage becomes flat buffers.
///  - `realize f` -> one Allocate per Tuple element ("f", or "f.<i>"), of product(extents)
///    elements; outputs get no Allocate: they live in the output buffers.
///  - `f(args) = values` -> one Store per element, at the flat index
///    sum((arg_d - min_d) * stride_d); undef values store nothing (the element keeps its value),
///    and a value select(c, undef, v) stores v only where !c (the store goes under an if);
///    the strides follow the storage order (FuncSchedule::storage_dims, set by reorder_storage;
///    the argument order by default): its first dimension has stride 1, each next one the
///    product of the extents before it, and the Allocate's extents are listed in that order;
///    several values are evaluated before any is stored.
///  - reads of Funcs and input buffers -> Loads at the same kind of index. Internal storage
///    is dense (stride_0 = 1, stride_d = stride_{d-1} * extent_{d-1}, min = the realization's
///    min); buffers use "<b>.min.<d>" / "<b>.stride.<d>" and their host pointer "<b>".
///  - Bool elements are stored as uint8.
/// Example: realize f([m, e]) { f(x) = g[x] } with g an input ->
///   allocate f[int32 * e] { f[x - m] = g[(x - g.min.0) * g.stride.0] }
/// Tests: tests/unit/lower/storage_flattening_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

Stmt storage_flattening(const Stmt &s, const std::vector<Function> &outputs,
                        const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
