"""GPU schedules from Python: the same pipelines on the target LOOM_GPU_TARGET names
("host-opencl" by default, PoCL in CI), checked against NumPy. LOOM_SKIP_OPENCL=1 skips them on a
machine without an OpenCL driver. Outputs read through the buffer protocol are copied back from
the device first."""
import os

import numpy as np
import pytest

import loom as hl

TARGET = os.environ.get("LOOM_GPU_TARGET", "host-opencl")
pytestmark = pytest.mark.skipif(
    os.environ.get("LOOM_SKIP_OPENCL") == "1" and "opencl" in TARGET, reason="LOOM_SKIP_OPENCL=1")

x, y = hl.Var("x"), hl.Var("y")
xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")


def brighten(inp):
    f = hl.Func("brighten")
    f[x, y] = hl.cast(hl.UInt(8), hl.min(hl.cast(hl.Int(32), inp[x, y]) * 3 // 2, 255))
    return f


def test_gpu_tile_matches_numpy():
    a = np.random.default_rng(1).integers(0, 256, size=(30, 50), dtype=np.uint8)
    f = brighten(hl.Buffer(a))
    f.gpu_tile(x, y, xo, yo, xi, yi, 16, 8)
    out = np.asarray(f.realize([50, 30], hl.Target(TARGET)))
    np.testing.assert_array_equal(out, np.minimum(a.astype(np.int32) * 3 // 2, 255))


def test_output_buffer_left_on_device_is_copied_back_when_read():
    a = np.random.default_rng(2).integers(0, 256, size=(24, 40), dtype=np.uint8)
    f = brighten(hl.Buffer(a))
    f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
    out = hl.Buffer(hl.UInt(8), [40, 24])
    f.realize(out, hl.Target(TARGET))
    assert out.device_dirty()
    np.testing.assert_array_equal(np.asarray(out), np.minimum(a.astype(np.int32) * 3 // 2, 255))
    assert not out.device_dirty()


def test_shared_memory_blur():
    a = np.random.default_rng(3).integers(0, 65536, size=(48, 64), dtype=np.uint16)
    clamped = hl.BoundaryConditions.repeat_edge(hl.Buffer(a))
    bx, by = hl.Func("blur_x"), hl.Func("blur_y")
    bx[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) // 3
    by[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) // 3
    by.gpu_tile(x, y, xo, yo, xi, yi, 16, 8)
    bx.compute_at(by, xo).gpu_threads(x, y)
    out = np.asarray(by.realize([64, 48], hl.Target(TARGET)))
    p = np.pad(a, 1, mode="edge").astype(np.uint16)
    h = ((p[:, :-2] + p[:, 1:-1] + p[:, 2:]) // 3).astype(np.uint16)
    v = ((h[:-2] + h[1:-1] + h[2:]) // 3).astype(np.uint16)
    np.testing.assert_array_equal(out, v)
