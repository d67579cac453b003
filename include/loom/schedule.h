#ifndef LOOM_SCHEDULE_H
#define LOOM_SCHEDULE_H

/// \file The vocabulary of the scheduling language shared by Func and Stage: TailStrategy (what
/// a split does when the factor does not divide the extent), VarOrRVar (a loop named by a Var or
/// an RVar) and LoopLevel (where a Func is computed).

#include <loom/rdom.h>
#include <loom/var.h>

#include <cstdint>
#include <string>

namespace loom {

/// What a split does with the last, partial iteration when the factor does not divide the
/// extent (Halide's TailStrategy, in Halide's order).
enum class TailStrategy : uint8_t {
    /// Compute past the end: the realization is rounded up to a multiple of the factor. Not
    /// allowed where that would write outside an output buffer or change an update's result.
    RoundUp,
    /// Guard the loop body with an if, so the tail iterations do nothing.
    GuardWithIf,
    /// Guard with vector predication (as GuardWithIf on CPUs without masked vectors).
    Predicate,
    /// Predicate only the loads; the stores write the whole vector.
    PredicateLoads,
    /// Predicate only the stores; the loads read the whole vector.
    PredicateStores,
    /// Shift the last iteration back to end at the extent, recomputing a few points. Only for
    /// pure definitions (recomputing must be harmless), and needs extent >= factor.
    ShiftInwards,
    /// ShiftInwards, blending the overlap with the existing values (updates only).
    ShiftInwardsAndBlend,
    /// RoundUp, blending the tail's results with the existing values (updates only).
    RoundUpAndBlend,
    /// ShiftInwards for pure definitions, RoundUp for the pure Vars of updates, GuardWithIf for
    /// RVars.
    Auto
};

/// What a prefetch does with the part of the prefetched region outside the prefetched
/// buffer's bounds (Halide's PrefetchBoundStrategy).
enum class PrefetchBoundStrategy {
    /// Clamp the prefetched region to the buffer's bounds.
    Clamp,
    /// Skip the prefetch when any of its region is outside the buffer's bounds.
    GuardWithIf,
    /// Prefetch the region as is (prefetches never fault).
    NonFaulting
};

/// How compute_with lines up the fused loops of two stages whose extents differ (Halide's
/// LoopAlignStrategy).
enum class LoopAlignStrategy {
    /// Shift the computed stage's loop so both loops start at the same iteration.
    AlignStart,
    /// Shift the computed stage's loop so both loops end at the same iteration.
    AlignEnd,
    /// Fuse the loops as they are (the fused loop covers the union of both ranges).
    NoAlign,
    /// NoAlign, unless something better is known.
    Auto
};

/// Whether a loop may be split into a prologue, a steady state without boundary conditions and
/// an epilogue (Halide's Partition; Stage::partition).
enum class Partition {
    /// Partition where likely() or a boundary condition says where the steady state is.
    Auto,
    /// Leave the loop whole (less code, for loops that run few iterations).
    Never,
    /// Partition, and make it a CompileError when the loop has nothing to partition.
    Always
};

/// A loop variable given to a scheduling directive: a Var, an RVar, or a one-dimensional RDom
/// (which stands for its RVar).
class VarOrRVar {
public:
    VarOrRVar(const Var &v) : var(v), is_rvar(false) {}
    VarOrRVar(const RVar &r) : rvar(r), is_rvar(true) {}
    VarOrRVar(const RDom &r) : rvar(r.x), is_rvar(true) {}
    /// A Var by name (Halide's string form).
    VarOrRVar(const std::string &n, bool r) : var(n), rvar(n), is_rvar(r) {}

    /// The loop's name.
    const std::string &name() const { return is_rvar ? rvar.name() : var.name(); }

    Var var;
    RVar rvar;
    bool is_rvar;
};

class Func;

/// A place in the loop nest for compute_at/store_at: inlined, the root, or the loop over a Var or
/// RVar of a Func's stage (see the constructor for the default stage).
class LoopLevel {
public:
    /// Inlined.
    LoopLevel() = default;
    /// The loop over `var` in stage `stage_index` of `f` (-1: for compute_at, the loop of every
    /// stage of f that calls the Func placed there, as in Halide; for store_at and
    /// hoist_storage, f's last stage).
    LoopLevel(const Func &f, const VarOrRVar &var, int stage_index = -1);

    static LoopLevel inlined() { return LoopLevel(); }
    static LoopLevel root() {
        LoopLevel l;
        l.kind_ = Root;
        return l;
    }

    bool is_inlined() const { return kind_ == Inlined; }
    bool is_root() const { return kind_ == Root; }
    /// The Func and loop name of an At level (empty otherwise).
    const std::string &func() const { return func_; }
    const std::string &var() const { return var_; }
    int stage_index() const { return stage_index_; }

private:
    enum Kind { Inlined, Root, At } kind_ = Inlined;
    std::string func_, var_;
    int stage_index_ = -1;
};

} // namespace loom

#endif
