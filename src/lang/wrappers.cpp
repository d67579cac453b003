// Func::in, Func::clone_in and ImageParam::in, and the substitution of wrappers at lowering
// (see wrappers.h).
#include "lang/wrappers.h"

#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "support/error.h"

#include <mutex>

namespace loom {

using namespace internal;

namespace {

/// The wrappers of inputs (ImageParam::in), by the input's Parameter contents. Entries are
/// never removed: a wrapper holds its Parameter, so the key stays valid, and the table keeps
/// the wrappers reachable for as long as the process runs (they are small).
struct ParamWrappers {
    std::mutex lock;
    std::map<const RefCounted *, std::map<std::string, IntrusivePtr<RefCounted>>> table;
};

ParamWrappers &param_wrappers() {
    static ParamWrappers *w = new ParamWrappers;
    return *w;
}

/// The weak handle calls to `f` from other Functions' definitions use when those Functions are
/// owned by f (its wrappers): a strong one would make f own itself through them.
IntrusivePtr<RefCounted> weak_handle(const Function &f) {
    FunctionContents *c = f.contents.get();
    if (!c->weak_self.defined() || c->weak_self->target != c) {
        c->weak_self = new WeakFunctionRef;
        c->weak_self->target = c;
    }
    return c->weak_self;
}

/// A new Func `name` defined as f's values at its own Vars (f called through `handle`).
Function make_identity_wrapper(const Function &f, const std::string &name,
                               const IntrusivePtr<RefCounted> &handle) {
    Function w(name);
    std::vector<Expr> args;
    for (const std::string &a : f.args()) args.push_back(Variable::make(Int(32), a));
    std::vector<Expr> values;
    for (int i = 0; i < f.outputs(); i++) {
        values.push_back(
            Call::make(f.output_types()[i], f.name(), args, Call::Halide, handle, i, Parameter()));
    }
    w.define(f.args(), values);
    return w;
}

/// Applies `fn` to every Expr of a definition (and its specializations), in place.
template <typename F>
void rewrite_definition(Definition &d, F fn) {
    for (Expr &e : d.args) e = fn(e);
    for (Expr &e : d.values) e = fn(e);
    if (d.predicate.defined()) d.predicate = fn(d.predicate);
    for (Specialization &s : d.specializations) {
        s.condition = fn(s.condition);
        rewrite_definition(s.definition, fn);
    }
}

template <typename F>
void rewrite_function(Function &f, F fn) {
    rewrite_definition(f.definition(), fn);
    for (Definition &u : f.updates()) rewrite_definition(u, fn);
}

/// A copy of f named `name` (algorithm and schedule as they are now, without f's wrappers),
/// whose calls to f itself call the copy.
Function copy_function(const Function &f, const std::string &name) {
    Function c;
    c.contents = new FunctionContents(*f.contents);
    c.contents->name = name;
    c.contents->schedule.wrappers.clear();
    c.contents->weak_self = IntrusivePtr<WeakFunctionRef>();
    c.contents->version = 0;
    IntrusivePtr<RefCounted> self = weak_handle(c);
    rewrite_function(c, [&](const Expr &e) -> Expr {
        if (!e.defined()) return e;
        return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
            const Call *call = x.as<Call>();
            if (!call || call->call_type != Call::Halide || !Function(call->func).same_as(f)) {
                return Expr();
            }
            return Call::make(call->type, name, call->args, Call::Halide, self, call->value_index,
                              call->param);
        });
    });
    return c;
}

void check_wrappable(const Function &f, const char *what) {
    user_assert(f.has_pure_definition())
        << "Can't call " << what << " on Func " << f.name() << " because it is not defined.\n";
}

/// The wrapper of f stored under `key`, made by `make` when there is none.
template <typename Make>
Func find_or_make(const Function &f, const std::string &key, Make make) {
    auto &ws = f.contents->schedule.wrappers;
    auto it = ws.find(key);
    if (it != ws.end()) return Func(Function(it->second));
    Function w = make();
    ws[key] = w.get_contents();
    Function(f).touch();
    return Func(w);
}

std::string joined_names(const std::vector<Func> &fs) {
    std::string s;
    for (const Func &g : fs) s += (s.empty() ? "" : "_") + g.name();
    return s;
}

} // namespace

// ---- Func ----

Func Func::in(const Func &g) {
    Function f = function();
    check_wrappable(f, "in()");
    user_assert(!f.same_as(g.function()))
        << "Func " << name() << " can't be wrapped in itself: " << name() << ".in(" << name()
        << "). Wrap it in one of the Funcs that call it.\n";
    return find_or_make(f, g.name(), [&] {
        return make_identity_wrapper(f, name() + "_in_" + g.name(), weak_handle(f));
    });
}

