#ifndef LOOM_PARAM_H
#define LOOM_PARAM_H

/// \file Param<T>: a scalar argument of a pipeline (Halide's Param). It converts to an Expr that
/// reads the parameter; its value is set from C++ before realize, or passed as an argument of
/// an ahead-of-time compiled function.

#include <loom/error.h>
#include <loom/expr.h>
#include <loom/intrusive_ptr.h>
#include <loom/type.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace loom {

struct Argument;

namespace internal {

class Parameter;

/// The part of Param<T> that does not depend on T (param.cpp): a handle to the scalar
/// internal::Parameter and everything that only needs its runtime Type.
class ParamBase {
public:
    /// The parameter's name (the name of its argument in compiled code).
    const std::string &name() const;
    /// The parameter's type.
    Type type() const;

    /// Constrain the value to [min, max]; an undefined Expr removes that side. Values are cast to
    /// the parameter's type. Compiled code checks the constraint and lowering uses it as a fact.
    void set_range(const Expr &min, const Expr &max);
    /// Constrain the smallest value (see set_range).
    void set_min_value(const Expr &min);
    /// Constrain the largest value (see set_range).
    void set_max_value(const Expr &max);
    /// The minimum constraint (undefined when none).
    Expr min_value() const;
    /// The maximum constraint (undefined when none).
    Expr max_value() const;
    /// The value autoschedulers assume (undefined when none).
    Expr estimate() const;

    /// A Variable of the parameter's type, named after it, with the parameter attached.
    operator Expr() const;
    /// The parameter as a pipeline argument (a scalar input).
    operator Argument() const;
    /// The shared state (compiled code reads the value from it).
    Parameter parameter() const;

protected:
    /// A new scalar parameter; an empty name gets a unique one starting with 'p'.
    ParamBase(Type t, const std::string &name);
    /// Raw storage of the value (8 bytes).
    void *scalar_address() const;
    void set_estimate_expr(const Expr &e);
    /// Throws the CompileError of a value that does not fit the parameter's type.
    [[noreturn]] void value_does_not_fit(const std::string &value) const;
    /// For a Param<T> made from (or assigned) another Param: a CompileError unless `from` has
    /// type `to` (`verb` is "constructed" or "copied").
    static void check_conversion(Type to, Type from, const char *verb);

    /// The ParameterContents (the `contents` of an internal::Parameter).
    IntrusivePtr<RefCounted> contents;
};

/// True when `val` can be stored in a To without changing it. Any number may be stored in a
/// floating-point parameter (rounding as C does, so `Param<float> p; p.set(0.1)` works); an
/// integer parameter needs an integer value in its range.
template <typename To, typename From>
bool is_roundtrippable(const From &val) {
    if constexpr (is_float16_class<From> && !std::is_same<To, From>::value) {
        return is_roundtrippable<To>((double)val);
    } else if constexpr (is_float16_class<To> && std::is_arithmetic<From>::value) {
        // NaN survives as NaN; everything else must be exactly representable.
        double d = (double)val, back = (double)To(d);
        return back == d || (d != d && back != back);
    } else if constexpr (std::is_same<To, From>::value || std::is_floating_point<To>::value) {
        return true;
    } else if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
        // Test the range first: an out-of-range float to int conversion is undefined.
        long double v = val;
        if (!(v >= (long double)std::numeric_limits<To>::lowest() &&
              v < (long double)std::numeric_limits<To>::max() + 1.0L)) {
            return false;
        }
        return (From)(To)val == val;
    } else if constexpr (std::is_integral<To>::value && std::is_integral<From>::value) {
        To t = (To)val;
        if ((From)t != val) return false;
        // A sign change survives the round trip (int32 -1 -> uint32 -> int32), so check it.
        if constexpr (std::is_signed<From>::value && !std::is_signed<To>::value) {
            if (val < 0) return false;
        }
        if constexpr (!std::is_signed<From>::value && std::is_signed<To>::value) {
            if (t < 0) return false;
        }
        return true;
    } else {
        return false;
    }
}

/// `val` as an S, through double when either is a 16-bit float class (whose constructors from
/// other arithmetic types would be ambiguous).
template <typename S, typename V>
S convert_param_value(const V &val) {
    if constexpr (!std::is_same<S, V>::value && (is_float16_class<S> || is_float16_class<V>)) {
        return (S)(double)val;
    } else {
        return (S)val;
    }
}

