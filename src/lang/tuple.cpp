#include <loom/tuple.h>

#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

Tuple::Tuple(const std::vector<Expr> &e) : exprs(e) {
    user_assert(!e.empty()) << "A Tuple needs at least one element.\n";
}

Tuple::Tuple(const FuncRef &f) {
    internal::Function fn = f.function();
    size_t n = fn.call_types().size();
    user_assert(n > 0) << "Can't call Func \"" << fn.name()
                       << "\" because it has not yet been defined.\n";
    for (size_t i = 0; i < n; i++) exprs.push_back(fn.make_call(f.arguments(), (int)i));
}

Expr &Tuple::operator[](size_t i) {
    user_assert(i < exprs.size()) << "Tuple index " << i << " is out of range: the Tuple has "
                                  << exprs.size() << " element(s).\n";
    return exprs[i];
}

Expr Tuple::operator[](size_t i) const {
    user_assert(i < exprs.size()) << "Tuple index " << i << " is out of range: the Tuple has "
                                  << exprs.size() << " element(s).\n";
    return exprs[i];
}

} // namespace loom
