#include "lower/lower.h"

#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "lower/add_image_checks.h"
#include "lower/alias_bound_lets.h"
#include "lower/allocate_scratchpads.h"
#include "lower/async_producers.h"
#include "lower/bound_small_allocations.h"
#include "lower/bounds_inference.h"
#include "lower/check_device_apis.h"
#include "lower/extern_stages.h"
#include "lower/find_intrinsics.h"
#include "lower/infer_alignment.h"
#include "lower/infer_arguments.h"
#include "lower/inject_early_frees.h"
#include "lower/inject_prefetch.h"
#include "lower/inject_profiling.h"
#include "lower/inject_tracing.h"
#include "lower/loop_invariant_code_motion.h"
#include "lower/lower_parallel_tasks.h"
#include "lower/mark_clamped_ramps.h"
#include "lower/memoization.h"
#include "lower/offload_gpu_loops.h"
#include "lower/optimize_loads_stores.h"
#include "lower/partition_loops.h"
#include "lower/remove_dead_allocations.h"
#include "lower/rewrite_interleavings.h"
#include "lower/schedule_functions.h"
#include "lower/skip_stages.h"
#include "lower/sliding_window.h"
#include "lower/storage_flattening.h"
#include "lower/storage_folding.h"
#include "lower/strictify_float.h"
#include "lower/trim_no_ops.h"
#include "lower/unpack_buffers.h"
#include "lower/unroll_loops.h"
#include "lower/vectorize_loops.h"
#include "simplify/cse.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <chrono>
#include <iostream>
#include <set>

namespace loom {
namespace internal {

namespace {

/// Runs passes, logging the IR after each one that changed it (LOOM_DEBUG_LOWERING=1) and
/// the time each took (LOOM_TIME_PASSES=1).
class PassRunner {
public:
    explicit PassRunner(const std::string &fn)
        : fn(fn), debug(get_env("LOOM_DEBUG_LOWERING") == "1"),
          timing(get_env("LOOM_TIME_PASSES") == "1") {}