/// Stands for the value type of Param<void>, whose value constructors can't be used.
struct ParamVoidPlaceholder {};

/// Text of a value for error messages.
template <typename T>
std::string param_value_to_string(const T &v) {
    if constexpr (std::is_same<T, bool>::value) {
        return v ? "true" : "false";
    } else if constexpr (std::is_arithmetic<T>::value) {
        return std::to_string(v);
    } else if constexpr (is_float16_class<T>) {
        return std::to_string((double)v);
    } else {
        return "<value>";
    }
}

} // namespace internal

/// A scalar parameter of type T (Halide's Param). Param<void> has its type chosen at run time.
template <typename T = void>
class Param : public internal::ParamBase {
    static Type static_type() {
        static_assert(!std::is_void<T>::value, "Param<void> needs an explicit Type");
        return type_of<T>();
    }

    /// T, or a placeholder for Param<void>, so the value constructors take exactly a T (a
    /// deduced type would let `Param<float> p("name")` pick the value constructor).
    using not_void_T =
        typename std::conditional<std::is_void<T>::value, internal::ParamVoidPlaceholder, T>::type;

public:
    /// The C++ type of the value.
    using ElemType = T;

    /// A parameter with a unique name.
    template <typename T2 = T, typename std::enable_if<!std::is_void<T2>::value>::type * = nullptr>
    Param() : ParamBase(static_type(), "") {}
    /// A parameter with the given name.
    template <typename T2 = T, typename std::enable_if<!std::is_void<T2>::value>::type * = nullptr>
    explicit Param(const std::string &name) : ParamBase(static_type(), name) {}
    /// (A string literal must not pick the value constructor of Param<bool>.)
    template <typename T2 = T, typename std::enable_if<!std::is_void<T2>::value>::type * = nullptr>
    explicit Param(const char *name) : ParamBase(static_type(), name) {}
    /// A parameter with a unique name and an initial value.
    explicit Param(not_void_T value) : ParamBase(static_type(), "") { set(value); }
    /// A named parameter with an initial value.
    Param(const std::string &name, not_void_T value) : ParamBase(static_type(), name) {
        set(value);
    }
    /// A named parameter with an initial value, constrained to [min, max].
    Param(const std::string &name, not_void_T value, const Expr &min, const Expr &max)
        : ParamBase(static_type(), name) {
        set_range(min, max);
        set(value);
    }
    /// Param<void>: a parameter of type `t` with a unique name.
    template <typename T2 = T, typename std::enable_if<std::is_void<T2>::value>::type * = nullptr>
    explicit Param(Type t) : ParamBase(t, "") {}
    /// Param<void>: a parameter of type `t` named `name`.
    template <typename T2 = T, typename std::enable_if<std::is_void<T2>::value>::type * = nullptr>
    Param(Type t, const std::string &name) : ParamBase(t, name) {}

    /// Param<void> from any Param: the same parameter.
    template <typename Other, typename T2 = T,
              typename std::enable_if<std::is_void<T2>::value>::type * = nullptr>
    Param(const Param<Other> &other) : ParamBase(other) {}
    /// Param<T> from a Param of another C++ type (a Param<void>) whose type is T's.
    template <typename Other, typename T2 = T,
              typename std::enable_if<!std::is_void<T2>::value &&
                                      !std::is_same<Other, T2>::value>::type * = nullptr>
    Param(const Param<Other> &other) : ParamBase(other) {
        check_conversion(type_of<T>(), other.type(), "constructed");
    }
    Param(const Param &) = default;
    /// Assigning another Param makes this one the same parameter (checked as above).
    template <typename Other>
    Param &operator=(const Param<Other> &other) {
        if constexpr (!std::is_void<T>::value) {
            check_conversion(type_of<T>(), other.type(), "copied");
        }
        ParamBase::operator=(other);
        return *this;
    }
    Param &operator=(const Param &) = default;

