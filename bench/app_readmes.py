#!/usr/bin/env python3
"""Writes each app README's measured numbers from one results file of bench/apps.sh.

Usage: app_readmes.py [--check] RESULTS.md

RESULTS.md is a table written by bench/apps.sh (bench/apps_report.py makes its tables). For
every app in it, apps/<app>/README.md gets a generated block between the markers
`<!-- measured:begin -->` and `<!-- measured:end -->` (inserted right under the README's
"## Measured numbers" heading when the markers are missing): the results file, date, commit,
rounds, runs and load; the all-threads and single-threaded times; the naive reference, OpenCV,
peak memory, JIT time and the output agreement. nl_means_small's rows go into
apps/nl_means/README.md with nl_means'. Apps absent from the file are left untouched. The top
README.md's summary table (between `<!-- apps-table:begin -->` and `<!-- apps-table:end -->`,
where it has them) is rewritten from a file that has every app's row. Writing the same file
twice changes nothing.

--check writes nothing: it names the READMEs whose block differs from what the file gives and
exits 1 if there is any. Standard library only.
"""
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- measured:begin -->"
END = "<!-- measured:end -->"
HEADING = re.compile(r"^## Measured numbers[ \t]*$", re.MULTILINE)
# Apps whose numbers live in another app's README.
README_OF = {"nl_means_small": "nl_means"}
WIDTH = 100
# A line starting like this would begin a markdown list item.
LIST_ITEM = re.compile(r"^([-+*]|\d+[.)])(\s|$)")


def table_rows(lines, start):
    """The rows (dicts keyed by the header's cells) of the markdown table at or after start."""
    i = start
    while i < len(lines) and not lines[i].startswith("|"):
        i += 1
    if i + 1 >= len(lines):
        return [], i
    head = [c.strip() for c in lines[i].strip().strip("|").split("|")]
    rows = []
    i += 2  # the header and its separator
    while i < len(lines) and lines[i].startswith("|"):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        rows.append(dict(zip(head, cells)))
        i += 1
    return rows, i


def bullets_after(lines, prefix):
    """The '- app: text.' lines of the list after the line starting with prefix, by app."""
    out = {}
    for i, line in enumerate(lines):
        if line.startswith(prefix):
            for item in lines[i + 1:]:
                if item.startswith("- "):
                    app, _, text = item[2:].partition(": ")
                    out.setdefault(app, []).append(text.rstrip("."))
                elif item.strip():
                    break
            break
    return out


def parse(path):
    """The header facts and per-app rows of a results file."""
    with open(path) as f:
        text = f.read()
    lines = text.splitlines()
    info = {}
    m = re.search(r"^# Applications: .*\((\d{4}-\d\d-\d\d \d\d:\d\d), ([^)]*)\)$", text, re.M)
    if not m:
        sys.exit(f"error: {path} is not a results file of bench/apps.sh (no title line)")
    info["date"], info["host"] = m.group(1), m.group(2)
    m = re.search(r"^Command: `([^`]*)` \((.*)\)\.$", text, re.M)
    details = m.group(2) if m else ""
    for key in ("BENCH_ROUNDS", "BENCH_RUNS", "BENCH_WARMUP"):
        km = re.search(key + r"=(\d+)", details)
        info[key] = int(km.group(1)) if km else None
    m = re.search(r"^Machine: (.*);$", text, re.M)
    info["machine"] = m.group(1) if m else None
    m = re.search(r"before: ([\d.]+) [\d.]+ [\d.]+, after: ([\d.]+) [\d.]+ [\d.]+", text)
    info["load"] = (m.group(1), m.group(2)) if m else None
    m = re.search(r"^Loom commit (.*)\.$", text, re.M)
    # "+" could start a wrapped line, which markdown reads as a list item.
    info["commit"] = m.group(1).replace(" + ", " with ") if m else "unknown"
    # What the peak column measures changed with bench/app_bench.cpp; say which one this is.
    if "live heap allocations" in text:
        info["peak_kind"] = "the rise of live heap bytes during a run"
    elif "resident-set high-water mark" in text:
        info["peak_kind"] = "the resident-set high-water mark of a run"
    else:
        info["peak_kind"] = None

    for key, pattern in (("geomean", r"^Geometric mean of Loom/Halide over (\d+) apps: (\d+\.\d+)"),
                         ("geomean_single", r"^Geometric mean of Loom/Halide single-threaded "
                                            r"over (\d+) apps: (\d+\.\d+)")):
        m = re.search(pattern, text, re.M)
        info[key] = (int(m.group(1)), m.group(2)) if m else None

    main_at = next((i for i, l in enumerate(lines) if l.startswith("| app |")), None)
    if main_at is None:
        sys.exit(f"error: {path} has no table")
    main_rows, end = table_rows(lines, main_at)
    single_at = next((i for i in range(end, len(lines)) if lines[i].startswith("Single-threaded")),
                     None)
    single = {}
    if single_at is not None:
        rows, _ = table_rows(lines, single_at)
        single = {r["app"]: r for r in rows}
    reference = bullets_after(lines, "Outputs against the naive reference")
    opencv = bullets_after(lines, "OpenCV column")
    apps = []
    for row in main_rows:
        app = row["app"]
        ref_notes = reference.get(app, [])
        ref_text = next((t.split("against the naive reference: ", 1)[1] for t in ref_notes
                         if t.startswith("against the naive reference: ")), None)
        apps.append({
            "app": app,
            "row": row,
            "single": single.get(app),
            "reference": None if ref_text in (None, "n/a") else ref_text,
            "failed": [t for t in ref_notes if " failed: " in t],
            "opencv_op": (opencv.get(app) or [None])[0],
        })
    return info, apps


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def wrap(text, indent=""):
    """text filled to WIDTH columns, no continuation line starting like a list item."""
    width = WIDTH
    while True:
        lines = textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=False,
                              break_on_hyphens=False)
        if not any(LIST_ITEM.match(line[len(indent):]) for line in lines[1:]):
            return "\n".join(lines)
        width -= 1


