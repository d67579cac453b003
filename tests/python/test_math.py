"""The free functions of loom (Halide's IROperator and ConciseCasts): each math function realized
over a grid and compared with NumPy within a tolerance, and the integer helpers (select, mux,
clamp, lerp, saturating, halving and widening ops, bit counts, casts) against exact NumPy
references; evaluate, lambda_func, print and require."""
import math

import numpy as np
import pytest

import loom as hl

N = 200


def realize(fn, *arrays):
    """fn applied to the elements of 1-D arrays, computed by a loom pipeline."""
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = fn(*[hl.Buffer(np.ascontiguousarray(a))[x] for a in arrays])
    return np.asarray(f.realize([len(arrays[0])]))


def grid(lo, hi, dtype, n=N):
    return np.linspace(lo, hi, n).astype(dtype)


TOL = {np.float32: dict(rtol=2e-6, atol=1e-6), np.float64: dict(rtol=1e-13, atol=1e-14)}

UNARY = [
    ("sqrt", hl.sqrt, np.sqrt, (0.0, 100.0)),
    ("exp", hl.exp, np.exp, (-10.0, 10.0)),
    ("log", hl.log, np.log, (0.01, 100.0)),
    ("sin", hl.sin, np.sin, (-10.0, 10.0)),
    ("cos", hl.cos, np.cos, (-10.0, 10.0)),
    ("tan", hl.tan, np.tan, (-1.4, 1.4)),
    ("asin", hl.asin, np.arcsin, (-0.99, 0.99)),
    ("acos", hl.acos, np.arccos, (-0.99, 0.99)),
    ("atan", hl.atan, np.arctan, (-10.0, 10.0)),
    ("sinh", hl.sinh, np.sinh, (-5.0, 5.0)),
    ("cosh", hl.cosh, np.cosh, (-5.0, 5.0)),
    ("tanh", hl.tanh, np.tanh, (-5.0, 5.0)),
    ("asinh", hl.asinh, np.arcsinh, (-10.0, 10.0)),
    ("acosh", hl.acosh, np.arccosh, (1.0, 10.0)),
    ("atanh", hl.atanh, np.arctanh, (-0.99, 0.99)),
    ("erf", hl.erf, np.vectorize(math.erf), (-3.0, 3.0)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn,ref,domain", UNARY, ids=[u[0] for u in UNARY])
def test_unary_math(dtype, name, fn, ref, domain):
    a = grid(*domain, dtype)
    out = realize(fn, a)
    assert out.dtype == dtype
    expected = ref(a.astype(np.float64))
    tol = dict(TOL[dtype])
    if dtype == np.float32:
        # float32 results of float32 arguments: a few ulps of the result.
        tol = dict(rtol=4e-6, atol=2e-6)
    np.testing.assert_allclose(out, expected, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_math(dtype):
    y = grid(-5.0, 5.0, dtype)
    x = grid(5.0, -3.0, dtype)
    tol = TOL[dtype] if dtype == np.float64 else dict(rtol=4e-6, atol=2e-6)
    np.testing.assert_allclose(realize(hl.atan2, y, x), np.arctan2(y, x), **tol)
    np.testing.assert_allclose(realize(hl.hypot, x, y), np.hypot(x, y), **tol)
    base = grid(0.1, 4.0, dtype)
    expected = np.power(base.astype(np.float64), y)
    np.testing.assert_allclose(realize(hl.pow, base, y), expected, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rounding(dtype):
    # Quarters, so that halves (round to even) and negative values are covered.
    a = (np.arange(-40, 41) / 4.0).astype(dtype)
    for fn, ref in [
        (hl.floor, np.floor),
        (hl.ceil, np.ceil),
        (hl.round, np.rint),
        (hl.trunc, np.trunc),
        (hl.fract, lambda v: v - np.trunc(v)),
    ]:
        out = realize(fn, a)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, ref(a))


def test_integer_arguments_are_computed_in_float32():
    a = np.arange(-5, 6, dtype=np.int32)
    out = realize(hl.sin, a)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.sin(a.astype(np.float32)), rtol=4e-6, atol=1e-6)
    out = realize(hl.floor, a)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, a.astype(np.float32))
    assert hl.sqrt(2).type() == hl.Float(32)


def test_float_classification():
    a = np.array([0.0, -1.5, np.nan, np.inf, -np.inf, 3e38], dtype=np.float32)
    for fn, ref in [(hl.is_nan, np.isnan), (hl.is_inf, np.isinf), (hl.is_finite, np.isfinite)]:
        out = realize(fn, a)
        assert out.dtype == np.bool_
        np.testing.assert_array_equal(out, ref(a))
    with pytest.raises(hl.CompileError, match="float"):
        hl.is_nan(hl.Var("x"))


def test_fast_approximations():
    pos = grid(0.1, 10.0, np.float32)
    ang = grid(-3.0, 3.0, np.float32)
    np.testing.assert_allclose(realize(hl.fast_inverse, pos), 1 / pos, rtol=1e-2)
    np.testing.assert_allclose(realize(hl.fast_inverse_sqrt, pos), 1 / np.sqrt(pos), rtol=1e-2)
    np.testing.assert_allclose(realize(hl.fast_exp, ang), np.exp(ang), rtol=1e-3)
    np.testing.assert_allclose(realize(hl.fast_log, pos), np.log(pos), rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(realize(hl.fast_sin, ang), np.sin(ang), atol=1e-3)
    np.testing.assert_allclose(realize(hl.fast_cos, ang), np.cos(ang), atol=1e-3)
    np.testing.assert_allclose(
        realize(lambda p: hl.fast_pow(p, 1.5), pos), pos**1.5, rtol=1e-3
    )


# ---- Integer helpers ----

INTS = [np.uint8, np.int8, np.uint16, np.int16, np.int32]


def full_range(dtype, n=N, seed=0):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    a = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=np.int64)
    a[:2] = [info.min, info.max]
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", INTS)
def test_abs_and_absd_are_unsigned(dtype):
    a, b = full_range(dtype, seed=1), full_range(dtype, seed=2)
    utype = np.dtype(dtype).str.replace("i", "u")
    out = realize(hl.abs, a)
    assert out.dtype == np.dtype(utype)
    np.testing.assert_array_equal(out, np.abs(a.astype(np.int64)))
    out = realize(hl.absd, a, b)
    assert out.dtype == np.dtype(utype)
    np.testing.assert_array_equal(out, np.abs(a.astype(np.int64) - b.astype(np.int64)))


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16])
def test_saturating_halving_and_widening(dtype):
    a, b = full_range(dtype, seed=3), full_range(dtype, seed=4)
    info = np.iinfo(dtype)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    wide = np.dtype(f"{np.dtype(dtype).kind}{2 * np.dtype(dtype).itemsize}")
    cases = [
        (hl.saturating_add, np.clip(a64 + b64, info.min, info.max), dtype),
        (hl.saturating_sub, np.clip(a64 - b64, info.min, info.max), dtype),
        (hl.halving_add, (a64 + b64) >> 1, dtype),
        (hl.rounding_halving_add, (a64 + b64 + 1) >> 1, dtype),
        (hl.widening_add, a64 + b64, wide),
        (hl.widening_mul, a64 * b64, wide),
    ]
    for fn, expected, out_type in cases:
        out = realize(fn, a, b)
        assert out.dtype == np.dtype(out_type)
        np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16])
