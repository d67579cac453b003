"""Rewrites the "Latest results" table of bench/README.md: for each kind of table the bench
scripts write into bench/results/, a link to the newest file of that kind.

Usage: latest.py [--check]

Results files are named <date>-<time>-<host>-<kind>.md (bench/halide_env.sh's
bench_report_path); bench/run.sh's core table has no kind (<date>-<time>-<host>.md). Files
of other kinds (partial runs, one-off studies) are listed apart, newest first. The block between
<!-- latest:begin --> and <!-- latest:end --> is replaced. With --check, nothing is written
and the exit status is 1 when the block is out of date. The bench scripts run this after each
full run that lands in bench/results/.
"""

import os
import re
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(BENCH, "results")
README = os.path.join(BENCH, "README.md")

# The kinds of table the scripts write, in the order the README lists them.
KINDS = [
    ("core", "bench/run.sh", "core operations, Loom vs Halide 21, process by process"),
    ("apps", "bench/apps.sh", "every app, Loom vs Halide 21 (and naive C++, OpenCV), process by process"),
    ("race", "bench/race.sh", "every app, Loom vs Halide 21 in one process, round by round"),
    ("autoschedulers", "bench/autoschedulers.sh", "every app under each autoscheduler, Loom's and Halide 21's"),
    ("compile-time", "bench/compile_time.sh", "compile time of long chains of inlined Funcs"),
    ("profile", "bench/profile.sh", "every app's profiler report, and the profiler's overhead beside Halide 21's"),
    ("nn-ops", "bench/nn_ops.py", "NN operator apps, forward + backward: Loom, Halide 21, PyTorch CPU"),
    ("c-backend", "bench/c_backend.sh", "the C back end's code vs the LLVM back end's, in one process"),
]
STAMP = r"\d{4}-\d{2}-\d{2}-\d{4,6}"


def kind_of(name):
    """The kind of a results file name among KINDS ("core": a host name alone), or None."""
    for k, _, _ in KINDS:
        if k != "core" and re.fullmatch(STAMP + r"-.+-" + re.escape(k) + r"\.md", name):
            return k
    if re.fullmatch(STAMP + r"-[A-Za-z0-9_.]+\.md", name):
        return "core"
    return None


def block():
    files = sorted(f for f in os.listdir(RESULTS) if f.endswith(".md"))
    newest, others = {}, []
    known = {k for k, _, _ in KINDS}
    for f in files:
        k = kind_of(f)
        if k in known:
            newest[k] = f  # sorted by timestamp: the last one wins
        else:
            others.append(f)
    lines = ["| kind | made by | what it measures | latest |", "| --- | --- | --- | --- |"]
    for k, script, what in KINDS:
        link = f"[{newest[k]}](results/{newest[k]})" if k in newest else "none yet"
        lines.append(f"| {k} | `{script}` | {what} | {link} |")
    lines.append("")
    lines.append("Other records (partial runs and one-off studies), newest first:")
    lines.append("")
    for f in reversed(others):
        lines.append(f"- [{f}](results/{f})")
    return "\n".join(lines)


def main():
    check = "--check" in sys.argv[1:]
    text = open(README).read()
    begin, end = "<!-- latest:begin -->\n", "<!-- latest:end -->"
    start = text.index(begin) + len(begin)
    stop = text.index(end)
    updated = text[:start] + block() + "\n" + text[stop:]
    if check:
        if updated != text:
            print("bench/README.md's latest results are out of date: run python3 bench/latest.py")
            return 1
        return 0
    if updated != text:
        with open(README, "w") as out:
            out.write(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
