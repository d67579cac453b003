"""Halide Python programs run unchanged under `import loom as hl`: each program below is run
with the Halide 21 wheel (when installed) and with Loom, and both results must equal a NumPy
reference. Without the wheel, only Loom against the reference runs."""

import numpy as np
import pytest


@pytest.fixture
def hl(hl_backend):
    return hl_backend


def blur_3x3(hl, image):
    """Halide's classic: a separable 3x3 box blur over a clamped input, tiled and vectorized."""
    inp = hl.Buffer(image)
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    blur_x[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) / 3
    blur_y[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) / 3
    blur_y.tile(x, y, xi, yi, 32, 16).vectorize(xi, 8).parallel(y)
    blur_x.compute_at(blur_y, x).vectorize(x, 8)
    return np.asarray(blur_y.realize([image.shape[1], image.shape[0]]))


def test_blur(hl):
    rng = np.random.default_rng(1)
    image = rng.random((45, 70), dtype=np.float32)
    padded = np.pad(image, 1, mode="edge")
    bx = (padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]) / 3
    ref = (bx[:-2] + bx[1:-1] + bx[2:]) / 3
    np.testing.assert_allclose(blur_3x3(hl, image), ref, rtol=1e-5, atol=1e-6)


def test_histogram_and_param(hl):
    rng = np.random.default_rng(2)
    image = rng.integers(0, 256, size=(30, 41), dtype=np.uint8)
    inp = hl.ImageParam(hl.UInt(8), 2, "inp")
    shift = hl.Param(hl.Int(32), "shift", 0)
    x = hl.Var("x")
    r = hl.RDom([hl.Range(0, image.shape[1]), hl.Range(0, image.shape[0])])
    hist = hl.Func("hist")
    hist[x] = 0
    hist[hl.i32(inp[r.x, r.y] >> hl.u8(shift))] += 1
    inp.set(hl.Buffer(image))
    for s in (0, 2, 5):
        shift.set(s)
        out = np.asarray(hist.realize([256 >> s]))
        np.testing.assert_array_equal(out, np.bincount(image.ravel() >> s, minlength=256 >> s))


def test_tuple_argmax_and_select(hl):
    rng = np.random.default_rng(3)
    values = rng.integers(-1000, 1000, size=(17,), dtype=np.int32)
    buf = hl.Buffer(values)
    r = hl.RDom([hl.Range(0, values.shape[0])])
    best = hl.Func("best")
    best[()] = (0, hl.i32(-2**31))
    better = buf[r.x] > best[()][1]
    best[()] = (hl.select(better, r.x, best[()][0]), hl.select(better, buf[r.x], best[()][1]))
    where, value = best.realize([])
    assert where[()] == int(np.argmax(values))
    assert value[()] == int(values.max())


def test_types_and_casts(hl):
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.u8(hl.clamp(x * 40 - 100, 0, 255)) + hl.u8(3)
    g = hl.Func("g")
    g[x] = hl.cast(hl.Float(32), f[x]) * 0.5
    out_f = np.asarray(f.realize([10]))
    out_g = np.asarray(g.realize([10]))
    ref = (np.clip(np.arange(10) * 40 - 100, 0, 255).astype(np.uint8) + 3).astype(np.uint8)
    assert out_f.dtype == np.uint8
    np.testing.assert_array_equal(out_f, ref)
    np.testing.assert_allclose(out_g, ref.astype(np.float32) * 0.5)


def test_rdom_from_pairs(hl):
    # Halide's Python binding takes (min, extent) pairs for an RDom's ranges.
    values = np.arange(35, dtype=np.int32).reshape(5, 7)
    inp = hl.Buffer(values)
    r = hl.RDom([(0, 7), (1, 3)])
    total = hl.Func("total")
    total[()] = 0
    total[()] += inp[r.x, r.y]
    assert int(np.asarray(total.realize([]))) == values[1:4, :].sum()


def test_embedded_strided_buffer(hl):
    # A Buffer used directly in a definition may be a strided view (every other column here).
    values = np.arange(40, dtype=np.int32).reshape(5, 8)[:, ::2]
    b = hl.Buffer(values)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = b[x, y] * 2
    f.vectorize(x, 4)
    np.testing.assert_array_equal(np.asarray(f.realize([4, 5])), values * 2)
