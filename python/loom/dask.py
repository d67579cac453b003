"""Loom pipelines over Dask arrays: each output chunk is computed by the compiled pipeline from
the input region it needs, which Loom's bounds inference finds (no halo depth to give).

    import dask.array as da
    import loom, loom.dask

    def build(inp):                     # a picklable builder: workers rebuild the pipeline
        x, y = loom.Var("x"), loom.Var("y")
        clamped = loom.BoundaryConditions.repeat_edge(inp)
        blur = loom.Func("blur")
        blur[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) / 3
        return blur

    inp = loom.ImageParam(loom.Float(32), 2, "inp")
    image = da.random.random((16384, 16384), chunks=4096).astype("float32")
    out = loom.dask.apply(build, {inp: image})     # lazy; out.compute() runs it

The pipeline is given as a Func or Pipeline, or as a builder (a function taking the
ImageParams in the order of `inputs` and returning the output Func or Pipeline). With Dask's
threaded and synchronous schedulers the Func itself is used; a dask.distributed cluster's
workers get its definition as serialize_pipeline's bytes (so it must be serializable: no JIT
externs given as pointers) and bind their inputs by the ImageParams' names. A builder is
pickled by reference, so it works with any scheduler too. Each worker process builds or
deserializes the pipeline and JIT-compiles it once, then reuses it.

Axes follow Loom's NumPy rule: the last axis of a Dask array is the pipeline's dimension 0.
Boundary conditions written on an ImageParam's own bounds (BoundaryConditions.repeat_edge(inp))
apply at the edges of the whole array, not of each chunk.
"""
import atexit
import operator
import threading
import uuid

import numpy as np

import loom

__all__ = ["apply"]

_NUMPY_TYPES = {
    (loom.TypeCode.Int, 8): np.int8,
    (loom.TypeCode.Int, 16): np.int16,
    (loom.TypeCode.Int, 32): np.int32,
    (loom.TypeCode.Int, 64): np.int64,
    (loom.TypeCode.UInt, 1): np.bool_,
    (loom.TypeCode.UInt, 8): np.uint8,
    (loom.TypeCode.UInt, 16): np.uint16,
    (loom.TypeCode.UInt, 32): np.uint32,
    (loom.TypeCode.UInt, 64): np.uint64,
    (loom.TypeCode.Float, 16): np.float16,
    (loom.TypeCode.Float, 32): np.float32,
    (loom.TypeCode.Float, 64): np.float64,
}


def _numpy_dtype(t):
    try:
        return np.dtype(_NUMPY_TYPES[(t.code(), t.bits())])
    except KeyError:
        raise TypeError(f"loom.dask: no NumPy type for the output type {t}") from None


class _Compiled:
    """A pipeline on one machine: its inputs (ImageParams, or Arguments naming them) and their
    types, its output's type and dimensions, and a Callable (thread-safe: each call gets its
    own buffers) compiled once."""

    def __init__(self, pipeline, params, types):
        self.pipeline = pipeline
        self.params = params
        self.types = types
        outputs = pipeline.outputs()
        if len(outputs) != 1 or outputs[0].outputs() != 1:
            raise loom.CompileError(
                "loom.dask.apply needs a pipeline with one output of one value; "
                f"'{outputs[0].name()}' has {len(outputs)} outputs of "
                f"{outputs[0].outputs()} values")
        self.output = outputs[0]
        self.dtype = _numpy_dtype(self.output.type())
        self.dimensions = self.output.dimensions()
        self._callable = None
        self._lock = threading.Lock()

    def callable(self):
        with self._lock:
            if self._callable is None:
                self._callable = self.pipeline.compile_to_callable(list(self.params))
            return self._callable

    def required_regions(self, mins, extents, array_shapes):
        """What computing the output over [mins, mins + extents) (Loom order) takes: the box
        the pipeline writes (the requested one, or larger where its schedule's splits round
        the loops to whole tiles), as (mins, extents), and the region of each input that it
        reads (a list of (min, extent)), given the whole arrays' shapes (Loom order). A bounds
        query whose input buffers already have the arrays' shapes: a boundary condition
        written on an input's bounds then clamps at the array's edges."""
        queries = [loom.Buffer.make_bounds_query(t, list(shape))
                   for t, shape in zip(self.types, array_shapes)]
        out = loom.Buffer.make_bounds_query(self.output.type(), list(extents))
        out.set_min(list(mins))
        self.callable()(*queries, out)
        box = ([out.dim(i).min() for i in range(out.dimensions())],
               [out.dim(i).extent() for i in range(out.dimensions())])
        return box, [[(q.dim(i).min(), q.dim(i).extent()) for i in range(q.dimensions())]
                     for q in queries]


