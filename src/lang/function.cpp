#include "lang/function.h"
#include "lang/wrappers.h"

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

const char *const outermost_name = "__outermost";

/// Checks that every free variable of a definition is allowed there: a pure argument, a
/// parameter, a Let-bound name, or an RVar of the one reduction domain the definition uses
/// (never in a pure definition). Records that domain.
class CheckVars : public IRVisitor {
public:
    CheckVars(const std::string &func, const std::string &where, bool pure)
        : func(func), where(where), pure(pure) {}

    std::vector<std::string> pure_args;
    ReductionDomain rdom;
    /// Set while checking the RDom's own predicate, which may name its RVars plainly.
    bool unbound_rvars_ok = false;

protected:
    using IRVisitor::visit;

    void visit(const Let *op) override {
        dispatch(op->value);
        bound.push_back(op->name);
        dispatch(op->body);
        bound.pop_back();
    }

    void visit(const Variable *op) override {
        if (op->param.defined()) return;
        // The pipeline's user context is always in scope (print, require, extern calls).
        if (op->name == "__user_context") return;
        if (std::find(bound.begin(), bound.end(), op->name) != bound.end()) return;
        if (op->reduction_domain.defined()) {
            user_assert(!pure) << where << "Can't use RVar " << op->name
                               << " in pure definition of " << func
                               << ". Reduction variables may appear only in update definitions, "
                                  "e.g. "
                               << func << "(x) = 0; " << func << "(x) += g(" << op->name << ");\n";
            if (!rdom.defined()) {
                rdom = op->reduction_domain;
                first_rvar = op->name;
                return;
            }
            user_assert(rdom.same_as(op->reduction_domain))
                << where << "It uses the RVars " << first_rvar << " and " << op->name
                << ", which belong to different RDoms. One definition may use only one "
                   "reduction domain; make a multi-dimensional RDom instead.\n";
            return;
        }
        if (std::find(pure_args.begin(), pure_args.end(), op->name) != pure_args.end()) return;
        if (rdom.defined() && unbound_rvars_ok) {
            for (const ReductionVariable &rv : rdom.domain()) {
                if (rv.var == op->name) return;
            }
        }
        std::ostringstream args;
        for (size_t i = 0; i < pure_args.size(); i++) {
            if (pure_args[i].empty()) continue;
            args << (args.tellp() > 0 ? ", " : "") << pure_args[i];
        }
        user_error << where << "Undefined variable \"" << op->name << "\" in definition of Func \""
                   << func << "\". The variables it may use are its pure arguments (" << args.str()
                   << "), RVars, and parameters.\n";
    }

private:
    std::string func, where;
    bool pure;
    std::string first_rvar;
    std::vector<std::string> bound;
};

/// Replaces calls to `self` by calls through its WeakFunctionRef (see function.h), so a
/// recursive definition does not make the function own itself.
Expr weaken_self_calls(const Expr &e, FunctionContents *self) {
    if (!e.defined()) return e;
    return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
        const Call *c = x.as<Call>();
        if (!c || c->call_type != Call::Halide || c->func.get() != self) return Expr();
        // (A copied FunctionContents may carry its original's stub; it needs its own.)
        if (!self->weak_self.defined() || self->weak_self->target != self) {
            self->weak_self = new WeakFunctionRef;
            self->weak_self->target = self;
        }
        return Call::make(c->type, c->name, c->args, Call::Halide, self->weak_self, c->value_index,
                          c->param);
    });
}

/// Whether the RVar `v` of update `d` of `func` is pure syntactically: the left-hand side has
/// `v` itself as some argument i, and every read of `func` in the update (self-call) has `v`
/// itself as an argument at such a position.
bool rvar_is_syntactically_pure(const std::string &v, const Definition &d,
                                const std::string &func) {
    auto is_v = [&](const Expr &e) {
        const Variable *var = e.as<Variable>();
        return var && var->name == v && var->reduction_domain.defined();
    };
    std::vector<size_t> positions;
    for (size_t i = 0; i < d.args.size(); i++) {
        if (is_v(d.args[i])) positions.push_back(i);
    }
    if (positions.empty()) return false;
    bool pure = true;
    auto check = [&](const Expr &root) {
        if (!root.defined()) return;
        visit_exprs(root, [&](const Expr &e) {
            const Call *c = e.as<Call>();
            if (c && c->call_type == Call::Halide && c->name == func) {
                bool ok = false;
                for (size_t i : positions) ok = ok || (i < c->args.size() && is_v(c->args[i]));
                pure = pure && ok;
            }
            return pure;
        });
    };
    for (const Expr &e : d.args) check(e);
    for (const Expr &e : d.values) check(e);
    check(d.predicate);
    return pure;
}

