"""Inline reductions (sum, product, maximum, minimum, argmax, argmin) and update definitions over
RDoms, against NumPy: implicit and explicit domains, free variables, element types (narrow
sums wrap), ties and empty domains, RDom predicates, histograms and scans."""
import numpy as np
import pytest

import loom as hl


def matrix(dtype=np.int32, seed=0, shape=(5, 7)):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-50, 50, size=shape).astype(dtype)


@pytest.mark.parametrize(
    "fn,ref",
    [(hl.sum, np.sum), (hl.product, np.prod), (hl.maximum, np.max), (hl.minimum, np.min)],
)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_column_reductions_with_an_implicit_domain(fn, ref, dtype):
    a = matrix(dtype, shape=(4, 6))
    if fn is hl.product and dtype == np.int32:
        a = a % 5 - 2  # keep products in range
    b = hl.Buffer(a)  # b[x, y] is a[y, x]
    x = hl.Var("x")
    r = hl.RDom([hl.Range(0, 4)])
    f = hl.Func("f")
    f[x] = fn(b[x, r])
    out = np.asarray(f.realize([6]))
    assert out.dtype == dtype
    expected = ref(a, axis=0)
    if dtype == np.int32:
        np.testing.assert_array_equal(out, expected)
    else:
        np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_explicit_domain_and_names():
    a = matrix(shape=(3, 8))
    b = hl.Buffer(a)
    y = hl.Var("y")
    r = hl.RDom([hl.Range(0, 8)], "r")
    other = hl.RDom([hl.Range(0, 3)], "other")
    f = hl.Func("f")
    f[y] = hl.sum(r, b[r, y], "row_sum")
    np.testing.assert_array_equal(np.asarray(f.realize([3])), a.sum(axis=1))
    g = hl.Func("g")
    # The inner reduction is over r alone: `other` is free in it, and the outer sum reduces it.
    g[()] = hl.sum(other, hl.maximum(r, b[r, other], name="row_max"))
    assert np.asarray(g.realize([]))[()] == a.max(axis=1).sum()
    h = hl.Func("h")
    h[y] = hl.minimum(expr=b[r, y], name="m")
    np.testing.assert_array_equal(np.asarray(h.realize([3])), a.min(axis=1))


def test_two_dimensional_domains_and_free_variables():
    a = matrix(shape=(6, 5))
    b = hl.Buffer(a)
    x = hl.Var("x")
    r = hl.RDom([hl.Range(0, 5), hl.Range(0, 6)])
    total = hl.Func("total")
    total[()] = hl.sum(b[r.x, r.y])
    assert np.asarray(total.realize([]))[()] == a.sum()
    # x stays free: the sum of the image shifted by x, for each x.
    shifted = hl.Func("shifted")
    shifted[x] = hl.sum(b[r.x, r.y] * x)
    np.testing.assert_array_equal(np.asarray(shifted.realize([4])), a.sum() * np.arange(4))


def test_narrow_sums_wrap():
    a = np.full((10, 1), 200, dtype=np.uint8)
    b = hl.Buffer(a)
    r = hl.RDom([hl.Range(0, 10)])
    f = hl.Func("f")
    f[()] = hl.sum(b[0, r])
    out = np.asarray(f.realize([]))
    assert out.dtype == np.uint8
    assert out[()] == (200 * 10) % 256
    g = hl.Func("g")
    g[()] = hl.sum(hl.u32(b[0, r]))
    assert np.asarray(g.realize([]))[()] == 2000


def test_argmax_and_argmin():
    a = np.array([3, 9, 2, 9, -4, 0, -4, 7], dtype=np.int32)
    b = hl.Buffer(a)
    r = hl.RDom([hl.Range(0, 8)])
    for fn, ref in [(hl.argmax, np.argmax), (hl.argmin, np.argmin)]:
        t = fn(b[r])
        assert isinstance(t, tuple) and len(t) == 2
        f = hl.Func("f")
        f[()] = t
        index, value = (np.asarray(buf)[()] for buf in f.realize([]))
        # The first position on ties, as np.argmax.
        assert index == ref(a)
        assert value == a[ref(a)]
    # Explicit domain and a name; two dimensions give both coordinates.
    m = matrix(np.float32, shape=(4, 5), seed=3)
    bm = hl.Buffer(m)
    r2 = hl.RDom([hl.Range(0, 5), hl.Range(0, 4)])
    f = hl.Func("f")
    f[()] = hl.argmax(r2, bm[r2.x, r2.y], "best")
    rx, ry, value = (np.asarray(buf)[()] for buf in f.realize([]))
    yy, xx = np.unravel_index(np.argmax(m), m.shape)
    assert (rx, ry) == (xx, yy) and value == m.max()


