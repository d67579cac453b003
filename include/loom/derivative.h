#ifndef LOOM_DERIVATIVE_H
#define LOOM_DERIVATIVE_H

/// \file Reverse-mode automatic differentiation of pipelines (Halide's propagate_adjoints, after
/// Li et al. 2018). Given an output Func and the adjoint of its values (for a scalar loss, 1),
/// propagate_adjoints builds, for every Func the output depends on, and for each of its
/// definitions, a Func holding the adjoint of that definition's values, plus one for every
/// input buffer and scalar float Param. The adjoint Funcs are ordinary Funcs: schedule and
/// realize them like any other. See docs/autodiff.md.
///
///   Func loss;  loss() = 0.f;  loss() += pow(f(r.x, r.y) - target(r.x, r.y), 2);
///   Derivative d = propagate_adjoints(loss);
///   Buffer<float> grad = d(input).realize({w, h});   // d loss / d input(x, y)

#include <loom/buffer_fwd.h>
#include <loom/expr.h>
#include <loom/func.h>
#include <loom/param.h>

#include <map>
#include <string>
#include <utility>

namespace loom {

/// The adjoint Funcs made by propagate_adjoints, looked up by what they are the adjoint of.
class Derivative {
public:
    /// A Func's name and definition: -1 for its pure definition, i for update definition i.
    using FuncKey = std::pair<std::string, int>;

    explicit Derivative(const std::map<FuncKey, Func> &adjoints_in) : adjoints(adjoints_in) {}
    explicit Derivative(std::map<FuncKey, Func> &&adjoints_in) : adjoints(std::move(adjoints_in)) {}

    /// The adjoint of the values of definition `update_id` of `func` (-1: the pure definition,
    /// which for a Func without updates is the adjoint of the Func). Undefined when the output
    /// does not depend on it.
    Func operator()(const Func &func, int update_id = -1) const;
    /// The adjoint of an input Buffer read by the pipeline (undefined when none).
    Func operator()(const Buffer<> &buffer) const;
    /// The adjoint of a scalar float Param, a zero-dimensional Func (undefined when none).
    Func operator()(const Param<> &param) const;
    /// The adjoint of the Func, ImageParam, Buffer or Param of this name (the pure definition
    /// for Funcs; undefined when none).
    Func operator()(const std::string &name) const;

private:
    std::map<FuncKey, Func> adjoints;
};

/// Propagates `adjoint`, the adjoint of `output`'s values over `output_bounds` (one (min,
/// extent) per dimension; the adjoint is zero elsewhere), back to every Func, input buffer and
/// float Param `output` depends on. CompileErrors name the Func whose definition cannot be
/// differentiated (a call to an extern function or extern Func, Tuple-valued Funcs, update
/// patterns not supported yet).
Derivative propagate_adjoints(const Func &output, const Func &adjoint, const Region &output_bounds);
/// The same with the adjoint in a Buffer, over the Buffer's shape.
Derivative propagate_adjoints(const Func &output, const Buffer<float> &adjoint);
/// The gradient of a scalar `output` (zero-dimensional, or of extent 1 at 0 in every
/// dimension): propagate_adjoints with an adjoint of 1.
Derivative propagate_adjoints(const Func &output);

} // namespace loom

#endif
