// The storage directives of the scheduling language on Func: where the storage of a Func lives
// (store_root, store_at, hoist_storage), which region it computes (bound, bound_extent,
// align_bounds, align_extent; set_estimate, the region autoschedulers assume) and how the
// allocation is shaped (bound_storage, align_storage, fold_storage). They only record decisions in
// the FuncSchedule; lowering reads them (schedule_functions places the Realize, bounds_inference
// applies the bounds, sliding_window and storage_folding use the store level, storage_folding the
// fold factors).
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "ir/ir_utils.h"
#include "lang/function.h"
#include "support/error.h"

#include <algorithm>

namespace loom {

using namespace internal;

namespace {

LoopLevelSpec to_spec(const LoopLevel &level) {
    if (level.is_root()) return LoopLevelSpec::root();
    if (level.is_inlined()) return LoopLevelSpec::inlined();
    LoopLevelSpec spec;
    spec.kind = LoopLevelSpec::At;
    spec.func = level.func();
    spec.var = level.var();
    spec.stage_index = level.stage_index();
    return spec;
}

/// A CompileError naming the Func and Var unless `var` is a pure dimension of f.
void check_pure_var(const Function &f, const Var &var, const char *what) {
    const std::vector<std::string> &args = f.args();
    if (std::find(args.begin(), args.end(), var.name()) != args.end()) return;
    std::string list;
    for (const std::string &a : args) list += (list.empty() ? "" : ", ") + a;
    user_error << "Can't " << what << " variable " << var.name() << " of function " << f.name()
               << " because " << var.name() << " is not one of the pure variables of " << f.name()
               << " (they are: " << list << ").\n";
}

/// The StorageDim of `var`, creating the list in argument order on first use.
StorageDim &storage_dim(Function &f, const std::string &var) {
    std::vector<StorageDim> &dims = f.schedule().storage_dims;
    if (dims.empty()) {
        for (const std::string &a : f.args()) {
            StorageDim d;
            d.var = a;
            dims.push_back(d);
        }
    }
    for (StorageDim &d : dims) {
        if (d.var == var) return d;
    }
    internal_error << "storage_dim: " << var << " is not a storage dimension of " << f.name()
                   << "\n";
    return dims[0];
}

/// The Bound record of `var` (a new one if absent).
Bound &bound_record(Function &f, const std::string &var) {
    for (Bound &b : f.schedule().bounds) {
        if (b.var == var) return b;
    }
    Bound b;
    b.var = var;
    f.schedule().bounds.push_back(b);
    return f.schedule().bounds.back();
}

void check_int(const Expr &e, const Function &f, const Var &var, const char *what) {
    user_assert(e.defined() && e.type().is_int() && e.type().is_scalar())
        << "The " << what << " given for variable " << var.name() << " of function " << f.name()
        << " must be a scalar integer expression.\n";
}

} // namespace

Func &Func::store_root() { return store_at(LoopLevel::root()); }

Func &Func::store_at(const Func &f, const Var &var) { return store_at(LoopLevel(f, var)); }

Func &Func::store_at(const Func &f, const RVar &var) { return store_at(LoopLevel(f, var)); }

Func &Func::store_at(LoopLevel level) {
    user_assert(!level.is_inlined())
        << "Func " << name() << " can't be stored inlined: use compute_inline() instead, or "
        << "store it at the root or at a loop enclosing its compute level.\n";
    user_assert(level.is_root() || level.func() != name())
        << "Func " << name() << " can't be stored at a loop of its own (" << level.func() << "."
        << level.var() << "). Store it at a loop of one of its consumers that encloses its "
        << "compute level, or store_root() it.\n";
    Function f = function();
    f.schedule().store_level = to_spec(level);
    f.schedule().store_level_set = true;
    f.schedule().touched = true;
    f.touch();
    return *this;
}

Func &Func::hoist_storage(const Func &f, const Var &var) {
    return hoist_storage(LoopLevel(f, var));
}

Func &Func::hoist_storage(const Func &f, const RVar &var) {
    return hoist_storage(LoopLevel(f, var));
}

Func &Func::hoist_storage(LoopLevel level) {
    user_assert(!level.is_inlined())
        << "Func " << name() << " can't hoist its storage to an inlined level: use the root or "
        << "a loop enclosing its store level.\n";
    user_assert(level.is_root() || level.func() != name())
        << "Func " << name() << " can't hoist its storage to a loop of its own (" << level.func()
        << "." << level.var() << ").\n";
    Function f = function();
    f.schedule().hoist_storage_level = to_spec(level);
    f.touch();
    return *this;
}

Func &Func::hoist_storage_root() { return hoist_storage(LoopLevel::root()); }

Func &Func::bound(const Var &var, Expr min, Expr extent) {
    Function f = function();
    check_pure_var(f, var, "bound");
    check_int(min, f, var, "min");
    check_int(extent, f, var, "extent");
    Bound &b = bound_record(f, var.name());
    b.min = min;
    b.extent = extent;
    f.touch();
    return *this;
}

Func &Func::set_estimate(const Var &var, const Expr &min, const Expr &extent) {
    Function f = function();
    check_pure_var(f, var, "set the estimate of");
    check_int(min, f, var, "estimated min");
    check_int(extent, f, var, "estimated extent");
    std::vector<Bound> &estimates = f.schedule().estimates;
    auto it = std::find_if(estimates.begin(), estimates.end(),
                           [&](const Bound &b) { return b.var == var.name(); });
    if (it == estimates.end()) it = estimates.insert(estimates.end(), Bound{var.name()});
    it->min = min;
    it->extent = extent;
    // Estimates change no generated code, so compiled pipelines stay valid (no touch()).
    return *this;
}

Func &Func::set_estimates(const Region &estimates) {
    Function f = function();
    user_assert(estimates.size() == f.args().size())
        << "Func " << f.name() << " has " << f.args().size() << " dimensions but set_estimates "
        << "was given " << estimates.size() << " ranges: give one (min, extent) per dimension.\n";
    for (size_t i = 0; i < estimates.size(); i++) {
        set_estimate(Var(f.args()[i]), estimates[i].min, estimates[i].extent);
    }
    return *this;
}

Func &Func::bound_extent(const Var &var, Expr extent) {
    Function f = function();
    check_pure_var(f, var, "bound");
    check_int(extent, f, var, "extent");
    Bound &b = bound_record(f, var.name());
    b.min = Expr();
    b.extent = extent;
    f.touch();
    return *this;
}

Func &Func::align_bounds(const Var &var, Expr modulus, Expr remainder) {
    Function f = function();
    check_pure_var(f, var, "align bounds of");
    check_int(modulus, f, var, "modulus");
    check_int(remainder, f, var, "remainder");
    user_assert(!is_const_zero(modulus)) << "Can't align bounds of variable " << var.name()
                                         << " of function " << name() << " to a modulus of zero.\n";
    Bound &b = bound_record(f, var.name());
    b.modulus = modulus;
    b.remainder = remainder;
    f.touch();
    return *this;
}

Func &Func::align_extent(const Var &var, Expr modulus) {
    Function f = function();
    check_pure_var(f, var, "align extent of");
    check_int(modulus, f, var, "modulus");
    Bound &b = bound_record(f, var.name());
    b.modulus = modulus;
    b.remainder = Expr();
    f.touch();
    return *this;
}

Func &Func::bound_storage(const Var &var, Expr bound) {
    Function f = function();
    check_pure_var(f, var, "bound storage of");
    check_int(bound, f, var, "storage bound");
    storage_dim(f, var.name()).bound = bound;
    f.touch();
    return *this;
}

Func &Func::align_storage(const Var &var, Expr alignment) {
    Function f = function();
    check_pure_var(f, var, "align storage of");
    check_int(alignment, f, var, "storage alignment");
    storage_dim(f, var.name()).alignment = alignment;
    f.touch();
    return *this;
}

Func &Func::fold_storage(const Var &var, Expr extent, bool fold_forward) {
    Function f = function();
    check_pure_var(f, var, "fold storage of");
    check_int(extent, f, var, "fold factor");
    const int64_t *c = as_const_int(extent);
    user_assert(!c || *c > 0) << "Can't fold storage of variable " << var.name() << " of function "
                              << name() << " by a factor of " << extent
                              << ": the fold factor must be positive.\n";
    StorageDim &d = storage_dim(f, var.name());
    d.fold_factor = extent;
    d.fold_forward = fold_forward;
    f.touch();
    return *this;
}

} // namespace loom
