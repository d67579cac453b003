"""propagate_adjoints and Derivative from Python (docs/autodiff.md). The programs written with
Halide's Python API run with both Loom and the Halide 21 wheel (the `hl_backend` fixture); every
gradient is checked against double-precision finite differences or a NumPy closed form."""
import numpy as np
import pytest

RNG = np.random.default_rng(21)


def finite_differences(loss, a, h=1e-6):
    """d loss / d a by central differences, perturbing `a` (which the pipeline reads) in place."""
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        old = a[i]
        a[i] = old + h
        up = loss()
        a[i] = old - h
        down = loss()
        a[i] = old
        grad[i] = (up - down) / (2 * h)
    return grad


def blur_loss(hl, a, target):
    """sum((tanh(3x3 blur of repeat_edge(a)) - target)^2) over a's shape, in float64."""
    x, y = hl.Var("x"), hl.Var("y")
    h, w = a.shape
    b, t = hl.Buffer(a, "a"), hl.Buffer(target, "target")
    clamped = hl.BoundaryConditions.repeat_edge(b)
    blur_x, blur, err = hl.Func("blur_x"), hl.Func("blur"), hl.Func("err")
    blur_x[x, y] = 0.25 * clamped[x - 1, y] + 0.5 * clamped[x, y] + 0.25 * clamped[x + 1, y]
    blur[x, y] = 0.25 * blur_x[x, y - 1] + 0.5 * blur_x[x, y] + 0.25 * blur_x[x, y + 1]
    err[x, y] = hl.tanh(blur[x, y]) - t[x, y]
    r = hl.RDom([hl.Range(0, w), hl.Range(0, h)])
    loss = hl.Func("loss")
    loss[()] = hl.f64(0)
    loss[()] += err[r.x, r.y] * err[r.x, r.y]
    return loss, b, blur


def test_scalar_loss_gradient_of_a_buffer(hl_backend):
    hl = hl_backend
    a, target = RNG.standard_normal((5, 6)), RNG.standard_normal((5, 6))
    loss, b, _ = blur_loss(hl, a, target)
    d = hl.propagate_adjoints(loss)
    grad = np.asarray(d[b].realize([6, 5])).copy()
    expected = finite_differences(lambda: loss.realize([])[()], a)
    np.testing.assert_allclose(grad, expected, rtol=1e-6, atol=1e-8)