def test_mul_shift_right(dtype):
    a, b = full_range(dtype, seed=5), full_range(dtype, seed=6)
    info = np.iinfo(dtype)
    for q in (0, 3, info.bits - 1):
        out = realize(lambda p, r: hl.mul_shift_right(p, r, q), a, b)
        assert out.dtype == dtype
        expected = np.clip((a.astype(np.int64) * b.astype(np.int64)) >> q, info.min, info.max)
        np.testing.assert_array_equal(out, expected)


def test_round_to_zero_division():
    a = np.array([7, -7, 7, -7, 0, 100, -100], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 3, 7, 7], dtype=np.int32)
    np.testing.assert_array_equal(
        realize(hl.div_round_to_zero, a, b), np.trunc(a / b).astype(np.int32)
    )
    np.testing.assert_array_equal(realize(hl.mod_round_to_zero, a, b), np.fmod(a, b))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint32, np.int32])
def test_bit_counts(dtype):
    a = full_range(dtype, seed=7)
    a[2] = 0
    bits = np.iinfo(dtype).bits
    mask = (1 << bits) - 1
    as_unsigned = [int(v) & mask for v in a]
    popcount = [bin(v).count("1") for v in as_unsigned]
    clz = [bits - v.bit_length() for v in as_unsigned]
    ctz = [bits if v == 0 else (v & -v).bit_length() - 1 for v in as_unsigned]
    for fn, expected in [
        (hl.popcount, popcount),
        (hl.count_leading_zeros, clz),
        (hl.count_trailing_zeros, ctz),
    ]:
        out = realize(fn, a)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, expected)


