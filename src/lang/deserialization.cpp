// The decoder of serialized pipelines (serialization.h): reads the fields in the order
// serialization.cpp writes them. Every read is checked (serialization_format.h), every enum
// and count is range-checked, and the IR's own invariant checks are reported as corrupt data.
#include "lang/serialization.h"
#include "lang/serialization_format.h"

#include <loom/buffer.h>

#include "ir/ir_visitor.h"
#include "ir/scratchpads.h"
#include "lang/extern_definition.h"
#include "lang/wrappers.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace loom {
namespace internal {

namespace {

/// How deeply Exprs and specializations may nest: deeper data is refused rather than risk the
/// stack.
constexpr int max_depth = 4000;

/// The most dimensions a Parameter or Buffer may have.
constexpr int max_dims = 64;

constexpr int num_device_apis = (int)DeviceAPI::WebGPU + 1;

std::string describe(const Parameter &p) {
    std::string s = p.is_buffer() ? std::to_string(p.dimensions()) + "-dimensional buffer of "
                                  : std::string("scalar of type ");
    return s + type_to_string(p.type());
}

class Decoder {
public:
    Decoder(const uint8_t *begin, const uint8_t *end,
            const std::map<std::string, Parameter> &user_params)
        : in(begin, end), user_params(user_params) {}

    PipelineDefinition run(std::map<std::string, Parameter> *external) {
        const size_t n = in.count(1, "object");
        objects.resize(n);
        for (Object &o : objects) read_shell(o);
        PipelineDefinition p = read_pipeline();
        for (Object &o : objects) read_contents(o);
        if (!in.at_end()) ByteReader::corrupt("bytes follow the end of the pipeline");
        finish();
        if (external) {
            for (const Object &o : objects) {
                if (o.kind == ObjectKind::Parameter && o.external) {
                    external->emplace(o.param.name(), o.param);
                }
            }
        }
        return p;
    }

private:
    struct Object {
        ObjectKind kind = ObjectKind::Function;
        Function func;
        Parameter param;
        ReductionDomain rdom;
        /// A Param or ImageParam (not a bound Buffer nor an output buffer).
        bool external = false;
        /// Taken from user_params: its own constraints stay.
        bool from_user = false;
        /// A Parameter's wrappers (ImageParam::in), registered once every Func is read.
        std::vector<std::pair<std::string, Function>> wrappers;
    };

    // ---- References ----

    Object &object(uint64_t id, ObjectKind kind) {
        if (id >= objects.size() || objects[id].kind != kind) {
            ByteReader::corrupt("a reference to object " + std::to_string(id) +
                                ", which is not of the expected kind");
        }
        return objects[id];
    }

    Function func_ref() { return object(in.varint(), ObjectKind::Function).func; }

    Parameter param_ref() {
        uint64_t id = in.varint();
        return id == 0 ? Parameter() : object(id - 1, ObjectKind::Parameter).param;
    }

    ReductionDomain rdom_ref() {
        uint64_t id = in.varint();
        return id == 0 ? ReductionDomain() : object(id - 1, ObjectKind::ReductionDomain).rdom;
    }

    std::string func_name() {
        uint64_t id = in.varint();
        return id == 0 ? in.string() : object(id - 1, ObjectKind::Function).func.name();
    }

    std::string var_name() {
        return rename_anonymous(in.string(), false, anonymous,
                                [](char c) { return unique_name(c); });
    }

    std::string derived_name(const std::string &base) {
        bool derived = in.boolean();
        std::string s = in.string();
        return derived ? base + s : s;
    }

    // ---- Exprs ----

    /// An Expr that may be undefined.
    Expr expr() {
        uint8_t tag = in.u8();
        if (tag == expr_undefined) return Expr();
        if (tag == expr_backref) {
            uint64_t id = in.varint();
            if (id >= exprs.size()) ByteReader::corrupt("a reference to a later Expr");
            return exprs[id];
        }
        if (tag < expr_node || tag - expr_node > (int)IRNodeType::VectorReduce) {
            ByteReader::corrupt("an unknown Expr kind " + std::to_string(tag));
        }
        if (++depth > max_depth) ByteReader::corrupt("Exprs nested too deeply");
        Expr e = read_node((IRNodeType)(tag - expr_node));
        depth--;
        exprs.push_back(e);
        return e;
    }

