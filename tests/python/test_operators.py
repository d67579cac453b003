"""Python's operators on loom Exprs: every arithmetic, comparison and bitwise operator (and the
reversed forms) realized over NumPy inputs of several element types and compared with NumPy
references written with Halide's semantics (Euclidean division, division by zero is zero,
narrow types wrap); and the rules for Python numbers (int literals take the other operand's
type and must fit it, floats are float32 with a precision warning, larger ints are int64)."""
import warnings

import numpy as np
import pytest

import loom as hl

N = 64
INT_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.uint32]
FLOAT_DTYPES = [np.float32, np.float64]
LOOM_TYPE = {
    np.uint8: hl.UInt(8),
    np.int8: hl.Int(8),
    np.uint16: hl.UInt(16),
    np.int16: hl.Int(16),
    np.int32: hl.Int(32),
    np.uint32: hl.UInt(32),
    np.int64: hl.Int(64),
    np.float32: hl.Float(32),
    np.float64: hl.Float(64),
}


def realize(fn, *arrays):
    """fn applied to the elements of 1-D arrays, computed by a loom pipeline."""
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = fn(*[hl.Buffer(a)[x] for a in arrays])
    return np.asarray(f.realize([len(arrays[0])]))


def operands(dtype, seed=0, nonzero=False):
    """Two arrays of dtype; integer values kept small enough that int32 never overflows."""
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        a = rng.integers(lo, hi, size=N, endpoint=True).astype(dtype)
        b = rng.integers(lo, hi, size=N, endpoint=True).astype(dtype)
        b[:4] = 0  # division and modulo by zero
    else:
        a = (rng.standard_normal(N) * 10).astype(dtype)
        b = (rng.standard_normal(N) * 10).astype(dtype)
    if nonzero:
        b[b == 0] = 1
    return a, b


def euclid_mod(a, b):
    """Halide's integer remainder: never negative; modulo zero is zero."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    r = np.mod(a64, np.abs(safe))
    return np.where(b64 == 0, 0, r)


def euclid_div(a, b):
    """Halide's integer division: a == b * q + r with 0 <= r < |b|; division by zero is zero."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    q = (a64 - euclid_mod(a, b)) // safe
    return np.where(b64 == 0, 0, q)


def wrap(values, dtype):
    return np.asarray(values).astype(np.int64).astype(dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
@pytest.mark.parametrize(
    "name,op,ref",
    [
        ("add", lambda a, b: a + b, lambda a, b: a + b),
        ("sub", lambda a, b: a - b, lambda a, b: a - b),
        ("mul", lambda a, b: a * b, lambda a, b: a * b),
        ("neg", lambda a, b: -a, lambda a, b: -a),
    ],
)
def test_wrapping_arithmetic(dtype, name, op, ref):
    a, b = operands(dtype, seed=1)
    if dtype == np.int32 and name == "mul":
        a, b = a % 100, b % 100  # int32 overflow is undefined in Halide
    out = realize(op, a, b)
    assert out.dtype == dtype
    with np.errstate(over="ignore"):
        expected = ref(a, b)
    np.testing.assert_array_equal(out, expected.astype(dtype))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_division_and_modulo_are_euclidean(dtype):
    a, b = operands(dtype, seed=2)
    np.testing.assert_array_equal(realize(lambda p, q: p / q, a, b), wrap(euclid_div(a, b), dtype))
    np.testing.assert_array_equal(realize(lambda p, q: p // q, a, b), wrap(euclid_div(a, b), dtype))
    np.testing.assert_array_equal(realize(lambda p, q: p % q, a, b), wrap(euclid_mod(a, b), dtype))
    # Spot checks of the signed cases NumPy's floor division gets differently.
    if dtype == np.int32:
        a = np.array([-7, 7, -7, 7, -8], dtype=np.int32)
        b = np.array([2, -2, -2, 2, 0], dtype=np.int32)
        np.testing.assert_array_equal(realize(lambda p, q: p / q, a, b), [-4, -3, 4, 3, 0])
        np.testing.assert_array_equal(realize(lambda p, q: p % q, a, b), [1, 1, 1, 1, 0])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_float_division_modulo_and_floor_division(dtype):
    a, b = operands(dtype, seed=3, nonzero=True)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    out = realize(lambda p, q: p / q, a, b)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, a / b, rtol=tol)
    np.testing.assert_allclose(realize(lambda p, q: p // q, a, b), np.floor(a / b), rtol=tol)
    # Halide's float modulo is a - b * floor(a / b) (the sign of b), like NumPy's mod.
    np.testing.assert_allclose(
        realize(lambda p, q: p % q, a, b), a - b * np.floor(a / b), rtol=tol, atol=tol * 100
    )


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
@pytest.mark.parametrize(
    "op",
    [
        lambda a, b: a < b,
        lambda a, b: a <= b,
        lambda a, b: a > b,
        lambda a, b: a >= b,
        lambda a, b: a == b,
        lambda a, b: a != b,
    ],
)
def test_comparisons(dtype, op):
    a, b = operands(dtype, seed=4)
    b[::3] = a[::3]  # some equal pairs
    out = realize(op, a, b)
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, op(a, b))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_bitwise_operators(dtype):
    a, b = operands(dtype, seed=5)
    for op in (lambda p, q: p & q, lambda p, q: p | q, lambda p, q: p ^ q):
        out = realize(op, a, b)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, op(a, b))
    np.testing.assert_array_equal(realize(lambda p: ~p, a), np.invert(a))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_shifts(dtype):
    a, _ = operands(dtype, seed=6)
    bits = np.iinfo(dtype).bits
    amount = (np.arange(N) % bits).astype(dtype)
    out = realize(lambda p, q: p << q, a, amount)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.left_shift(a, amount))
    # Right shifts of signed values are arithmetic.
    out = realize(lambda p, q: p >> q, a, amount)
    np.testing.assert_array_equal(out, np.right_shift(a, amount))
    # A literal amount takes the shifted value's type.
    out = realize(lambda p: p << 3, a)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.left_shift(a, dtype(3)))
    np.testing.assert_array_equal(realize(lambda p: p >> 2, a), np.right_shift(a, dtype(2)))


