#ifndef LOOM_FUNC_H
#define LOOM_FUNC_H

/// \file Func, the user's handle to a function over an integer grid (Halide's Func), and the
/// objects its call syntax produces: FuncRef (`f(x, y)`), FuncTupleElementRef (`f(x, y)[i]`)
/// and Stage (one definition, for scheduling).
///
/// `f(x, y) = e` gives f its pure definition when every argument is a distinct Var and f has
/// none yet; any other assignment adds an update definition. `f(x, y)` used as a value is a
/// call. The internal state is a Function (src/lang/function.h).

#include <loom/argument.h>
#include <loom/buffer_fwd.h>
#include <loom/device_api.h>
#include <loom/expr.h>
#include <loom/extern.h>
#include <loom/intrusive_ptr.h>
#include <loom/jit_handlers.h>
#include <loom/memory_type.h>
#include <loom/module.h>
#include <loom/rdom.h>
#include <loom/realization.h>
#include <loom/schedule.h>
#include <loom/target.h>
#include <loom/tuple.h>
#include <loom/var.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loom {

class Callable;
class Func;
class FuncRef;
class FuncTupleElementRef;
class OutputImageParam;
class Pipeline;

namespace internal {
class Function;
struct Definition;
class Parameter;

/// True when every type in Args converts to T.
template <typename T, typename... Args>
struct all_convertible : std::true_type {};
template <typename T, typename First, typename... Rest>
struct all_convertible<T, First, Rest...>
    : std::integral_constant<bool, std::is_convertible<First, T>::value &&
                                       all_convertible<T, Rest...>::value> {};
} // namespace internal

/// The format of compile_to_lowered_stmt's output. Unscoped, as in Halide, so user code can
/// write HTML as well as StmtOutputFormat::HTML.
enum StmtOutputFormat { Text, HTML };

/// One definition of a Func: the pure definition (stage 0) or update definition i (stage
/// i + 1). Scheduling a stage's loops happens here (Tier 2); Func::update(i) returns one.
class Stage {
public:
    /// Stage `stage_index` of `f` (0 is the pure definition).
    Stage(const internal::Function &f, int stage_index);

    /// "f" for the pure definition, "f.update(i)" for update i.
    std::string name() const;
    /// The stage's loop variables, innermost first: "Vars: x y __outermost\n".
    std::string dump_argument_list() const;

    /// The Function it belongs to.
    internal::Function function() const;
    /// 0 for the pure definition, i + 1 for update i.
    int stage_index() const { return stage; }
    /// The definition itself (valid until the Function gets another update definition).
    internal::Definition &definition() const;

    // Loop scheduling (the loop names accept Halide's short forms: after a split of x into
    // x.xo and x.xi, "xi" names x.xi).