    /// An Expr that must be defined.
    Expr defined_expr() {
        Expr e = expr();
        if (!e.defined()) ByteReader::corrupt("an undefined Expr where one is needed");
        return e;
    }

    std::vector<Expr> defined_exprs() {
        std::vector<Expr> es(in.count(1, "Expr"));
        for (Expr &e : es) e = defined_expr();
        return es;
    }

    int lanes() { return in.natural(1, 65535, "a lane count"); }

    template <typename T>
    Expr binary() {
        Expr a = defined_expr();
        return T::make(a, defined_expr());
    }

    Expr read_node(IRNodeType kind) {
        switch (kind) {
        case IRNodeType::IntImm: {
            Type t = in.type();
            return IntImm::make(t, in.svarint());
        }
        case IRNodeType::UIntImm: {
            Type t = in.type();
            return UIntImm::make(t, in.varint());
        }
        case IRNodeType::FloatImm: {
            Type t = in.type();
            return FloatImm::make(t, in.f64());
        }
        case IRNodeType::StringImm:
            return StringImm::make(in.string());
        case IRNodeType::Cast: {
            Type t = in.type();
            return Cast::make(t, defined_expr());
        }
        case IRNodeType::Reinterpret: {
            Type t = in.type();
            return Reinterpret::make(t, defined_expr());
        }
        case IRNodeType::Variable: {
            Type t = in.type();
            Parameter p = param_ref();
            ReductionDomain r = rdom_ref();
            std::string name = p.defined() ? derived_name(p.name()) : var_name();
            if (p.defined() && r.defined()) ByteReader::corrupt("a Variable of two kinds");
            if (p.defined()) return Variable::make(t, name, p);
            if (r.defined()) return Variable::make(t, name, r);
            return Variable::make(t, name);
        }
        case IRNodeType::Add:
            return binary<Add>();
        case IRNodeType::Sub:
            return binary<Sub>();
        case IRNodeType::Mul:
            return binary<Mul>();
        case IRNodeType::Div:
            return binary<Div>();
        case IRNodeType::Mod:
            return binary<Mod>();
        case IRNodeType::Min:
            return binary<Min>();
        case IRNodeType::Max:
            return binary<Max>();
        case IRNodeType::EQ:
            return binary<EQ>();
        case IRNodeType::NE:
            return binary<NE>();
        case IRNodeType::LT:
            return binary<LT>();
        case IRNodeType::LE:
            return binary<LE>();
        case IRNodeType::GT:
            return binary<GT>();
        case IRNodeType::GE:
            return binary<GE>();
        case IRNodeType::And:
            return binary<And>();
        case IRNodeType::Or:
            return binary<Or>();
        case IRNodeType::Not:
            return Not::make(defined_expr());
        case IRNodeType::Select: {
            Expr c = defined_expr();
            Expr t = defined_expr();
            return Select::make(c, t, defined_expr());
        }
        case IRNodeType::Load: {
            Type t = in.type();
            Parameter p = param_ref();
            std::string name = derived_name(p.defined() ? p.name() : "");
            Expr index = defined_expr();
            Expr predicate = defined_expr();
            int64_t modulus = in.svarint();
            return Load::make(t, name, index, predicate, p,
                              ModulusRemainder(modulus, in.svarint()));
        }
        case IRNodeType::Ramp: {
            Expr base = defined_expr();
            Expr stride = defined_expr();
            return Ramp::make(base, stride, lanes());
        }
        case IRNodeType::Broadcast: {
            Expr value = defined_expr();
            return Broadcast::make(value, lanes());
        }
        case IRNodeType::Let: {
            std::string name = var_name();
            Expr value = defined_expr();
            return Let::make(name, value, defined_expr());
        }
        case IRNodeType::Call:
            return read_call();
        case IRNodeType::Shuffle: {
            std::vector<Expr> vectors = defined_exprs();
            std::vector<int> indices(in.count(1, "shuffle index"));
            for (int &i : indices) i = in.integer(0, 1 << 20, "a shuffle index");
            return Shuffle::make(vectors, indices);
        }
        case IRNodeType::VectorReduce: {
            auto op = in.enumerator<VectorReduce::Operator>(VectorReduce::Or + 1, "reduction");
            int n = lanes();
            return VectorReduce::make(op, defined_expr(), n);
        }
        default:
            ByteReader::corrupt(std::string("a statement (") + node_type_name(kind) +
                                ") inside an Expr");
        }
    }