def test_select_multiway_and_with_tuples():
    a = np.arange(-6, 7, dtype=np.int32)
    out = realize(lambda p: hl.select(p < -2, -1, p > 2, 1, 0), a)
    np.testing.assert_array_equal(out, np.select([a < -2, a > 2], [-1, 1], 0))
    # An int literal value takes the other value's type.
    out = realize(lambda p: hl.select(p > 0, hl.u8(p), 255), a)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, np.where(a > 0, a, 255).astype(np.uint8))
    with pytest.raises(ValueError, match="at least 3"):
        hl.select(hl.Var("x") > 0, 1)
    with pytest.raises(ValueError, match="odd"):
        hl.select(hl.Var("x") > 0, 1, hl.Var("x") < 0, 2)
    # Tuple values give a Python tuple of Exprs; conditions may be Exprs or tuples.
    x = hl.Var("x")
    t = hl.select(x > 2, (x, x * 2), (x * 10, hl.Tuple([x * 20])[0]))
    assert isinstance(t, tuple) and len(t) == 2
    f = hl.Func("f")
    f[x] = t
    r0, r1 = f.realize([5])
    np.testing.assert_array_equal(np.asarray(r0), [0, 10, 20, 3, 4])
    np.testing.assert_array_equal(np.asarray(r1), [0, 20, 40, 6, 8])
    g = hl.Func("g")
    g[x] = hl.select((x > 1, x > 3), (x, x), (-x, -x))
    r0, r1 = g.realize([5])
    np.testing.assert_array_equal(np.asarray(r0), [0, -1, 2, 3, 4])
    np.testing.assert_array_equal(np.asarray(r1), [0, -1, -2, -3, 4])


def test_mux():
    a = np.arange(-1, 6, dtype=np.int32)
    out = realize(lambda p: hl.mux(p, [10, 20, 30]), a)
    # An out-of-range index gives the last value.
    np.testing.assert_array_equal(out, [30, 10, 20, 30, 30, 30, 30])
    x = hl.Var("x")
    t = hl.mux(x, [hl.Tuple([x, x + 1]), (x * 2, x * 3)])
    assert isinstance(t, hl.Tuple) and len(t) == 2
    f = hl.Func("f")
    f[x] = t
    r0, r1 = f.realize([3])
    np.testing.assert_array_equal(np.asarray(r0), [0, 2, 4])
    np.testing.assert_array_equal(np.asarray(r1), [1, 3, 6])
    out = realize(lambda p: hl.mux(p, hl.Tuple([p * 5, p * 7])), np.arange(3, dtype=np.int32))
    np.testing.assert_array_equal(out, [0, 7, 14])


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32])
def test_clamp_min_max(dtype):
    a = (np.arange(N) - N // 2).astype(dtype) if dtype != np.uint8 else np.arange(N, dtype=dtype)
    out = realize(lambda p: hl.clamp(p, 10, 60), a)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.clip(a, 10, 60))
    b = a[::-1].copy()
    np.testing.assert_array_equal(realize(hl.min, a, b), np.minimum(a, b))
    np.testing.assert_array_equal(realize(hl.max, a, b), np.maximum(a, b))
    c = np.roll(a, 7)
    np.testing.assert_array_equal(realize(hl.max, a, b, c), np.maximum(np.maximum(a, b), c))
    np.testing.assert_array_equal(realize(hl.min, a, b, c), np.minimum(np.minimum(a, b), c))
    with pytest.raises(ValueError, match="at least 2"):
        hl.min(hl.Var("x"))


def test_min_max_of_python_numbers_follow_halides_bindings():
    # In a function (unlike an operator), a Python int is an int32 Expr first.
    u = hl.u8(hl.Var("x"))
    assert hl.max(u, 1).type() == hl.Int(32)
    assert hl.max(u, 1.5).type() == hl.Float(32)
    assert hl.clamp(u, 0, 255).type() == hl.UInt(8)
    with pytest.raises(hl.CompileError):
        hl.clamp(u, 0, 300)


