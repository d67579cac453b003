#!/usr/bin/env python3
"""Forward + backward of the NN operator apps against PyTorch CPU eager and Halide 21.

The spatial transformer (apps/spatial_transformer: affine_grid + grid_sample, bilinear, zero
padding, align_corners=False) at the paper's size (N=4, C=16, 512x512 float32) unless given
others, and the convolution layer (apps/conv_layer: 3x3 convolution, zero padding, bias, ReLU;
its backward pass from define_backward) at the 2016 autoscheduling paper's size (N=4, 64
channels in and out, 128x128), and the FlowNet 2.0 warping layer (apps/flow_warp: grid_sample at
the pixel grid plus a flow field, bilinear, zero padding, align_corners=True) at the Li 2018
paper's size (N=4, C=64, 512x512), and the bilateral slicing layer (apps/bilateral_slice:
HDRNet's slice-and-apply; PyTorch: grid_sample on the 5-D grid, border padding,
align_corners=False, then the affine transform) at the Li 2018 paper's size (N=4 images of 3
channels, 1024x1024, a grid of 64x64x8 cells of 12 coefficients). Loom and Halide 21 run bench/nn_ops.cpp (JIT; Loom from the build folder, Halide's side
compiled here against the wheel); PyTorch runs the same operators with autograd. All with 2
threads (torch.set_num_threads, LOOM_NUM_THREADS, HL_NUM_THREADS), one after the other in one
run, medians of the timed runs after one warm-up. Writes bench/results/<date>-<host>-nn-ops.md
(with --ops naming only some operators, ...-nn-ops-<operators>.md, which bench/README.md lists
apart) and refreshes bench/README.md's links (bench/latest.py). Not part of CI.

Usage: bench/nn_ops.py [--size N C H W] [--conv-size N C H W] [--flow-size N C H W]
                       [--slice-size N C H W] [--ops OP...] [--runs R] [--threads T]
"""
import argparse
import datetime
import os
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def time_passes(forward, zero_grads, d_out, runs):
    """Medians (ms) of forward, backward (given the output's adjoint d_out) and their sum over
    `runs` runs after a warm-up."""
    fwd, bwd = [], []
    for r in range(runs + 1):
        t0 = time.perf_counter()
        out = forward()
        t1 = time.perf_counter()
        zero_grads()
        out.backward(d_out)
        t2 = time.perf_counter()
        if r:
            fwd.append((t1 - t0) * 1e3)
            bwd.append((t2 - t1) * 1e3)
    totals = [a + b for a, b in zip(fwd, bwd)]
    return statistics.median(fwd), statistics.median(bwd), statistics.median(totals)


def torch_times(n, c, h, w, runs, threads):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    x = torch.rand(n, c, h, w, generator=gen, requires_grad=True)
    theta = torch.tensor([[[0.95, -0.2, 0.05 * b], [0.2, 0.9, -0.03 * b]] for b in range(n)],
                         requires_grad=True)
    d_out = torch.rand(n, c, h, w, generator=gen) - 0.5

    def forward():
        grid = F.affine_grid(theta, (n, c, h, w), align_corners=False)
        return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)

    def zero_grads():
        x.grad = theta.grad = None

    return time_passes(forward, zero_grads, d_out, runs) + (torch.__version__,)


def torch_conv_times(n, c, h, w, runs, threads):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    x = (torch.rand(n, c, h, w, generator=gen) - 0.5).requires_grad_()
    weight = ((torch.rand(c, c, 3, 3, generator=gen) - 0.5) * 0.1).requires_grad_()
    bias = (torch.rand(c, generator=gen) - 0.5).requires_grad_()
    d_out = torch.rand(n, c, h, w, generator=gen) - 0.5
    def zero_grads():
        x.grad = weight.grad = bias.grad = None

    return time_passes(lambda: F.relu(F.conv2d(x, weight, bias, padding=1)), zero_grads, d_out,
                       runs)


def torch_flow_times(n, c, h, w, runs, threads):
    """The warping layer as FlowNet 2.0's PyTorch code writes it: grid_sample at the pixel grid
    plus the flow, normalized so that align_corners=True maps -1 and 1 to the first and last
    pixels' centres (then the sample is at exactly x + flow, as in apps/flow_warp)."""
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    x = torch.rand(n, c, h, w, generator=gen, requires_grad=True)
    ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                            torch.arange(w, dtype=torch.float32), indexing="ij")
    # As bench/nn_ops.cpp: a smooth flow of up to 4 pixels plus noise of half a pixel.
    b = torch.arange(n, dtype=torch.float32).view(n, 1, 1)
    fx = 4 * torch.sin(0.02 * ys + b)
    fy = (4 * torch.cos(0.02 * xs)).expand(n, h, w)
    flow = (torch.stack((fx, fy), 1) + torch.rand(n, 2, h, w, generator=gen) - 0.5).requires_grad_()
    d_out = torch.rand(n, c, h, w, generator=gen) - 0.5
    base = torch.stack((xs, ys))
    scale = torch.tensor([2.0 / max(w - 1, 1), 2.0 / max(h - 1, 1)]).view(1, 2, 1, 1)

    def forward():
        grid = ((base + flow) * scale - 1).permute(0, 2, 3, 1)
        return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True)

    def zero_grads():
        x.grad = flow.grad = None

    return time_passes(forward, zero_grads, d_out, runs)


