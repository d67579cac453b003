#!/usr/bin/env bash
# The profiler per app: what each app's report says, and what profiling costs. Builds
# bench/app_bench.cpp against both libraries, then per app runs each library without and with
# the profiler (HL_JIT_TARGET=host / host-profile: the apps compile for the JIT target of the
# environment), alternately, BENCH_ROUNDS rounds (default 3) of BENCH_RUNS timed runs (5), and
# writes a table of the medians (the overhead of Loom's profiler next to Halide 21's own) and
# Loom's report for each app to bench/results/<date>-<time>-<host>-profile.md (or the build
# folder's results/ for some apps or --small). Both libraries print their report after each run,
# inside the timed region, as a user of the JIT would see it. Not part of CI.
#
# Usage: bench/profile.sh [--small] [app...]      (default: every app)
source "$(dirname "$0")/halide_env.sh"
ROUNDS=${BENCH_ROUNDS:-3}
RUNS=${BENCH_RUNS:-5}
size_flag=()
if [ "${1:-}" = "--small" ]; then
  size_flag=(--small)
  shift
fi
build_app_bench_sides
select_apps "$@"

RAW=$OUT/profile_raw
rm -rf "$RAW"
mkdir -p "$RAW"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
for app in "${apps[@]}"; do
  for round in $(seq "$ROUNDS"); do
    echo "$app: round $round/$ROUNDS" >&2
    libs=(loom halide)
    [ $((round % 2)) = 0 ] && libs=(halide loom)
    for lib in "${libs[@]}"; do
      bin=$LOOM_BIN
      [ "$lib" = halide ] && bin=$HALIDE_BIN
      for mode in plain profile; do
        target=host
        [ "$mode" = profile ] && target=host-profile
        HL_JIT_TARGET=$target "$bin" "$app" --runs "$RUNS" "${size_flag[@]}" \
          > "$RAW/$app.$lib.$mode.r$round.txt" 2> "$RAW/$app.$lib.$mode.r$round.err" ||
          { echo "warning: $lib $app ($mode) failed in round $round:" >&2;
            tail -3 "$RAW/$app.$lib.$mode.r$round.err" >&2; }
      done
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

host=$(hostname -s 2>/dev/null || hostname)
partial=0
{ [ $# -gt 0 ] || [ ${#size_flag[@]} -gt 0 ]; } && partial=1
report=$(bench_report_path profile "$partial")
{
  echo "# The profiler: per-app reports and overhead, Loom against Halide 21 ($(date '+%Y-%m-%d %H:%M'), $host)"
  echo
  echo "Command: \`bench/profile.sh${size_flag[*]:+ ${size_flag[*]}}${*:+ $*}\` (BENCH_ROUNDS=$ROUNDS, BENCH_RUNS=$RUNS)."
  bench_header_lines "$load_before" "$load_after" "$commit"
  echo
  python3 - "$RAW" "$ROUNDS" "${apps[@]}" <<'EOF'
import os
import statistics
import sys

raw, rounds, apps = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def run_ms(app, lib, mode):
    """The median over rounds of each process's median run time (None if a process failed)."""
    times = []
    for r in range(1, rounds + 1):
        path = os.path.join(raw, f"{app}.{lib}.{mode}.r{r}.txt")
        if not os.path.exists(path):
            return None
        lines = [l for l in open(path) if l.startswith("run_ms ")]
        if not lines:
            return None
        times.append(float(lines[-1].split()[1]))
    return statistics.median(times)


def last_report(app):
    """Loom's report of the last run before run_ms is printed (the memory run)."""
    path = os.path.join(raw, f"{app}.loom.profile.r1.txt")
    if not os.path.exists(path):
        return None
    lines = open(path).read().splitlines()
    end = next((i for i, l in enumerate(lines) if l.startswith("run_ms ")), len(lines))
    starts = [i for i in range(1, end) if lines[i].startswith(" total time: ")]
    return "\n".join(lines[starts[-1] - 1:end]) if starts else None


def fmt(v):
    return "n/a" if v is None else f"{v:.3f}"


def overhead(plain, prof):
    return "n/a" if plain is None or prof is None else f"{100 * (prof / plain - 1):+.1f}%"


print("Median run time (ms) without and with the profile feature; overhead = profiled / plain - 1.")
print()
print("| app | Loom | Loom profiled | Loom overhead | Halide | Halide profiled | Halide overhead |")
print("|---|---:|---:|---:|---:|---:|---:|")
for app in apps:
    lp, lq = run_ms(app, "loom", "plain"), run_ms(app, "loom", "profile")
    hp, hq = run_ms(app, "halide", "plain"), run_ms(app, "halide", "profile")
    print(f"| {app} | {fmt(lp)} | {fmt(lq)} | {overhead(lp, lq)} | {fmt(hp)} | {fmt(hq)} | "
          f"{overhead(hp, hq)} |")
print()
print("## Loom's report per app (one run)")
for app in apps:
    print()
    print(f"### {app}")
    print()
    print("```")
    print(last_report(app) or "(no report)")
    print("```")
EOF
} > "$report"
cat "$report"
echo "(written to $report)"
bench_publish "$report"
