#!/usr/bin/env bash
# The autoschedulers raced on every app (or the apps named), in one process per app
# (bench/race.cpp --configs): Loom's hand-written schedule, Loom's Mullapudi2016, PolyMage and
# Loom (model-only and tuned), and Halide 21's Mullapudi2016, Adams2019 and Li2018, all on the
# same algorithm and inputs, run round by round. Writes
# bench/results/<date>-<host>-autoschedulers.md (every app; then also the app READMEs' tables)
# or <LOOM_BUILD>/bench/results/.
# Not part of CI.
#
# Usage: bench/autoschedulers.sh [app...]
# Environment: BENCH_RUNS (rounds per app, 9), BENCH_TUNE_S (Loom's tuning budget in seconds,
# 60), BENCH_JOBS (ninja -j, 2), LOOM_BUILD (build).
source "$(dirname "$0")/halide_env.sh"
RUNS=${BENCH_RUNS:-9}
TUNE=${BENCH_TUNE_S:-60}
build_race_sides

select_apps "$@"
configs=(loom:hand loom:Mullapudi2016 loom:PolyMage loom:Loom "loom:Loom;autotune_s=$TUNE"
  halide:Mullapudi2016 halide:Adams2019 halide:Li2018)
spec=$(IFS=,; echo "${configs[*]}")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
raw=$(mktemp)
for app in "${apps[@]}"; do
  echo "$app" >&2
  # Halide's autoscheduler plugins sit beside libHalide, where its load_plugin's dlopen looks.
  LD_LIBRARY_PATH="$HALIDE_DIR/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$RACE" "$LOOM_SIDE" "$HALIDE_SIDE" "$app" --runs "$RUNS" --configs "$spec" >> "$raw" ||
    { grep -qx "app $app" "$raw" || echo "app $app" >> "$raw"; } # crashed: a row of "failed"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
partial=0
[ $# -gt 0 ] && partial=1
report=$(bench_report_path autoschedulers "$partial")
host=$(hostname -s 2>/dev/null || hostname)
{
  echo "# Autoschedulers: Loom's against Halide 21's ($(date '+%Y-%m-%d %H:%M'), $host)"
  echo
  echo "Command: \`bench/autoschedulers.sh${*:+ $*}\` (BENCH_RUNS=$RUNS rounds, Loom's tuned mode" \
    "with autotune_s=$TUNE; Loom from $LOOM_BUILD/, all threads)."
  bench_header_lines "$load_before" "$load_after" "$commit"
  echo
  echo "Each app's schedules run round by round in one process; ms are medians of the rounds, and"
  echo "the scheduling time (the autoscheduler alone, its JIT compile apart) is in parentheses."
  echo "Every autoscheduler gets the app's estimates and default parameters. \"best Halide\" is"
  echo "the fastest of Halide's three autoschedulers on that app."
  echo
  python3 - "$raw" "${configs[@]}" << 'PY'
import math, sys
raw, configs = sys.argv[1], sys.argv[2:]
apps, cur = [], None
for line in open(raw):
    f = line.split()
    if not f: continue
    if f[0] == "app":
        cur = {"name": f[1]}; apps.append(cur)
    elif f[0] == "config" and cur is not None:
        cur[f[1]] = None if f[2] == "failed" else (float(f[3]), float(f[5]))
names = {"loom:hand": "Loom hand", "loom:Mullapudi2016": "Loom Mullapudi2016",
         "loom:PolyMage": "Loom PolyMage", "loom:Loom": "Loom", "halide:Mullapudi2016":
         "Halide Mullapudi2016", "halide:Adams2019": "Halide Adams2019", "halide:Li2018":
         "Halide Li2018"}
tuned = [c for c in configs if "autotune_s" in c][0]
names[tuned] = "Loom tuned"
print("| app | " + " | ".join(names[c] for c in configs) +
      " | Loom / best Halide | tuned / best Halide | tuned / hand |")
print("| --- |" + " ---: |" * (len(configs) + 3))
logs = {"m": [], "t": [], "h": []}
def cell(v):
    if v is None: return "failed"
    ms, sched = v
    return f"{ms:.2f} ({sched / 1000:.2f} s)" if sched > 0 else f"{ms:.2f}"
for a in apps:
    row = [a.get(c) for c in configs]
    halide = [a[c][0] for c in configs if c.startswith("halide:") and a.get(c)]
    best = min(halide) if halide else None
    def ratio(c, ref, key):
        if not a.get(c) or not ref: return "n/a"
        r = a[c][0] / ref; logs[key].append(math.log(r)); return f"{r:.2f}"
    hand = a["loom:hand"][0] if a.get("loom:hand") else None
    print(f"| {a['name']} | " + " | ".join(cell(v) for v in row) + " | " +
          " | ".join([ratio("loom:Loom", best, "m"), ratio(tuned, best, "t"),
                      ratio(tuned, hand, "h")]) + " |")
print()
for key, label in (("m", "Loom (model-only) / best Halide"), ("t", "Loom tuned / best Halide"),
                   ("h", "Loom tuned / Loom hand-written")):
    if logs[key]:
        print(f"Geometric mean, {label}: {math.exp(sum(logs[key]) / len(logs[key])):.2f} over "
              f"{len(logs[key])} apps.")
PY
} > "$report"
rm -f "$raw"
cat "$report"
echo "(written to $report)"
# A run of every app that lands in bench/results/ also rewrites the app READMEs' autoscheduler
# tables (bench/autoscheduler_readmes.py).
if [ $partial = 0 ]; then
  case $report in
    bench/results/*) python3 bench/autoscheduler_readmes.py "$report" ;;
  esac
fi
bench_publish "$report"
