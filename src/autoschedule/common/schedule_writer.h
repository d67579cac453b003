#ifndef LOOM_AUTOSCHEDULE_COMMON_SCHEDULE_WRITER_H
#define LOOM_AUTOSCHEDULE_COMMON_SCHEDULE_WRITER_H

/// \file ScheduleWriter: how every autoscheduler schedules. Each directive is applied through the
/// public scheduling API (Func / Stage, so it gets the same checks as a hand-written one) and
/// recorded as C++, so the printed schedule source is exactly what was applied. The source finds
/// Funcs by name through Pipeline::get_func (whose index order differs between Loom and Halide,
/// which wraps inputs and boundary conditions in more Funcs), takes the RVars of a definition
/// from Func::rvars (Loom names them "r.x", Halide "r$x") and declares every other Var by name;
/// consecutive directives on one stage form one chain; an rfactor is a statement declaring the
/// intermediate's handle; a pure Func placed before the reset and not placed again is inlined
/// explicitly (autodiff computes some adjoints at the root). Example (two Funcs, the consumer
/// tiled, the producer computed per tile):
///   {
///       auto func_named = [&](const std::string &name) { ...pipeline.get_func(i)... };
///       Func blur_x = func_named("blur_x");
///       Func blur_y = func_named("blur_y");
///       Var x("x"), x_i("x_i"), x_o("x_o"), y("y");
///       blur_y
///           .split(x, x_o, x_i, 64, TailStrategy::GuardWithIf)
///           .vectorize(x_i)
///           .compute_root();
///       blur_x
///           .compute_at(blur_y, x_o);
///   }
/// Tests: tests/autoschedule/roundtrip.cpp (the printed source pasted back, under Loom and Halide).

#include "lang/function.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

class ScheduleWriter {
public:
    /// `order`: the order Func handles are declared in (producers first).
    ScheduleWriter(const std::map<std::string, Function> &env,
                   const std::vector<std::string> &order);

    /// Resets f's placement and every stage's loops to the defaults of an unscheduled Func.
    void reset(const std::string &f);

    // Stage directives; `stage` is 0 for the pure definition, k for update k - 1.
    void split(const std::string &f, int stage, const std::string &old, const std::string &outer,
               const std::string &inner, int64_t factor, TailStrategy tail = TailStrategy::Auto);
    /// `vars` innermost first, as Stage::reorder.
    void reorder(const std::string &f, int stage, const std::vector<std::string> &vars);
    void vectorize(const std::string &f, int stage, const std::string &var);
    void parallel(const std::string &f, int stage, const std::string &var);
    void unroll(const std::string &f, int stage, const std::string &var);
    /// Fuses `inner` and `outer` into `fused`, which takes inner's place (Stage::fuse).
    void fuse(const std::string &f, int stage, const std::string &inner, const std::string &outer,
              const std::string &fused);
    /// Makes the update's stores atomic (Stage::atomic), so its RVar loops may run in parallel.
    void atomic(const std::string &f, int stage);
    /// Stage::rfactor on update `stage` of f: each (RVar, Var) pair names an RVar loop kept in
    /// f's merge and the intermediate's pure Var it becomes. Returns the intermediate Func's
    /// name; it is scheduled through this writer like any Func (the source declares its handle
    /// from the rfactor call).
    std::string rfactor(const std::string &f, int stage,
                        const std::vector<std::pair<std::string, std::string>> &preserved);

    // Func directives.
    void compute_root(const std::string &f);
    void compute_at(const std::string &f, const std::string &at, const std::string &var);

    /// Whether `var` names an RVar (or a split of one) in stage `stage` of f.
    bool is_rvar(const std::string &f, int stage, const std::string &var) const;
    /// The stage's loops innermost first, by their short names (x, x_o, r$x, ...).
    const std::vector<std::string> &loops(const std::string &f, int stage) const;

    /// The schedule as C++ (see the file comment), after `header` (comment lines).
    std::string source(const std::string &header) const;

private:
    struct Directive {
        std::string func; ///< "" for a statement of its own (`text` is then the whole line)
        int stage;
        std::string text; ///< ".split(x, x_o, x_i, 64)" with identifiers resolved at print time
    };
    std::string stage_key(const std::string &f, int stage) const;
    /// Records the loops of every stage of f and where its RVars come from.
    void add_func(const Function &f);
    /// Sets loops_ and rvars_ of stage s of f from its definition's loops.
    void record_loops(const Function &f, int s);
    /// Names used as identifiers in the source, mapped to unique C++ identifiers.
    std::string ident(const std::string &name) const;
    void use_var(const std::string &name, bool rvar);

    std::map<std::string, Function> env_;
    std::map<std::string, size_t> func_index_;
    /// The RVars of the definitions: where Func::rvars finds each (Func, update, position).
    struct RVarOrigin {
        std::string func;
        int update, index;
    };
    std::map<std::string, RVarOrigin> rvar_origins_;
    std::vector<Directive> directives_;
    /// Per stage key: the loops innermost first and which of them are RVars.
    std::map<std::string, std::vector<std::string>> loops_;
    std::map<std::string, std::set<std::string>> rvars_;
    /// Every Var / RVar the source mentions.
    std::map<std::string, bool> vars_used_;
    std::vector<std::string> funcs_used_;
    /// Funcs made by rfactor: their handles come from the rfactor statement.
    std::set<std::string> created_;
    /// Pure Funcs that had a placement before reset and have none now: the source inlines them.
    std::set<std::string> placed_before_;
    mutable std::map<std::string, std::string> idents_;
    mutable std::set<std::string> taken_idents_;
};

} // namespace internal
} // namespace loom

#endif
