#ifndef LOOM_LOWER_COMPUTE_PATH_H
#define LOOM_LOWER_COMPUTE_PATH_H

/// \file The loops and lets between a Func's Realize and its `produce f; consume f` block:
/// where sliding_window and storage_folding look for the serial loop a Func is computed in
/// and how its region moves along it. Tests: tests/unit/lower/sliding_window_test.cpp,
/// tests/unit/lower/storage_folding_test.cpp.

#include "ir/ir.h"
#include "lang/function.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// One loop or let between a Realize and its Func's `produce f; consume f` block.
struct ComputePathNode {
    std::string name;
    Expr min, extent; ///< a For's bounds (undefined for a LetStmt)
    Expr value;       ///< a LetStmt's value (undefined for a For)
    ForType for_type = ForType::Serial;
    bool is_loop() const { return extent.defined(); }
};

/// The path from a Realize body to `produce f; consume f`.
struct ComputePath {
    bool found = false;
    std::vector<ComputePathNode> nodes; ///< outermost first
    int loop_index = -1;                ///< the innermost loop in nodes (-1: none)
    bool all_serial = true;             ///< every loop in nodes is serial
    Stmt block;                         ///< the `produce f; consume f` Block
    /// Index of the LetStmt `name` in nodes (-1 if absent).
    int find_let(const std::string &name) const;
    /// e (valid at node `index`) with the lets between the innermost loop and `index`
    /// substituted: in terms of the innermost loop variable and what encloses that loop.
    Expr expand(const Expr &e, int index) const;
    /// With hoist_storage, the loops and lets between the Realize (at the hoist level) and the
    /// store level, down to the store loop, which `nodes` then starts below: values do not
    /// live across their iterations (Halide hoists only the allocation), so nothing slides or
    /// folds over them; a ring buffer indexes its copies by their iteration.
    std::vector<ComputePathNode> hoisted;
};

/// The loops and lets from `realize_body` (the body of f's Realize) down to f's
/// `produce f; consume f` block (not found when f is computed elsewhere).
ComputePath find_compute_path(const Stmt &realize_body, const std::string &func);

/// The same for the Func f, whose storage may be hoisted (see ComputePath::hoisted).
ComputePath find_compute_path(const Stmt &realize_body, const Function &f);

/// Whether f's storage is hoisted (hoist_storage) while it is stored at its compute level: its
/// values live for one iteration of its compute loop, as if realized there.
bool hoisted_from_compute_level(const Function &f);

} // namespace internal
} // namespace loom

#endif