    /// Split the loop over `old` into an outer loop over `outer` and an inner loop over `inner`
    /// of `factor` iterations: old = outer * factor + inner + old.min. `tail` says what happens
    /// when factor does not divide the extent.
    Stage &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                 const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    /// Run the loop over `var` as SIMD vectors (its extent must be a constant).
    Stage &vectorize(const VarOrRVar &var);
    /// Split `var` by `factor` (a constant) and vectorize the inner loop.
    Stage &vectorize(const VarOrRVar &var, const Expr &factor,
                     TailStrategy tail = TailStrategy::Auto);
    /// Run the iterations of the loop over `var` as parallel tasks.
    Stage &parallel(const VarOrRVar &var);
    /// Split `var` into tasks of `task_size` iterations and run the tasks in parallel.
    Stage &parallel(const VarOrRVar &var, const Expr &task_size,
                    TailStrategy tail = TailStrategy::Auto);
    /// Unroll the loop over `var` completely (its extent must be a constant).
    Stage &unroll(const VarOrRVar &var);
    /// Split `var` by `factor` (a constant) and unroll the inner loop.
    Stage &unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    /// Run the loop over `var` serially (undoes vectorize/parallel/unroll).
    Stage &serial(const VarOrRVar &var);
    /// Set the loop partitioning policy of the loop over `var` (src/lang/partition_directives.cpp).
    Stage &partition(const VarOrRVar &var, Partition policy);
    /// Partition::Never for each loop in `vars`.
    Stage &never_partition(const std::vector<VarOrRVar> &vars);
    /// Partition::Always for each loop in `vars`.
    Stage &always_partition(const std::vector<VarOrRVar> &vars);
    /// Partition::Never for every loop of this stage.
    Stage &never_partition_all();
    /// Partition::Always for every loop of this stage.
    Stage &always_partition_all();
    /// Reorder the given loops among the places they occupy, innermost first (the others stay).
    Stage &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Args>
    typename std::enable_if<internal::all_convertible<VarOrRVar, Args...>::value, Stage &>::type
    reorder(const VarOrRVar &x, const VarOrRVar &y, Args &&...rest) {
        return reorder(std::vector<VarOrRVar>{x, y, std::forward<Args>(rest)...});
    }
    /// Split x and y and put the two inner loops innermost: a tile of xfactor by yfactor.
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
                TailStrategy tail = TailStrategy::Auto);
    /// tile keeping the names x and y for the outer loops.
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    /// Replace the loop over `inner` and the loop directly outside it over `outer` by one loop
    /// over `fused` covering both.
    Stage &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    /// Give the loop over `old_name` a new name.
    Stage &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    /// tile of any number of loops: split previous[i] into outers[i] and inners[i] by
    /// factors[i] (with tails[i]), then put the inner loops innermost, in order.
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                const std::vector<TailStrategy> &tails);
    /// tile of any number of loops with one tail strategy.
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                TailStrategy tail = TailStrategy::Auto);
    /// tile of any number of loops keeping the names of `previous` for the outer loops.
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);

    // Device placement (src/lang/loop_directives.cpp). Recorded as GPU loop types and device
    // APIs; Loom generates no GPU code yet, so lowering refuses them with Halide's message
    // unless the target has a matching device feature.

    /// Run the loop(s) as GPU threads of a block.
    Stage &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                       DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                       const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// Run the loop as the lanes of a GPU warp.
    Stage &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// Run the whole stage on the GPU in a single thread.
    Stage &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// Run the loop(s) as GPU blocks.
    Stage &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// gpu_blocks over the block loops and gpu_threads over the thread loops.
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x,
               DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
               const VarOrRVar &thread_y, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
               const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
               DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// Split x by x_size into blocks bx and threads tx (the tile's loops as GPU loops).
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                    const Expr &x_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                    TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                    const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                    const Expr &x_size, const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                    const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                    TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                    const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx,
                    const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size,
                    const Expr &y_size, const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                    const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size,
                    const Expr &y_size, const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /// Offload the loops from `x` inwards to a Hexagon DSP.
    Stage &hexagon(const VarOrRVar &x = Var::outermost());

    // Reductions (src/lang/rfactor.cpp, src/lang/atomic.cpp).

    /// Split this associative update into an intermediate Func (named "<f>_intm") computing
    /// partial results over the RVars not in `preserved`, indexed by the paired Vars, and
    /// make this update merge them over the preserved RVars. Returns the intermediate.
    Func rfactor(const std::vector<std::pair<RVar, Var>> &preserved);
    /// rfactor({{r, v}}).
    Func rfactor(const RVar &r, const Var &v);
    /// Let the RVar loops of this update be reordered, parallelized or vectorized whatever
    /// the dependences between iterations (the user promises the result is unaffected).
    Stage &allow_race_conditions();
    /// Make this update's stores atomic so its RVar loops may run in parallel. Refused unless
    /// the update is associative, or `override_associativity_test`.
    Stage &atomic(bool override_associativity_test = false);
    /// Prefetch, at each iteration of loop `at`, the region of `f` that iteration `offset`
    /// later of loop `from` reads (src/lang/prefetch.cpp).
    Stage &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    /// prefetch of an input buffer.
    Stage &prefetch(const internal::Parameter &param, const VarOrRVar &at, const VarOrRVar &from,
                    Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    /// prefetch of an ImageParam.
    Stage &prefetch(const OutputImageParam &image, const VarOrRVar &at, const VarOrRVar &from,
                    Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);

    // Specialization and fusion (src/lang/specialize.cpp, src/lower/compute_with.cpp).

    /// A copy of this stage's definition, with its own schedule (initially a copy of this
    /// stage's), used when `condition` holds; this stage's own schedule is the default. The
    /// condition is a bool of Params and buffer fields (no Vars or RVars), evaluated once,
    /// outside the stage's loops. Specializing twice on the same condition returns the same
    /// Stage.
    Stage specialize(const Expr &condition);
    /// When no earlier specialization's condition holds, fail at run time with `message`
    /// (through the error handler). At most one, and no specialize() after it.
    void specialize_fail(const std::string &message);
    /// Say that this stage is meant to have the default schedule (a CompileError if it has
    /// been scheduled already).
    void unscheduled();
    /// Fuse this stage's loop nest with that of stage `s` (computed at the same level) from the
    /// outermost loop down to `var`: this stage's iterations run right after s's in each
    /// iteration of the fused loops.
    Stage &compute_with(const Stage &s, const VarOrRVar &var,
                        LoopAlignStrategy align = LoopAlignStrategy::Auto);
    /// compute_with the loop `loop_level` names.
    Stage &compute_with(LoopLevel loop_level, LoopAlignStrategy align = LoopAlignStrategy::Auto);
    /// compute_with with a strategy per fused loop (loops not listed use Auto).
    Stage &compute_with(const Stage &s, const VarOrRVar &var,
                        const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Stage &compute_with(LoopLevel loop_level,
                        const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);

    /// The stage of a specialization: `path` lists the indices into the nested
    /// Definition::specializations (used by specialize()).
    Stage(const internal::Function &f, int stage_index, const std::vector<int> &path);

private:
    internal::IntrusivePtr<internal::RefCounted> func; ///< a FunctionContents
    int stage = 0;
    std::vector<int> spec_path; ///< see the constructor
};

/// The result of applying a Func to arguments: a definition site (`f(x, y) = ...`,
/// `f(x) += ...`) or, converted to Expr, a call.
class FuncRef {
public:
    /// A reference to `f` at `args`. `placeholder_pos` is where `_` appeared when f's
    /// dimensionality was not yet known (-1 otherwise); the implicit Vars a definition's
    /// right-hand side uses are inserted there.
    FuncRef(const internal::Function &f, const std::vector<Expr> &args, int placeholder_pos = -1,
            int implicit_count = 0);
    FuncRef(const internal::Function &f, const std::vector<Var> &args, int placeholder_pos = -1,
            int implicit_count = 0);
    FuncRef(const FuncRef &) = default;

    /// Define f at these arguments: the pure definition, or an update definition.
    Stage operator=(const Expr &e);
    /// Define a Tuple-valued f (`f(x) = {a, b}`).
    Stage operator=(const Tuple &e);
    /// Define f as (all the values of) another call.
    Stage operator=(const FuncRef &e);

    /// Update: f(args) = f(args) + e, with e cast to f's type. When f has no pure definition
    /// yet, first define it as 0 (of e's type) everywhere. The -= / *= / /= forms use 0, 1, 1.
    Stage operator+=(const Expr &e);
    Stage operator+=(const Tuple &e);
    Stage operator+=(const FuncRef &e);
    Stage operator-=(const Expr &e);
    Stage operator-=(const Tuple &e);
    Stage operator-=(const FuncRef &e);
    Stage operator*=(const Expr &e);
    Stage operator*=(const Tuple &e);
    Stage operator*=(const FuncRef &e);
    Stage operator/=(const Expr &e);
    Stage operator/=(const Tuple &e);
    Stage operator/=(const FuncRef &e);

    /// A call to f (only for single-valued Funcs; use operator[] on Tuple-valued ones).
    operator Expr() const;
    /// Element i of a call to a Tuple-valued Func.
    FuncTupleElementRef operator[](int i) const;
    /// The number of values f has.
    size_t size() const;

    /// The arguments, after `_` expansion.
    const std::vector<Expr> &arguments() const { return args; }
    /// The Function referred to.
    internal::Function function() const;

private:
    enum class UpdateOp { Add, Sub, Mul, Div };
    /// Shared body of the compound assignments.
    Stage update_with(UpdateOp op, const std::vector<Expr> &rhs, int identity);
    /// The arguments with the implicit Vars the values use inserted at the placeholder.
    std::vector<Expr> args_with_implicit_vars(const std::vector<Expr> &values) const;
    /// Define f(args) = values (pure or update) with args already expanded.
    Stage define(const std::vector<Expr> &expanded_args, const std::vector<Expr> &values);

    friend class FuncTupleElementRef;

    internal::IntrusivePtr<internal::RefCounted> func; ///< a FunctionContents
    std::vector<Expr> args;
    int implicit_placeholder_pos = -1;
    int implicit_count = 0;
};

/// select of two calls: an Expr (a call converts to both an Expr and a Tuple, so this overload
/// decides; select Tuple(f(x)) and Tuple(g(x)) for Tuple-valued Funcs).
Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value);
template <typename... Args>
Expr select(const Expr &c0, const FuncRef &v0, const Expr &c1, const FuncRef &v1, Args &&...rest) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(rest)...));
}
/// mux over calls, as Exprs.
Expr mux(const Expr &index, const std::initializer_list<FuncRef> &values);

