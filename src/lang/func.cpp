#include <loom/func.h>

#include <loom/ir_operator.h>

#include "ir/ir.h"
#include "ir/ir_visitor.h"
#include "lang/function.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace loom {

using internal::Call;
using internal::Function;
using internal::Variable;

namespace {

Function as_function(const internal::IntrusivePtr<internal::RefCounted> &p) { return Function(p); }

bool is_placeholder(const Var &v) { return v.is_placeholder(); }
bool is_placeholder(const Expr &e) {
    const Variable *v = e.as<Variable>();
    return v && Var::is_placeholder(v->name) && !v->param.defined() &&
           !v->reduction_domain.defined();
}

/// A plain Var (not an RVar or a Param) among definition arguments.
const Variable *as_pure_var(const Expr &e) {
    const Variable *v = e.as<Variable>();
    return (v && !v->param.defined() && !v->reduction_domain.defined()) ? v : nullptr;
}

/// Halide's argument rules for calls to Funcs: Int(32) coordinates; narrower integers are
/// widened; floats and integers that don't fit in int32 need an explicit cast. A vector of
/// coordinates is a scatter or gather (several elements at once).
void check_arg_types(const std::string &func, std::vector<Expr> &args) {
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined())
            << "Argument " << i + 1 << " in a reference to Func \"" << func << "\" is undefined.\n";
        Type t = args[i].type();
        user_assert(!t.is_handle() && !t.is_bool())
            << "Argument " << i + 1 << " in a reference to Func \"" << func << "\" has type " << t
            << "; coordinates must be integers (or scatter/gather of integers).\n";
        user_assert(
            !(t.is_float() || (t.is_uint() && t.bits() >= 32) || (t.is_int() && t.bits() > 32)))
            << "Implicit cast from " << t << " to int in argument " << i + 1
            << " in a reference to Func \"" << func << "\" is not allowed. Use an explicit cast.\n";
        if (t.element_of() != Int(32)) args[i] = cast(Int(32, t.lanes()), args[i]);
    }
}

/// Indices of the implicit Vars ("_0", "_1", ...) used in an Expr.
void collect_implicit_vars(const Expr &e, std::set<int> &found) {
    if (!e.defined()) return;
    internal::visit_exprs(e, [&](const Expr &x) {
        if (const Variable *v = x.as<Variable>()) {
            int idx = Var::implicit_index(v->name);
            if (idx >= 0 && !v->param.defined() && !v->reduction_domain.defined()) {
                found.insert(idx);
            }
        }
        return true;
    });
}

} // namespace

// ---- Stage ----

Stage::Stage(const Function &f, int stage_index) : func(f.get_contents()), stage(stage_index) {
    internal_assert(stage_index >= 0 && stage_index <= (int)f.updates().size())
        << "Stage " << stage_index << " of " << f.name() << " does not exist\n";
}

std::string Stage::name() const {
    Function f = function();
    return stage == 0 ? f.name() : f.name() + ".update(" + std::to_string(stage - 1) + ")";
}

std::string Stage::dump_argument_list() const {
    std::ostringstream os;
    os << "Vars:";
    for (const internal::Dim &d : definition().schedule.dims) os << " " << d.var;
    os << "\n";
    return os.str();
}

Function Stage::function() const { return as_function(func); }

Stage::Stage(const Function &f, int stage_index, const std::vector<int> &path)
    : Stage(f, stage_index) {
    spec_path = path;
}

internal::Definition &Stage::definition() const {
    Function f = function();
    internal::Definition *d = stage == 0 ? &f.definition() : &f.updates()[stage - 1];
    for (int i : spec_path) d = &d->specializations[i].definition;
    return *d;
}

// ---- FuncRef ----

FuncRef::FuncRef(const Function &f, const std::vector<Expr> &a, int placeholder_pos, int count)
    : func(f.get_contents()), args(a), implicit_placeholder_pos(placeholder_pos),
      implicit_count(count) {}

