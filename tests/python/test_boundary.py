"""hl.BoundaryConditions against numpy.pad: each condition with the matching mode (constant,
edge, wrap, symmetric, reflect), for a Buffer, an ImageParam and a Func source, with the bounds
taken from the source's shape or given as (min, extent) pairs, Ranges or None (unbounded)."""
import numpy as np
import pytest

import loom as hl

BC = hl.BoundaryConditions
PAD = 5  # wider than the image, so reflections and wraps repeat
MODES = [
    ("repeat_edge", "edge"),
    ("repeat_image", "wrap"),
    ("mirror_image", "symmetric"),
    ("mirror_interior", "reflect"),
]


def source_array(dtype=np.int32):
    return (np.arange(4 * 6).reshape(4, 6) * 3 + 1).astype(dtype)  # a[y, x], 6 wide, 4 high


def padded(f, a, pad=PAD):
    """f over the array's area grown by `pad` on every side, as a NumPy array."""
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("g")
    g[x, y] = f[x - pad, y - pad]
    h, w = a.shape
    return np.asarray(g.realize([w + 2 * pad, h + 2 * pad]))


@pytest.mark.parametrize("name,mode", MODES)
def test_buffer_source_uses_its_shape(name, mode):
    a = source_array()
    f = getattr(BC, name)(hl.Buffer(a))
    assert isinstance(f, hl.Func)
    np.testing.assert_array_equal(padded(f, a), np.pad(a, PAD, mode=mode))


@pytest.mark.parametrize("name,mode", MODES)
def test_image_param_source_uses_its_symbolic_shape(name, mode):
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    f = getattr(BC, name)(input)
    a = source_array(np.uint8)
    input.set(hl.Buffer(a))
    out = padded(f, a)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, np.pad(a, PAD, mode=mode))
    # The same pipeline on an input of another size.
    b = np.arange(3 * 2, dtype=np.uint8).reshape(3, 2) + 10
    input.set(hl.Buffer(b))
    np.testing.assert_array_equal(padded(f, b), np.pad(b, PAD, mode=mode))


@pytest.mark.parametrize("name,mode", MODES)
def test_func_source_with_explicit_bounds(name, mode):
    a = source_array()
    x, y = hl.Var("x"), hl.Var("y")
    src = hl.Func("src")
    src[x, y] = x * 3 + y * 18 + 1  # a[y, x] inside, defined (differently) everywhere
    for bounds in ([(0, 6), (0, 4)], [hl.Range(0, 6), hl.Range(0, 4)], ((0, 6), [0, 4])):
        f = getattr(BC, name)(src, bounds)
        np.testing.assert_array_equal(padded(f, a), np.pad(a, PAD, mode=mode))
    # bounds as a keyword, as in Halide's bindings.
    f = getattr(BC, name)(src, bounds=[(0, 6), (0, 4)])
    np.testing.assert_array_equal(padded(f, a), np.pad(a, PAD, mode=mode))


@pytest.mark.parametrize("name,mode", MODES)
def test_a_region_inside_the_buffer(name, mode):
    a = source_array()
    # Only columns 1..4 and rows 1..2 count as the image.
    f = getattr(BC, name)(hl.Buffer(a), [(1, 4), (1, 2)])
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("g")
    g[x, y] = f[x - PAD + 1, y - PAD + 1]
    out = np.asarray(g.realize([4 + 2 * PAD, 2 + 2 * PAD]))
    np.testing.assert_array_equal(out, np.pad(a[1:3, 1:5], PAD, mode=mode))


@pytest.mark.parametrize("name,mode", MODES)
def test_unbounded_dimensions(name, mode):
    x, y = hl.Var("x"), hl.Var("y")
    src = hl.Func("src")
    src[x, y] = x + 100 * y
    a = np.add.outer(100 * np.arange(3), np.arange(4))  # a[y, x] for x < 4, y < 3
    for bounds in ([(0, 4), None], [(0, 4)]):
        f = getattr(BC, name)(src, bounds)
        out = padded(f, a, pad=3)
        # Only x is bounded: each row is padded as NumPy pads it, y reads the source as is.
        rows = np.add.outer(100 * np.arange(-3, 6), np.zeros(4, dtype=np.int64)) + np.arange(4)
        np.testing.assert_array_equal(out, np.pad(rows, ((0, 0), (3, 3)), mode=mode))


