// The differential schedule fuzzer: a random pipeline (fuzz_pipeline.h) under a random LEGAL
// schedule must give exactly the results of the same pipeline unscheduled. Floats are compared
// bit for bit too: Loom emits no fast-math flags and no directive used here reassociates
// arithmetic (only rfactor/atomic float sums would, and the generator does not use them).
// Header-only because every tests/fuzz/*.cpp is its own test binary.
#ifndef LOOM_TESTS_FUZZ_SCHEDULE_FUZZER_H
#define LOOM_TESTS_FUZZ_SCHEDULE_FUZZER_H

#include "fuzz/fuzz_pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <set>

namespace loom_fuzz {

/// Switches for the scheduling directives the generator may use (all on by default).
struct ScheduleFeatures {
    bool compute_root = true;
    bool compute_at = true;
    bool inline_funcs = true;
    bool split = true;
    bool tile = true;
    bool reorder = true;
    bool fuse = true;
    bool rename = true;
    bool vectorize = true;
    bool unroll = true;
    bool parallel = true;
    bool serial = true;
    bool update_schedules = true; ///< loop directives on update stages
    bool round_up = true;
    bool shift_inwards = true;
    bool predicate_tails = true; ///< Predicate, PredicateLoads, PredicateStores
    bool blend_tails = true;     ///< RoundUpAndBlend, ShiftInwardsAndBlend on updates
    bool async = true;           ///< Func::async on Funcs computed at the root or at a loop
};

/// One loop of a stage, as the schedule generator tracks it.
struct LoopInfo {
    std::string name;
    bool rvar = false;
    RVar rvar_obj; ///< for the RDom's own RVars (Halide matches them by object)
    bool original_rvar = false;
    int64_t extent = -1;       ///< the extent when known at generation time (outputs), or -1
    int64_t const_extent = -1; ///< the extent when it is a constant in the code, or -1
    bool vectorized = false, parallel = false, unrolled = false;
    bool named = true; ///< false for loops made by parallel(v, task_size) (no short name)
    /// Stems from the inner loop of a split (Halide refuses RoundUp on such a loop of an update,
    /// and PredicateLoads on any).
    bool from_inner = false;
    std::set<std::string> family; ///< the original loops this one stems from
};

/// Makes a random legal schedule for a generated pipeline, applying it and writing it as text.
class ScheduleGenerator {
public:
    ScheduleGenerator(uint32_t seed, const ScheduleFeatures &feat, FuzzPipeline &p)
        : rng(seed * 2654435761u + 12345u), feat(feat), p(p) {}

    /// Applies the schedule; returns its text.
    std::string apply();
    /// The schedule's text so far.
    std::string text() const { return out.str(); }

private:
    std::mt19937 rng;
    ScheduleFeatures feat;
    FuzzPipeline &p;
    std::ostringstream out;
    int counter = 0;
    /// LOOM_FUZZ_MASK, one character per directive in the order they are generated: those
    /// marked '0' are not applied (and commented out in the text), so a failing case can be
    /// minimized by bisection without changing the rest of the schedule.
    const char *mask = getenv("LOOM_FUZZ_MASK");
    int directives = 0;
    /// Whether to apply the next directive.
    bool next_directive() {
        int k = directives++;
        bool on = !mask || k >= (int)strlen(mask) || mask[k] != '0';
        if (!on) out << "// dropped: ";
        return on;
    }

    struct Placement {
        enum Kind { Inline, Root, At } kind = Root;
        int func = -1, stage = 0;
        std::string var;
    };
    std::vector<Placement> place;
    std::vector<std::vector<std::vector<LoopInfo>>> loops; ///< [func][stage], innermost first
    std::vector<bool> reachable;

    int rand_int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin(double q = 0.5) { return std::uniform_real_distribution<double>(0, 1)(rng) < q; }

    static const char *tail_name(TailStrategy t) {
        switch (t) {
        case TailStrategy::RoundUp:
            return "RoundUp";
        case TailStrategy::GuardWithIf:
            return "GuardWithIf";
        case TailStrategy::Predicate:
            return "Predicate";
        case TailStrategy::PredicateLoads:
            return "PredicateLoads";
        case TailStrategy::PredicateStores:
            return "PredicateStores";
        case TailStrategy::ShiftInwards:
            return "ShiftInwards";
        case TailStrategy::ShiftInwardsAndBlend:
            return "ShiftInwardsAndBlend";
        case TailStrategy::RoundUpAndBlend:
            return "RoundUpAndBlend";
        default:
            return "Auto";
        }
    }
    std::string base_name(const std::string &n) {
        std::string b;
        for (char ch : n) {
            if (ch != '.') b += ch;
        }
        return b;
    }
    VarOrRVar vr(const LoopInfo &l) const {
        if (l.original_rvar) return VarOrRVar(l.rvar_obj);
        return l.rvar ? VarOrRVar(RVar(l.name)) : VarOrRVar(Var(l.name));
    }
    std::string vr_text(const LoopInfo &l) const {
        return l.rvar ? "RVar(\"" + l.name + "\")" : "Var(\"" + l.name + "\")";
    }

    /// A tail strategy legal for splitting `l` by `factor` in stage `s` of Func `fi`.
    /// Blend tails are kept off loops whose family has (or may get) a parallel loop: Halide
    /// rejects them there (a race).
    TailStrategy pick_tail(int fi, int s, const LoopInfo &l, int factor, bool vector,
                           bool allow_blend = true);
    std::set<std::string> blend_families; ///< of the stage being scheduled
    void schedule_stage(int fi, int s);
    void choose_placement(int fi);
    /// The loops enclosing the body of stage s of Func g, outermost first, as (func, stage, i).
    std::vector<std::tuple<int, int, int>> enclosing(int g, int s);
    std::vector<Use> effective_uses(int fi);
};

/// The result of one fuzz case.
struct CaseResult {
    bool ok = true;
    std::string report; ///< on failure: seed, pipeline, schedule, the first difference
};

/// Seeds 2k and 2k + 1 schedule the same random pipeline, algorithm k, in two ways (its
/// unscheduled reference is compiled once for both).
inline uint32_t algorithm_of(uint32_t seed) { return seed / 2; }

/// The JIT target of algorithm `alg`, in turn: the host, AVX2, and SSE4.1 without asserts
/// (each where the host has it): other instruction selections, and cheaper compiles.
inline Target target_of(uint32_t alg);

/// Builds, schedules and runs case `seed`; compares against the unscheduled pipeline.
CaseResult run_case(uint32_t seed, const AlgorithmFeatures &af = {},
                    const ScheduleFeatures &sf = {});

} // namespace loom_fuzz

#include "fuzz/schedule_fuzzer_impl.h"

#endif
