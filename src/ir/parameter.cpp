#include "ir/parameter.h"

#include "ir/ir.h"
#include "support/error.h"

#include <loom/buffer.h>
#include <loom/float16.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// The state behind one Parameter. Scalar fields and buffer fields are kept side by side; the
/// accessors check which kind a Parameter is before touching them.
struct ParameterContents : RefCounted {
    std::string name;
    Type type;
    int dimensions = 0;
    bool is_buffer = false;
    /// The scalar value as raw bits of `type` (little-endian, low bytes first). A uint64 so
    /// the storage is 8-byte aligned, which compiled code reading a double relies on.
    uint64_t data = 0;
    Expr min_value, max_value, estimate;
    Buffer<void> buffer;
    bool is_bound_buffer = false;
    /// Per-dimension constraints and estimates, sized by `dimensions`.
    std::vector<Expr> min_constraint, extent_constraint, stride_constraint;
    std::vector<Expr> min_estimate, extent_estimate;
    int host_alignment = 1;
    bool trace_loads = false;
};

} // namespace

Parameter::Parameter(Type t, bool is_buffer, int dimensions, const std::string &name) {
    internal_assert(is_buffer || dimensions == 0)
        << "Scalar parameter " << name << " with " << dimensions << " dimensions\n";
    internal_assert(dimensions >= 0) << "Parameter " << name << " with negative dimensions\n";
    ParameterContents *c = new ParameterContents;
    c->name = name;
    c->type = t;
    c->dimensions = dimensions;
    c->is_buffer = is_buffer;
    c->host_alignment = t.bytes();
    c->min_constraint.resize(dimensions);
    c->extent_constraint.resize(dimensions);
    c->stride_constraint.resize(dimensions);
    // As in Halide, a buffer's innermost dimension is dense unless the user says otherwise
    // (dim(0).set_stride(Expr())): vector loads of it are then single dense loads, not gathers.
    if (is_buffer && dimensions > 0) c->stride_constraint[0] = Expr(1);
    c->min_estimate.resize(dimensions);
    c->extent_estimate.resize(dimensions);
    contents = c;
}

namespace {

ParameterContents &get(const Parameter &p) {
    internal_assert(p.defined()) << "Use of an undefined Parameter\n";
    return *static_cast<ParameterContents *>(p.contents.get());
}

ParameterContents &get_scalar(const Parameter &p, const char *what) {
    ParameterContents &c = get(p);
    internal_assert(!c.is_buffer) << what << " of buffer parameter " << c.name
                                  << ", which is only meaningful for scalar parameters\n";
    return c;
}

ParameterContents &get_buffer(const Parameter &p, const char *what) {
    ParameterContents &c = get(p);
    internal_assert(c.is_buffer) << what << " of scalar parameter " << c.name
                                 << ", which is only meaningful for buffer parameters\n";
    return c;
}

ParameterContents &get_dim(const Parameter &p, int dim, const char *what) {
    ParameterContents &c = get_buffer(p, what);
    internal_assert(dim >= 0 && dim < c.dimensions)
        << what << ": dimension " << dim << " of parameter " << c.name << ", which has "
        << c.dimensions << " dimensions\n";
    return c;
}

} // namespace

const std::string &Parameter::name() const { return get(*this).name; }
Type Parameter::type() const { return get(*this).type; }
int Parameter::dimensions() const { return get(*this).dimensions; }
bool Parameter::is_buffer() const { return get(*this).is_buffer; }

Expr Parameter::scalar_expr() const {
    const ParameterContents &c = get_scalar(*this, "scalar_expr");
    Type t = c.type;
    const void *p = &c.data;
    auto read = [&](auto v) {
        std::memcpy(&v, p, sizeof(v));
        return v;
    };
    if (t.is_int()) {
        switch (t.bits()) {
        case 8:
            return make_const(t, (int64_t)read(int8_t()));
        case 16:
            return make_const(t, (int64_t)read(int16_t()));
        case 32:
            return make_const(t, (int64_t)read(int32_t()));
        case 64:
            return make_const(t, (int64_t)read(int64_t()));
        }
    } else if (t.is_uint()) {
        switch (t.bits()) {
        case 1:
            return make_const(t, (uint64_t)(read(uint8_t()) != 0));
        case 8:
            return make_const(t, (uint64_t)read(uint8_t()));
        case 16:
            return make_const(t, (uint64_t)read(uint16_t()));
        case 32:
            return make_const(t, (uint64_t)read(uint32_t()));
        case 64:
            return make_const(t, (uint64_t)read(uint64_t()));
        }
    } else if (t.is_bfloat()) {
        if (t.bits() == 16)
            return make_const(t, (double)bfloat16_t::make_from_bits(read(uint16_t())));
    } else if (t.is_float()) {
        switch (t.bits()) {
        case 16:
            return make_const(t, (double)float16_t::make_from_bits(read(uint16_t())));
        case 32:
            return make_const(t, (double)read(float()));
        case 64:
            return make_const(t, read(double()));
        }
    } else if (t.is_handle()) {
        // Handles are held as 64-bit unsigned integers, as in Halide.
        return make_const(UInt(64), read(uint64_t()));
    }
    internal_error << "Parameter " << c.name << " has unsupported type " << t << "\n";
    return Expr();
}

