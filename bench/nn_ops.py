#!/usr/bin/env python3
"""Forward + backward of the NN operator apps against PyTorch CPU eager and Halide 21.

The spatial transformer (apps/spatial_transformer: affine_grid + grid_sample, bilinear, zero
padding, align_corners=False) at the paper's size (N=4, C=16, 512x512 float32) unless given
others, and the convolution layer (apps/conv_layer: 3x3 convolution, zero padding, bias, ReLU;
its backward pass from define_backward) at the 2016 autoscheduling paper's size (N=4, 64
channels in and out, 128x128). Loom and Halide 21 run bench/nn_ops.cpp (JIT; Loom from the build folder, Halide's side
compiled here against the wheel); PyTorch runs the same operators with autograd. All with 2
threads (torch.set_num_threads, LOOM_NUM_THREADS, HL_NUM_THREADS), one after the other in one
run, medians of the timed runs after one warm-up. Writes bench/results/<date>-<host>-nn-ops.md
and refreshes bench/README.md's links (bench/latest.py). Not part of CI.

Usage: bench/nn_ops.py [--size N C H W] [--conv-size N C H W] [--runs R] [--threads T]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", nargs=4, type=int, default=[4, 16, 512, 512], metavar=("N", "C", "H", "W"))
    ap.add_argument("--conv-size", nargs=4, type=int, default=[4, 64, 128, 128], metavar=("N", "C", "H", "W"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--build", default=os.path.join(ROOT, os.environ.get("LOOM_BUILD", "build")))
    a = ap.parse_args()
    n, c, h, w = a.size
    subprocess.run(["ninja", "-C", a.build, "-j2", "nn_ops_loom"], check=True,
                   stdout=subprocess.DEVNULL)
    halide_exe, halide_lib = build_halide_side(a.build)
    args = ["spatial_transformer"] + [str(v) for v in (n, c, h, w, a.runs)]
    cn, cc, ch, cw = a.conv_size
    conv_args = ["conv_layer"] + [str(v) for v in (cn, cc, ch, cw, a.runs)]
    env = dict(os.environ, LOOM_NUM_THREADS=str(a.threads), HL_NUM_THREADS=str(a.threads))
    load_before = open("/proc/loadavg").read().split()[:3]
    loom = run_side(os.path.join(a.build, "bench", "nn_ops_loom"), env, args,
                    ["default", "hand", "Li2018"])
    henv = dict(env, LD_LIBRARY_PATH=halide_lib + ":" + env.get("LD_LIBRARY_PATH", ""))
    halide = run_side(halide_exe, henv, args, ["default", "hand", "Li2018"])
    t_fwd, t_bwd, t_total, t_version = torch_times(n, c, h, w, a.runs, a.threads)
    # (No unscheduled conv layer: its backward pass recomputes sums per point at this size.)
    loom_conv = run_side(os.path.join(a.build, "bench", "nn_ops_loom"), env, conv_args,
                         ["hand", "Li2018"])
    halide_conv = run_side(halide_exe, henv, conv_args, ["hand", "Li2018"])
    conv_torch = torch_conv_times(cn, cc, ch, cw, a.runs, a.threads)
    load_after = open("/proc/loadavg").read().split()[:3]

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    host = socket.gethostname().split(".")[0]
    stamp = datetime.datetime.now()
    lines = [
        "# NN operators, forward + backward: Loom, Halide 21, PyTorch CPU (%s, %s)" % (stamp.strftime("%Y-%m-%d %H:%M"), host),
        "",
        "Command: `bench/nn_ops.py --size %d %d %d %d --conv-size %d %d %d %d --runs %d --threads %d`." % (n, c, h, w, cn, cc, ch, cw, a.runs, a.threads),
        "Machine: %s, %d CPUs; load average (1, 5, 15 min) before: %s, after: %s." % (cpu, os.cpu_count(), " ".join(load_before), " ".join(load_after)),
        "Loom commit %s%s. PyTorch %s (eager, autograd). %d threads everywhere." % (commit, " + local changes" if dirty else "", t_version, a.threads),
        "",
        "Spatial transformer sampler (apps/spatial_transformer): affine_grid + grid_sample (bilinear,",
        "zeros, align_corners=False) on N=%d x C=%d x %d x %d float32; backward = the gradients" % (n, c, h, w),
        "with respect to the input and theta given the output's adjoint. Medians of %d runs after" % a.runs,
        "one warm-up; Loom and Halide JIT-compiled (bench/nn_ops.cpp), PyTorch eager.",
        "",
        "| implementation | forward ms | backward ms | total ms | PyTorch / this |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    def row(name, r, torch_total=t_total):
        if isinstance(r, tuple):
            lines.append("| %s | %.1f | %.1f | %.1f | %.2f |" % (name, r[0], r[1], r[2], torch_total / r[2]))
        else:
            lines.append("| %s | %s | | | |" % (name, r.replace("|", "/")))
    lines.append("| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % (t_fwd, t_bwd, t_total))
    row("Loom, unscheduled", loom["default"])
    row("Loom, hand schedule", loom["hand"])
    row("Loom, Li2018 autoscheduler", loom["Li2018"])
    row("Halide 21, unscheduled", halide["default"])
    row("Halide 21, hand schedule", halide["hand"])
    row("Halide 21, Li2018 autoscheduler", halide["Li2018"])
    lines += [
        "",
        "Convolution layer (apps/conv_layer): 3x3, zero padding, bias, ReLU on N=%d images of" % cn,
        "%d x %d pixels, %d channels in and out (float32, channels fastest; PyTorch NCHW);" % (cw, ch, cc),
        "backward = the gradients with respect to the input, the filter and the bias. \"hand\":",
        "the app's forward schedule, the backward pass scheduled by Li2018.",
        "",
        "| implementation | forward ms | backward ms | total ms | PyTorch / this |",
        "| --- | ---: | ---: | ---: | ---: |",
        "| PyTorch eager | %.1f | %.1f | %.1f | 1.00 |" % conv_torch,
    ]
    row("Loom, hand forward + Li2018 backward", loom_conv["hand"], conv_torch[2])
    row("Loom, Li2018 autoscheduler", loom_conv["Li2018"], conv_torch[2])
    row("Halide 21, hand forward + Li2018 backward", halide_conv["hand"], conv_torch[2])
    row("Halide 21, Li2018 autoscheduler", halide_conv["Li2018"], conv_torch[2])
    lines.append("")
    out = os.path.join(ROOT, "bench", "results", "%s-%s-nn-ops.md" % (stamp.strftime("%Y-%m-%d-%H%M%S"), host))
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    print("(written to %s)" % os.path.relpath(out, ROOT))
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "latest.py")], check=True)


if __name__ == "__main__":
    main()
