#!/usr/bin/env bash
# Runs on the GPU machine (no compiler, no LLVM there): the runners bench/gpu.sh built, Loom's
# and Halide 21's, on the same GPU in one script run, each GPU result checked against the CPU.
# Writes $OUT/gpu_results.md (a table of median times and their ratio) and prints it.
#
# Usage (device tool, with carry ["build/gpu_bench"]): bash bench/gpu_device.sh [runs]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${1:-20}
OUT=${OUT:-/tmp}
DEST=build/gpu_bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1 || true
status=0
for side in loom halide; do
  "$DEST/$side/gpu_run" "$RUNS" > "$OUT/$side.txt" 2> "$OUT/$side.err" || status=1
done
if ! command -v python3 >/dev/null; then
  cat "$OUT/gpu.txt" "$OUT/loom.txt" "$OUT/halide.txt" "$OUT"/*.err
  exit $status
fi
python3 - "$OUT" <<'PY' || status=1
import sys, os
out = sys.argv[1]
def parse(side):
    rows = {}
    for line in open(os.path.join(out, side + ".txt")):
        f = line.split()
        if len(f) < 2: continue
        kv = dict(x.split("=", 1) for x in f[2:] if "=" in x)
        rows[f[0]] = (f[1], kv)
    return rows
loom, halide = parse("loom"), parse("halide")
gpu = open(os.path.join(out, "gpu.txt")).read().strip()
lines = ["GPU: " + gpu, "",
         "| pipeline | Loom check | Loom ms | Halide check | Halide ms | Loom / Halide |",
         "|---|---|---|---|---|---|"]
for name in loom:
    lo, lkv = loom[name]
    ho, hkv = halide.get(name, ("missing", {}))
    lm, hm = float(lkv.get("gpu_ms", "nan")), float(hkv.get("gpu_ms", "nan"))
    lines.append("| %s | %s | %.4f | %s | %.4f | %.2f |" % (name, lo, lm, ho, hm, lm / hm if hm > 0 else float("nan")))
open(os.path.join(out, "gpu_results.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
cat "$OUT"/*.err
exit $status
