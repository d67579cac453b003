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

The pipeline is given either as a builder (a function taking the ImageParams in the order of
`inputs` and returning the output Func or Pipeline) or as a Func/Pipeline itself. A builder is
pickled by reference, so any Dask scheduler works (threads, processes, a distributed cluster):
each worker process builds and JIT-compiles the pipeline once and reuses it. A Func or Pipeline
object cannot leave the process (Loom has no serialized form of a pipeline yet), so it works
with Dask's threaded and synchronous schedulers only.

Axes follow Loom's NumPy rule: the last axis of a Dask array is the pipeline's dimension 0.
Boundary conditions written on an ImageParam's own bounds (BoundaryConditions.repeat_edge(inp))
apply at the edges of the whole array, not of each chunk.
"""
import atexit
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
    """A pipeline on one machine: its inputs, its output's type and dimensions, and a Callable
    (thread-safe: each call gets its own buffers) compiled once."""

    def __init__(self, pipeline, params):
        self.pipeline = pipeline
        self.params = params
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
        """The region of each input (Loom dimension order: a list of (min, extent)) that
        computing the output over [mins, mins + extents) reads, given the whole arrays' shapes
        (Loom order). A bounds query whose input buffers already have the arrays' shapes: a
        boundary condition written on an input's bounds then clamps at the array's edges."""
        queries = [loom.Buffer.make_bounds_query(p.type(), list(shape))
                   for p, shape in zip(self.params, array_shapes)]
        out = loom.Buffer.make_bounds_query(self.output.type(), list(extents))
        out.set_min(list(mins))
        self.callable()(*queries, out)
        return [[(q.dim(i).min(), q.dim(i).extent()) for i in range(q.dimensions())]
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
            _built[key] = _Compiled(pipeline, params)
        return _built[key]


def _loom_type(dtype):
    dtype = np.dtype(dtype)
    for (code, bits), np_type in _NUMPY_TYPES.items():
        if np.dtype(np_type) == dtype:
            return loom.Type(code, bits, 1)
    raise TypeError(f"loom.dask: no Loom type for the NumPy type {dtype}")


def _gather_region(lo, hi, origins, chunks):
    """The array region [lo, hi) (NumPy order) from the stored chunks overlapping it (each with
    its origin in the array): a view when one chunk holds it all, else one copy."""
    if len(chunks) == 1:
        return chunks[0][tuple(slice(l - o, h - o) for l, h, o in zip(lo, hi, origins[0]))]
    region = np.empty([h - l for l, h in zip(lo, hi)], dtype=chunks[0].dtype)
    for origin, chunk in zip(origins, chunks):
        c_lo = [max(l, o) for l, o in zip(lo, origin)]
        c_hi = [min(h, o + n) for h, o, n in zip(hi, origin, chunk.shape)]
        dst = tuple(slice(a - l, b - l) for a, b, l in zip(c_lo, c_hi, lo))
        src = tuple(slice(a - o, b - o) for a, b, o in zip(c_lo, c_hi, origin))
        region[dst] = chunk[src]
    return region


def _cut(chunk, bounds):
    """The part [lo, hi) of a stored chunk (chunk coordinates), as a view."""
    return chunk[tuple(slice(lo, hi) for lo, hi in bounds)]


def _run_block(source, signature, out_mins, out_extents, regions, *chunks):
    """Computes one output chunk (Loom order mins/extents). regions holds, per input, the
    region it needs (NumPy-order lo, hi) and the origins of the pieces given for it, in order
    (whole stored chunks, or the strips of them it reads); each input is wrapped with its
    position in the whole array, so coordinates are global."""
    compiled = _from_builder(source, signature) if signature is not None else source
    args, next_chunk = [], 0
    for lo, hi, origins in regions:
        given = chunks[next_chunk:next_chunk + len(origins)]
        next_chunk += len(origins)
        region = _gather_region(lo, hi, origins, given)
        if region.ndim and region.strides[-1] != region.itemsize:
            region = np.ascontiguousarray(region)  # pipelines read a dense x dimension
        b = loom.Buffer(region)
        b.set_min(list(reversed(lo)))
        args.append(b)
    out_np = np.empty(tuple(reversed(out_extents)), dtype=compiled.dtype)
    out = loom.Buffer(out_np)
    out.set_min(list(out_mins))
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


def _distributed_client_active():
    try:
        from distributed import default_client
        default_client()
        return True
    except (ImportError, ValueError):
        return False


def apply(func, inputs, shape=None, chunks=None):
    """A lazy dask.array of `func`'s output computed chunk by chunk from `inputs`.

    func: a builder function (called with the ImageParams, in the order of `inputs`, returning
        the output Func or Pipeline), or a Func or Pipeline (threaded schedulers only).
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
        if _distributed_client_active():
            raise ValueError(
                "loom.dask.apply: a Func or Pipeline cannot be sent to a dask.distributed "
                "cluster's worker processes; pass a builder instead (a module-level function "
                "taking the ImageParams and returning the output Func)")
        pipeline = func if isinstance(func, loom.Pipeline) else loom.Pipeline(func)
        compiled = _Compiled(pipeline, params)
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
    tasks, pieces = {}, {}
    for index in np.ndindex(*[len(c) for c in out_chunks]):
        np_mins = [int(offsets[d][i]) for d, i in enumerate(index)]
        np_extents = [int(out_chunks[d][i]) for d, i in enumerate(index)]
        mins, extents = np_mins[::-1], np_extents[::-1]  # Loom order: the last axis first
        regions = compiled.required_regions(mins, extents, [a.shape[::-1] for a in arrays])
        specs, keys = [], []
        for a, region in zip(arrays, regions):
            # The region inside the array: outside it, the pipeline's boundary condition
            # supplies the values (or its run-time bounds check reports the read).
            np_region = region[::-1]
            lo = [max(0, m) for m, _ in np_region]
            hi = [max(min(n, m + e), l) for (m, e), n, l in zip(np_region, a.shape, lo)]
            chunk_keys, origins = _overlapping_chunks(a, lo, hi)
            piece_origins = []
            for key, origin in zip(chunk_keys, origins):
                chunk_shape = [a.chunks[d][key[1 + d]] for d in range(a.ndim)]
                p_lo = [max(l, o) for l, o in zip(lo, origin)]
                p_hi = [min(h, o + n) for h, o, n in zip(hi, origin, chunk_shape)]
                if p_lo == origin and [o + n for o, n in zip(origin, chunk_shape)] == p_hi:
                    keys.append(key)  # the whole stored chunk
                else:
                    # Only a strip (a halo) of this chunk: cut on the worker that holds it, so
                    # only the strip moves between workers.
                    piece = (name + "-piece", len(pieces))
                    pieces[piece] = (_cut, key, [[l - o, h - o]
                                                 for l, h, o in zip(p_lo, p_hi, origin)])
                    keys.append(piece)
                piece_origins.append(p_lo)
            # Lists, not tuples: a tuple in a task could be taken for a task or a key.
            specs.append([lo, hi, piece_origins])
        tasks[(name,) + index] = (_run_block, source, signature, mins, extents, specs) + tuple(keys)
    tasks.update(pieces)
    graph = HighLevelGraph.from_collections(name, tasks, dependencies=arrays)
    return da.Array(graph, name, out_chunks, dtype=compiled.dtype)
