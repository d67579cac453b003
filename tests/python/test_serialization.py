"""Pipeline serialization from Python: hl.serialize_pipeline / deserialize_pipeline /
deserialize_parameters with Halide's signatures (bytes, os.PathLike files, get_params,
user_params), run with Loom and, where the API is Halide's, with the Halide 21 wheel too; and
pickling of Loom's Func and Pipeline, into a 'spawn' subprocess as well."""
import multiprocessing
import pickle

import numpy as np
import pytest

import loom


@pytest.fixture
def hl(hl_backend):
    return hl_backend


def image(h=30, w=40, seed=0):
    return np.random.default_rng(seed).integers(0, 1000, size=(h, w)).astype(np.uint16)


def reference(a, gain):
    """blur_y of blur_x of the repeat_edge input, times gain (what build() computes)."""
    p = np.pad(a.astype(np.int64), 1, mode="edge")
    bx = (p[:, :-2] + p[:, 1:-1] + p[:, 2:]) // 3
    by = (bx[:-2] + bx[1:-1] + bx[2:]) // 3
    return (by * gain).astype(np.int32)


def build(hl):
    """A scheduled blur of an ImageParam, scaled by a Param: (pipeline, input, gain)."""
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    gain = hl.Param(hl.Int(32), "gain", 3)
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    bx, by = hl.Func("blur_x"), hl.Func("blur_y")
    bx[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) / 3
    by[x, y] = hl.i32((bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 3) * gain
    by.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y)
    bx.compute_at(by, x).vectorize(x, 8)
    return hl.Pipeline(by), inp, gain


def realize(p, a):
    return np.asarray(p.realize([a.shape[1], a.shape[0]]))


def test_bytes_round_trip_with_user_params(hl):
    p, inp, gain = build(hl)
    data = hl.serialize_pipeline(p)
    assert isinstance(data, bytes)
    data2, params = hl.serialize_pipeline(p, get_params=True)
    assert isinstance(data2, bytes) and set(params) == {"input", "gain"}
    assert params["input"].same_as(inp.parameter())
    q = hl.deserialize_pipeline(data, {"input": inp.parameter(), "gain": gain.parameter()})
    a = image()
    inp.set(hl.Buffer(a))
    gain.set(2)
    np.testing.assert_array_equal(realize(q, a), reference(a, 2))
    np.testing.assert_array_equal(realize(q, a), realize(p, a))


def test_files_and_path_like(hl, tmp_path):
    p, inp, gain = build(hl)
    path = tmp_path / "blur.hlpipe"
    assert hl.serialize_pipeline(p, path) is None
    params = hl.serialize_pipeline(p, str(path), get_params=True)
    assert sorted(params) == ["gain", "input"]
    found = hl.deserialize_parameters(path)
    assert sorted(found) == ["gain", "input"]
    assert found["input"].is_buffer() and found["input"].dimensions() == 2
    assert found["input"].type() == hl.UInt(16)
    assert not found["gain"].is_buffer() and found["gain"].type() == hl.Int(32)
    q = hl.deserialize_pipeline(path, {"input": inp.parameter(), "gain": gain.parameter()})
    a = image(seed=1)
    inp.set(hl.Buffer(a))
    np.testing.assert_array_equal(realize(q, a), reference(a, 3))


def test_deserialize_parameters_then_bind_them(hl):
    p, _, _ = build(hl)
    data = hl.serialize_pipeline(p)
    params = hl.deserialize_parameters(data)
    a = image(seed=2)
    params["input"].set_buffer(hl.Buffer(a))
    params["gain"] = hl.Param(hl.Int(32), "gain", 3).parameter()
    q = hl.deserialize_pipeline(data, params)
    np.testing.assert_array_equal(realize(q, a), reference(a, 3))


def test_parameters_keep_their_values():
    hl = loom
    p, inp, gain = build(hl)
    gain.set(-7)
    found = hl.deserialize_parameters(hl.serialize_pipeline(p))
    assert found["gain"].scalar() == -7 and found["gain"].scalar_expr().type() == hl.Int(32)
    found["gain"].set_scalar(12)
    assert found["gain"].scalar() == 12
    assert repr(found["gain"]) == "<loom.Parameter 'gain' type int32>"