    Expr read_call() {
        Type t = in.type();
        auto call_type = in.enumerator<Call::CallType>(Call::PureIntrinsic + 1, "call type");
        std::vector<Expr> args = defined_exprs();
        int value_index = in.natural(0, 1 << 16, "a Tuple index");
        if (call_type == Call::Halide) {
            bool weak = in.boolean();
            Function f = func_ref();
            std::string name = derived_name(f.name());
            return Call::make(t, name, args, call_type, weak ? weak_handle(f) : f.get_contents(),
                              value_index);
        }
        Parameter p = param_ref();
        std::string name = derived_name(p.defined() ? p.name() : "");
        return Call::make(t, name, args, call_type, nullptr, value_index, p);
    }

    /// The WeakFunctionRef of f, made on first use (as the front end makes them).
    static IntrusivePtr<RefCounted> weak_handle(const Function &f) {
        FunctionContents *c = f.contents.get();
        if (!c->weak_self.defined() || c->weak_self->target != c) {
            c->weak_self = new WeakFunctionRef;
            c->weak_self->target = c;
        }
        return c->weak_self;
    }

    // ---- Pipeline ----

    PipelineDefinition read_pipeline() {
        PipelineDefinition p;
        p.outputs.resize(in.count(1, "output"));
        for (Function &f : p.outputs) f = func_ref();
        p.requirements.resize(in.count(2, "requirement"));
        for (auto &r : p.requirements) {
            r.first = defined_expr();
            r.second = defined_exprs();
        }
        p.output_buffers.resize(p.outputs.size());
        for (std::vector<Parameter> &ps : p.output_buffers) {
            ps.resize(in.count(1, "output buffer"));
            for (Parameter &q : ps) q = param_ref();
        }
        p.trace_pipeline = in.boolean();
        return p;
    }

    // ---- The object table ----

    void read_shell(Object &o) {
        o.kind = in.enumerator<ObjectKind>(num_object_kinds, "object kind");
        if (o.kind == ObjectKind::Function) {
            std::string name = in.string();
            if (name.empty()) ByteReader::corrupt("a Func without a name");
            const bool anonymous = name.size() == 2 && name[1] == '$';
            o.func = Function(anonymous ? unique_name(name[0]) : unique_name(name));
        } else if (o.kind == ObjectKind::ReductionDomain) {
            o.rdom = ReductionDomain(std::vector<ReductionVariable>());
        } else {
            uint8_t flags = in.u8();
            if (flags > (param_is_buffer | param_is_bound | param_is_output) ||
                ((flags & param_is_bound) && !(flags & param_is_buffer))) {
                ByteReader::corrupt("invalid Parameter flags");
            }
            if (flags & param_is_bound) {
                // The Parameter the Buffer's calls carry (one per Buffer, see buffer_call.cpp).
                Buffer<void> b = read_buffer();
                std::vector<Expr> origin(b.dimensions(), Expr(0));
                o.param = b(origin).as<Call>()->param;
                return;
            }
            std::string name = in.string();
            Type t = in.type();
            int dims = in.natural(0, max_dims, "a dimension count");
            if (name.empty() || (dims > 0 && !(flags & param_is_buffer))) {
                ByteReader::corrupt("an invalid Parameter");
            }
            const bool is_buffer = flags & param_is_buffer;
            o.external = !(flags & param_is_output);
            auto user = user_params.find(name);
            if (o.external && user != user_params.end()) {
                const Parameter &u = user->second;
                user_assert(u.defined() && u.is_buffer() == is_buffer && u.type() == t &&
                            u.dimensions() == dims)
                    << "Can't bind user_params[\"" << name << "\"] in the deserialized pipeline: "
                    << "its parameter \"" << name << "\" is a "
                    << describe(Parameter(t, is_buffer, dims, name)) << ", but the one given is "
                    << (u.defined() ? "a " + describe(u) : std::string("undefined")) << ".\n";
                o.param = u;
                o.from_user = true;
            } else {
                o.param = Parameter(t, is_buffer, dims, name);
            }
        }
    }