/// Whether two iterations with different values of `v` provably never touch one element
/// (Halide's can_parallelize_rvar): with every free variable of a second iteration renamed,
/// "v != v' and (the two stores collide, or the second's store hits a read of func by the
/// first)" simplifies to false over the domain's bounds. f(2 * r) = r,
/// f(r + 3) = f(r + 3) + r and f(r.x + 1, r.y) += r.x (over r.x) pass; f(r % 5) = r and
/// f(r) = f(r - 1) do not.
bool rvar_iterations_are_independent(const std::string &v, const Definition &d,
                                     const std::string &func) {
    std::map<std::string, Expr> other;
    std::map<std::string, ConstantInterval> bounds;
    Expr mine;
    auto rename_free_vars = [&](const Expr &root) {
        visit_exprs(root, [&](const Expr &e) {
            const Variable *var = e.as<Variable>();
            if (var && !var->param.defined() && !other.count(var->name)) {
                other[var->name] = Variable::make(var->type, var->name + "$other");
                if (var->name == v) mine = var;
            }
            return true;
        });
    };
    std::vector<std::vector<Expr>> loads;
    auto find_loads = [&](const Expr &root) {
        if (!root.defined()) return;
        visit_exprs(root, [&](const Expr &e) {
            const Call *c = e.as<Call>();
            if (c && c->call_type == Call::Halide && c->name == func) loads.push_back(c->args);
            return true;
        });
    };
    for (const Expr &a : d.args) {
        rename_free_vars(a);
        find_loads(a);
    }
    for (const Expr &e : d.values) find_loads(e);
    find_loads(d.predicate);
    for (const std::vector<Expr> &l : loads) {
        if (l.size() != d.args.size()) return false;
    }
    if (!mine.defined()) return false; // v is not on the left: every iteration stores there
    Expr distinct = NE::make(mine, other[v]);
    auto collides_with_other_store = [&](const std::vector<Expr> &site) {
        Expr same = const_true();
        for (size_t i = 0; i < site.size(); i++) {
            same = And::make(same, EQ::make(site[i], substitute(other, d.args[i])));
        }
        return And::make(distinct, same);
    };
    for (const ReductionVariable &rv : d.schedule.rvars) {
        const int64_t *mn = as_const_int(rv.min), *ext = as_const_int(rv.extent);
        if (!mn || !ext) continue;
        ConstantInterval range(*mn, true, *mn + *ext - 1, true);
        bounds[rv.var] = range;
        bounds[rv.var + "$other"] = range;
    }
    // A site cannot collide when one coordinate alone cannot: f(r.x + 1, r.y) over r.x. (The
    // whole conjunction below hides that from the simplifier once it spans several
    // coordinates.)
    auto one_coordinate_apart = [&](const std::vector<Expr> &site) {
        for (size_t i = 0; i < site.size(); i++) {
            Expr same = EQ::make(site[i], substitute(other, d.args[i]));
            if (can_prove(Not::make(And::make(distinct, same)), bounds)) return true;
        }
        return false;
    };
    bool apart = one_coordinate_apart(d.args);
    for (const std::vector<Expr> &l : loads) apart = apart && one_coordinate_apart(l);
    if (apart) return true;
    Expr hazard = collides_with_other_store(d.args);
    for (const std::vector<Expr> &l : loads)
        hazard = Or::make(hazard, collides_with_other_store(l));
    return can_prove(Not::make(hazard), bounds);
}

/// Whether the loop over the RVar `v` of update `d` may be reordered or parallelized (Halide's
/// PureRVar): different iterations of it never touch the same element.
bool rvar_is_pure(const std::string &v, const Definition &d, const std::string &func) {
    return rvar_is_syntactically_pure(v, d, func) || rvar_iterations_are_independent(v, d, func);
}

std::string type_list(const std::vector<Type> &ts) {
    std::ostringstream s;
    for (size_t i = 0; i < ts.size(); i++) s << (i ? ", " : "") << ts[i];
    return s.str();
}

} // namespace

FunctionContents::~FunctionContents() {
    if (weak_self.defined() && weak_self->target == this) weak_self->target = nullptr;
}

Function::Function(const std::string &name) : contents(new FunctionContents) {
    contents->name = name;
}