def test_bytes_are_deterministic():
    hl = loom
    first = hl.serialize_pipeline(build(hl)[0])
    assert hl.serialize_pipeline(build(hl)[0]) == first
    p = hl.deserialize_pipeline(first)
    assert hl.serialize_pipeline(p) == first


def test_user_params_take_image_params_and_params():
    hl = loom
    p, inp, gain = build(hl)
    q = hl.deserialize_pipeline(hl.serialize_pipeline(p), {"input": inp, "gain": gain})
    a = image(seed=3)
    inp.set(hl.Buffer(a))
    np.testing.assert_array_equal(realize(q, a), reference(a, 3))
    with pytest.raises(TypeError, match="user_params\\['input'\\]"):
        hl.deserialize_pipeline(hl.serialize_pipeline(p), {"input": 3})
    wrong = hl.ImageParam(hl.UInt(8), 2, "input")
    with pytest.raises(hl.CompileError, match="2-dimensional buffer of uint16"):
        hl.deserialize_pipeline(hl.serialize_pipeline(p), {"input": wrong})


def test_corrupt_and_foreign_data_raise_compile_errors():
    hl = loom
    data = hl.serialize_pipeline(build(hl)[0])
    with pytest.raises(hl.CompileError, match="not a pipeline serialized by Loom"):
        hl.deserialize_pipeline(b"garbage")
    with pytest.raises(hl.CompileError, match="truncated"):
        hl.deserialize_pipeline(data[:-5])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    with pytest.raises(hl.CompileError, match="checksum"):
        hl.deserialize_pipeline(bytes(flipped))
    newer = bytearray(data)
    newer[8] = 9
    with pytest.raises(hl.CompileError, match="format version 9"):
        hl.deserialize_parameters(bytes(newer))


def embedded_func():
    """A Func reading an embedded Buffer: pickling carries the data."""
    hl = loom
    lut = hl.Buffer(np.arange(16, dtype=np.int32) * 5)
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = lut[x % 16] + x
    f.vectorize(x, 4)
    return f


def test_pickle_func_and_pipeline_in_process():
    hl = loom
    f = embedded_func()
    g = pickle.loads(pickle.dumps(f))
    assert isinstance(g, hl.Func) and g.name().split("$")[0] == "f"
    np.testing.assert_array_equal(np.asarray(g.realize([40])), np.asarray(f.realize([40])))
    p, inp, gain = build(hl)
    q = pickle.loads(pickle.dumps(p))
    assert isinstance(q, hl.Pipeline)
    assert hl.serialize_pipeline(q) == hl.serialize_pipeline(p)


def realize_in_child(f, size, inputs):
    """Runs in a spawned process: f arrives pickled, with new parameters, which
    serialize_pipeline(..., get_params=True) finds by name; the inputs (a dict by name) are
    bound to them."""
    hl = loom
    _, params = hl.serialize_pipeline(hl.Pipeline(f), get_params=True)
    assert sorted(params) == sorted(inputs)
    for name, value in inputs.items():
        if params[name].is_buffer():
            params[name].set_buffer(hl.Buffer(value))
        else:
            params[name].set_scalar(value)
    return np.asarray(f.realize(size)).copy()


def test_pickle_into_a_spawned_process():
    hl = loom
    p, inp, gain = build(hl)
    a = image(seed=4)
    inp.set(hl.Buffer(a))
    f = embedded_func()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        # An embedded Buffer travels with the Func; an ImageParam's data is passed by argument.
        got = pool.apply(realize_in_child, (f, [40], {}))
        np.testing.assert_array_equal(got, np.asarray(f.realize([40])))
        size = [a.shape[1], a.shape[0]]
        got = pool.apply(realize_in_child, (p.outputs()[0], size, {"input": a, "gain": 3}))
    np.testing.assert_array_equal(got, realize(p, a))