void Parameter::set_scalar_expr(const Expr &value) {
    ParameterContents &c = get_scalar(*this, "set_scalar_expr");
    user_assert(value.defined()) << "Parameter " << c.name << " set to an undefined Expr\n";
    // The constant as each family of C types; the parameter's type picks one.
    int64_t i = 0;
    uint64_t u = 0;
    double f = 0;
    if (const IntImm *imm = value.as<IntImm>()) {
        i = imm->value;
        u = (uint64_t)imm->value;
        f = (double)imm->value;
    } else if (const UIntImm *imm = value.as<UIntImm>()) {
        i = (int64_t)imm->value;
        u = imm->value;
        f = (double)imm->value;
    } else if (const FloatImm *imm = value.as<FloatImm>()) {
        f = imm->value;
        i = std::isfinite(f) ? (int64_t)f : 0;
        u = std::isfinite(f) && f >= 0 ? (uint64_t)f : (uint64_t)i;
    } else {
        user_error << "Parameter " << c.name << " can only be set to a constant, not " << value
                   << "\n";
    }
    Type t = c.type;
    c.data = 0;
    void *p = &c.data;
    auto write = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
    if (t.is_int()) {
        switch (t.bits()) {
        case 8:
            return write((int8_t)i);
        case 16:
            return write((int16_t)i);
        case 32:
            return write((int32_t)i);
        case 64:
            return write((int64_t)i);
        }
    } else if (t.is_uint()) {
        switch (t.bits()) {
        case 1:
            return write((uint8_t)(f != 0));
        case 8:
            return write((uint8_t)u);
        case 16:
            return write((uint16_t)u);
        case 32:
            return write((uint32_t)u);
        case 64:
            return write((uint64_t)u);
        }
    } else if (t.is_bfloat()) {
        if (t.bits() == 16) return write(bfloat16_t(f).to_bits());
    } else if (t.is_float()) {
        switch (t.bits()) {
        case 16:
            return write(float16_t(f).to_bits());
        case 32:
            return write((float)f);
        case 64:
            return write(f);
        }
    } else if (t.is_handle()) {
        return write(u);
    }
    internal_error << "Parameter " << c.name << " has unsupported type " << t << "\n";
}

void *Parameter::scalar_address() const { return &get_scalar(*this, "scalar_address").data; }

void Parameter::set_min_value(const Expr &e) { get_scalar(*this, "set_min_value").min_value = e; }
Expr Parameter::min_value() const { return get_scalar(*this, "min_value").min_value; }
void Parameter::set_max_value(const Expr &e) { get_scalar(*this, "set_max_value").max_value = e; }
Expr Parameter::max_value() const { return get_scalar(*this, "max_value").max_value; }
void Parameter::set_estimate(const Expr &e) { get_scalar(*this, "set_estimate").estimate = e; }
Expr Parameter::estimate() const { return get_scalar(*this, "estimate").estimate; }

Buffer<void> Parameter::buffer() const { return get_buffer(*this, "buffer").buffer; }

void Parameter::set_buffer(const Buffer<void> &b) {
    ParameterContents &c = get_buffer(*this, "set_buffer");
    if (b.defined()) {
        user_assert(Type(b.type()) == c.type)
            << "Can't bind parameter " << c.name << " of type " << c.type << " to Buffer "
            << b.name() << " of type " << Type(b.type()) << "\n";
    }
    c.buffer = b;
}

bool Parameter::is_bound_buffer() const {
    const ParameterContents &c = get(*this);
    return c.is_buffer && c.is_bound_buffer;
}

void Parameter::set_is_bound_buffer(bool b) {
    get_buffer(*this, "set_is_bound_buffer").is_bound_buffer = b;
}

void Parameter::set_min_constraint(int dim, const Expr &e) {
    get_dim(*this, dim, "set_min_constraint").min_constraint[dim] = e;
}
void Parameter::set_extent_constraint(int dim, const Expr &e) {
    get_dim(*this, dim, "set_extent_constraint").extent_constraint[dim] = e;
}
void Parameter::set_stride_constraint(int dim, const Expr &e) {
    get_dim(*this, dim, "set_stride_constraint").stride_constraint[dim] = e;
}
Expr Parameter::min_constraint(int dim) const {
    return get_dim(*this, dim, "min_constraint").min_constraint[dim];
}
Expr Parameter::extent_constraint(int dim) const {
    return get_dim(*this, dim, "extent_constraint").extent_constraint[dim];
}
Expr Parameter::stride_constraint(int dim) const {
    return get_dim(*this, dim, "stride_constraint").stride_constraint[dim];
}
void Parameter::set_min_constraint_estimate(int dim, const Expr &e) {
    get_dim(*this, dim, "set_min_constraint_estimate").min_estimate[dim] = e;
}
void Parameter::set_extent_constraint_estimate(int dim, const Expr &e) {
    get_dim(*this, dim, "set_extent_constraint_estimate").extent_estimate[dim] = e;
}
Expr Parameter::min_constraint_estimate(int dim) const {
    return get_dim(*this, dim, "min_constraint_estimate").min_estimate[dim];
}
Expr Parameter::extent_constraint_estimate(int dim) const {
    return get_dim(*this, dim, "extent_constraint_estimate").extent_estimate[dim];
}

void Parameter::set_host_alignment(int bytes) {
    user_assert(bytes > 0 && (bytes & (bytes - 1)) == 0)
        << "Host alignment of " << get(*this).name << " must be a power of two, not " << bytes
        << "\n";
    get_buffer(*this, "set_host_alignment").host_alignment = bytes;
}
int Parameter::host_alignment() const { return get_buffer(*this, "host_alignment").host_alignment; }

void Parameter::set_trace_loads(bool b) { get_buffer(*this, "trace_loads").trace_loads = b; }

bool Parameter::trace_loads() const { return get_buffer(*this, "trace_loads").trace_loads; }

} // namespace internal
} // namespace loom
