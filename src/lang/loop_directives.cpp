// The loop directives of the scheduling language (split, tile, reorder, fuse, rename, vectorize,
// parallel, unroll, serial, and the device loops: gpu_*, hexagon) on Stage, and Func's forwards
// to its pure stage. They only record decisions in the stage's StageSchedule (splits and dims);
// build_provide_loop_nest turns them into loops.
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "analysis/associativity.h"
#include "lang/function.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <set>

namespace loom {

using namespace internal;

namespace {

const char *for_type_verb(ForType t) {
    switch (t) {
    case ForType::Parallel:
        return "parallelize";
    case ForType::Vectorized:
        return "vectorize";
    case ForType::Unrolled:
        return "unroll";
    case ForType::GPUBlock:
        return "make GPU blocks of";
    case ForType::GPUThread:
        return "make GPU threads of";
    case ForType::GPULane:
        return "make GPU lanes of";
    default:
        return "serialize";
    }
}

/// The index in the stage's dims of the loop `name` names (see find_loop); a CompileError naming
/// the stage and listing its loops when there is none.
size_t find_dim(const Stage &stage, const std::string &name, const char *what) {
    int i = find_loop(stage.function(), stage.definition(), name);
    user_assert(i >= 0) << "In schedule for " << stage.name() << ": can't " << what << " " << name
                        << " because " << stage.name() << " has no loop over " << name
                        << ". Its loops, outermost first, are: " << loop_list(stage.definition())
                        << ".\n";
    return (size_t)i;
}

/// A factor that must be a positive compile-time constant (vector widths, unroll factors).
void check_constant_factor(const Stage &stage, const VarOrRVar &var, const Expr &factor,
                           const char *what) {
    const IntImm *k = factor.as<IntImm>();
    user_assert(k) << "In schedule for " << stage.name() << ": the " << what << " factor of "
                   << var.name() << " must be a constant integer, but it is " << factor
                   << ". Use a literal such as 8, or a Param only in split().\n";
    user_assert(k->value > 0) << "In schedule for " << stage.name() << ": the " << what
                              << " factor of " << var.name() << " must be positive, not "
                              << k->value << ".\n";
}

/// Whether loop `var` of a stage stems from the inner loop of one of its splits: the inner
/// loop itself, or a loop made from one by a rename, a split (either part) or a fuse.
bool stems_from_inner_split(const StageSchedule &s, const std::string &var) {
    std::set<std::string> inner;
    for (const Split &sp : s.splits) {
        if (sp.kind == Split::SplitVar) {
            inner.insert(sp.inner);
            if (inner.count(sp.old_var)) inner.insert(sp.outer);
        } else if (sp.kind == Split::RenameVar) {
            if (inner.count(sp.old_var)) inner.insert(sp.outer);
        } else if (inner.count(sp.inner) || inner.count(sp.outer)) {
            inner.insert(sp.old_var); // a fuse: old_var is the fused loop
        }
    }
    return inner.count(var) > 0;
}

void mark_touched(const Stage &stage) {
    stage.definition().schedule.touched = true;
    stage.function().touch();
}

} // namespace

Stage &Stage::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                    const Expr &factor, TailStrategy tail) {
    const std::string where = "In schedule for " + name() + ": ";
    if (old.is_rvar) {
        user_assert(outer.is_rvar && inner.is_rvar)
            << where << "can't split RVar " << old.name() << " into Vars; name the new loops "
            << "with RVars (RVar " << outer.name() << ", " << inner.name() << ").\n";
    } else {
        user_assert(!outer.is_rvar && !inner.is_rvar)
            << where << "can't split Var " << old.name() << " into RVars; name the new loops "
            << "with Vars.\n";
    }
    user_assert(factor.defined()) << where << "the split factor of " << old.name()
                                  << " is undefined.\n";
    user_assert(factor.type().is_int() || factor.type().is_uint())
        << where << "the split factor of " << old.name() << " must be an integer, not "
        << factor.type() << ".\n";
    if (const IntImm *k = factor.as<IntImm>()) {
        user_assert(k->value > 0) << where << "the split factor of " << old.name()
                                  << " must be positive, not " << k->value << ".\n";
    }

    StageSchedule &s = definition().schedule;
    size_t i = find_dim(*this, old.name(), "split");
    const Dim split_dim = s.dims[i];
    const bool is_update = stage > 0;
    if (split_dim.is_rvar()) {
        user_assert(tail != TailStrategy::RoundUp && tail != TailStrategy::ShiftInwards)
            << where << "can't split RVar " << old.name() << " with TailStrategy::"
            << (tail == TailStrategy::RoundUp ? "RoundUp" : "ShiftInwards")
            << ": it would run the reduction over points outside its domain. Use GuardWithIf "
            << "(or Auto).\n";
    }
    user_assert(!is_update || tail != TailStrategy::ShiftInwards)
        << where << "can't split " << old.name() << " with TailStrategy::ShiftInwards: an "
        << "update definition would be applied twice to some points. Use RoundUp, GuardWithIf "
        << "or Auto.\n";
    // A loop stemming from the inner loop of an earlier split has a fixed extent (the factor)
    // inside each outer iteration: rounding it up would overlap the next outer iteration
    // (Halide's rules: RoundUp is an error on updates and Auto is GuardWithIf there;
    // PredicateLoads, which may read past the end, is refused on any stage).
    if (stems_from_inner_split(s, split_dim.var)) {
        user_assert(!is_update || tail != TailStrategy::RoundUp)
            << where << "can't split " << old.name() << " with TailStrategy::RoundUp: it stems "
            << "from the inner loop of an earlier split, so rounding it up would apply the "
            << "update twice to some points. Use GuardWithIf (or Auto).\n";
        user_assert(tail != TailStrategy::PredicateLoads)
            << where << "can't split " << old.name() << " with TailStrategy::PredicateLoads: "
            << "it stems from the inner loop of an earlier split. Use Predicate or "
            << "GuardWithIf.\n";
        if (is_update && tail == TailStrategy::Auto && !split_dim.is_rvar()) {
            tail = TailStrategy::GuardWithIf;
        }
    }

    const std::string outer_name = split_dim.var + "." + outer.name();
    const std::string inner_name = split_dim.var + "." + inner.name();
    user_assert(outer_name != inner_name)
        << where << "the two loops made by splitting " << old.name() << " need different names, "
        << "but both are called " << outer.name() << ".\n";
    for (const Dim &d : s.dims) {
        user_assert(d.var != outer_name && d.var != inner_name)
            << where << "splitting " << old.name() << " would make a second loop named "
            << (d.var == outer_name ? outer_name : inner_name) << ". Pick another name.\n";
    }

    Split sp;
    sp.kind = Split::SplitVar;
    sp.old_var = split_dim.var;
    sp.outer = outer_name;
    sp.inner = inner_name;
    sp.factor = cast(Int(32), factor);
    sp.tail = tail;
    s.splits.push_back(sp);

    Dim inner_dim = split_dim, outer_dim = split_dim;
    inner_dim.var = inner_name;
    outer_dim.var = outer_name;
    s.dims[i] = inner_dim;
    s.dims.insert(s.dims.begin() + i + 1, outer_dim);
    mark_touched(*this);
    return *this;
}

