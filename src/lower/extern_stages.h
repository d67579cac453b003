#ifndef LOOM_LOWER_EXTERN_STAGES_H
#define LOOM_LOWER_EXTERN_STAGES_H

/// \file Extern stages (Func::define_extern): their placement, their computation (a call to the
/// C function over halide_buffer_t's) and their bounds queries.
///
/// Until bounds inference, an extern Func f is an ordinary Func whose placeholder definition
/// reads each input at the corners of the region the extern will ask for, named by the free
/// variables "<f>.extern.a<i>.min.<d>" / ".max.<d>" (src/lang/extern_definition.h). So bounds
/// inference sizes each input Func g to that region: "g.s0.x.min = f.extern.a0.min.0".
///
/// lower_extern_stages (after bounds_inference) then
///  - replaces `produce f` by the call, with halide_buffer_t's built in place (make_struct):
///      let f.extern.a0.0.buffer = make_struct(<g's storage: host g, g.x.min_realized, ...>)
///      let f.extern.out0.buffer = make_struct(<f's storage>)
///      let f.extern.result = fn(f.extern.a0.0.buffer, in.buffer, p, f.extern.out0.buffer)
///      assert(f.extern.result == 0, halide_error_extern_stage_failed("fn", f.extern.result))
///    keeping a `loom_extern_touch(g(...min...), g(...max...))` marker so add_image_checks
///    sees the region of an input Func that is also a pipeline output;
///  - records f's bounds query: the region f must compute (the bounds bounds_inference let-bound
///    around `realize f`, in terms of the pipeline's arguments), and the call in query mode
///    (Func inputs as buffers with null host and zeroed dimensions, output of that region)
///    that defines "<f>.extern.a<i>.min/max.<d>".
/// Buffer and ImageParam arguments are passed as they are, in the query too (as Halide does):
/// the query learns their regions only when the pipeline itself runs as a bounds query and the
/// buffer is a query buffer the extern fills in (infer_input_bounds), and their regions are
/// not checked (the extern reads them on its own responsibility).
/// add_extern_bounds_queries (after add_image_checks, whose required regions use those
/// variables) removes the markers and puts the queries, consumers first, after the entry
/// assertions on the raw buffer handles. The queries run also when the pipeline itself is run
/// as a bounds query, so infer_input_bounds sees the regions externs ask for.
///
/// An extern stage computed inside loops is queried once, at the top, for the union of the
/// regions it computes over those loops (bounded by interval arithmetic; a region that can't be
/// bounded is a CompileError naming the loop): its inputs are computed over that union, and
/// each call inside the loops passes its own output region. Tests:
/// tests/correctness/extern_stages.cpp, tests/error/extern_errors.cpp,
/// tests/unit/lower/extern_stages_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The bounds queries of a pipeline's extern stages, in the order they run.
struct ExternBoundsQueries {
    struct Step {
        std::string name; ///< a LetStmt's name (empty for an assertion)
        Expr value;       ///< the let's value, or the assertion's condition
        Expr message;     ///< the assertion's message
    };
    std::vector<Step> steps;
};

/// See the file comment. `s` is the statement right after bounds_inference.
Stmt lower_extern_stages(const Stmt &s, const std::vector<Function> &outputs,
                         const std::map<std::string, Function> &env, ExternBoundsQueries *queries);

/// See the file comment. `s` is the statement after add_image_checks.
Stmt add_extern_bounds_queries(const Stmt &s, const ExternBoundsQueries &queries);

} // namespace internal
} // namespace loom

#endif