# Pipelines built on this process from builders, by builder and input signature; released at
# exit, before the interpreter tears down the extension's types.
_built = {}
_built_lock = threading.Lock()
atexit.register(_built.clear)


def _builder_key(builder):
    """What identifies a builder across unpickling: a builder from a script (`__main__`) is
    pickled by value, so each task gets a new function object with the same code."""
    try:
        cells = tuple(c.cell_contents for c in (builder.__closure__ or ()))
        key = (builder.__module__, builder.__qualname__, builder.__code__,
               builder.__defaults__, cells)
        hash(key)
        return key
    except (AttributeError, TypeError, ValueError):
        return builder


def _from_builder(builder, signature):
    key = (_builder_key(builder), signature)
    with _built_lock:
        if key not in _built:
            params = [loom.ImageParam(_loom_type(dtype), dims, name)
                      for name, dtype, dims in signature]
            result = builder(*params)
            pipeline = result if isinstance(result, loom.Pipeline) else loom.Pipeline(result)
            _built[key] = _Compiled(pipeline, params, [p.type() for p in params])
        return _built[key]


def _from_definition(definition, names):
    """The pipeline serialized in `definition` (bytes), with the ImageParams `names` as its
    inputs, deserialized and compiled once per process."""
    key = (definition, names)
    with _built_lock:
        if key not in _built:
            params = loom.deserialize_parameters(definition)
            pipeline = loom.deserialize_pipeline(definition, params)
            args = [loom.Argument(n, loom.ArgumentKind.InputBuffer, params[n].type(),
                                  params[n].dimensions()) for n in names]
            _built[key] = _Compiled(pipeline, args, [params[n].type() for n in names])
        return _built[key]


def _loom_type(dtype):
    dtype = np.dtype(dtype)
    for (code, bits), np_type in _NUMPY_TYPES.items():
        if np.dtype(np_type) == dtype:
            return loom.Type(code, bits, 1)
    raise TypeError(f"loom.dask: no Loom type for the NumPy type {dtype}")


def _gather_region(lo, hi, origins, pieces):
    """The array region [lo, hi) (NumPy order) from the given pieces of the array (each with its
    origin) that cover it: a view when one piece holds it all, else one copy."""
    def inside(origin, piece):
        return all(o <= l and h <= o + n for l, h, o, n in zip(lo, hi, origin, piece.shape))

    for origin, piece in zip(origins, pieces):
        if inside(origin, piece):
            return piece[tuple(slice(l - o, h - o) for l, h, o in zip(lo, hi, origin))]
    region = np.empty([h - l for l, h in zip(lo, hi)], dtype=pieces[0].dtype)
    for origin, piece in zip(origins, pieces):
        c_lo = [max(l, o) for l, o in zip(lo, origin)]
        c_hi = [min(h, o + n) for h, o, n in zip(hi, origin, piece.shape)]
        if any(a >= b for a, b in zip(c_lo, c_hi)):
            continue
        dst = tuple(slice(a - l, b - l) for a, b, l in zip(c_lo, c_hi, lo))
        src = tuple(slice(a - o, b - o) for a, b, o in zip(c_lo, c_hi, origin))
        region[dst] = piece[src]
    return region


def _cut(chunk, bounds):
    """The parts bounds[i] = [[lo, hi] per axis] of a stored chunk (chunk coordinates), as
    views."""
    return [chunk[tuple(slice(lo, hi) for lo, hi in b)] for b in bounds]