namespace {

/// Refuses to parallelize or vectorize an RVar whose iterations may touch the same element
/// (their order would change the result). Checked before any split the directive makes, so a
/// refused directive leaves the schedule unchanged.
void check_for_type_legal(const Stage &stage, const VarOrRVar &var, ForType t) {
    const StageSchedule &s = stage.definition().schedule;
    const Dim &d = s.dims[find_dim(stage, var.name(), for_type_verb(t))];
    if ((t == ForType::Parallel || t == ForType::Vectorized) && d.kind == Dim::Kind::ImpureRVar) {
        user_assert(s.allow_race_conditions || s.atomic)
            << "In schedule for " << stage.name() << ": can't " << for_type_verb(t) << " RVar "
            << var.name() << " because different iterations of it may read or write the same "
            << "element of " << stage.function().name() << ", so running them "
            << (t == ForType::Parallel ? "in parallel" : "as a vector")
            << " could change the result. Use rfactor() to make a parallel reduction, or "
            << "atomic() if the update is associative.\n";
    }
}

/// Sets the ForType of the loop `var` names.
void set_for_type(Stage &stage, const VarOrRVar &var, ForType t) {
    check_for_type_legal(stage, var, t);
    stage.definition().schedule.dims[find_dim(stage, var.name(), for_type_verb(t))].for_type = t;
    mark_touched(stage);
}

/// Splits `var` by `factor` into (var, a new inner loop) and gives the loop `which` (the new
/// inner one, or the outer one keeping var's name) the ForType t.
void split_and_set(Stage &stage, const VarOrRVar &var, const Expr &factor, TailStrategy tail,
                   ForType t, bool inner) {
    check_for_type_legal(stage, var, t);
    VarOrRVar tmp = var.is_rvar ? VarOrRVar(RVar(unique_name('v'))) : VarOrRVar(Var());
    stage.split(var, var, tmp, factor, tail);
    set_for_type(stage, inner ? tmp : var, t);
}

} // namespace

