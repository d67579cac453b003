#include <loom/argument.h>
#include <loom/buffer.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/var.h>

#include "ir/ir.h"
#include "ir/parameter.h"
#include "support/error.h"
#include "support/util.h"

#include <mutex>

namespace loom {
namespace internal {

namespace {

Parameter as_parameter(const IntrusivePtr<RefCounted> &contents) {
    Parameter p;
    p.contents = contents;
    return p;
}

/// Shape constraints are Int(32) like the shape itself; other integer types are cast to it.
Expr shape_expr(const Parameter &p, int d, const char *what, const Expr &e) {
    if (!e.defined()) return e;
    user_assert(e.type().is_scalar() && e.type().is_int_or_uint())
        << "The " << what << " of dimension " << d << " of \"" << p.name()
        << "\" must be an integer, not " << e.type() << ": " << e << "\n";
    return e.type() == Int(32) ? e : Cast::make(Int(32), e);
}

bool is_constant(const Expr &e) {
    return e.defined() && (e.as<IntImm>() || e.as<UIntImm>() ||
                           (e.as<Cast>() && is_constant(e.as<Cast>()->value)));
}

/// The Func an ImageParam converts to, made on first use and shared by copies.
struct ImageParamFunc : RefCounted {
    std::mutex lock;
    Func func;
    bool made = false;
};

} // namespace

// ---- Dimension ----

Dimension::Dimension(const Parameter &p, int d) : param(p.contents), d(d) {
    internal_assert(p.defined() && p.is_buffer()) << "Dimension of a non-buffer parameter\n";
}

Expr Dimension::min() const {
    Parameter p = as_parameter(param);
    return Variable::make(Int(32), p.name() + ".min." + std::to_string(d), p);
}

Expr Dimension::extent() const {
    Parameter p = as_parameter(param);
    return Variable::make(Int(32), p.name() + ".extent." + std::to_string(d), p);
}

Expr Dimension::max() const {
    // min + extent - 1, built directly so it matches Halide's Dimension::max() exactly.
    return Sub::make(Add::make(min(), extent()), make_one(Int(32)));
}

Expr Dimension::stride() const {
    Parameter p = as_parameter(param);
    return Variable::make(Int(32), p.name() + ".stride." + std::to_string(d), p);
}

Expr Dimension::min_estimate() const { return as_parameter(param).min_constraint_estimate(d); }

Expr Dimension::extent_estimate() const {
    return as_parameter(param).extent_constraint_estimate(d);
}

Dimension Dimension::set_min(const Expr &min) {
    Parameter p = as_parameter(param);
    Expr m = shape_expr(p, d, "min", min);
    // A constant constraint is also the best estimate, as in Halide.
    if (is_constant(m)) p.set_min_constraint_estimate(d, m);
    p.set_min_constraint(d, m);
    return *this;
}

Dimension Dimension::set_extent(const Expr &extent) {
    Parameter p = as_parameter(param);
    Expr e = shape_expr(p, d, "extent", extent);
    if (is_constant(e)) p.set_extent_constraint_estimate(d, e);
    p.set_extent_constraint(d, e);
    return *this;
}

Dimension Dimension::set_stride(const Expr &stride) {
    Parameter p = as_parameter(param);
    p.set_stride_constraint(d, shape_expr(p, d, "stride", stride));
    return *this;
}

Dimension Dimension::set_bounds(const Expr &min, const Expr &extent) {
    return set_min(min).set_extent(extent);
}

Dimension Dimension::set_estimate(const Expr &min, const Expr &extent) {
    Parameter p = as_parameter(param);
    p.set_min_constraint_estimate(d, shape_expr(p, d, "min estimate", min));
    p.set_extent_constraint_estimate(d, shape_expr(p, d, "extent estimate", extent));
    return *this;
}

Dimension Dimension::dim(int i) const {
    Parameter p = as_parameter(param);
    user_assert(i >= 0 && i < p.dimensions())
        << "Can't access dimension " << i << " of \"" << p.name() << "\", which has "
        << p.dimensions() << " dimensions.\n";
    return Dimension(p, i);
}

// ---- Call arguments ----

std::vector<Expr> check_call_args(const std::string &what, const std::string &name,
                                  std::vector<Expr> args, int dims) {
    // `_` stands for as many implicit vars _0, _1, ... as the call is short of dims (Halide).
    for (size_t i = 0; i < args.size(); i++) {
        const Variable *v = args[i].defined() ? args[i].as<Variable>() : nullptr;
        if (v && v->name == "_" && !v->param.defined() && !v->reduction_domain.defined()) {
            args.erase(args.begin() + i);
            int k = 0;
            while ((int)args.size() < dims) {
                args.insert(args.begin() + i + k, Variable::make(Int(32), "_" + std::to_string(k)));
                k++;
            }
            break;
        }
    }
    user_assert((int)args.size() == dims)
        << what << " \"" << name << "\" was called with " << args.size() << " argument"
        << (args.size() == 1 ? "" : "s") << ", but has " << dims << " dimension"
        << (dims == 1 ? "" : "s") << ".\n";
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined()) << "Argument " << i << " of the call to " << what << " \""
                                       << name << "\" is an undefined Expr.\n";
        Type t = args[i].type();
        if (t.is_float() || t.is_handle() || (t.is_uint() && t.bits() >= 32) ||
            (t.is_int() && t.bits() > 32)) {
            user_error << "Implicit cast from " << t << " to int in argument " << (i + 1)
                       << " in call to " << what << " \"" << name
                       << "\" is not allowed. Use an explicit cast.\n";
        }
        // Narrower integers (and bools) convert to Int(32) implicitly, as in Halide.
        if (t != Int(32)) args[i] = Cast::make(Int(32), args[i]);
    }
    return args;
}

} // namespace internal

