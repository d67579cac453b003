#ifndef LOOM_TYPE_H
#define LOOM_TYPE_H

/// \file Scalar and vector types of Loom expressions (Halide's Type).

#include <loom/runtime/loom_runtime.h>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace loom {

class Expr;

/// The type of an expression: a code (int, uint, float, handle), a bit width and a lane count.
/// Bool is UInt(1).
class Type {
public:
    static const halide_type_code_t Int = halide_type_int;
    static const halide_type_code_t UInt = halide_type_uint;
    static const halide_type_code_t Float = halide_type_float;
    static const halide_type_code_t BFloat = halide_type_bfloat;
    static const halide_type_code_t Handle = halide_type_handle;

    Type() : type_(halide_type_handle, 0, 0) {}
    Type(halide_type_code_t code, int bits, int lanes)
        : type_(code, (uint8_t)bits, (uint16_t)lanes) {}
    Type(const halide_type_t &t) : type_(t) {}
    operator halide_type_t() const { return type_; }

    halide_type_code_t code() const { return (halide_type_code_t)type_.code; }
    int bits() const { return type_.bits; }
    int bytes() const { return (bits() + 7) / 8; }
    int lanes() const { return type_.lanes; }

    Type with_code(halide_type_code_t c) const { return Type(c, bits(), lanes()); }
    Type with_bits(int b) const { return Type(code(), b, lanes()); }
    Type with_lanes(int l) const { return Type(code(), bits(), l); }
    Type element_of() const { return with_lanes(1); }
    /// Half the bits (not below 8 for ints; bool stays bool).
    Type narrow() const;
    /// Twice the bits (bool widens to 8).
    Type widen() const;

    bool is_bool() const { return code() == UInt && bits() == 1; }
    bool is_vector() const { return lanes() != 1; }
    bool is_scalar() const { return lanes() == 1; }
    bool is_float() const { return code() == Float || code() == BFloat; }
    bool is_bfloat() const { return code() == BFloat; }
    bool is_int() const { return code() == Int; }
    bool is_uint() const { return code() == UInt; }
    bool is_int_or_uint() const { return is_int() || is_uint(); }
    bool is_handle() const { return code() == Handle; }

    bool operator==(const Type &o) const { return type_ == o.type_; }
    bool operator!=(const Type &o) const { return !(*this == o); }
    bool operator<(const Type &o) const;

    /// Whether this type can hold every value of `other` (or the given constant) exactly.
    bool can_represent(Type other) const;
    bool can_represent(int64_t x) const;
    bool can_represent(uint64_t x) const;
    bool can_represent(double x) const;

    bool is_max(int64_t x) const;
    bool is_max(uint64_t x) const;
    bool is_min(int64_t x) const;
    bool is_min(uint64_t x) const;

    /// The largest and smallest values of this type, as constant Exprs of this type.
    Expr max() const;
    Expr min() const;

private:
    halide_type_t type_;
};

inline Type Int(int bits, int lanes = 1) { return Type(Type::Int, bits, lanes); }
inline Type UInt(int bits, int lanes = 1) { return Type(Type::UInt, bits, lanes); }
inline Type Float(int bits, int lanes = 1) { return Type(Type::Float, bits, lanes); }
inline Type BFloat(int bits, int lanes = 1) { return Type(Type::BFloat, bits, lanes); }
inline Type Bool(int lanes = 1) { return UInt(1, lanes); }
inline Type Handle(int lanes = 1) { return Type(Type::Handle, 64, lanes); }

namespace internal {
template <typename T>
struct TypeOf;
template <>
struct TypeOf<bool> {
    static Type get() { return Bool(); }
};
template <>
struct TypeOf<int8_t> {
    static Type get() { return Int(8); }
};
template <>
struct TypeOf<int16_t> {
    static Type get() { return Int(16); }
};
template <>
struct TypeOf<int32_t> {
    static Type get() { return Int(32); }
};
template <>
struct TypeOf<int64_t> {
    static Type get() { return Int(64); }
};
template <>
struct TypeOf<uint8_t> {
    static Type get() { return UInt(8); }
};
template <>
struct TypeOf<uint16_t> {
    static Type get() { return UInt(16); }
};
template <>
struct TypeOf<uint32_t> {
    static Type get() { return UInt(32); }
};
template <>
struct TypeOf<uint64_t> {
    static Type get() { return UInt(64); }
};
template <>
struct TypeOf<float> {
    static Type get() { return Float(32); }
};
template <>
struct TypeOf<double> {
    static Type get() { return Float(64); }
};
template <typename T>
struct TypeOf<T *> {
    static Type get() { return Handle(); }
};
} // namespace internal

/// The Loom type of the C++ type T.
template <typename T>
Type type_of() {
    return internal::TypeOf<T>::get();
}

/// Halide's type names: "int32", "uint8x8", "float32", "bool", "handle".
std::string type_to_string(const Type &t);
std::ostream &operator<<(std::ostream &os, const Type &t);

} // namespace loom

#endif
