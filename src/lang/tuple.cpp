#include <loom/tuple.h>

#include <loom/func.h>
#include <loom/ir_operator.h>

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

Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value) {
    user_assert(condition.size() == true_value.size() && true_value.size() == false_value.size())
        << "select of Tuples needs a condition and values of one size, but they have "
        << condition.size() << ", " << true_value.size() << " and " << false_value.size()
        << " elements.\n";
    std::vector<Expr> r;
    for (size_t i = 0; i < true_value.size(); i++) {
        r.push_back(select(condition[i], true_value[i], false_value[i]));
    }
    return Tuple(r);
}

Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value) {
    user_assert(true_value.size() == false_value.size())
        << "select of Tuples needs values of one size, but they have " << true_value.size()
        << " and " << false_value.size() << " elements.\n";
    std::vector<Expr> r;
    for (size_t i = 0; i < true_value.size(); i++) {
        r.push_back(select(condition, true_value[i], false_value[i]));
    }
    return Tuple(r);
}

Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value) {
    return select(condition, Expr(true_value), Expr(false_value));
}

Expr mux(const Expr &index, const std::initializer_list<FuncRef> &values) {
    std::vector<Expr> exprs(values.begin(), values.end());
    return mux(index, exprs);
}

Expr mux(const Expr &index, const Tuple &values) { return mux(index, values.as_vector()); }

Tuple mux(const Expr &index, const std::initializer_list<Tuple> &values) {
    return mux(index, std::vector<Tuple>(values));
}

Tuple mux(const Expr &index, const std::vector<Tuple> &values) {
    user_assert(!values.empty()) << "mux needs at least one Tuple.\n";
    std::vector<Expr> r;
    for (size_t i = 0; i < values[0].size(); i++) {
        std::vector<Expr> element;
        for (const Tuple &t : values) {
            user_assert(t.size() == values[0].size())
                << "mux of Tuples needs Tuples of one size, but they have " << values[0].size()
                << " and " << t.size() << " elements.\n";
            element.push_back(t[i]);
        }
        r.push_back(mux(index, element));
    }
    return Tuple(r);
}

} // namespace loom