/// One value of a call to a Tuple-valued Func, `f(x)[i]`: converts to the Expr reading that
/// element, and as a definition site updates only that element (the others are left as they
/// were).
class FuncTupleElementRef {
public:
    FuncTupleElementRef(const FuncRef &ref, int idx);

    /// Update element idx to `e`, leaving the other elements unchanged.
    Stage operator=(const Expr &e);
    Stage operator=(const FuncRef &e);
    /// Update element idx to itself combined with e (e is cast to the element's type).
    Stage operator+=(const Expr &e);
    Stage operator-=(const Expr &e);
    Stage operator*=(const Expr &e);
    Stage operator/=(const Expr &e);

    /// A call reading element idx.
    operator Expr() const;

    /// The FuncRef this element belongs to.
    const FuncRef &function_ref() const { return func_ref; }
    /// Which element.
    int index() const { return idx; }

private:
    /// Values for a Tuple update that sets element idx to e and leaves the others (undef).
    std::vector<Expr> values_with_undefs(const Expr &e) const;

    FuncRef func_ref;
    int idx;
};

/// A tag stored with a memoized Func's cache entries, so they can be evicted together
/// (Halide's EvictionKey; an undefined key means none).
class EvictionKey {
public:
    explicit EvictionKey(const Expr &expr = Expr()) : key(expr) {}
    /// The key expression (undefined for none).
    const Expr &expr() const { return key; }

private:
    Expr key;
};

