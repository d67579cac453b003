// The encoder of serialized pipelines (serialization.h): an object table, then the pipeline,
// then each object's contents. deserialization.cpp reads the fields in the same order.
#include "lang/serialization.h"
#include "lang/serialization_format.h"

#include <loom/buffer.h>

#include "ir/scratchpads.h"
#include "lang/extern_definition.h"
#include "lang/wrappers.h"
#include "support/error.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace loom {
namespace internal {

namespace {

/// " (used by Func "f")" for messages, or nothing when the pipeline itself uses it (in a
/// requirement).
std::string used_by(const std::string &func) {
    return func.empty() ? std::string() : " (used by Func \"" + func + "\")";
}

/// The entries of `m` ordered by canon(key): a map keyed by Func or loop names is ordered by
/// the names of this build ("g$1" or "g$12"), its output must not be.
template <typename V, typename Canon>
std::vector<std::pair<std::string, V>> canonical_order(const std::map<std::string, V> &m,
                                                       Canon canon) {
    std::vector<std::pair<std::string, V>> entries(m.begin(), m.end());
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const auto &a, const auto &b) { return canon(a.first) < canon(b.first); });
    return entries;
}

class Encoder {
public:
    explicit Encoder(const PipelineDefinition &p) : pipeline(p) {
        for (const std::vector<Parameter> &ps : p.output_buffers) {
            for (const Parameter &q : ps) {
                if (q.defined()) output_buffer_params.insert(q.contents.get());
            }
        }
    }

    std::vector<uint8_t> run(std::map<std::string, Parameter> *external) {
        // Walk everything once to number the objects in the order they are first met (the
        // table must precede the contents that refer to it), then write for real.
        discovering = true;
        write_everything();
        discovering = false;
        for (size_t i = 0; i < objects.size(); i++) {
            if (objects[i].kind == ObjectKind::Function) {
                func_ids.emplace(objects[i].func.name(), i);
            }
        }
        ByteWriter body;
        out = &body;
        body.varint(objects.size());
        for (const Object &o : objects) write_shell(o);
        write_everything();

        if (external) {
            for (const Object &o : objects) {
                if (o.kind == ObjectKind::Parameter && is_external(o.param)) {
                    external->emplace(o.param.name(), o.param);
                }
            }
        }
        ByteWriter all;
        all.raw(serialized_magic, sizeof(serialized_magic));
        all.fixed(serialized_format_version, 4);
        all.fixed(body.bytes.size(), 8);
        all.fixed(fnv1a64(body.bytes.data(), body.bytes.size()), 8);
        all.raw(body.bytes.data(), body.bytes.size());
        return std::move(all.bytes);
    }

private:
    struct Object {
        ObjectKind kind;
        Function func;
        Parameter param;
        ReductionDomain rdom;
        /// The Func whose contents first referred to it (for error messages).
        std::string user;
    };

    void write_everything() {
        ByteWriter scratch;
        if (discovering) out = &scratch;
        exprs.clear();
        written.clear();
        anonymous.clear();
        write_pipeline();
        // (By value: writing may add objects, moving the vector's elements.)
        for (size_t i = 0; i < objects.size(); i++) write_contents(Object(objects[i]));
    }

    bool is_external(const Parameter &p) const {
        return !p.is_bound_buffer() && !output_buffer_params.count(p.contents.get());
    }

    // ---- References ----

    /// The index of the object behind `key`, numbered on first sight while discovering.
    size_t object_id(const RefCounted *key, ObjectKind kind, const Object &o) {
        auto it = ids.find(key);
        if (it != ids.end()) return it->second;
        internal_assert(discovering) << "serialization met an object it did not number\n";
        ids.emplace(key, objects.size());
        objects.push_back(o);
        objects.back().kind = kind;
        objects.back().user = context;
        return objects.size() - 1;
    }

    void func_ref(const Function &f) {
        Object o;
        o.func = f;
        out->varint(object_id(f.contents.get(), ObjectKind::Function, o));
    }

    /// 0 for none, else 1 + the index.
    void param_ref(const Parameter &p) {
        if (!p.defined()) return out->varint(0);
        Object o;
        o.param = p;
        out->varint(1 + object_id(p.contents.get(), ObjectKind::Parameter, o));
    }

    void rdom_ref(const ReductionDomain &r) {
        if (!r.defined()) return out->varint(0);
        Object o;
        o.rdom = r;
        out->varint(1 + object_id(r.contents.get(), ObjectKind::ReductionDomain, o));
    }

