#ifndef LOOM_AUTODIFF_SCATTER_GATHER_H
#define LOOM_AUTODIFF_SCATTER_GATHER_H

/// \file Scatter-to-gather conversion (Li et al. 2018, §4.2.1). A definition computing f over
/// its iteration domain D (its pure Vars over f's region, its RVars over their ranges) reads a
/// producer g at args(d); a call site contributes w(d) to the adjoint of g at args(d):
///     d_g(u) += sum over {d in D : args(d) == u} of w(d).
/// Read as a scatter (a loop over D writing d_g(args(d))), this is serial. Where each argument
/// can be solved for one iteration variable (affine indices: shifts, x / k, k * x, transposes,
/// repeated Vars), it becomes a gather: an Expr in d_g's Vars u, summing with an RDom over the
/// iteration variables no argument determines and over the several points an upsampling read
/// maps to one u (x / 2 == u for x in [2u, 2u + 1]); the solved variables are clamped to D and
/// masked by a select outside it (the paper's zero-padding of d_f). Clamps, one-sided min/max and
/// selects in an index (boundary conditions) split the sum into a gather per case: the interior
/// of clamp(e, lo, hi) and, for each edge, the points where e falls outside, summed over the
/// (narrow) part of D where that happens. A contribution masked by selects on the iteration
/// variables is gathered within each mask, which bounds its sums. Anything else (a data-dependent
/// index, x % k, ...) falls back to the scatter, over D, which must then be bounded. Examples, for
/// out(x) over [0, 9]:
///   out(x) = in(x - 1)          ->  d_in(u) = select(0 <= u + 1 <= 9, w[x := u + 1], 0)
///   out(x) = in(x / 2)          ->  d_in(u) = sum(r in [0, 2): select(0 <= 2u + r <= 9, ...))
///   out(x) = in(lut(x))         ->  d_in(lut(r)) += w[x := r] for r in [0, 9] (a scatter)
/// Tests: tests/correctness/autodiff_stencils.cpp.

#include "analysis/interval.h"
#include "ir/ir.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The points a definition iterates over.
struct IterationDomain {
    struct Dim {
        std::string name; ///< the pure Var's or RVar's name in the definition
        Interval range;   ///< inclusive; unbounded ends where the Func's region is unknown
        bool is_rvar = false;
    };
    std::vector<Dim> dims;
    Expr predicate;   ///< the RDom's where() conditions (undefined when none)
    std::string func; ///< the Func of the definition, for error messages
};

/// What call sites add to one adjoint Func.
struct AdjointTerms {
    /// Exprs in the adjoint's pure Vars, summed into its pure definition.
    std::vector<Expr> gathers;
    /// Updates adjoint(args) += value (args and value use the RVars of one RDom).
    struct Scatter {
        std::vector<Expr> args;
        Expr value;
    };
    std::vector<Scatter> scatters;
    /// Whether a gather sums over an inline reduction (a Func computed per point of its
    /// consumer).
    bool summed = false;
};

/// Adds to `terms` the contribution `w` (an Expr in the domain's variables) of a call reading
/// the producer `callee` at `args`. `vars` are the adjoint's pure Var names (one per arg).
/// `name` prefixes the names of the inline reductions and RDoms made.
void add_call_adjoint(const IterationDomain &domain, const std::vector<Expr> &args, const Expr &w,
                      const std::vector<std::string> &vars, const std::string &callee,
                      const std::string &name, AdjointTerms *terms);

} // namespace internal
} // namespace loom

#endif
