// The algorithm half of the differential schedule fuzzer: a random pipeline built from a seed
// over Loom's public API, with a C++-like transcript of every definition so a failing case can
// be pasted into a regression test. Header-only because every tests/fuzz/*.cpp is a test binary.
#ifndef LOOM_TESTS_FUZZ_FUZZ_PIPELINE_H
#define LOOM_TESTS_FUZZ_FUZZ_PIPELINE_H

#include <loom/loom.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace loom_fuzz {

using namespace loom;

/// Switches for the kinds of stages the generator may emit (all on by default); turning one off
/// bisects a failure to a feature.
struct AlgorithmFeatures {
    bool stencils = true;
    bool resampling = true;   ///< downsample / upsample by 2
    bool lookups = true;      ///< LUT Funcs indexed by a clamped data value
    bool histograms = true;   ///< RDom over a producer with a data-dependent update
    bool scans = true;        ///< f(r) = f(r - 1) + ...
    bool tuples = true;       ///< Tuple-valued Funcs, pure and with an argmax-style update
    bool conv_updates = true; ///< g(x, y) += p(x + r.x, y + r.y)
    bool two_outputs = true;  ///< a Pipeline with a second output
    bool three_dims = true;   ///< pipelines over (x, y, c)
    bool float_types = true;  ///< float32 Funcs
};

/// One use of a Func by a stage of another.
struct Use {
    int func;  ///< the calling Func
    int stage; ///< its stage (0: pure definition)
};

/// What the schedule generator needs to know about one generated Func.
struct FuncInfo {
    Func f;
    std::string name;
    int dims = 2;
    std::vector<Type> types;                   ///< one per Tuple element
    std::vector<std::vector<RVar>> rvars;      ///< per update stage, innermost first
    std::vector<std::vector<int>> update_pure; ///< per update: indices of pure Vars on the loop
    std::vector<Use> uses;                     ///< stages that call this Func directly
    bool is_output = false;
    bool writes_fixed_region = false; ///< an update writes an RDom's region (not an output)
    int64_t mag = 0; ///< bound on |value| of every element (for int32 overflow avoidance)
    int num_updates() const { return (int)rvars.size(); }
};

/// A generated pipeline: the input, the Funcs in definition order (producers first) and the
/// outputs with their realization shape.
struct FuzzPipeline {
    Buffer<void> input;
    std::vector<FuncInfo> funcs;
    std::vector<int> outputs;
    std::vector<int> sizes, mins; ///< of every output
    std::string text;             ///< the C++-like transcript of the algorithm
};

/// An Expr with its text and a bound on its magnitude.
struct GE {
    Expr e;
    std::string s;
    int64_t mag = 0;
};

/// The random pipeline generator. Deterministic in the seed and the features.
class PipelineGenerator {
public:
    PipelineGenerator(uint32_t seed, const AlgorithmFeatures &feat, const std::string &prefix)
        : rng(seed), feat(feat), prefix(prefix) {}

    std::mt19937 rng;

    int rand_int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
    template <typename T>
    const T &pick(const std::vector<T> &v) {
        return v[rand_int(0, (int)v.size() - 1)];
    }

    FuzzPipeline generate();

private:
    AlgorithmFeatures feat;
    std::string prefix;
    FuzzPipeline p;
    int dims = 2;
    std::vector<Var> vars;
    std::ostringstream out;
    int forbid = -1; ///< a Func pick_producer must not return (an output, for the second one)

    static std::string type_name(const Type &t) {
        if (t.is_float()) return "float";
        if (t.is_uint()) return "uint8_t";
        return t.bits() == 16 ? "int16_t" : "int32_t";
    }
    static int64_t type_mag(const Type &t) {
        if (t.is_uint()) return 255;
        if (t.bits() == 16) return 32768;
        return int64_t(1) << 40; // unknown int32 / float: must be tracked
    }
    Type random_type() {
        int k = rand_int(0, feat.float_types ? 3 : 2);
        return k == 0 ? UInt(8) : k == 1 ? Int(16) : k == 2 ? Int(32) : Float(32);
    }
    std::string new_name() { return prefix + "f" + std::to_string(p.funcs.size()); }
    std::string var_list(const std::vector<std::string> &coords) const {
        std::string s;
        for (size_t i = 0; i < coords.size(); i++) s += (i ? ", " : "") + coords[i];
        return s;
    }
    std::vector<std::string> var_names() const {
        std::vector<std::string> v;
        for (const Var &x : vars) v.push_back(x.name());
        return v;
    }