def test_param_gradient_matches_closed_form(hl_backend):
    hl = hl_backend
    x = hl.Var("x")
    a = RNG.standard_normal(10)
    b = hl.Buffer(a, "a")
    gain = hl.Param(hl.Float(64), "gain", 0.5)  # exact in float32, as Halide stores it
    f = hl.Func("f")
    f[x] = hl.exp(gain * b[x])
    r = hl.RDom([hl.Range(0, 10)])
    loss = hl.Func("loss")
    loss[()] = hl.f64(0)
    loss[()] += f[r]
    d = hl.propagate_adjoints(loss)
    assert d[gain].dimensions() == 0
    np.testing.assert_allclose(d[gain].realize([])[()], np.sum(a * np.exp(0.5 * a)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(d[b].realize([10])), 0.5 * np.exp(0.5 * a), rtol=1e-12)


@pytest.mark.parametrize("bounds_as_ranges", [False, True])
def test_adjoint_func_over_bounds(hl_backend, bounds_as_ranges):
    # The vector-Jacobian product of a blur: the gradient of sum(adjoint * blur(a)) is the
    # adjoint scattered back through the stencil, computed here with NumPy slices.
    hl = hl_backend
    x, y = hl.Var("x"), hl.Var("y")
    a, adjoint = RNG.standard_normal((6, 7)), RNG.standard_normal((4, 5))
    b = hl.Buffer(a, "a")
    blur = hl.Func("blur")
    blur[x, y] = (b[x, y] + 2 * b[x + 1, y] + b[x + 2, y + 1] - b[x, y + 2]) * 0.5
    # Zero outside the bounds, where Halide 21 reads the adjoint too.
    adj = hl.BoundaryConditions.constant_exterior(hl.Buffer(adjoint, "adjoint"), hl.f64(0))
    bounds = [(0, 5), (0, 4)]
    if bounds_as_ranges:
        bounds = [hl.Range(m, e) for m, e in bounds]
    d = hl.propagate_adjoints(blur, adj, bounds)
    grad = np.asarray(d[b].realize([7, 6]))
    expected = np.zeros_like(a)
    for dy, dx, w in [(0, 0, 0.5), (0, 1, 1.0), (1, 2, 0.5), (2, 0, -0.5)]:
        expected[dy : dy + 4, dx : dx + 5] += w * adjoint
    np.testing.assert_allclose(grad, expected, rtol=1e-12, atol=1e-12)
    # The adjoint of the output is the given one within the bounds.
    np.testing.assert_allclose(np.asarray(d[blur].realize([5, 4])), adjoint, rtol=1e-12)


def test_lookups_by_update_id(hl_backend):
    hl = hl_backend
    x = hl.Var("x")
    a = RNG.standard_normal(6)
    b = hl.Buffer(a, "a")
    f = hl.Func("f")
    f[x] = b[x]
    f[x] = f[x] * 2 + b[x] * b[x]  # update 0
    r = hl.RDom([hl.Range(0, 6)])
    loss = hl.Func("loss")
    loss[()] = hl.f64(0)
    loss[()] += 3 * f[r]
    d = hl.propagate_adjoints(loss)
    # d[f, 0] is the adjoint of the update's values (3), d[f] that of the pure definition (6).
    np.testing.assert_allclose(np.asarray(d[f, 0].realize([6])), np.full(6, 3.0))
    np.testing.assert_allclose(np.asarray(d[(f, -1)].realize([6])), np.full(6, 6.0))
    np.testing.assert_allclose(np.asarray(d[f].realize([6])), np.full(6, 6.0))
    np.testing.assert_allclose(np.asarray(d[b].realize([6])), 6 + 6 * a, rtol=1e-12)


# ---- Beyond Halide's Python bindings ---------------------------------------------------------


def test_float32_adjoint_buffer(hl):
    # Halide 21's binding refuses a Python Buffer here (it wants the C++ Buffer<float>).
    x = hl.Var("x")
    a = RNG.standard_normal(8).astype(np.float32)
    adjoint = RNG.standard_normal(8).astype(np.float32)
    b = hl.Buffer(a, "a")
    f = hl.Func("f")
    f[x] = b[x] * b[x]
    d = hl.propagate_adjoints(f, hl.Buffer(adjoint))
    np.testing.assert_allclose(np.asarray(d[b].realize([8])), 2 * a * adjoint, rtol=1e-6)
    with pytest.raises(TypeError, match="float32"):
        hl.propagate_adjoints(f, hl.Buffer(adjoint.astype(np.float64)))


def test_lookups_by_image_param_name_and_call(hl):
    x = hl.Var("x")
    im = hl.ImageParam(hl.Float(64), 1, "im")
    f = hl.Func("f")
    f[x] = hl.sqrt(im[x])
    d = hl.propagate_adjoints(f, f, [(0, 5)])
    a = RNG.uniform(0.5, 2.0, 5)
    im.set(hl.Buffer(a))
    expected = 0.5 / np.sqrt(a) * np.sqrt(a)  # the adjoint is f's own values
    np.testing.assert_allclose(np.asarray(d[im].realize([5])), expected, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(d["im"].realize([5])), expected, rtol=1e-12)
    assert d(f).name() == d[f].name() and d(f, -1).name() == d[f].name()
    assert not d["nothing"].defined()
    with pytest.raises(TypeError, match="indexed by"):
        d[3.5]


def test_li2018_autoscheduler_schedules_the_gradient():
    """The "Li2018" gradient autoscheduler (docs/autodiff.md): the loss becomes a parallel
    reduction (rfactor), the gradient a tiled root; both equal the unscheduled pipeline's."""
    import loom as hl
    a, target = RNG.standard_normal((150, 170)), RNG.standard_normal((150, 170))
    loss, b, _ = blur_loss(hl, a, target)
    d_a = hl.propagate_adjoints(loss)[b]
    want_loss, want_grad = loss.realize([])[()], np.asarray(d_a.realize([170, 150])).copy()

    loss, b, _ = blur_loss(hl, a, target)
    d_a = hl.propagate_adjoints(loss)[b]
    loss.set_estimates([])
    d_a.set_estimates([hl.Range(0, 170), hl.Range(0, 150)])
    params = hl.AutoschedulerParams("Li2018", {"parallelism": 4})
    result = hl.Pipeline([loss, d_a]).apply_autoscheduler(hl.get_host_target(), params)
    assert ".rfactor({" in result.schedule_source
    np.testing.assert_allclose(loss.realize([])[()], want_loss, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(d_a.realize([170, 150])), want_grad, rtol=1e-12,
                               atol=1e-15)
    with pytest.raises(hl.CompileError, match="has no parameter"):
        hl.Pipeline([loss, d_a]).apply_autoscheduler(
            hl.get_host_target(), hl.AutoschedulerParams("Li2018", {"beam_size": 2}))


def test_tuple_valued_func_adjoint_is_a_tuple(hl_backend):
    hl = hl_backend
    x = hl.Var("x")
    a = RNG.standard_normal(8)
    b = hl.Buffer(a, "a")
    pair, g = hl.Func("pair"), hl.Func("g")
    pair[x] = (b[x] * 2.0, hl.sin(b[x]))
    g[x] = pair[x][0] * pair[x][1]
    r = hl.RDom([hl.Range(0, 8)])
    loss = hl.Func("loss")
    loss[()] = hl.f64(0)
    loss[()] += g[r]
    d = hl.propagate_adjoints(loss)
    assert d[pair].outputs() == 2
    d0, d1 = d[pair].realize([8])
    np.testing.assert_allclose(np.asarray(d0), np.sin(a), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(d1), 2.0 * a, rtol=1e-12)
    grad = np.asarray(d[b].realize([8]))
    np.testing.assert_allclose(grad, 2.0 * np.sin(a) + 2.0 * a * np.cos(a), rtol=1e-12)
