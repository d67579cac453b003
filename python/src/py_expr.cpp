// Bindings of <loom/expr.h>: Expr (with the operators of <loom/ir_operator.h>), Range, and the
// conversions every binding file uses (py_util.h).
#include "py_util.h"

#include <cmath>
#include <sstream>

namespace loom {
namespace python {

bool is_python_number(nb::handle h) {
    if (nb::isinstance<nb::bool_>(h) || nb::isinstance<nb::int_>(h) ||
        nb::isinstance<nb::float_>(h)) {
        return true;
    }
    // NumPy scalars (np.int32(3), np.float32(2.5)) are numbers too.
    nb::object numbers = nb::module_::import_("numbers");
    return nb::isinstance(h, numbers.attr("Number")) && !nb::isinstance<nb::str>(h);
}

namespace {

/// A NumPy integer scalar counts as an int, a NumPy floating scalar as a float.
bool is_integral(nb::handle h) {
    if (nb::isinstance<nb::int_>(h) || nb::isinstance<nb::bool_>(h)) return true;
    return nb::hasattr(h, "__index__") && !nb::isinstance<nb::float_>(h);
}

Expr float_to_expr(double d) {
    float f = (float)d;
    if (std::isfinite(d) && (double)f != d) {
        std::ostringstream os;
        os.precision(17);
        os << "The floating-point value " << d
           << " will be interpreted as a float32 by Loom and lose precision; add an explicit "
              "`f32()` or `f64()` cast to avoid this warning.";
        if (PyErr_WarnEx(PyExc_RuntimeWarning, os.str().c_str(), 1) < 0) {
            throw nb::python_error();
        }
    }
    return Expr(f);
}

Expr int_to_expr(nb::handle h) {
    long long v;
    try {
        v = nb::cast<long long>(nb::int_(h));
    } catch (const nb::cast_error &) {
        throw nb::value_error(
            ("The integer " + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits")
                .c_str());
    }
    if (v >= INT32_MIN && v <= INT32_MAX) return Expr((int32_t)v);
    return Expr((int64_t)v);
}

/// The Expr of an object of one of the Expr-like classes; undefined when h is none of them.
Expr object_to_expr(nb::handle h) {
    if (Expr *e = nullptr; nb::try_cast<Expr *>(h, e) && e) return *e;
    if (Var *v = nullptr; nb::try_cast<Var *>(h, v) && v) return Expr(*v);
    if (RVar *r = nullptr; nb::try_cast<RVar *>(h, r) && r) return Expr(*r);
    if (RDom *r = nullptr; nb::try_cast<RDom *>(h, r) && r) return Expr(*r);
    if (FuncRef *f = nullptr; nb::try_cast<FuncRef *>(h, f) && f) return Expr(*f);
    if (FuncTupleElementRef *f = nullptr; nb::try_cast<FuncTupleElementRef *>(h, f) && f) {
        return Expr(*f);
    }
    if (Param<> *p = nullptr; nb::try_cast<Param<> *>(h, p) && p) return Expr(*p);
    return Expr();
}

} // namespace

Expr number_to_expr(nb::handle h) {
    if (nb::isinstance<nb::bool_>(h)) return cast(Bool(), Expr(nb::cast<bool>(h) ? 1 : 0));
    if (is_integral(h)) return int_to_expr(h);
    return float_to_expr(nb::cast<double>(nb::float_(h)));
}

bool is_expr_like(nb::handle h) { return is_python_number(h) || object_to_expr(h).defined(); }

Expr to_expr(nb::handle h) {
    if (is_python_number(h)) return number_to_expr(h);
    Expr e = object_to_expr(h);
    if (!e.defined()) {
        throw nb::type_error(("Expected an Expr (or a Var, RVar, FuncRef, Param or number), got " +
                              nb::cast<std::string>(nb::str(h.type().attr("__name__"))))
                                 .c_str());
    }
    return e;
}

std::vector<Expr> to_exprs(nb::handle h) {
    std::vector<Expr> out;
    if (nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h)) {
        for (nb::handle item : h) out.push_back(to_expr(item));
    } else {
        out.push_back(to_expr(h));
    }
    return out;
}

VarOrRVar to_var_or_rvar(nb::handle h) {
    if (Var *v = nullptr; nb::try_cast<Var *>(h, v) && v) return VarOrRVar(*v);
    if (RVar *r = nullptr; nb::try_cast<RVar *>(h, r) && r) return VarOrRVar(*r);
    if (RDom *r = nullptr; nb::try_cast<RDom *>(h, r) && r) return VarOrRVar(*r);
    throw nb::type_error(("Expected a Var, RVar or RDom, got " +
                          nb::cast<std::string>(nb::str(h.type().attr("__name__"))))
                             .c_str());
}

Region to_region(nb::handle h) {
    Region region;
    for (nb::handle item : h) {
        if (item.is_none()) {
            region.emplace_back();
        } else if (Range *r = nullptr; nb::try_cast<Range *>(item, r) && r) {
            region.push_back(*r);
        } else if ((nb::isinstance<nb::tuple>(item) || nb::isinstance<nb::list>(item)) &&
                   nb::len(item) == 2) {
            region.emplace_back(to_expr(item[0]), to_expr(item[1]));
        } else {
            throw nb::type_error("Expected a Range or a (min, extent) pair in the list of bounds");
        }
    }
    return region;
}

Expr integer_power(const Expr &a, long long n) {
    if (n < 0) return 1 / integer_power(a, -n);
    if (n == 0) return cast(a.type(), Expr(1));
    Expr result = a;
    for (long long i = 1; i < n; i++) result = result * a;
    return result;
}

Expr floor_quotient(const Expr &q) {
    if (q.type().is_float()) return cast(q.type(), floor(q));
    return q;
}

namespace {

bool is_bool_expr(const Expr &e) { return e.type().is_bool(); }

nb::object logic_op(const Expr &a, nb::handle b, bool reversed, bool is_and) {
    if (!is_expr_like(b)) return nb::borrow(Py_NotImplemented);
    if (is_bool_expr(a) && (nb::isinstance<nb::bool_>(b) || is_bool_expr(to_expr(b)))) {
        Expr e = to_expr(b);
        Expr l = reversed ? e : a, r = reversed ? a : e;
        return nb::cast(is_and ? (l && r) : (l || r));
    }
    if (is_and) {
        return binary_op(a, b, reversed, [](auto x, auto y) { return x & y; });
    }
    return binary_op(a, b, reversed, [](auto x, auto y) { return x | y; });
}

} // namespace

nb::object and_op(const Expr &a, nb::handle b, bool reversed) {
    return logic_op(a, b, reversed, true);
}
nb::object or_op(const Expr &a, nb::handle b, bool reversed) {
    return logic_op(a, b, reversed, false);
}

std::string expr_repr(const Expr &e) {
    std::ostringstream os;
    os << e;
    return os.str();
}

void define_expr(nb::module_ &m) {
    nb::class_<Expr> expr(m, "Expr",
                          "An expression: a handle to an immutable tree of operations. Python "
                          "numbers convert with Halide's rules (see the Python guide).");
    expr.def(nb::init<>())
        .def("__init__", [](Expr *self, nb::handle h) { new (self) Expr(to_expr(h)); })
        .def("type", &Expr::type, "The type of the expression.")
        .def("defined", [](const Expr &e) { return e.defined(); })
        .def("same_as", [](const Expr &a, const Expr &b) { return a.same_as(b); })
        .def("__str__", [](const Expr &e) { return expr_repr(e); })
        .def("__repr__", [](const Expr &e) {
            return "<loom.Expr of type " + type_to_string(e.type()) + ": " + expr_repr(e) + ">";
        });
    add_expr_operators(expr);
    nb::implicitly_convertible<bool, Expr>();
    nb::implicitly_convertible<int, Expr>();
    nb::implicitly_convertible<double, Expr>();

    nb::class_<Range>(m, "Range", "A (min, extent) interval of one dimension.")
        .def(nb::init<>())
        .def("__init__", [](Range *self, nb::handle min,
                            nb::handle extent) { new (self) Range(to_expr(min), to_expr(extent)); })
        // A (min, extent) pair, as Halide's Python binding takes: RDom([(0, w), (0, h)]).
        .def("__init__",
             [](Range *self, const nb::tuple &pair) {
                 if (nb::len(pair) != 2) {
                     throw nb::type_error("a Range is a (min, extent) pair");
                 }
                 new (self) Range(to_expr(pair[0]), to_expr(pair[1]));
             })
        .def_rw("min", &Range::min)
        .def_rw("extent", &Range::extent)
        .def("__repr__", [](const Range &r) {
            return "<loom.Range [" + expr_repr(r.min) + ", " + expr_repr(r.extent) + "]>";
        });
    nb::implicitly_convertible<nb::tuple, Range>();
}

} // namespace python
} // namespace loom