    /// A name that may be a Func's (a loop level's Func, a wrapper's caller): that Func's index
    /// when the pipeline has a Func of that name, so it follows the Func's new name.
    void func_name(const std::string &name) {
        auto it = func_ids.find(name);
        if (it == func_ids.end()) {
            out->varint(0);
            out->string(name);
        } else {
            out->varint(1 + it->second);
        }
    }

    /// A variable or loop name (see rename_anonymous).
    void var_name(const std::string &name) {
        out->string(rename_anonymous(name, true, anonymous, nullptr));
    }

    /// A name derived from an object's name `base` (a Parameter's "p.min.0", a Func call's
    /// name): written as the suffix after `base` when it starts with it, so it follows a
    /// rename.
    void derived_name(const std::string &name, const std::string &base) {
        if (name.compare(0, base.size(), base) == 0) {
            out->boolean(true);
            out->string(name.substr(base.size()));
        } else {
            out->boolean(false);
            out->string(name);
        }
    }

    // ---- Exprs ----

    void expr(const Expr &e) {
        if (!e.defined()) return out->u8(expr_undefined);
        auto it = exprs.find(e.get());
        if (it != exprs.end()) {
            out->u8(expr_backref);
            out->varint(it->second);
            return;
        }
        out->u8(expr_node + (uint8_t)e->node_type);
        write_node(e);
        // Numbered after its operands, as the decoder numbers the nodes it completes. Kept
        // alive, so no later node can reuse the address.
        exprs.emplace(e.get(), exprs.size());
        written.push_back(e);
    }

    void exprs_of(const std::vector<Expr> &es) {
        out->varint(es.size());
        for (const Expr &e : es) expr(e);
    }

    template <typename T>
    void binary(const Expr &e) {
        const T *op = e.as<T>();
        expr(op->a);
        expr(op->b);
    }

    void write_node(const Expr &e) {
        switch (e->node_type) {
        case IRNodeType::IntImm:
            out->type(e.type());
            return out->svarint(e.as<IntImm>()->value);
        case IRNodeType::UIntImm:
            out->type(e.type());
            return out->varint(e.as<UIntImm>()->value);
        case IRNodeType::FloatImm:
            out->type(e.type());
            return out->f64(e.as<FloatImm>()->value);
        case IRNodeType::StringImm:
            return out->string(e.as<StringImm>()->value);
        case IRNodeType::Cast:
            out->type(e.type());
            return expr(e.as<Cast>()->value);
        case IRNodeType::Reinterpret:
            out->type(e.type());
            return expr(e.as<Reinterpret>()->value);
        case IRNodeType::Variable: {
            const Variable *v = e.as<Variable>();
            out->type(v->type);
            param_ref(v->param);
            rdom_ref(v->reduction_domain);
            if (v->param.defined()) return derived_name(v->name, v->param.name());
            return var_name(v->name);
        }
        case IRNodeType::Add:
            return binary<Add>(e);
        case IRNodeType::Sub:
            return binary<Sub>(e);
        case IRNodeType::Mul:
            return binary<Mul>(e);
        case IRNodeType::Div:
            return binary<Div>(e);
        case IRNodeType::Mod:
            return binary<Mod>(e);
        case IRNodeType::Min:
            return binary<Min>(e);
        case IRNodeType::Max:
            return binary<Max>(e);
        case IRNodeType::EQ:
            return binary<EQ>(e);
        case IRNodeType::NE:
            return binary<NE>(e);
        case IRNodeType::LT:
            return binary<LT>(e);
        case IRNodeType::LE:
            return binary<LE>(e);
        case IRNodeType::GT:
            return binary<GT>(e);
        case IRNodeType::GE:
            return binary<GE>(e);
        case IRNodeType::And:
            return binary<And>(e);
        case IRNodeType::Or:
            return binary<Or>(e);
        case IRNodeType::Not:
            return expr(e.as<Not>()->a);
        case IRNodeType::Select: {
            const Select *s = e.as<Select>();
            expr(s->condition);
            expr(s->true_value);
            return expr(s->false_value);
        }
        case IRNodeType::Load: {
            const Load *l = e.as<Load>();
            out->type(l->type);
            param_ref(l->param);
            derived_name(l->name, l->param.defined() ? l->param.name() : "");
            expr(l->index);
            expr(l->predicate);
            out->svarint(l->alignment.modulus);
            return out->svarint(l->alignment.remainder);
        }
        case IRNodeType::Ramp: {
            const Ramp *r = e.as<Ramp>();
            expr(r->base);
            expr(r->stride);
            return out->varint(r->lanes);
        }
        case IRNodeType::Broadcast: {
            const Broadcast *b = e.as<Broadcast>();
            expr(b->value);
            return out->varint(b->lanes);
        }
        case IRNodeType::Let: {
            const Let *l = e.as<Let>();
            var_name(l->name);
            expr(l->value);
            return expr(l->body);
        }
        case IRNodeType::Call:
            return write_call(e.as<Call>());
        case IRNodeType::Shuffle: {
            const Shuffle *s = e.as<Shuffle>();
            exprs_of(s->vectors);
            out->varint(s->indices.size());
            for (int i : s->indices) out->svarint(i);
            return;
        }
        case IRNodeType::VectorReduce: {
            const VectorReduce *v = e.as<VectorReduce>();
            out->u8((uint8_t)v->op);
            out->varint(v->type.lanes());
            return expr(v->value);
        }
        default:
            internal_error << "serialization of a " << node_type_name(e->node_type)
                           << " node inside an Expr\n";
        }
    }

