#include <loom/lambda.h>

#include "support/error.h"
#include "support/util.h"

namespace loom {
namespace internal {

std::string lambda_name() { return "lambda" + unique_name('_'); }

void check_evaluate_type(const Expr &e, Type t, const char *what) {
    user_assert(e.defined()) << "The " << what << " is undefined.\n";
    user_assert(e.type() == t) << "Can't evaluate the " << what << " " << e << " of type "
                               << e.type() << " as a value of type " << t
                               << "; cast it, or ask for its type.\n";
}

} // namespace internal
} // namespace loom
