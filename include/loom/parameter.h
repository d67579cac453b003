#ifndef LOOM_PARAMETER_H
#define LOOM_PARAMETER_H

/// \file Parameter: the shared state behind Param<T>, ImageParam and OutputImageParam, and the
/// binding of a concrete Buffer used directly in an algorithm. IR nodes that read a parameter
/// (Variable for scalars, Call/Load for buffers) hold a Parameter; lowering turns every distinct
/// Parameter into an argument of the compiled function. Public as Halide's Parameter is: the
/// serialization API (<loom/serialization.h>) maps parameter names to Parameters.

#include <loom/buffer_fwd.h>
#include <loom/expr.h>

#include <string>

namespace loom {
namespace internal {

/// A handle to a parameter's shared state: copies alias the same parameter, as ImageParam and
/// Param copies do.
class Parameter {
public:
    /// An undefined parameter.
    Parameter() = default;
    /// A scalar (dimensions == 0, is_buffer false) or buffer parameter.
    Parameter(Type t, bool is_buffer, int dimensions, const std::string &name);

    bool defined() const { return contents.defined(); }
    /// The name (of the argument in compiled code).
    const std::string &name() const;
    /// The scalar type, or a buffer's element type.
    Type type() const;
    /// The number of dimensions (0 for scalars).
    int dimensions() const;
    bool is_buffer() const;
    /// Whether both handles refer to the same parameter.
    bool same_as(const Parameter &o) const { return contents.same_as(o.contents); }
    /// An order by identity, for maps keyed by Parameter.
    bool operator<(const Parameter &o) const { return contents < o.contents; }

    // Scalar parameters. The value is held as raw bits of the parameter's type.
    /// The current value as a constant Expr of the parameter's type.
    Expr scalar_expr() const;
    /// Set the value from a constant Expr (converted to the parameter's type).
    void set_scalar_expr(const Expr &value);
    /// Raw storage for the value (at least 8 bytes), passed by address to compiled code.
    void *scalar_address() const;
    template <typename T>
    void set_scalar(T v) {
        static_assert(sizeof(T) <= 8, "scalar parameters are at most 64 bits");
        *(T *)scalar_address() = v;
    }
    template <typename T>
    T scalar() const {
        return *(const T *)scalar_address();
    }
    void set_min_value(const Expr &e);
    Expr min_value() const;
    void set_max_value(const Expr &e);
    Expr max_value() const;
    void set_estimate(const Expr &e);
    Expr estimate() const;

    // Buffer parameters.
    /// The buffer bound to this parameter (undefined Buffer when none).
    Buffer<void> buffer() const;
    void set_buffer(const Buffer<void> &b);
    /// True for the Parameter made for a concrete Buffer used directly in an algorithm: its
    /// buffer is fixed, and realize passes it without the user binding anything.
    bool is_bound_buffer() const;
    void set_is_bound_buffer(bool b);

    /// Constraints on dimension `dim` (undefined Expr = unconstrained). Lowering asserts them
    /// at the entry of the compiled function and uses them as facts.
    void set_min_constraint(int dim, const Expr &e);
    void set_extent_constraint(int dim, const Expr &e);
    void set_stride_constraint(int dim, const Expr &e);
    Expr min_constraint(int dim) const;
    Expr extent_constraint(int dim) const;
    Expr stride_constraint(int dim) const;
    void set_min_constraint_estimate(int dim, const Expr &e);
    void set_extent_constraint_estimate(int dim, const Expr &e);
    Expr min_constraint_estimate(int dim) const;
    Expr extent_constraint_estimate(int dim) const;
    void set_host_alignment(int bytes);
    int host_alignment() const;
    /// Whether loads of this input buffer are traced (ImageParam::trace_loads).
    void set_trace_loads(bool b);
    bool trace_loads() const;

    /// A ParameterContents (parameter.cpp); type-erased so this header stays light.
    IntrusivePtr<RefCounted> contents;
};

} // namespace internal

/// Halide's name for it (Halide::Parameter).
using Parameter = internal::Parameter;

} // namespace loom

#endif