def _run_block(source, signature, out_mins, out_extents, parts, origins, *pieces):
    """Computes one output chunk (Loom order mins/extents) in parts. Each part is an output box
    (Loom order mins, extents) and, per input, the region it reads (NumPy order lo, hi); the
    pieces given for each input (whole stored chunks or strips of them, with their origins in
    the array) cover every part's region. A part whose region lies in one piece reads it in
    place; the others read a copy assembled from the pieces. Inputs and outputs are wrapped
    with their positions in the whole arrays, so coordinates are global."""
    compiled = (source if signature is None else _from_definition(source, signature)
                if isinstance(source, bytes) else _from_builder(source, signature))
    given, next_piece = [], 0
    for input_origins in origins:
        given.append(pieces[next_piece:next_piece + len(input_origins)])
        next_piece += len(input_origins)
    out_np = np.empty(tuple(reversed(out_extents)), dtype=compiled.dtype)
    for mins, extents, regions in parts:
        args = []
        for (lo, hi), input_origins, input_pieces in zip(regions, origins, given):
            region = _gather_region(lo, hi, input_origins, input_pieces)
            if region.ndim and region.strides[-1] != region.itemsize:
                region = np.ascontiguousarray(region)  # pipelines read a dense x dimension
            b = loom.Buffer(region)
            b.set_min(list(reversed(lo)))
            args.append(b)
        view = out_np[tuple(slice(m - o, m - o + e) for m, e, o in
                            zip(reversed(mins), reversed(extents), reversed(out_mins)))]
        out = loom.Buffer(view)
        out.set_min(list(mins))
        compiled.callable()(*args, out)
    return out_np


def _overlapping_chunks(a, lo, hi):
    """The keys and origins (NumPy order) of a's stored chunks that overlap [lo, hi)."""
    starts = [np.concatenate([[0], np.cumsum(c)]).astype(int) for c in a.chunks]
    ranges = []
    for d in range(a.ndim):
        first = max(int(np.searchsorted(starts[d], lo[d], side="right")) - 1, 0)
        last = max(int(np.searchsorted(starts[d], hi[d], side="left")) - 1, first)
        ranges.append(range(first, min(last, len(a.chunks[d]) - 1) + 1))
    keys, origins = [], []
    for index in np.ndindex(*[len(r) for r in ranges]):
        chunk = tuple(ranges[d][i] for d, i in enumerate(index))
        keys.append((a.name,) + chunk)
        origins.append([int(starts[d][c]) for d, c in enumerate(chunk)])
    return keys, origins


def _regions(compiled, mins, extents, arrays):
    """The box the pipeline writes to compute the output box [mins, mins + extents) (Loom
    order), as (mins, extents), and the region of each input that it reads, as NumPy-order
    [lo, hi] inside the array: outside it, the pipeline's boundary condition supplies the
    values (or its run-time bounds check reports the read)."""
    box, regions = compiled.required_regions(mins, extents, [a.shape[::-1] for a in arrays])
    clipped = []
    for a, region in zip(arrays, regions):
        np_region = region[::-1]
        lo = [max(0, m) for m, _ in np_region]
        hi = [max(min(n, m + e), l) for (m, e), n, l in zip(np_region, a.shape, lo)]
        clipped.append([lo, hi])
    return box, clipped


def _contains(outer, inner):
    (o_lo, o_hi), (i_lo, i_hi) = outer, inner
    return all(a <= b for a, b in zip(o_lo, i_lo)) and all(b <= a for a, b in zip(o_hi, i_hi))


def _home_chunk(a, lo, hi):
    """The stored chunk of `a` holding the largest part of [lo, hi), as its (lo, hi)."""
    best, best_volume = None, -1
    for key, origin in zip(*_overlapping_chunks(a, lo, hi)):
        end = [o + a.chunks[d][key[1 + d]] for d, o in enumerate(origin)]
        volume = np.prod([max(0, min(h, e) - max(l, o))
                          for l, h, o, e in zip(lo, hi, origin, end)])
        if volume > best_volume:
            best, best_volume = [origin, end], volume
    return best