    Buffer<void> read_buffer() {
        Type t = in.type();
        if (!t.is_scalar() || t.is_handle()) ByteReader::corrupt("an invalid Buffer type");
        const int dims = in.natural(0, max_dims, "a dimension count");
        std::vector<int> mins(dims), extents(dims), order(dims);
        uint64_t elements = 1;
        for (int d = 0; d < dims; d++) {
            mins[d] = in.integer(INT32_MIN, INT32_MAX, "a Buffer's min");
            extents[d] = in.natural(0, INT32_MAX, "a Buffer's extent");
            // (Capped so it can't overflow: the checks below refuse anything that large.)
            elements = std::min<uint64_t>(elements, (uint64_t)1 << 32) * (uint64_t)extents[d];
        }
        std::vector<bool> seen(dims);
        for (int &d : order) {
            d = in.natural(0, dims - 1, "a storage order");
            if (seen[d]) ByteReader::corrupt("a storage order that repeats a dimension");
            seen[d] = true;
        }
        std::string name = in.string();
        const size_t bytes = t.bytes();
        if (elements > in.left() / bytes || elements > INT32_MAX) {
            ByteReader::corrupt("a Buffer larger than the data");
        }
        Buffer<void> b(t, extents, order, name);
        if (dims > 0) b.set_min(mins);
        for_each_element_address(*b.raw_buffer(),
                                 [&](uint8_t *p) { std::memcpy(p, in.raw(bytes), bytes); });
        return b;
    }

    // ---- Contents ----

    void read_contents(Object &o) {
        if (o.kind == ObjectKind::Function) return read_function(o.func);
        if (o.kind == ObjectKind::Parameter) return read_parameter(o);
        ReductionDomainContents &r = *o.rdom.contents;
        r.domain.resize(in.count(3, "RVar"));
        for (ReductionVariable &rv : r.domain) rv = reduction_variable();
        r.predicate = expr();
        r.frozen = in.boolean();
    }

    ReductionVariable reduction_variable() {
        ReductionVariable rv;
        rv.var = var_name();
        rv.min = defined_expr();
        rv.extent = defined_expr();
        return rv;
    }

    void read_parameter(Object &o) {
        Parameter &p = o.param;
        // A Parameter from user_params keeps its own settings: these are read and dropped.
        const bool keep = !o.from_user;
        if (!p.is_buffer()) {
            uint64_t bits = in.fixed(8);
            Expr min = expr(), max = expr(), estimate = expr();
            if (keep) {
                std::memcpy(p.scalar_address(), &bits, 8);
                p.set_min_value(min);
                p.set_max_value(max);
                p.set_estimate(estimate);
            }
            return;
        }
        for (int d = 0; d < p.dimensions(); d++) {
            Expr min = expr(), extent = expr(), stride = expr();
            Expr min_estimate = expr(), extent_estimate = expr();
            if (keep) {
                p.set_min_constraint(d, min);
                p.set_extent_constraint(d, extent);
                p.set_stride_constraint(d, stride);
                p.set_min_constraint_estimate(d, min_estimate);
                p.set_extent_constraint_estimate(d, extent_estimate);
            }
        }
        int alignment = in.natural(1, 1 << 30, "a host alignment");
        if (alignment & (alignment - 1)) ByteReader::corrupt("a host alignment not a power of 2");
        bool trace_loads = in.boolean();
        if (keep) {
            p.set_host_alignment(alignment);
            p.set_trace_loads(trace_loads);
        }
        o.wrappers.resize(in.count(2, "wrapper"));
        for (auto &w : o.wrappers) {
            w.first = func_name();
            w.second = func_ref();
        }
    }

    void read_function(Function &f) {
        FunctionContents &c = *f.contents;
        c.args.resize(in.count(1, "argument"));
        for (std::string &a : c.args) a = var_name();
        c.output_types = types();
        c.required_types = types();
        c.required_dims = in.integer(-1, max_dims, "a dimension count");
        ExternDefinition &ext = c.extern_def;
        if (in.boolean()) {
            ext.function_name = in.string();
            if (ext.function_name.empty()) ByteReader::corrupt("an extern stage without a name");
            ext.args.resize(in.count(1, "extern argument"));
            for (ExternFuncArgument &a : ext.args) a = extern_argument();
            ext.mangling = in.enumerator<NameMangling>(3, "name mangling");
            ext.device_api = in.enumerator<DeviceAPI>(num_device_apis, "device API");
        }
        c.init_def = definition(/*values=*/!ext.defined());
        c.updates.resize(in.count(4, "update"));
        for (Definition &d : c.updates) d = definition(true);
        c.schedule = func_schedule();
        c.trace_loads = in.boolean();
        c.trace_stores = in.boolean();
        c.trace_realizations = in.boolean();
        c.trace_tags.resize(in.count(1, "trace tag"));
        for (std::string &t : c.trace_tags) t = in.string();
    }