Func Func::in(const std::vector<Func> &fs) {
    Function f = function();
    check_wrappable(f, "in()");
    user_assert(!fs.empty()) << "Func " << name() << ".in() was given an empty list of Funcs. "
                             << "Use in() with no argument to wrap it for every caller.\n";
    for (const Func &g : fs) {
        user_assert(!f.same_as(g.function()))
            << "Func " << name() << " can't be wrapped in itself (it is in the list passed to "
            << name() << ".in()).\n";
    }
    // One wrapper for all of them: an existing wrapper of any of them is reused (as Halide).
    auto &ws = f.contents->schedule.wrappers;
    IntrusivePtr<RefCounted> w;
    for (const Func &g : fs) {
        auto it = ws.find(g.name());
        if (it != ws.end()) {
            w = it->second;
            break;
        }
    }
    if (!w.defined()) w = make_identity_wrapper(f, name() + "_wrapper", weak_handle(f)).contents;
    for (const Func &g : fs) ws[g.name()] = w;
    f.touch();
    return Func(Function(w));
}

Func Func::in() {
    Function f = function();
    check_wrappable(f, "in()");
    return find_or_make(f, "", [&] {
        return make_identity_wrapper(f, name() + "_global_wrapper", weak_handle(f));
    });
}

Func Func::clone_in(const Func &g) { return clone_in(std::vector<Func>{g}); }

Func Func::clone_in(const std::vector<Func> &fs) {
    Function f = function();
    check_wrappable(f, "clone_in()");
    user_assert(!fs.empty()) << "Func " << name() << ".clone_in() was given an empty list of "
                             << "Funcs.\n";
    user_assert(!f.has_extern_definition())
        << "Can't clone_in Func " << name() << ": it is an extern stage.\n";
    for (const Func &g : fs) {
        user_assert(!f.same_as(g.function()))
            << "Func " << name() << " can't be cloned into itself. Clone it into one of the "
            << "Funcs that call it.\n";
    }
    auto &ws = f.contents->schedule.wrappers;
    auto it = ws.find(fs[0].name());
    if (it != ws.end()) return Func(Function(it->second));
    Function c = copy_function(f, name() + "_clone_in_" + joined_names(fs));
    for (const Func &g : fs) ws[g.name()] = c.get_contents();
    f.touch();
    return Func(c);
}

// ---- ImageParam ----

namespace {

Func param_wrapper(const ImageParam &im, const std::vector<std::string> &keys,
                   const std::string &suffix) {
    user_assert(im.defined()) << "Can't call in() on an undefined ImageParam.\n";
    Parameter p = im.parameter();
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    auto &ws = pw.table[p.contents.get()];
    for (const std::string &k : keys) {
        auto it = ws.find(k);
        if (it != ws.end()) {
            for (const std::string &k2 : keys) ws[k2] = it->second;
            return Func(Function(it->second));
        }
    }
    // w(_0, _1, ...) = im(_0, _1, ...), named as Halide names it (its input Func is
    // "<im>_im").
    Function w(im.name() + "_im" + suffix);
    std::vector<std::string> names;
    std::vector<Expr> args;
    for (int i = 0; i < im.dimensions(); i++) {
        names.push_back(Var::implicit(i).name());
        args.push_back(Variable::make(Int(32), names.back()));
    }
    w.define(names, {im(args)});
    for (const std::string &k : keys) ws[k] = w.get_contents();
    return Func(w);
}

} // namespace

Func ImageParam::in(const Func &f) { return param_wrapper(*this, {f.name()}, "_in_" + f.name()); }

Func ImageParam::in(const std::vector<Func> &fs) {
    user_assert(!fs.empty()) << "ImageParam " << name() << ".in() was given an empty list of "
                             << "Funcs. Use in() with no argument to wrap it for every caller.\n";
    std::vector<std::string> keys;
    for (const Func &f : fs) keys.push_back(f.name());
    return param_wrapper(*this, keys, "_wrapper");
}

Func ImageParam::in() { return param_wrapper(*this, {""}, "_global_wrapper"); }

// ---- Lowering ----

