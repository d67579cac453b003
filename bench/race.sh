#!/usr/bin/env bash
# The same-process race of Loom and Halide 21 (bench/race.cpp) for every app, or the apps named:
# both JIT-compile the app in one process and run it alternately, round by round, with all
# threads and with one. A round's Loom/Halide ratio is immune to the machine's drift between
# processes, which moves bench/apps.sh's ratios by 10-30% on a noisy VM; the table gives the
# median and quartiles of the rounds' ratios. Writes bench/results/<date>-<host>-race.md (every
# app) or <LOOM_BUILD>/bench/results/ (some apps). Not part of CI.
#
# Usage: bench/race.sh [app...]
# Environment: BENCH_RUNS (rounds per app, 15), BENCH_WARMUP (1), BENCH_SINGLE=0 skips the
# single-threaded race, BENCH_JOBS (ninja -j, 2), LOOM_BUILD (build), BENCH_AUTO (an
# autoscheduler name, e.g. Mullapudi2016: both libraries schedule every app with theirs instead
# of the hand-written schedule; the table is then <date>-<host>-race-auto-<name>.md).
source "$(dirname "$0")/halide_env.sh"
RUNS=${BENCH_RUNS:-15}
WARMUP=${BENCH_WARMUP:-1}
SINGLE=${BENCH_SINGLE:-1}

build_race_sides

select_apps "$@"

settings=(all)
[ "$SINGLE" = 1 ] && settings+=(1)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(bench_commit)
rows=()
for threads in "${settings[@]}"; do
  for app in "${apps[@]}"; do
    echo "$app: threads $threads" >&2
    envs=()
    [ "$threads" = all ] || envs=(LOOM_NUM_THREADS="$threads" HL_NUM_THREADS="$threads")
    auto=()
    # Halide's autoscheduler plugins sit beside libHalide, where its load_plugin's dlopen looks
    # only through the library path.
    [ -n "${BENCH_AUTO:-}" ] && auto=(--auto "$BENCH_AUTO") &&
      envs+=(LD_LIBRARY_PATH="$HALIDE_DIR/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    if out=$(env "${envs[@]}" "$RACE" "$LOOM_SIDE" "$HALIDE_SIDE" "$app" --runs "$RUNS" --warmup "$WARMUP" "${auto[@]}" 2>&1); then
      field() { echo "$out" | awk -v k="$1" '$1 == k {print $2}'; }
      rows+=("| $app | $threads | $(field loom_ms) | $(field halide_ms) | $(field ratio) | $(field ratio_low) - $(field ratio_high) |")
    else
      echo "warning: the race of $app failed (threads $threads):" >&2
      echo "$out" | tail -3 >&2
      rows+=("| $app | $threads | failed | | | |")
    fi
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

host=$(hostname -s 2>/dev/null || hostname)
partial=0
[ $# -gt 0 ] && partial=1
kind=race
[ -n "${BENCH_AUTO:-}" ] && kind="race-auto-$BENCH_AUTO"
report=$(bench_report_path "$kind" "$partial")
{
  echo "# Same-process race: Loom against Halide 21 ($(date '+%Y-%m-%d %H:%M'), $host)"
  echo
  echo "Command: \`bench/race.sh${*:+ $*}\` (BENCH_RUNS=$RUNS rounds, BENCH_WARMUP=$WARMUP; Loom from" \
    "$LOOM_BUILD/, $(grep -m1 CMAKE_BUILD_TYPE: "$LOOM_BUILD/CMakeCache.txt" | cut -d= -f2) build)."
  bench_header_lines "$load_before" "$load_after" "$commit"
  echo
  [ -n "${BENCH_AUTO:-}" ] && echo "Schedules: each library's $BENCH_AUTO autoscheduler" \
    "(default parameters, estimates of the app's sizes), not the hand-written ones." && echo
  echo "Each round runs Loom's and Halide's JIT-compiled app once, back to back in one process"
  echo "(the first alternates); ms are the medians of the rounds, the ratio the median of the"
  echo "rounds' Loom/Halide ratios, and its spread their quartiles."
  echo
  echo "| app | threads | Loom ms | Halide ms | Loom/Halide | quartiles |"
  echo "| --- | --- | ---: | ---: | ---: | --- |"
  printf '%s\n' "${rows[@]}"
  echo
  for threads in "${settings[@]}"; do
    printf '%s\n' "${rows[@]}" | awk -F'|' -v t="$threads" '{f = $3; gsub(/ /, "", f)}
      f == t && $6 + 0 > 0 {s += log($6); n++}
      END {if (n) printf "Geometric mean of the ratios, threads %s: %.2f over %d apps.\n\n", t, exp(s / n), n}'
  done
} > "$report"
cat "$report"
echo "(written to $report)"
# A race of every app in bench/results/ also rewrites README.md's race table (between
# `<!-- race-table:begin -->` and `<!-- race-table:end -->`): one row per app, both settings.
case $report in
  bench/results/*) [ $# -eq 0 ] && [ "$kind" = race ] && python3 - "$report" << 'PY'
import re, sys
report = sys.argv[1]
text = open(report).read()
ratios = {}
for app, threads, ratio, spread in re.findall(
        r"^\| (\S+) \| (\S+) \| [^|]* \| [^|]* \| ([0-9.]+) \| ([0-9.]+ - [0-9.]+) \|$", text, re.M):
    low, high = (float(v) for v in spread.split(" - "))
    ratios.setdefault(app, {})[threads] = f"{float(ratio):.2f} ({low:.2f}-{high:.2f})"
means = dict(re.findall(r"^Geometric mean of the ratios, threads (\S+): ([0-9.]+)", text, re.M))
head = text.splitlines()[0]
when = head[head.index("(") + 1:head.rindex(")")]
commit = re.search(r"^Loom commit (.*)\.$", text, re.M).group(1)
load = re.search(r"before: (\S+)", text).group(1)
lines = ["<!-- race-table:begin -->",
         "<!-- Written by bench/race.sh from the results file named below. -->",
         f"From [{report}]({report}) ({when}, Loom commit {commit}, load average {load} before).",
         f"Geometric mean of the rounds' median ratios: **{means.get('all', '?')}** with all threads"
         f" and **{means.get('1', '?')}** single-threaded.", "",
         "| app | Loom/Halide, all threads (quartiles) | 1 thread (quartiles) |",
         "| --- | ---: | ---: |"]
for app, r in ratios.items():
    lines.append(f"| {app} | {r.get('all', 'n/a')} | {r.get('1', 'n/a')} |")
lines.append("<!-- race-table:end -->")
readme = open("README.md").read()
begin, end = readme.find("<!-- race-table:begin -->"), readme.find("<!-- race-table:end -->")
if begin >= 0 and end > begin:
    readme = readme[:begin] + "\n".join(lines) + readme[end + len("<!-- race-table:end -->"):]
    open("README.md", "w").write(readme)
PY
  ;;
esac
bench_publish "$report"
