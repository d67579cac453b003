// The front end of external code: Func::define_extern and its queries, ExternFuncArgument's
// conversions, the HalideExtern helpers and JITExtern's unsupported forms.
#include <loom/extern.h>
#include <loom/func.h>
#include <loom/image_param.h>

#include "ir/ir.h"
#include "lang/extern_definition.h"
#include "lang/function.h"
#include "support/error.h"

#include <set>

namespace loom {

using namespace internal;

namespace internal {

Expr make_extern_call(const Type &t, const std::string &name, const std::vector<Expr> &args,
                      bool pure) {
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined()) << "Argument " << i + 1 << " of the call to extern function "
                                       << name << " is undefined.\n";
    }
    return Call::make(t, name, args, pure ? Call::PureExtern : Call::Extern);
}

void check_extern_arg_type(const Type &expected, const char *fn, const Expr &arg, int n) {
    user_assert(arg.defined()) << "Argument " << n << " to extern function " << fn
                               << " is undefined.\n";
    user_assert(arg.type() == expected)
        << "Type mismatch for argument " << n << " to extern function " << fn
        << ". Type expected is " << expected << " but the argument " << arg << " has type "
        << arg.type() << ".\n";
}

std::string extern_query_bound(const std::string &f, int arg, bool is_max, int d) {
    return f + ".extern.a" + std::to_string(arg) + (is_max ? ".max." : ".min.") + std::to_string(d);
}

Parameter extern_buffer_parameter(const ExternFuncArgument &a) {
    if (a.is_image_param()) {
        Parameter p;
        p.contents = a.image_param;
        return p;
    }
    internal_assert(a.is_buffer()) << "extern_buffer_parameter of a non-buffer argument\n";
    // The Parameter a Buffer is read through in the IR: the one its calls carry.
    std::vector<Expr> zeros(a.buffer.dimensions(), Expr(0));
    Expr call = a.buffer(zeros);
    const Call *c = call.as<Call>();
    internal_assert(c && c->call_type == Call::Image) << "A Buffer call is not an Image call\n";
    return c->param;
}

std::vector<Expr> extern_region_reads(const Function &f) {
    std::vector<Expr> reads;
    const std::vector<ExternFuncArgument> &args = f.extern_definition().args;
    for (int i = 0; i < (int)args.size(); i++) {
        const ExternFuncArgument &a = args[i];
        if (a.is_expr()) continue;
        auto corner = [&](bool is_max, int dims) {
            std::vector<Expr> coords;
            for (int d = 0; d < dims; d++) {
                coords.push_back(
                    Variable::make(Int(32), extern_query_bound(f.name(), i, is_max, d)));
            }
            return coords;
        };
        if (!a.is_func()) continue;
        Function g(a.func);
        for (bool is_max : {false, true}) {
            for (int k = 0; k < g.outputs(); k++) {
                reads.push_back(g.make_call(corner(is_max, g.dimensions()), k));
            }
        }
    }
    return reads;
}

Expr extern_buffer_handle(const ExternFuncArgument &a) {
    Parameter p = extern_buffer_parameter(a);
    return Variable::make(Handle(), p.name() + ".buffer", p);
}

std::vector<Expr> extern_placeholder_values(const Function &f) {
    std::vector<Expr> marker_args = extern_region_reads(f);
    for (const ExternFuncArgument &a : f.extern_definition().args) {
        if (a.is_expr()) marker_args.push_back(a.expr);
        if (a.is_buffer() || a.is_image_param()) marker_args.push_back(extern_buffer_handle(a));
    }
    std::vector<Expr> values;
    for (const Type &t : f.output_types()) {
        values.push_back(Call::make(t, extern_stage_marker, marker_args, Call::Intrinsic));
    }
    return values;
}

} // namespace internal

ExternFuncArgument::ExternFuncArgument(const Func &f)
    : arg_type(FuncArg), func(f.function().get_contents()) {}

ExternFuncArgument::ExternFuncArgument(Expr e) : arg_type(ExprArg), expr(std::move(e)) {}

ExternFuncArgument::ExternFuncArgument(int e) : arg_type(ExprArg), expr(e) {}

ExternFuncArgument::ExternFuncArgument(float e) : arg_type(ExprArg), expr(e) {}

ExternFuncArgument::ExternFuncArgument(const OutputImageParam &p)
    : arg_type(ImageParamArg), image_param(p.parameter().contents) {}

ExternFuncArgument::ExternFuncArgument(const Parameter &p)
    : arg_type(ImageParamArg), image_param(p.contents) {
    user_assert(p.defined() && p.is_buffer())
        << "An extern stage's Parameter argument must be a buffer parameter (scalar Params are "
           "passed as Exprs).\n";
}

JITExtern::JITExtern(const Pipeline &) {
    user_error << "JITExtern from a Pipeline is not supported by Loom yet; pass a C function "
                  "pointer instead.\n";
}

