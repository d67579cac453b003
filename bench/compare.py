#!/usr/bin/env python3
"""Summarise alternating Loom/Halide benchmark runs as a markdown report.

Input lines (bench/run.sh prefixes each bench_core line with the system that printed it):
    <loom|halide> <name> <compile ms|n/a> <run ms|n/a> <bytes> [note]
Every number reported is a median over rounds of the per-process medians. The memcpy and clean
C++ lines measure no library, so both binaries' lines are pooled for them.
"""
import statistics
import sys
from collections import defaultdict

BLUR_ROWS = [
    ("blur_paper", "paper Fig. 1 (tile 256x32, vectorize 8, parallel, compute_at tile)"),
    ("blur_all_root", "all root (blur_x compute_root)"),
    ("blur_all_inline", "all inline (default)"),
    ("blur_sliding_window", "sliding window over rows (store_root, compute_at y)"),
    ("blur_vectorized_only", "vectorized only (Fig. 1 without parallel)"),
    ("blur_parallel_only", "parallel only (Fig. 1 without vectorize)"),
]


def parse(path):
    runs = defaultdict(lambda: defaultdict(lambda: {"compile": [], "run": [], "note": set()}))
    nbytes = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 5:
                continue
            system, name, compile_ms, run_ms, size = fields[:5]
            entry = runs[name][system]
            nbytes[name] = float(size)
            if run_ms == "n/a":
                entry["note"].add(fields[5] if len(fields) > 5 else "n/a")
                continue
            entry["compile"].append(float(compile_ms))
            entry["run"].append(float(run_ms))
    return runs, nbytes


def med(values):
    return statistics.median(values) if values else None


def fmt(value, spec):
    return format(value, spec) if value is not None else "n/a"


def gbs(nbytes, ms):
    return nbytes / (ms * 1e6) if ms else None


def main(path):
    runs, nbytes = parse(path)
    rounds = max((len(e["run"]) for r in runs.values() for e in r.values()), default=0)

    def pooled(name):
        return med(runs[name]["loom"]["run"] + runs[name]["halide"]["run"])

    copy1, copyn = pooled("memcpy_1thread"), pooled("memcpy_threads")
    cpp = pooled("blur_cpp_fig1a")
    hand = pooled("blur_cpp_fig1b")
    copy_bw = gbs(nbytes.get("memcpy_threads", 0), copyn)
    def bw_cell(name, ms):
        bw = gbs(nbytes.get(name, 0), ms)
        if bw is None:
            return "n/a"
        pct = f" ({100 * bw / copy_bw:.0f}%)" if copy_bw else ""
        return f"{bw:.2f}{pct}"

    out = []
    out.append("Copy bandwidth (memcpy of the blur's 61.4 MB input; bytes read + written / time): "
               f"1 thread {fmt(gbs(nbytes.get('memcpy_1thread', 0), copy1), '.2f')} GB/s, "
               f"all threads {fmt(copy_bw, '.2f')} GB/s.")
    out.append("")
    out.append("Blur 6400x4800 uint16 (the 2012 paper's Figure 1). Times in ms (median); GB/s = "
               "(input bytes read + output bytes written) / time; % = of the all-threads copy "
               "bandwidth.")
    out.append("")
    out.append(f"Hand-optimized C++ (the approach of the paper's Figure 1b: SSE2, 256x32 tiles, "
               f"threads; bench/blur_hand_optimized.h): {fmt(hand, '.2f')} ms, "
               f"{bw_cell('blur_cpp_fig1b', hand)} GB/s (% copy).")
    out.append("")
    out.append("| schedule | Loom ms | Halide ms | Loom/Halide | clean C++ (Fig. 1a) ms "
               "| Loom GB/s (% copy) | Halide GB/s (% copy) | Loom JIT ms | Halide JIT ms |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def run_cell(entry):
        value = med(entry["run"])
        if value is None and entry["note"]:
            return "n/a (" + ", ".join(sorted(entry["note"])) + ")"
        return fmt(value, ".2f")

    for name, label in BLUR_ROWS:
        if name not in runs:
            continue
        lo, ha = runs[name]["loom"], runs[name]["halide"]
        lr, hr = med(lo["run"]), med(ha["run"])
        ratio = fmt(lr / hr if lr and hr else None, ".2f")
        out.append(f"| {label} | {run_cell(lo)} | {run_cell(ha)} | {ratio} | {fmt(cpp, '.2f')} "
                   f"| {bw_cell(name, lr)} | {bw_cell(name, hr)} "
                   f"| {fmt(med(lo['compile']), '.0f')} | {fmt(med(ha['compile']), '.0f')} |")
    out.append("")
    others = [n for n in runs if not n.startswith(("blur_", "memcpy_"))]
    if others:
        out.append("| other pipeline | Loom ms | Halide ms | Loom/Halide | Loom JIT ms | Halide JIT ms |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name in others:
            lo, ha = runs[name]["loom"], runs[name]["halide"]
            lr, hr = med(lo["run"]), med(ha["run"])
            ratio = fmt(lr / hr if lr and hr else None, ".2f")
            out.append(f"| {name} | {run_cell(lo)} | {run_cell(ha)} | {ratio} "
                       f"| {fmt(med(lo['compile']), '.0f')} | {fmt(med(ha['compile']), '.0f')} |")
        out.append("")
    out.append(f"Rounds: {rounds} (each round runs the Loom binary then the Halide binary; each "
               "process reports the median of 7 runs after a warm-up; the table shows the median "
               "over rounds). JIT: median first-compile time.")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