def torch_slice_times(n, c, h, w, runs, threads):
    """The bilateral slicing layer with PyTorch's operators, as Fig. 2 of Li et al. 2018: the
    grid (N, 12, GD, GH, GW) sampled trilinearly by grid_sample at each pixel's (x, y, guide),
    then the 3 x 4 affine transform. align_corners=False puts pixel centres on cell centres,
    and border padding clamps to the edge cells as apps/bilateral_slice's index clamping does
    (both give the edge cell's value, and no gradient to the position, beyond the outer cell
    centres): in double, forward and all three gradients agree with apps/bilateral_slice's
    reference to 1e-14."""
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    gw, gh, gd = max(1, w // 16), max(1, h // 16), 8
    grid = (torch.rand(n, 12, gd, gh, gw, generator=gen) - 0.5).requires_grad_()
    guide = torch.rand(n, h, w, generator=gen, requires_grad=True)
    x = torch.rand(n, c, h, w, generator=gen, requires_grad=True)
    d_out = torch.rand(n, c, h, w, generator=gen) - 0.5
    # Pixel centres in [-1, 1] (align_corners=False).
    xs = ((2 * torch.arange(w, dtype=torch.float32) + 1) / w - 1).view(1, 1, w).expand(n, h, w)
    ys = ((2 * torch.arange(h, dtype=torch.float32) + 1) / h - 1).view(1, h, 1).expand(n, h, w)

    def forward():
        where = torch.stack((xs, ys, 2 * guide - 1), -1).unsqueeze(1)  # N, 1, H, W, (x, y, z)
        a = F.grid_sample(grid, where, mode="bilinear", padding_mode="border",
                          align_corners=False).view(n, 3, 4, h, w)
        return (a[:, :, :3] * x.unsqueeze(1)).sum(2) + a[:, :, 3]

    def zero_grads():
        grid.grad = guide.grad = x.grad = None

    return time_passes(forward, zero_grads, d_out, runs)


def build_halide_side(build):
    import halide
    hdir = os.path.dirname(halide.__file__)
    exe = os.path.join(build, "bench", "nn_ops_halide")
    cmd = ["g++", "-std=c++17", "-O3", "-DNDEBUG", "-DHALIDE_WITH_EXCEPTIONS",
           "-DHALIDE_ENABLE_RTTI", "-I", os.path.join(ROOT, "apps"), "-I",
           os.path.join(hdir, "include"), os.path.join(ROOT, "bench", "nn_ops.cpp"), "-o", exe,
           "-L", os.path.join(hdir, "lib64"), "-lHalide", "-Wl,-rpath," + os.path.join(hdir, "lib64"),
           "-lpthread", "-ldl"]
    subprocess.run(cmd, check=True)
    return exe, os.path.join(hdir, "lib64")


def run_side(exe, env, args, schedules):
    """{schedule: (fwd, bwd, total) or the failure text}; a crash fails the remaining ones."""
    rows = {}
    for s in schedules:
        p = subprocess.run([exe] + args + [s], env=env, capture_output=True, text=True)
        line = next((l for l in p.stdout.splitlines() if l.startswith(s + " ")), None)
        if line is None:
            err = (p.stderr.strip().splitlines() or ["no output"])[-1]
            rows[s] = "failed (exit %d): %s" % (p.returncode, err[:200])
        elif line.split()[1] == "failed":
            rows[s] = line[len(s) + 1:][:300]
        else:
            rows[s] = tuple(float(v) for v in line.split()[1:4])
    return rows


OPS = ["spatial_transformer", "conv_layer", "flow_warp", "bilateral_slice"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", nargs=4, type=int, default=[4, 16, 512, 512], metavar=("N", "C", "H", "W"))
    ap.add_argument("--conv-size", nargs=4, type=int, default=[4, 64, 128, 128], metavar=("N", "C", "H", "W"))
    ap.add_argument("--flow-size", nargs=4, type=int, default=[4, 64, 512, 512], metavar=("N", "C", "H", "W"))
    ap.add_argument("--slice-size", nargs=4, type=int, default=[4, 3, 1024, 1024], metavar=("N", "C", "H", "W"),
                    help="bilateral_slice's images (C must be 3); its grid is W/16 x H/16 x 8")
    ap.add_argument("--ops", nargs="+", choices=OPS, default=OPS, help="the operators to run (default: all)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--build", default=os.path.join(ROOT, os.environ.get("LOOM_BUILD", "build")))
    a = ap.parse_args()
    ops = [o for o in OPS if o in a.ops]
    n, c, h, w = a.size
    subprocess.run(["ninja", "-C", a.build, "-j2", "nn_ops_loom"], check=True,
                   stdout=subprocess.DEVNULL)
    halide_exe, halide_lib = build_halide_side(a.build)
    loom_exe = os.path.join(a.build, "bench", "nn_ops_loom")
    args = ["spatial_transformer"] + [str(v) for v in (n, c, h, w, a.runs)]
    cn, cc, ch, cw = a.conv_size
    conv_args = ["conv_layer"] + [str(v) for v in (cn, cc, ch, cw, a.runs)]
    fn, fc, fh, fw = a.flow_size
    flow_args = ["flow_warp"] + [str(v) for v in (fn, fc, fh, fw, a.runs)]
    sn, sc, sh, sw = a.slice_size
    slice_args = ["bilateral_slice"] + [str(v) for v in (sn, sc, sh, sw, a.runs)]
    env = dict(os.environ, LOOM_NUM_THREADS=str(a.threads), HL_NUM_THREADS=str(a.threads))
    henv = dict(env, LD_LIBRARY_PATH=halide_lib + ":" + env.get("LD_LIBRARY_PATH", ""))
    load_before = open("/proc/loadavg").read().split()[:3]
    if "spatial_transformer" in ops:
        loom = run_side(loom_exe, env, args, ["default", "hand", "Li2018"])
        halide = run_side(halide_exe, henv, args, ["default", "hand", "Li2018"])
        t_fwd, t_bwd, t_total, _ = torch_times(n, c, h, w, a.runs, a.threads)
    if "conv_layer" in ops:
        # (No unscheduled conv layer: its backward pass recomputes sums per point at this size.)
        loom_conv = run_side(loom_exe, env, conv_args, ["hand", "Li2018"])
        halide_conv = run_side(halide_exe, henv, conv_args, ["hand", "Li2018"])
        conv_torch = torch_conv_times(cn, cc, ch, cw, a.runs, a.threads)
    if "flow_warp" in ops:
        loom_flow = run_side(loom_exe, env, flow_args, ["default", "hand", "Li2018"])
        halide_flow = run_side(halide_exe, henv, flow_args, ["default", "hand", "Li2018"])
        flow_torch = torch_flow_times(fn, fc, fh, fw, a.runs, a.threads)
    if "bilateral_slice" in ops:
        loom_slice = run_side(loom_exe, env, slice_args, ["default", "hand", "Li2018"])
        halide_slice = run_side(halide_exe, henv, slice_args, ["default", "hand", "Li2018"])
        slice_torch = torch_slice_times(sn, sc, sh, sw, a.runs, a.threads)
    load_after = open("/proc/loadavg").read().split()[:3]

    import torch
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    host = socket.gethostname().split(".")[0]
    stamp = datetime.datetime.now()
    command = ("bench/nn_ops.py --size %d %d %d %d --conv-size %d %d %d %d --flow-size %d %d %d %d"
               " --slice-size %d %d %d %d") % (n, c, h, w, cn, cc, ch, cw, fn, fc, fh, fw, sn, sc, sh, sw)
    if ops != OPS:
        command += " --ops " + " ".join(ops)
    lines = [
        "# NN operators, forward + backward: Loom, Halide 21, PyTorch CPU (%s, %s)" % (stamp.strftime("%Y-%m-%d %H:%M"), host),
        "",
        "Command: `%s --runs %d --threads %d`." % (command, a.runs, a.threads),
        "Machine: %s, %d CPUs; load average (1, 5, 15 min) before: %s, after: %s." % (cpu, os.cpu_count(), " ".join(load_before), " ".join(load_after)),
        "Loom commit %s%s. PyTorch %s (eager, autograd). %d threads everywhere." % (commit, " + local changes" if dirty else "", torch.__version__, a.threads),
        "Medians of %d runs after one warm-up; Loom and Halide JIT-compiled (bench/nn_ops.cpp)," % a.runs,
        "PyTorch eager.",
    ]
    table = [
        "",
        "| implementation | forward ms | backward ms | total ms | PyTorch / this |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    def row(name, r, torch_total):
        if isinstance(r, tuple):
            lines.append("| %s | %.1f | %.1f | %.1f | %.2f |" % (name, r[0], r[1], r[2], torch_total / r[2]))
        else:
            lines.append("| %s | %s | | | |" % (name, r.replace("|", "/")))
    if "spatial_transformer" in ops:
        lines += [
            "",
            "Spatial transformer sampler (apps/spatial_transformer): affine_grid + grid_sample (bilinear,",
            "zeros, align_corners=False) on N=%d x C=%d x %d x %d float32; backward = the gradients" % (n, c, h, w),
            "with respect to the input and theta given the output's adjoint.",
        ] + table
        lines.append("| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % (t_fwd, t_bwd, t_total))
        row("Loom, unscheduled", loom["default"], t_total)
        row("Loom, hand schedule", loom["hand"], t_total)
        row("Loom, Li2018 autoscheduler", loom["Li2018"], t_total)
        row("Halide 21, unscheduled", halide["default"], t_total)
        row("Halide 21, hand schedule", halide["hand"], t_total)
        row("Halide 21, Li2018 autoscheduler", halide["Li2018"], t_total)
    if "conv_layer" in ops:
        lines += [
            "",
            "Convolution layer (apps/conv_layer): 3x3, zero padding, bias, ReLU on N=%d images of" % cn,
            "%d x %d pixels, %d channels in and out (float32, channels fastest; PyTorch NCHW);" % (cw, ch, cc),
            "backward = the gradients with respect to the input, the filter and the bias. \"hand\":",
            "the app's forward schedule, the backward pass scheduled by Li2018.",
        ] + table
        lines.append("| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % conv_torch)
        row("Loom, hand forward + Li2018 backward", loom_conv["hand"], conv_torch[2])
        row("Loom, Li2018 autoscheduler", loom_conv["Li2018"], conv_torch[2])
        row("Halide 21, hand forward + Li2018 backward", halide_conv["hand"], conv_torch[2])
        row("Halide 21, Li2018 autoscheduler", halide_conv["Li2018"], conv_torch[2])
    if "flow_warp" in ops:
        lines += [
            "",
            "FlowNet 2.0 warping layer (apps/flow_warp): the bilinear sample at each pixel plus its flow",
            "(zeros outside; PyTorch: grid_sample, align_corners=True) on N=%d x C=%d x %d x %d" % (fn, fc, fh, fw),
            "float32, flows of up to 4.5 pixels; backward = the gradients with respect to the input and",
            "the flow given the output's adjoint.",
        ] + table
        lines.append("| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % flow_torch)
        row("Loom, unscheduled", loom_flow["default"], flow_torch[2])
        row("Loom, hand schedule", loom_flow["hand"], flow_torch[2])
        row("Loom, Li2018 autoscheduler", loom_flow["Li2018"], flow_torch[2])
        row("Halide 21, unscheduled", halide_flow["default"], flow_torch[2])
        row("Halide 21, hand schedule", halide_flow["hand"], flow_torch[2])
        row("Halide 21, Li2018 autoscheduler", halide_flow["Li2018"], flow_torch[2])
    if "bilateral_slice" in ops:
        lines += [
            "",
            "Bilateral slicing layer (apps/bilateral_slice): N=%d images of 3 x %d x %d float32 and" % (sn, sh, sw),
            "their guides, sliced from a grid of %d x %d x 8 cells of 12 affine coefficients (PyTorch:" % (max(1, sw // 16), max(1, sh // 16)),
            "grid_sample, border padding, align_corners=False, then the affine transform); backward =",
            "the gradients with respect to the grid, the guide and the input given the output's adjoint.",
        ] + table
        lines.append("| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % slice_torch)
        row("Loom, unscheduled", loom_slice["default"], slice_torch[2])
        row("Loom, hand schedule", loom_slice["hand"], slice_torch[2])
        row("Loom, Li2018 autoscheduler", loom_slice["Li2018"], slice_torch[2])
        row("Halide 21, unscheduled", halide_slice["default"], slice_torch[2])
        row("Halide 21, hand schedule", halide_slice["hand"], slice_torch[2])
        row("Halide 21, Li2018 autoscheduler", halide_slice["Li2018"], slice_torch[2])
    lines.append("")
    kind = "nn-ops" if ops == OPS else "nn-ops-" + "-".join(o.replace("_", "-") for o in ops)
    out = os.path.join(ROOT, "bench", "results", "%s-%s-%s.md" % (stamp.strftime("%Y-%m-%d-%H%M%S"), host, kind))
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    print("(written to %s)" % os.path.relpath(out, ROOT))
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "latest.py")], check=True)


if __name__ == "__main__":
    main()