FuncRef::FuncRef(const Function &f, const std::vector<Var> &a, int placeholder_pos, int count)
    : func(f.get_contents()), implicit_placeholder_pos(placeholder_pos), implicit_count(count) {
    for (const Var &v : a) args.push_back(v);
}

Function FuncRef::function() const { return as_function(func); }

std::vector<Expr> FuncRef::args_with_implicit_vars(const std::vector<Expr> &values) const {
    Function f = function();
    std::vector<Expr> a = args;
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].defined()) << "Value " << i + 1 << " in the definition of Func \""
                                         << f.name() << "\" is undefined.\n";
    }
    std::set<int> used;
    for (const Expr &v : values) collect_implicit_vars(v, used);
    // Implicit Vars inside non-trivial arguments (f(g(_)) = ...) also need the placeholder.
    for (const Expr &e : a) {
        if (!e.as<Variable>()) collect_implicit_vars(e, used);
    }
    if (!used.empty() && implicit_placeholder_pos >= 0) {
        int count = *used.rbegin() + 1;
        a.insert(a.begin() + implicit_placeholder_pos, count, Expr());
        for (int i = 0; i < count; i++) a[implicit_placeholder_pos + i] = Var::implicit(i);
    }
    for (int i : used) {
        std::string n = Var::implicit(i).name();
        bool found = std::any_of(a.begin(), a.end(), [&](const Expr &e) {
            const Variable *v = as_pure_var(e);
            return v && v->name == n;
        });
        user_assert(found) << "The right-hand side of the definition of Func \"" << f.name()
                           << "\" uses the implicit variable " << n
                           << ", but the left-hand side does not contain the placeholder '_' "
                              "to stand for it.\n";
    }
    return a;
}

Stage FuncRef::define(const std::vector<Expr> &a, const std::vector<Expr> &values) {
    Function f = function();
    if (!f.has_pure_definition()) {
        std::vector<std::string> names;
        for (size_t i = 0; i < a.size(); i++) {
            const Variable *v = as_pure_var(a[i]);
            user_assert(v) << "In the definition of Func \"" << f.name() << "\": argument " << i + 1
                           << " (" << a[i] << ") is not a Var. The first definition "
                           << "of a Func is its pure definition, over distinct Vars (e.g. "
                           << f.name() << "(x, y) = ...); update definitions, whose arguments "
                           << "may be any expressions, come after it.\n";
            names.push_back(v->name);
        }
        f.define(names, values);
        return Stage(f, 0);
    }
    f.define_update(a, values);
    return Stage(f, (int)f.updates().size());
}

Stage FuncRef::operator=(const Expr &e) { return (*this) = Tuple(e); }

Stage FuncRef::operator=(const Tuple &e) {
    return define(args_with_implicit_vars(e.as_vector()), e.as_vector());
}

Stage FuncRef::operator=(const FuncRef &e) {
    if (e.size() <= 1) return (*this) = Expr(e);
    return (*this) = Tuple(e);
}

Stage FuncRef::update_with(UpdateOp op, const std::vector<Expr> &rhs, int identity) {
    std::vector<Expr> a = args_with_implicit_vars(rhs);
    Function f = function();
    if (!f.has_pure_definition()) {
        // The base case: the identity of the operation everywhere, over the update's plain
        // Vars where it has them (so f(x) += ... gives f(x) = 0) and fresh Vars elsewhere.
        std::vector<std::string> names;
        for (const Expr &e : a) {
            const Variable *v = as_pure_var(e);
            bool fresh = !v || std::find(names.begin(), names.end(), v->name) != names.end();
            names.push_back(fresh ? Var().name() : v->name);
        }
        std::vector<Expr> init;
        for (const Expr &e : rhs) init.push_back(cast(e.type(), Expr(identity)));
        f.define(names, init);
    }
    user_assert(rhs.size() == f.output_types().size())
        << "In an update of Func \"" << f.name() << "\": the right-hand side has " << rhs.size()
        << " value(s), but " << f.name() << " has " << f.output_types().size() << ".\n";
    std::vector<Expr> values;
    for (size_t i = 0; i < rhs.size(); i++) {
        Type t = f.output_types()[i];
        Expr current = f.make_call(a, (int)i);
        Expr r = cast(t, rhs[i]);
        switch (op) {
        case UpdateOp::Add:
            values.push_back(current + r);
            break;
        case UpdateOp::Sub:
            values.push_back(current - r);
            break;
        case UpdateOp::Mul:
            values.push_back(current * r);
            break;
        case UpdateOp::Div:
            values.push_back(current / r);
            break;
        }
    }
    f.define_update(a, values);
    return Stage(f, (int)f.updates().size());
}

