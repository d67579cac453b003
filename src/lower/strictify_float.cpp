#include "lower/strictify_float.h"

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"

#include <loom/ir_operator.h>

namespace loom {
namespace internal {

namespace {

class StrictifyFloat : public IRMutator {
public:
    using IRMutator::mutate;

    Expr mutate(const Expr &e) override {
        if (!e.defined() || !e.type().is_float()) return IRMutator::mutate(e);
        if (e.as<Variable>() || is_const(e)) return e;
        const Call *c = e.as<Call>();
        if (c && c->is_intrinsic(Call::strict_float)) return e;
        return strict_float(e);
    }
};

} // namespace

Stmt strictify_float(const Stmt &s) { return StrictifyFloat().mutate(s); }

} // namespace internal
} // namespace loom
