#ifndef LOOM_CONCISE_CASTS_H
#define LOOM_CONCISE_CASTS_H

/// \file Short names for casts, for code that converts a lot (Halide's ConciseCasts):
/// `u8(x)` is cast<uint8_t>(x) (wrapping), `u8_sat(x)` is saturating_cast<uint8_t>(x).

#include <loom/ir_operator.h>

namespace loom {
namespace ConciseCasts {

/// Wrapping (for integers) or rounding (for floats) conversions.
inline Expr f64(Expr e) { return cast(Float(64), std::move(e)); }
inline Expr f32(Expr e) { return cast(Float(32), std::move(e)); }
inline Expr f16(Expr e) { return cast(Float(16), std::move(e)); }
inline Expr bf16(Expr e) { return cast(BFloat(16), std::move(e)); }
inline Expr i64(Expr e) { return cast(Int(64), std::move(e)); }
inline Expr i32(Expr e) { return cast(Int(32), std::move(e)); }
inline Expr i16(Expr e) { return cast(Int(16), std::move(e)); }
inline Expr i8(Expr e) { return cast(Int(8), std::move(e)); }
inline Expr u64(Expr e) { return cast(UInt(64), std::move(e)); }
inline Expr u32(Expr e) { return cast(UInt(32), std::move(e)); }
inline Expr u16(Expr e) { return cast(UInt(16), std::move(e)); }
inline Expr u8(Expr e) { return cast(UInt(8), std::move(e)); }

/// Conversions that clamp to the destination's range.
inline Expr i8_sat(Expr e) { return saturating_cast(Int(8), std::move(e)); }
inline Expr u8_sat(Expr e) { return saturating_cast(UInt(8), std::move(e)); }
inline Expr i16_sat(Expr e) { return saturating_cast(Int(16), std::move(e)); }
inline Expr u16_sat(Expr e) { return saturating_cast(UInt(16), std::move(e)); }
inline Expr i32_sat(Expr e) { return saturating_cast(Int(32), std::move(e)); }
inline Expr u32_sat(Expr e) { return saturating_cast(UInt(32), std::move(e)); }
inline Expr i64_sat(Expr e) { return saturating_cast(Int(64), std::move(e)); }
inline Expr u64_sat(Expr e) { return saturating_cast(UInt(64), std::move(e)); }

} // namespace ConciseCasts
} // namespace loom

#endif