// ---- OutputImageParam ----

OutputImageParam::OutputImageParam(const internal::Parameter &p, bool is_input)
    : contents(p.contents), is_input(is_input) {
    internal_assert(p.defined() && p.is_buffer())
        << "OutputImageParam made from a non-buffer parameter\n";
}

const std::string &OutputImageParam::name() const {
    user_assert(defined()) << "name() of an undefined ImageParam\n";
    return internal::as_parameter(contents).name();
}

Type OutputImageParam::type() const {
    user_assert(defined()) << "type() of an undefined ImageParam\n";
    return internal::as_parameter(contents).type();
}

int OutputImageParam::dimensions() const {
    user_assert(defined()) << "dimensions() of an undefined ImageParam\n";
    return internal::as_parameter(contents).dimensions();
}

void OutputImageParam::check_dim(int i) const {
    user_assert(defined()) << "Can't access dimension " << i << " of an undefined ImageParam\n";
    user_assert(i >= 0 && i < dimensions())
        << "Can't access dimension " << i << " of ImageParam \"" << name() << "\", which has "
        << dimensions() << " dimension" << (dimensions() == 1 ? "" : "s") << ".\n";
}

internal::Dimension OutputImageParam::dim(int i) {
    check_dim(i);
    return internal::Dimension(internal::as_parameter(contents), i);
}

const internal::Dimension OutputImageParam::dim(int i) const {
    check_dim(i);
    return internal::Dimension(internal::as_parameter(contents), i);
}

Expr OutputImageParam::left() const { return dim(0).min(); }
Expr OutputImageParam::right() const { return dim(0).max(); }
Expr OutputImageParam::top() const { return dim(1).min(); }
Expr OutputImageParam::bottom() const { return dim(1).max(); }
Expr OutputImageParam::width() const { return dim(0).extent(); }
Expr OutputImageParam::height() const { return dim(1).extent(); }
Expr OutputImageParam::channels() const { return dim(2).extent(); }

