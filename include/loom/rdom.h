#ifndef LOOM_RDOM_H
#define LOOM_RDOM_H

/// \file RDom and RVar: reduction domains (Halide's RDom). An update definition that uses an
/// RVar loops over the RVar's range, innermost RVar first, in the order of the domain.

#include <loom/buffer_fwd.h>
#include <loom/expr.h>
#include <loom/intrusive_ptr.h>

#include <iosfwd>
#include <string>
#include <utility>

namespace loom {

class OutputImageParam;

namespace internal {
class ReductionDomain;
} // namespace internal

/// One dimension of a reduction domain. It converts to an Int(32) Variable Expr that carries
/// its domain, which is how definitions find the loops they need.
class RVar {
public:
    /// An RVar with a new unique name and no domain.
    RVar();
    /// An RVar with the given name and no domain (schedules use these to name split RVars).
    explicit RVar(const std::string &name);
    /// Dimension `index` of `domain`.
    RVar(const internal::ReductionDomain &domain, int index);

    /// The first value (undefined when the RVar has no domain).
    Expr min() const;
    /// The number of values (undefined when the RVar has no domain).
    Expr extent() const;
    /// The name: "<rdom name>.x" etc. for the dimensions of an RDom.
    const std::string &name() const;
    /// The reduction domain it belongs to (undefined when none).
    internal::ReductionDomain domain() const;

    /// The Variable for this RVar, with its domain attached. Converting an RVar that has no
    /// domain is a CompileError.
    operator Expr() const;

private:
    std::string name_;
    internal::IntrusivePtr<internal::RefCounted> dom_; ///< a ReductionDomainContents, or null
    int index_ = -1;
};

/// A multi-dimensional reduction domain: the region an update definition iterates over.
/// `RDom r(0, 10, 0, 20, "r")` has the RVars r.x in [0, 10) and r.y in [0, 20).
class RDom {
public:
    /// An undefined RDom (dimensions() == 0).
    RDom() = default;
    /// A domain over `region` (one RVar per Range). An empty name gets a unique one ("r<n>").
    RDom(const Region &region, std::string name = "");
    /// `RDom(min0, extent0, min1, extent1, ..., [name])`: one RVar per (min, extent) pair.
    template <typename... Args>
    RDom(const Expr &min, const Expr &extent, Args &&...rest) {
        Region region{Range(min, extent)};
        std::string name;
        collect(region, name, std::forward<Args>(rest)...);
        initialize(region, name);
    }
    /// A domain over the whole shape of a Buffer: dimension i spans [b.dim(i).min(), +extent).
    RDom(const Buffer<void> &b);
    template <typename T, int Dims>
    RDom(const Buffer<T, Dims> &b) : RDom(Buffer<void>(b)) {}
    /// A domain over the symbolic shape of an ImageParam or output buffer.
    RDom(const OutputImageParam &p);
    /// A handle to an existing domain.
    explicit RDom(const internal::ReductionDomain &d);

    /// The shared state (undefined for RDom()).
    internal::ReductionDomain domain() const;
    /// Whether this RDom has a domain.
    bool defined() const { return dom_.defined(); }
    /// Identity of the underlying domain.
    bool same_as(const RDom &other) const { return dom_.same_as(other.dom_); }
    /// The number of dimensions (0 when undefined).
    int dimensions() const;
    /// Dimension i (a CompileError when out of range).
    RVar operator[](int i) const;

    /// A one-dimensional RDom is its only RVar (a CompileError otherwise).
    operator RVar() const;
    /// A one-dimensional RDom is the Expr of its only RVar (a CompileError otherwise).
    operator Expr() const;

    /// Restrict the domain to the points where `predicate` holds (conditions accumulate with
    /// &&). Allowed only before the RDom is used in a definition.
    void where(Expr predicate);

    /// The first four dimensions (RVars without a domain where the RDom has fewer).
    RVar x, y, z, w;

private:
    static void collect(Region &, std::string &) {}
    static void collect(Region &, std::string &name, const std::string &n) { name = n; }
    template <typename... Args>
    static void collect(Region &region, std::string &name, const Expr &min, const Expr &extent,
                        Args &&...rest) {
        region.emplace_back(min, extent);
        collect(region, name, std::forward<Args>(rest)...);
    }
    void initialize(const Region &region, std::string name);
    void init_vars(const std::string &name);

    internal::IntrusivePtr<internal::RefCounted> dom_; ///< a ReductionDomainContents
};

/// Prints "r.x(min, extent)".
std::ostream &operator<<(std::ostream &os, const RVar &v);
/// Prints "RDom()" for an undefined RDom, else "RDom(\n  r.x(min, extent)\n  ...\n)".
std::ostream &operator<<(std::ostream &os, const RDom &r);

} // namespace loom

#endif