Function::Function(const IntrusivePtr<RefCounted> &p) {
    RefCounted *r = p.get();
    if (!r) return;
    if (auto *c = dynamic_cast<FunctionContents *>(r)) {
        contents = c;
    } else if (auto *w = dynamic_cast<WeakFunctionRef *>(r)) {
        internal_assert(w->target) << "A call refers to a Func that no longer exists\n";
        contents = w->target;
    } else {
        internal_error << "Function made from an object that is not a function\n";
    }
}

void Function::define(const std::vector<std::string> &args, const std::vector<Expr> &values) {
    internal_assert(defined()) << "define on an undefined Function\n";
    const std::string &fn = name();
    std::string where = "In the pure definition of Func \"" + fn + "\": ";
    user_assert(!has_extern_definition())
        << where << "Func \"" << fn << "\" has an extern definition (define_extern), so it "
        << "can't also have a pure definition.\n";
    user_assert(!has_pure_definition())
        << "Func \"" << fn << "\" cannot be given a new pure definition, because it already "
        << "has one. Further definitions must be update definitions.\n";
    user_assert(!values.empty()) << where << "The definition has no values.\n";
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].defined())
            << where << "Value " << i << " of the right-hand side is undefined.\n";
    }
    for (size_t i = 0; i < args.size(); i++) {
        internal_assert(!args[i].empty()) << "pure argument with an empty name\n";
        for (size_t j = 0; j < i; j++) {
            user_assert(args[i] != args[j])
                << where << "The Var \"" << args[i] << "\" appears more than once on the "
                << "left-hand side (arguments " << j << " and " << i << "). The arguments of a "
                << "pure definition must be distinct Vars.\n";
        }
    }

    CheckVars check(fn, where, /*pure=*/true);
    check.pure_args = args;
    for (const Expr &v : values) check.dispatch(v);
    for (const Expr &v : values) {
        user_assert(v.type().is_scalar())
            << where << "The value " << v << " is a vector of " << v.type().lanes()
            << " elements (gather?). scatter and gather may only be used in update definitions.\n";
    }

    std::vector<Type> types;
    for (const Expr &v : values) types.push_back(v.type());
    const std::vector<Type> &req = contents->required_types;
    if (!req.empty()) {
        user_assert(req.size() == types.size())
            << "Func \"" << fn << "\" was declared with " << req.size() << " value(s) ("
            << type_list(req) << "), but its pure definition has " << types.size() << " ("
            << type_list(types) << ").\n";
        for (size_t i = 0; i < req.size(); i++) {
            user_assert(req[i] == types[i])
                << "Func \"" << fn << "\" was declared with type " << req[i]
                << (req.size() > 1 ? " for Tuple element " + std::to_string(i) : std::string())
                << ", but its pure definition has type " << types[i] << ".\n";
        }
    }
    if (contents->required_dims >= 0) {
        user_assert((int)args.size() == contents->required_dims)
            << "Func \"" << fn << "\" was declared with " << contents->required_dims
            << " dimension(s), but its pure definition has " << args.size() << ".\n";
    }

    Definition &d = contents->init_def;
    d.args.clear();
    for (const std::string &a : args) d.args.push_back(Variable::make(Int(32), a));
    d.values.clear();
    for (const Expr &v : values) d.values.push_back(weaken_self_calls(v, contents.get()));
    d.rdom = ReductionDomain();
    d.predicate = const_true();
    d.schedule = StageSchedule();
    d.schedule.dims = default_dims(d.args, d.rdom);
    contents->args = args;
    contents->output_types = types;
    touch();
}

