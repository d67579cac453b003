#include "lower/storage_flattening.h"

#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "lower/output_buffers.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// The type elements of type t are stored as.
Type storage_type(Type t) { return t.is_bool() ? UInt(8, t.lanes()) : t; }

bool is_undef(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(Call::undef);
}

/// A stored value with the undef branches of its selects taken out: `value` is what to store
/// (undefined when the whole value is undef) and `where` the condition under which to store it
/// (undefined: always). select(c, undef, v) stores v where !c, as in Halide.
struct DefinedPart {
    Expr value, where;
};

std::string describe_condition(const Expr &where) {
    std::ostringstream os;
    if (where.defined()) {
        os << where;
    } else {
        os << "(always)";
    }
    return os.str();
}

DefinedPart strip_undef_selects(const Expr &e) {
    if (is_undef(e)) return {Expr(), const_false(e.type().lanes())};
    if (const Let *let = e.as<Let>()) {
        // Lets that earlier passes put around the value (inlined Funcs' shared terms) go
        // around both parts.
        DefinedPart body = strip_undef_selects(let->body);
        if (!body.where.defined()) return {e, Expr()};
        auto wrap = [&](const Expr &x) {
            return x.defined() && expr_uses_var(x, let->name) ? Let::make(let->name, let->value, x)
                                                              : x;
        };
        return {wrap(body.value), wrap(body.where)};
    }
    const Select *s = e.as<Select>();
    if (!s) return {e, Expr()};
    DefinedPart t = strip_undef_selects(s->true_value);
    DefinedPart f = strip_undef_selects(s->false_value);
    if (!t.where.defined() && !f.where.defined()) return {e, Expr()};
    DefinedPart r;
    if (!t.value.defined()) {
        r.value = f.value;
    } else if (!f.value.defined()) {
        r.value = t.value;
    } else {
        r.value = Select::make(s->condition, t.value, f.value);
    }
    const int lanes = s->condition.type().lanes();
    Expr tw = t.where.defined() ? t.where : const_true(lanes);
    Expr fw = f.where.defined() ? f.where : const_true(lanes);
    if (is_const_true(tw) && is_const_false(fw)) {
        r.where = s->condition;
    } else if (is_const_false(tw) && is_const_true(fw)) {
        r.where = Not::make(s->condition);
    } else {
        r.where = Select::make(s->condition, tw, fw);
    }
    return r;
}

class FlattenStorage : public IRMutator {
public:
    FlattenStorage(const std::vector<Function> &outputs, const std::map<std::string, Function> &env)
        : env(env) {
        for (const Function &o : outputs) output_funcs[o.name()] = o;
    }

protected:
    using IRMutator::visit;

    /// The dense layout of one realization in scope.
    struct Layout {
        std::vector<Expr> mins, strides;
    };
    std::map<std::string, std::vector<Layout>> layouts;

    Stmt visit(const Realize *op) override {
        if (output_funcs.count(op->name)) {
            // Outputs are stored in their buffers: nothing to allocate.
            return mutate(op->body);
        }
        // Dense, in the storage order (reorder_storage; innermost first): the first dimension
        // of that order has stride 1, each next one the product of the extents before it.
        std::vector<int> order = storage_order(op->name, (int)op->bounds.size());
        Layout l;
        l.mins.resize(op->bounds.size());
        l.strides.resize(op->bounds.size());
        Expr stride = 1;
        std::vector<Expr> extents;
        for (int d : order) {
            const Range &r = op->bounds[d];
            l.mins[d] = r.min;
            l.strides[d] = stride;
            stride = stride * r.extent;
            extents.push_back(r.extent);
        }
        layouts[op->name].push_back(l);
        Stmt body = mutate(op->body);
        layouts[op->name].pop_back();

        for (int i = (int)op->types.size() - 1; i >= 0; i--) {
            body = Allocate::make(buffer_name(op->name, i), storage_type(op->types[i]),
                                  op->memory_type, extents, op->condition, body);
        }
        return body;
    }