    std::vector<Type> types() {
        std::vector<Type> ts(in.count(3, "type"));
        for (Type &t : ts) t = in.type();
        return ts;
    }

    ExternFuncArgument extern_argument() {
        ExternFuncArgument a;
        a.arg_type = in.enumerator<ExternFuncArgument::ArgType>(5, "extern argument kind");
        switch (a.arg_type) {
        case ExternFuncArgument::FuncArg:
            a.func = func_ref().get_contents();
            break;
        case ExternFuncArgument::BufferArg: {
            Parameter p = param_ref();
            if (!p.defined() || !p.is_bound_buffer()) ByteReader::corrupt("an invalid Buffer");
            a.buffer = p.buffer();
            break;
        }
        case ExternFuncArgument::ExprArg:
            a.expr = defined_expr();
            break;
        case ExternFuncArgument::ImageParamArg: {
            Parameter p = param_ref();
            if (!p.defined() || !p.is_buffer()) ByteReader::corrupt("an invalid buffer argument");
            a.image_param = p.contents;
            break;
        }
        case ExternFuncArgument::UndefinedArg:
            ByteReader::corrupt("an undefined extern argument");
        }
        return a;
    }

    Definition definition(bool values) {
        if (++depth > max_depth) ByteReader::corrupt("specializations nested too deeply");
        Definition d;
        d.args = defined_exprs();
        if (values) d.values = defined_exprs();
        d.rdom = rdom_ref();
        d.predicate = expr();
        d.schedule = stage_schedule();
        d.specializations.resize(in.count(4, "specialization"));
        for (Specialization &s : d.specializations) {
            s.condition = expr();
            s.failure_message = in.string();
            s.definition = definition(true);
        }
        depth--;
        return d;
    }

    LoopLevelSpec loop_level() {
        LoopLevelSpec l;
        l.kind = in.enumerator<LoopLevelSpec::Kind>(3, "loop level");
        if (l.kind == LoopLevelSpec::At) {
            l.func = func_name();
            l.var = var_name();
            l.stage_index = in.integer(-1, INT32_MAX, "a stage index");
        }
        return l;
    }

    StageSchedule stage_schedule() {
        StageSchedule s;
        s.rvars.resize(in.count(3, "RVar"));
        for (ReductionVariable &rv : s.rvars) rv = reduction_variable();
        s.splits.resize(in.count(7, "split"));
        for (Split &sp : s.splits) {
            sp.kind = in.enumerator<Split::Kind>(3, "split kind");
            sp.old_var = var_name();
            sp.outer = var_name();
            sp.inner = var_name();
            sp.factor = expr();
            sp.exact = in.boolean();
            sp.tail = in.enumerator<TailStrategy>((int)TailStrategy::Auto + 1, "tail strategy");
        }
        s.dims.resize(in.count(5, "loop"));
        for (Dim &d : s.dims) {
            d.var = var_name();
            d.for_type = in.enumerator<ForType>((int)ForType::GPULane + 1, "loop type");
            d.device_api = in.enumerator<DeviceAPI>(num_device_apis, "device API");
            d.kind = in.enumerator<Dim::Kind>(3, "loop kind");
            d.partition = in.enumerator<Dim::Partition>(3, "partition policy");
        }
        s.touched = in.boolean();
        s.allow_race_conditions = in.boolean();
        s.atomic = in.boolean();
        s.override_atomic_associativity_test = in.boolean();
        s.prefetches.resize(in.count(6, "prefetch"));
        for (PrefetchDirective &p : s.prefetches) {
            p.param = param_ref();
            p.name = p.param.defined() ? derived_name(p.param.name()) : func_name();
            p.at = var_name();
            p.from = var_name();
            p.offset = defined_expr();
            p.strategy = in.enumerator<PrefetchBoundStrategy>(3, "prefetch strategy");
        }
        s.fuse_level = loop_level();
        const size_t aligns = in.count(2, "alignment");
        for (size_t i = 0; i < aligns; i++) {
            std::string loop = var_name();
            s.fuse_align[loop] = in.enumerator<LoopAlignStrategy>(4, "loop alignment");
        }
        uint8_t align = in.u8();
        s.fuse_by_position = (align & 0x80) != 0;
        align &= 0x7f;
        if (align >= 4) in.corrupt("an unknown loop alignment " + std::to_string(align));
        s.fuse_align_default = (LoopAlignStrategy)align;
        return s;
    }