void Function::define_update(const std::vector<Expr> &args, const std::vector<Expr> &values) {
    internal_assert(defined()) << "define_update on an undefined Function\n";
    const std::string &fn = name();
    size_t idx = contents->updates.size();
    std::string where = "In update definition " + std::to_string(idx) + " of Func \"" + fn + "\": ";
    user_assert(!has_extern_definition())
        << where << "Func \"" << fn << "\" has an extern definition (define_extern), so it "
        << "can't have update definitions.\n";
    user_assert(has_pure_definition())
        << where << "Func \"" << fn << "\" has no pure definition yet. Give it one first, over "
        << "distinct Vars (e.g. " << fn << "(x, y) = 0).\n";
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined())
            << where << "Argument " << i << " of the left-hand side is undefined.\n";
    }
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].defined())
            << where << "Value " << i << " of the right-hand side is undefined.\n";
    }
    // scatter/gather: the arguments and values that are vectors store that many elements at
    // once; scalars among them stand for every element (they stay scalar, so pure Vars stay
    // recognisable; build_provide_loop_nest splits the Provide into one store per element).
    int lanes = 1;
    for (const std::vector<Expr> *list : {&args, &values}) {
        for (const Expr &e : *list) {
            int n = e.type().lanes();
            user_assert(n == 1 || lanes == 1 || n == lanes)
                << where << "The scatter and gather expressions of an update must all have the "
                << "same number of elements, but one has " << lanes << " and " << e << " has " << n
                << ".\n";
            lanes = std::max(lanes, n);
        }
    }
    user_assert((int)args.size() == dimensions())
        << where << "The left-hand side has " << args.size() << " argument(s), but " << fn
        << " has " << dimensions() << " dimension(s).\n";
    user_assert(values.size() == contents->output_types.size())
        << where << "The update gives " << values.size() << " value(s), but the pure definition "
        << "of " << fn << " has " << contents->output_types.size() << ".\n";
    for (size_t i = 0; i < values.size(); i++) {
        Type pure_type = contents->output_types[i];
        user_assert(values[i].type().element_of() == pure_type)
            << where
            << (values.size() > 1 ? "Tuple element " + std::to_string(i) + " of the value"
                                  : std::string("The value"))
            << " has type " << values[i].type() << ", but the pure definition of " << fn
            << " has type " << pure_type << ". Cast the right-hand side to " << pure_type << ".\n";
    }

    // An argument is a pure Var of the update when it is the same Var as in the same position
    // of the pure definition; only those may appear free in the update.
    std::vector<std::string> pure_args(args.size());
    for (size_t i = 0; i < args.size(); i++) {
        const Variable *v = args[i].as<Variable>();
        if (v && !v->param.defined() && !v->reduction_domain.defined() &&
            v->name == contents->args[i]) {
            pure_args[i] = v->name;
        }
    }
    CheckVars check(fn, where, /*pure=*/false);
    check.pure_args = pure_args;
    for (const Expr &a : args) check.dispatch(a);
    for (const Expr &v : values) check.dispatch(v);
    ReductionDomain rdom = check.rdom;
    Expr predicate = const_true();
    if (rdom.defined()) {
        if (rdom.predicate().defined()) {
            check.unbound_rvars_ok = true;
            check.dispatch(rdom.predicate());
            predicate = rdom.predicate();
        }
        // Predicates added after this would silently not apply to this definition.
        rdom.freeze();
    }

    Definition d;
    for (const Expr &a : args) d.args.push_back(weaken_self_calls(a, contents.get()));
    for (const Expr &v : values) d.values.push_back(weaken_self_calls(v, contents.get()));
    d.rdom = rdom;
    d.predicate = weaken_self_calls(predicate, contents.get());
    if (rdom.defined()) d.schedule.rvars = rdom.domain();
    d.schedule.dims = default_update_dims(d, fn);
    contents->updates.push_back(std::move(d));
    touch();
}

Expr Function::make_call(const std::vector<Expr> &args, int index) const {
    internal_assert(defined()) << "make_call on an undefined Function\n";
    const std::vector<Type> &types = call_types();
    user_assert(!types.empty()) << "Can't call Func \"" << name()
                                << "\" because it has not yet been defined.\n";
    internal_assert(index >= 0 && index < (int)types.size())
        << "value index " << index << " out of range in a call to " << name() << "\n";
    // A call at gathered coordinates (f(gather(3, 5))) reads as many elements.
    int lanes = 1;
    for (const Expr &a : args) lanes = std::max(lanes, a.type().lanes());
    return Call::make(types[index].with_lanes(lanes), name(), args, Call::Halide, contents, index);
}

std::vector<Dim> default_update_dims(const Definition &d, const std::string &func) {
    std::vector<Dim> dims = default_dims(d.args, d.rdom);
    // With scatter (vector arguments or values), iterations write several places: they stay
    // ordered.
    bool scatter = false;
    for (const std::vector<Expr> *list : {&d.args, &d.values}) {
        for (const Expr &e : *list) scatter |= e.type().lanes() > 1;
    }
    for (Dim &dim : dims) {
        if (dim.kind == Dim::Kind::ImpureRVar && !scatter && rvar_is_pure(dim.var, d, func)) {
            dim.kind = Dim::Kind::PureRVar;
        }
    }
    return dims;
}