/// A function over an infinite integer grid, defined by a pure definition and any number of
/// update definitions. Copies of a Func refer to the same function.
class Func {
public:
    /// An undefined Func with a unique name ("f<n>").
    Func();
    /// An undefined Func with the given name.
    explicit Func(const std::string &name);
    /// An undefined Func that must be defined with values of `required_type` over
    /// `required_dims` dimensions; it can be called before it is defined.
    Func(const Type &required_type, int required_dims, const std::string &name);
    Func(const std::vector<Type> &required_types, int required_dims, const std::string &name);
    /// f(_) = e: a Func whose value is `e` (dimensions come from the implicit Vars in e).
    explicit Func(const Expr &e);
    /// A handle to an existing Function.
    explicit Func(const internal::Function &f);
    /// A Func reading a Buffer: f(_0, _1, ...) = b(_0, _1, ...).
    template <typename T, int Dims>
    explicit Func(const Buffer<T, Dims> &b) : Func() {
        std::vector<Var> vars;
        std::vector<Expr> coords;
        for (int i = 0; i < b.dimensions(); i++) {
            vars.push_back(Var::implicit(i));
            coords.push_back(vars.back());
        }
        (*this)(vars) = b(coords);
    }

    /// A definition site or call with Var arguments (`_` expands to implicit Vars).
    template <typename... Args>
    typename std::enable_if<internal::all_convertible<Var, Args...>::value, FuncRef>::type
    operator()(Args &&...args) const {
        std::vector<Var> collected{Var(std::forward<Args>(args))...};
        return (*this)(collected);
    }
    FuncRef operator()(std::vector<Var> args) const;
    /// A call or update site with Expr arguments (Vars, RVars, ints, any Int(32) Expr).
    template <typename... Args>
    typename std::enable_if<internal::all_convertible<Expr, Args...>::value, FuncRef>::type
    operator()(const Expr &first, Args &&...rest) const {
        std::vector<Expr> collected{first, Expr(std::forward<Args>(rest))...};
        return (*this)(collected);
    }
    FuncRef operator()(std::vector<Expr> args) const;