    /// A constant of type t.
    GE constant(const Type &t, int v) {
        GE g;
        g.e = cast(t, Expr(v));
        g.s = t == Int(32) ? std::to_string(v)
                           : "cast<" + type_name(t) + ">(" + std::to_string(v) + ")";
        g.mag = std::abs(v);
        return g;
    }
    /// A call of Func `fi` (element `elem` for Tuples) at `args`, recorded as a use by stage
    /// `stage` of the Func being defined.
    GE call(int fi, const std::vector<Expr> &args, const std::vector<std::string> &arg_text,
            int stage, int elem = -1) {
        FuncInfo &info = p.funcs[fi];
        bool seen = false;
        for (const Use &u : info.uses) seen |= u.func == (int)p.funcs.size() && u.stage == stage;
        if (!seen) info.uses.push_back({(int)p.funcs.size(), stage});
        GE g;
        FuncRef ref = info.f(args);
        std::string s = info.name + "(" + var_list(arg_text) + ")";
        if (info.types.size() > 1) {
            if (elem < 0) elem = rand_int(0, (int)info.types.size() - 1);
            g.e = ref[elem];
            g.s = s + "[" + std::to_string(elem) + "]";
        } else {
            g.e = ref;
            g.s = s;
        }
        g.mag = info.mag;
        return g;
    }
    /// Converts a to type t without undefined behaviour (floats are clamped into range first).
    GE convert(const GE &a, const Type &t) {
        if (a.e.type() == t) return a;
        GE g;
        Type at = a.e.type();
        if (at.is_float() && !t.is_float()) {
            int lo = t.is_uint() ? 0 : -1000, hi = t.is_uint() ? 255 : 1000;
            g.e = cast(t, clamp(a.e, (float)lo, (float)hi));
            g.s = "cast<" + type_name(t) + ">(clamp(" + a.s + ", " + std::to_string(lo) + ".f, " +
                  std::to_string(hi) + ".f))";
            g.mag = std::max(std::abs(lo), hi);
            return g;
        }
        g.e = cast(t, a.e);
        g.s = "cast<" + type_name(t) + ">(" + a.s + ")";
        g.mag = t.is_float() || t == Int(32) ? a.mag : std::min(a.mag, type_mag(t));
        if (t.is_uint() && at.is_int()) g.mag = 255;
        if (t.bits() == 16 && !t.is_float()) g.mag = 32768;
        return g;
    }
    /// Brings an int32 or float value back under 2^15 in magnitude when it has grown.
    GE bound(const GE &a) {
        Type t = a.e.type();
        if (!(t == Int(32) || t.is_float()) || a.mag <= (1 << 15)) return a;
        GE g;
        int k = rand_int(0, 2);
        if (t.is_float()) {
            g.e = clamp(a.e, -30000.f, 30000.f);
            g.s = "clamp(" + a.s + ", -30000.f, 30000.f)";
            g.mag = 30000;
        } else if (k == 0) {
            g.e = a.e & 0x7fff;
            g.s = "(" + a.s + " & 0x7fff)";
            g.mag = 0x7fff;
        } else if (k == 1) {
            g.e = a.e % 30011;
            g.s = "(" + a.s + " % 30011)";
            g.mag = 30011;
        } else {
            g.e = clamp(a.e, -30000, 30000);
            g.s = "clamp(" + a.s + ", -30000, 30000)";
            g.mag = 30000;
        }
        return g;
    }
    GE binop(const GE &a, const GE &b);
    GE expr_tree(const std::vector<GE> &leaves, const Type &t, int depth);
    GE leaf_call(int fi, const std::vector<int> &offsets, int stage);
    int pick_producer();

    void define_input();
    void add_func(const std::string &name, const Func &f, int dims, std::vector<Type> types,
                  int64_t mag) {
        FuncInfo info;
        info.f = f;
        info.name = name;
        info.dims = dims;
        info.types = std::move(types);
        info.mag = mag;
        p.funcs.push_back(info);
    }
    void stage_pointwise();
    void stage_stencil();
    void stage_resample();
    void stage_lookup();
    void stage_histogram();
    void stage_scan();
    void stage_tuple();
    void stage_conv_update();
};

} // namespace loom_fuzz

#include "fuzz/fuzz_pipeline_impl.h"

#endif