namespace internal {

std::vector<Function> parameter_wrappers(const Parameter &p) {
    std::vector<Function> result;
    if (!p.defined()) return result;
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    auto it = pw.table.find(p.contents.get());
    if (it == pw.table.end()) return result;
    for (const auto &kv : it->second) result.push_back(Function(kv.second));
    return result;
}

std::map<std::string, Function> parameter_wrapper_map(const Parameter &p) {
    std::map<std::string, Function> result;
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    auto it = pw.table.find(p.contents.get());
    if (it == pw.table.end()) return result;
    for (const auto &kv : it->second) result.emplace(kv.first, Function(kv.second));
    return result;
}

void add_parameter_wrapper(const Parameter &p, const std::string &key, const Function &w) {
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    pw.table[p.contents.get()].emplace(key, w.get_contents());
}

namespace {

/// The wrapper that replaces a call to `callee` from `caller` (undefined when none), among
/// `ws` (callee's wrappers by caller name, "" for all).
Function choose_wrapper(const std::map<std::string, IntrusivePtr<RefCounted>> &ws,
                        const Function &caller) {
    if (ws.empty()) return Function();
    // A wrapper's own reads of what it wraps stay as they are.
    for (const auto &kv : ws) {
        if (kv.second.get() == caller.contents.get()) return Function();
    }
    auto it = ws.find(caller.name());
    if (it == ws.end()) it = ws.find("");
    return it == ws.end() ? Function() : Function(it->second);
}

std::map<std::string, IntrusivePtr<RefCounted>> wrappers_of_param(const Parameter &p) {
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    auto it = pw.table.find(p.contents.get());
    return it == pw.table.end() ? std::map<std::string, IntrusivePtr<RefCounted>>() : it->second;
}

/// Makes the copies (one per Function reached), calls rewritten to the copies of their
/// targets or of the wrappers that replace them.
class Substituter {
public:
    Function copy_of(const Function &orig) {
        auto it = copies.find(orig.contents.get());
        if (it != copies.end()) return it->second;
        Function c;
        c.contents = new FunctionContents(*orig.contents);
        c.contents->schedule.wrappers.clear();
        c.contents->weak_self = IntrusivePtr<WeakFunctionRef>();
        copies[orig.contents.get()] = c;
        IntrusivePtr<RefCounted> self = weak_handle(c);
        rewrite_function(c, [&](const Expr &e) { return rewrite(e, orig, c, self); });
        for (ExternFuncArgument &a : c.contents->extern_def.args) {
            if (a.is_func()) a.func = copy_of(Function(a.func)).get_contents();
            if (a.expr.defined()) a.expr = rewrite(a.expr, orig, c, self);
        }
        return c;
    }

private:
    Expr rewrite(const Expr &e, const Function &orig, const Function &copy,
                 const IntrusivePtr<RefCounted> &self) {
        if (!e.defined()) return e;
        return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
            const Call *call = x.as<Call>();
            if (!call) return Expr();
            if (call->call_type == Call::Halide) {
                Function callee(call->func);
                if (callee.same_as(orig)) {
                    return Call::make(call->type, copy.name(), call->args, Call::Halide, self,
                                      call->value_index, call->param);
                }
                Function target = choose_wrapper(callee.schedule().wrappers, orig);
                Function t = copy_of(target.defined() ? target : callee);
                return Call::make(call->type, t.name(), call->args, Call::Halide, t.get_contents(),
                                  call->value_index, call->param);
            }
            if (call->call_type == Call::Image && call->param.defined()) {
                Function target = choose_wrapper(wrappers_of_param(call->param), orig);
                if (!target.defined()) return Expr();
                Function t = copy_of(target);
                return Call::make(call->type, t.name(), call->args, Call::Halide, t.get_contents(),
                                  0, Parameter());
            }
            return Expr();
        });
    }

    std::map<const RefCounted *, Function> copies;
};

bool any_wrappers(const std::map<std::string, Function> &env) {
    for (const auto &kv : env) {
        if (!kv.second.schedule().wrappers.empty()) return true;
    }
    ParamWrappers &pw = param_wrappers();
    std::lock_guard<std::mutex> guard(pw.lock);
    return !pw.table.empty();
}

} // namespace

std::vector<Function> substitute_wrappers(const std::vector<Function> &outputs,
                                          std::map<std::string, Function> *env) {
    *env = find_transitive_calls(outputs, /*include_wrappers=*/false);
    if (!any_wrappers(*env)) return outputs;
    Substituter s;
    std::vector<Function> result;
    for (const Function &o : outputs) result.push_back(s.copy_of(o));
    *env = find_transitive_calls(result, /*include_wrappers=*/false);
    return result;
}

} // namespace internal
} // namespace loom
