#!/usr/bin/env bash
# Builds bench/simd_kernels.cpp against Loom (the build folder LOOM_BUILD, default build) and
# against Halide 21 (the PyPI wheel, as bench/run.sh does), runs the two binaries alternately
# BENCH_ROUNDS times (default 5) and prints, per kernel, the median over the rounds of each
# binary's median run time and the Loom/Halide ratio. `make bench` runs it after run.sh.
source "$(dirname "$0")/halide_env.sh"
$CXX $FLAGS -I include/compat -I include bench/simd_kernels.cpp -o "$OUT/simd_kernels_loom" \
  -L "$LOOM_BUILD/src" -lloom -Wl,-rpath,"$PWD/$LOOM_BUILD/src" -lpthread
$CXX $FLAGS -I "$HALIDE_DIR/include" bench/simd_kernels.cpp -o "$OUT/simd_kernels_halide" \
  -L "$HALIDE_DIR/lib64" -lHalide -Wl,-rpath,"$HALIDE_DIR/lib64" -lpthread -ldl

: > "$OUT/simd.txt"
for round in $(seq "$ROUNDS"); do
  echo "round $round/$ROUNDS" >&2
  "$OUT/simd_kernels_loom" | sed 's/^/loom /' >> "$OUT/simd.txt"
  "$OUT/simd_kernels_halide" | sed 's/^/halide /' >> "$OUT/simd.txt"
done

python3 - "$OUT/simd.txt" <<'PY'
import statistics, sys
runs, compiles = {}, {}
for line in open(sys.argv[1]):
    lib, name, compile_ms, run_ms = line.split()[:4]
    runs.setdefault((lib, name), []).append(float(run_ms))
    compiles.setdefault((lib, name), []).append(float(compile_ms))
names = list(dict.fromkeys(n for _, n in runs))
print("| kernel | Loom ms | Halide ms | Loom/Halide | Loom JIT ms | Halide JIT ms |")
print("|---|---|---|---|---|---|")
for n in names:
    l, h = statistics.median(runs[("loom", n)]), statistics.median(runs[("halide", n)])
    lc, hc = statistics.median(compiles[("loom", n)]), statistics.median(compiles[("halide", n)])
    print(f"| {n} | {l:.4f} | {h:.4f} | {l / h:.2f} | {lc:.1f} | {hc:.1f} |")
PY