    template <typename F>
    Stmt operator()(const char *pass, const Stmt &before, F &&f) {
        auto start = std::chrono::steady_clock::now();
        Stmt after = f();
        if (timing) {
            double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            std::cerr << "[lower " << fn << "] " << pass << ": " << ms << " ms\n";
        }
        if (debug && !after.same_as(before)) {
            std::cerr << "[lower " << fn << "] after " << pass << ":\n" << after << "\n";
        }
        return after;
    }

private:
    std::string fn;
    bool debug, timing;
};

/// Variables used in s that nothing defines: a bug in a pass (or a lowering case not
/// supported yet), reported before code generation gives a less readable error.
void check_no_free_variables(const Stmt &s, const std::vector<LoweredArgument> &args,
                             const std::set<std::string> &functions) {
    class Check : public IRVisitor {
    public:
        std::set<std::string> defined;
        std::string free;

    protected:
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            if (free.empty() && !defined.count(op->name)) free = op->name;
        }
        void visit(const Let *op) override {
            dispatch(op->value);
            bool fresh = defined.insert(op->name).second;
            dispatch(op->body);
            if (fresh) defined.erase(op->name);
        }
        void visit(const LetStmt *op) override {
            dispatch(op->value);
            bool fresh = defined.insert(op->name).second;
            dispatch(op->body);
            if (fresh) defined.erase(op->name);
        }
        void visit(const For *op) override {
            dispatch(op->min);
            dispatch(op->extent);
            bool fresh = defined.insert(op->name).second;
            dispatch(op->body);
            if (fresh) defined.erase(op->name);
        }
        void visit(const Allocate *op) override {
            // The allocation's name is its host pointer (extern stages pass it in buffers).
            for (const Expr &e : op->extents) dispatch(e);
            dispatch(op->condition);
            bool fresh = defined.insert(op->name).second;
            dispatch(op->body);
            if (fresh) defined.erase(op->name);
        }
    } check;
    for (const LoweredArgument &a : args) {
        check.defined.insert(a.is_buffer() ? a.name + ".buffer" : a.name);
    }
    check.defined.insert(functions.begin(), functions.end());
    check.dispatch(s);
    internal_assert(check.free.empty())
        << "Lowering left the variable " << check.free << " undefined in:\n"
        << s << "\n";
}

/// `undef` may only be a whole value of an update definition.
void check_undef(const Stmt &s) {
    visit_exprs(s, [](const Expr &e) {
        if (const Call *c = e.as<Call>()) {
            user_assert(!c->is_intrinsic(Call::undef))
                << "undef() may only be used as a whole value of an update definition "
                   "(meaning: leave that element unchanged), or as a branch of a select that "
                   "is a whole value (leave it unchanged where that branch is taken), not "
                   "inside another expression.\n";
        }
        return true;
    });
}

/// The front half (lower_loop_nest).
Stmt lower_loop_nest(const CallGraph &graph, PassRunner &run) {
    // realize/produce/consume blocks with each stage's loops and Provides; inlined Funcs are
    // substituted into their callers here (inline.h, random() lowered). Bounds are still free
    // variables ("f.s0.x.min", "f.x.min_realized").
    Stmt s = run("schedule_functions", Stmt(), [&] { return schedule_functions(graph); });
    // Every bound is defined by LetStmts around each realize, from what consumers need; an
    // index read from a Func is bounded by the values the Func's definition can take.
    return run("bounds_inference", s, [&] { return bounds_inference(s, graph); });
}

} // namespace

Stmt lower_loop_nest(const CallGraph &graph) {
    PassRunner run("loop_nest");
    return lower_loop_nest(graph, run);
}

LoweredFunc lower(const std::vector<Function> &user_outputs, const std::string &fn_name,
                  const Target &target, const std::vector<Requirement> &requirements) {
    // The function graph: the outputs with calls replaced by their wrappers, every Func
    // reachable from them, the order to realize them (producers first; recursion is a
    // CompileError), where each is computed (the user's schedule plus the defaults), the
    // compute_with groups (checked) and the values of pure Funcs.
    const CallGraph graph = build_call_graph(user_outputs);
    const std::vector<Function> &outputs = graph.outputs;
    const std::map<std::string, Function> &env = graph.env;
    const FuncValueBounds &func_bounds = graph.value_bounds;
    PassRunner run(fn_name);

    // GPU loops and device copies need a device the target enables (and a back end for it).
    check_device_apis(env, target);

    Stmt s = lower_loop_nest(graph, run);
    // A Func stored outside a serial loop and computed inside it computes only new values.
    s = run("sliding_window", s, [&] { return sliding_window(s, env); });
    // halide_trace calls for traced Funcs and inputs (Func::trace_*, Target::Trace*).
    s = run("inject_tracing", s, [&] {
        return inject_tracing(s, trace_pipeline_name(fn_name, outputs), outputs, env, graph.order,
                              target);
    });
    // Extern stages: `produce f` becomes the call to f's C function; the bounds queries that
    // define the regions of f's inputs are kept aside for add_extern_bounds_queries.
    ExternBoundsQueries extern_queries;
    s = run("lower_extern_stages", s,
            [&] { return lower_extern_stages(s, outputs, env, &extern_queries); });
    s = run("simplify", s, [&] { return simplify(s); });
    // Bound lets that are another of their Func's lets plus a constant say so, so blocks of
    // constant size get constant extents and indices.
    s = run("alias_bound_lets", s, [&] { return simplify(alias_bound_lets(s)); });
    // Circular buffers for Funcs whose live region along a serial loop is small.
    s = run("storage_folding", s, [&] { return storage_folding(s, env); });
    s = run("inject_memoization", s, [&] { return inject_memoization(s, outputs, env); });
    // Producers whose consumers use them only under a condition run only under it.
    s = run("skip_stages", s, [&] { return skip_stages(s, graph); });
    // Ring buffers get their extra dimension; async Funcs are forked from their consumers,
    // which wait on semaphores (turned into tasks by lower_parallel_tasks).
    s = run("async_producers", s, [&] { return async_producers(s, graph); });

    // The arguments: inputs in Halide's order (buffers, then scalars, by name), then outputs.
    std::vector<Expr> extra;
    for (const Requirement &r : requirements) {
        extra.push_back(r.condition);
        extra.insert(extra.end(), r.error_args.begin(), r.error_args.end());
    }
    std::vector<LoweredArgument> args = infer_input_arguments(outputs, env, extra, s);
    for (const LoweredArgument &a : output_arguments(outputs)) args.push_back(a);

    // Entry checks on every argument and the bounds-query protocol; each buffer's required
    // region is let-bound as "<b>.min.<d>.required" / "<b>.extent.<d>.required".
    ImageCheckOptions options;
    options.asserts = !target.has_feature(Target::NoAsserts);
    options.bounds_query = !target.has_feature(Target::NoBoundsQuery);
    options.device_support = target.has_gpu_feature();
    s = run("add_image_checks", s,
            [&] { return add_image_checks(s, args, outputs, requirements, options, func_bounds); });
    // The extern stages' bounds queries, right after the checks on the raw buffer handles
    // (the required regions above are in terms of their results).
    s = run("add_extern_bounds_queries", s,
            [&] { return add_extern_bounds_queries(s, extern_queries); });

    // Flat storage: Allocate/Store/Load replace Realize/Provide/calls.
    s = run("inject_prefetch", s, [&] { return inject_prefetch(s, env); });
    s = run("storage_flattening", s, [&] { return storage_flattening(s, outputs, env); });
    s = run("check_undef", s, [&] {
        check_undef(s);
        return s;
    });
    s = run("simplify", s, [&] { return simplify(s); });

    // Unrolled loops become copies of their body; Vectorized loops become vector code (the
    // GuardWithIf tails predicated, with a likely() all-lanes test partition_loops lifts out).
    s = run("unroll_loops", s, [&] { return unroll_loops(s); });
    s = run("vectorize_loops", s, [&] {
        VectorizeResult v = vectorize_loops(s, target);
        for (const ScalarLoop &l : v.scalar_loops) user_warning << l.message() << "\n";
        return v.stmt;
    });
    s = run("simplify", s, [&] { return simplify(s); });

    // Loops over boundary conditions (likely() clamps and selects) split into prologue, steady
    // state without the clamps, and epilogue. After flattening: loop bounds are final and each
    // clamp is a plain min/max in a flat index; before unpack_buffers, so the steady bounds
    // are in terms of the buffer fields like the rest of the body.
    // Clamped ramps in vector indices (hand-written boundary conditions) are tagged likely()
    // too, so their loops get a steady state of dense loads instead of gathers; vectors of
    // x / k and x % k are split into their phases first, where those clamps are of ramps.
    s = run("deinterleave_vector_phases", s, [&] { return deinterleave_vector_phases(s); });
    s = run("mark_clamped_ramps", s, [&] { return mark_clamped_ramps(s); });
    s = run("partition_loops", s, [&] { return partition_loops(s); });

    // Clean-up: allocations nobody reads go (with their stores), then loops that do nothing
    // go and loops guarded by an if on their variable shrink to where it holds; small buffers
    // of bounded size go on the stack (allocated once per function or parallel task); last,
    // repeated subexpressions are computed once.
    s = run("remove_dead_allocations", s, [&] { return remove_dead_allocations(s); });
    s = run("trim_no_ops", s, [&] { return trim_no_ops(s); });
    // Buffers stored in user-declared scratchpads get fixed offsets in static blocks (after the
    // clean-up, so dead buffers take no room; before anything moves allocations).
    s = run("allocate_scratchpads", s,
            [&] { return allocate_scratchpads(s, fn_name, size_assumptions(args, outputs)); });
    // Image-processing idioms (saturating, averaging, absd, multiply-high) become intrinsics
    // that codegen maps to SIMD instructions.
    s = run("find_intrinsics", s, [&] { return find_intrinsics(s); });
    // Strided stores that together write a dense range (chunky RGB output) become one store of
    // an interleaving shuffle, strided loads that together read one (2x downsampling) slices of
    // one dense load; then the alignment of vector accesses, seen through lets (before CSE adds
    // more).
    s = run("rewrite_interleavings", s, [&] { return rewrite_interleavings(s); });
    s = run("infer_alignment", s, [&] { return infer_alignment(s); });
    s = run("loop_invariant_code_motion", s, [&] { return loop_invariant_code_motion(s); });
    // After LICM grouped indices by loop level; before its Register buffers are checked, and CSE.
    s = run("optimize_loads_stores", s, [&] { return optimize_loads_stores(s); });
    s = run("bound_small_allocations", s, [&] { return bound_small_allocations(s); });
    // Heap buffers end right after their last use (a root stage's buffer, after its last
    // consumer), not at the end of everything computed after them.
    s = run("inject_early_frees", s, [&] { return inject_early_frees(s); });
    s = run("common_subexpression_elimination", s,
            [&] { return common_subexpression_elimination(s); });
    // Target::Profile / ProfileByTimer: the calls that tell the profiler which Func each run
    // computes, its threads and its heap memory, around the computation (not the entry checks).
    // After every pass that moves allocations and frees; before the tasks capture the instance.
    if (target.has_feature(Target::Profile) || target.has_feature(Target::ProfileByTimer)) {
        s = run("inject_profiling", s, [&] {
            return inject_profiling(s, trace_pipeline_name(fn_name, outputs),
                                    target.has_feature(Target::ProfileByTimer));
        });
    }

    // The buffer fields the body uses, read once at entry. Last: every let it adds is used,
    // and the host pointer "b" is used only as a Load/Store name, which the simplifier does
    // not count as a use of the let.
    s = run("unpack_buffers", s, [&] { return unpack_buffers(s, args); });
    // Target::StrictFloat: every float operation is emitted without fast-math flags.
    if (target.has_feature(Target::StrictFloat)) {
        s = run("strictify_float", s, [&] { return strictify_float(s); });
    }

    // Each nest of GPU loops becomes a kernel launched from the host, with the copies between
    // host and device memory its buffers need (the runtime copies only what is stale).
    GpuOffload gpu;
    s = run("offload_gpu_loops", s, [&] {
        gpu = offload_gpu_loops(s, fn_name, args, target);
        return gpu.body;
    });

    // Each parallel loop's body becomes a task function with an explicit closure, launched by
    // halide_do_par_for, and each fork two tasks launched by loom_do_fork: back ends generate
    // functions, never parallel loops or forks.
    ParallelTasks tasks;
    s = run("lower_parallel_tasks", s, [&] {
        tasks = lower_parallel_tasks(s, fn_name);
        return tasks.body;
    });

    LoweredFunc result;
    result.name = fn_name;
    result.args.push_back(user_context_argument());
    result.args.insert(result.args.end(), args.begin(), args.end());
    result.body = s;
    result.functions = tasks.tasks;
    result.kernels = gpu.kernels;
    run("check_no_free_variables", s, [&] {
        std::set<std::string> functions;
        for (const LoweredFunc &f : result.functions) functions.insert(f.name);
        check_no_free_variables(result.body, result.args, functions);
        for (const LoweredFunc &f : result.functions) {
            check_no_free_variables(f.body, f.args, functions);
        }
        return s;
    });
    return result;
}

} // namespace internal
} // namespace loom