    void write_call(const Call *c) {
        out->type(c->type);
        out->u8((uint8_t)c->call_type);
        exprs_of(c->args);
        out->varint(c->value_index);
        if (c->call_type == Call::Halide) {
            // A self-call (or a wrapper's call of what it wraps) holds a WeakFunctionRef.
            auto *weak = dynamic_cast<const WeakFunctionRef *>(c->func.get());
            out->boolean(weak != nullptr);
            Function f(c->func);
            func_ref(f);
            return derived_name(c->name, f.name());
        }
        internal_assert(!c->func.defined())
            << "serialization of a call to " << c->name << " holding an object\n";
        param_ref(c->param);
        derived_name(c->name, c->param.defined() ? c->param.name() : "");
    }

    // ---- Pipeline ----

    void write_pipeline() {
        context.clear();
        out->varint(pipeline.outputs.size());
        for (const Function &f : pipeline.outputs) func_ref(f);
        out->varint(pipeline.requirements.size());
        for (const auto &r : pipeline.requirements) {
            expr(r.first);
            exprs_of(r.second);
        }
        internal_assert(pipeline.output_buffers.size() == pipeline.outputs.size())
            << "serialization: one list of output buffers per output\n";
        for (const std::vector<Parameter> &ps : pipeline.output_buffers) {
            out->varint(ps.size());
            for (const Parameter &p : ps) param_ref(p);
        }
        out->boolean(pipeline.trace_pipeline);
    }

    // ---- The object table ----

    void write_shell(const Object &o) {
        out->u8((uint8_t)o.kind);
        if (o.kind == ObjectKind::Function) {
            out->string(canonical_func_name(o.func.name()));
        } else if (o.kind == ObjectKind::Parameter) {
            const Parameter &p = o.param;
            uint8_t flags = (p.is_buffer() ? param_is_buffer : 0) |
                            (p.is_bound_buffer() ? param_is_bound : 0) |
                            (output_buffer_params.count(p.contents.get()) ? param_is_output : 0);
            out->u8(flags);
            if (p.is_bound_buffer()) {
                // The Parameter is made again from the Buffer (as Buffer calls make it).
                write_buffer(p.buffer(), o.user);
            } else {
                // An output buffer is named after its Func.
                out->string(flags & param_is_output ? canonical_func_name(p.name()) : p.name());
                out->type(p.type());
                out->varint(p.dimensions());
            }
        }
    }

    void write_buffer(const Buffer<void> &b, const std::string &user) {
        const std::string what = "the Buffer \"" + b.name() + "\"" + used_by(user);
        user_assert(!b.type().is_handle())
            << "Can't serialize the pipeline: " << what
            << " holds handles, pointers that mean nothing in another process.\n";
        user_assert(!b.device_dirty())
            << "Can't serialize the pipeline: " << what
            << " has newer data on a device than on the host; call copy_to_host() first.\n";
        const halide_buffer_t &raw = *b.raw_buffer();
        const int dims = raw.dimensions;
        out->type(b.type());
        out->varint(dims);
        for (int d = 0; d < dims; d++) {
            out->svarint(raw.dim[d].min);
            out->varint((uint64_t)raw.dim[d].extent);
        }
        // The layout (innermost first, by stride), so an interleaved Buffer stays interleaved.
        std::vector<int> order(dims);
        for (int d = 0; d < dims; d++) order[d] = d;
        std::stable_sort(order.begin(), order.end(), [&](int a, int c) {
            return std::abs((int64_t)raw.dim[a].stride) < std::abs((int64_t)raw.dim[c].stride);
        });
        for (int d : order) out->varint(d);
        out->string(canonical_buffer_name(b.name()));
        const size_t bytes = b.type().bytes();
        for_each_element_address(raw, [&](const uint8_t *p) { out->raw(p, bytes); });
    }