Stage FuncRef::operator+=(const Expr &e) { return update_with(UpdateOp::Add, {e}, 0); }
Stage FuncRef::operator+=(const Tuple &e) { return update_with(UpdateOp::Add, e.as_vector(), 0); }
Stage FuncRef::operator+=(const FuncRef &e) { return (*this) += Tuple(e); }
Stage FuncRef::operator-=(const Expr &e) { return update_with(UpdateOp::Sub, {e}, 0); }
Stage FuncRef::operator-=(const Tuple &e) { return update_with(UpdateOp::Sub, e.as_vector(), 0); }
Stage FuncRef::operator-=(const FuncRef &e) { return (*this) -= Tuple(e); }
Stage FuncRef::operator*=(const Expr &e) { return update_with(UpdateOp::Mul, {e}, 1); }
Stage FuncRef::operator*=(const Tuple &e) { return update_with(UpdateOp::Mul, e.as_vector(), 1); }
Stage FuncRef::operator*=(const FuncRef &e) { return (*this) *= Tuple(e); }
Stage FuncRef::operator/=(const Expr &e) { return update_with(UpdateOp::Div, {e}, 1); }
Stage FuncRef::operator/=(const Tuple &e) { return update_with(UpdateOp::Div, e.as_vector(), 1); }
Stage FuncRef::operator/=(const FuncRef &e) { return (*this) /= Tuple(e); }

FuncRef::operator Expr() const {
    Function f = function();
    user_assert(!f.call_types().empty())
        << "Can't call Func \"" << f.name() << "\" because it has not yet been defined.\n";
    user_assert(f.call_types().size() == 1)
        << "Can't convert a reference to Func \"" << f.name() << "\" to an Expr, because "
        << f.name() << " returns a Tuple of " << f.call_types().size() << " values. Use "
        << f.name() << "(...)[i] to read one of them.\n";
    return f.make_call(args, 0);
}

FuncTupleElementRef FuncRef::operator[](int i) const {
    Function f = function();
    int n = (int)f.call_types().size();
    user_assert(n > 0) << "Can't call Func \"" << f.name()
                       << "\" because it has not yet been defined.\n";
    user_assert(n != 1) << "Can't index into a reference to Func \"" << f.name()
                        << "\", because it does not return a Tuple.\n";
    user_assert(i >= 0 && i < n) << "Tuple index " << i
                                 << " is out of range in a reference to Func \"" << f.name()
                                 << "\", which has " << n << " values.\n";
    return FuncTupleElementRef(*this, i);
}

size_t FuncRef::size() const { return function().call_types().size(); }

// ---- FuncTupleElementRef ----

FuncTupleElementRef::FuncTupleElementRef(const FuncRef &ref, int idx) : func_ref(ref), idx(idx) {}

std::vector<Expr> FuncTupleElementRef::values_with_undefs(const Expr &e) const {
    Function f = func_ref.function();
    std::vector<Expr> values;
    for (int i = 0; i < (int)f.call_types().size(); i++) {
        values.push_back(i == idx ? e : undef(f.call_types()[i]));
    }
    return values;
}

Stage FuncTupleElementRef::operator=(const Expr &e) {
    FuncRef ref = func_ref;
    return ref = Tuple(values_with_undefs(e));
}

Stage FuncTupleElementRef::operator=(const FuncRef &e) { return (*this) = Expr(e); }

