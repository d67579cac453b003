"""loom.Buffer and NumPy / DLPack: zero-copy in both directions, Halide's axis rule, every
element type, non-contiguous views, and the lifetime of wrapped memory."""
import gc
import sys

import numpy as np
import pytest

import loom as hl

ELEMENT_TYPES = [
    (np.uint8, hl.UInt(8)),
    (np.uint16, hl.UInt(16)),
    (np.uint32, hl.UInt(32)),
    (np.uint64, hl.UInt(64)),
    (np.int8, hl.Int(8)),
    (np.int16, hl.Int(16)),
    (np.int32, hl.Int(32)),
    (np.int64, hl.Int(64)),
    (np.float16, hl.Float(16)),
    (np.float32, hl.Float(32)),
    (np.float64, hl.Float(64)),
    (np.bool_, hl.Bool()),
]


def test_axes_are_reversed_by_default():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)  # 3 rows (y) of 4 columns (x)
    b = hl.Buffer(a)
    assert b.dimensions() == 2
    assert (b.width(), b.height()) == (4, 3)
    for y in range(3):
        for x in range(4):
            assert b[x, y] == a[y, x]
    back = np.asarray(b)
    assert back.shape == (3, 4)
    np.testing.assert_array_equal(back, a)


def test_reverse_axes_false_keeps_the_order():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = hl.Buffer(a, reverse_axes=False)
    assert (b.dim(0).extent(), b.dim(1).extent()) == (3, 4)
    assert b[2, 1] == a[2, 1]
    assert np.asarray(b.reverse_axes()).shape == (3, 4)
    np.testing.assert_array_equal(np.asarray(b.reverse_axes()), a)


def test_wrapping_shares_memory_both_ways():
    a = np.zeros((2, 5), dtype=np.float32)
    b = hl.Buffer(a)
    b[3, 1] = 7.5
    assert a[1, 3] == 7.5
    a[0, 4] = -2.0
    assert b[4, 0] == -2.0
    view = np.asarray(b)
    assert np.shares_memory(view, a)


@pytest.mark.parametrize("dtype,loom_type", ELEMENT_TYPES)
def test_every_element_type_round_trips(dtype, loom_type):
    rng = np.random.default_rng(7)
    if dtype == np.bool_:
        a = rng.integers(0, 2, size=(4, 6)).astype(np.bool_)
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=(4, 6), dtype=dtype, endpoint=True)
    else:
        a = rng.standard_normal((4, 6)).astype(dtype)
    b = hl.Buffer(a)
    assert b.type() == loom_type
    back = np.asarray(b)
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back, a)
    # A pipeline copies it exactly.
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("copy")
    f[x, y] = b[x, y]
    out = np.asarray(f.realize([6, 4]))
    assert out.dtype == a.dtype
    np.testing.assert_array_equal(out, a)


def test_non_contiguous_views():
    base = np.arange(10 * 12, dtype=np.int16).reshape(10, 12)
    x, y = hl.Var("x"), hl.Var("y")
    # Any strides wrap, and elements read through them.
    for view in (base[::2, 1::3], base.T, base[::-1, :], base[2:7, 3:11]):
        b = hl.Buffer(view)
        for yy in range(view.shape[0]):
            for xx in range(view.shape[1]):
                assert b[xx, yy] == view[yy, xx]
        np.testing.assert_array_equal(np.asarray(b), view)
    # A pipeline reads rows with any stride between them (reversed, skipped, cropped)...
    for view in (base[::-1, :], base[::3, :], base[2:7, 3:11]):
        f = hl.Func("f")
        f[x, y] = hl.Buffer(view)[x, y] * 2
        out = np.asarray(f.realize([view.shape[1], view.shape[0]]))
        np.testing.assert_array_equal(out, view * 2)
    # ...and, as in Halide, a Buffer it reads directly may have a strided x dimension too.
    f = hl.Func("f")
    f[x, y] = hl.Buffer(base.T)[x, y]
    np.testing.assert_array_equal(np.asarray(f.realize([10, 12])), base.T)


def test_read_only_arrays_are_inputs():
    a = np.frombuffer(bytes(range(16)), dtype=np.uint8).reshape(4, 4)
    assert not a.flags.writeable
    b = hl.Buffer(a)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = hl.Expr(b[x, y]) + 1
    np.testing.assert_array_equal(np.asarray(f.realize([4, 4])), a + 1)


