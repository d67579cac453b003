#include <loom/rdom.h>

#include <loom/buffer.h>
#include <loom/image_param.h>
#include <loom/ir_operator.h>

#include "ir/ir.h"
#include "ir/ir_visitor.h"
#include "support/error.h"
#include "support/util.h"

#include <ostream>

namespace loom {

using internal::ReductionDomain;
using internal::ReductionDomainContents;
using internal::ReductionVariable;

namespace {

ReductionDomain as_domain(const internal::IntrusivePtr<internal::RefCounted> &p) {
    ReductionDomain d;
    d.contents = static_cast<ReductionDomainContents *>(p.get());
    return d;
}

/// The name suffix of dimension i: x, y, z, w, then the index.
std::string dim_suffix(size_t i) {
    static const char *const names[] = {"x", "y", "z", "w"};
    return i < 4 ? names[i] : std::to_string(i);
}

/// RDom bounds are Int(32), as loop bounds are.
Expr as_int32(const Expr &e, const std::string &what, size_t dim, const std::string &rdom) {
    user_assert(e.defined()) << "The " << what << " of dimension " << dim << " of RDom " << rdom
                             << " is undefined.\n";
    return e.type() == Int(32) ? e : cast(Int(32), e);
}

} // namespace

RVar::RVar() : name_(internal::unique_name('r')) {}

RVar::RVar(const std::string &name) : name_(name) {}

RVar::RVar(const ReductionDomain &domain, int index) : dom_(domain.contents), index_(index) {
    internal_assert(domain.defined() && index >= 0 && index < (int)domain.domain().size())
        << "RVar index " << index << " out of range\n";
}

Expr RVar::min() const { return dom_.defined() ? as_domain(dom_).domain()[index_].min : Expr(); }

Expr RVar::extent() const {
    return dom_.defined() ? as_domain(dom_).domain()[index_].extent : Expr();
}

const std::string &RVar::name() const {
    if (!dom_.defined()) return name_;
    return static_cast<ReductionDomainContents *>(dom_.get())->domain[index_].var;
}

ReductionDomain RVar::domain() const { return as_domain(dom_); }

RVar::operator Expr() const {
    user_assert(dom_.defined()) << "Use of undefined RDom dimension: " << name()
                                << " (the RDom has fewer dimensions, or this RVar has no "
                                   "domain).\n";
    return internal::Variable::make(Int(32), name(), domain());
}

RDom::RDom(const Region &region, std::string name) { initialize(region, std::move(name)); }

void RDom::initialize(const Region &region, std::string name) {
    if (name.empty()) name = internal::unique_name('r');
    if (region.empty()) {
        init_vars(name);
        return;
    }
    std::vector<ReductionVariable> vars;
    for (size_t i = 0; i < region.size(); i++) {
        ReductionVariable rv;
        rv.var = name + "." + dim_suffix(i);
        rv.min = as_int32(region[i].min, "min", i, name);
        rv.extent = as_int32(region[i].extent, "extent", i, name);
        vars.push_back(rv);
    }
    dom_ = ReductionDomain(vars).contents;
    init_vars(name);
}

RDom::RDom(const Buffer<void> &b) {
    user_assert(b.defined()) << "Can't make an RDom over an undefined Buffer.\n";
    Region region;
    for (int i = 0; i < b.dimensions(); i++) {
        region.emplace_back(Expr(b.dim(i).min()), Expr(b.dim(i).extent()));
    }
    initialize(region, b.name());
}

RDom::RDom(const OutputImageParam &p) {
    user_assert(p.defined()) << "Can't make an RDom over an undefined ImageParam.\n";
    Region region;
    for (int i = 0; i < p.dimensions(); i++) {
        region.emplace_back(p.dim(i).min(), p.dim(i).extent());
    }
    initialize(region, p.name());
}

RDom::RDom(const ReductionDomain &d) : dom_(d.contents) {
    std::string name;
    if (d.defined() && !d.domain().empty()) {
        const std::string &first = d.domain()[0].var;
        size_t dot = first.rfind('.');
        name = dot == std::string::npos ? first : first.substr(0, dot);
    }
    init_vars(name);
}

void RDom::init_vars(const std::string &name) {
    RVar *vars[] = {&x, &y, &z, &w};
    int n = dimensions();
    for (int i = 0; i < 4; i++) {
        *vars[i] = i < n ? RVar(domain(), i) : RVar(name + "." + dim_suffix(i));
    }
}

ReductionDomain RDom::domain() const { return as_domain(dom_); }

int RDom::dimensions() const { return dom_.defined() ? (int)domain().domain().size() : 0; }

RVar RDom::operator[](int i) const {
    user_assert(i >= 0 && i < dimensions())
        << "Index " << i << " is out of range for RDom " << *this << ", which has " << dimensions()
        << " dimension(s).\n";
    return RVar(domain(), i);
}

RDom::operator RVar() const {
    user_assert(dimensions() == 1) << "Can't treat an RDom with " << dimensions()
                                   << " dimensions as an RVar; use r.x, r.y, ... or r[i].\n";
    return x;
}

RDom::operator Expr() const {
    user_assert(dimensions() == 1) << "Can't treat an RDom with " << dimensions()
                                   << " dimensions as an Expr; use r.x, r.y, ... or r[i].\n";
    return Expr(x);
}

void RDom::where(Expr predicate) {
    user_assert(defined()) << "Can't add a predicate to an undefined RDom.\n";
    ReductionDomain d = domain();
    user_assert(!d.frozen())
        << "RDom " << x.name().substr(0, x.name().rfind('.'))
        << " cannot be given a new predicate, because it has already been used in an update "
           "definition. Call where() before using the RDom.\n";
    user_assert(predicate.defined()) << "RDom::where was given an undefined predicate.\n";
    user_assert(predicate.type().is_bool())
        << "RDom::where needs a boolean condition, but was given one of type " << predicate.type()
        << ".\n";
    internal::visit_exprs(predicate, [&](const Expr &e) {
        const internal::Variable *v = e.as<internal::Variable>();
        user_assert(!v || !v->reduction_domain.defined() || v->reduction_domain.same_as(d))
            << "The predicate of an RDom may only use its own RVars; " << v->name
            << " belongs to another RDom.\n";
        return true;
    });
    d.where(predicate);
}

std::ostream &operator<<(std::ostream &os, const RVar &v) {
    os << v.name();
    if (v.min().defined()) os << "(" << v.min() << ", " << v.extent() << ")";
    return os;
}

std::ostream &operator<<(std::ostream &os, const RDom &r) {
    if (!r.defined()) return os << "RDom()";
    os << "RDom(\n";
    for (int i = 0; i < r.dimensions(); i++) os << "  " << r[i] << "\n";
    return os << ")";
}

} // namespace loom
