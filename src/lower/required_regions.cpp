#include "lower/required_regions.h"

#include <loom/ir_operator.h>

#include "ir/ir_visitor.h"
#include "lower/output_buffers.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

/// The Provides (and the Func they define) that read `callee`.
class ProvidesCalling : public IRVisitor {
public:
    explicit ProvidesCalling(const std::string &c) : callee(c) {}
    std::vector<const Provide *> found;

protected:
    using IRVisitor::visit;
    void visit(const Provide *op) override {
        bool calls = false;
        auto check = [&](const Expr &e) {
            visit_exprs(e, [&](const Expr &x) {
                if (const Call *c = x.as<Call>()) {
                    if ((c->call_type == Call::Halide || c->call_type == Call::Image) &&
                        c->name == callee) {
                        calls = true;
                    }
                }
                return !calls;
            });
        };
        for (const Expr &e : op->values) check(e);
        for (const Expr &e : op->args) check(e);
        if (calls) found.push_back(op);
    }

private:
    const std::string &callee;
};

} // namespace

std::string find_unbounded_caller(const Stmt &s, const std::string &callee, int dim,
                                  const FuncValueBounds &func_bounds) {
    ProvidesCalling finder(callee);
    finder.dispatch(s);
    for (const Provide *p : finder.found) {
        Box b = box_required(Stmt(p), callee, {}, &func_bounds);
        if ((int)b.size() > dim && !b[dim].is_bounded()) return p->name;
    }
    return finder.found.empty() ? "" : finder.found[0]->name;
}

/// Reports an index of `callee` that interval analysis cannot bound.
[[noreturn]] void report_unbounded(const Stmt &context, const std::string &callee, int dim,
                                   const std::string &kind, const FuncValueBounds &func_bounds) {
    std::string caller = find_unbounded_caller(context, callee, dim, func_bounds);
    std::ostringstream msg;
    msg << kind << " " << callee << " is accessed";
    if (!caller.empty()) msg << " by Func " << caller;
    msg << " at an index that can't be bounded in dimension " << dim
        << " (for example an index computed from unbounded int32 data). Clamp the index, e.g. "
        << callee << "(clamp(e, lo, hi), ...), or wrap " << callee
        << " in a boundary condition (BoundaryConditions::repeat_edge etc.).\n";
    throw CompileError(msg.str());
}

void check_bounded(const Box &b, const Stmt &context, const std::string &callee,
                   const std::string &kind, const FuncValueBounds &func_bounds) {
    for (size_t d = 0; d < b.size(); d++) {
        if (!b[d].is_bounded()) report_unbounded(context, callee, (int)d, kind, func_bounds);
    }
}

std::map<std::string, Box> buffer_regions_required(const Stmt &s,
                                                   const std::vector<std::string> &inputs,
                                                   const std::vector<Function> &outputs,
                                                   const FuncValueBounds &func_bounds) {
    std::map<std::string, Box> result;
    // Only these buffers' boxes: bounding every Func's (boxes_touched(s)) took most of
    // add_image_checks' time on long pipelines.
    std::set<std::string> names(inputs.begin(), inputs.end());
    for (const Function &f : outputs) names.insert(f.name());
    std::map<std::string, Box> touched = boxes_touched_of(s, names, {}, &func_bounds);
    // An input must also hold what Selects may load where their conditions narrowed what is
    // needed (both sides are evaluated; a vector select loads every lane), as Halide 21
    // requires: where provably more and bounded (not a data-dependent index a condition guards).
    std::set<std::string> input_names(inputs.begin(), inputs.end());
    std::map<std::string, Box> loaded = boxes_loaded_of(s, input_names, {}, &func_bounds);
    for (const std::string &in : inputs) {
        Box b = touched.count(in) ? touched[in] : Box();
        check_bounded(b, s, in, "Input buffer", func_bounds);
        const Box &l = loaded.count(in) ? loaded[in] : Box();
        for (size_t d = 0; d < l.size() && d < b.size(); d++) {
            if (!l[d].is_bounded() || can_prove(l[d].min >= b[d].min && l[d].max <= b[d].max)) {
                continue;
            }
            b[d] = Interval::make_union(b[d], l[d]);
        }
        result[in] = b;
    }
    for (const Function &f : outputs) {
        Box b = touched.count(f.name()) ? touched[f.name()] : Box();
        check_bounded(b, s, f.name(), "Output Func", func_bounds);
        for (int i = 0; i < f.outputs(); i++) result[output_buffer_name(f, i)] = b;
    }
    return result;
}

} // namespace internal
} // namespace loom
