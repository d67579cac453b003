#include "lower/unroll_loops.h"

#include "lower/constant_lets.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"

#include "arith/constant_interval.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// The largest constant upper bound a loop of non-constant extent is unrolled to (guarded
/// copies); a loop of constant extent is unrolled whatever its length, as in Halide.
const int64_t max_guarded_unroll = 1024;

class UnrollLoops : public ConstantLetMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) return IRMutator::visit(op);
        Expr extent = constant_in_scope(op->extent);
        const int64_t *n = as_const_int(extent);
        bool guarded = false;
        int64_t count = 0;
        if (n) {
            count = *n;
        } else {
            // A constant upper bound: unroll to it, each copy guarded.
            ConstantInterval ci =
                constant_integer_bounds(simplify(remove_likely_tags(in_scope(extent))));
            if (ci.max_defined && ci.max <= max_guarded_unroll) {
                count = std::max<int64_t>(ci.max, 0);
                guarded = true;
            }
        }
        if (!n && !guarded && get_env("HL_PERMIT_FAILED_UNROLL") == "1") {
            // Halide's escape hatch: the loop runs serially instead.
            user_warning << "HL_PERMIT_FAILED_UNROLL leaves the loop over "
                         << describe_loop(op->name) << " (extent " << extent
                         << ", not a constant) serial instead of unrolling it.\n";
            return op->with_for_type(ForType::Serial, mutate(op->body));
        }
        user_assert(n || guarded)
            << "Can only unroll a loop of constant extent, but the loop over "
            << describe_loop(op->name) << " has extent " << extent
            << ". Use unroll(x, factor) to split it first, or bound() the Func (or set "
               "HL_PERMIT_FAILED_UNROLL=1 to run such loops serially).\n";
        Stmt body = mutate(op->body);
        // The min is evaluated once, as the loop would.
        Expr base = op->min;
        bool bind_min = !is_const(base) && !base.as<Variable>();
        const std::string min_name = op->name + ".unrolled_min";
        if (bind_min) base = Variable::make(op->min.type(), min_name);
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < count; i++) {
            Expr iv = simplify(Add::make(base, make_const(base.type(), i)));
            Stmt copy = substitute(op->name, iv, body);
            if (guarded) {
                copy = IfThenElse::make(LT::make(make_const(extent.type(), i), extent), copy);
            }
            copies.push_back(copy);
        }
        if (copies.empty()) return Evaluate::make(make_zero(Int(32)));
        Stmt result = Block::make(copies);
        if (bind_min) result = LetStmt::make(min_name, op->min, result);
        return result;
    }
};

} // namespace

Stmt unroll_loops(const Stmt &s) { return UnrollLoops().mutate(s); }

} // namespace internal
} // namespace loom