Stage &Stage::vectorize(const VarOrRVar &var) {
    set_for_type(*this, var, ForType::Vectorized);
    return *this;
}

Stage &Stage::vectorize(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    check_constant_factor(*this, var, factor, "vector");
    split_and_set(*this, var, factor, tail, ForType::Vectorized, true);
    return *this;
}

Stage &Stage::parallel(const VarOrRVar &var) {
    set_for_type(*this, var, ForType::Parallel);
    return *this;
}

Stage &Stage::parallel(const VarOrRVar &var, const Expr &task_size, TailStrategy tail) {
    split_and_set(*this, var, task_size, tail, ForType::Parallel, false);
    return *this;
}

Stage &Stage::unroll(const VarOrRVar &var) {
    set_for_type(*this, var, ForType::Unrolled);
    return *this;
}

Stage &Stage::unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    check_constant_factor(*this, var, factor, "unroll");
    split_and_set(*this, var, factor, tail, ForType::Unrolled, true);
    return *this;
}

Stage &Stage::serial(const VarOrRVar &var) {
    set_for_type(*this, var, ForType::Serial);
    return *this;
}

namespace {

/// Whether stage is an update of the form f(args) = f(args) op g, op associative and
/// commutative for every Tuple element, reading f nowhere else.
bool commutative_reduction(Stage &stage) {
    if (stage.stage_index() == 0) return false;
    const Definition &def = stage.definition();
    AssociativeOp op = prove_associativity(stage.function().name(), def.args, def.values);
    if (!op.associative) return false;
    for (AssociativeOpKind k : op.kinds) {
        // Which of equal candidates an argmin/argmax keeps depends on the order.
        if (k == AssociativeOpKind::ArgMinIndex || k == AssociativeOpKind::ArgMaxIndex) {
            return false;
        }
    }
    return true;
}

} // namespace

Stage &Stage::reorder(const std::vector<VarOrRVar> &vars) {
    StageSchedule &s = definition().schedule;
    const std::string where = "In schedule for " + name() + ": ";
    // The positions the listed loops occupy, and the loops in the requested order (innermost
    // first).
    std::vector<size_t> positions;
    std::vector<Dim> wanted;
    for (const VarOrRVar &v : vars) {
        size_t i = find_dim(*this, v.name(), "reorder");
        for (size_t p : positions) {
            user_assert(p != i) << where << "reorder names the loop " << s.dims[i].var
                                << " twice.\n";
        }
        positions.push_back(i);
        wanted.push_back(s.dims[i]);
    }
    std::vector<size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    std::vector<Dim> dims = s.dims;
    for (size_t k = 0; k < sorted.size(); k++) dims[sorted[k]] = wanted[k];
    // Two RVars whose iterations depend on each other must keep their relative order. An
    // update f(args) = f(args) op g with op associative and commutative (a sum, a product, a
    // min or max, ...) and no other read of f may visit its reduction domain in any order, as
    // in Halide (a convolution's sum reordered input channel first).
    if (!s.allow_race_conditions && !s.atomic && !commutative_reduction(*this)) {
        for (size_t a = 0; a < s.dims.size(); a++) {
            for (size_t b = a + 1; b < s.dims.size(); b++) {
                const Dim &inner = s.dims[a], &outer = s.dims[b];
                if (inner.kind != Dim::Kind::ImpureRVar || outer.kind != Dim::Kind::ImpureRVar) {
                    continue;
                }
                size_t new_inner = 0, new_outer = 0;
                for (size_t k = 0; k < dims.size(); k++) {
                    if (dims[k].var == inner.var) new_inner = k;
                    if (dims[k].var == outer.var) new_outer = k;
                }
                user_assert(new_inner < new_outer)
                    << where << "can't reorder RVars " << inner.var << " and " << outer.var
                    << " because it may change the meaning of the algorithm: later iterations "
                    << "of the reduction may read what earlier ones wrote. Use rfactor() or "
                    << "atomic() if the update is associative.\n";
            }
        }
    }
    s.dims = dims;
    mark_touched(*this);
    return *this;
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                   const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor,
                   const Expr &yfactor, TailStrategy tail) {
    split(x, xo, xi, xfactor, tail);
    split(y, yo, yi, yfactor, tail);
    return reorder({xi, yi, xo, yo});
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                   const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    return tile(x, y, x, y, xi, yi, xfactor, yfactor, tail);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                   const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                   const std::vector<TailStrategy> &tails) {
    user_assert(previous.size() == outers.size() && previous.size() == inners.size() &&
                previous.size() == factors.size() && previous.size() == tails.size())
        << "In schedule for " << name() << ": tile needs as many outer loops, inner loops, "
        << "factors and tail strategies as loops to tile (" << previous.size() << "), not "
        << outers.size() << ", " << inners.size() << ", " << factors.size() << " and "
        << tails.size() << ".\n";
    for (size_t i = 0; i < previous.size(); i++) {
        split(previous[i], outers[i], inners[i], factors[i], tails[i]);
    }
    std::vector<VarOrRVar> order = inners;
    order.insert(order.end(), outers.begin(), outers.end());
    return reorder(order);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                   const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                   TailStrategy tail) {
    return tile(previous, outers, inners, factors,
                std::vector<TailStrategy>(previous.size(), tail));
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                   const std::vector<Expr> &factors, TailStrategy tail) {
    return tile(previous, previous, inners, factors, tail);
}

