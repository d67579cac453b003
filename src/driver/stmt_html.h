#ifndef LOOM_DRIVER_STMT_HTML_H
#define LOOM_DRIVER_STMT_HTML_H

/// \file The HTML view of a lowered statement (compile_to_lowered_stmt with
/// StmtOutputFormat::HTML): one self-contained page (inline CSS and a few lines of inline JS, no
/// network resource) showing the statement with every block statement (loops, produce/consume,
/// allocations, realizations, ifs) foldable as <details>/<summary>, the text
/// syntax-highlighted (keywords, numbers, strings, loop kinds), and each loop annotated with the
/// directive that made it: its kind (serial, parallel, vectorized, unrolled, ...), and for
/// loops made by split, fuse or rename the directive with the user's names, e.g.
/// "x.xi from split(x, xo, xi, 8)". Buttons fold or unfold everything.
/// Tests: tests/correctness/stmt_html.cpp.

#include "lang/function.h"
#include "lower/lowered_func.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

/// The page for `f`. `env` (the pipeline's Funcs by name; may be empty) supplies the split,
/// fuse and rename directives behind loop names.
std::string stmt_html(const LoweredFunc &f, const std::map<std::string, Function> &env);

/// The annotation of loop `loop_name` (a lowered For's name, "<func>.s<stage>.<var>") with
/// kind `for_type`, as the page shows it (without markup).
std::string loop_annotation(const std::string &loop_name, ForType for_type,
                            const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