def test_wrapped_memory_lives_as_long_as_the_pipeline_uses_it():
    x = hl.Var("x")
    f = hl.Func("f")
    # The only reference to the array is the Buffer, and the only reference to the Buffer is
    # the definition: the memory must survive both Python objects going away.
    f[x] = hl.Buffer(np.arange(100, dtype=np.int32) * 3)[x] + 1
    gc.collect()
    np.testing.assert_array_equal(np.asarray(f.realize([100])), np.arange(100) * 3 + 1)


def test_array_is_released_when_the_last_buffer_goes():
    a = np.arange(8, dtype=np.float64)
    before = sys.getrefcount(a)
    b = hl.Buffer(a)
    c = b.cropped(0, 2, 4)
    assert sys.getrefcount(a) > before
    del b
    assert sys.getrefcount(a) > before  # the crop still uses it
    assert c[3] == 3.0
    del c
    gc.collect()
    assert sys.getrefcount(a) == before


def test_realized_buffers_export_with_numpy_axes():
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    f = hl.Func("f")
    f[x, y, c] = x + 10 * y + 100 * c
    out = np.asarray(f.realize([4, 3, 2]))
    assert out.shape == (2, 3, 4)
    cc, yy, xx = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing="ij")
    np.testing.assert_array_equal(out, xx + 10 * yy + 100 * cc)


def test_realize_into_numpy_memory():
    out = np.zeros((3, 5), dtype=np.int32)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x * y
    f.realize(hl.Buffer(out))
    yy, xx = np.mgrid[0:3, 0:5]
    np.testing.assert_array_equal(out, xx * yy)


def test_dlpack_export_to_numpy_is_zero_copy():
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x * 1.0 - y
    b = f.realize([5, 4])
    a = np.from_dlpack(b)
    assert a.shape == (4, 5)
    yy, xx = np.mgrid[0:4, 0:5]
    np.testing.assert_array_equal(a, (xx - yy).astype(np.float32))
    b[2, 1] = 42.0
    assert a[1, 2] == 42.0  # the same memory
    assert b.__dlpack_device__() == (1, 0)


def test_dlpack_import_from_numpy():
    a = np.arange(24, dtype=np.uint16).reshape(2, 3, 4)[:, ::2, :]
    b = hl.Buffer.from_dlpack(a)
    assert [b.dim(i).extent() for i in range(3)] == [4, 2, 2]
    for c in range(2):
        for y in range(2):
            for x in range(4):
                assert b[x, y, c] == a[c, y, x]
    b[0, 0, 0] = 999
    assert a[0, 0, 0] == 999
    kept = hl.Buffer.from_dlpack(a, reverse_axes=False)
    assert [kept.dim(i).extent() for i in range(3)] == [2, 2, 4]


def test_torch_tensors_pass_without_copies():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    b = hl.Buffer(t)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = b[x, y] * 2
    out = f.realize([4, 3])
    back = torch.from_dlpack(out)
    assert torch.equal(back, t * 2)
    b[1, 2] = -1.0
    assert t[2, 1].item() == -1.0


def test_buffer_shapes_and_views():
    b = hl.Buffer(hl.Int(32), [6, 4], "img")
    assert b.name() == "img"
    assert b.number_of_elements() == 24
    b.fill(3)
    assert b.all_equal(3)
    b.set_min([10, 20])
    assert (b.left(), b.top(), b.right(), b.bottom()) == (10, 20, 15, 23)
    b[12, 21] = 5
    crop = b.cropped(0, 11, 3)
    assert crop[12, 21] == 5
    s = b.sliced(1, 21)
    assert s.dimensions() == 1 and s[12] == 5
    t = b.transposed(0, 1)
    assert t[21, 12] == 5
    with pytest.raises(IndexError):
        b[0, 0]
    with pytest.raises(IndexError):
        b[12]


def test_type_errors_are_clear():
    with pytest.raises(TypeError, match="format"):
        hl.Buffer(np.zeros(3, dtype=np.complex64))
    with pytest.raises(TypeError, match="NumPy array"):
        hl.Buffer(object())
    bf = hl.Buffer(hl.BFloat(16), [3])
    with pytest.raises(BufferError, match="__dlpack__"):
        memoryview(bf)