def test_bool_operators_are_logical():
    a = np.array([0, 1, 2, 3, 4, 5], dtype=np.int32)
    cases = [
        (lambda p: (p > 1) & (p < 4), (a > 1) & (a < 4)),
        (lambda p: (p < 1) | (p > 4), (a < 1) | (a > 4)),
        (lambda p: (p > 1) & True, a > 1),
        (lambda p: False | (p > 1), a > 1),
        (lambda p: ~(p > 2), ~(a > 2)),
        (lambda p: hl.logical_not(p > 2), ~(a > 2)),
        (lambda p: (p > 2) ^ (p > 3), (a > 2) ^ (a > 3)),
    ]
    for fn, expected in cases:
        out = realize(fn, a)
        assert out.dtype == np.bool_
        np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
def test_reversed_operators_with_python_ints(dtype):
    a, _ = operands(dtype, seed=7)
    a[a == 0] = 1
    is_int = np.issubdtype(dtype, np.integer)
    three = dtype(3)
    cases = [
        (lambda p: 3 + p, three + a),
        (lambda p: 3 - p, three - a),
        (lambda p: 3 * p, three * a),
        (lambda p: 3 < p, three < a),
        (lambda p: 3 == p, three == a),
    ]
    if is_int:
        t = np.full(N, 3, dtype=dtype)
        cases += [
            (lambda p: 100 / p, wrap(euclid_div(np.full(N, 100, dtype=dtype), a), dtype)),
            (lambda p: 100 // p, wrap(euclid_div(np.full(N, 100, dtype=dtype), a), dtype)),
            (lambda p: 100 % p, wrap(euclid_mod(np.full(N, 100, dtype=dtype), a), dtype)),
            (lambda p: 3 & p, t & a),
            (lambda p: 3 | p, t | a),
            (lambda p: 3 ^ p, t ^ a),
        ]
    else:
        cases += [(lambda p: 3 / p, three / a), (lambda p: 3 // p, np.floor(three / a))]
    for fn, expected in cases:
        with np.errstate(over="ignore"):
            out = realize(fn, a)
        assert out.dtype == np.asarray(expected).dtype
        if is_int:
            np.testing.assert_array_equal(out, expected)
        else:
            np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_shifting_a_python_int_makes_an_int32():
    amount = np.arange(8, dtype=np.uint8)
    out = realize(lambda p: 1 << p, amount)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, 1 << amount.astype(np.int32))
    out = realize(lambda p: 256 >> p, amount)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, 256 >> amount.astype(np.int32))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_powers(dtype):
    a = (np.arange(N) % 7 + 1).astype(dtype)
    out = realize(lambda p: p**3, a)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, wrap(a.astype(np.int64) ** 3, dtype))  # wraps
    # A negative power is 1 / a**n in a's type (integer division).
    out = realize(lambda p: p**-1, a)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.where(a == 1, 1, 0))
    # A float or Expr exponent is pow() in float32.
    out = realize(lambda p: p**0.5, a)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.sqrt(a.astype(np.float32)), rtol=1e-6)
    out = realize(lambda p: 2**p, a)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, 2.0 ** a.astype(np.float32), rtol=1e-6)