def test_buffer_with_a_nonzero_origin():
    a = source_array()
    b = hl.Buffer(a)
    b.set_min([10, 20])
    f = BC.repeat_edge(b)
    x, y = hl.Var("x"), hl.Var("y")
    g = hl.Func("g")
    g[x, y] = f[x + 10 - 2, y + 20 - 2]
    out = np.asarray(g.realize([10, 8]))
    np.testing.assert_array_equal(out, np.pad(a, 2, mode="edge"))


def test_constant_exterior():
    a = source_array(np.uint8)
    f = BC.constant_exterior(hl.Buffer(a), 7)
    out = padded(f, a)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, np.pad(a, PAD, mode="constant", constant_values=7))
    input = hl.ImageParam(hl.Float(32), 2, "input")
    fa = a.astype(np.float32) / 4
    f = BC.constant_exterior(input, -1.5)
    input.set(hl.Buffer(fa))
    np.testing.assert_array_equal(padded(f, fa), np.pad(fa, PAD, constant_values=-1.5))
    x, y = hl.Var("x"), hl.Var("y")
    src = hl.Func("src")
    src[x, y] = hl.i32(x * 3 + y * 18 + 1)
    f = BC.constant_exterior(src, hl.Expr(0), [(0, 6), (0, 4)])
    np.testing.assert_array_equal(padded(f, a), np.pad(a.astype(np.int32), PAD))
    f = BC.constant_exterior(src, exterior=-3, bounds=[(0, 6), (0, 4)])
    np.testing.assert_array_equal(
        padded(f, a), np.pad(a.astype(np.int32), PAD, constant_values=-3)
    )


def test_constant_exterior_of_a_tuple_func():
    x, y = hl.Var("x"), hl.Var("y")
    src = hl.Func("src")
    src[x, y] = (x + y, hl.f32(x) * 0.5)
    f = BC.constant_exterior(src, (-1, 9.0), [(0, 3), (0, 2)])
    g = hl.Func("g")
    g[x, y] = f[x - 1, y - 1]
    r0, r1 = g.realize([5, 4])
    inner0 = np.add.outer(np.arange(2), np.arange(3))
    inner1 = np.tile(np.arange(3) * 0.5, (2, 1)).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(r0), np.pad(inner0, 1, constant_values=-1))
    np.testing.assert_array_equal(np.asarray(r1), np.pad(inner1, 1, constant_values=9.0))


def test_wrong_sources_and_bounds_are_errors():
    x = hl.Var("x")
    src = hl.Func("src")
    src[x] = x
    with pytest.raises(TypeError, match="bounds"):
        BC.repeat_edge(src)
    with pytest.raises(TypeError, match="Func, Buffer or ImageParam"):
        BC.repeat_edge(3, [(0, 4)])
    with pytest.raises(TypeError, match="min, extent"):
        BC.mirror_image(src, [(0, 4, 1)])


def test_boundary_conditions_in_a_blur():
    """A typical use: a 3x3 box blur of an image of any size, defined at its edges."""
    input = hl.ImageParam(hl.UInt(16), 2, "input")
    clamped = BC.repeat_edge(input)
    x, y = hl.Var("x"), hl.Var("y")
    blur = hl.Func("blur")
    blur[x, y] = (
        sum(clamped[x + i, y + j] for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9
    )
    a = np.random.default_rng(3).integers(0, 1000, size=(7, 9)).astype(np.uint16)
    input.set(hl.Buffer(a))
    out = np.asarray(blur.realize([9, 7]))
    p = np.pad(a, 1, mode="edge").astype(np.int64)
    expected = sum(p[1 + j : 8 + j, 1 + i : 10 + i] for i in (-1, 0, 1) for j in (-1, 0, 1)) // 9
    np.testing.assert_array_equal(out, expected)