    /// The Func's name.
    const std::string &name() const;
    /// Whether it has a pure definition.
    bool defined() const;
    /// The number of dimensions (the required number before it is defined, else 0).
    int dimensions() const;
    /// The pure definition's Vars.
    std::vector<Var> args() const;
    /// The type of its value (a CompileError for an undefined Func without a required type,
    /// and for Tuple-valued Funcs).
    const Type &type() const;
    /// The types of its values.
    const std::vector<Type> &types() const;
    /// The number of values (1 unless Tuple-valued).
    int outputs() const;
    /// The pure definition's value (a CompileError if undefined or Tuple-valued).
    Expr value() const;
    /// The pure definition's values.
    Tuple values() const;

    /// The number of update definitions.
    int num_update_definitions() const;
    bool has_update_definition() const { return num_update_definitions() > 0; }
    /// Update definition idx, for scheduling (a CompileError when there is none).
    Stage update(int idx = 0);
    /// The left-hand side, value(s) and RVars of update definition idx.
    const std::vector<Expr> &update_args(int idx = 0) const;
    Expr update_value(int idx = 0) const;
    Tuple update_values(int idx = 0) const;
    std::vector<RVar> rvars(int idx = 0) const;

    /// The pure definition as a Stage.
    operator Stage() const;

    /// Compute all of this Func before the pipeline's outputs, in its own buffer.
    Func &compute_root();
    /// Inline this Func into every use (the default for pure Funcs that are not outputs).
    Func &compute_inline();
    /// Compute this Func inside the loop over `var` of `f`, for the region that one iteration
    /// of that loop needs; its storage is allocated there too. When f has update definitions,
    /// every stage of f that calls this Func computes its own copy in its loop over `var`, as
    /// in Halide (LoopLevel(f, var, stage) names one stage).
    Func &compute_at(const Func &f, const Var &var);
    Func &compute_at(const Func &f, const RVar &var);
    /// compute_at a LoopLevel (root and inlined are compute_root and compute_inline).
    Func &compute_at(LoopLevel level);

    /// Tracing (src/lang/tracing_directives.cpp): report every load from / store to this Func,
    /// or each realization with its produce and consume phases, to halide_trace (printed in
    /// Halide's text format unless JITHandlers::custom_trace takes them).
    Func &trace_loads();
    Func &trace_stores();
    Func &trace_realizations();
    /// A string reported as a halide_trace_tag event for this Func at the start of every
    /// traced run, after the Func's func_type_and_dim tag (tags keep the order added).
    Func &add_trace_tag(const std::string &trace_tag);