def block(results, info, entries):
    """The generated block for one README (entries: its apps' parsed rows, in file order)."""
    readme_dir = os.path.join(ROOT, "apps", README_OF.get(entries[0]["app"], entries[0]["app"]))
    shown = os.path.relpath(results, ROOT)
    if shown.startswith(".."):
        source = f"`{results}`"
    else:
        link = os.path.relpath(results, readme_dir).replace(os.sep, "/")
        source = f"[{shown}]({link})"
    rounds, runs, warmup = info["BENCH_ROUNDS"], info["BENCH_RUNS"], info["BENCH_WARMUP"]
    facts = [info["date"], f"Loom commit {info['commit']}"]
    if info["machine"]:
        facts.append(info["machine"])
    if info["load"]:
        facts.append(f"load average {info['load'][0]} before, {info['load'][1]} after")
    method = ""
    if rounds and runs:
        method = (f": medians of {plural(rounds, 'round')} x {plural(runs, 'timed run')} per "
                  "process" + (f" ({warmup} warm-up)" if warmup else ""))
    several = len(entries) > 1
    size = "" if several else f", at {entries[0]['row'].get('size', '?')}"
    out = [BEGIN,
           "<!-- Written by bench/app_readmes.py from the results file named below. -->",
           wrap(f"From {source} ({'; '.join(facts)}){method}{size}:"),
           ""]
    head = (["app", "size"] if several else []) + \
        ["threads", "Loom ms", "Halide ms", "Loom/Halide", "fastest runs' ratio"]
    out.append("| " + " | ".join(head) + " |")
    out.append("| " + " | ".join("---" if i < (3 if several else 1) else "---:"
                                 for i in range(len(head))) + " |")
    for e in entries:
        pre = [e["app"], e["row"].get("size", "?")] if several else []
        r = e["row"]
        out.append("| " + " | ".join(pre + [f"all ({r.get('threads', '?')})", r["Loom ms"],
                                             r["Halide ms"], r["Loom/Halide"],
                                             r["fastest runs' ratio"]]) + " |")
        s = e["single"]
        if s:
            out.append("| " + " | ".join(pre + ["1", s["Loom ms"], s["Halide ms"],
                                                 s["Loom/Halide"], s["fastest runs' ratio"]])
                       + " |")
    out.append("")

    def per_app(values):
        """One value, or 'app: value' for each app of a README with several."""
        if not several:
            return values[0][1]
        return "; ".join(f"{app}: {v}" for app, v in values)

    naive = []
    for e in entries:
        ms = e["row"].get("naive ms", "n/a")
        text = "not run in this benchmark" if ms == "n/a" else f"{ms} ms"
        if e["reference"]:
            text += f" (outputs against it: {e['reference']})"
        naive.append((e["app"], text))
    out.append(wrap(f"- Naive reference: {per_app(naive)}.", "  "))
    opencv = []
    for e in entries:
        ms = e["row"].get("OpenCV ms", "n/a")
        if ms != "n/a":
            opencv.append((e["app"], f"{ms} ms" + (f" ({e['opencv_op']})" if e["opencv_op"]
                                                    else "")))
    ops = {e["opencv_op"] for e in entries if e["row"].get("OpenCV ms", "n/a") != "n/a"}
    if opencv and several and len(ops) == 1 and None not in ops:
        # One operation for all the sizes: name it once.
        times = "; ".join(f"{app}: {e_ms.split(' (')[0]}" for app, e_ms in opencv)
        out.append(wrap(f"- OpenCV ({ops.pop()}): {times}.", "  "))
    elif opencv:
        out.append(wrap(f"- OpenCV: {per_app(opencv)}.", "  "))
    kind = f" ({info['peak_kind']})" if info["peak_kind"] else ""
    peak = [(e["app"], e["row"].get("peak MiB Loom / Halide", "n/a")) for e in entries]
    out.append(wrap(f"- Peak memory, Loom / Halide{kind}: {per_app(peak)} MiB.", "  "))
    jit = [(e["app"], e["row"].get("JIT ms Loom / Halide", "n/a")) for e in entries]
    out.append(wrap(f"- JIT compile, Loom / Halide: {per_app(jit)} ms.", "  "))
    agree = [(e["app"], e["row"].get("Loom vs Halide output", "n/a")) for e in entries]
    out.append(wrap(f"- Output, Loom vs Halide: {per_app(agree)}.", "  "))
    for e in entries:
        for failure in e["failed"]:
            lib, _, why = failure.partition(" failed: ")
            who = {"loom": "Loom", "halide": "Halide"}.get(lib, lib)
            where = f" ({e['app']})" if several else ""
            out.append(wrap(f"- {who} failed{where}: {why.rstrip('.')}.", "  "))
    out.append(END)
    return "\n".join(out)


