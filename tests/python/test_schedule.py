"""Differential tests of the scheduling directives from Python: each algorithm, under every
schedule listed, must give exactly the values of its unscheduled version and of a NumPy
reference. Bad schedules raise loom.CompileError naming the Func.

Run: PYTHONPATH=build/python python3 -m pytest -q tests/python/test_schedule.py
"""

import numpy as np
import pytest

import loom as hl

W, H = 37, 23  # not multiples of the split factors, so tails are exercised

RNG = np.random.default_rng(7)
INPUT = RNG.integers(0, 1000, size=(H, W), dtype=np.int32)


# ---- A two-stage stencil: blur_x then blur_y over a clamped input -------------------------


def blur_reference(a):
    h, w = a.shape
    xs = np.arange(w)
    ys = np.arange(h)
    pad = lambda d, n: np.clip(d, 0, n - 1)
    bx = np.zeros((h + 2, w), dtype=np.int64)
    for dy in range(-1, h + 1):
        row = a[pad(dy, h)]
        bx[dy + 1] = row[pad(xs - 1, w)] + row[xs] + row[pad(xs + 1, w)]
    out = (bx[ys] + bx[ys + 1] + bx[ys + 2]) // 9
    return out.astype(np.int32)


def make_blur(name="blur_y"):
    """A fresh blur pipeline: the funcs by name, and the Vars."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.Buffer(INPUT, "input")
    clamped = hl.Func("clamped")
    clamped[x, y] = inp[hl.clamp(x, 0, W - 1), hl.clamp(y, 0, H - 1)]
    blur_x = hl.Func("blur_x")
    blur_x[x, y] = clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]
    out = hl.Func(name)
    out[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) / 9
    return {"clamped": clamped, "blur_x": blur_x, "out": out}, x, y


def v(name):
    return hl.Var(name)


def sched_tile(f, x, y):
    xo, yo, xi, yi = v("xo"), v("yo"), v("xi"), v("yi")
    f["out"].tile(x, y, xo, yo, xi, yi, 8, 8).vectorize(xi, 4)
    f["blur_x"].compute_at(f["out"], xo).vectorize(x, 4)


def sched_sliding_window(f, x, y):
    yo, yi = v("yo"), v("yi")
    f["out"].split(y, yo, yi, 8).parallel(yo).vectorize(x, 8)
    f["blur_x"].store_at(f["out"], yo).compute_at(f["out"], yi).vectorize(x, 8)


def sched_fold(f, x, y):
    f["blur_x"].store_root().compute_at(f["out"], y).fold_storage(y, 4)


def sched_tile_lists(f, x, y):
    f["out"].tile([x, y], [v("xo"), v("yo")], [v("xi"), v("yi")], [4, 5])


def sched_tile_lists_tails(f, x, y):
    f["out"].tile(
        [x, y],
        [v("xo"), v("yo")],
        [v("xi"), v("yi")],
        [4, 5],
        [hl.TailStrategy.GuardWithIf, hl.TailStrategy.ShiftInwards],
    )


def sched_tile_inner_only(f, x, y):
    f["out"].tile([x, y], [v("xi"), v("yi")], [8, 4], hl.TailStrategy.GuardWithIf)


def sched_reorder_varargs(f, x, y):
    f["out"].reorder(y, x)
    f["blur_x"].compute_root().reorder([y, x])


def sched_fuse(f, x, y):
    fused = v("fused")
    f["out"].fuse(x, y, fused).parallel(fused, 16)


def sched_rename_unroll(f, x, y):
    xr = v("xr")
    f["out"].rename(x, xr).unroll(xr, 3, hl.TailStrategy.GuardWithIf)


def sched_split_tails(f, x, y):
    xo, xi, yo, yi = v("xo"), v("xi"), v("yo"), v("yi")
    f["out"].split(x, xo, xi, 8, hl.TailStrategy.GuardWithIf)
    f["out"].split(y, yo, yi, 5, hl.TailStrategy.ShiftInwards)
    f["blur_x"].compute_at(f["out"], yo).split(x, xo, xi, 4, hl.TailStrategy.RoundUp)


def sched_loop_level(f, x, y):
    f["blur_x"].compute_at(hl.LoopLevel(f["out"], y))
    f["clamped"].compute_at(hl.LoopLevel.root())


def sched_storage(f, x, y):
    f["blur_x"].compute_root().reorder_storage(y, x).store_in(hl.MemoryType.Heap)
    f["clamped"].compute_root().align_storage(x, 16).bound_storage(y, H + 2)


def sched_bounds(f, x, y):
    f["out"].bound(x, 0, W).bound(y, 0, H)
    f["blur_x"].compute_root().align_bounds(x, 8).align_extent(y, 4)


def sched_wrappers(f, x, y):
    f["blur_x"].compute_root()
    f["blur_x"].in_(f["out"]).compute_at(f["out"], y).vectorize(x, 8)
    f["clamped"].in_().compute_root()


def sched_clone(f, x, y):
    f["clamped"].compute_root()
    f["clamped"].clone_in(f["blur_x"]).compute_at(f["out"], y)


def sched_hoist(f, x, y):
    f["blur_x"].compute_at(f["out"], y).hoist_storage_root()


def sched_partition(f, x, y):
    f["out"].never_partition_all().vectorize(x, 8)
    f["blur_x"].compute_root().never_partition([x, y]).partition(y, hl.Partition.Auto)


def sched_async(f, x, y):
    yo, yi = v("yo"), v("yi")
    f["out"].split(y, yo, yi, 4)
    f["blur_x"].compute_at(f["out"], yo).async_()


def sched_memoize(f, x, y):
    f["blur_x"].compute_root().memoize()


def sched_prefetch(f, x, y):
    f["clamped"].compute_root()
    f["out"].prefetch(f["clamped"], y, y, 2)


def sched_gpu_free(f, x, y):
    # Directives that compile on any CPU target: serial, parallel by task size, hexagon-free.
    f["out"].parallel(y).serial(y).parallel(y, 4)


BLUR_SCHEDULES = {
    name[len("sched_") :]: fn for name, fn in list(globals().items()) if name.startswith("sched_")
}
BLUR_SCHEDULES["compute_root_all"] = lambda f, x, y: [
    g.compute_root() for g in (f["clamped"], f["blur_x"])
]
BLUR_SCHEDULES["vectorize_parallel"] = lambda f, x, y: f["out"].vectorize(x, 8).parallel(y)


@pytest.fixture(scope="module")
def blur_unscheduled():
    f, x, y = make_blur()
    result = np.asarray(f["out"].realize([W, H]))
    np.testing.assert_array_equal(result, blur_reference(INPUT))
    return result


@pytest.mark.parametrize("schedule", sorted(BLUR_SCHEDULES))
def test_blur_schedule(schedule, blur_unscheduled):
    f, x, y = make_blur()
    BLUR_SCHEDULES[schedule](f, x, y)
    result = np.asarray(f["out"].realize([W, H]))
    np.testing.assert_array_equal(result, blur_unscheduled)
    np.testing.assert_array_equal(result, blur_reference(INPUT))


def test_blur_with_update_stage_schedule(blur_unscheduled):
    # A Stage object (the pure definition) takes the same directives as the Func.
    f, x, y = make_blur()
    stage = hl.Stage(f["out"])
    xo, xi = v("xo"), v("xi")
    assert stage.split(x, xo, xi, 8) is stage
    stage.vectorize(xi).parallel(y)
    np.testing.assert_array_equal(np.asarray(f["out"].realize([W, H])), blur_unscheduled)


def test_specialize(blur_unscheduled):
    f, x, y = make_blur()
    p = hl.Param(hl.Bool(), "wide")
    s = f["out"].specialize(p)
    assert isinstance(s, hl.Stage)
    s.vectorize(x, 8).parallel(y)
    for value in (True, False):
        p.set(value)
        np.testing.assert_array_equal(np.asarray(f["out"].realize([W, H])), blur_unscheduled)


def test_specialize_fail_raises_at_run_time():
    f, x, y = make_blur()
    p = hl.Param(hl.Int(32), "mode")
    f["out"].specialize(p == 0).vectorize(x, 4)
    f["out"].specialize_fail("mode must be zero")
    p.set(0)
    np.testing.assert_array_equal(np.asarray(f["out"].realize([W, H])), blur_reference(INPUT))
    p.set(1)
    with pytest.raises(hl.HalideError, match="mode must be zero"):
        f["out"].realize([W, H])


def test_directives_return_the_same_object():
    f, x, y = make_blur()
    out = f["out"]
    xo, xi = v("xo"), v("xi")
    assert out.split(x, xo, xi, 4) is out
    assert out.vectorize(xi) is out
    assert out.parallel(y) is out
    assert f["blur_x"].compute_at(out, y) is f["blur_x"]
    assert f["blur_x"].store_root() is f["blur_x"]
    assert out.trace_stores() is out
    assert out.add_trace_tag("tag") is out


# ---- Reductions: a histogram and a row sum --------------------------------------------------

BINS = 16
DATA = RNG.integers(0, 10_000, size=(H, W), dtype=np.int32)


def make_hist():
    x = hl.Var("x")
    inp = hl.Buffer(DATA, "data")
    r = hl.RDom([hl.Range(0, W), hl.Range(0, H)], "r")
    hist = hl.Func("hist")
    hist[x] = 0
    hist[hl.clamp(inp[r.x, r.y] % BINS, 0, BINS - 1)] += 1
    return hist, x, r


def make_row_sum():
    y = hl.Var("y")
    inp = hl.Buffer(DATA, "data")
    r = hl.RDom([hl.Range(0, W)], "r")
    total = hl.Func("row_sum")
    total[y] = 0
    total[y] += inp[r.x, y]
    return total, y, r


def test_hist_schedules():
    expected = np.bincount((DATA % BINS).ravel(), minlength=BINS).astype(np.int32)
    base, _, _ = make_hist()
    np.testing.assert_array_equal(np.asarray(base.realize([BINS])), expected)

    hist, x, r = make_hist()
    hist.update(0).atomic().parallel(r.y)
    np.testing.assert_array_equal(np.asarray(hist.realize([BINS])), expected)

    hist, x, r = make_hist()
    intm = hist.update(0).rfactor(r.y, v("u"))
    intm.compute_root().update(0).parallel(v("u"))
    hist.vectorize(x, 8)
    np.testing.assert_array_equal(np.asarray(hist.realize([BINS])), expected)


def test_row_sum_schedules():
    expected = DATA.sum(axis=1).astype(np.int32)
    # H is not a multiple of the vector widths: an update's pure Var rounds up by default
    # (reading past the input), so its splits guard.
    guard = hl.TailStrategy.GuardWithIf
    schedules = [
        lambda t, y, r: None,
        lambda t, y, r: t.update(0).vectorize(y, 8, guard),
        lambda t, y, r: t.update(0).parallel(y).unroll(r.x, 4),
        lambda t, y, r: t.update(0).reorder(y, r.x).vectorize(y, 4, guard),
        lambda t, y, r: t.update(0)
        .split(r.x, hl.RVar("ro"), hl.RVar("ri"), 8)
        .reorder(hl.RVar("ri"), y, hl.RVar("ro")),
        lambda t, y, r: t.update(0).rfactor([(r.x, v("u"))]).compute_root(),
        lambda t, y, r: t.update(0).allow_race_conditions().vectorize(y, 4, guard),
    ]
    for schedule in schedules:
        total, y, r = make_row_sum()
        schedule(total, y, r)
        np.testing.assert_array_equal(np.asarray(total.realize([H])), expected)


def test_compute_at_reduction_loops():
    # A producer computed inside an update's RVar loop, named by the RDom, the RVar or a
    # LoopLevel of the update stage.
    x = hl.Var("x")
    values = np.arange(20, dtype=np.int32) ** 2
    expected = np.array([values[i : i + 4].sum() for i in range(12)], dtype=np.int32)
    for place in ("rdom", "rvar", "loop_level"):
        r = hl.RDom([hl.Range(0, 4)], "r")
        g, s = hl.Func("g"), hl.Func("window_sum")
        g[x] = x * x
        s[x] = 0
        s[x] += g[x + r]
        if place == "rdom":
            g.compute_at(s, r)
        elif place == "rvar":
            g.compute_at(s, r.x).store_at(s, x)
        else:
            g.compute_at(hl.LoopLevel(s, r.x, 1))
        np.testing.assert_array_equal(np.asarray(s.realize([12])), expected)


def test_compute_with():
    x, y = hl.Var("x"), hl.Var("y")
    a = hl.Buffer(INPUT, "a")
    g, h, out = hl.Func("g"), hl.Func("h"), hl.Func("out")
    g[x, y] = a[x, y] * 2
    h[x, y] = a[x, y] + 7
    out[x, y] = g[x, y] + h[x, y]
    expected = INPUT * 2 + INPUT + 7
    np.testing.assert_array_equal(np.asarray(out.realize([W, H])), expected)
    g.compute_root()
    assert h.compute_root().compute_with(g, y, hl.LoopAlignStrategy.AlignStart) is h
    np.testing.assert_array_equal(np.asarray(out.realize([W, H])), expected)


# ---- Errors name the Func ----------------------------------------------------------------


def test_error_vectorize_unknown_var():
    f, x, y = make_blur("shiny")
    with pytest.raises(hl.CompileError, match="shiny"):
        f["out"].vectorize(v("nowhere"))
        f["out"].realize([W, H])


def test_error_compute_at_non_consumer():
    x = hl.Var("x")
    producer, unrelated, out = hl.Func("producer"), hl.Func("unrelated"), hl.Func("consumer")
    producer[x] = x
    unrelated[x] = x + 1
    unrelated.compute_root()
    out[x] = producer[x] + unrelated[x]
    producer.compute_at(unrelated, x)
    with pytest.raises(hl.CompileError, match="producer"):
        out.realize([8])


def test_error_rfactor_of_pure_stage():
    f, x, y = make_blur("purely")
    with pytest.raises(hl.CompileError, match="purely"):
        hl.Stage(f["out"]).rfactor(hl.RVar("r"), v("u"))


def test_error_reorder_twice():
    f, x, y = make_blur("twice")
    with pytest.raises(hl.CompileError, match="twice.*x twice"):
        f["out"].reorder(x, x)


def test_error_vector_factor_not_constant():
    f, x, y = make_blur("varying")
    n = hl.Param(hl.Int(32), "n", 4)
    with pytest.raises(hl.CompileError, match="varying"):
        f["out"].vectorize(x, n)
        f["out"].realize([W, H])


def test_error_unscheduled_after_schedule():
    f, x, y = make_blur("scheduled")
    f["out"].vectorize(x, 4)
    with pytest.raises(hl.CompileError, match="scheduled"):
        f["out"].unscheduled()


def test_error_bad_arguments_are_type_errors():
    f, x, y = make_blur()
    with pytest.raises(TypeError):
        f["out"].vectorize("x")
    with pytest.raises(TypeError):
        f["out"].reorder(x, 3)


def test_loop_nest_shows_the_directives(capfd):
    f, x, y = make_blur()
    xo, xi, yo, yi = v("xo"), v("xi"), v("yo"), v("yi")
    f["out"].split(y, yo, yi, 8).parallel(yo).split(x, xo, xi, 8).vectorize(xi).unroll(yi, 2)
    f["blur_x"].compute_at(f["out"], xo)
    f["out"].print_loop_nest()
    nest = capfd.readouterr().err
    assert "parallel y.yo" in nest
    assert "vectorized x.xi" in nest
    assert "unrolled y.yi" in nest
    # blur_x is produced inside out's loop over xo.
    assert nest.index("for x.xo") < nest.index("produce blur_x")


GPU_DIRECTIVES = {
    "gpu_blocks": lambda f, x, y: f.gpu_blocks(x, y),
    "gpu_threads": lambda f, x, y: f.gpu_threads(x),
    "gpu": lambda f, x, y: f.split(x, v("bx"), v("tx"), 8).gpu(v("bx"), v("tx")),
    "gpu_tile_1d": lambda f, x, y: f.gpu_tile(x, v("bx"), v("tx"), 8),
    "gpu_tile_2d": lambda f, x, y: f.gpu_tile(x, y, v("bx"), v("by"), v("tx"), v("ty"), 8, 8),
    "gpu_tile_2d_threads": lambda f, x, y: f.gpu_tile(
        x, y, v("tx"), v("ty"), 8, 8, hl.TailStrategy.GuardWithIf, hl.DeviceAPI.CUDA
    ),
    "gpu_single_thread": lambda f, x, y: f.gpu_single_thread(),
    "hexagon": lambda f, x, y: f.hexagon(),
}


@pytest.mark.parametrize("directive", sorted(GPU_DIRECTIVES))
def test_device_directives_need_a_device_target(directive):
    # The host target has no GPU or DSP feature: the recorded directive is refused by name.
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("on_device")
    f[x, y] = x + y
    assert GPU_DIRECTIVES[directive](f, x, y) is f
    with pytest.raises(hl.CompileError, match="on_device"):
        f.realize([16, 16], hl.get_host_target())


def test_copy_to_host_is_a_copy():
    x = hl.Var("x")
    src, dst = hl.Func("src"), hl.Func("dst")
    src[x] = x * 3
    dst[x] = src[x]
    src.compute_root()
    assert isinstance(dst.copy_to_host(), hl.Func)
    np.testing.assert_array_equal(np.asarray(dst.realize([10])), np.arange(10) * 3)


# ---- Scratchpads (Loom's extension, <loom/scratchpad.h>) ----------------------------------


def line_blur(memory):
    """Vocke's Figure 5: a 3x3 blur row by row, the input rows copied into `memory` by a copy
    stage, the horizontal pass stored there too."""
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    rows = inp.in_()
    blur_x, out = hl.Func("blur_x"), hl.Func("out")
    blur_x[x, y] = hl.cast(hl.UInt(32), rows[x, y]) + rows[x + 1, y] + rows[x + 2, y]
    out[x, y] = hl.cast(hl.UInt(16), (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) // 9)
    assert rows.compute_at(out, y).store_in(memory) is rows
    blur_x.compute_at(out, y).store_in(memory)
    out.set_estimate(x, 0, 64).set_estimate(y, 0, 64)
    return inp, out


def test_scratchpad_line_blur_matches_numpy():
    vmem = hl.Scratchpad("vmem_py", 4096, 64)
    assert (vmem.name(), vmem.size(), vmem.alignment()) == ("vmem_py", 4096, 64)
    assert "vmem_py" in repr(vmem)
    inp, out = line_blur(vmem)
    rng = np.random.default_rng(5)
    image = rng.integers(0, 4096, size=(40, 50), dtype=np.uint16)
    inp.set(hl.Buffer(image))
    got = np.asarray(out.realize([48, 38]))
    img = image.astype(np.uint32)
    h = img[:, :-2] + img[:, 1:-1] + img[:, 2:]
    want = ((h[:-2] + h[1:-1] + h[2:]) // 9).astype(np.uint16)
    np.testing.assert_array_equal(got, want)


def test_scratchpad_overflow_is_a_compile_error_naming_the_func():
    # Two rows of 66 u16 and 64 u32 values do not fit in 256 bytes.
    inp, out = line_blur(hl.Scratchpad("vmem_tiny_py", 256, 64))
    with pytest.raises(hl.CompileError, match="vmem_tiny_py"):
        out.compile_jit()
    # The same name with another size is a CompileError too.
    with pytest.raises(hl.CompileError):
        hl.Scratchpad("vmem_tiny_py", 512, 64)