OutputImageParam &OutputImageParam::set_host_alignment(int bytes) {
    user_assert(bytes > 0 && (bytes & (bytes - 1)) == 0)
        << "The host alignment of \"" << name() << "\" must be a power of two, not " << bytes
        << ".\n";
    internal::as_parameter(contents).set_host_alignment(bytes);
    return *this;
}

int OutputImageParam::host_alignment() const {
    return internal::as_parameter(contents).host_alignment();
}

OutputImageParam &OutputImageParam::set_estimates(const Region &estimates) {
    user_assert((int)estimates.size() == dimensions())
        << "set_estimates of \"" << name() << "\" was given " << estimates.size() << " ranges for "
        << dimensions() << " dimensions.\n";
    for (size_t i = 0; i < estimates.size(); i++) {
        dim((int)i).set_estimate(estimates[i].min, estimates[i].extent);
    }
    return *this;
}

internal::Parameter OutputImageParam::parameter() const { return internal::as_parameter(contents); }

OutputImageParam::operator Argument() const { return Argument(parameter()); }

// ---- ImageParam ----

ImageParam::ImageParam(Type t, int dims, const std::string &name) {
    user_assert(t.is_scalar()) << "ImageParam \"" << name << "\" has vector type " << t
                               << "; buffer elements are scalars.\n";
    user_assert(dims >= 0) << "ImageParam \"" << name << "\" has a negative number of dimensions ("
                           << dims << ").\n";
    internal::Parameter p(t, /*is_buffer*/ true, dims,
                          name.empty() ? internal::unique_name('p') : name);
    contents = p.contents;
    is_input = true;
    func_cache = new internal::ImageParamFunc;
}

void ImageParam::set(const Buffer<void> &b) {
    user_assert(defined()) << "set() on an undefined ImageParam\n";
    if (b.defined()) {
        user_assert(Type(b.type()) == type())
            << "Can't bind ImageParam \"" << name() << "\" of type " << type() << " to Buffer \""
            << b.name() << "\" of type " << Type(b.type()) << ".\n";
        user_assert(b.dimensions() == dimensions())
            << "Can't bind ImageParam \"" << name() << "\" of " << dimensions()
            << " dimensions to Buffer \"" << b.name() << "\" of " << b.dimensions()
            << " dimensions.\n";
    }
    parameter().set_buffer(b);
}

Buffer<void> ImageParam::get() const {
    user_assert(defined()) << "get() on an undefined ImageParam\n";
    return parameter().buffer();
}

void ImageParam::reset() { set(Buffer<void>()); }

Expr ImageParam::operator()(std::vector<Expr> args) const {
    user_assert(defined()) << "Call to an undefined ImageParam\n";
    args = internal::check_call_args("ImageParam", name(), std::move(args), dimensions());
    return internal::Call::make(type(), name(), args, internal::Call::Image, nullptr, 0,
                                parameter());
}

Expr ImageParam::operator()(const std::vector<Var> &args) const {
    std::vector<Expr> exprs(args.begin(), args.end());
    return (*this)(exprs);
}

ImageParam::operator Func() const {
    user_assert(defined()) << "Can't make a Func from an undefined ImageParam\n";
    auto *cache = static_cast<internal::ImageParamFunc *>(func_cache.get());
    std::lock_guard<std::mutex> guard(cache->lock);
    if (!cache->made) {
        // f(_0, _1, ...) = im(_0, _1, ...), named as Halide names it: "<im>_im", or with a "$N"
        // suffix when a Func of that name exists already (Func's own naming rule).
        std::vector<Var> args;
        std::vector<Expr> call_args;
        for (int i = 0; i < dimensions(); i++) {
            args.push_back(Var::implicit(i));
            call_args.push_back(args.back());
        }
        Func f(name() + "_im");
        f(args) = (*this)(call_args);
        cache->func = f;
        cache->made = true;
    }
    return cache->func;
}

} // namespace loom