    std::vector<Bound> bounds() {
        std::vector<Bound> bs(in.count(5, "bound"));
        for (Bound &b : bs) {
            b.var = var_name();
            b.min = expr();
            b.extent = expr();
            b.modulus = expr();
            b.remainder = expr();
        }
        return bs;
    }

    FuncSchedule func_schedule() {
        FuncSchedule s;
        s.compute_level = loop_level();
        s.store_level = loop_level();
        s.hoist_storage_level = loop_level();
        s.store_level_set = in.boolean();
        s.bounds = bounds();
        s.estimates = bounds();
        s.storage_dims.resize(in.count(5, "storage dimension"));
        for (StorageDim &d : s.storage_dims) {
            d.var = var_name();
            d.alignment = expr();
            d.bound = expr();
            d.fold_factor = expr();
            d.fold_forward = in.boolean();
        }
        uint8_t memory = in.u8();
        if (memory >= kFirstScratchpad) {
            std::string name = in.string();
            int64_t size = in.svarint();
            int64_t alignment = in.svarint();
            if (alignment <= 0 || alignment > (int64_t(1) << 30)) {
                in.corrupt("scratchpad " + name + " with alignment " + std::to_string(alignment));
            }
            s.memory_type = declare_scratchpad(name, size, (int)alignment).type;
        } else {
            if (memory > (uint8_t)MemoryType::AMXTile) {
                in.corrupt("an unknown memory type " + std::to_string(memory));
            }
            s.memory_type = (MemoryType)memory;
        }
        s.device_copy = in.enumerator<DeviceAPI>(num_device_apis, "device API");
        s.memoized = in.boolean();
        s.memoize_eviction_key = expr();
        s.async = in.boolean();
        s.ring_buffer = expr();
        s.touched = in.boolean();
        const size_t n = in.count(2, "wrapper");
        for (size_t i = 0; i < n; i++) {
            std::string key = func_name();
            s.wrappers[key] = func_ref().get_contents();
        }
        return s;
    }

public:
    // ---- After reading ----

    /// Empties what was read after a failure: objects read so far may hold each other in a
    /// circle (corrupt data can make any reference strong), which would never be freed.
    void release() {
        for (Object &o : objects) {
            if (o.func.defined()) {
                FunctionContents &c = *o.func.contents;
                c.init_def = Definition();
                c.updates.clear();
                c.schedule = FuncSchedule();
                c.extern_def = ExternDefinition();
            } else if (o.rdom.defined()) {
                o.rdom.contents->domain.clear();
                o.rdom.contents->predicate = Expr();
            } else if (o.param.defined() && !o.from_user) {
                for (int d = 0; o.param.is_buffer() && d < o.param.dimensions(); d++) {
                    o.param.set_min_constraint(d, Expr());
                    o.param.set_extent_constraint(d, Expr());
                    o.param.set_stride_constraint(d, Expr());
                    o.param.set_min_constraint_estimate(d, Expr());
                    o.param.set_extent_constraint_estimate(d, Expr());
                }
                if (!o.param.is_buffer()) {
                    o.param.set_min_value(Expr());
                    o.param.set_max_value(Expr());
                    o.param.set_estimate(Expr());
                }
            }
            o.wrappers.clear();
        }
    }

private:
    /// Calls f on every Expr of a definition.
    template <typename F>
    static void for_each_expr(const Definition &d, F &f) {
        for (const Expr &e : d.args) f(e);
        for (const Expr &e : d.values) f(e);
        f(d.predicate);
        for (const ReductionVariable &rv : d.schedule.rvars) {
            f(rv.min);
            f(rv.extent);
        }
        for (const Split &sp : d.schedule.splits) f(sp.factor);
        for (const PrefetchDirective &p : d.schedule.prefetches) f(p.offset);
        for (const Specialization &s : d.specializations) {
            f(s.condition);
            for_each_expr(s.definition, f);
        }
    }

