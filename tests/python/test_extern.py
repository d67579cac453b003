"""Extern stages from Python (Func.define_extern): a C function, found by name in the process,
computes a Func over buffers. The library is compiled here with the system C compiler and
loaded with RTLD_GLOBAL so the JIT can find its symbols. Run with Loom and, when installed,
the Halide 21 wheel: both must equal the NumPy reference."""
import ctypes
import os
import shutil
import subprocess

import numpy as np
import pytest

RUNTIME_INCLUDE = os.path.join(os.path.dirname(__file__), "..", "..", "include", "loom", "runtime")

# out(x, y) = in(x, y) * k + x + bias(x); in is asked for exactly out's region.
SOURCE = r"""
#include "loom_runtime.h"

static float *at(halide_buffer_t *b, int x, int y) {
    return (float *)b->host + (x - b->dim[0].min) * b->dim[0].stride +
           (y - b->dim[1].min) * b->dim[1].stride;
}

int pyext_scale(halide_buffer_t *in, float k, halide_buffer_t *bias, int bias_scale,
                halide_buffer_t *out) {
    if (in->host == NULL) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min;
            in->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    for (int y = out->dim[1].min; y < out->dim[1].min + out->dim[1].extent; y++) {
        for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
            const int32_t *b = (const int32_t *)bias->host + (x - bias->dim[0].min);
            *at(out, x, y) = *at(in, x, y) * k + (float)x + (float)(*b * bias_scale);
        }
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp("extern")
    src, lib = d / "pyext.c", d / "libpyext.so"
    src.write_text(SOURCE)
    subprocess.run([cc, "-std=c99", "-O1", "-shared", "-fPIC", "-I", RUNTIME_INCLUDE, str(src),
                    "-o", str(lib)], check=True)
    return ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)


@pytest.fixture
def hl(hl_backend):
    return hl_backend


def test_extern_stage_between_funcs(hl, library):
    rng = np.random.default_rng(7)
    image = rng.random((23, 37), dtype=np.float32)
    bias = rng.integers(-5, 5, size=(64,), dtype=np.int32)
    inp = hl.ImageParam(hl.Float(32), 2, "inp")
    k = hl.Param(hl.Float(32), "k", 2.5)
    x, y = hl.Var("x"), hl.Var("y")
    g, f, out = hl.Func("g"), hl.Func("f"), hl.Func("out")
    g[x, y] = inp[x, y] + 1
    g.compute_root()
    f.define_extern("pyext_scale", [g, k, hl.Buffer(bias), hl.Expr(3)], hl.Float(32), 2)
    f.compute_root()
    out[x, y] = f[x, y] - y
    assert f.is_extern() and f.extern_function_name() == "pyext_scale"
    assert not g.is_extern()
    inp.set(hl.Buffer(image))
    result = np.asarray(out.realize([image.shape[1], image.shape[0]]))
    xs, ys = np.arange(image.shape[1])[None, :], np.arange(image.shape[0])[:, None]
    ref = (image + 1) * np.float32(2.5) + xs + bias[:image.shape[1]][None, :] * 3 - ys
    np.testing.assert_allclose(result, ref, rtol=1e-5, atol=1e-5)


def test_extern_argument_kinds(hl):
    x = hl.Var("x")
    g = hl.Func("g")
    g[x] = x
    im = hl.ImageParam(hl.UInt(8), 1, "im")
    assert hl.ExternFuncArgument(g).is_func()
    assert hl.ExternFuncArgument(im).is_image_param()
    assert hl.ExternFuncArgument(hl.Buffer(hl.Int(32), [4])).is_buffer()
    assert hl.ExternFuncArgument(3).is_expr() and hl.ExternFuncArgument(x + 1).is_expr()
    assert not hl.ExternFuncArgument().defined()
    assert hl.NameMangling.C != hl.NameMangling.Default