JITExtern::JITExtern(const Func &func) {
    user_error << "JITExtern from a Func (" << func.name()
               << ") is not supported by Loom yet; pass a C function pointer instead.\n";
}

namespace {

std::string dimension_name(int d) { return Var::implicit(d).name(); }

} // namespace

void Func::define_extern(const std::string &function_name,
                         const std::vector<ExternFuncArgument> &params, Type t, int dimensionality,
                         NameMangling mangling, DeviceAPI device_api) {
    define_extern(function_name, params, std::vector<Type>{t}, dimensionality, mangling,
                  device_api);
}

void Func::define_extern(const std::string &function_name,
                         const std::vector<ExternFuncArgument> &params,
                         const std::vector<Type> &types, int dimensionality, NameMangling mangling,
                         DeviceAPI device_api) {
    user_assert(dimensionality >= 0) << "In extern definition for Func \"" << name()
                                     << "\": the dimensionality can't be negative.\n";
    std::vector<Var> args;
    for (int d = 0; d < dimensionality; d++) args.push_back(Var(dimension_name(d)));
    define_extern(function_name, params, types, args, mangling, device_api);
}

void Func::define_extern(const std::string &function_name,
                         const std::vector<ExternFuncArgument> &params, Type t,
                         const std::vector<Var> &arguments, NameMangling mangling,
                         DeviceAPI device_api) {
    define_extern(function_name, params, std::vector<Type>{t}, arguments, mangling, device_api);
}

void Func::define_extern(const std::string &function_name,
                         const std::vector<ExternFuncArgument> &params,
                         const std::vector<Type> &types, const std::vector<Var> &arguments,
                         NameMangling mangling, DeviceAPI device_api) {
    Function f = function();
    const std::string where = "In extern definition for Func \"" + f.name() + "\":\n";
    user_assert(!f.has_extern_definition())
        << where << "Func already has an extern definition (calling "
        << f.extern_definition().function_name << "); a Func can have only one.\n";
    user_assert(!f.has_pure_definition())
        << where << "Func with a pure definition cannot have an extern definition.\n";
    user_assert(!function_name.empty()) << where << "The extern function's name is empty.\n";
    user_assert(!types.empty()) << where << "An extern stage needs at least one output type.\n";
    std::set<std::string> seen;
    std::vector<std::string> arg_names;
    for (const Var &v : arguments) {
        user_assert(seen.insert(v.name()).second)
            << where << "The Var " << v.name() << " appears more than once among its arguments.\n";
        arg_names.push_back(v.name());
    }
    if (!f.required_types().empty()) {
        user_assert(f.required_types() == types)
            << where << "The types given do not match the types the Func was declared with.\n";
    }
    if (f.required_dimensions() >= 0) {
        user_assert(f.required_dimensions() == (int)arguments.size())
            << where << "The Func was declared with " << f.required_dimensions()
            << " dimension(s), but the extern definition has " << arguments.size() << ".\n";
    }
    for (size_t i = 0; i < params.size(); i++) {
        const ExternFuncArgument &p = params[i];
        user_assert(p.defined()) << where << "Argument " << i << " is undefined.\n";
        if (p.is_func()) {
            Function g(p.func);
            user_assert(!g.same_as(f))
                << where << "Argument " << i << " is the Func itself; an extern stage can't read "
                << "its own output.\n";
            user_assert(g.has_pure_definition())
                << where << "Argument " << i << " is the Func \"" << g.name()
                << "\", which has no definition yet. Define it before passing it to an extern "
                   "stage.\n";
        } else if (p.is_expr()) {
            user_assert(p.expr.defined())
                << where << "Argument " << i << " is an undefined Expr.\n";
            user_assert(p.expr.type().is_scalar())
                << where << "Argument " << i << " (" << p.expr
                << ") is a vector; extern stages take scalars and buffers.\n";
        } else if (p.is_buffer()) {
            user_assert(p.buffer.defined())
                << where << "Argument " << i << " is an undefined Buffer.\n";
        } else {
            Parameter q;
            q.contents = p.image_param;
            user_assert(q.defined() && q.is_buffer())
                << where << "Argument " << i << " is not a buffer parameter.\n";
        }
    }

    ExternDefinition &ext = f.contents->extern_def;
    ext.function_name = function_name;
    ext.args = params;
    ext.mangling = mangling;
    ext.device_api = device_api;
    f.contents->args = arg_names;
    f.contents->output_types = types;
    Definition &d = f.contents->init_def;
    d = Definition();
    for (const std::string &a : arg_names) d.args.push_back(Variable::make(Int(32), a));
    d.values = extern_placeholder_values(f);
    d.predicate = const_true();
    d.schedule.dims = default_dims(d.args, d.rdom);
    f.touch();
}

bool Func::is_extern() const { return function().has_extern_definition(); }

const std::string &Func::extern_function_name() const { return function().extern_function_name(); }

} // namespace loom
