#ifndef LOOM_ARGUMENT_H
#define LOOM_ARGUMENT_H

/// \file Argument: one parameter of a compiled pipeline (Halide's Argument), as listed by
/// infer_arguments() and passed to compile_to_*().

#include <loom/buffer_fwd.h>
#include <loom/type.h>

#include <cstdint>
#include <string>

namespace loom {

namespace internal {
class Parameter;
} // namespace internal

/// A scalar parameter, an input buffer or an output buffer of a compiled pipeline. Param<T>,
/// ImageParam and Buffer convert to it.
struct Argument {
    /// What the argument is.
    enum Kind { InputScalar = 0, InputBuffer = 1, OutputBuffer = 2 };

    /// The argument's name in the compiled function's signature.
    std::string name;
    Kind kind = InputScalar;
    /// The number of dimensions (buffers only; 0 for scalars).
    uint8_t dimensions = 0;
    /// The scalar type, or the element type of a buffer.
    Type type;

    Argument() = default;
    Argument(const std::string &name, Kind kind, const Type &type, int dimensions)
        : name(name), kind(kind), dimensions((uint8_t)dimensions), type(type) {}
    /// The argument for a scalar or buffer parameter (the state behind Param and ImageParam).
    Argument(const internal::Parameter &p);
    /// A Buffer used as an input.
    template <typename T, int Dims>
    Argument(const Buffer<T, Dims> &b)
        : name(b.name()), kind(InputBuffer), dimensions((uint8_t)b.dimensions()), type(b.type()) {}

    bool is_buffer() const { return kind == InputBuffer || kind == OutputBuffer; }
    bool is_scalar() const { return kind == InputScalar; }
    bool is_input() const { return kind == InputScalar || kind == InputBuffer; }
    bool is_output() const { return kind == OutputBuffer; }

    bool operator==(const Argument &o) const {
        return name == o.name && kind == o.kind && dimensions == o.dimensions && type == o.type;
    }
    bool operator!=(const Argument &o) const { return !(*this == o); }
};

} // namespace loom

#endif