def test_lerp():
    a = np.arange(256, dtype=np.uint8)
    zero, one = a, a[::-1].copy()
    for w in (0, 1, 100, 128, 254, 255):
        weight = np.full(256, w, dtype=np.uint8)
        out = realize(hl.lerp, zero, one, weight)
        assert out.dtype == np.uint8
        z, o = zero.astype(np.int64), one.astype(np.int64)
        np.testing.assert_array_equal(out, (z * (255 - w) + o * w + 127) // 255)
    fz = grid(-3.0, 3.0, np.float32)
    fo = grid(10.0, -2.0, np.float32)
    fw = grid(0.0, 1.0, np.float32)
    out = realize(hl.lerp, fz, fo, fw)
    np.testing.assert_allclose(out, fz + (fo - fz) * fw, rtol=1e-5, atol=1e-5)


def test_casts_and_saturating_casts():
    a = np.array([-300, -129, -1, 0, 1, 127, 200, 255, 256, 70000], dtype=np.int32)
    for name, dtype, type in [
        ("u8", np.uint8, hl.UInt(8)),
        ("i8", np.int8, hl.Int(8)),
        ("u16", np.uint16, hl.UInt(16)),
        ("i16", np.int16, hl.Int(16)),
    ]:
        out = realize(getattr(hl, name), a)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, a.astype(dtype))  # wraps
        out = realize(getattr(hl, name + "_sat"), a)
        info = np.iinfo(dtype)
        np.testing.assert_array_equal(out, np.clip(a, info.min, info.max))
        out = realize(lambda p: hl.saturating_cast(type, p), a)
        np.testing.assert_array_equal(out, np.clip(a, info.min, info.max))
    f = np.array([-2.7, -0.5, 0.5, 2.7, 300.2], dtype=np.float32)
    np.testing.assert_array_equal(realize(hl.i32, f), [-2, 0, 0, 2, 300])  # toward zero
    np.testing.assert_array_equal(realize(hl.u8_sat, f), [0, 0, 0, 2, 255])
    np.testing.assert_array_equal(realize(lambda p: hl.cast(hl.Int(16), p), f), [-2, 0, 0, 2, 300])
    out = realize(hl.f64, f)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, f.astype(np.float64))
    out = realize(hl.f16, f[:4])
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, f[:4].astype(np.float16))


def test_concise_casts_of_python_numbers_are_constants_of_the_type():
    assert hl.evaluate(hl.u8(300)) == 44
    assert hl.evaluate(hl.i8(-129)) == 127
    assert hl.evaluate(hl.f64(0.1)) == 0.1  # exact: no float32 rounding, no warning
    assert hl.evaluate(hl.f32(0.1)) == np.float32(0.1)
    assert hl.evaluate(hl.i64(2**40)) == 2**40
    assert hl.evaluate(hl.u64(2**63 + 5)) == 2**63 + 5
    assert hl.evaluate(hl.u8(2.5)) == 2
    assert hl.evaluate(hl.u8_sat(300)) == 255
    assert hl.u8(3).type() == hl.UInt(8)


def test_reinterpret_and_bits():
    f = np.array([0.0, 1.0, -2.5, 1e-30], dtype=np.float32)
    out = realize(lambda p: hl.reinterpret(hl.UInt(32), p), f)
    assert out.dtype == np.uint32
    np.testing.assert_array_equal(out, f.view(np.uint32))
    words = np.array([0x12345678, 0xDEADBEEF, 0], dtype=np.uint32)
    for k in range(4):
        out = realize(lambda p: hl.extract_bits(hl.UInt(8), p, 8 * k), words)
        assert out.dtype == np.uint8
        np.testing.assert_array_equal(out, (words >> (8 * k)) & 0xFF)
    lo = np.array([0x12, 0xFF, 0], dtype=np.uint8)
    hi = np.array([0x34, 0x01, 0xAB], dtype=np.uint8)
    out = realize(lambda p, q: hl.concat_bits([p, q]), lo, hi)
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(out, lo.astype(np.uint16) | (hi.astype(np.uint16) << 8))


def test_hints_keep_values():
    a = np.arange(-5, 5, dtype=np.int32)
    for fn in (hl.likely, hl.likely_if_innermost, lambda p: hl.unsafe_promise_clamped(p, -5, 4)):
        np.testing.assert_array_equal(realize(fn, a), a)
    f = grid(-1.0, 1.0, np.float32)
    np.testing.assert_allclose(
        realize(lambda p: hl.strict_float(p * 3.0 + 1.0), f), f * 3 + 1, rtol=1e-6, atol=1e-7
    )


