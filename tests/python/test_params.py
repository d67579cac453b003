"""Param and ImageParam end to end: pipelines over an ImageParam fed NumPy-backed Buffers and
Params whose values change between realizations (one compilation, new values each time), the
constraints compiled code checks, the estimates autoschedulers read, and the Python side of
both classes (types, names, values, Expr-likeness, hashing)."""
import numpy as np
import pytest

import loom as hl


def image(h, w, dtype=np.uint8, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 200, size=(h, w)).astype(dtype)


def test_pipeline_over_an_image_param_with_changing_params():
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    gain = hl.Param(hl.Float(32), "gain", 1.5)
    offset = hl.Param(hl.Int(32), "offset", 3)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = hl.u8_sat(hl.f32(input[x, y]) * gain + offset)

    a = image(5, 7)
    input.set(hl.Buffer(a))
    out = np.asarray(f.realize([7, 5]))
    expected = np.clip(a.astype(np.float32) * np.float32(1.5) + 3, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)

    # New values without redefining anything.
    gain.set(0.25)
    offset.set(-2)
    out = np.asarray(f.realize([7, 5]))
    expected = np.clip(a.astype(np.float32) * np.float32(0.25) - 2, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)

    # Another input, of another size.
    b = image(9, 4, seed=1)
    input.set(hl.Buffer(b))
    out = np.asarray(f.realize([4, 9]))
    expected = np.clip(b.astype(np.float32) * np.float32(0.25) - 2, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)


def test_image_param_reads_with_expressions_and_placeholders():
    input = hl.ImageParam(hl.Int(16), 2, "input")
    a = np.arange(30, dtype=np.int16).reshape(5, 6)
    input.set(hl.Buffer(a))
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    # A 3-tap horizontal sum over the interior; input[x + 1, y] reads a[y, x + 1].
    f[x, y] = input[x, y] + input[x + 1, y] + input[x + 2, y]
    out = np.asarray(f.realize([4, 5]))
    np.testing.assert_array_equal(out, a[:, :4] + a[:, 1:5] + a[:, 2:6])
    g = hl.Func("g")
    g[hl._] = input[hl._] * 2
    np.testing.assert_array_equal(np.asarray(g.realize([6, 5])), a * 2)
    # A Func reading the whole input, as in Halide.
    h = hl.Func("h")
    h[x, y] = input[[x, y]] - 1
    np.testing.assert_array_equal(np.asarray(h.realize([6, 5])), a - 1)


def test_three_dimensional_input_and_its_shape():
    input = hl.ImageParam(hl.Float(32), 3, "rgb")
    a = np.random.default_rng(2).standard_normal((4, 5, 3)).astype(np.float32)  # a[y, x, c]
    buf = hl.Buffer(np.ascontiguousarray(a.transpose(2, 0, 1)))  # dims: x, y, c
    input.set(buf)
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    f = hl.Func("f")
    f[x, y, c] = input[x, y, c] * hl.f32(input.channels()) + hl.f32(input.width())
    out = np.asarray(f.realize([5, 4, 3]))  # out[c, y, x]
    np.testing.assert_allclose(out.transpose(1, 2, 0), a * 3 + 5, rtol=1e-6)
    g = hl.Func("g")
    g[()] = (input.left(), input.right(), input.top(), input.bottom(), input.height())
    assert [np.asarray(b)[()] for b in g.realize([])] == [0, 4, 0, 3, 4]
    assert "rgb.min.0" in str(input.dim(0).min())
    assert "rgb.extent.2" in str(input.dim(2).extent())
    assert "rgb.extent.0" in str(input.width())
    assert input.dim(1).max().type() == hl.Int(32)


def test_rdom_over_an_image_param():
    input = hl.ImageParam(hl.Int(32), 2, "input")
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    input.set(hl.Buffer(a))
    r = hl.RDom(input)
    f = hl.Func("total")
    f[()] = 0
    f[()] += input[r.x, r.y]
    assert np.asarray(f.realize([]))[()] == a.sum()


def test_constraints_are_checked_when_the_pipeline_runs():
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    input.dim(0).set_min(0).dim(1).set_min(0)
    input.dim(0).set_extent(6)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = input[x, y]
    input.set(hl.Buffer(image(3, 6)))
    f.realize([6, 3])
    input.set(hl.Buffer(image(3, 5)))
    with pytest.raises(hl.HalideError, match=r"input\.extent\.0"):
        f.realize([5, 3])

    p = hl.Param(hl.Int(32), "p", 5)
    p.set_range(0, 10)
    assert hl.evaluate(p.min_value()) == 0 and hl.evaluate(p.max_value()) == 10
    g = hl.Func("g")
    g[x] = x + p
    np.testing.assert_array_equal(np.asarray(g.realize([3])), [5, 6, 7])
    p.set(11)
    with pytest.raises(hl.HalideError, match="p is 11 but must be at most 10"):
        g.realize([3])
    # None leaves a side open.
    p.set_range(None, 20)
    assert not p.min_value().defined()
    np.testing.assert_array_equal(np.asarray(g.realize([3])), [11, 12, 13])
    p.set_min_value(12)
    with pytest.raises(hl.HalideError):
        g.realize([3])
    p.set_max_value(30)
    assert hl.evaluate(p.max_value()) == 30