Stage FuncTupleElementRef::operator+=(const Expr &e) {
    Expr self = *this;
    return (*this) = self + cast(self.type(), e);
}
Stage FuncTupleElementRef::operator-=(const Expr &e) {
    Expr self = *this;
    return (*this) = self - cast(self.type(), e);
}
Stage FuncTupleElementRef::operator*=(const Expr &e) {
    Expr self = *this;
    return (*this) = self * cast(self.type(), e);
}
Stage FuncTupleElementRef::operator/=(const Expr &e) {
    Expr self = *this;
    return (*this) = self / cast(self.type(), e);
}

FuncTupleElementRef::operator Expr() const {
    return func_ref.function().make_call(func_ref.arguments(), idx);
}

// ---- Func ----

Func::Func() : func(Function(internal::unique_name('f')).get_contents()) {}

// As in Halide, a name used before gets a suffix ("f", then "f$1"): two Funcs of one name,
// made by a helper called twice say, must not share their storage and loops in a pipeline.
Func::Func(const std::string &name)
    : func(Function(name.empty() ? internal::unique_name('f') : internal::unique_name(name))
               .get_contents()) {}

Func::Func(const Type &required_type, int required_dims, const std::string &name)
    : Func(std::vector<Type>{required_type}, required_dims, name) {}

Func::Func(const std::vector<Type> &required_types, int required_dims, const std::string &name)
    : Func(name) {
    user_assert(required_dims >= 0) << "Func \"" << this->name()
                                    << "\" can't be declared with a negative number of "
                                       "dimensions.\n";
    Function f = function();
    f.contents->required_types = required_types;
    f.contents->required_dims = required_dims;
}

Func::Func(const Expr &e) : Func() { (*this)(_) = e; }

Func::Func(const Function &f) : func(f.get_contents()) {
    internal_assert(f.defined()) << "Func from an undefined Function\n";
}

template <typename T>
FuncRef Func::make_ref(std::vector<T> args) const {
    Function f = function();
    int dims = f.has_pure_definition() ? f.dimensions() : f.required_dimensions();
    int pos = -1, count = 0;
    for (size_t i = 0; i < args.size(); i++) {
        if (!is_placeholder(args[i])) continue;
        user_assert(pos < 0) << "A reference to Func \"" << f.name()
                             << "\" uses the placeholder '_' more than once.\n";
        pos = (int)i;
    }
    if (pos >= 0) {
        args.erase(args.begin() + pos);
        if (dims >= 0) {
            // The dimensionality is known: `_` stands for the dimensions not given.
            while ((int)args.size() < dims) {
                args.insert(args.begin() + pos + count, T(Var::implicit(count)));
                count++;
            }
            pos = -1;
        }
    }
    if (dims >= 0) {
        user_assert((int)args.size() == dims)
            << "Func \"" << f.name() << "\" has " << dims << " dimension(s), but is used here "
            << "with " << args.size() << " argument(s).\n";
    }
    std::vector<Expr> exprs(args.begin(), args.end());
    check_arg_types(f.name(), exprs);
    return FuncRef(f, exprs, pos, count);
}

FuncRef Func::operator()(std::vector<Var> args) const { return make_ref(std::move(args)); }

FuncRef Func::operator()(std::vector<Expr> args) const { return make_ref(std::move(args)); }

const std::string &Func::name() const { return function().name(); }

bool Func::defined() const { return function().has_pure_definition(); }

int Func::dimensions() const {
    Function f = function();
    if (f.has_pure_definition()) return f.dimensions();
    return std::max(0, f.required_dimensions());
}

std::vector<Var> Func::args() const {
    std::vector<Var> vars;
    for (const std::string &a : function().args()) vars.push_back(Var(a));
    return vars;
}

const Type &Func::type() const {
    const std::vector<Type> &ts = types();
    user_assert(ts.size() == 1) << "Can't call Func::type on Func \"" << name()
                                << "\" because it returns a Tuple of " << ts.size()
                                << " values; use types().\n";
    return ts[0];
}

const std::vector<Type> &Func::types() const {
    Function f = function();
    user_assert(!f.call_types().empty())
        << "Can't ask for the type of Func \"" << name()
        << "\" because it is undefined and was not declared with a type.\n";
    return f.contents->init_def.defined() ? f.contents->output_types : f.contents->required_types;
}

