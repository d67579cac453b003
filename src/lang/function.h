#ifndef LOOM_LANG_FUNCTION_H
#define LOOM_LANG_FUNCTION_H

/// \file Function: the internal object behind a Func. It holds the algorithm (one pure
/// Definition and any number of update Definitions) and the schedule (FuncSchedule for where
/// the function is computed and stored, a StageSchedule per definition for its loops).
/// Scheduling calls only record decisions here; lowering reads them (DESIGN.md §2).

#include <loom/extern.h>
#include <loom/schedule.h>

#include "ir/ir.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

struct FunctionContents;

/// Where in the loop nest something happens: inlined, at the root, or inside the loop over
/// `var` of stage `stage_index` of the function `func`.
struct LoopLevelSpec {
    enum Kind { Inlined, Root, At } kind = Inlined;
    std::string func;     ///< for At
    std::string var;      ///< for At: the loop variable's name (a Var, RVar or split product)
    int stage_index = -1; ///< for At: -1 means the last stage of `func`
    bool is_inlined() const { return kind == Inlined; }
    bool is_root() const { return kind == Root; }
    static LoopLevelSpec inlined() { return {}; }
    static LoopLevelSpec root() { return {Root, "", "", -1}; }
};

/// One loop transformation, applied in order: split old into outer*factor+inner, rename old to
/// outer, or fuse inner and outer into old (for FuseVars `old_var` is the fused name).
struct Split {
    enum Kind { SplitVar, RenameVar, FuseVars } kind = SplitVar;
    std::string old_var, outer, inner;
    Expr factor;
    bool exact = false; ///< the split must not round up (update definitions over RVars)
    TailStrategy tail = TailStrategy::Auto;
};

/// One loop of a stage, innermost first in StageSchedule::dims.
struct Dim {
    enum class Kind : uint8_t { PureVar, PureRVar, ImpureRVar };
    std::string var;
    ForType for_type = ForType::Serial;
    DeviceAPI device_api = DeviceAPI::None;
    Kind kind = Kind::PureVar;
    /// Loop partitioning preference (Halide's Partition): Auto, Never, Always.
    enum class Partition : uint8_t { Auto, Never, Always } partition = Partition::Auto;
    bool is_rvar() const { return kind != Kind::PureVar; }
};

/// A Stage::prefetch directive: at each iteration of loop `at`, prefetch the region of `name`
/// (a Func, or an input buffer when `param` is defined) that the iteration `offset` later of
/// loop `from` reads. Loop names are the stage's full loop names.
struct PrefetchDirective {
    std::string name, at, from;
    Expr offset;
    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf;
    Parameter param;
};

/// The loop schedule of one definition. `dims` lists the loops innermost first and always ends
/// with the implicit outermost loop Var::outermost() (named "__outermost").
struct StageSchedule {
    std::vector<ReductionVariable> rvars;
    std::vector<Split> splits;
    std::vector<Dim> dims;
    bool touched = false; ///< the user scheduled this stage explicitly
    bool allow_race_conditions = false;
    bool atomic = false;
    bool override_atomic_associativity_test = false;
    std::vector<PrefetchDirective> prefetches;
    /// compute_with: this stage shares the loops of stage `fuse_level.stage_index` of
    /// `fuse_level.func` (-1: its last stage) from the outermost down to `fuse_level.var`, and
    /// runs after it in each shared iteration. Inlined when not fused. Checked by
    /// src/lang/fusion.cpp, lowered by src/lower/compute_with.cpp.
    LoopLevelSpec fuse_level;
    /// How each fused loop lines up with the parent's (by this stage's loop name); loops not
    /// listed use `fuse_align_default`.
    std::map<std::string, LoopAlignStrategy> fuse_align;
    LoopAlignStrategy fuse_align_default = LoopAlignStrategy::Auto;
    /// Set by fuse_pipelines (loom/pipeline_fusion.h): the fused loops are this stage's as many
    /// outermost loops as the parent's from `fuse_level.var` out, whatever their names
    /// (compute_with shares loops by name).
    bool fuse_by_position = false;
};

/// A user bound on a pure dimension: var in [min, min + extent), or storage alignment.
struct Bound {
    std::string var;
    Expr min, extent, modulus, remainder;
};

/// Storage order and alignment of one dimension, outermost last.
struct StorageDim {
    std::string var;
    Expr alignment, bound, fold_factor;
    bool fold_forward = true;
};

