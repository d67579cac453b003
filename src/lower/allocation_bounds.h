#ifndef LOOM_LOWER_ALLOCATION_BOUNDS_H
#define LOOM_LOWER_ALLOCATION_BOUNDS_H

/// \file Constant upper bounds of allocation sizes, shared by the passes that need a buffer's
/// size at compile time: bound_small_allocations (stack and registers) and allocate_scratchpads
/// (static placement in user-declared memories). An extent is bounded after substituting the
/// enclosing lets (so the symbolic parts of a region's min and max cancel), with the ranges of the
/// enclosing loops' variables and of any variable given a range up front (constant-interval
/// arithmetic, src/arith/constant_interval.h).
/// Tests: tests/unit/lower/bound_small_allocations_test.cpp,
/// tests/unit/lower/allocate_scratchpads_test.cpp.

#include "arith/constant_interval.h"
#include "ir/ir_mutator.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// The constant ranges of variables in scope.
using ConstantScope = std::map<std::string, ConstantInterval>;

/// The range of a loop variable: [min, min + extent - 1] over the ranges of min and extent.
ConstantInterval loop_var_bounds(const For *op, const ConstantScope &scope);

/// Binds `name` to `value` in `scope` for the lifetime of the object (restoring any binding it
/// shadows).
class ScopedBinding {
public:
    ScopedBinding(ConstantScope &scope, const std::string &name, const ConstantInterval &value);
    ~ScopedBinding();
    ScopedBinding(const ScopedBinding &) = delete;
    ScopedBinding &operator=(const ScopedBinding &) = delete;

private:
    ConstantScope &scope;
    std::string name;
    bool had_old = false;
    ConstantInterval old;
};

/// A constant upper (upper = true) or lower bound of the integer expression e, or false when
/// none is found. Differences of mins and maxes are bounded through their operands, so that
/// e.g. min(t + 32, n) - min(t, n - 32) is bounded by 32 although neither side is bounded: the
/// extents of per-tile buffers under ShiftInwards splits look like this.
bool constant_bound(const Expr &e, bool upper, const ConstantScope &scope, int64_t *result,
                    int depth = 0);

/// A mutator that knows, at each Allocate, the enclosing lets and the ranges of the enclosing
/// loops' variables, and bounds extents with them. Subclasses that override visit(LetStmt) or
/// visit(For) call these.
class AllocationBoundsMutator : public IRMutator {
public:
    /// `assumed`: ranges of variables no enclosing let or loop defines (e.g. the size of an
    /// output from its estimate).
    explicit AllocationBoundsMutator(ConstantScope assumed = {}) : scope(std::move(assumed)) {}

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override;
    Stmt visit(const For *op) override;

    /// A constant upper bound of extent e (see the file comment), or false.
    bool extent_upper_bound(const Expr &e, int64_t *result);

    ConstantScope scope;
    /// The enclosing LetStmts, outermost first (an undefined value for a loop variable).
    std::vector<std::pair<std::string, Expr>> lets;
};

} // namespace internal
} // namespace loom

#endif