def _parts(compiled, mins, extents, arrays):
    """The regions of the inputs that the output chunk [mins, mins + extents) (Loom order)
    reads, and the chunk split into parts [mins, extents, regions] to compute.
    Where the pipeline maps each input's chunks onto the output's by a translation (stencils),
    an interior whose regions lie inside one stored chunk of each input, read in place, and the
    slabs around it, which read small copies: the halo then costs a copy of the slabs' inputs
    only, not of the whole chunk. A slab is widened to the box the schedule writes (a tiled
    loop computes whole tiles), overlapping the interior: both write the same values there.
    Otherwise (resampling, inputs of another dimensionality, chunks smaller than a tile), one
    part."""
    _, full = _regions(compiled, mins, extents, arrays)
    whole = full, [[list(mins), list(extents), full]]
    chunk = [list(mins), [m + e for m, e in zip(mins, extents)]]

    def inside_chunk(box):
        return _contains(chunk, [box[0], [m + e for m, e in zip(*box)]])

    if any(a.ndim != len(mins) for a in arrays) or any(e == 0 for e in extents):
        return whole
    homes = [_home_chunk(a, lo, hi) for a, (lo, hi) in zip(arrays, full)]
    if any(h is None for h in homes):
        return whole
    n = len(mins)
    inner_lo, inner_hi = list(mins), [m + e for m, e in zip(mins, extents)]
    for (lo, hi), (h_lo, h_hi) in zip(full, homes):
        for d in range(n):  # Loom dimension d is NumPy axis n - 1 - d
            inner_lo[d] = max(inner_lo[d], mins[d] + max(0, h_lo[n - 1 - d] - lo[n - 1 - d]))
            inner_hi[d] = min(inner_hi[d],
                              mins[d] + extents[d] - max(0, hi[n - 1 - d] - h_hi[n - 1 - d]))
    if any(l >= h for l, h in zip(inner_lo, inner_hi)):
        return whole
    inner_box, inner = _regions(compiled, inner_lo, [h - l for l, h in zip(inner_lo, inner_hi)],
                                arrays)
    if not inside_chunk(inner_box) or not all(_contains(h, r) for h, r in zip(homes, inner)):
        return whole
    parts = [[inner_box[0], inner_box[1], inner]]
    box_lo, box_hi = list(mins), [m + e for m, e in zip(mins, extents)]
    for d in range(n):
        for side, s_lo, s_hi in ((0, box_lo[d], inner_lo[d]), (1, inner_hi[d], box_hi[d])):
            if s_lo >= s_hi:
                continue
            slab_lo, slab_extents = list(box_lo), [h - l for l, h in zip(box_lo, box_hi)]
            slab_lo[d], slab_extents[d] = s_lo, s_hi - s_lo
            slab_box, regions = _regions(compiled, slab_lo, slab_extents, arrays)
            if slab_box[1][d] > slab_extents[d]:
                # A whole tile, placed against the chunk's edge so it stays inside the chunk.
                slab_extents[d] = slab_box[1][d]
                slab_lo[d] = s_hi - slab_extents[d] if side else s_lo
                slab_box, regions = _regions(compiled, slab_lo, slab_extents, arrays)
            if not inside_chunk(slab_box) or not all(_contains(f, r)
                                                     for f, r in zip(full, regions)):
                return whole
            parts.append([slab_box[0], slab_box[1], regions])
        box_lo[d], box_hi[d] = inner_lo[d], inner_hi[d]
    return full, parts


def _distributed_client_active():
    try:
        from distributed import default_client
        default_client()
        return True
    except (ImportError, ValueError):
        return False


