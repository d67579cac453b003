#!/usr/bin/env python3
"""The demo's report (apps/demo/demo.sh calls it after both libraries ran): prints Loom's and
Halide 21's times side by side and writes OUT/index.html, one section per app with its input
("before") and output ("after") pictures side by side, the input's description and both
libraries' JIT and run times. Plain HTML with inline CSS and relative image paths.

    report.py --loom LOOM_TSV [--halide HALIDE_TSV] --out DIR [--halide-version V]
              [--load-before "1.0 0.9 0.8"] [--seconds S]

The TSV files are loom_demo's --tsv output (see apps/demo/loom_demo.cpp): a "#mode MODE RUNS
JIT_SETUP_MS" line, then per app "app input jit_ms run_ms timed_runs status demo_steps demo_compile_ms
demo_run_ms demo_text", -1 where a time was not measured.
"""
import argparse
import datetime
import html
import os
import platform
import subprocess


def read_tsv(path):
    """(meta, rows): meta from the #mode line, rows an ordered dict of app -> fields."""
    meta, rows = {"mode": "?", "runs": "?", "setup": -1.0}, {}
    if not path or not os.path.exists(path):
        return meta, rows
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "#mode":
                meta = {"mode": parts[1], "runs": parts[2], "setup": float(parts[3])}
                continue
            fields = (parts + ["-1"] * 9 + [""])[:10]
            name, size, jit, run, timed, status, steps, demo_jit, demo_run, demo_text = fields
            rows[name] = {
                "size": size,
                "jit": float(jit),
                "run": float(run),
                "timed": int(timed),
                "status": status,
                "demo_steps": int(steps),
                "demo_jit": float(demo_jit),
                "demo_run": float(demo_run),
                "demo_text": demo_text,
            }
    return meta, rows


def ms(v):
    if v is None or v < 0:
        return "-"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b is not None and a > 0 and b > 0 else "-"


def per_step(row):
    """Milliseconds per step of the demo run, or None."""
    if not row or row["demo_steps"] <= 0 or row["demo_run"] < 0:
        return None
    return row["demo_run"] / row["demo_steps"]


def demo_line(row):
    return (f"{row['demo_text']}; {ms(row['demo_run'])} ms ({per_step(row):.2f} ms per "
            f"iteration), plus {ms(row['demo_jit'])} ms to compile")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def loom_commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def readme_of(app):
    """The app's README relative to the output folder (nl_means_small is nl_means)."""
    folder = "nl_means" if app == "nl_means_small" else app
    return f"../apps/{folder}/README.md"


# What each app's pictures show (AppInstance::input_picture and picture(), described in each
# apps/<name>/<name>_app.h); apps not listed get "the input" and "the output".
CAPTIONS = {
    "blur": ("the gray photograph", "3x3 box blur"),
    "hist_eq": ("the photograph", "each channel's histogram equalized"),
    "camera_pipe": ("the Bayer raw, each site in its filter's colour (gamma 2 to be visible)",
                    "developed: hot pixels removed, demosaicked, colour-corrected at 3700 K, "
                    "tone curve, sharpened"),
    "local_laplacian": ("the photograph, 16-bit", "local contrast enhanced (alpha 1, beta 1)"),
    "bilateral_grid": ("the gray photograph", "edge-preserving smoothing"),
    "unsharp": ("the photograph", "sharpened (unsharp mask, weight 1)"),
    "harris": ("the photograph",
               "Harris response: corners bright, edges dark, flat areas mid-gray (cube root)"),
    "nl_means": ("the photograph", "non-local means denoised"),
    "nl_means_small": ("the small photograph", "non-local means denoised"),
    "max_filter": ("the photograph",
                   "each channel's maximum over the 53 x 53 square around the pixel"),
    "interpolate": ("the photograph times its alpha: the holes are black",
                    "the holes filled by multi-scale interpolation"),
    "lens_blur": ("the left view of the stereo pair (the right one is made from it)",
                  "blurred by depth, focused at disparity 12"),
    "conv_layer": ("synthetic activations: image 0, input channels 0-2 as RGB",
                   "image 0, output channels 0-2 as RGB (after ReLU)"),
    "matmul": ("synthetic A and B, side by side (gray 0, black -1, white 1)",
               "A B (gray 0, saturating at 3 standard deviations)"),
    "vgg16": ("the synthetic input image",
              "the 1000 class probabilities as bars, relative to the largest"),
    "pyramid_blend": ("the two images: kept on the left, kept on the right",
                      "blended across a soft vertical seam, 4 pyramid levels"),
    "snake": ("the starting level set: phi < 0 tinted blue, its contour red",
              "the level set after the run: phi < 0 tinted blue (in the natural mode, the "
              "background grown from the top rows), its contour red"),
}