def test_int_literals_take_the_other_operands_type():
    a = np.array([250, 5, 0, 255], dtype=np.uint8)
    out = realize(lambda p: p + 10, a)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, (a + np.uint8(10)))  # wraps
    out = realize(lambda p: p - 1, a)
    np.testing.assert_array_equal(out, a - np.uint8(1))
    # NumPy integer scalars are ints too.
    out = realize(lambda p: p + np.int64(3), a.astype(np.int16))
    assert out.dtype == np.int16
    np.testing.assert_array_equal(out, a.astype(np.int16) + 3)
    # A bool is the int 0 or 1.
    out = realize(lambda p: p + True, a)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, a + np.uint8(1))


def test_int_literal_that_does_not_fit_is_an_error():
    u = hl.u8(hl.Var("x"))
    with pytest.raises(hl.CompileError, match="300"):
        u + 300
    with pytest.raises(hl.CompileError):
        u + (-1)
    with pytest.raises(hl.CompileError):
        u < 300
    with pytest.raises(hl.CompileError):
        300 * u
    with pytest.raises(hl.CompileError):
        u ^ 256
    # CompileError is a HalideError, as halide.HalideError is for Halide's users.
    assert issubclass(hl.CompileError, hl.HalideError)


def test_large_ints_are_int64():
    a = np.array([-5, 0, 7], dtype=np.int32)
    out = realize(lambda p: p + 2**40, a)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, a.astype(np.int64) + 2**40)
    out = realize(lambda p: p + 2**31, a)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, a.astype(np.int64) + 2**31)
    out = realize(lambda p: p < 2**40, a)
    np.testing.assert_array_equal(out, [True, True, True])


def test_floats_are_float32():
    a = np.array([0, 1, 200], dtype=np.uint8)
    out = realize(lambda p: p + 1.5, a)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, a.astype(np.float32) + 1.5)
    out = realize(lambda p: p * 0.5, a.astype(np.float64))
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, a * 0.5)
    out = realize(lambda p: p / 2.0, np.array([1, 2, 3], dtype=np.int32))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.array([0.5, 1.0, 1.5], dtype=np.float32))


def test_float_precision_warning():
    d = hl.f64(hl.Var("x"))
    with pytest.warns(RuntimeWarning, match="float32"):
        e = d + 0.1
    # The literal became the float32 nearest 0.1, then float64.
    assert e.type() == hl.Float(64)
    with pytest.warns(RuntimeWarning):
        out = realize(lambda p: p + 0.1, np.zeros(2, dtype=np.float64))
    np.testing.assert_array_equal(out, np.float64(np.float32(0.1)))
    # Exact floats, and f64() of a Python float, do not warn and keep their value.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d + 0.5
        out = realize(lambda p: p + hl.f64(0.1), np.zeros(2, dtype=np.float64))
    np.testing.assert_array_equal(out, [0.1, 0.1])


def test_result_types_of_mixed_exprs():
    x = hl.Var("x")
    u8, i16, u32, f32, f64 = hl.u8(x), hl.i16(x), hl.u32(x), hl.f32(x), hl.f64(x)
    assert (u8 + u8).type() == hl.UInt(8)
    assert (u8 + i16).type() == hl.Int(16)
    assert (u32 + i16).type() == hl.Int(32)
    assert (f32 + f64).type() == hl.Float(64)
    assert (u8 + f32).type() == hl.Float(32)
    assert (u8 < i16).type() == hl.Bool()


def test_exprs_are_not_python_bools_or_dict_keys():
    x = hl.Var("x")
    with pytest.raises(ValueError, match="'&'/'|'"):
        if x > 0:
            pass
    with pytest.raises(TypeError):
        {x + 1: 0}
