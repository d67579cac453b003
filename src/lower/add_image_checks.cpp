#include "lower/add_image_checks.h"

#include <loom/ir_operator.h>

#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "lower/lower_utils.h"
#include "lower/output_buffers.h"
#include "lower/required_regions.h"
#include "support/error.h"

#include <sstream>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }
Expr str(const std::string &s) { return Expr(s); }

std::string to_text(const Expr &e) {
    std::ostringstream os;
    os << e;
    return os.str();
}

Expr packed_type(Type t) {
    uint32_t v = (uint32_t)t.code() | ((uint32_t)t.bits() << 8) | ((uint32_t)t.lanes() << 16);
    return make_const(UInt(32), (uint64_t)v);
}

Expr field(const std::string &b, const char *f, int d) {
    return var(b + "." + f + "." + std::to_string(d));
}

/// min_value/max_value checks of a scalar Param.
void add_param_checks(const LoweredArgument &a, std::vector<Stmt> &checks) {
    const Parameter &p = a.param;
    if (!p.defined()) return;
    Type t = a.type;
    Type wide = t.is_float() ? Float(64) : t.is_int() ? Int(64) : UInt(64);
    const char *suffix = t.is_float() ? "f64" : t.is_int() ? "i64" : "u64";
    Expr value = Variable::make(t, a.name, p);
    if (Expr mn = p.min_value(); mn.defined()) {
        if (mn.type() != t) mn = Cast::make(t, mn);
        checks.push_back(AssertStmt::make(
            value >= mn,
            runtime_error_call(std::string("halide_error_param_too_small_") + suffix,
                               {str(a.name), Cast::make(wide, value), Cast::make(wide, mn)})));
    }
    if (Expr mx = p.max_value(); mx.defined()) {
        if (mx.type() != t) mx = Cast::make(t, mx);
        checks.push_back(AssertStmt::make(
            value <= mx,
            runtime_error_call(std::string("halide_error_param_too_large_") + suffix,
                               {str(a.name), Cast::make(wide, value), Cast::make(wide, mx)})));
    }
}

} // namespace

