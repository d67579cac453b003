#include "ir/ir.h"

#include "ir/ir_mutator.h"
#include "support/error.h"

#include <algorithm>
#include <cmath>

namespace loom {
namespace internal {

const char *node_type_name(IRNodeType t) {
    switch (t) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        return #N;
#define LOOM_IR_STMT(N) LOOM_IR_EXPR(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    }
    return "?";
}

bool is_expr_node(IRNodeType t) { return t <= IRNodeType::VectorReduce; }

namespace {

int64_t wrap_signed(int64_t v, int bits) {
    if (bits >= 64) return v;
    uint64_t u = (uint64_t)v << (64 - bits);
    return (int64_t)u >> (64 - bits);
}
/// v rounded (to nearest, ties to even) to a binary float format with `significand_bits`
/// (including the implicit one), subnormals down to 2^min_exp, and largest finite `max`.
double round_to_float_format(double v, int significand_bits, int min_exp, double max) {
    if (!std::isfinite(v) || v == 0) return v;
    int e;
    std::frexp(v, &e);
    int lowest = std::max(e - significand_bits, min_exp);
    double r = std::ldexp(std::nearbyint(std::ldexp(v, -lowest)), lowest);
    return std::fabs(r) > max ? std::copysign(INFINITY, v) : r;
}

uint64_t wrap_unsigned(uint64_t v, int bits) {
    if (bits >= 64) return v;
    return v & ((uint64_t(1) << bits) - 1);
}

void check_defined(const Expr &e, const char *node, const char *field) {
    internal_assert(e.defined()) << node << " built with an undefined " << field << "\n";
}

template <typename T>
Expr make_binary(Expr a, Expr b, Type result) {
    T *n = new T(result);
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
}

Expr binary_arith(const char *node, Expr a, Expr b) {
    check_defined(a, node, "a");
    check_defined(b, node, "b");
    internal_assert(a.type() == b.type())
        << node << " of mismatched types " << a.type() << " and " << b.type() << "\n";
    return a;
}

} // namespace

const IntImm *IntImm::make(Type t, int64_t value) {
    internal_assert(t.is_int() && t.is_scalar()) << "IntImm of type " << t << "\n";
    IntImm *n = new IntImm(t);
    n->value = wrap_signed(value, t.bits());
    return n;
}

const UIntImm *UIntImm::make(Type t, uint64_t value) {
    internal_assert(t.is_uint() && t.is_scalar()) << "UIntImm of type " << t << "\n";
    UIntImm *n = new UIntImm(t);
    n->value = wrap_unsigned(value, t.bits());
    return n;
}

const FloatImm *FloatImm::make(Type t, double value) {
    internal_assert(t.is_float() && t.is_scalar()) << "FloatImm of type " << t << "\n";
    FloatImm *n = new FloatImm(t);
    if (t.is_bfloat()) {
        n->value = round_to_float_format(value, 8, -133, std::ldexp(255.0 / 128.0, 127));
    } else if (t.bits() == 16) {
        n->value = round_to_float_format(value, 11, -24, 65504.0);
    } else {
        n->value = t.bits() == 32 ? (double)(float)value : value;
    }
    return n;
}

const StringImm *StringImm::make(const std::string &value) {
    StringImm *n = new StringImm(Handle());
    n->value = value;
    return n;
}

Expr Cast::make(Type t, Expr value) {
    check_defined(value, "Cast", "value");
    internal_assert(t.lanes() == value.type().lanes())
        << "Cast from " << value.type() << " to " << t << " changes the lane count\n";
    Cast *n = new Cast(t);
    n->value = std::move(value);
    return n;
}

Expr Reinterpret::make(Type t, Expr value) {
    check_defined(value, "Reinterpret", "value");
    internal_assert(t.bits() * t.lanes() == value.type().bits() * value.type().lanes())
        << "Reinterpret from " << value.type() << " to " << t << " changes the bit count\n";
    Reinterpret *n = new Reinterpret(t);
    n->value = std::move(value);
    return n;
}

Expr Variable::make(Type t, const std::string &name) {
    internal_assert(!name.empty()) << "Variable with an empty name\n";
    Variable *n = new Variable(t);
    n->name = name;
    return n;
}

Expr Variable::make(Type t, const std::string &name, const Parameter &param) {
    Expr e = make(t, name);
    const_cast<Variable *>(e.as<Variable>())->param = param;
    return e;
}

Expr Variable::make(Type t, const std::string &name, const ReductionDomain &rdom) {
    Expr e = make(t, name);
    const_cast<Variable *>(e.as<Variable>())->reduction_domain = rdom;
    return e;
}

#define LOOM_ARITH_MAKE(N)                                                                         \
    Expr N::make(Expr a, Expr b) {                                                                 \
        binary_arith(#N, a, b);                                                                    \
        Type t = a.type();                                                                         \
        return make_binary<N>(std::move(a), std::move(b), t);                                      \
    }
LOOM_ARITH_MAKE(Add)
LOOM_ARITH_MAKE(Sub)
LOOM_ARITH_MAKE(Mul)
LOOM_ARITH_MAKE(Div)
LOOM_ARITH_MAKE(Mod)
LOOM_ARITH_MAKE(Min)
LOOM_ARITH_MAKE(Max)
#undef LOOM_ARITH_MAKE

#define LOOM_CMP_MAKE(N)                                                                           \
    Expr N::make(Expr a, Expr b) {                                                                 \
        binary_arith(#N, a, b);                                                                    \
        Type t = Bool(a.type().lanes());                                                           \
        return make_binary<N>(std::move(a), std::move(b), t);                                      \
    }
LOOM_CMP_MAKE(EQ)
LOOM_CMP_MAKE(NE)
LOOM_CMP_MAKE(LT)
LOOM_CMP_MAKE(LE)
LOOM_CMP_MAKE(GT)
LOOM_CMP_MAKE(GE)
#undef LOOM_CMP_MAKE

#define LOOM_LOGICAL_MAKE(N)                                                                       \
    Expr N::make(Expr a, Expr b) {                                                                 \
        binary_arith(#N, a, b);                                                                    \
        internal_assert(a.type().is_bool()) << #N << " of non-bool type " << a.type() << "\n";     \
        Type t = a.type();                                                                         \
        return make_binary<N>(std::move(a), std::move(b), t);                                      \
    }
LOOM_LOGICAL_MAKE(And)
LOOM_LOGICAL_MAKE(Or)
#undef LOOM_LOGICAL_MAKE

Expr Not::make(Expr a) {
    check_defined(a, "Not", "a");
    internal_assert(a.type().is_bool()) << "Not of non-bool type " << a.type() << "\n";
    Not *n = new Not(a.type());
    n->a = std::move(a);
    return n;
}

Expr Select::make(Expr c, Expr t, Expr f) {
    check_defined(c, "Select", "condition");
    check_defined(t, "Select", "true_value");
    check_defined(f, "Select", "false_value");
    internal_assert(c.type().is_bool()) << "Select condition of type " << c.type() << "\n";
    internal_assert(t.type() == f.type())
        << "Select of mismatched types " << t.type() << " and " << f.type() << "\n";
    internal_assert(c.type().is_scalar() || c.type().lanes() == t.type().lanes())
        << "Select condition lanes do not match the values\n";
    Select *n = new Select(t.type());
    n->condition = std::move(c);
    n->true_value = std::move(t);
    n->false_value = std::move(f);
    return n;
}

Expr Load::make(Type t, const std::string &name, Expr index, Expr predicate, const Parameter &param,
                ModulusRemainder alignment) {
    check_defined(index, "Load", "index");
    check_defined(predicate, "Load", "predicate");
    internal_assert(index.type().is_int() && index.type().bits() == 32)
        << "Load index of type " << index.type() << "\n";
    internal_assert(t.lanes() == index.type().lanes() && predicate.type() == Bool(t.lanes()))
        << "Load of " << t << " from " << name << " with mismatched index/predicate lanes\n";
    Load *n = new Load(t);
    n->name = name;
    n->index = std::move(index);
    n->predicate = std::move(predicate);
    n->param = param;
    n->alignment = alignment;
    return n;
}

Expr Ramp::make(Expr base, Expr stride, int lanes) {
    check_defined(base, "Ramp", "base");
    check_defined(stride, "Ramp", "stride");
    internal_assert(lanes > 1) << "Ramp of " << lanes << " lanes\n";
    internal_assert(base.type() == stride.type()) << "Ramp base and stride types differ\n";
    Ramp *n = new Ramp(base.type().with_lanes(base.type().lanes() * lanes));
    n->base = std::move(base);
    n->stride = std::move(stride);
    n->lanes = lanes;
    return n;
}

Expr Broadcast::make(Expr value, int lanes) {
    check_defined(value, "Broadcast", "value");
    internal_assert(lanes > 1) << "Broadcast of " << lanes << " lanes\n";
    Broadcast *n = new Broadcast(value.type().with_lanes(value.type().lanes() * lanes));
    n->value = std::move(value);
    n->lanes = lanes;
    return n;
}

Expr Let::make(const std::string &name, Expr value, Expr body) {
    check_defined(value, "Let", "value");
    check_defined(body, "Let", "body");
    Let *n = new Let(body.type());
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return n;
}

Expr Call::make(Type t, const std::string &name, const std::vector<Expr> &args, CallType call_type,
                const IntrusivePtr<RefCounted> &func, int value_index, const Parameter &param) {
    for (const Expr &a : args) {
        internal_assert(a.defined()) << "Call to " << name << " with an undefined argument\n";
    }
    internal_assert(call_type != Halide || func.defined())
        << "Call to Func " << name << " without its Function\n";
    Call *n = new Call(t);
    n->name = name;
    n->args = args;
    n->call_type = call_type;
    n->func = func;
    n->value_index = value_index;
    n->param = param;
    return n;
}

Expr Shuffle::make(const std::vector<Expr> &vectors, const std::vector<int> &indices) {
    internal_assert(!vectors.empty() && !indices.empty()) << "empty Shuffle\n";
    Type elem = vectors[0].type().element_of();
    int total = 0;
    for (const Expr &v : vectors) {
        internal_assert(v.defined() && v.type().element_of() == elem)
            << "Shuffle of vectors of different element types\n";
        total += v.type().lanes();
    }
    for (int i : indices) {
        internal_assert(i >= 0 && i < total) << "Shuffle index " << i << " out of range\n";
    }
    Shuffle *n = new Shuffle(elem.with_lanes((int)indices.size()));
    n->vectors = vectors;
    n->indices = indices;
    return n;
}

Expr Shuffle::make_concat(const std::vector<Expr> &vectors) {
    if (vectors.size() == 1) return vectors[0];
    std::vector<int> idx;
    int total = 0;
    for (const Expr &v : vectors) total += v.type().lanes();
    for (int i = 0; i < total; i++) idx.push_back(i);
    return make(vectors, idx);
}

Expr Shuffle::make_slice(Expr vector, int begin, int stride, int size) {
    if (begin == 0 && stride == 1 && size == vector.type().lanes()) return vector;
    std::vector<int> idx;
    for (int i = 0; i < size; i++) idx.push_back(begin + i * stride);
    return make({std::move(vector)}, idx);
}

Expr Shuffle::make_extract_element(Expr vector, int i) {
    return make_slice(std::move(vector), i, 1, 1);
}

Expr Shuffle::make_interleave(const std::vector<Expr> &vectors) {
    if (vectors.size() == 1) return vectors[0];
    int lanes = vectors[0].type().lanes();
    std::vector<int> idx;
    for (int i = 0; i < lanes; i++) {
        for (size_t j = 0; j < vectors.size(); j++) idx.push_back((int)j * lanes + i);
    }
    return make(vectors, idx);
}

Expr VectorReduce::make(Operator op, Expr value, int lanes) {
    check_defined(value, "VectorReduce", "value");
    internal_assert(lanes > 0 && value.type().lanes() % lanes == 0)
        << "VectorReduce to " << lanes << " lanes from " << value.type() << "\n";
    VectorReduce *n = new VectorReduce(value.type().with_lanes(lanes));
    n->op = op;
    n->value = std::move(value);
    return n;
}

Stmt LetStmt::make(const std::string &name, Expr value, Stmt body) {
    check_defined(value, "LetStmt", "value");
    internal_assert(body.defined()) << "LetStmt " << name << " with no body\n";
    LetStmt *n = new LetStmt;
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return n;
}

Stmt AssertStmt::make(Expr condition, Expr message) {
    check_defined(condition, "AssertStmt", "condition");
    check_defined(message, "AssertStmt", "message");
    AssertStmt *n = new AssertStmt;
    n->condition = std::move(condition);
    n->message = std::move(message);
    return n;
}

Stmt ProducerConsumer::make(const std::string &name, bool is_producer, Stmt body) {
    internal_assert(body.defined()) << "ProducerConsumer " << name << " with no body\n";
    ProducerConsumer *n = new ProducerConsumer;
    n->name = name;
    n->is_producer = is_producer;
    n->body = std::move(body);
    return n;
}

Stmt For::make(const std::string &name, Expr min, Expr extent, ForType for_type,
               DeviceAPI device_api, Stmt body, Partition partition_policy) {
    check_defined(min, "For", "min");
    check_defined(extent, "For", "extent");
    internal_assert(body.defined()) << "For " << name << " with no body\n";
    internal_assert(min.type() == Int(32) && extent.type() == Int(32))
        << "For " << name << " bounds are not int32\n";
    For *n = new For;
    n->name = name;
    n->min = std::move(min);
    n->extent = std::move(extent);
    n->for_type = for_type;
    n->device_api = device_api;
    n->partition_policy = partition_policy;
    n->body = std::move(body);
    return n;
}

Stmt For::with_body(Stmt b) const {
    return make(name, min, extent, for_type, device_api, std::move(b), partition_policy);
}

Stmt For::with_range(Expr mn, Expr ext, Stmt b) const {
    return make(name, std::move(mn), std::move(ext), for_type, device_api, std::move(b),
                partition_policy);
}

Stmt For::with_for_type(ForType t, Stmt b) const {
    return make(name, min, extent, t, device_api, std::move(b), partition_policy);
}

Stmt For::with_partition(Partition p, Stmt b) const {
    return make(name, min, extent, for_type, device_api, std::move(b), p);
}

Stmt Store::make(const std::string &name, Expr value, Expr index, Parameter param, Expr predicate,
                 ModulusRemainder alignment) {
    check_defined(value, "Store", "value");
    check_defined(index, "Store", "index");
    check_defined(predicate, "Store", "predicate");
    internal_assert(value.type().lanes() == index.type().lanes() &&
                    predicate.type() == Bool(value.type().lanes()))
        << "Store to " << name << " with mismatched lanes\n";
    Store *n = new Store;
    n->name = name;
    n->value = std::move(value);
    n->index = std::move(index);
    n->param = std::move(param);
    n->predicate = std::move(predicate);
    n->alignment = alignment;
    return n;
}

Stmt Provide::make(const std::string &name, const std::vector<Expr> &values,
                   const std::vector<Expr> &args, Expr predicate) {
    internal_assert(!values.empty()) << "Provide to " << name << " of no values\n";
    for (const Expr &v : values) internal_assert(v.defined()) << "Provide of undefined value\n";
    for (const Expr &a : args) internal_assert(a.defined()) << "Provide at undefined coordinate\n";
    check_defined(predicate, "Provide", "predicate");
    Provide *n = new Provide;
    n->name = name;
    n->values = values;
    n->args = args;
    n->predicate = std::move(predicate);
    return n;
}

Stmt Allocate::make(const std::string &name, Type type, MemoryType memory_type,
                    const std::vector<Expr> &extents, Expr condition, Stmt body) {
    for (const Expr &e : extents) {
        internal_assert(e.defined() && e.type().is_scalar() && e.type().is_int_or_uint())
            << "Allocate " << name << " with a bad extent\n";
    }
    check_defined(condition, "Allocate", "condition");
    internal_assert(body.defined()) << "Allocate " << name << " with no body\n";
    Allocate *n = new Allocate;
    n->name = name;
    n->type = type;
    n->memory_type = memory_type;
    n->extents = extents;
    n->condition = std::move(condition);
    n->body = std::move(body);
    return n;
}

Stmt Free::make(const std::string &name) {
    Free *n = new Free;
    n->name = name;
    return n;
}

Stmt Realize::make(const std::string &name, const std::vector<Type> &types, MemoryType memory_type,
                   const Region &bounds, Expr condition, Stmt body) {
    for (const Range &r : bounds) {
        internal_assert(r.min.defined() && r.extent.defined())
            << "Realize " << name << " with undefined bounds\n";
    }
    check_defined(condition, "Realize", "condition");
    internal_assert(body.defined()) << "Realize " << name << " with no body\n";
    Realize *n = new Realize;
    n->name = name;
    n->types = types;
    n->memory_type = memory_type;
    n->bounds = bounds;
    n->condition = std::move(condition);
    n->body = std::move(body);
    return n;
}

Stmt Block::make(Stmt first, Stmt rest) {
    internal_assert(first.defined() && rest.defined()) << "Block of an undefined Stmt\n";
    Block *n = new Block;
    n->first = std::move(first);
    n->rest = std::move(rest);
    return n;
}

Stmt Block::make(const std::vector<Stmt> &stmts) {
    Stmt result;
    for (size_t i = stmts.size(); i-- > 0;) {
        if (!stmts[i].defined()) continue;
        result = result.defined() ? make(stmts[i], result) : stmts[i];
    }
    return result;
}

Stmt IfThenElse::make(Expr condition, Stmt then_case, Stmt else_case) {
    check_defined(condition, "IfThenElse", "condition");
    internal_assert(condition.type().is_bool() && condition.type().is_scalar())
        << "IfThenElse condition of type " << condition.type() << "\n";
    internal_assert(then_case.defined()) << "IfThenElse with no then case\n";
    IfThenElse *n = new IfThenElse;
    n->condition = std::move(condition);
    n->then_case = std::move(then_case);
    n->else_case = std::move(else_case);
    return n;
}

Stmt Evaluate::make(Expr value) {
    check_defined(value, "Evaluate", "value");
    Evaluate *n = new Evaluate;
    n->value = std::move(value);
    return n;
}

Stmt Atomic::make(const std::string &producer_name, const std::string &mutex_name, Stmt body) {
    internal_assert(body.defined()) << "Atomic with no body\n";
    Atomic *n = new Atomic;
    n->producer_name = producer_name;
    n->mutex_name = mutex_name;
    n->body = std::move(body);
    return n;
}

Stmt Fork::make(Stmt first, Stmt rest) {
    internal_assert(first.defined() && rest.defined()) << "Fork of an undefined statement\n";
    Fork *n = new Fork;
    n->first = std::move(first);
    n->rest = std::move(rest);
    return n;
}

namespace {
Expr broadcast_if_vector(Expr scalar, Type t) {
    return t.is_vector() ? Broadcast::make(std::move(scalar), t.lanes()) : scalar;
}
} // namespace

Expr make_const(Type t, int64_t v) {
    Type e = t.element_of();
    Expr c;
    if (e.is_int())
        c = IntImm::make(e, v);
    else if (e.is_uint())
        c = UIntImm::make(e, (uint64_t)v);
    else if (e.is_float())
        c = FloatImm::make(e, (double)v);
    else
        internal_error << "make_const of type " << t << "\n";
    return broadcast_if_vector(c, t);
}

Expr make_const(Type t, uint64_t v) {
    Type e = t.element_of();
    Expr c;
    if (e.is_int())
        c = IntImm::make(e, (int64_t)v);
    else if (e.is_uint())
        c = UIntImm::make(e, v);
    else if (e.is_float())
        c = FloatImm::make(e, (double)v);
    else
        internal_error << "make_const of type " << t << "\n";
    return broadcast_if_vector(c, t);
}

Expr make_const(Type t, double v) {
    Type e = t.element_of();
    Expr c;
    if (e.is_int())
        c = IntImm::make(e, (int64_t)v);
    else if (e.is_uint())
        c = UIntImm::make(e, (uint64_t)v);
    else if (e.is_float())
        c = FloatImm::make(e, v);
    else
        internal_error << "make_const of type " << t << "\n";
    return broadcast_if_vector(c, t);
}

Expr make_zero(Type t) { return make_const(t, (int64_t)0); }
Expr make_one(Type t) { return make_const(t, (int64_t)1); }
Expr make_bool(bool v, int lanes) { return make_const(Bool(lanes), (int64_t)v); }
Expr const_true(int lanes) { return make_bool(true, lanes); }
Expr const_false(int lanes) { return make_bool(false, lanes); }

namespace {

/// `cond` with the Variables named like the RVars of `domain` unbound from any domain.
Expr unbind_rvars(const Expr &cond, const std::vector<ReductionVariable> &domain) {
    return mutate_exprs_post(cond, [&](const Expr &e) -> Expr {
        const Variable *v = e.as<Variable>();
        if (!v || !v->reduction_domain.defined()) return Expr();
        for (const ReductionVariable &rv : domain) {
            if (rv.var == v->name) return Variable::make(v->type, v->name);
        }
        return Expr();
    });
}

} // namespace

void ReductionDomain::where(const Expr &cond) {
    user_assert(!contents->frozen)
        << "RDom::where called after the RDom was used in a definition. Add all where() "
           "conditions before using the RDom.\n";
    Expr c = unbind_rvars(cond, contents->domain);
    contents->predicate = contents->predicate.defined() ? And::make(contents->predicate, c) : c;
}

void ReductionDomain::set_predicate(const Expr &p) {
    contents->predicate = unbind_rvars(p, contents->domain);
}

} // namespace internal

// Expr constants.
Expr::Expr(int8_t x) : IRHandle(internal::IntImm::make(Int(8), x)) {}
Expr::Expr(int16_t x) : IRHandle(internal::IntImm::make(Int(16), x)) {}
Expr::Expr(int32_t x) : IRHandle(internal::IntImm::make(Int(32), x)) {}
Expr::Expr(int64_t x) : IRHandle(internal::IntImm::make(Int(64), x)) {}
Expr::Expr(uint8_t x) : IRHandle(internal::UIntImm::make(UInt(8), x)) {}
Expr::Expr(uint16_t x) : IRHandle(internal::UIntImm::make(UInt(16), x)) {}
Expr::Expr(uint32_t x) : IRHandle(internal::UIntImm::make(UInt(32), x)) {}
Expr::Expr(uint64_t x) : IRHandle(internal::UIntImm::make(UInt(64), x)) {}
Expr::Expr(float x) : IRHandle(internal::FloatImm::make(Float(32), x)) {}
Expr::Expr(double x) : IRHandle(internal::FloatImm::make(Float(64), x)) {}
Expr::Expr(float16_t x) : IRHandle(internal::FloatImm::make(Float(16), (double)x)) {}
Expr::Expr(bfloat16_t x) : IRHandle(internal::FloatImm::make(BFloat(16), (double)x)) {}
Expr::Expr(const std::string &s) : IRHandle(internal::StringImm::make(s)) {}

} // namespace loom