int Func::outputs() const { return (int)function().call_types().size(); }

Expr Func::value() const {
    Function f = function();
    user_assert(f.has_pure_definition())
        << "Can't call Func::value() on Func \"" << name() << "\" because it is undefined.\n";
    user_assert(f.outputs() == 1) << "Can't call Func::value() on Func \"" << name()
                                  << "\" because it returns a Tuple; use values().\n";
    return f.definition().values[0];
}

Tuple Func::values() const {
    Function f = function();
    user_assert(f.has_pure_definition())
        << "Can't call Func::values() on Func \"" << name() << "\" because it is undefined.\n";
    return Tuple(f.definition().values);
}

int Func::num_update_definitions() const { return (int)function().updates().size(); }

namespace {
const internal::Definition &checked_update(const Function &f, int idx) {
    user_assert(idx >= 0 && idx < (int)f.updates().size())
        << "Func \"" << f.name() << "\" has " << f.updates().size()
        << " update definition(s), so update " << idx << " does not exist.\n";
    return f.updates()[idx];
}
} // namespace

Stage Func::update(int idx) {
    Function f = function();
    checked_update(f, idx);
    return Stage(f, idx + 1);
}

const std::vector<Expr> &Func::update_args(int idx) const {
    return checked_update(function(), idx).args;
}

Expr Func::update_value(int idx) const {
    const internal::Definition &d = checked_update(function(), idx);
    user_assert(d.values.size() == 1) << "Can't call Func::update_value on Func \"" << name()
                                      << "\" because it returns a Tuple; use update_values().\n";
    return d.values[0];
}

Tuple Func::update_values(int idx) const { return Tuple(checked_update(function(), idx).values); }

std::vector<RVar> Func::rvars(int idx) const {
    const internal::Definition &d = checked_update(function(), idx);
    std::vector<RVar> result;
    if (d.rdom.defined()) {
        for (size_t i = 0; i < d.rdom.domain().size(); i++) result.emplace_back(d.rdom, (int)i);
    }
    return result;
}

Func::operator Stage() const { return Stage(function(), 0); }

Func &Func::compute_root() {
    Function f = function();
    f.schedule().compute_level = internal::LoopLevelSpec::root();
    if (!f.schedule().store_level_set) f.schedule().store_level = internal::LoopLevelSpec::root();
    f.schedule().touched = true;
    f.touch();
    return *this;
}

Func &Func::compute_inline() {
    Function f = function();
    f.schedule().compute_level = internal::LoopLevelSpec::inlined();
    if (!f.schedule().store_level_set)
        f.schedule().store_level = internal::LoopLevelSpec::inlined();
    f.schedule().touched = true;
    f.touch();
    return *this;
}

LoopLevel::LoopLevel(const Func &f, const VarOrRVar &var, int stage_index)
    : kind_(At), func_(f.name()), var_(var.name()), stage_index_(stage_index) {}

Func &Func::compute_at(const Func &f, const Var &var) { return compute_at(LoopLevel(f, var)); }

Func &Func::compute_at(const Func &f, const RVar &var) { return compute_at(LoopLevel(f, var)); }

Func &Func::compute_at(LoopLevel level) {
    if (level.is_root()) return compute_root();
    if (level.is_inlined()) return compute_inline();
    user_assert(level.func() != name())
        << "Func " << name() << " can't be computed at a loop of its own (" << level.func() << "."
        << level.var() << "). Compute it at a loop of one of its consumers.\n";
    internal::LoopLevelSpec spec;
    spec.kind = internal::LoopLevelSpec::At;
    spec.func = level.func();
    spec.var = level.var();
    spec.stage_index = level.stage_index();
    Function f = function();
    f.schedule().compute_level = spec;
    if (!f.schedule().store_level_set) f.schedule().store_level = spec;
    f.schedule().touched = true;
    f.touch();
    return *this;
}

Function Func::function() const { return as_function(func); }

} // namespace loom
