#ifndef LOOM_IMAGE_PARAM_H
#define LOOM_IMAGE_PARAM_H

/// \file ImageParam (a buffer argument of a pipeline) and OutputImageParam (the same view of an
/// output buffer), as in Halide. Their shape is symbolic: dim(i).min() etc. are Exprs that the
/// compiled code binds to the shape of the buffer passed in, and dim(i).set_*() records
/// constraints that compiled code checks and lowering uses as facts.

#include <loom/buffer_fwd.h>
#include <loom/expr.h>
#include <loom/intrusive_ptr.h>
#include <loom/type.h>

#include <string>
#include <vector>

namespace loom {

struct Argument;
class Func;
class Var;

namespace internal {

class Parameter;

/// One dimension of an ImageParam or OutputImageParam: symbolic bounds and their constraints.
/// Setters return the Dimension so calls chain: `im.dim(0).set_min(0).dim(1).set_stride(w)`.
class Dimension {
public:
    /// Dimension `d` of the buffer parameter `p`.
    Dimension(const Parameter &p, int d);

    /// The smallest coordinate: Variable "<name>.min.<d>" (Int(32), parameter attached).
    Expr min() const;
    /// The number of coordinates: Variable "<name>.extent.<d>".
    Expr extent() const;
    /// The largest coordinate, min() + extent() - 1.
    Expr max() const;
    /// The distance in elements between neighbours: Variable "<name>.stride.<d>".
    Expr stride() const;
    /// The estimates autoschedulers use (undefined when none).
    Expr min_estimate() const;
    Expr extent_estimate() const;

    /// Require min() == `min` (undefined removes the constraint). A constant also becomes the
    /// estimate.
    Dimension set_min(const Expr &min);
    /// Require extent() == `extent` (undefined removes it). A constant also becomes the estimate.
    Dimension set_extent(const Expr &extent);
    /// Require stride() == `stride` (undefined removes it); set_stride(1) on dim(0) makes the
    /// innermost dimension dense, which vectorized loads need.
    Dimension set_stride(const Expr &stride);
    /// set_min(min) and set_extent(extent).
    Dimension set_bounds(const Expr &min, const Expr &extent);
    /// The shape autoschedulers assume, without constraining anything.
    Dimension set_estimate(const Expr &min, const Expr &extent);
    /// Another dimension of the same buffer, for chaining.
    Dimension dim(int i) const;

    /// Which dimension this is.
    int index() const { return d; }

private:
    IntrusivePtr<RefCounted> param; ///< the ParameterContents
    int d;
};

} // namespace internal

/// A buffer parameter seen by the algorithm or schedule: an input (ImageParam) or the output
/// buffer of a Func (Func::output_buffer()).
class OutputImageParam {
public:
    /// An undefined parameter.
    OutputImageParam() = default;
    /// A view of the buffer parameter `p`; `is_input` selects the Argument kind it becomes.
    explicit OutputImageParam(const internal::Parameter &p, bool is_input = false);

    /// Whether this refers to a parameter.
    bool defined() const { return contents.defined(); }
    /// The parameter's name (the name of its argument in compiled code).
    const std::string &name() const;
    /// The element type.
    Type type() const;
    /// The number of dimensions.
    int dimensions() const;

    /// Dimension i (0 <= i < dimensions(), else a CompileError naming the parameter).
    internal::Dimension dim(int i);
    const internal::Dimension dim(int i) const;

    /// dim(0).min(), dim(0).max(), dim(1).min(), dim(1).max().
    Expr left() const;
    Expr right() const;
    Expr top() const;
    Expr bottom() const;
    /// dim(0).extent(), dim(1).extent(), dim(2).extent().
    Expr width() const;
    Expr height() const;
    Expr channels() const;

    /// Require the host pointer to be a multiple of `bytes` (a power of two).
    OutputImageParam &set_host_alignment(int bytes);
    int host_alignment() const;
    /// dim(i).set_estimate(estimates[i].min, estimates[i].extent) for each i.
    OutputImageParam &set_estimates(const Region &estimates);

    /// The shared state.
    internal::Parameter parameter() const;
    /// The parameter as a pipeline argument (an input or output buffer).
    operator Argument() const;

protected:
    /// Throws unless dimension i exists.
    void check_dim(int i) const;

    internal::IntrusivePtr<internal::RefCounted> contents; ///< the ParameterContents
    bool is_input = false;
};

/// An input buffer of a pipeline (Halide's ImageParam). Calling it with coordinates reads it;
/// set() binds the Buffer that realize passes.
class ImageParam : public OutputImageParam {
public:
    /// An undefined ImageParam.
    ImageParam() = default;
    /// An input of element type `t` with `dims` dimensions; an empty name gets a unique one.
    ImageParam(Type t, int dims, const std::string &name = "");

    /// Bind the buffer realize passes for this input (its type and dimensions must match).
    void set(const Buffer<void> &b);
    /// The bound buffer (undefined when none).
    Buffer<void> get() const;
    /// Unbind the buffer.
    void reset();

    /// A read of the input at the given coordinates (Exprs, Vars, RVars or ints). `_` stands
    /// for the remaining dimensions, as in Halide: im(_) reads im(_0, _1, ...). Calls with
    /// the wrong number of coordinates are a CompileError.
    template <typename... Args>
    Expr operator()(const Expr &first, const Args &...rest) const {
        std::vector<Expr> args{first, Expr(rest)...};
        return (*this)(args);
    }
    /// A read of a zero-dimensional input.
    Expr operator()() const { return (*this)(std::vector<Expr>()); }
    Expr operator()(std::vector<Expr> args) const;
    Expr operator()(const std::vector<Var> &args) const;

    /// A Func that reads the input: f(_0, _1, ...) = im(_0, _1, ...). The same Func every time,
    /// so schedules applied to it stick.
    operator Func() const;
    /// Trace every load from this input (as Func::trace_loads); returns the Func wrapping it.
    Func trace_loads();

    /// Wrappers of the input (Func::in): a Func reading the buffer that replaces the reads of
    /// it in `f` / in all of `fs` / everywhere (src/lang/wrappers.cpp).
    Func in(const Func &f);
    Func in(const std::vector<Func> &fs);
    Func in();

private:
    /// Holds the Func made by operator Func, shared by copies of this ImageParam.
    internal::IntrusivePtr<internal::RefCounted> func_cache;
};

namespace internal {

/// Halide's argument rules for a call to `name` (an ImageParam, a Buffer): `_` expands to
/// implicit vars _0, _1, ... filling the remaining dimensions; then the count must be `dims`;
/// integer types other than Int(32) are cast to it; float, uint32+ and int64 args are errors.
/// `what` says what is called ("ImageParam", "Buffer") for the messages.
std::vector<Expr> check_call_args(const std::string &what, const std::string &name,
                                  std::vector<Expr> args, int dims);

} // namespace internal

} // namespace loom

#endif