def test_random_numbers_are_fixed_functions_of_the_coordinates():
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.random_float()
    a = np.asarray(f.realize([10000]))
    b = np.asarray(f.realize([10000]))
    np.testing.assert_array_equal(a, b)
    assert a.dtype == np.float32
    assert a.min() >= 0.0 and a.max() < 1.0
    assert abs(a.mean() - 0.5) < 0.02
    assert len(np.unique(a)) > 9000
    g = hl.Func("g")
    g[x] = hl.random_float(hl.Expr(42))
    assert not np.array_equal(np.asarray(g.realize([100])), a[:100])
    h = hl.Func("h")
    h[x] = hl.random_int(), hl.random_uint()
    r0, r1 = h.realize([1000])
    assert np.asarray(r0).dtype == np.int32 and np.asarray(r1).dtype == np.uint32
    assert len(np.unique(np.asarray(r0))) > 990


def test_undef_leaves_a_value_unchanged():
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = (x, x * 10)
    f[x] = (f[x][0] + 1, hl.undef(hl.Int(32)))
    r0, r1 = f.realize([4])
    np.testing.assert_array_equal(np.asarray(r0), [1, 2, 3, 4])
    np.testing.assert_array_equal(np.asarray(r1), [0, 10, 20, 30])


def test_evaluate():
    assert hl.evaluate(hl.Expr(3) + 4) == 7
    assert isinstance(hl.evaluate(hl.Expr(3) + 4), int)
    assert hl.evaluate(3) == 3
    assert hl.evaluate(hl.u8(200) + 100) == 44
    assert hl.evaluate(hl.f64(0.1) * 3) == 0.1 * 3
    v = hl.evaluate(hl.f32(1) / 3)
    assert isinstance(v, float) and v == np.float32(1) / np.float32(3)
    assert hl.evaluate(hl.Expr(2) > 1) is True
    assert hl.evaluate(hl.sqrt(hl.f64(2))) == math.sqrt(2)
    assert hl.evaluate((hl.Expr(1), hl.f32(2.5), hl.u16(7))) == (1, 2.5, 7)
    assert hl.evaluate_may_gpu(hl.Expr(5) * 5) == 25
    with pytest.raises(hl.CompileError):
        hl.evaluate(hl.Var("x") + 1)


def test_lambda_func():
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.lambda_func(x, y, x * 10 + y)
    assert isinstance(f, hl.Func) and f.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(f.realize([3, 2])), [[0, 10, 20], [1, 11, 21]])
    g = hl.lambda_func(hl._0 + hl._1 * 2)
    assert g.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(g.realize([2, 2])), [[0, 1], [2, 3]])
    assert hl.lambda_func(hl.Expr(5)).dimensions() == 0


def test_print_returns_its_first_argument_and_prints(capfd):
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.print(x * 2, "is twice", x)
    np.testing.assert_array_equal(np.asarray(f.realize([3])), [0, 2, 4])
    captured = capfd.readouterr()
    text = captured.out + captured.err
    for i in range(3):
        assert f"{2 * i} is twice {i}" in text
    g = hl.Func("g")
    g[x] = hl.print_when(x == 1, x + 100, "only one")
    np.testing.assert_array_equal(np.asarray(g.realize([3])), [100, 101, 102])
    captured = capfd.readouterr()
    text = captured.out + captured.err
    assert "101 only one" in text and "100 only one" not in text


def test_require():
    x = hl.Var("x")
    p = hl.Param(hl.Int(32), "limit", 10)
    f = hl.Func("f")
    f[x] = hl.require(p > 5, x * 2, "the limit", p, "is too small")
    np.testing.assert_array_equal(np.asarray(f.realize([3])), [0, 2, 4])
    p.set(2)
    with pytest.raises(hl.HalideError, match="the limit 2 is too small"):
        f.realize([3])


def test_tuples():
    x = hl.Var("x")
    t = hl.Tuple([x, x * 2, 3])
    assert len(t) == 3 and t.size() == 3
    assert [e.type() for e in t] == [hl.Int(32)] * 3
    assert hl.evaluate(t[2]) == 3 and hl.evaluate(t[-1]) == 3
    with pytest.raises(IndexError):
        t[3]
    assert len(hl.Tuple((x, 1.5))) == 2
    assert repr(t) == "<loom.Tuple of size 3>"
    f = hl.Func("f")
    f[x] = (x, hl.f32(x) / 2)
    g = hl.Func("g")
    # A Tuple of a call holds every value of a Func of several outputs.
    call = hl.Tuple(f[x])
    assert len(call) == 2
    g[x] = hl.Tuple([call[1], call[0] + 10])
    r0, r1 = g.realize([3])
    np.testing.assert_array_equal(np.asarray(r0), [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(np.asarray(r1), [10, 11, 12])