def apply(func, inputs, shape=None, chunks=None):
    """A lazy dask.array of `func`'s output computed chunk by chunk from `inputs`.

    func: the output Func or Pipeline, or a builder function (called with the ImageParams, in
        the order of `inputs`, returning the output Func or Pipeline).
    inputs: a dict from each ImageParam of the pipeline to a dask.array (or NumPy array) with
        as many axes as the ImageParam has dimensions, of its element type.
    shape: the output's shape in NumPy order; by default the first input's.
    chunks: the output's chunks (any form dask.array accepts); by default the first input's
        when the shapes agree, else Dask's automatic chunks.
    """
    import dask
    import dask.array as da
    from dask.highlevelgraph import HighLevelGraph

    if not inputs:
        raise ValueError("loom.dask.apply needs at least one input array")
    params = list(inputs)
    arrays = [da.asarray(inputs[p]) for p in params]
    for p, a in zip(params, arrays):
        if a.ndim != p.dimensions():
            raise ValueError(f"loom.dask.apply: input '{p.name()}' has {p.dimensions()} "
                             f"dimensions but its array has {a.ndim} axes")

    if callable(func) and not isinstance(func, (loom.Func, loom.Pipeline)):
        signature = tuple((p.name(), np.dtype(a.dtype).str, a.ndim)
                          for p, a in zip(params, arrays))
        compiled = _from_builder(func, signature)
        source = func
    else:
        pipeline = func if isinstance(func, loom.Pipeline) else loom.Pipeline(func)
        compiled = _Compiled(pipeline, params, [p.type() for p in params])
        if _distributed_client_active():
            # The worker processes get the pipeline's definition (serialize_pipeline's bytes),
            # not the object, and each compiles it once.
            source = loom.serialize_pipeline(pipeline)
            signature = tuple(p.name() for p in params)
        else:
            signature, source = None, compiled

    if shape is None:
        shape = arrays[0].shape
    shape = tuple(int(s) for s in shape)
    if len(shape) != compiled.dimensions:
        raise ValueError(f"loom.dask.apply: the output has {compiled.dimensions} dimensions, "
                         f"shape {shape} has {len(shape)}")
    if chunks is None and shape == arrays[0].shape:
        chunks = arrays[0].chunks
    out_chunks = da.core.normalize_chunks(chunks if chunks is not None else "auto", shape,
                                          dtype=compiled.dtype)

    # One task per output chunk, reading the stored input chunks it overlaps directly (no
    # slicing or concatenation tasks in between).
    name = "loom-" + dask.base.tokenize(uuid.uuid4().hex)
    offsets = [np.concatenate([[0], np.cumsum(c)[:-1]]).astype(int) for c in out_chunks]
    tasks, cuts = {}, {}
    for index in np.ndindex(*[len(c) for c in out_chunks]):
        np_mins = [int(offsets[d][i]) for d, i in enumerate(index)]
        np_extents = [int(out_chunks[d][i]) for d, i in enumerate(index)]
        mins, extents = np_mins[::-1], np_extents[::-1]  # Loom order: the last axis first
        full, parts = _parts(compiled, mins, extents, arrays)
        origins, keys = [], []
        for i, (a, (lo, hi)) in enumerate(zip(arrays, full)):
            chunk_keys, chunk_origins = _overlapping_chunks(a, lo, hi)
            piece_origins = []
            for key, origin in zip(chunk_keys, chunk_origins):
                chunk_shape = [a.chunks[d][key[1 + d]] for d in range(a.ndim)]
                p_lo = [max(l, o) for l, o in zip(lo, origin)]
                p_hi = [min(h, o + n) for h, o, n in zip(hi, origin, chunk_shape)]
                if p_lo == origin and [o + n for o, n in zip(origin, chunk_shape)] == p_hi:
                    keys.append(key)  # the whole stored chunk
                else:
                    # Only a strip (a halo) of this chunk: cut on the worker that holds it, so
                    # only the strips move between workers; one task cuts all the strips
                    # taken from a chunk.
                    strips = cuts.setdefault((i, key), [])
                    strips.append([[l - o, h - o] for l, h, o in zip(p_lo, p_hi, origin)])
                    keys.append((operator.getitem, (f"{name}-cut{i}",) + key[1:],
                                 len(strips) - 1))
                piece_origins.append(p_lo)
            origins.append(piece_origins)
        # Lists, not tuples: a tuple in a task could be taken for a task or a key.
        tasks[(name,) + index] = (_run_block, source, signature, mins, extents, parts,
                                  origins) + tuple(keys)
    tasks.update({(f"{name}-cut{i}",) + key[1:]: (_cut, key, strips)
                  for (i, key), strips in cuts.items()})
    graph = HighLevelGraph.from_collections(name, tasks, dependencies=arrays)
    return da.Array(graph, name, out_chunks, dtype=compiled.dtype)