namespace {

/// Gives the loop `var` names the GPU loop type t on device_api.
void set_gpu_loop(Stage &stage, const VarOrRVar &var, ForType t, DeviceAPI device_api) {
    set_for_type(stage, var, t);
    stage.definition().schedule.dims[find_dim(stage, var.name(), for_type_verb(t))].device_api =
        device_api;
}

} // namespace

Stage &Stage::gpu_threads(const VarOrRVar &tx, DeviceAPI device_api) {
    set_gpu_loop(*this, tx, ForType::GPUThread, device_api);
    return *this;
}

Stage &Stage::gpu_threads(const VarOrRVar &tx, const VarOrRVar &ty, DeviceAPI device_api) {
    gpu_threads(tx, device_api);
    return gpu_threads(ty, device_api);
}

Stage &Stage::gpu_threads(const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                          DeviceAPI device_api) {
    gpu_threads(tx, ty, device_api);
    return gpu_threads(tz, device_api);
}

Stage &Stage::gpu_lanes(const VarOrRVar &tx, DeviceAPI device_api) {
    set_gpu_loop(*this, tx, ForType::GPULane, device_api);
    return *this;
}

Stage &Stage::gpu_single_thread(DeviceAPI device_api) {
    // One block of one thread: the loop every stage has outside its own, of extent 1.
    Dim &outermost = definition().schedule.dims.back();
    internal_assert(outermost.var == Var::outermost().name())
        << "Stage " << name() << " lacks its outermost loop\n";
    outermost.for_type = ForType::GPUBlock;
    outermost.device_api = device_api;
    mark_touched(*this);
    return *this;
}

Stage &Stage::gpu_blocks(const VarOrRVar &bx, DeviceAPI device_api) {
    set_gpu_loop(*this, bx, ForType::GPUBlock, device_api);
    return *this;
}

Stage &Stage::gpu_blocks(const VarOrRVar &bx, const VarOrRVar &by, DeviceAPI device_api) {
    gpu_blocks(bx, device_api);
    return gpu_blocks(by, device_api);
}

Stage &Stage::gpu_blocks(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                         DeviceAPI device_api) {
    gpu_blocks(bx, by, device_api);
    return gpu_blocks(bz, device_api);
}

Stage &Stage::gpu(const VarOrRVar &bx, const VarOrRVar &tx, DeviceAPI device_api) {
    gpu_blocks(bx, device_api);
    return gpu_threads(tx, device_api);
}

Stage &Stage::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &tx,
                  const VarOrRVar &ty, DeviceAPI device_api) {
    gpu_blocks(bx, by, device_api);
    return gpu_threads(tx, ty, device_api);
}