    // ---- Contents ----

    void write_contents(const Object &o) {
        if (o.kind == ObjectKind::Function) {
            write_function(o.func);
        } else if (o.kind == ObjectKind::Parameter) {
            write_parameter(o.param, o.user);
        } else {
            context = o.user;
            const ReductionDomain &r = o.rdom;
            out->varint(r.domain().size());
            for (const ReductionVariable &rv : r.domain()) reduction_variable(rv);
            expr(r.predicate());
            out->boolean(r.frozen());
        }
    }

    void reduction_variable(const ReductionVariable &rv) {
        var_name(rv.var);
        expr(rv.min);
        expr(rv.extent);
    }

    void write_parameter(const Parameter &p, const std::string &user) {
        context = user;
        if (!p.is_buffer()) {
            uint64_t bits;
            std::memcpy(&bits, p.scalar_address(), 8);
            user_assert(!p.type().is_handle() || bits == 0)
                << "Can't serialize the pipeline: Param \"" << p.name() << "\"" << used_by(user)
                << " is a Handle holding a pointer, which means nothing in another "
                << "process. Set it to nullptr before serializing, and set it again on the "
                << "deserialized pipeline's Param (bound through user_params).\n";
            out->fixed(bits, 8);
            expr(p.min_value());
            expr(p.max_value());
            return expr(p.estimate());
        }
        for (int d = 0; d < p.dimensions(); d++) {
            expr(p.min_constraint(d));
            expr(p.extent_constraint(d));
            expr(p.stride_constraint(d));
            expr(p.min_constraint_estimate(d));
            expr(p.extent_constraint_estimate(d));
        }
        out->varint(p.host_alignment());
        out->boolean(p.trace_loads());
        auto wrappers = canonical_order(parameter_wrapper_map(p), canonical_func_name);
        out->varint(wrappers.size());
        for (const auto &kv : wrappers) {
            func_name(kv.first);
            func_ref(kv.second);
        }
    }

    void write_function(const Function &f) {
        context = f.name();
        const FunctionContents &c = *f.contents;
        out->varint(c.args.size());
        for (const std::string &a : c.args) var_name(a);
        types(c.output_types);
        types(c.required_types);
        out->svarint(c.required_dims);
        // Before the definitions: an extern stage's placeholder values are made again from it
        // (they name the Func), so they are not written.
        const ExternDefinition &ext = c.extern_def;
        out->boolean(ext.defined());
        if (ext.defined()) {
            out->string(ext.function_name);
            out->varint(ext.args.size());
            for (const ExternFuncArgument &a : ext.args) extern_argument(a);
            out->u8((uint8_t)ext.mangling);
            out->u8((uint8_t)ext.device_api);
        }
        definition(c.init_def, /*values=*/!ext.defined());
        out->varint(c.updates.size());
        for (const Definition &d : c.updates) definition(d, true);
        func_schedule(c.schedule);
        out->boolean(c.trace_loads);
        out->boolean(c.trace_stores);
        out->boolean(c.trace_realizations);
        out->varint(c.trace_tags.size());
        for (const std::string &t : c.trace_tags) out->string(t);
    }

    void types(const std::vector<Type> &ts) {
        out->varint(ts.size());
        for (const Type &t : ts) out->type(t);
    }

    void extern_argument(const ExternFuncArgument &a) {
        out->u8((uint8_t)a.arg_type);
        switch (a.arg_type) {
        case ExternFuncArgument::FuncArg:
            return func_ref(Function(a.func));
        case ExternFuncArgument::BufferArg:
            // Through the Parameter the Buffer's calls use, so both stay one Buffer.
            return param_ref(extern_buffer_parameter(a));
        case ExternFuncArgument::ExprArg:
            return expr(a.expr);
        case ExternFuncArgument::ImageParamArg:
            return param_ref(extern_buffer_parameter(a));
        case ExternFuncArgument::UndefinedArg:
            return;
        }
    }

    void definition(const Definition &d, bool values) {
        exprs_of(d.args);
        if (values) exprs_of(d.values);
        rdom_ref(d.rdom);
        expr(d.predicate);
        stage_schedule(d.schedule);
        out->varint(d.specializations.size());
        for (const Specialization &s : d.specializations) {
            expr(s.condition);
            out->string(s.failure_message);
            definition(s.definition, true);
        }
    }

    void loop_level(const LoopLevelSpec &l) {
        out->u8((uint8_t)l.kind);
        if (l.kind != LoopLevelSpec::At) return;
        func_name(l.func);
        var_name(l.var);
        out->svarint(l.stage_index);
    }