    /// Storage placement (src/lang/storage_directives.cpp). Allocate this Func's storage at the
    /// root / inside the loop over `var` of `f` (a loop enclosing its compute level), so that
    /// values computed in one iteration of the loops in between are reused by the next
    /// (sliding window) and the storage may be folded into a circular buffer.
    Func &store_root();
    Func &store_at(const Func &f, const Var &var);
    Func &store_at(const Func &f, const RVar &var);
    Func &store_at(LoopLevel level);
    /// Hoist the allocation further out than the store level (its size is the maximum over the
    /// loops in between); the realization (and sliding/folding) still follows store_at.
    Func &hoist_storage(const Func &f, const Var &var);
    Func &hoist_storage(const Func &f, const RVar &var);
    Func &hoist_storage(LoopLevel level);
    Func &hoist_storage_root();
    /// Compute (and store) exactly [min, min + extent) of pure dimension `var`; consumers needing
    /// more fail a runtime check.
    Func &bound(const Var &var, Expr min, Expr extent);
    /// Compute exactly `extent` values of `var` starting wherever consumers need them.
    Func &bound_extent(const Var &var, Expr extent);
    /// The region of pure dimension `var` this Func (a pipeline output) is expected to be
    /// computed over: only autoschedulers read it (Pipeline::apply_autoscheduler); it constrains
    /// nothing at run time.
    Func &set_estimate(const Var &var, const Expr &min, const Expr &extent);
    /// set_estimate(args()[i], estimates[i].min, estimates[i].extent) for every dimension
    /// (estimates.size() must equal dimensions()).
    Func &set_estimates(const Region &estimates);
    /// Round the computed region of `var` outward: min to remainder mod modulus and extent to a
    /// multiple of modulus.
    Func &align_bounds(const Var &var, Expr modulus, Expr remainder = 0);
    /// Round the computed extent of `var` up to a multiple of modulus (min stays put).
    Func &align_extent(const Var &var, Expr modulus);
    /// Allocate exactly `bound` values of `var` (the computed region must fit).
    Func &bound_storage(const Var &var, Expr bound);
    /// Round the allocated extent of `var` up to a multiple of `alignment`.
    Func &align_storage(const Var &var, Expr alignment);
    /// Store dimension `var` in a circular buffer of `extent` values (index taken modulo it).
    Func &fold_storage(const Var &var, Expr extent, bool fold_forward = true);

    /// Memory directives (src/lang/memory_directives.cpp). Store the pure dimensions in the
    /// given order, innermost (stride 1) first; dimensions not listed keep their places. At
    /// least two Vars, each a pure dimension, none repeated.
    Func &reorder_storage(const std::vector<Var> &dims);
    Func &reorder_storage(const Var &x, const Var &y);
    template <typename... Args>
    typename std::enable_if<internal::all_convertible<Var, Args...>::value, Func &>::type
    reorder_storage(const Var &x, const Var &y, Args &&...rest) {
        return reorder_storage(std::vector<Var>{x, y, std::forward<Args>(rest)...});
    }
    /// Put this Func's storage in the given kind of memory (Auto, Heap, Stack or Register on
    /// CPUs; Stack and Register need a size with a constant upper bound).
    Func &store_in(MemoryType memory_type);