Stage &Stage::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                  const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                  DeviceAPI device_api) {
    gpu_blocks(bx, by, bz, device_api);
    return gpu_threads(tx, ty, tz, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                       const Expr &x_size, TailStrategy tail, DeviceAPI device_api) {
    split(x, bx, tx, x_size, tail);
    return gpu(bx, tx, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, x, tx, x_size, tail, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                       const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                       const Expr &x_size, const Expr &y_size, TailStrategy tail,
                       DeviceAPI device_api) {
    tile(x, y, bx, by, tx, ty, x_size, y_size, tail);
    return gpu(bx, by, tx, ty, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                       const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, x, y, tx, ty, x_size, y_size, tail, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                       const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                       const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                       const Expr &x_size, const Expr &y_size, const Expr &z_size,
                       TailStrategy tail, DeviceAPI device_api) {
    tile({x, y, z}, {bx, by, bz}, {tx, ty, tz}, {x_size, y_size, z_size}, tail);
    return gpu(bx, by, bz, tx, ty, tz, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                       const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                       const Expr &x_size, const Expr &y_size, const Expr &z_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, z, x, y, z, tx, ty, tz, x_size, y_size, z_size, tail, device_api);
}

Stage &Stage::hexagon(const VarOrRVar &x) {
    definition().schedule.dims[find_dim(*this, x.name(), "offload to Hexagon")].device_api =
        DeviceAPI::Hexagon;
    mark_touched(*this);
    return *this;
}

Stage &Stage::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    const std::string where = "In schedule for " + name() + ": ";
    user_assert(inner.is_rvar == outer.is_rvar && inner.is_rvar == fused.is_rvar)
        << where << "can't fuse " << inner.name() << " and " << outer.name() << " into "
        << fused.name() << ": fuse Vars into a Var, or RVars into an RVar.\n";
    StageSchedule &s = definition().schedule;
    size_t i = find_dim(*this, inner.name(), "fuse");
    size_t o = find_dim(*this, outer.name(), "fuse");
    user_assert(i != o) << where << "can't fuse the loop over " << s.dims[i].var
                        << " with itself.\n";
    if (o != i + 1) {
        // As Halide: the fused loop stands where `inner` was, so `outer` first moves directly
        // outside it (a reorder, refused where it would change a reduction's meaning).
        std::vector<VarOrRVar> loops;
        for (const Dim &d : s.dims) {
            if (&d != &s.dims[o]) loops.emplace_back(d.var, d.is_rvar());
            if (&d == &s.dims[i]) loops.emplace_back(s.dims[o].var, s.dims[o].is_rvar());
        }
        reorder(loops);
        i = find_dim(*this, inner.name(), "fuse");
        o = find_dim(*this, outer.name(), "fuse");
    }
    const std::string fused_name = s.dims[i].var + "." + fused.name();
    for (const Dim &d : s.dims) {
        user_assert(d.var != fused_name)
            << where << "fusing would make a second loop named " << fused_name << ".\n";
    }
    Split sp;
    sp.kind = Split::FuseVars;
    sp.old_var = fused_name;
    sp.inner = s.dims[i].var;
    sp.outer = s.dims[o].var;
    s.splits.push_back(sp);
    Dim d = s.dims[i];
    d.var = fused_name;
    if (s.dims[o].kind == Dim::Kind::ImpureRVar) d.kind = Dim::Kind::ImpureRVar;
    s.dims[i] = d;
    s.dims.erase(s.dims.begin() + o);
    mark_touched(*this);
    return *this;
}

Stage &Stage::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    const std::string where = "In schedule for " + name() + ": ";
    user_assert(old_name.is_rvar == new_name.is_rvar)
        << where << "can't rename " << old_name.name() << " to " << new_name.name()
        << ": a Var must stay a Var and an RVar an RVar.\n";
    StageSchedule &s = definition().schedule;
    size_t i = find_dim(*this, old_name.name(), "rename");
    const std::string &old_full = s.dims[i].var;
    size_t dot = old_full.rfind('.');
    // A split product keeps its qualification ("x.xi" renamed to "inner" is "x.inner").
    const std::string new_full =
        dot == std::string::npos ? new_name.name() : old_full.substr(0, dot + 1) + new_name.name();
    for (const Dim &d : s.dims) {
        user_assert(d.var != new_full) << where << "can't rename " << old_full << " to " << new_full
                                       << ": there is already a loop of that name.\n";
    }
    Split sp;
    sp.kind = Split::RenameVar;
    sp.old_var = old_full;
    sp.outer = new_full;
    s.splits.push_back(sp);
    s.dims[i].var = new_full;
    mark_touched(*this);
    return *this;
}

// ---- Func: the same directives on the pure definition ----

Func &Func::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                  const Expr &factor, TailStrategy tail) {
    Stage(function(), 0).split(old, outer, inner, factor, tail);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &var) {
    Stage(function(), 0).vectorize(var);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    Stage(function(), 0).vectorize(var, factor, tail);
    return *this;
}