    /// Calls f on every Expr of a Func.
    template <typename F>
    static void for_each_expr(const Function &func, F &f) {
        for_each_expr(func.definition(), f);
        for (const Definition &d : func.updates()) for_each_expr(d, f);
        const FuncSchedule &s = func.schedule();
        for (const std::vector<Bound> *bs : {&s.bounds, &s.estimates}) {
            for (const Bound &b : *bs) {
                for (const Expr &e : {b.min, b.extent, b.modulus, b.remainder}) f(e);
            }
        }
        for (const StorageDim &d : s.storage_dims) {
            for (const Expr &e : {d.alignment, d.bound, d.fold_factor}) f(e);
        }
        f(s.memoize_eviction_key);
        f(s.ring_buffer);
        for (const ExternFuncArgument &a : func.extern_definition().args) f(a.expr);
    }

    /// Refuses data in which Funcs and RDoms hold each other in a circle (a Func calling itself
    /// other than through its WeakFunctionRef, say), which would never be freed, and parameter
    /// constraints that read Funcs or RVars.
    void check_ownership() {
        std::map<const RefCounted *, size_t> index;
        for (size_t i = 0; i < objects.size(); i++) {
            const Object &o = objects[i];
            if (o.func.defined()) index[o.func.contents.get()] = i;
            if (o.rdom.defined()) index[o.rdom.contents.get()] = i;
        }
        std::vector<std::vector<size_t>> held(objects.size());
        for (size_t i = 0; i < objects.size(); i++) {
            const Object &o = objects[i];
            bool reads_objects = false;
            auto add = [&](const RefCounted *p) {
                auto it = index.find(p);
                if (it != index.end()) held[i].push_back(it->second);
                reads_objects = true;
            };
            auto visit = [&](const Expr &root) {
                if (!root.defined()) return;
                visit_exprs(root, [&](const Expr &e) {
                    if (const Call *c = e.as<Call>()) {
                        if (c->call_type == Call::Halide &&
                            !dynamic_cast<const WeakFunctionRef *>(c->func.get())) {
                            add(c->func.get());
                        }
                    } else if (const Variable *v = e.as<Variable>()) {
                        if (v->reduction_domain.defined()) add(v->reduction_domain.contents.get());
                    }
                    return true;
                });
            };
            if (o.kind == ObjectKind::Function) {
                for_each_expr(o.func, visit);
                auto add_rdom = [&](const Definition &d) {
                    if (d.rdom.defined()) add(d.rdom.contents.get());
                };
                add_rdom(o.func.definition());
                for (const Definition &d : o.func.updates()) add_rdom(d);
                for (const auto &kv : o.func.schedule().wrappers) add(kv.second.get());
                for (const ExternFuncArgument &a : o.func.extern_definition().args) {
                    if (a.is_func()) add(a.func.get());
                }
            } else if (o.kind == ObjectKind::ReductionDomain) {
                for (const ReductionVariable &rv : o.rdom.domain()) {
                    visit(rv.min);
                    visit(rv.extent);
                }
                visit(o.rdom.predicate());
            } else if (o.external && !o.from_user) {
                const Parameter &p = o.param;
                visit(p.is_buffer() ? Expr() : p.min_value());
                visit(p.is_buffer() ? Expr() : p.max_value());
                for (int d = 0; p.is_buffer() && d < p.dimensions(); d++) {
                    visit(p.min_constraint(d));
                    visit(p.extent_constraint(d));
                    visit(p.stride_constraint(d));
                }
                if (reads_objects) {
                    ByteReader::corrupt("a constraint of parameter \"" + p.name() +
                                        "\" reads a Func or an RVar");
                }
            }
        }
        // Depth-first search for a circle: 1 on the current path, 2 done.
        std::vector<uint8_t> state(objects.size(), 0);
        for (size_t start = 0; start < objects.size(); start++) {
            if (state[start]) continue;
            std::vector<std::pair<size_t, size_t>> stack{{start, 0}};
            state[start] = 1;
            while (!stack.empty()) {
                auto &[node, next] = stack.back();
                if (next == held[node].size()) {
                    state[node] = 2;
                    stack.pop_back();
                    continue;
                }
                size_t to = held[node][next++];
                if (state[to] == 1) {
                    ByteReader::corrupt("Funcs or RDoms that hold each other in a circle");
                }
                if (state[to] == 0) {
                    state[to] = 1;
                    stack.push_back({to, 0});
                }
            }
        }
    }

