"""The Python bindings' call overhead: the same tiny pipeline run from C++ (call_overhead, built
in LOOM_BUILD/bench) and from Python, as a Callable call, realize into a given Buffer and realize
allocating its output. Prints a table of medians over BENCH_ROUNDS rounds; the target is at most
5 us more per call from Python."""
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import loom as hl

BUILD = os.environ.get("LOOM_BUILD", "build")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CALLS = 20000


def ns_per_call(fn):
    batches = []
    for _ in range(7):
        t0 = time.perf_counter_ns()
        for _ in range(CALLS):
            fn()
        batches.append((time.perf_counter_ns() - t0) / CALLS)
    return statistics.median(batches)


def python_side():
    inp = hl.ImageParam(hl.Float(32), 1, "in")
    scale = hl.Param(hl.Float(32), "scale")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = inp[x] * scale + 1.0
    data = hl.Buffer(np.ones(64, dtype=np.float32))
    out = hl.Buffer(hl.Float(32), [64])
    c = f.compile_to_callable([inp, scale])
    inp.set(data)
    scale.set(2.0)
    f.compile_jit()
    result = {
        "callable_ns": ns_per_call(lambda: c(data, 2.0, out)),
        "realize_into_ns": ns_per_call(lambda: f.realize(out)),
        "realize_ns": ns_per_call(lambda: f.realize([64])),
    }
    assert out[5] == 3.0
    return result


def cpp_side():
    exe = os.path.join(BUILD, "bench", "call_overhead")
    text = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in (line.split() for line in text.splitlines())}


def main():
    os.environ.setdefault("LOOM_CACHE_DIR", "off")
    cpp, py = [], []
    for _ in range(ROUNDS):  # alternating, so drift affects both sides alike
        cpp.append(cpp_side())
        py.append(python_side())
    print(f"Call overhead of a 64-element pipeline, median of {ROUNDS} rounds (ns per call)\n")
    print("| call | C++ | Python | Python - C++ (us) |")
    print("| --- | ---: | ---: | ---: |")
    for key, label in [("callable_ns", "Callable call"), ("realize_into_ns", "realize(buffer)"),
                       ("realize_ns", "realize([64])")]:
        c = statistics.median(r[key] for r in cpp)
        p = statistics.median(r[key] for r in py)
        print(f"| {label} | {c:.0f} | {p:.0f} | {(p - c) / 1000:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
