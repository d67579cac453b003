#!/usr/bin/env python3
"""The table of bench/apps.sh, from the runs it left in one folder.

Usage: apps_report.py RAW_DIR app...

RAW_DIR holds, per app, the output of every app_bench run (<app>.<lib>.t<threads>.r<round>.txt,
lib loom or halide, threads "all" or 1), the last output of each library (<app>.<lib>.raw), the
reference's output (<app>.reference.raw) and OpenCV's timing (<app>.opencv.txt), each optional.
Times are medians of the per-round medians (each round's median is over that process's timed
runs); JIT time and peak memory are medians over the rounds.
"""
import math
import os
import re
import statistics
import sys

import numpy as np

DTYPES = {"float32": np.float32, "float64": np.float64, "uint8": np.uint8, "uint16": np.uint16,
          "uint32": np.uint32, "int8": np.int8, "int16": np.int16, "int32": np.int32}


def parse(path):
    """The key/value lines of one app_bench run, or None."""
    if not os.path.exists(path):
        return None
    out = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition(" ")
            out[key] = value
    return out if "run_ms" in out else None


def runs_of(raw, app, lib, threads):
    runs, r = [], 1
    while True:
        path = os.path.join(raw, f"{app}.{lib}.t{threads}.r{r}.txt")
        if not os.path.exists(path):
            break
        parsed = parse(path)
        if parsed:
            runs.append(parsed)
        r += 1
    return runs


def median_of(runs, key):
    values = []
    for run in runs:
        try:
            values.append(float(run[key]))
        except (KeyError, ValueError):
            pass
    return statistics.median(values) if values else None


def fastest(runs):
    """The fastest timed run over all rounds: on a shared machine the least disturbed one."""
    values = []
    for run in runs:
        for v in run.get("runs_ms", "").split(","):
            try:
                values.append(float(v))
            except ValueError:
                pass
    return min(values) if values else None


def fmt(v, digits=2):
    if v is None:
        return "n/a"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.{digits}f}"


def load_raw(raw, name, meta):
    path = os.path.join(raw, name)
    if not meta or not os.path.exists(path) or meta.get("output_type") not in DTYPES:
        return None
    data = np.fromfile(path, dtype=DTYPES[meta["output_type"]])
    n = math.prod(int(e) for e in meta["output_shape"].split(","))
    return data if data.size == n else None


def compare(a, b):
    """'bit-exact', or the differing count and max |a - b| / max(1, |b|)."""
    if a is None or b is None:
        return None, "n/a"
    if a.shape != b.shape:
        return math.inf, "shapes differ"
    if np.array_equal(a, b, equal_nan=a.dtype.kind == "f"):
        return 0.0, "bit-exact"
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    rel = np.abs(a64 - b64) / np.maximum(1.0, np.abs(b64))
    rel = np.where(np.isnan(a64) & np.isnan(b64), 0.0, rel)
    rel = np.where(np.isnan(a64) != np.isnan(b64), np.inf, rel)
    worst = float(np.max(rel))
    differ = int(np.count_nonzero(a != b))
    kind = "integer outputs differ" if a.dtype.kind in "ui" else "max rel"
    return worst, f"{kind} {worst:.2g} ({100.0 * differ / a.size:.3g}% differ)"