    /// The loop directives of the pure definition (see Stage for each).
    Func &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Func &vectorize(const VarOrRVar &var);
    Func &vectorize(const VarOrRVar &var, const Expr &factor,
                    TailStrategy tail = TailStrategy::Auto);
    Func &parallel(const VarOrRVar &var);
    Func &parallel(const VarOrRVar &var, const Expr &task_size,
                   TailStrategy tail = TailStrategy::Auto);
    Func &unroll(const VarOrRVar &var);
    Func &unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Func &serial(const VarOrRVar &var);
    Func &partition(const VarOrRVar &var, Partition policy);
    Func &never_partition(const std::vector<VarOrRVar> &vars);
    Func &always_partition(const std::vector<VarOrRVar> &vars);
    Func &never_partition_all();
    Func &always_partition_all();
    Func &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Args>
    typename std::enable_if<internal::all_convertible<VarOrRVar, Args...>::value, Func &>::type
    reorder(const VarOrRVar &x, const VarOrRVar &y, Args &&...rest) {
        return reorder(std::vector<VarOrRVar>{x, y, std::forward<Args>(rest)...});
    }
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
               const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
               const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    Func &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    Func &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
               const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
               const std::vector<TailStrategy> &tails);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
               const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
               const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);
    /// The device directives of the pure definition (see Stage for each).
    Func &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                      const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                     DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                     DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x,
              DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
              const VarOrRVar &thread_y, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
              const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
              DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &x_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                   const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty,
                   const Expr &x_size, const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                   const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx,
                   const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                   const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                   const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                   const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &hexagon(const VarOrRVar &x = Var::outermost());
    /// Make this Func, a pure copy of another Func or buffer (f(x, y) = g(x, y)), a copy of
    /// its input into memory of the given device. Host is copy_to_host().
    Func copy_to_device(DeviceAPI d = DeviceAPI::Default_GPU);
    /// Make this Func, a pure copy of another Func or buffer, a copy into host memory.
    Func copy_to_host();

    /// Stage::specialize / specialize_fail / unscheduled / compute_with on the pure definition.
    Stage specialize(const Expr &condition);
    void specialize_fail(const std::string &message);
    Func &unscheduled();
    Func &compute_with(const Stage &s, const VarOrRVar &var,
                       LoopAlignStrategy align = LoopAlignStrategy::Auto);
    Func &compute_with(LoopLevel loop_level, LoopAlignStrategy align = LoopAlignStrategy::Auto);
    Func &compute_with(const Stage &s, const VarOrRVar &var,
                       const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Func &compute_with(LoopLevel loop_level,
                       const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);

    /// A wrapper of this Func for `f`: the Func `<name>_in_<f>`, defined as this Func's value
    /// and replacing it in f's definitions (at lowering), so it can be scheduled separately.
    /// The same Func every time.
    Func in(const Func &f);
    /// One wrapper (`<name>_wrapper`) replacing this Func in all of `fs`.
    Func in(const std::vector<Func> &fs);
    /// A wrapper (`<name>_global_wrapper`) replacing this Func in every caller.
    Func in();
    /// A copy of this Func (definition and schedule as they are now), `<name>_clone_in_<f>`,
    /// replacing it in f's definitions: f gets its own computation of the values.
    Func clone_in(const Func &f);
    /// One clone replacing this Func in all of `fs`.
    Func clone_in(const std::vector<Func> &fs);

    /// Stage::allow_race_conditions on the pure definition.
    Func &allow_race_conditions();
    /// Stage::atomic on the pure definition.
    Func &atomic(bool override_associativity_test = false);
    /// Stage::prefetch on the pure definition.
    Func &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    Func &prefetch(const internal::Parameter &param, const VarOrRVar &at, const VarOrRVar &from,
                   Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    Func &prefetch(const OutputImageParam &image, const VarOrRVar &at, const VarOrRVar &from,
                   Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    /// Cache this Func's computed values across realizations, keyed by the region computed
    /// and the values of the parameters it depends on (src/lang/memoize.cpp). It must be
    /// computed at the root.
    Func &memoize(const EvictionKey &eviction_key = EvictionKey());

    /// Compute this Func in a task of its own, concurrently with its consumers, which wait
    /// (on semaphores) until what they read has been computed. Stored outside its compute level
    /// (store_at, sliding windows), the producer runs ahead of the consumer across the loops in
    /// between; with folded storage or a ring_buffer it waits in turn for the consumer to be done
    /// with what it would overwrite. Outputs and inlined Funcs have no production of their own:
    /// async() is ignored for them, as in Halide. See src/lower/async_producers.h.
    Func &async();
    /// Give the storage an extra dimension of `extent` copies, indexed by the iteration of the
    /// loops between the hoist_storage and the store level, so an async producer can compute
    /// the next `extent` iterations' values while the consumer reads older ones. Needs a
    /// hoist_storage level outside the store level; `extent` is a positive integer.
    Func &ring_buffer(Expr extent);

    /// Make this (undefined) Func an extern stage: its values over a region are computed by
    /// calling `int function_name(<params>, halide_buffer_t *out...)` (one output buffer per
    /// type), first in bounds-query mode to learn the region of each input it needs. Func
    /// params must not be inlined (compute_root them). GPU device APIs and C++ name mangling
    /// are a CompileError when compiled.
    void define_extern(const std::string &function_name,
                       const std::vector<ExternFuncArgument> &params, Type t, int dimensionality,
                       NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host);
    void define_extern(const std::string &function_name,
                       const std::vector<ExternFuncArgument> &params,
                       const std::vector<Type> &types, int dimensionality,
                       NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host);
    void define_extern(const std::string &function_name,
                       const std::vector<ExternFuncArgument> &params, Type t,
                       const std::vector<Var> &arguments,
                       NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host);
    void define_extern(const std::string &function_name,
                       const std::vector<ExternFuncArgument> &params,
                       const std::vector<Type> &types, const std::vector<Var> &arguments,
                       NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host);
    /// Whether define_extern made this an extern stage (function().extern_function_name() and
    /// function().extern_arguments() say what it calls, as in Halide).
    bool is_extern() const;
    /// The name of the C function an extern stage calls (empty for a Func that is not one).
    const std::string &extern_function_name() const;

    /// The run-time hooks of this Func's pipeline (see <loom/jit_handlers.h>).
    JITHandlers &jit_handlers();
    /// realize / infer_input_bounds with a JITUserContext passed to the compiled code and to
    /// the handlers (null: as without one).
    Realization realize(JITUserContext *context, std::vector<int32_t> sizes = {},
                        const Target &target = Target());
    void realize(JITUserContext *context, RealizationArg outputs, const Target &target = Target());
    void infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                            const Target &target = Target());
    void infer_input_bounds(JITUserContext *context, RealizationArg outputs,
                            const Target &target = Target());

    /// The internal Function.
    internal::Function function() const;

    // Realization and compilation (implemented in src/driver through this Func's Pipeline).

    /// Compute the Func over [0, sizes[i]) in each dimension into new Buffers.
    Realization realize(std::vector<int32_t> sizes = {}, const Target &target = Target());
    /// Compute the Func into existing buffers, over their whole shape.
    void realize(RealizationArg outputs, const Target &target = Target());
    /// Bind buffers of the required shape to every unbound ImageParam for outputs of `sizes`.
    void infer_input_bounds(const std::vector<int32_t> &sizes = {},
                            const Target &target = Target());
    void infer_input_bounds(RealizationArg outputs, const Target &target = Target());
    /// Lower and JIT-compile now (realize does it on demand).
    void compile_jit(const Target &target = Target());
    /// Pipeline(*this).compile_to_callable(args, target): see <loom/callable.h>.
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = Target());
    /// Print the loop nest the schedule describes to stderr (as Halide does).
    void print_loop_nest();
    /// The scalar and buffer inputs of the pipeline computing this Func.
    std::vector<Argument> infer_arguments() const;
    /// Write the lowered statement to `filename`.
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 StmtOutputFormat fmt = StmtOutputFormat::Text,
                                 const Target &target = Target());

    // Ahead-of-time compilation: each forwards to this Func's Pipeline (see <loom/pipeline.h>);
    // an empty fn_name means the Func's name (src/driver/func_aot.cpp).

    /// `<prefix>.a` (pipeline + runtime) and `<prefix>.h`, for C/C++ programs without libloom.
    void compile_to_static_library(const std::string &filename_prefix,
                                   const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    /// `<prefix>.o` and `<prefix>.h.`
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "",
                         const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "",
                           const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name,
                             const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name,
                                  const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name,
                            const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const Target &target = get_target_from_environment());
    /// One C99 translation unit carrying its runtime (docs/c_backend.md): Pipeline::compile_to_c.
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                      const std::string &fn_name = "",
                      const Target &target = get_target_from_environment());
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    void compile_to(const std::map<OutputFileType, std::string> &output_files,
                    const std::vector<Argument> &args, const std::string &fn_name,
                    const Target &target = get_target_from_environment());
    /// The output buffer (for constraints on the output's shape); Tuple-valued Funcs have
    /// one per element (output_buffers()).
    OutputImageParam output_buffer() const;
    std::vector<OutputImageParam> output_buffers() const;
    /// The Pipeline of this one Func (cached, so compiled code is reused).
    Pipeline pipeline();
    /// The cache behind pipeline() (a PipelineContents; the driver fills it).
    internal::IntrusivePtr<internal::RefCounted> &pipeline_cache() { return pipeline_; }

private:
    /// Expands `_`, checks the argument count; returns the FuncRef.
    template <typename T>
    FuncRef make_ref(std::vector<T> args) const;

    internal::IntrusivePtr<internal::RefCounted> func;      ///< a FunctionContents
    internal::IntrusivePtr<internal::RefCounted> pipeline_; ///< see pipeline_cache()
};

} // namespace loom

#endif