/// Where and how a function is computed and stored.
struct FuncSchedule {
    LoopLevelSpec compute_level = LoopLevelSpec::inlined();
    LoopLevelSpec store_level = LoopLevelSpec::inlined();
    LoopLevelSpec hoist_storage_level = LoopLevelSpec::inlined();
    /// store_at/store_root was called: compute_* then leave store_level alone (otherwise the
    /// store level follows the compute level, as Halide's lock_loop_levels does).
    bool store_level_set = false;
    std::vector<Bound> bounds;
    /// Func::set_estimate: the region autoschedulers assume (min and extent), per pure var.
    std::vector<Bound> estimates;
    std::vector<StorageDim> storage_dims;
    MemoryType memory_type = MemoryType::Auto;
    /// Func::copy_to_device / copy_to_host: this Func, a pure copy of one input, is a copy into
    /// that device's memory (None: not a copy). Host copies are plain copies on CPUs; lowering
    /// refuses the others while Loom has no device back end (check_device_apis).
    DeviceAPI device_copy = DeviceAPI::None;
    bool memoized = false;
    /// memoize(EvictionKey): stored with the cache entries (undefined when none).
    Expr memoize_eviction_key;
    /// Func::async: produced in a task of its own, concurrently with its consumers.
    bool async = false;
    /// Func::ring_buffer: the number of copies of the storage (undefined when none).
    Expr ring_buffer;
    /// The user called compute_root/compute_at/... (as opposed to Loom's default choice).
    bool touched = false;
    /// Func::in / clone_in: the wrapper (a FunctionContents) that replaces calls to this Func
    /// from the Func named by the key; the key "" holds the wrapper for every caller (in()).
    /// See src/lang/wrappers.cpp.
    std::map<std::string, IntrusivePtr<RefCounted>> wrappers;
};

struct Specialization;

/// One definition (pure or update): `name(args) = values` where `predicate` holds.
struct Definition {
    std::vector<Expr> args;   ///< Variables for the pure definition; any Exprs for updates
    std::vector<Expr> values; ///< one per Tuple element
    ReductionDomain rdom;     ///< the RDom its RVars come from (undefined if none)
    Expr predicate;           ///< the RDom's where() conditions, true when none
    StageSchedule schedule;
    /// Stage::specialize: copies of this definition, each with its own schedule, used where
    /// their condition holds (tried in order; this definition is the default). See
    /// src/lang/specialize.cpp.
    std::vector<Specialization> specializations;
    bool defined() const { return !values.empty(); }
};

/// A specialized copy of a definition (Stage::specialize), or, with a failure message, the
/// specialize_fail() branch taken when no earlier condition holds.
struct Specialization {
    Expr condition;
    Definition definition; ///< unused for specialize_fail
    std::string failure_message;
};

/// What a Func's own definitions hold in place of a Call's `func` when they call the Func
/// itself (an update like f(x) = f(x) + 1). A strong pointer there would make the
/// FunctionContents own itself and never be freed; this stub points back without owning.
/// Function(call->func) resolves it, so code that reads Call::func through Function sees no
/// difference. The target is cleared when the function dies.
struct WeakFunctionRef : RefCounted {
    FunctionContents *target = nullptr;
};

/// The extern definition of a Func (Func::define_extern); `function_name` is empty when there
/// is none. An extern Func also gets a placeholder pure definition (see extern_stages.h), so
/// the rest of the compiler sees an ordinary Func until lowering replaces its computation.
struct ExternDefinition {
    std::string function_name;
    std::vector<ExternFuncArgument> args;
    NameMangling mangling = NameMangling::Default;
    DeviceAPI device_api = DeviceAPI::Host;
    bool defined() const { return !function_name.empty(); }
};

struct FunctionContents : RefCounted {
    ~FunctionContents() override;
    std::string name;
    std::vector<std::string> args;  ///< names of the pure dimensions, outermost last
    std::vector<Type> output_types; ///< one per Tuple element
    Definition init_def;
    std::vector<Definition> updates;
    FuncSchedule schedule;
    /// Incremented by every change to the algorithm or schedule, so compiled code knows when
    /// it is stale.
    uint64_t version = 0;
    /// Types and dimensionality the definition must have (Func(Type, dims, name)); empty and
    /// -1 when unconstrained. A Func with required types can be called before it is defined.
    std::vector<Type> required_types;
    int required_dims = -1;
    /// The WeakFunctionRef self-calls in this function's definitions hold (made on demand).
    IntrusivePtr<WeakFunctionRef> weak_self;
    /// Set by define_extern.
    ExternDefinition extern_def;
    /// Tracing (Func::trace_loads/trace_stores/trace_realizations/add_trace_tag; lowered by
    /// src/lower/inject_tracing.cpp).
    bool trace_loads = false, trace_stores = false, trace_realizations = false;
    std::vector<std::string> trace_tags;
};

