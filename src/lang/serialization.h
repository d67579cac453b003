#ifndef LOOM_LANG_SERIALIZATION_H
#define LOOM_LANG_SERIALIZATION_H

/// \file The binary form of a pipeline's front end, behind <loom/serialization.h> (the driver
/// adds what only a Pipeline holds). serialize_definition writes every Function reachable from
/// the outputs (through calls, wrappers and extern arguments) with its algorithm and schedule,
/// every Parameter and ReductionDomain they use, and the Buffers they embed with their data;
/// deserialize_definition rebuilds them as new objects, one per serialized object, so what was
/// shared (a Func called from several places, a Param, an RDom) is shared again, and self-calls
/// go through a WeakFunctionRef as the front end makes them. Func names lose the suffixes of
/// reused names ("f$1" is written "f") and get fresh unique names when read.
///
/// Layout (serialization_stream.h has the primitives):
///   header:  "LOOMPIPE", format version (u32), body size (u64), FNV-1a hash of the body (u64)
///   body:    the object table: for each Function, Parameter and ReductionDomain, in the order
///            first met walking from the outputs, what creating it needs (a Function's name; a
///            Parameter's name, type, dimensions, or the Buffer it is bound to, with its data);
///            then the pipeline (outputs, requirements, output buffers), then each object's
///            contents in table order. Exprs are trees with back-references to nodes written
///            before, so shared nodes stay shared; objects are referred to by table index.
/// Tests: tests/correctness/serialization.cpp.

#include "ir/ir.h"
#include "lang/function.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// Everything of a Pipeline that serialization keeps.
struct PipelineDefinition {
    std::vector<Function> outputs;
    /// Pipeline::add_requirement: each condition with its error arguments.
    std::vector<std::pair<Expr, std::vector<Expr>>> requirements;
    /// Func::output_buffer(s) of each output, one per Tuple element, or empty where never made
    /// (they carry the user's constraints on the output buffers).
    std::vector<std::vector<Parameter>> output_buffers;
    /// Pipeline::trace_pipeline was called.
    bool trace_pipeline = false;
};

/// The bytes of `p`. `external` (when not null) receives the Params and ImageParams by name.
/// A CompileError naming the Func for what can't be serialized (a Handle Param holding a
/// pointer, an embedded Buffer of handles or with newer data on a device).
std::vector<uint8_t> serialize_definition(const PipelineDefinition &p,
                                          std::map<std::string, Parameter> *external);

/// The definition in `data` (see <loom/serialization.h> for `user_params`). `external` (when
/// not null) receives the external parameters as deserialized (user_params where bound). A
/// CompileError for data that is not a serialized pipeline, of another format version, or
/// corrupt.
PipelineDefinition deserialize_definition(const uint8_t *data, size_t size,
                                          const std::map<std::string, Parameter> &user_params,
                                          std::map<std::string, Parameter> *external);

/// Rewrites the header's hash after the body was changed (tests feed corrupt bodies past the
/// hash check this way, to check the decoder's own checks).
void reseal_serialized(std::vector<uint8_t> &data);

} // namespace internal
} // namespace loom

#endif
