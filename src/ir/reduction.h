#ifndef LOOM_IR_REDUCTION_H
#define LOOM_IR_REDUCTION_H

/// \file ReductionDomain: the shared state behind RDom. Variables that are reduction variables
/// carry their domain, which is how the front end recognises RVars in pure definitions and how
/// lowering finds the loops of an update definition.

#include <loom/expr.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// One dimension of a reduction domain: the variable and its [min, min + extent) range.
struct ReductionVariable {
    std::string var;
    Expr min, extent;
};

struct ReductionDomainContents : RefCounted {
    std::vector<ReductionVariable> domain;
    /// Conjunction of the `where` conditions (undefined when none). Its RVars are plain
    /// Variables (no reduction_domain): the domain holds the predicate, so they must not hold
    /// the domain back (a reference cycle, never freed). Definitions recognise them by name.
    Expr predicate;
    /// Set once the domain is used in a definition; `where` is then an error.
    bool frozen = false;
};

class ReductionDomain {
public:
    ReductionDomain() = default;
    explicit ReductionDomain(const std::vector<ReductionVariable> &domain)
        : contents(new ReductionDomainContents) {
        contents->domain = domain;
    }
    bool defined() const { return contents.defined(); }
    bool same_as(const ReductionDomain &o) const { return contents.same_as(o.contents); }
    const std::vector<ReductionVariable> &domain() const { return contents->domain; }
    Expr predicate() const { return contents->predicate; }
    /// Adds `cond` to the predicate (a conjunction). Both unbind the domain's own RVars in the
    /// condition (see ReductionDomainContents::predicate).
    void where(const Expr &cond);
    void set_predicate(const Expr &p);
    void freeze() { contents->frozen = true; }
    bool frozen() const { return contents->frozen; }

    IntrusivePtr<ReductionDomainContents> contents;
};

} // namespace internal
} // namespace loom

#endif