def main():
    raw, apps = sys.argv[1], sys.argv[2:]
    rows, single_rows, notes = [], [], []
    ratios, single_ratios, opencv_ops, inputs = [], [], [], []
    for app in apps:
        loom, halide = runs_of(raw, app, "loom", "all"), runs_of(raw, app, "halide", "all")
        first = loom[0] if loom else (halide[0] if halide else None)
        # The table shows the input's size and type (its first words); the notes say the rest.
        description = first.get("input", "?") if first else "?"
        size = re.split(r",(?![^()]*\))", description)[0]
        if size != description:
            inputs.append(f"- {app}: {description}.")
        lm, hm = median_of(loom, "run_ms"), median_of(halide, "run_ms")
        ratio = lm / hm if lm and hm else None
        fl, fh = fastest(loom), fastest(halide)
        fast_ratio = fl / fh if fl and fh else None
        if ratio:
            ratios.append(ratio)
        # The reference ran once, in the first Loom run.
        ref_run = next((r for r in loom if "reference_ms" in r), None)
        naive = float(ref_run["reference_ms"]) if ref_run else None
        opencv = None
        ocv = parse(os.path.join(raw, f"{app}.opencv.txt"))
        if ocv and ocv.get("run_ms") not in (None, "n/a"):
            opencv = float(ocv["run_ms"])
            opencv_ops.append(f"- {app}: {ocv.get('op', '?')}.")
        meta = first
        out_l = load_raw(raw, f"{app}.loom.raw", meta)
        out_h = load_raw(raw, f"{app}.halide.raw", meta)
        out_r = load_raw(raw, f"{app}.reference.raw", meta)
        _, agree = compare(out_l, out_h)
        tol = float(ref_run["reference_tolerance"]) if ref_run else None
        ref_parts = []
        for lib, out in (("Loom", out_l), ("Halide", out_h)):
            err, text = compare(out, out_r)
            if err is None:
                continue
            verdict = "ok" if tol is not None and err <= tol else "OUT OF TOLERANCE"
            ref_parts.append(f"{lib} {text if err else 'exact'} ({verdict})")
        ref_text = "; ".join(ref_parts) if ref_parts else "n/a"
        if tol is not None:
            ref_text += f", tolerance {tol:g}"
        threads = first.get("threads", "?") if first else "?"
        rows.append([app, size, fmt(lm), fmt(hm), fmt(ratio), fmt(fast_ratio), fmt(naive, 1),
                     fmt(opencv),
                     f"{fmt(median_of(loom, 'peak_mb'))} / {fmt(median_of(halide, 'peak_mb'))}",
                     f"{fmt(median_of(loom, 'jit_ms'), 0)} / {fmt(median_of(halide, 'jit_ms'), 0)}",
                     agree, threads])
        notes.append(f"- {app}: against the naive reference: {ref_text}.")
        if not loom or not halide:
            for lib, runs in (("loom", loom), ("halide", halide)):
                if not runs:
                    err_path = os.path.join(raw, f"{app}.{lib}.tall.r1.err")
                    why = open(err_path).read().strip().splitlines()[-1:] if os.path.exists(
                        err_path) else ["no run"]
                    notes.append(f"- {app}: {lib} failed: {why[0] if why else '?'}")
        l1, h1 = runs_of(raw, app, "loom", 1), runs_of(raw, app, "halide", 1)
        if l1 or h1:
            lm1, hm1 = median_of(l1, "run_ms"), median_of(h1, "run_ms")
            r1 = lm1 / hm1 if lm1 and hm1 else None
            if r1:
                single_ratios.append(r1)
            f1 = fastest(l1) / fastest(h1) if fastest(l1) and fastest(h1) else None
            single_rows.append([app, size, fmt(lm1), fmt(hm1), fmt(r1), fmt(f1)])

    def geomean(v):
        return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None

    head = ["app", "size", "Loom ms", "Halide ms", "Loom/Halide", "fastest runs' ratio",
            "naive ms", "OpenCV ms",
            "peak MiB Loom / Halide", "JIT ms Loom / Halide", "Loom vs Halide output", "threads"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(" --- " for _ in head) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(f"\nGeometric mean of Loom/Halide over {len(ratios)} apps: {fmt(geomean(ratios))}.")
    if single_rows:
        print("\nSingle-threaded (LOOM_NUM_THREADS=1, HL_NUM_THREADS=1):\n")
        head1 = ["app", "size", "Loom ms", "Halide ms", "Loom/Halide", "fastest runs' ratio"]
        print("| " + " | ".join(head1) + " |")
        print("|" + "|".join(" --- " for _ in head1) + "|")
        for r in single_rows:
            print("| " + " | ".join(r) + " |")
        print(f"\nGeometric mean of Loom/Halide single-threaded over {len(single_ratios)} apps: "
              f"{fmt(geomean(single_ratios))}.")
    if inputs:
        print("\nInputs in full:\n")
        print("\n".join(inputs))
    print("\nOutputs against the naive reference (max |a - b| / max(1, |b|) against the app's "
          "stated tolerance):\n")
    print("\n".join(notes))
    if opencv_ops:
        print("\nOpenCV column (bench/opencv_bench.cpp; OpenCV's own algorithm for the same task "
              "on a random input of the app's size, median of the same number of runs, all "
              "threads; its output is not compared):\n")
        print("\n".join(opencv_ops))
    print("\nMethod: each app runs in its own process per library, round and thread setting "
          "(bench/app_bench.cpp): input built, a trivial pipeline JIT-compiled and run (each "
          "library's one-time setup: Halide 21 compiles its runtime there, ~0.5 s), the app's "
          "JIT compile (timed: the JIT column), one warm-up run, then "
          "the timed runs; a time above is the median over the rounds of each process's median; "
          "the fastest runs' ratio compares each library's fastest run over all rounds (the "
          "least disturbed on a shared machine). "
          "Peak memory: in one more run after the timed ones, the most the bytes held by live "
          "heap allocations rose above their value at the run's start (counted by the driver's "
          "malloc wrappers, through which both runtimes allocate; input and output are already "
          "there; stack allocations are not counted), median over the rounds. "
          "Loom vs Halide output: the outputs of the last runs compared "
          "element by element (bit-exact, or max |L - H| / max(1, |H|) and the share of values "
          "that differ).")


if __name__ == "__main__":
    main()