    /// Checks what lowering takes for granted, makes the extern stages' placeholder values
    /// and registers the inputs' wrappers.
    void finish() {
        check_ownership();
        for (Object &o : objects) {
            if (o.kind != ObjectKind::Function) continue;
            Function &f = o.func;
            if (f.has_extern_definition()) {
                if (f.output_types().empty()) ByteReader::corrupt("an extern stage without types");
                for (const ExternFuncArgument &a : f.extern_definition().args) {
                    if (a.is_func() && !Function(a.func).has_pure_definition()) {
                        ByteReader::corrupt("an extern stage reading an undefined Func");
                    }
                }
                f.definition().values = extern_placeholder_values(f);
            }
            check_definition(f, f.definition(), /*pure=*/true);
            for (const Definition &d : f.updates()) check_definition(f, d, false);
        }
        for (Object &o : objects) {
            for (const auto &w : o.wrappers) add_parameter_wrapper(o.param, w.first, w.second);
        }
    }

    void check_definition(const Function &f, const Definition &d, bool pure) {
        bool ok = !d.schedule.dims.empty();
        if (pure && !d.defined()) {
            ok = ok && d.args.empty() && f.updates().empty();
        } else {
            ok = ok && d.args.size() == f.args().size() && !f.output_types().empty() &&
                 d.values.size() == f.output_types().size();
            for (size_t i = 0; pure && ok && i < d.args.size(); i++) {
                const Variable *v = d.args[i].as<Variable>();
                ok = v && v->name == f.args()[i];
            }
        }
        if (!ok) {
            ByteReader::corrupt("the definition of Func \"" + f.name() +
                                "\" does not match its arguments and types");
        }
        for (const Specialization &s : d.specializations) {
            if (s.failure_message.empty()) check_definition(f, s.definition, pure);
        }
    }

    ByteReader in;
    const std::map<std::string, Parameter> &user_params;
    std::vector<Object> objects;
    std::vector<Expr> exprs;
    std::map<std::string, std::string> anonymous;
    int depth = 0;
};

} // namespace

PipelineDefinition deserialize_definition(const uint8_t *data, size_t size,
                                          const std::map<std::string, Parameter> &user_params,
                                          std::map<std::string, Parameter> *external) {
    const std::string not_pipeline = "Can't deserialize the pipeline: the data is not a pipeline "
                                     "serialized by Loom";
    user_assert(size >= serialized_header_size &&
                std::memcmp(data, serialized_magic, sizeof(serialized_magic)) == 0)
        << not_pipeline << " (it does not start with \"LOOMPIPE\"; Halide's .hlpipe files "
        << "can't be read by Loom).\n";
    ByteReader header(data + 8, data + serialized_header_size);
    const uint64_t version = header.fixed(4), body_size = header.fixed(8), hash = header.fixed(8);
    user_assert(version == serialized_format_version)
        << "Can't deserialize the pipeline: it was serialized in format version " << version
        << ", and this Loom reads version " << serialized_format_version
        << ". Serialize the pipeline again with this version of Loom.\n";
    const uint8_t *body = data + serialized_header_size;
    const size_t got = size - serialized_header_size;
    user_assert(body_size == got) << "Can't deserialize the pipeline: the data is truncated or "
                                  << "extended (" << got << " bytes after the header, expected "
                                  << body_size << ").\n";
    user_assert(fnv1a64(body, got) == hash)
        << "Can't deserialize the pipeline: the data is corrupt (its checksum does not match).\n";
    Decoder decoder(body, body + got, user_params);
    try {
        return decoder.run(external);
    } catch (const InternalError &e) {
        decoder.release();
        // An IR invariant the data breaks (an Add of two types, say): corrupt data, not a bug.
        ByteReader::corrupt(std::string("an invalid Expr: ") + e.what());
    } catch (...) {
        decoder.release();
        throw;
    }
}

} // namespace internal
} // namespace loom
