#!/usr/bin/env python3
"""Summarise alternating Loom/Halide benchmark runs: medians per pipeline and ratios."""
import statistics
import sys
from collections import defaultdict


def main(path):
    runs = defaultdict(lambda: defaultdict(lambda: {"compile": [], "run": []}))
    with open(path) as f:
        for line in f:
            system, name, compile_ms, run_ms = line.split()
            runs[name][system]["compile"].append(float(compile_ms))
            runs[name][system]["run"].append(float(run_ms))
    hdr = f"{'pipeline':<16}{'Loom ms':>10}{'Halide ms':>11}{'ratio':>8}{'Loom JIT ms':>13}{'Halide JIT ms':>15}{'ratio':>8}"
    print(hdr)
    for name, by_system in runs.items():
        lo, ha = by_system["loom"], by_system["halide"]
        lr, hr = statistics.median(lo["run"]), statistics.median(ha["run"])
        lc, hc = statistics.median(lo["compile"]), statistics.median(ha["compile"])
        print(f"{name:<16}{lr:>10.2f}{hr:>11.2f}{lr / hr:>8.2f}{lc:>13.1f}{hc:>15.1f}{lc / hc:>8.2f}")
    print("(run: median over rounds of per-process medians of 7 runs; JIT: median first-compile time)")


if __name__ == "__main__":
    main(sys.argv[1])