    /// Set the value. A value that does not convert to the parameter's type exactly (e.g. 300
    /// for a Param<uint8_t>) is a CompileError.
    template <typename V>
    void set(const V &val) {
        static_assert(std::is_arithmetic<V>::value || internal::is_float16_class<V> ||
                          std::is_pointer<V>::value,
                      "Param values are numbers or pointers");
        if constexpr (!std::is_void<T>::value) {
            store<T>(val);
        } else {
            Type t = type();
            if (t.is_handle()) {
                store<void *>(val);
            } else if (t.is_bool()) {
                store<bool>(val);
            } else if (t == Int(8)) {
                store<int8_t>(val);
            } else if (t == Int(16)) {
                store<int16_t>(val);
            } else if (t == Int(32)) {
                store<int32_t>(val);
            } else if (t == Int(64)) {
                store<int64_t>(val);
            } else if (t == UInt(8)) {
                store<uint8_t>(val);
            } else if (t == UInt(16)) {
                store<uint16_t>(val);
            } else if (t == UInt(32)) {
                store<uint32_t>(val);
            } else if (t == UInt(64)) {
                store<uint64_t>(val);
            } else if (t == Float(16)) {
                store<float16_t>(val);
            } else if (t == BFloat(16)) {
                store<bfloat16_t>(val);
            } else if (t == Float(32)) {
                store<float>(val);
            } else if (t == Float(64)) {
                store<double>(val);
            } else {
                value_does_not_fit(internal::param_value_to_string(val));
            }
        }
    }

    /// The current value (for Param<void>, get<V>() converts it to V).
    template <typename V = T>
    V get() const {
        static_assert(!std::is_void<V>::value, "Param<void>::get needs a type: get<float>()");
        if constexpr (!std::is_void<T>::value) {
            T v;
            std::memcpy(&v, scalar_address(), sizeof(T));
            return internal::convert_param_value<V>(v);
        } else {
            Type t = type();
            if (t.is_handle()) return load<void *, V>();
            if (t.is_bool()) return load<bool, V>();
            if (t == Int(8)) return load<int8_t, V>();
            if (t == Int(16)) return load<int16_t, V>();
            if (t == Int(32)) return load<int32_t, V>();
            if (t == Int(64)) return load<int64_t, V>();
            if (t == UInt(8)) return load<uint8_t, V>();
            if (t == UInt(16)) return load<uint16_t, V>();
            if (t == UInt(32)) return load<uint32_t, V>();
            if (t == UInt(64)) return load<uint64_t, V>();
            if (t == Float(16)) return load<float16_t, V>();
            if (t == BFloat(16)) return load<bfloat16_t, V>();
            if (t == Float(32)) return load<float, V>();
            return load<double, V>();
        }
    }

    /// The value autoschedulers assume (checked like set).
    template <typename V>
    Param &set_estimate(const V &val) {
        static_assert(std::is_arithmetic<V>::value || internal::is_float16_class<V>,
                      "Param estimates are numbers");
        if constexpr (!std::is_void<T>::value) {
            if (!internal::is_roundtrippable<T>(val)) {
                value_does_not_fit(internal::param_value_to_string(val));
            }
        }
        set_estimate_expr(make_value_expr(val));
        return *this;
    }

private:
    template <typename S, typename V>
    void store(const V &val) {
        if constexpr (std::is_pointer<S>::value || std::is_pointer<V>::value) {
            if constexpr (std::is_pointer<S>::value && std::is_pointer<V>::value) {
                S s = (S)val;
                std::memcpy(scalar_address(), &s, sizeof(S));
            } else {
                value_does_not_fit(internal::param_value_to_string(val));
            }
        } else {
            if (!internal::is_roundtrippable<S>(val)) {
                value_does_not_fit(internal::param_value_to_string(val));
            }
            S s = internal::convert_param_value<S>(val);
            std::memcpy(scalar_address(), &s, sizeof(S));
        }
    }
    template <typename S, typename V>
    V load() const {
        S s;
        std::memcpy(&s, scalar_address(), sizeof(S));
        if constexpr (std::is_pointer<S>::value != std::is_pointer<V>::value) {
            value_does_not_fit("<handle>");
        } else {
            return internal::convert_param_value<V>(s);
        }
    }
    template <typename V>
    static Expr make_value_expr(const V &val) {
        if constexpr (std::is_same<V, bool>::value) {
            return Expr((uint8_t)val); // cast to the parameter's type by set_estimate_expr
        } else if constexpr (std::is_integral<V>::value && std::is_signed<V>::value) {
            return Expr((int64_t)val);
        } else if constexpr (std::is_integral<V>::value) {
            return Expr((uint64_t)val);
        } else if constexpr (internal::is_float16_class<V>) {
            return Expr(val);
        } else {
            return Expr((double)val);
        }
    }
};

} // namespace loom

#endif