# The inputs of each mode of loom_demo (AppOptions in apps/common/app.h), for the page's intro.
INPUTS = {
    "natural": "a real photograph at its natural size (the shared images of "
               "<code>../shared/images</code>, untiled; matmul, conv_layer and vgg16 take "
               "synthetic inputs, not images)",
    "small": "its small input (<code>--small</code>: the quick run; small photographs, some "
             "tiled)",
    "benchmark": "its benchmark-size input (<code>--benchmark</code>: the photographs tiled "
                 "by mirroring)",
}

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 1280px; margin: 2em auto; padding: 0 1em; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th { background: #f3f3f3; }
.l { text-align: left; }
section { border-top: 2px solid #333; margin-top: 2.5em; padding-top: 0.5em; }
.pair { display: flex; gap: 1.2em; align-items: flex-start; }
figure { flex: 1 1 0; margin: 0; min-width: 0; }
figure img { width: 100%; height: auto; border: 1px solid #ccc; background: #fff; }
figure.small img { image-rendering: pixelated; }
figcaption { font-size: 0.85em; color: #555; margin-top: 0.2em; }
.input { font-family: ui-monospace, monospace; font-size: 0.9em; }
.demo { background: #f6f6ff; border-left: 4px solid #99c; padding: 0.4em 0.8em; }
.failed { color: #b00; }
"""


def picture_size(path):
    """(width, height) of a PNG from its header, or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
        if head[:8] == b"\x89PNG\r\n\x1a\n":
            return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    except OSError:
        pass
    return None


def figure(out_dir, file, caption):
    size = picture_size(os.path.join(out_dir, file))
    if size is None:
        return f'<figure><figcaption>{html.escape(caption)}: no picture</figcaption></figure>'
    small = ' class="small"' if size[0] < 400 and size[1] < 400 else ""
    return (f'<figure{small}><a href="{file}"><img src="{file}" alt="{html.escape(caption)}" '
            f'loading="lazy"></a><figcaption>{html.escape(caption)} ({size[0]} x {size[1]})'
            f'</figcaption></figure>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loom", required=True)
    ap.add_argument("--halide")
    ap.add_argument("--out", required=True)
    ap.add_argument("--halide-version", default="21")
    ap.add_argument("--load-before", default="")
    ap.add_argument("--seconds", default="")
    args = ap.parse_args()

    meta, loom = read_tsv(args.loom)
    halide_meta, halide = read_tsv(args.halide)
    have_halide = bool(halide)
    runs = meta["runs"]
    what = (f"run ms: median of {runs} runs after one warm-up run (one run for an app whose "
            "warm-up took over 0.5 s: see the timed-runs column), wall clock, all cores; "
            "JIT ms: schedule + compile_jit, once, after a trivial pipeline paid the library's "
            f"one-time JIT setup (Loom {ms(meta['setup'])} ms, Halide "
            f"{ms(halide_meta['setup'])} ms); ratio = Loom / Halide run ms. The same "
            "driver (apps/demo/loom_demo.cpp) built against Halide "
            f"{args.halide_version}, on the same inputs with the same schedules, ran after "
            "Loom's, in its own process.")

    # The terminal table.
    print(f"{'app':16} {'JIT ms Loom':>11} {'Halide':>7} {'run ms Loom':>11} {'Halide':>7} "
          f"{'ratio':>6} {'runs':>4}  input")
    for name, r in loom.items():
        h = halide.get(name)
        status = r["status"] if r["status"] != "ok" else (h["status"] if h else "")
        note = "" if status in ("ok", "") else f"  {status}"
        print(f"{name:16} {ms(r['jit']):>11} {ms(h['jit'] if h else None):>7} "
              f"{ms(r['run']):>11} {ms(h['run'] if h else None):>7} "
              f"{ratio(r['run'], h['run'] if h else None):>6} {r['timed']:>4}  {r['size']}{note}")
        if r["demo_text"]:
            print(f"{'':16}   demo run, Loom: {demo_line(r)}")
            if h and h["demo_text"]:
                print(f"{'':16}   demo run, Halide: {demo_line(h)}")
    print("(" + what + ")" if have_halide else "(Loom only: Halide 21 is not installed)")

    # index.html
    load_after = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") \
        else []
    rows_html = []
    sections = []
    for name, r in loom.items():
        h = halide.get(name)
        failed = r["status"].startswith("failed")
        timed = str(r["timed"]) if not h or h["timed"] == r["timed"] else \
            f"{r['timed']} / {h['timed']}"
        rows_html.append(
            f'<tr><td class="l"><a href="#{name}">{name}</a></td>'
            f"<td>{ms(r['jit'])}</td><td>{ms(h['jit'] if h else None)}</td>"
            f"<td>{ms(r['run'])}</td><td>{ms(h['run'] if h else None)}</td>"
            f"<td>{ratio(r['run'], h['run'] if h else None)}</td><td>{timed}</td>"
            f'<td class="l input">{html.escape(r["size"])}</td></tr>')
        times = [
            "<table><tr><th></th><th>Loom</th><th>Halide " + html.escape(args.halide_version) +
            "</th><th>Loom / Halide</th></tr>",
            f"<tr><td class=\"l\">JIT compile, ms</td><td>{ms(r['jit'])}</td>"
            f"<td>{ms(h['jit'] if h else None)}</td><td>{ratio(r['jit'], h['jit'] if h else None)}"
            "</td></tr>",
            f"<tr><td class=\"l\">run, ms (median of {timed})</td><td>{ms(r['run'])}</td>"
            f"<td>{ms(h['run'] if h else None)}</td>"
            f"<td>{ratio(r['run'], h['run'] if h else None)}</td></tr>",
        ]
        if r["demo_text"]:
            hs = per_step(h) if h and h["demo_text"] else None
            ls = per_step(r)
            times.append(
                f"<tr><td class=\"l\">demo run, ms per iteration (once)</td>"
                f"<td>{ls:.2f}</td><td>{f'{hs:.2f}' if hs else '-'}</td>"
                f"<td>{ratio(ls, hs)}</td></tr>"
                f"<tr><td class=\"l\">demo run, JIT ms</td><td>{ms(r['demo_jit'])}</td>"
                f"<td>{ms(h['demo_jit'] if h and h['demo_text'] else None)}</td>"
                f"<td>{ratio(r['demo_jit'], h['demo_jit'] if h and h['demo_text'] else None)}"
                "</td></tr>")
        times.append("</table>")
        demo = ""
        if r["demo_text"]:
            demo = (f'<p class="demo"><b>Demo run</b> (the picture above is Loom\'s result). '
                    f"Loom: {html.escape(demo_line(r))}.")
            if h and h["demo_text"]:
                demo += f"<br>Halide: {html.escape(demo_line(h))}."
            demo += "</p>"
        status = ""
        for lib, row in (("Loom", r), ("Halide", h)):
            if row and row["status"].startswith("failed"):
                status += f'<p class="failed">{lib}: {html.escape(row["status"])}</p>'
        before, after = CAPTIONS.get(name, ("the input", "the output"))
        pictures = "" if failed else (
            '<div class="pair">' + figure(args.out, f"{name}_before.png", "before: " + before) +
            figure(args.out, f"{name}_after.png", "after: " + after) + "</div>")
        sections.append(
            f'<section id="{name}"><h2>{name}</h2>'
            f'<p>Input: <span class="input">{html.escape(r["size"])}</span> · '
            f'<a href="{readme_of(name)}">what it computes</a></p>'
            f"{status}{pictures}{demo}{''.join(times)}</section>")

    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    load = (f"load average {args.load_before or '?'} before, {' '.join(load_after)} after"
            if load_after else "")
    took = f"; the demo took {args.seconds} s" if args.seconds else ""
    page = f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Loom demo</title><style>{CSS}</style></head>
<body>
<h1>Loom demo</h1>
<p class="meta">{when} · Loom {html.escape(loom_commit())} ·
{html.escape(cpu_name())}, {os.cpu_count()} cores · {html.escape(load)}{took} ·
input mode: {html.escape(meta['mode'])}</p>
<p>Every application of <code>apps/</code> run by Loom on {INPUTS.get(meta['mode'], 'its input')},
its input and output side by side, and the times of Loom and of
Halide {html.escape(args.halide_version)} running the same algorithm and schedule on the same
input. The pictures are Loom's. Benchmark sizes and careful timing (rounds, alternation, peak
memory, references) are in <code>make bench</code> and <code>bench/results/</code>.</p>
<p class="meta">{html.escape(what) if have_halide else "Halide 21 is not installed (pip install halide==21.0.0): Loom's times only."}</p>
<table>
<tr><th class="l">app</th><th>JIT ms Loom</th><th>Halide</th><th>run ms Loom</th><th>Halide</th>
<th>ratio</th><th>timed runs</th><th class="l">input</th></tr>
{chr(10).join(rows_html)}
</table>
{chr(10).join(sections)}
</body>
</html>
"""
    path = os.path.join(args.out, "index.html")
    with open(path, "w") as f:
        f.write(page)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