    Stmt visit(const Provide *op) override {
        std::vector<Expr> values = mutate(op->values);
        std::vector<Expr> args = mutate(op->args);
        std::vector<Stmt> stores;
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<DefinedPart> parts;
        int defined_values = 0;
        const DefinedPart *conditional = nullptr;
        for (const Expr &v : values) {
            parts.push_back(strip_undef_selects(v));
            defined_values += parts.back().value.defined();
        }
        // The values stored share one condition (Halide's rule for conditionally-undef Tuple
        // elements), so the Tuple's stores go under a single if.
        for (const DefinedPart &p : parts) {
            if (!p.value.defined()) continue;
            if (!conditional) {
                conditional = &p;
                continue;
            }
            bool same = p.where.defined() == conditional->where.defined() &&
                        (!p.where.defined() || equal(p.where, conditional->where));
            user_assert(same) << "In the definition of Func " << op->name
                              << ", conditionally-undef values in a Tuple should have the same "
                                 "conditions, but one is stored where "
                              << describe_condition(conditional->where) << " and another where "
                              << describe_condition(p.where)
                              << ". Use one select condition for every element.\n";
        }
        for (size_t i = 0; i < values.size(); i++) {
            if (!parts[i].value.defined()) continue;
            Expr value = parts[i].value;
            if (defined_values > 1 && !is_const(value) && !value.as<Variable>()) {
                // Every value of a Tuple is computed before any is stored: a value may read
                // an element another one overwrites (f(x) = {f(x)[1], f(x)[0]}).
                std::string n = op->name + ".value." + std::to_string(i);
                lets.emplace_back(n, value);
                value = Variable::make(value.type(), n);
            }
            std::string buf = buffer_name(op->name, (int)i);
            Type t = value.type();
            if (t.is_bool()) value = Cast::make(storage_type(t), value);
            stores.push_back(Store::make(buf, value, flat_index(op->name, buf, args), Parameter(),
                                         const_true(t.lanes())));
        }
        Stmt s = stores.empty() ? Evaluate::make(0) : Block::make(stores);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        if (conditional && conditional->where.defined()) {
            s = IfThenElse::make(conditional->where, s);
        }
        if (op->predicate.defined() && !is_const_true(op->predicate)) {
            s = IfThenElse::make(mutate(op->predicate), s);
        }
        return s;
    }

    Expr visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            std::vector<Expr> args = mutate(op->args);
            std::string buf = buffer_name(op->name, op->value_index);
            Type t = op->type;
            Expr load = Load::make(storage_type(t), buf, flat_index(op->name, buf, args),
                                   const_true(t.lanes()));
            if (t.is_bool()) load = NE::make(load, make_zero(load.type()));
            return load;
        }
        if (op->call_type == Call::Image) {
            std::vector<Expr> args = mutate(op->args);
            Type t = op->type;
            Expr index = buffer_index(op->name, args);
            Expr load =
                Load::make(storage_type(t), op->name, index, const_true(t.lanes()), op->param);
            if (t.is_bool()) load = NE::make(load, make_zero(load.type()));
            return load;
        }
        return IRMutator::visit(op);
    }

private:
    /// The dimensions of Func `func` (by index into its arguments) in storage order, innermost
    /// first: FuncSchedule::storage_dims, else the argument order.
    std::vector<int> storage_order(const std::string &func, int dims) const {
        std::vector<int> order;
        auto f = env.find(func);
        if (f != env.end()) {
            const std::vector<std::string> &args = f->second.args();
            for (const StorageDim &sd : f->second.schedule().storage_dims) {
                auto it = std::find(args.begin(), args.end(), sd.var);
                if (it != args.end()) order.push_back((int)(it - args.begin()));
            }
            // A ring buffer's extra dimension (async_producers) is outermost.
            for (int d = (int)args.size(); d < dims && !order.empty(); d++) order.push_back(d);
        }
        if ((int)order.size() != dims) {
            order.clear();
            for (int d = 0; d < dims; d++) order.push_back(d);
        }
        return order;
    }

    /// The storage of element i of Func `func`.
    std::string buffer_name(const std::string &func, int i) const {
        auto o = output_funcs.find(func);
        if (o != output_funcs.end()) return output_buffer_name(o->second, i);
        auto f = env.find(func);
        internal_assert(f != env.end()) << "storage_flattening: unknown Func " << func << "\n";
        return f->second.outputs() == 1 ? func : func + "." + std::to_string(i);
    }

    /// The flat index of args in buffer argument `buf`.
    static Expr buffer_index(const std::string &buf, const std::vector<Expr> &args) {
        Expr index = 0;
        for (size_t d = 0; d < args.size(); d++) {
            std::string ds = std::to_string(d);
            Expr term = (args[d] - var(buf + ".min." + ds)) * var(buf + ".stride." + ds);
            index = d == 0 ? term : index + term;
        }
        return index;
    }

    /// The flat index of args in the storage `buf` of Func `func`.
    Expr flat_index(const std::string &func, const std::string &buf,
                    const std::vector<Expr> &args) const {
        if (output_funcs.count(func)) return buffer_index(buf, args);
        auto it = layouts.find(func);
        internal_assert(it != layouts.end() && !it->second.empty())
            << "storage_flattening: " << func << " is used outside its realization\n";
        const Layout &l = it->second.back();
        internal_assert(l.mins.size() == args.size());
        Expr index = 0;
        for (size_t d = 0; d < args.size(); d++) {
            Expr term = (args[d] - l.mins[d]) * l.strides[d];
            index = d == 0 ? term : index + term;
        }
        return index;
    }

    const std::map<std::string, Function> &env;
    std::map<std::string, Function> output_funcs;
};

} // namespace

Stmt storage_flattening(const Stmt &s, const std::vector<Function> &outputs,
                        const std::map<std::string, Function> &env) {
    return FlattenStorage(outputs, env).mutate(s);
}

} // namespace internal
} // namespace loom