def test_argmin_per_row():
    m = matrix(shape=(6, 9), seed=4)
    b = hl.Buffer(m)
    y = hl.Var("y")
    r = hl.RDom([hl.Range(0, 9)])
    f = hl.Func("f")
    f[y] = hl.argmin(b[r, y])
    index, value = f.realize([6])
    np.testing.assert_array_equal(np.asarray(index), np.argmin(m, axis=1))
    np.testing.assert_array_equal(np.asarray(value), np.min(m, axis=1))


def test_empty_domains_give_the_identity():
    x = hl.Var("x")
    n = hl.Param(hl.Int(32), "n", 0)
    r = hl.RDom([hl.Range(0, n)])
    f = hl.Func("f")
    f[x] = (
        hl.sum(hl.f32(r) + hl.f32(x)),
        hl.product(hl.f32(r) + hl.f32(x)),
        hl.maximum(hl.f32(r) + hl.f32(x)),
        hl.minimum(hl.f32(r) + hl.f32(x)),
    )
    s, p, mx, mn = (np.asarray(b) for b in f.realize([2]))
    np.testing.assert_array_equal(s, [0, 0])
    np.testing.assert_array_equal(p, [1, 1])
    np.testing.assert_array_equal(mx, [-np.inf, -np.inf])
    np.testing.assert_array_equal(mn, [np.inf, np.inf])
    n.set(4)
    s, p, mx, mn = (np.asarray(b) for b in f.realize([2]))
    np.testing.assert_array_equal(s, [6, 10])
    np.testing.assert_array_equal(p, [0, 24])
    np.testing.assert_array_equal(mx, [3, 4])
    np.testing.assert_array_equal(mn, [0, 1])


def test_histogram_update():
    a = np.random.default_rng(5).integers(0, 16, size=(20, 30)).astype(np.uint8)
    b = hl.Buffer(a)
    i = hl.Var("i")
    r = hl.RDom([hl.Range(0, 30), hl.Range(0, 20)])
    hist = hl.Func("hist")
    hist[i] = 0
    hist[hl.i32(b[r.x, r.y])] += 1
    out = np.asarray(hist.realize([16]))
    np.testing.assert_array_equal(out, np.bincount(a.ravel(), minlength=16))


def test_scan_update():
    a = matrix(shape=(12,), seed=6)
    b = hl.Buffer(a)
    x = hl.Var("x")
    r = hl.RDom([hl.Range(1, 11)])
    f = hl.Func("cumsum")
    f[x] = b[x]
    f[r.x] = f[r.x - 1] + b[r.x]
    np.testing.assert_array_equal(np.asarray(f.realize([12])), np.cumsum(a))


def test_matrix_multiply_update():
    A = matrix(np.float32, shape=(4, 6), seed=7)  # A[i, k]
    B = matrix(np.float32, shape=(6, 5), seed=8)  # B[k, j]
    bA, bB = hl.Buffer(A), hl.Buffer(B)  # bA[k, i], bB[j, k]
    i, j = hl.Var("i"), hl.Var("j")
    k = hl.RDom([hl.Range(0, 6)])
    C = hl.Func("C")
    C[j, i] = 0.0
    C[j, i] += bA[k, i] * bB[j, k]
    np.testing.assert_allclose(np.asarray(C.realize([5, 4])), A @ B, rtol=1e-5, atol=1e-5)


def test_rdom_predicates():
    a = matrix(shape=(6, 6), seed=9)
    b = hl.Buffer(a)
    r = hl.RDom([hl.Range(0, 6), hl.Range(0, 6)])
    r.where(r.x <= r.y)  # the lower triangle (x <= y, a[y, x])
    f = hl.Func("f")
    f[()] = 0
    f[()] += b[r.x, r.y]
    assert np.asarray(f.realize([]))[()] == np.tril(a).sum()
    r2 = hl.RDom([hl.Range(0, 6), hl.Range(0, 6)])
    r2.where((r2.x + r2.y) % 2 == 0)
    g = hl.Func("g")
    g[()] = hl.sum(b[r2.x, r2.y])
    yy, xx = np.indices(a.shape)
    assert np.asarray(g.realize([]))[()] == a[(xx + yy) % 2 == 0].sum()


def test_reductions_of_funcs_in_a_pipeline():
    """A 1-D box filter as an inline sum over a Func, vs a NumPy convolution."""
    a = matrix(np.float32, shape=(40,), seed=10)
    b = hl.Buffer(a)
    x = hl.Var("x")
    src = hl.Func("src")
    src[x] = b[hl.clamp(x, 0, 39)]
    r = hl.RDom([hl.Range(-2, 5)])
    box = hl.Func("box")
    box[x] = hl.sum(src[x + r]) / 5
    out = np.asarray(box.realize([40]))
    padded = np.pad(a, 2, mode="edge")
    expected = np.convolve(padded, np.ones(5, dtype=np.float32) / 5, mode="valid")
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