Func &Func::parallel(const VarOrRVar &var) {
    Stage(function(), 0).parallel(var);
    return *this;
}

Func &Func::parallel(const VarOrRVar &var, const Expr &task_size, TailStrategy tail) {
    Stage(function(), 0).parallel(var, task_size, tail);
    return *this;
}

Func &Func::unroll(const VarOrRVar &var) {
    Stage(function(), 0).unroll(var);
    return *this;
}

Func &Func::unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    Stage(function(), 0).unroll(var, factor, tail);
    return *this;
}

Func &Func::serial(const VarOrRVar &var) {
    Stage(function(), 0).serial(var);
    return *this;
}

Func &Func::reorder(const std::vector<VarOrRVar> &vars) {
    Stage(function(), 0).reorder(vars);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                 const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
                 TailStrategy tail) {
    Stage(function(), 0).tile(x, y, xo, yo, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                 const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    Stage(function(), 0).tile(x, y, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    Stage(function(), 0).fuse(inner, outer, fused);
    return *this;
}

Func &Func::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    Stage(function(), 0).rename(old_name, new_name);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                 const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                 const std::vector<TailStrategy> &tails) {
    Stage(function(), 0).tile(previous, outers, inners, factors, tails);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                 const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                 TailStrategy tail) {
    Stage(function(), 0).tile(previous, outers, inners, factors, tail);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                 const std::vector<Expr> &factors, TailStrategy tail) {
    Stage(function(), 0).tile(previous, inners, factors, tail);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &tx, DeviceAPI d) {
    Stage(function(), 0).gpu_threads(tx, d);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &tx, const VarOrRVar &ty, DeviceAPI d) {
    Stage(function(), 0).gpu_threads(tx, ty, d);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                        DeviceAPI d) {
    Stage(function(), 0).gpu_threads(tx, ty, tz, d);
    return *this;
}

Func &Func::gpu_lanes(const VarOrRVar &tx, DeviceAPI d) {
    Stage(function(), 0).gpu_lanes(tx, d);
    return *this;
}

Func &Func::gpu_single_thread(DeviceAPI d) {
    Stage(function(), 0).gpu_single_thread(d);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &bx, DeviceAPI d) {
    Stage(function(), 0).gpu_blocks(bx, d);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &bx, const VarOrRVar &by, DeviceAPI d) {
    Stage(function(), 0).gpu_blocks(bx, by, d);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz, DeviceAPI d) {
    Stage(function(), 0).gpu_blocks(bx, by, bz, d);
    return *this;
}

Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &tx, DeviceAPI d) {
    Stage(function(), 0).gpu(bx, tx, d);
    return *this;
}

Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                DeviceAPI d) {
    Stage(function(), 0).gpu(bx, by, tx, ty, d);
    return *this;
}

Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx,
                const VarOrRVar &ty, const VarOrRVar &tz, DeviceAPI d) {
    Stage(function(), 0).gpu(bx, by, bz, tx, ty, tz, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                     const Expr &x_size, TailStrategy tail, DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, bx, tx, x_size, tail, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size, TailStrategy tail,
                     DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, tx, x_size, tail, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                     const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                     const Expr &x_size, const Expr &y_size, TailStrategy tail, DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, y, bx, by, tx, ty, x_size, y_size, tail, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                     const VarOrRVar &ty, const Expr &x_size, const Expr &y_size, TailStrategy tail,
                     DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, y, tx, ty, x_size, y_size, tail, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                     const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                     const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                     const Expr &x_size, const Expr &y_size, const Expr &z_size, TailStrategy tail,
                     DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, y, z, bx, by, bz, tx, ty, tz, x_size, y_size, z_size, tail, d);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                     const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                     const Expr &x_size, const Expr &y_size, const Expr &z_size, TailStrategy tail,
                     DeviceAPI d) {
    Stage(function(), 0).gpu_tile(x, y, z, tx, ty, tz, x_size, y_size, z_size, tail, d);
    return *this;
}

Func &Func::hexagon(const VarOrRVar &x) {
    Stage(function(), 0).hexagon(x);
    return *this;
}

} // namespace loom
