#include <loom/argument.h>
#include <loom/param.h>

#include "ir/ir.h"
#include "ir/parameter.h"
#include "support/error.h"
#include "support/util.h"

namespace loom {
namespace internal {

namespace {

Parameter as_parameter(const IntrusivePtr<RefCounted> &contents) {
    Parameter p;
    p.contents = contents;
    return p;
}

/// Constraints and estimates are stored in the parameter's own type, as Halide does.
Expr cast_to(Type t, const Expr &e) {
    if (!e.defined() || e.type() == t) return e;
    return Cast::make(t, e);
}

} // namespace

ParamBase::ParamBase(Type t, const std::string &name) {
    user_assert(t.is_scalar()) << "Param \"" << name << "\" has vector type " << t
                               << "; parameters are scalars.\n";
    user_assert(name != "__user_context")
        << "The name __user_context is reserved for the pipeline's user context argument.\n";
    Parameter p(t, /*is_buffer*/ false, /*dimensions*/ 0, name.empty() ? unique_name('p') : name);
    contents = p.contents;
}

const std::string &ParamBase::name() const { return as_parameter(contents).name(); }

Type ParamBase::type() const { return as_parameter(contents).type(); }

void ParamBase::set_range(const Expr &min, const Expr &max) {
    set_min_value(min);
    set_max_value(max);
}

void ParamBase::set_min_value(const Expr &min) {
    as_parameter(contents).set_min_value(cast_to(type(), min));
}

void ParamBase::set_max_value(const Expr &max) {
    as_parameter(contents).set_max_value(cast_to(type(), max));
}

Expr ParamBase::min_value() const { return as_parameter(contents).min_value(); }

Expr ParamBase::max_value() const { return as_parameter(contents).max_value(); }

Expr ParamBase::estimate() const { return as_parameter(contents).estimate(); }

ParamBase::operator Expr() const { return Variable::make(type(), name(), as_parameter(contents)); }

ParamBase::operator Argument() const { return Argument(as_parameter(contents)); }

Parameter ParamBase::parameter() const { return as_parameter(contents); }

void *ParamBase::scalar_address() const { return as_parameter(contents).scalar_address(); }

void ParamBase::set_estimate_expr(const Expr &e) {
    as_parameter(contents).set_estimate(cast_to(type(), e));
}

void ParamBase::value_does_not_fit(const std::string &value) const {
    user_error << "The value " << value << " cannot be converted to the type " << type()
               << " of Param \"" << name() << "\" without changing it.\n";
    // user_error throws; this keeps [[noreturn]] honest for the compiler.
    throw CompileError("unreachable");
}

void ParamBase::check_conversion(Type to, Type from, const char *verb) {
    user_assert(to == from) << "Param<" << to << "> cannot be " << verb
                            << " from a Param with type " << from << ".\n";
}

} // namespace internal
} // namespace loom
