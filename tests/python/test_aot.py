"""Ahead-of-time compilation from Python: the compile_to_* family writes its files, the header
declares the function, and (where a C compiler is available) a C program linked against the
static library computes the same values as NumPy.

Run: PYTHONPATH=build/python python3 -m pytest -q tests/python/test_aot.py
"""

import re
import shutil
import subprocess

import numpy as np
import pytest

import loom as hl

W, H = 13, 7


def make_brighten(name="brighten"):
    """out(x, y) = int32(im(x, y)) * 2 + offset + x, vectorized and parallel."""
    x, y = hl.Var("x"), hl.Var("y")
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    offset = hl.Param(hl.Int(32), "offset")
    f = hl.Func(name)
    f[x, y] = hl.cast(hl.Int(32), im[x, y]) * 2 + offset + x
    f.vectorize(x, 4, hl.TailStrategy.GuardWithIf).parallel(y)
    return f, [im, offset]


def declaration(header_text, fn_name):
    """The prototype of fn_name in a generated header, or None."""
    m = re.search(r"^int " + fn_name + r"\(([^)]*)\);", header_text, re.M)
    return m.group(1) if m else None


def test_static_library_and_header(tmp_path):
    f, args = make_brighten()
    prefix = tmp_path / "brighten"
    # Named explicitly: a Func name used before in the process is made unique ("brighten$2").
    f.compile_to_static_library(str(prefix), args, "brighten")
    assert (tmp_path / "brighten.a").stat().st_size > 0
    params = declaration((tmp_path / "brighten.h").read_text(), "brighten")
    assert params is not None
    assert [p.split()[-1] for p in params.split(",")] == [
        "*_im_buffer",
        "_offset",
        "*_brighten_buffer",
    ]


def test_compile_to_file_with_fn_name(tmp_path):
    f, args = make_brighten()
    f.compile_to_file(str(tmp_path / "obj"), args, "renamed", hl.get_host_target())
    assert (tmp_path / "obj.o").stat().st_size > 0
    assert declaration((tmp_path / "obj.h").read_text(), "renamed") is not None


def test_single_outputs(tmp_path):
    f, args = make_brighten("single_output")
    f.compile_to_object(str(tmp_path / "a.o"), args)
    f.compile_to_object(str(tmp_path / "b.o"), args, "b_fn")
    f.compile_to_header(str(tmp_path / "a.h"), args, "a_fn")
    f.compile_to_assembly(str(tmp_path / "a.s"), args, "asm_fn")
    f.compile_to_llvm_assembly(str(tmp_path / "a.ll"), args, hl.get_host_target())
    f.compile_to_bitcode(str(tmp_path / "a.bc"), args)
    for name in ("a.o", "b.o", "a.h", "a.s", "a.ll", "a.bc"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert declaration((tmp_path / "a.h").read_text(), "a_fn") is not None
    assert "asm_fn" in (tmp_path / "a.s").read_text()
    assert "single_output" in (tmp_path / "a.ll").read_text()
    assert (tmp_path / "a.bc").read_bytes()[:2] == b"BC"
    # The C back end: one C99 file that a C compiler builds on its own.
    f.compile_to_c(str(tmp_path / "a.c"), args)
    assert "int single_output(" in (tmp_path / "a.c").read_text()
    if shutil.which("cc"):
        subprocess.run(["cc", "-std=c99", "-c", "-o", str(tmp_path / "c.o"), str(tmp_path / "a.c")],
                       check=True)


def test_compile_to_output_map(tmp_path):
    f, args = make_brighten("mapped")
    outputs = {
        hl.OutputFileType.object: str(tmp_path / "m.o"),
        hl.OutputFileType.c_header: str(tmp_path / "m.h"),
        hl.OutputFileType.static_library: str(tmp_path / "m.a"),
        hl.OutputFileType.stmt: str(tmp_path / "m.stmt"),
    }
    hl.Pipeline(f).compile_to(outputs, args, "mapped_fn")
    for path in outputs.values():
        assert (tmp_path / path).stat().st_size > 0, path
    assert declaration((tmp_path / "m.h").read_text(), "mapped_fn") is not None


def test_standalone_runtime(tmp_path):
    written = hl.compile_standalone_runtime(
        {hl.OutputFileType.object: str(tmp_path / "rt.o")}, hl.get_host_target()
    )
    assert written == {hl.OutputFileType.object: str(tmp_path / "rt.o")}
    assert (tmp_path / "rt.o").stat().st_size > 0


C_PROGRAM = r"""
#include "brighten.h"
#include <stdio.h>
#include <string.h>

int main(void) {
    enum { W = %(W)d, H = %(H)d };
    uint8_t in[H][W];
    int32_t out[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in[y][x] = (uint8_t)(x * 17 + y * 29);
    halide_dimension_t dims[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t in_buf, out_buf;
    memset(&in_buf, 0, sizeof(in_buf));
    memset(&out_buf, 0, sizeof(out_buf));
    in_buf.host = (uint8_t *)in;
    in_buf.type.code = halide_type_uint;
    in_buf.type.bits = 8;
    in_buf.type.lanes = 1;
    in_buf.dimensions = 2;
    in_buf.dim = dims;
    out_buf = in_buf;
    out_buf.host = (uint8_t *)out;
    out_buf.type.code = halide_type_int;
    out_buf.type.bits = 32;
    int rc = brighten(&in_buf, %(OFFSET)d, &out_buf);
    if (rc != 0) return 2;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) printf("%%d ", out[y][x]);
        printf("\n");
    }
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_program_against_static_library(tmp_path):
    offset = -40
    f, args = make_brighten()
    f.compile_to_static_library(str(tmp_path / "brighten"), args, "brighten")
    src = tmp_path / "main.c"
    src.write_text(C_PROGRAM % {"W": W, "H": H, "OFFSET": offset})
    exe = tmp_path / "main"
    subprocess.run(
        ["cc", "-std=c99", "-O1", "-I", str(tmp_path), str(src), str(tmp_path / "brighten.a"),
         "-o", str(exe), "-lm", "-lpthread", "-ldl"],
        check=True,
    )
    run = subprocess.run([str(exe)], check=True, capture_output=True, text=True)
    got = np.array([[int(v) for v in line.split()] for line in run.stdout.strip().splitlines()])

    xs, ys = np.meshgrid(np.arange(W), np.arange(H))
    inp = ((xs * 17 + ys * 29) % 256).astype(np.int32)
    np.testing.assert_array_equal(got, inp * 2 + offset + xs)
    # The JIT computes the same values.
    f2, (im, off) = make_brighten()
    im.set(hl.Buffer(inp.astype(np.uint8)))
    off.set(offset)
    np.testing.assert_array_equal(np.asarray(f2.realize([W, H])), got)
