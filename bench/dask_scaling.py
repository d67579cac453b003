"""loom.dask on this machine: a 3x3 blur of an N x N float32 image (BENCH_DASK_N, default 16384)
computed whole by one process (realize into NumPy memory it reuses, and realize returning a new
array, which pays for the new memory's page faults as each Dask chunk does) and chunk by chunk by a
dask.distributed LocalCluster of 1 and 2 worker processes (the input persisted on the workers
first; the output persisted there, not gathered). Prints medians over BENCH_ROUNDS rounds and
the ratios to one process; the target is 2 workers within 1.3x of one process."""
import os
import statistics
import time

import numpy as np

import loom as hl
import loom.dask

N = int(os.environ.get("BENCH_DASK_N", "16384"))
CHUNK = int(os.environ.get("BENCH_DASK_CHUNK", "4096"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))


def blur(inp):
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    clamped = hl.BoundaryConditions.repeat_edge(inp)
    bx, by = hl.Func("bx"), hl.Func("by")
    bx[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) / 3
    by[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 3
    by.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y)
    bx.compute_at(by, x).vectorize(x, 8)
    return by


def one_process(image):
    """Medians of realizing into one reused array and of realizing a new array each time."""
    inp = hl.ImageParam(hl.Float(32), 2, "inp")
    f = blur(inp)
    inp.set(hl.Buffer(image))
    out = np.empty_like(image)
    f.realize(hl.Buffer(out))  # compiles
    reused, new = [], []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        f.realize(hl.Buffer(out))
        reused.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        f.realize([N, N])
        new.append(time.perf_counter() - t0)
    return statistics.median(reused), statistics.median(new)


def cluster(workers):
    import dask.array as da
    import distributed

    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c, distributed.Client(c) as client:
        image = client.persist(da.random.random((N, N), chunks=CHUNK).astype(np.float32))
        distributed.wait(image)
        inp = hl.ImageParam(hl.Float(32), 2, "inp")
        times = []
        for r in range(ROUNDS + 1):  # the first round compiles on the workers
            t0 = time.perf_counter()
            out = client.persist(loom.dask.apply(blur, {inp: image}))
            distributed.wait(out)
            if r:
                times.append(time.perf_counter() - t0)
            del out
        return statistics.median(times)


def main():
    os.environ.setdefault("LOOM_CACHE_DIR", "off")
    image = np.random.default_rng(0).random((N, N), dtype=np.float32)
    whole, whole_new = one_process(image)
    del image
    rows = [("one process, realize into a reused array", whole),
            ("one process, realize a new array", whole_new)]
    for w in (1, 2):
        rows.append((f"LocalCluster, {w} worker{'s' if w > 1 else ''}", cluster(w)))
    print(f"3x3 blur of {N} x {N} float32, chunks {CHUNK}, median of {ROUNDS} rounds\n")
    print("| run | seconds | / one process |")
    print("| --- | ---: | ---: |")
    for label, t in rows:
        print(f"| {label} | {t:.3f} | {t / whole:.2f} |")


if __name__ == "__main__":
    main()