std::vector<Dim> default_dims(const std::vector<Expr> &args, const ReductionDomain &rdom) {
    std::vector<Dim> dims;
    if (rdom.defined()) {
        for (const ReductionVariable &rv : rdom.domain()) {
            Dim d;
            d.var = rv.var;
            // Order-dependent until shown otherwise (define_update refines this).
            d.kind = Dim::Kind::ImpureRVar;
            dims.push_back(d);
        }
    }
    std::set<std::string> seen;
    for (const Expr &a : args) {
        const Variable *v = a.as<Variable>();
        if (!v || v->param.defined() || v->reduction_domain.defined()) continue;
        if (!seen.insert(v->name).second) continue;
        Dim d;
        d.var = v->name;
        d.kind = Dim::Kind::PureVar;
        dims.push_back(d);
    }
    Dim outer;
    outer.var = outermost_name;
    outer.kind = Dim::Kind::PureVar;
    dims.push_back(outer);
    return dims;
}

namespace {

/// Calls `f` on every Expr a Function's algorithm and schedule hold.
template <typename F>
void for_each_expr(const Function &func, F f) {
    auto def_exprs = [&](const Definition &d) {
        for (const Expr &e : d.args) f(e);
        for (const Expr &e : d.values) f(e);
        f(d.predicate);
        if (d.rdom.defined()) {
            for (const ReductionVariable &rv : d.rdom.domain()) {
                f(rv.min);
                f(rv.extent);
            }
        }
        for (const ReductionVariable &rv : d.schedule.rvars) {
            f(rv.min);
            f(rv.extent);
        }
        for (const Split &s : d.schedule.splits) f(s.factor);
    };
    def_exprs(func.definition());
    for (const Definition &d : func.updates()) def_exprs(d);
    for (const Bound &b : func.schedule().bounds) {
        f(b.min);
        f(b.extent);
        f(b.modulus);
        f(b.remainder);
    }
}

} // namespace

std::map<std::string, Function> find_transitive_calls(const std::vector<Function> &outputs,
                                                      bool include_wrappers) {
    std::map<std::string, Function> env;
    std::vector<Function> pending;
    auto add = [&](const Function &f) {
        auto it = env.find(f.name());
        if (it == env.end()) {
            env.emplace(f.name(), f);
            pending.push_back(f);
        } else {
            user_assert(it->second.same_as(f))
                << "Can't compile a pipeline using two different Funcs with the same name \""
                << f.name() << "\". Give them distinct names.\n";
        }
    };
    for (const Function &f : outputs) {
        internal_assert(f.defined()) << "find_transitive_calls on an undefined Function\n";
        add(f);
    }
    while (!pending.empty()) {
        Function f = pending.back();
        pending.pop_back();
        for_each_expr(f, [&](const Expr &e) {
            if (!e.defined()) return;
            visit_exprs(e, [&](const Expr &x) {
                const Call *c = x.as<Call>();
                if (c && c->call_type == Call::Halide) add(Function(c->func));
                if (include_wrappers && c && c->call_type == Call::Image) {
                    for (const Function &w : parameter_wrappers(c->param)) add(w);
                }
                return true;
            });
        });
        if (include_wrappers) {
            for (const auto &kv : f.schedule().wrappers) add(Function(kv.second));
        }
    }
    return env;
}

int find_loop(const Function &f, const Definition &def, const std::string &name) {
    const std::vector<Dim> &dims = def.schedule.dims;
    for (size_t i = 0; i < dims.size(); i++) {
        if (dims[i].var == name) return (int)i;
    }
    // A short name never names an original loop: "x" is not the RVar "r.x". An RVar that an
    // intermediate of rfactor inherited from a split ("r.x.r_o") is named "r_o", as in Halide.
    std::set<std::string> originals(f.args().begin(), f.args().end());
    for (const ReductionVariable &rv : def.schedule.rvars) {
        if (rv.var.find('.') == rv.var.rfind('.')) originals.insert(rv.var);
    }
    for (size_t i = 0; i < dims.size(); i++) {
        const std::string &v = dims[i].var;
        if (!originals.count(v) && v.size() > name.size() &&
            v.compare(v.size() - name.size() - 1, std::string::npos, "." + name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

std::string loop_list(const Definition &def) {
    std::ostringstream os;
    bool first = true;
    const std::vector<Dim> &dims = def.schedule.dims;
    for (size_t i = dims.size(); i-- > 0;) {
        if (dims[i].var == "__outermost") continue;
        os << (first ? "" : ", ") << dims[i].var;
        first = false;
    }
    return first ? std::string("(none)") : os.str();
}

const Definition &stage_definition(const Function &f, int stage) {
    internal_assert(stage >= 0 && stage <= (int)f.updates().size())
        << "stage_definition: " << f.name() << " has no stage " << stage << "\n";
    return stage == 0 ? f.definition() : f.updates()[stage - 1];
}

int num_stages(const Function &f) { return 1 + (int)f.updates().size(); }

} // namespace internal
} // namespace loom
