// Bindings of <loom/concise_casts.h>: u8 ... f64 and the saturating u8_sat ... i64_sat.
//
// As in Halide's bindings, a Python number given to a wrapping cast becomes a constant of the
// target type directly (u8(300) is 44, f64(0.1) is the double 0.1 and f32(0.1) warns of
// nothing), while the saturating casts convert a number with py_util.h's rules first
// (u8_sat(300) saturates the int32 300).
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// cast(t, h) where h is a Python number converted exactly (an int through int64 or uint64, a
/// float through double) and an Expr-like otherwise.
Expr cast_value(Type t, nb::handle h) {
    if (!is_python_number(h)) return cast(t, to_expr(h));
    if (nb::isinstance<nb::bool_>(h)) return cast(t, Expr(nb::cast<bool>(h) ? 1 : 0));
    bool integral = nb::hasattr(h, "__index__") && !nb::isinstance<nb::float_>(h);
    if (!integral) return cast(t, Expr(nb::cast<double>(nb::float_(h))));
    nb::int_ i(h);
    if (int64_t v; nb::try_cast<int64_t>(i, v)) return cast(t, Expr(v));
    if (uint64_t v; nb::try_cast<uint64_t>(i, v)) return cast(t, Expr(v));
    throw nb::value_error(
        ("The integer " + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits").c_str());
}

} // namespace

void define_concise_casts(nb::module_ &m) {
#define LOOM_PY_CAST(name, type) m.def(#name, [](nb::handle e) { return cast_value(type, e); });
    LOOM_PY_CAST(f64, Float(64))
    LOOM_PY_CAST(f32, Float(32))
    LOOM_PY_CAST(f16, Float(16))
    LOOM_PY_CAST(bf16, BFloat(16))
    LOOM_PY_CAST(i64, Int(64))
    LOOM_PY_CAST(i32, Int(32))
    LOOM_PY_CAST(i16, Int(16))
    LOOM_PY_CAST(i8, Int(8))
    LOOM_PY_CAST(u64, UInt(64))
    LOOM_PY_CAST(u32, UInt(32))
    LOOM_PY_CAST(u16, UInt(16))
    LOOM_PY_CAST(u8, UInt(8))
#undef LOOM_PY_CAST
#define LOOM_PY_SAT(name) m.def(#name, [](nb::handle e) { return ConciseCasts::name(to_expr(e)); });
    LOOM_PY_SAT(i8_sat)
    LOOM_PY_SAT(u8_sat)
    LOOM_PY_SAT(i16_sat)
    LOOM_PY_SAT(u16_sat)
    LOOM_PY_SAT(i32_sat)
    LOOM_PY_SAT(u32_sat)
    LOOM_PY_SAT(i64_sat)
    LOOM_PY_SAT(u64_sat)
#undef LOOM_PY_SAT
}

} // namespace python
} // namespace loom
