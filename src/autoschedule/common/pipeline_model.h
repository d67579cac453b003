#ifndef LOOM_AUTOSCHEDULE_COMMON_PIPELINE_MODEL_H
#define LOOM_AUTOSCHEDULE_COMMON_PIPELINE_MODEL_H

/// \file What every autoscheduler knows about a pipeline at its estimated sizes (Mullapudi et
/// al. 2016, §4.1 "Function preprocessing"): the function graph, the concrete region of every
/// Func and input the whole pipeline computes or reads, and for each stage its loops, the
/// arithmetic cost of one point, the loads one point makes and the box of each callee it reads,
/// kept symbolic in the stage's loop bounds so a tile's regions cost one evaluation.
///
/// Estimates come from Func::set_estimate on the outputs (required), Param::set_estimate, and
/// ImageParam::set_estimates for inputs whose size bounds inference cannot derive (a
/// data-dependent read); missing ones are CompileErrors naming what to add.
/// Example: out(x) = f(x - 1) + f(x + 1), f(x) = in(x) * 2, out estimated over [0, 100):
///   region f = [-1, 100], region in = [-1, 100];
///   stage out.0: arith 3 (x - 1, x + 1 and the sum), loads {f: 2}, reads f over
///   [x.min - 1, x.max + 1].
/// Tests: tests/unit/autoschedule/pipeline_model_test.cpp.

#include "analysis/bounds.h"
#include "lang/call_graph.h"

#include <loom/target.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A concrete inclusive interval [min, max]; empty when max < min.
struct Span {
    int64_t min = 0, max = -1;
    int64_t extent() const { return max >= min ? max - min + 1 : 0; }
    bool empty() const { return max < min; }
};
/// One Span per dimension.
using ConcreteBox = std::vector<Span>;

/// The number of points in b (0 when any dimension is empty).
int64_t box_points(const ConcreteBox &b);
/// The per-dimension union (an empty ConcreteBox is the identity).
ConcreteBox box_hull(const ConcreteBox &a, const ConcreteBox &b);

/// What one stage (definition) of a Func reads and costs per point.
struct StageModel {
    std::string func;
    int stage = 0;
    /// The pure Vars the stage loops over and the dimension of the Func each one indexes.
    std::vector<std::string> pure_vars;
    std::vector<int> pure_dims;
    /// The RVars, with their estimated ranges.
    std::vector<std::string> rvars;
    std::vector<Span> rvar_spans;
    /// Operations per point (unit cost for most, more for divisions and transcendentals).
    double arith = 0;
    /// Loads per point, by callee (Funcs and input buffers; a Func's self-reads excluded).
    std::map<std::string, double> loads;
    /// The box of each callee read, as Exprs of the Variables "<v>.min" and "<v>.max" of the
    /// stage's pure Vars (RVars, Params and input sizes already replaced by estimates).
    std::map<std::string, Box> reads;
    /// Points computed when the Func is computed over `region`: the pure Vars' extents there
    /// times the RVars' extents.
    int64_t points(const ConcreteBox &region) const;
};

/// The pipeline at its estimated sizes (see the file comment).
class PipelineModel {
public:
    PipelineModel(const std::vector<Function> &outputs, const Target &target);

    CallGraph graph;
    Target target;
    /// Stages of each Func (extern Funcs have none: they are opaque).
    std::map<std::string, std::vector<StageModel>> stages;
    /// The region of each Func the pipeline computes, and of each input buffer it reads.
    std::map<std::string, ConcreteBox> region;
    /// Bytes of one point (all Tuple elements) of each Func and input.
    std::map<std::string, int> bytes_per_point;

    bool is_output(const std::string &f) const;
    /// Whether `name` is an input buffer (ImageParam or Buffer) the pipeline reads.
    bool is_input(const std::string &name) const {
        return region.count(name) && !graph.env.count(name);
    }
    /// The regions of the Funcs and inputs read when `root` is computed over `box`, following
    /// producers for which `expand` returns true (their regions are derived and their own
    /// reads followed); each region is clipped to the pipeline's region. root is included.
    std::map<std::string, ConcreteBox>
    regions_required(const std::string &root, const ConcreteBox &box,
                     const std::function<bool(const std::string &)> &expand) const;
    /// The region `stage` reads of each callee when its Func is computed over `func_region`.
    std::map<std::string, ConcreteBox> stage_reads(const StageModel &stage,
                                                   const ConcreteBox &func_region) const;
};

/// e with scalar Params replaced by their estimates (or bound values) and input buffers'
/// min/extent by their estimates (or the bound Buffer's shape). Unknown ones stay.
Expr substitute_estimates(const Expr &e);
/// The value of an integer Expr of constants and the given Variables; false when e holds
/// anything else (then `value` is unspecified).
bool evaluate_integer(const Expr &e, const std::map<std::string, int64_t> &vars, int64_t *value);

} // namespace internal
} // namespace loom

#endif