TABLE_BEGIN = "<!-- apps-table:begin -->"
TABLE_END = "<!-- apps-table:end -->"


def summary_table(results, info, apps):
    """The top README's table: every app's times, ratios, peak memory and JIT time."""
    shown = os.path.relpath(results, ROOT).replace(os.sep, "/")
    source = f"[{shown}]({shown})" if not shown.startswith("..") else f"`{results}`"
    rounds, runs = info["BENCH_ROUNDS"], info["BENCH_RUNS"]
    method = (f", medians of {plural(rounds, 'round')} x {plural(runs, 'timed run')} per process"
              if rounds and runs else "")
    load = f", load average {info['load'][0]} before" if info["load"] else ""
    means = []
    if info["geomean"]:
        means.append(f"**{info['geomean'][1]}** with all threads")
    if info["geomean_single"]:
        means.append(f"**{info['geomean_single'][1]}** single-threaded")
    out = [TABLE_BEGIN,
           "<!-- Written by bench/app_readmes.py from the results file named below. -->",
           wrap(f"From {source} ({info['date']}, Loom commit {info['commit']}{method}{load}). "
                + (f"Geometric mean of Loom/Halide over {len(apps)} apps: "
                   + " and ".join(means) + "." if means else "")),
           "",
           "| app (benchmark size) | Loom ms | Halide ms | Loom/Halide | 1 thread | "
           "peak MiB Loom / Halide | JIT ms Loom / Halide |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in apps:
        r, s = e["row"], e["single"]
        out.append("| " + " | ".join([
            f"{e['app']} {r.get('size', '?')}", r["Loom ms"], r["Halide ms"], r["Loom/Halide"],
            s["Loom/Halide"] if s else "n/a", r.get("peak MiB Loom / Halide", "n/a"),
            r.get("JIT ms Loom / Halide", "n/a")]) + " |")
    out.append(TABLE_END)
    return "\n".join(out)


def rewritten(text, new_block):
    """The README text with its block replaced, or inserted under the heading; None if neither."""
    b, e = text.find(BEGIN), text.find(END)
    if b >= 0 and e > b:
        return text[:b] + new_block + text[e + len(END):]
    m = HEADING.search(text)
    if not m:
        return None
    rest = text[m.end():].lstrip("\n")
    return text[:m.end()] + "\n\n" + new_block + "\n\n" + rest


def app_names():
    """The apps of apps/ (each folder with a README), and nl_means_small."""
    names = [d for d in os.listdir(os.path.join(ROOT, "apps"))
             if os.path.exists(os.path.join(ROOT, "apps", d, "README.md"))
             and d not in ("common", "demo")]
    return names + list(README_OF)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    if len(args) != 1:
        sys.exit(__doc__.split("\n\n")[1])
    results = os.path.abspath(args[0])
    info, apps = parse(results)
    by_readme = {}
    for entry in apps:
        by_readme.setdefault(README_OF.get(entry["app"], entry["app"]), []).append(entry)
    differ, problems = [], 0
    for name, entries in by_readme.items():
        path = os.path.join(ROOT, "apps", name, "README.md")
        if not os.path.exists(path):
            print(f"warning: no {os.path.relpath(path, ROOT)} for {name}", file=sys.stderr)
            problems += 1
            continue
        with open(path) as f:
            text = f.read()
        new = rewritten(text, block(results, info, entries))
        if new is None:
            print(f"warning: {os.path.relpath(path, ROOT)} has neither the markers nor a "
                  "'## Measured numbers' heading; left as it is", file=sys.stderr)
            problems += 1
            continue
        if new != text:
            differ.append(os.path.relpath(path, ROOT))
            if not check:
                with open(path, "w") as f:
                    f.write(new)
    # The top README's summary follows only a file with every app (not a subset run).
    top = os.path.join(ROOT, "README.md")
    with open(top) as f:
        text = f.read()
    b, e = text.find(TABLE_BEGIN), text.find(TABLE_END)
    every_app = {a["app"] for a in apps} >= set(app_names())
    if b >= 0 and e > b and every_app:
        new = text[:b] + summary_table(results, info, apps) + text[e + len(TABLE_END):]
        if new != text:
            differ.append("README.md")
            if not check:
                with open(top, "w") as f:
                    f.write(new)
    verb = "differ from" if check else "rewritten from"
    for path in differ:
        print(f"{path}: measured numbers {verb} {os.path.relpath(results, ROOT)}")
    if check and differ:
        sys.exit(1)
    if problems:
        sys.exit(2)


if __name__ == "__main__":
    main()
