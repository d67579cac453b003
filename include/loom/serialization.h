#ifndef LOOM_SERIALIZATION_H
#define LOOM_SERIALIZATION_H

/// \file Pipelines as bytes (Halide's Serialization.h and Deserialization.h): the whole front end
/// of a Pipeline -- every Func it reaches with its algorithm and schedule, its Params and
/// ImageParams with their constraints, the Buffers it embeds (with their data) and its
/// requirements -- written to a byte vector or a file and read back as a new Pipeline that
/// computes the same values with the same schedule.
///
/// The format is Loom's own (not Halide's .hlpipe): a header with a magic number, a format
/// version and a checksum, then a compact encoding that is deterministic: a pipeline built the
/// same way serializes to the same bytes, also in the same process (the suffixes Loom adds to
/// reused Func names, "f$1", are left out), so the bytes can serve as a cache key. Data of
/// another format version, or corrupt or truncated data, is a CompileError saying so.
///
/// Some pipelines can't be serialized, and serialize_pipeline throws a CompileError naming the
/// Func and the reason: pipelines with C function pointers (Pipeline::set_jit_externs,
/// jit_handlers()) or with a Handle Param holding a pointer value. Extern functions called by
/// name (define_extern, HalideExtern_*) are kept by name: the process that deserializes must
/// provide them. The buffers bound to ImageParams (ImageParam::set) are run-time inputs, not part
/// of the pipeline: bind them again after deserializing (see user_params). Guide:
/// docs/serialization.md.

#include <loom/parameter.h>
#include <loom/pipeline.h>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace loom {

/// Serializes `pipeline` into `data` (its previous contents are replaced).
void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data);

/// Serializes `pipeline` into `data` and fills `params` with the pipeline's external parameters
/// (its Params and ImageParams, not the Buffers it embeds) by name, so a caller can bind them to
/// objects of its own when deserializing.
void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data,
                        std::map<std::string, Parameter> &params);

/// Serializes `pipeline` into the file `filename` (replaced if it exists).
void serialize_pipeline(const Pipeline &pipeline, const std::string &filename);

/// Serializes `pipeline` into the file `filename` and fills `params` as above.
void serialize_pipeline(const Pipeline &pipeline, const std::string &filename,
                        std::map<std::string, Parameter> &params);

/// A new Pipeline from serialized data. Each external parameter whose name is a key of
/// `user_params` is that Parameter (for example `{{"input", input.parameter()}}`), so setting a
/// buffer or value on the caller's ImageParam or Param feeds the deserialized pipeline; its own
/// constraints apply, not the serialized ones. Type and dimensions must match (else a
/// CompileError). The other parameters are new objects with the serialized values and
/// constraints.
Pipeline deserialize_pipeline(const std::vector<uint8_t> &data,
                              const std::map<std::string, Parameter> &user_params);

/// As above, reading the file `filename`.
Pipeline deserialize_pipeline(const std::string &filename,
                              const std::map<std::string, Parameter> &user_params);

/// As above, reading `in` to its end.
Pipeline deserialize_pipeline(std::istream &in,
                              const std::map<std::string, Parameter> &user_params);

/// The external parameters of serialized data, by name, as new Parameters with their serialized
/// types, values and constraints: bind buffers or values to them, then pass them as the
/// user_params of deserialize_pipeline.
std::map<std::string, Parameter> deserialize_parameters(const std::vector<uint8_t> &data);

/// As above, reading the file `filename`.
std::map<std::string, Parameter> deserialize_parameters(const std::string &filename);

/// As above, reading `in` to its end.
std::map<std::string, Parameter> deserialize_parameters(std::istream &in);

} // namespace loom

#endif