def test_estimates():
    input = hl.ImageParam(hl.Float(32), 2, "input")
    same = input.set_estimates([(0, 640), hl.Range(0, 480)])
    assert same is input
    assert hl.evaluate(input.dim(0).extent_estimate()) == 640
    assert hl.evaluate(input.dim(1).extent_estimate()) == 480
    assert hl.evaluate(input.dim(1).min_estimate()) == 0
    input.dim(1).set_estimate(10, 20)
    assert hl.evaluate(input.dim(1).min_estimate()) == 10
    assert hl.evaluate(input.dim(1).extent_estimate()) == 20
    p = hl.Param(hl.Float(32), "p")
    assert not p.estimate().defined()
    p.set_estimate(2.5)
    assert hl.evaluate(p.estimate()) == 2.5
    q = hl.Param(hl.UInt(16), "q")
    q.set_estimate(300)
    assert hl.evaluate(q.estimate()) == 300
    assert q.estimate().type() == hl.UInt(16)


@pytest.mark.parametrize(
    "type,value",
    [
        (hl.Int(8), -100),
        (hl.UInt(8), 255),
        (hl.Int(16), -30000),
        (hl.UInt(16), 60000),
        (hl.Int(32), -(2**31)),
        (hl.UInt(32), 2**32 - 1),
        (hl.Int(64), -(2**62)),
        (hl.UInt(64), 2**63 + 1),
        (hl.Float(32), 0.25),
        (hl.Float(64), 0.1),
        (hl.Bool(), True),
    ],
)
def test_param_values_of_every_type(type, value):
    p = hl.Param(type, "v", value)
    assert p.type() == type and p.name() == "v"
    assert p.value() == value
    assert type_of_python(p.value()) == type_of_python(value)
    # The pipeline sees the same value.
    assert hl.evaluate(p) == value
    p.set(0)
    assert p.value() == 0 and hl.evaluate(p) == 0


def type_of_python(v):
    return bool if isinstance(v, bool) else float if isinstance(v, float) else int


def test_values_that_do_not_fit_are_errors():
    with pytest.raises(hl.CompileError, match="300"):
        hl.Param(hl.UInt(8), "p", 300)
    p = hl.Param(hl.Int(32), "p")
    with pytest.raises(hl.CompileError):
        p.set(2.5)
    with pytest.raises(hl.CompileError):
        p.set(2**40)
    p.set(3.0)  # an integral float fits
    assert p.value() == 3
    with pytest.raises(TypeError):
        p.set("three")
    f = hl.Param(hl.Float(32), "f", 3)  # any number fits a float
    assert f.value() == 3.0
    f.set(0.1)
    assert f.value() == np.float32(0.1)


def test_param_constructors_and_names():
    a = hl.Param(hl.Int(32))
    b = hl.Param(hl.Int(32), 7)
    assert a.name() != b.name() and a.name().startswith("p")
    assert b.value() == 7
    c = hl.Param(hl.Float(64), "scale")
    assert c.name() == "scale" and c.value() == 0.0
    assert repr(c) == "<loom.Param 'scale' type float64>"


def test_params_are_expr_like():
    p = hl.Param(hl.UInt(8), "p", 7)
    x = hl.Var("x")
    assert (p + 1).type() == hl.UInt(8)
    assert (1 + p).type() == hl.UInt(8)
    assert (p * 0.5).type() == hl.Float(32)
    assert (p == 7).type() == hl.Bool()
    assert hl.Expr(p).type() == hl.UInt(8)
    assert hl.max(p, hl.u8(x)).type() == hl.UInt(8)
    assert hl.evaluate(hl.cast(hl.Int(32), p) - 10) == -3
    assert hl.evaluate(-hl.i16(p)) == -7
    assert hl.evaluate(hl.logical_not(p > 3)) is False
    b = hl.Param(hl.Bool(), "b", True)
    assert hl.evaluate(hl.select(b, 1, 2)) == 1
    assert hl.evaluate(b.logical_not()) is False
    with pytest.raises(hl.CompileError):
        p + 300
    with pytest.raises(ValueError):
        bool(p > 3)


def test_image_param_python_side():
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    assert input.name() == "input" and input.type() == hl.UInt(8) and input.dimensions() == 2
    assert input.defined() and not hl.ImageParam().defined()
    assert repr(input) == "<loom.ImageParam 'input', dims: 2, type: uint8>"
    assert isinstance(input, hl.OutputImageParam)
    assert not input.get().defined()
    buf = hl.Buffer(image(2, 3))
    input.set(buf)
    assert input.get().defined() and input.get().dimensions() == 2
    input.reset()
    assert not input.get().defined()
    assert input.set_host_alignment(16) is input
    assert input.host_alignment() == 16
    unnamed = hl.ImageParam(hl.Float(32), 1)
    assert unnamed.name() and unnamed.name() != "input"
    with pytest.raises(hl.CompileError):
        input.dim(2)


def test_image_params_are_dictionary_keys():
    a = hl.ImageParam(hl.UInt(8), 2, "same")
    b = hl.ImageParam(hl.UInt(8), 2, "same")
    d = {a: 1, b: 2}
    assert len(d) == 2 and d[a] == 1 and d[b] == 2
    assert hash(a) == hash(a)


def test_wrappers_of_an_image_param():
    input = hl.ImageParam(hl.Int(32), 1, "input")
    input.set(hl.Buffer(np.arange(8, dtype=np.int32)))
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = input[x] * 3
    w = input.in_(f)
    assert isinstance(w, hl.Func)
    np.testing.assert_array_equal(np.asarray(f.realize([8])), np.arange(8) * 3)
    g = hl.Func("g")
    g[x] = input[x] + 1
    assert isinstance(input.in_(), hl.Func)
    np.testing.assert_array_equal(np.asarray(g.realize([8])), np.arange(8) + 1)
