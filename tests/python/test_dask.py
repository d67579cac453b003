"""loom.dask.apply: chunked results equal one realize of the whole array, with the halo each
chunk needs found by bounds inference, boundary conditions at the array's edges, resampling
pipelines, and a 2-process dask.distributed LocalCluster."""
import os

import numpy as np
import pytest

import loom as hl

da = pytest.importorskip("dask.array")
import loom.dask  # noqa: E402


def blur_builder(inp):
    """A 5x3 blur over a clamped input: its halo is 2 in x and 1 in y."""
    x, y = hl.Var("x"), hl.Var("y")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    bx = hl.Func("bx")
    bx[x, y] = clamped[x - 2, y] + clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y] + clamped[x + 2, y]
    out = hl.Func("blur")
    out[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 15
    return out


def tiled_blur_builder(inp):
    """blur_builder scheduled in 16 x 8 tiles: a tile is wider than the halo, so the slabs
    around a chunk's interior must be computed as whole tiles."""
    out = blur_builder(inp)
    x, y, xi, yi = out.args()[0], out.args()[1], hl.Var("xi"), hl.Var("yi")
    out.tile(x, y, xi, yi, 16, 8).vectorize(xi, 4).parallel(y)
    return out


def downsample_builder(inp):
    """A 2x downsample: output chunks need input regions at twice their coordinates."""
    x, y = hl.Var("x"), hl.Var("y")
    out = hl.Func("down")
    out[x, y] = (inp[2 * x, 2 * y] + inp[2 * x + 1, 2 * y] + inp[2 * x, 2 * y + 1]
                 + inp[2 * x + 1, 2 * y + 1]) / 4
    return out


def whole(builder, image):
    inp = hl.ImageParam(hl.Float(32), 2, "inp")
    f = builder(inp)
    inp.set(hl.Buffer(image))
    return np.asarray(f.realize([image.shape[1], image.shape[0]]))


@pytest.fixture
def image():
    return np.random.default_rng(5).random((97, 131), dtype=np.float32)


def test_chunks_equal_one_realize(image):
    arr = da.from_array(image, chunks=(20, 33))
    out = loom.dask.apply(blur_builder, {hl.ImageParam(hl.Float(32), 2, "inp"): arr})
    assert out.shape == image.shape and out.chunks == arr.chunks
    np.testing.assert_allclose(out.compute(scheduler="threads"), whole(blur_builder, image),
                               rtol=1e-6)


def test_strided_and_uneven_chunks(image):
    # A transposed view has no dense rows, and uneven chunks put halos across several chunks.
    view = np.ascontiguousarray(image.T).T
    arr = da.from_array(view, chunks=((10, 50, 37), (7, 100, 24)))
    out = loom.dask.apply(blur_builder, {hl.ImageParam(hl.Float(32), 2, "inp"): arr},
                          chunks=(30, 64))
    np.testing.assert_allclose(out.compute(scheduler="threads"),
                               whole(blur_builder, np.ascontiguousarray(image)), rtol=1e-6)


def test_a_func_in_process(image):
    inp = hl.ImageParam(hl.Float(32), 2, "inp")
    f = blur_builder(inp)
    out = loom.dask.apply(f, {inp: da.from_array(image, chunks=(40, 40))})
    np.testing.assert_allclose(out.compute(scheduler="threads"), whole(blur_builder, image),
                               rtol=1e-6)


def test_interior_read_in_place_and_slabs_as_whole_tiles(image):
    arr = da.from_array(image, chunks=(40, 50))
    inp = hl.ImageParam(hl.Float(32), 2, "inp")
    compiled = loom.dask._Compiled(hl.Pipeline(tiled_blur_builder(inp)), [inp], [inp.type()])
    # The chunk at (40, 50) of 40 x 50: an interior and four slabs, each inside the chunk.
    _, parts = loom.dask._parts(compiled, [50, 40], [50, 40], [arr])
    assert len(parts) == 5
    for mins, extents, _ in parts:
        assert 50 <= mins[0] and mins[0] + extents[0] <= 100
        assert 40 <= mins[1] and mins[1] + extents[1] <= 80
    out = loom.dask.apply(tiled_blur_builder, {hl.ImageParam(hl.Float(32), 2, "inp"): arr})
    np.testing.assert_allclose(out.compute(scheduler="threads"), whole(blur_builder, image),
                               rtol=1e-6)


def test_resampling_needs_the_scaled_region(image):
    image = image[:96, :130]
    arr = da.from_array(image, chunks=(32, 50))
    out = loom.dask.apply(downsample_builder, {hl.ImageParam(hl.Float(32), 2, "inp"): arr},
                          shape=(48, 65), chunks=(16, 20))
    ref = (image[0::2, 0::2] + image[0::2, 1::2] + image[1::2, 0::2] + image[1::2, 1::2]) / 4
    np.testing.assert_allclose(out.compute(scheduler="sync"), ref, rtol=1e-6)


def test_errors_name_the_problem(image):
    inp = hl.ImageParam(hl.Float(32), 3, "inp")
    with pytest.raises(ValueError, match="inp"):
        loom.dask.apply(blur_builder, {inp: da.from_array(image)})


def test_local_cluster_with_two_processes(image, monkeypatch):
    distributed = pytest.importorskip("distributed")
    # The workers unpickle blur_builder by reference: they import this module.
    here = os.path.dirname(os.path.abspath(__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    arr = da.from_array(image, chunks=(25, 70))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            out = loom.dask.apply(blur_builder, {hl.ImageParam(hl.Float(32), 2, "inp"): arr})
            result = client.compute(out).result()
            # A Func travels as its serialized definition; the workers bind "inp" by name.
            inp = hl.ImageParam(hl.Float(32), 2, "inp")
            from_func = client.compute(loom.dask.apply(tiled_blur_builder(inp), {inp: arr}))
            from_func = from_func.result()
    np.testing.assert_allclose(result, whole(blur_builder, image), rtol=1e-6)
    np.testing.assert_allclose(from_func, whole(blur_builder, image), rtol=1e-6)