Stmt add_image_checks(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const std::vector<Function> &outputs,
                      const std::vector<Requirement> &requirements,
                      const ImageCheckOptions &options, const FuncValueBounds &func_bounds) {
    std::vector<std::string> inputs;
    for (const LoweredArgument &a : args) {
        if (a.kind == LoweredArgument::InputBuffer) inputs.push_back(a.name);
    }
    std::map<std::string, Box> regions = buffer_regions_required(s, inputs, outputs, func_bounds);

    // The Parameter carrying each buffer's constraints (outputs: Func::output_buffer()).
    std::map<std::string, Parameter> buffer_params;
    for (const LoweredArgument &a : args) {
        if (a.kind == LoweredArgument::InputBuffer) buffer_params[a.name] = a.param;
    }
    for (const Function &o : outputs) {
        for (int i = 0; i < o.outputs(); i++) {
            buffer_params[output_buffer_name(o, i)] = find_output_buffer_parameter(o, i);
        }
    }

    std::vector<Stmt> entry;                                 // 1: checks on the raw handles
    std::vector<std::pair<std::string, Expr>> required_lets; // 2
    std::vector<Stmt> query;                                 // 3
    std::vector<Stmt> checks;                                // 4
    Expr any_query;
    std::map<std::string, Expr> facts; // constrained buffer fields and their values

    for (const auto &req : requirements) {
        Expr message = req.error_args.empty()
                           ? str("")
                           : Call::make(Handle(), Call::stringify, req.error_args, Call::Intrinsic);
        checks.push_back(AssertStmt::make(
            req.condition, runtime_error_call("halide_error_requirement_failed",
                                              {str(to_text(req.condition)), message})));
    }

    for (const LoweredArgument &a : args) {
        if (!a.is_buffer()) {
            add_param_checks(a, checks);
            continue;
        }
        const std::string &b = a.name;
        // The type, dimension and region messages name the buffer as Halide's do ("Input buffer
        // in", "Output buffer f"); the others say "buffer <name>" themselves.
        const Expr described =
            str((a.kind == LoweredArgument::OutputBuffer ? "Output buffer " : "Input buffer ") + b);
        Expr handle = buffer_handle(b);
        entry.push_back(
            AssertStmt::make(NE::make(Reinterpret::make(UInt(64), handle), make_zero(UInt(64))),
                             runtime_error_call("halide_error_buffer_argument_is_null", {str(b)})));
        Expr type = Call::make(UInt(32), Call::buffer_get_type, {handle}, Call::PureIntrinsic);
        entry.push_back(AssertStmt::make(
            type == packed_type(a.type),
            runtime_error_call("halide_error_bad_type", {described, type, packed_type(a.type)})));
        Expr dims = Call::make(Int(32), Call::buffer_get_dimensions, {handle}, Call::PureIntrinsic);
        entry.push_back(AssertStmt::make(
            dims == a.dimensions, runtime_error_call("halide_error_bad_dimensions",
                                                     {described, dims, Expr(a.dimensions)})));

        if (!options.device_support) {
            Expr device_dirty =
                Call::make(Bool(), "_halide_buffer_get_device_dirty", {handle}, Call::Extern);
            checks.push_back(AssertStmt::make(
                !device_dirty,
                runtime_error_call("halide_error_device_dirty_with_no_device_support", {str(b)})));
        }

        Expr is_query =
            Call::make(Bool(), Call::buffer_is_bounds_query, {handle}, Call::PureIntrinsic);
        any_query = any_query.defined() ? Or::make(any_query, is_query) : is_query;

        const Box &region = regions.count(b) ? regions.at(b) : Box();
        std::vector<Stmt> set_bounds;
        for (int d = 0; d < a.dimensions; d++) {
            Expr mn = field(b, "min", d), ext = field(b, "extent", d), st = field(b, "stride", d);
            Expr max = mn + ext - 1;
            if (!region.empty()) {
                std::string base = b + ".min." + std::to_string(d) + ".required";
                std::string ebase = b + ".extent." + std::to_string(d) + ".required";
                required_lets.emplace_back(base, region[d].min);
                required_lets.emplace_back(ebase, (region[d].max + 1) - region[d].min);
                Expr rmin = var(base), rext = var(ebase), rmax = rmin + rext - 1;
                // A query answers the required region, adjusted to the buffer's constraints
                // (a fixed min or extent), so the answer passes the checks below.
                Expr qmin = rmin, qext = rext;
                const Parameter &qp = buffer_params[b];
                auto usable = [&](const Expr &c) {
                    return c.defined() && !expr_uses_var(c, b + ".min." + std::to_string(d)) &&
                           !expr_uses_var(c, b + ".extent." + std::to_string(d));
                };
                if (qp.defined() && usable(qp.min_constraint(d))) {
                    Expr c = qp.min_constraint(d);
                    qmin = c.type() == Int(32) ? c : Cast::make(Int(32), c);
                    qext = rmax + 1 - qmin;
                }
                if (qp.defined() && usable(qp.extent_constraint(d))) {
                    Expr c = qp.extent_constraint(d);
                    qext = c.type() == Int(32) ? c : Cast::make(Int(32), c);
                }
                set_bounds.push_back(
                    Evaluate::make(Call::make(Int(32), Call::buffer_set_bounds,
                                              {handle, Expr(d), qmin, qext}, Call::Intrinsic)));
                // An empty required region needs nothing of the buffer.
                Expr ok = rext <= 0 || (mn <= rmin && rmax <= max);
                checks.push_back(AssertStmt::make(
                    ok, runtime_error_call("halide_error_access_out_of_bounds",
                                           {described, Expr(d), rmin, rmax, mn, max})));
            }
            checks.push_back(AssertStmt::make(
                ext >= 0, runtime_error_call("halide_error_buffer_extents_negative",
                                             {str(b), Expr(d), ext})));
            const Parameter &p = buffer_params[b];
            // Halide's default: an output's innermost dimension is dense unless the user's
            // output_buffer() says otherwise (inputs: their ImageParam decides).
            Expr default_stride =
                (!p.defined() && a.kind == LoweredArgument::OutputBuffer && d == 0) ? Expr(1)
                                                                                    : Expr();
            if (p.defined() || default_stride.defined()) {
                const std::pair<Expr, Expr> constraints[] = {
                    {mn, p.defined() ? p.min_constraint(d) : Expr()},
                    {ext, p.defined() ? p.extent_constraint(d) : Expr()},
                    {st, p.defined() ? p.stride_constraint(d) : default_stride}};
                for (const auto &c : constraints) {
                    if (!c.second.defined()) continue;
                    Expr want =
                        c.second.type() == Int(32) ? c.second : Cast::make(Int(32), c.second);
                    const std::string &name = c.first.as<Variable>()->name;
                    checks.push_back(AssertStmt::make(
                        c.first == want,
                        runtime_error_call("halide_error_constraint_violated",
                                           {str(name), c.first, str(to_text(want)), want})));
                    // Checked at entry, so the body may rely on it (a constant stride of 1
                    // makes loads dense).
                    if (!expr_uses_var(want, name)) facts[name] = want;
                }
            }
            // Sizes: the span of each dimension, and the element count, fit in 2^31 - 1.
            Expr max_size = make_const(Int(64), (int64_t)0x7fffffff);
            Expr span = Cast::make(Int(64), ext) * Cast::make(Int(64), st);
            span = Select::make(span < make_zero(Int(64)), make_zero(Int(64)) - span, span);
            checks.push_back(AssertStmt::make(
                span <= max_size, runtime_error_call("halide_error_buffer_allocation_too_large",
                                                     {str(b), Cast::make(UInt(64), span),
                                                      Cast::make(UInt(64), max_size)})));
        }
        // set_host_alignment promises more than the element size: code generation relies on
        // it (aligned vector loads and stores), so a buffer that breaks it is refused here.
        const Parameter &aligned = buffer_params[b];
        if (aligned.defined() && aligned.host_alignment() > a.type.bytes()) {
            Expr host = Call::make(Handle(), Call::buffer_get_host, {handle}, Call::PureIntrinsic);
            Expr alignment = make_const(UInt(64), (int64_t)aligned.host_alignment());
            checks.push_back(AssertStmt::make(
                Reinterpret::make(UInt(64), host) % alignment == make_zero(UInt(64)),
                runtime_error_call("halide_error_unaligned_host_ptr",
                                   {str(b), Expr(aligned.host_alignment())})));
        }
        if (a.dimensions > 1) {
            Expr count = Cast::make(Int(64), field(b, "extent", 0));
            for (int d = 1; d < a.dimensions; d++) {
                count = count * Cast::make(Int(64), field(b, "extent", d));
            }
            checks.push_back(AssertStmt::make(
                count <= make_const(Int(64), (int64_t)0x7fffffff),
                runtime_error_call("halide_error_buffer_extents_too_large",
                                   {str(b), count, make_const(Int(64), (int64_t)0x7fffffff)})));
        }
        if (!set_bounds.empty()) {
            set_bounds.push_back(Evaluate::make(
                Call::make(Int(32), Call::buffer_init_strides, {handle}, Call::Intrinsic)));
            query.push_back(IfThenElse::make(is_query, Block::make(set_bounds)));
        }
    }

    Stmt body = options.asserts ? substitute(facts, s) : s;
    if (options.asserts) {
        checks.push_back(body);
        body = Block::make(checks);
    }
    if (options.bounds_query && any_query.defined()) {
        Stmt q = query.empty() ? Evaluate::make(0) : Block::make(query);
        body = IfThenElse::make(any_query, q, body);
    }
    for (auto it = required_lets.rbegin(); it != required_lets.rend(); ++it) {
        body = LetStmt::make(it->first, it->second, body);
    }
    if (options.asserts) {
        entry.push_back(body);
        body = Block::make(entry);
    }
    return body;
}

} // namespace internal
} // namespace loom