    void stage_schedule(const StageSchedule &s) {
        out->varint(s.rvars.size());
        for (const ReductionVariable &rv : s.rvars) reduction_variable(rv);
        out->varint(s.splits.size());
        for (const Split &sp : s.splits) {
            out->u8((uint8_t)sp.kind);
            var_name(sp.old_var);
            var_name(sp.outer);
            var_name(sp.inner);
            expr(sp.factor);
            out->boolean(sp.exact);
            out->u8((uint8_t)sp.tail);
        }
        out->varint(s.dims.size());
        for (const Dim &d : s.dims) {
            var_name(d.var);
            out->u8((uint8_t)d.for_type);
            out->u8((uint8_t)d.device_api);
            out->u8((uint8_t)d.kind);
            out->u8((uint8_t)d.partition);
        }
        out->boolean(s.touched);
        out->boolean(s.allow_race_conditions);
        out->boolean(s.atomic);
        out->boolean(s.override_atomic_associativity_test);
        out->varint(s.prefetches.size());
        for (const PrefetchDirective &p : s.prefetches) {
            param_ref(p.param);
            if (p.param.defined()) {
                derived_name(p.name, p.param.name());
            } else {
                func_name(p.name);
            }
            var_name(p.at);
            var_name(p.from);
            expr(p.offset);
            out->u8((uint8_t)p.strategy);
        }
        loop_level(s.fuse_level);
        auto canonical_loop = [&](const std::string &loop) {
            return rename_anonymous(loop, true, anonymous, nullptr);
        };
        auto aligns = canonical_order(s.fuse_align, canonical_loop);
        out->varint(aligns.size());
        for (const auto &kv : aligns) {
            var_name(kv.first);
            out->u8((uint8_t)kv.second);
        }
        // The top bit marks fusion by position (so data written before it existed reads the same).
        out->u8((uint8_t)s.fuse_align_default | (s.fuse_by_position ? 0x80 : 0));
    }

    void bounds(const std::vector<Bound> &bs) {
        out->varint(bs.size());
        for (const Bound &b : bs) {
            var_name(b.var);
            expr(b.min);
            expr(b.extent);
            expr(b.modulus);
            expr(b.remainder);
        }
    }

    void func_schedule(const FuncSchedule &s) {
        loop_level(s.compute_level);
        loop_level(s.store_level);
        loop_level(s.hoist_storage_level);
        out->boolean(s.store_level_set);
        bounds(s.bounds);
        bounds(s.estimates);
        out->varint(s.storage_dims.size());
        for (const StorageDim &d : s.storage_dims) {
            var_name(d.var);
            expr(d.alignment);
            expr(d.bound);
            expr(d.fold_factor);
            out->boolean(d.fold_forward);
        }
        out->u8((uint8_t)s.memory_type);
        // A scratchpad's value is only meaningful in this process: its declaration goes along.
        if (const ScratchpadMemory *m = find_scratchpad(s.memory_type)) {
            out->string(m->name);
            out->svarint(m->size);
            out->svarint(m->alignment);
        }
        out->u8((uint8_t)s.device_copy);
        out->boolean(s.memoized);
        expr(s.memoize_eviction_key);
        out->boolean(s.async);
        expr(s.ring_buffer);
        out->boolean(s.touched);
        out->varint(s.wrappers.size());
        for (const auto &kv : canonical_order(s.wrappers, canonical_func_name)) {
            func_name(kv.first);
            func_ref(Function(kv.second));
        }
    }

    const PipelineDefinition &pipeline;
    std::set<const RefCounted *> output_buffer_params;
    bool discovering = true;
    ByteWriter *out = nullptr;
    std::vector<Object> objects;
    /// Looked up by address, never iterated, so the output does not depend on addresses.
    std::map<const RefCounted *, size_t> ids;
    std::map<const IRNode *, size_t> exprs;
    std::vector<Expr> written;
    std::map<std::string, size_t> func_ids;
    std::map<std::string, std::string> anonymous;
    /// The Func being written.
    std::string context;
};

} // namespace

std::vector<uint8_t> serialize_definition(const PipelineDefinition &p,
                                          std::map<std::string, Parameter> *external) {
    return Encoder(p).run(external);
}

void reseal_serialized(std::vector<uint8_t> &data) {
    internal_assert(data.size() >= serialized_header_size) << "reseal_serialized: no header\n";
    const size_t n = data.size() - serialized_header_size;
    ByteWriter w;
    w.fixed(n, 8);
    w.fixed(fnv1a64(data.data() + serialized_header_size, n), 8);
    std::copy(w.bytes.begin(), w.bytes.end(), data.begin() + 12);
}

} // namespace internal
} // namespace loom
