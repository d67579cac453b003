#!/usr/bin/env python3
"""Writes each app README's autoscheduler table from one results file of bench/autoschedulers.sh.

Usage: autoscheduler_readmes.py [--check] RESULTS.md

For every app row of RESULTS.md, apps/<app>/README.md gets a generated block between
`<!-- autoschedulers:begin -->` and `<!-- autoschedulers:end -->` (with a "## Autoschedulers"
heading added at the end of the README when the markers are missing): the results file, its
header line, and one row per schedule with its time, its scheduling time and its ratio to the
fastest of Halide 21's autoschedulers. nl_means_small's row goes into apps/nl_means/README.md
beside nl_means'. Apps absent from the file, or whose row failed everywhere, are left alone.
Writing the same file twice changes nothing.

--check writes nothing: it names the READMEs whose block differs and exits 1 if any does.
Standard library only.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- autoschedulers:begin -->"
END = "<!-- autoschedulers:end -->"
README_OF = {"nl_means_small": "nl_means"}
CELL = re.compile(r"^([0-9.]+)(?: \(([0-9.]+) s\))?$")


def parse(path):
    """(title line, header cells, {app: {column: cell}}) of the results table."""
    lines = open(path).read().splitlines()
    # "# Autoschedulers: Loom's against Halide 21's (2026-11-29 06:15, vm)" -> "2026-11-29 06:15, vm"
    when = re.search(r"\(([^()]*)\)\s*$", lines[0]) if lines else None
    title = when.group(1) if when else ""
    header, rows = None, {}
    for line in lines:
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(cells[0]) <= set("-: "):
            rows[cells[0]] = dict(zip(header, cells))
    return title, header or [], rows


def block(results, title, header, apps):
    rel = os.path.relpath(results, os.path.join(ROOT, "apps", "x"))
    out = [BEGIN, "<!-- Written by bench/autoscheduler_readmes.py from the results file named below. -->",
           f"From [{os.path.basename(results)}]({rel}) ({title}): medians of the rounds in one",
           "process per app; the autoscheduler's own time in the second column.", ""]
    for app, row in apps:
        schedules = [h for h in header[1:] if "/" not in h]
        halide = [CELL.match(row[h]) for h in schedules if h.startswith("Halide")]
        best = min((float(m.group(1)) for m in halide if m), default=None)
        if len(apps) > 1:
            out.append(f"{app}:")
            out.append("")
        out.append("| schedule | ms | scheduling s | / best Halide |")
        out.append("| --- | ---: | ---: | ---: |")
        for h in schedules:
            m = CELL.match(row[h])
            if not m:
                out.append(f"| {h} | {row[h]} | | |")
                continue
            ms = float(m.group(1))
            ratio = f"{ms / best:.2f}" if best else "n/a"
            out.append(f"| {h} | {m.group(1)} | {m.group(2) or ''} | {ratio} |")
        out.append("")
    out[-1] = END
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        sys.exit(__doc__)
    results = os.path.abspath(args[0])
    title, header, rows = parse(results)
    by_readme = {}
    for app, row in rows.items():
        if all(v == "failed" or v == "n/a" for k, v in row.items() if k != header[0]):
            continue
        by_readme.setdefault(README_OF.get(app, app), []).append((app, row))
    stale = []
    for readme_app, apps in sorted(by_readme.items()):
        path = os.path.join(ROOT, "apps", readme_app, "README.md")
        if not os.path.exists(path):
            continue
        text = open(path).read()
        new_block = block(results, title, header, apps)
        if BEGIN in text and END in text:
            start, end = text.index(BEGIN), text.index(END) + len(END)
            updated = text[:start] + new_block + text[end:]
        else:
            updated = text.rstrip("\n") + "\n\n## Autoschedulers\n\n" + new_block + "\n"
        if updated != text:
            stale.append(path)
            if not check:
                open(path, "w").write(updated)
    for p in stale:
        print(("differs: " if check else "wrote: ") + os.path.relpath(p, ROOT))
    if check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