/// A handle to a FunctionContents. Copies alias the same function.
class Function {
public:
    Function() = default;
    explicit Function(const std::string &name);
    /// From the `func` field of a Call to a Func (a FunctionContents, or the WeakFunctionRef
    /// of a self-call).
    explicit Function(const IntrusivePtr<RefCounted> &p);

    bool defined() const { return contents.defined(); }
    bool has_pure_definition() const { return defined() && contents->init_def.defined(); }
    /// Whether define_extern made this an extern stage (it then has a placeholder pure
    /// definition too).
    bool has_extern_definition() const { return defined() && contents->extern_def.defined(); }
    const ExternDefinition &extern_definition() const { return contents->extern_def; }
    /// Halide's names for the extern definition's parts.
    const std::string &extern_function_name() const { return contents->extern_def.function_name; }
    const std::vector<ExternFuncArgument> &extern_arguments() const {
        return contents->extern_def.args;
    }
    const std::string &name() const { return contents->name; }
    const std::vector<std::string> &args() const { return contents->args; }
    int dimensions() const { return (int)contents->args.size(); }
    const std::vector<Type> &output_types() const { return contents->output_types; }
    int outputs() const { return (int)contents->output_types.size(); }
    Definition &definition() { return contents->init_def; }
    const Definition &definition() const { return contents->init_def; }
    std::vector<Definition> &updates() { return contents->updates; }
    const std::vector<Definition> &updates() const { return contents->updates; }
    FuncSchedule &schedule() { return contents->schedule; }
    const FuncSchedule &schedule() const { return contents->schedule; }
    bool same_as(const Function &o) const { return contents.same_as(o.contents); }
    /// The handle stored in Call::func.
    IntrusivePtr<RefCounted> get_contents() const { return contents; }
    /// The types / dimensionality required by Func(Type, dims, name) (empty / -1 if none).
    const std::vector<Type> &required_types() const { return contents->required_types; }
    int required_dimensions() const { return contents->required_dims; }
    /// The types of the values a call returns: output_types() once defined, else the
    /// required types.
    const std::vector<Type> &call_types() const {
        return has_pure_definition() ? output_types() : required_types();
    }

    /// Record the pure definition. Checks (CompileError naming the Func): args are distinct
    /// Vars, no RVars in values, not already defined.
    void define(const std::vector<std::string> &args, const std::vector<Expr> &values);
    /// Record an update definition. Checks: pure definition exists, arity and value types
    /// match it, pure Vars appear only where Halide allows them.
    void define_update(const std::vector<Expr> &args, const std::vector<Expr> &values);

    /// A Call to this function (value `index` of its Tuple).
    Expr make_call(const std::vector<Expr> &args, int index = 0) const;

    /// Notes a change to the algorithm or schedule.
    void touch() { contents->version++; }
    uint64_t version() const { return contents->version; }

    IntrusivePtr<FunctionContents> contents;
};

/// The default loop list of a definition, innermost first: the RVars of `rdom` in domain order
/// (Halide's default: a reduction's RVars are its innermost loops), then the pure Vars among
/// `args` (bare Variables that are neither RVars nor Params) in argument order, then
/// "__outermost". Used for new definitions and by lowering.
std::vector<Dim> default_dims(const std::vector<Expr> &args, const ReductionDomain &rdom);
/// default_dims of update definition `d` of Func `func`, with each RVar whose iterations never
/// touch the same element marked PureRVar (free to reorder or run in parallel).
std::vector<Dim> default_update_dims(const Definition &d, const std::string &func);

/// The index in `def`'s schedule dims of the loop a schedule names `name`: the loop of that exact
/// name, else a split product whose last component is `name` (Halide's short names: "xi" names
/// "x.xi"), never an original Var or RVar ("x" does not name the RVar "r.x"). -1 when none.
int find_loop(const Function &f, const Definition &def, const std::string &name);
/// The loops of a definition, outermost first, for error messages ("y, x.xo, x.xi").
std::string loop_list(const Definition &def);

/// The definition of stage `stage` of f: 0 is the pure definition, k > 0 update k - 1.
const Definition &stage_definition(const Function &f, int stage);
/// 1 + the number of update definitions.
int num_stages(const Function &f);

/// Every Function reachable from `outputs` through calls, by name (DESIGN.md §2: the pipeline's
/// environment). With `include_wrappers`, also the wrappers (Func::in, ImageParam::in) of the
/// Functions and inputs reached, so a change to their schedule is noticed; lowering uses
/// substitute_wrappers (lang/wrappers.h) instead.
std::map<std::string, Function> find_transitive_calls(const std::vector<Function> &outputs,
                                                      bool include_wrappers = true);

} // namespace internal
} // namespace loom

#endif
