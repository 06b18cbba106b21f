#!/usr/bin/env python3
"""Reproduce the experiments of Li et al. (utility vs ε in private ERM) with epsilonlab-cli.

What it runs (MATH.md §4.4; the paper's §7):
  1. "table": Adult a9a (all 32,561 training rows), logistic regression and Huber SVM
     (h = 0.1), Λ = 1e-2, δ = 1e-5, Gaussian objective perturbation, 10 repetitions,
     two ε ranges: 20 log-spaced targets on 0.05…1 with measuring points 0.1, 0.25, 0.75,
     and 20 on 1…10 with measuring points 1, 2.5, 7.5. All four estimators. The same runs
     also measure at every grid ε (the paper's second experiment: error vs the choice of ε̄).
  2. "nsweep": error vs n, n ∈ {1000, 2000, 5000, 10000, 20000} seeded random training
     subsets of Adult and KDD Cup 99 (normal vs attack), both losses, both ranges, the same
     three measuring points per range, 3 seeds (seed = subsample and noise).
     KDD is used as is (one-hot + row clipping, no standardisation); a one-seed LR variant
     with --standardise (leaks privacy) is run as a robustness check.
  3. Tables (CSV + Markdown) and PNG figures into --out; raw CLI JSON into --work.

Usage (from the repository root):
  python3 scripts/reproduce_li.py --cli build/release/app/cli/epsilonlab-cli --out docs/li-reproduction

Needs python3 with matplotlib (Debian: apt-get install python3-matplotlib). If the python3
on PATH lacks matplotlib, the script re-runs itself with /usr/bin/python3.
Runs whose JSON already exists in --work (same command) are reused; --force reruns them.
"""

import argparse
import csv
import hashlib
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time


def _ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        system_python = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system_python) and os.path.exists(system_python):
            os.execv(system_python, [system_python] + sys.argv)
        sys.exit("error: matplotlib is missing (Debian: apt-get install -y python3-matplotlib)")


_ensure_matplotlib()
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ESTIMATORS = ["first-order", "second-order", "inverse-eps", "anchored"]
COLOURS = {"first-order": "tab:blue", "second-order": "tab:red", "inverse-eps": "tab:green",
           "anchored": "tab:purple", "constant": "tab:gray"}
LOSSES = {"logistic": "LR", "huber": "Huber SVM"}
RANGES = {
    "low": {"eps": "0.05:1:20", "measure": [0.1, 0.25, 0.75], "label": "0.05 ≤ ε ≤ 1", "nsweep_point": 0.25},
    "high": {"eps": "1:10:20", "measure": [1.0, 2.5, 7.5], "label": "1 ≤ ε ≤ 10", "nsweep_point": 2.5},
}
SIZES = [1000, 2000, 5000, 10000, 20000]
COMMON = ["--mechanism", "objpert-gauss", "--lambda", "0.01", "--delta", "1e-5", "--metric", "train-loss",
          "--estimators", ",".join(ESTIMATORS)]


def log_grid(spec):
    """The CLI's A:B:K grid (K log-spaced points from A to B)."""
    a, b, k = spec.split(":")
    a, b, k = float(a), float(b), int(k)
    return [math.exp(math.log(a) + (math.log(b) - math.log(a)) * i / (k - 1)) for i in range(k)]


def fmt(x, digits=4):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    if x == 0:
        return "0"
    if abs(x) >= 100 or abs(x) < 1e-3:
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


# ----------------------------------------------------------------------------------------
# Running the CLI

class Runner:
    def __init__(self, cli, work, threads, repeats, force, data_dir):
        self.cli = os.path.abspath(cli)
        self.work = os.path.abspath(work)
        self.threads = threads
        self.repeats = repeats
        self.force = force
        self.data_dir = os.path.abspath(data_dir)
        self.records = []
        os.makedirs(self.work, exist_ok=True)

    def dataset_args(self, dataset):
        if dataset == "adult":
            return ["--data", os.path.join(self.data_dir, "adult", "a9a_train.libsvm")]
        if dataset in ("kdd", "kdd-std"):
            args = ["--data", os.path.join(self.data_dir, "kddcup99", "kddcup99_10percent.csv.gz"),
                    "--label", "label", "--positive", "normal"]
            return args + (["--standardise"] if dataset == "kdd-std" else [])
        raise ValueError(dataset)

    def run(self, name, dataset, loss, eps, measure, seed, subsample=None):
        out = os.path.join(self.work, name + ".json")
        args = [self.cli, "utility"] + self.dataset_args(dataset) + COMMON + [
            "--loss", loss, "--eps", eps, "--measure-at", ",".join(repr(m) for m in measure),
            "--repeats", str(self.repeats), "--seed", str(seed), "--threads", str(self.threads)]
        if loss == "huber":
            args += ["--huber-width", "0.1"]
        if subsample:
            args += ["--subsample", str(subsample)]
        args += ["--out", out]
        cmd_file = out + ".cmd"
        command = shlex.join(args)
        cached = (not self.force and os.path.exists(out) and os.path.exists(cmd_file)
                  and open(cmd_file).read().strip() == command)
        wall = None
        if not cached:
            print(f"[run] {name}", flush=True)
            start = time.monotonic()
            proc = subprocess.run(args, capture_output=True, text=True)
            wall = time.monotonic() - start
            if proc.returncode != 0:
                sys.exit(f"error: {name} failed ({proc.returncode}):\n{command}\n{proc.stderr}")
            with open(cmd_file, "w") as f:
                f.write(command + "\n")
            with open(out + ".wall", "w") as f:
                f.write(f"{wall:.3f}\n")
        else:
            print(f"[cached] {name}", flush=True)
            if os.path.exists(out + ".wall"):
                wall = float(open(out + ".wall").read())
        with open(out) as f:
            result = json.load(f)
        check_errors(result, name)
        self.records.append({"name": name, "dataset": dataset, "loss": loss, "eps": eps, "measure_at": measure,
                             "seed": seed, "subsample": subsample, "command": command, "wall_seconds": wall,
                             "cached": cached, "cli_timings": result.get("timings")})
        return result


def check_errors(result, name):
    """Recompute the CLI's mean absolute errors from its curves (a consistency check)."""
    measured = result["measured"]["mean"]
    errors = {(e["measure_at"], e["estimator"]): e["mean_abs_error"] for e in result["errors"]}
    for est in result["estimates"]:
        mine = sum(abs(v - m) for v, m in zip(est["values"], measured)) / len(measured)
        theirs = errors[(est["measure_at"], est["estimator"])]
        if not (abs(mine - theirs) <= 1e-9 * max(1.0, abs(theirs))):
            sys.exit(f"error: {name}: mean_abs_error mismatch at {est['measure_at']} {est['estimator']}: "
                     f"{theirs} vs recomputed {mine}")


# ----------------------------------------------------------------------------------------
# Error summaries from one run

def cell_stats(result, measure_at):
    """Per-estimator error statistics for one measuring point of one run."""
    grid, measured = result["grid"], result["measured"]["mean"]
    stats = {}
    first = None
    for est in result["estimates"]:
        if abs(est["measure_at"] - measure_at) > 1e-12:
            continue
        first = est
        v = est["values"]
        err = [abs(a - b) for a, b in zip(v, measured)]
        below = [e for g, e in zip(grid, err) if g < measure_at]
        above = [e for g, e in zip(grid, err) if g >= measure_at]
        near = [e for g, e in zip(grid, err) if measure_at / 2 <= g <= measure_at * 2]
        stats[est["estimator"]] = {
            "mae": sum(err) / len(err),
            "mae_below": sum(below) / len(below) if below else float("nan"),
            "mae_above": sum(above) / len(above) if above else float("nan"),
            "mae_near": sum(near) / len(near),   # targets within a factor 2 of ε̄
            "max_err": max(err),
            "n_negative": sum(1 for x in v if x < 0),   # a loss cannot be negative
            "min_value": min(v),
            "max_value": max(v),
        }
    if first is None:
        raise KeyError(measure_at)
    # Zeroth-order baseline: predict F(ε̄) at every target (needs no derivative at all).
    const = first["measured_value"]
    err = [abs(const - b) for b in measured]
    near = [e for g, e in zip(grid, err) if measure_at / 2 <= g <= measure_at * 2]
    stats["constant"] = {"mae": sum(err) / len(err), "max_err": max(err), "n_negative": 0,
                         "mae_below": float("nan"), "mae_above": float("nan"), "mae_near": sum(near) / len(near)}
    # Anchored diagnostic: the slope dF/du at u = 1/ε = 0 implied by the anchored curve (read back
    # from its value at the largest grid ε), against the chord of the measured curve from the
    # non-private value to the largest grid ε.
    stats["_anchor_slope"] = float("nan")
    for est in result["estimates"]:
        if est["estimator"] == "anchored" and abs(est["measure_at"] - measure_at) <= 1e-12 and grid[-1] > measure_at:
            u1 = 1.0 / measure_at
            t = (1.0 / grid[-1]) / u1
            h00, h10 = 2 * t ** 3 - 3 * t ** 2 + 1, t ** 3 - 2 * t ** 2 + t
            h01, h11 = -2 * t ** 3 + 3 * t ** 2, t ** 3 - t ** 2
            m1 = -measure_at ** 2 * est["derivative"] * u1
            m0 = (est["values"][-1] - h00 * result["nonprivate"] - h01 * est["measured_value"] - h11 * m1) / h10
            stats["_anchor_slope"] = m0 / u1
    stats["_chord_slope"] = (measured[-1] - result["nonprivate"]) * grid[-1]
    stats["_measured_value"] = const
    stats["_derivative"] = first["derivative"]
    return stats


def winner(stats):
    return min(ESTIMATORS, key=lambda e: stats[e]["mae"])


def anchor_theory(a9a_path, Lam=0.01, zeta=1.0, lam=0.25):
    """Slope dE[F]/du at u = 1/ε = 0 for Adult LR, computed independently with numpy (dense
    123-dim problem): the ridge (mean-path) term the CLI's anchored estimator uses, and the
    noise term it leaves out. s(ε)² = ζ²(8 log(2/δ) + 4ε)/ε² → 4ζ²u as u → 0, so the noise moves θ
    by O(√u) and E[F] by ½E[δθᵀ∇²F δθ] = (2ζ²u/n²) tr(W⁻¹∇²F W⁻¹), the same order as the ridge term."""
    import numpy as np  # a dependency of matplotlib
    p = 123
    rows, ys = [], []
    with open(a9a_path) as f:
        for line in f:
            t = line.split()
            ys.append(float(t[0]))
            x = np.zeros(p)
            for kv in t[1:]:
                k, v = kv.split(":")
                x[int(k) - 1] = float(v)
            rows.append(x)
    X, y = np.array(rows), np.array(ys)
    n = len(y)
    X = X / np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    sig = lambda z: 0.5 * (1 + np.tanh(z / 2))  # noqa: E731
    th = np.zeros(p)
    for _ in range(60):
        m = y * (X @ th)
        g = X.T @ (-sig(-m) * y) / n + Lam / n * th
        if np.linalg.norm(g) < 1e-13:
            break
        H = (X.T * (sig(m) * sig(-m))) @ X / n
        th -= np.linalg.solve(H + Lam / n * np.eye(p), g)
    m = y * (X @ th)
    H = (X.T * (sig(m) * sig(-m))) @ X / n
    Winv = np.linalg.inv(H + Lam / n * np.eye(p))
    gF = X.T @ (-sig(-m) * y) / n
    ridge = float(gF @ (Winv @ (-(2 * lam / n) * th)))
    noise = float(2 * zeta ** 2 / n ** 2 * np.trace(Winv @ H @ Winv))
    return {"F_np": float(np.mean(np.logaddexp(0, -m))), "ridge_slope": ridge, "noise_slope": noise}


# ----------------------------------------------------------------------------------------
# Figures

def plot_curves(result, title, path, measure_points):
    grid = result["grid"]
    mean = result["measured"]["mean"]
    sd = result["measured"]["std"]
    lo = [m - s for m, s in zip(mean, sd)]
    hi = [m + s for m, s in zip(mean, sd)]
    npv = result["nonprivate"]
    span = max(hi) - min(min(lo), npv)
    ylim = (min(min(lo), npv) - 0.25 * span, max(hi) + 0.25 * span)
    fig, axes = plt.subplots(1, len(measure_points), figsize=(5.0 * len(measure_points), 4.4), sharey=True)
    for ax, mp in zip(axes, measure_points):
        ax.fill_between(grid, lo, hi, color="orange", alpha=0.25, label="measured ± 1 sd")
        ax.plot(grid, mean, color="darkorange", lw=2.2, marker="o", ms=3, label="measured mean")
        ax.axhline(npv, color="black", lw=0.8, ls=":", label="non-private")
        off = []
        for est in result["estimates"]:
            if abs(est["measure_at"] - mp) > 1e-12:
                continue
            name = est["estimator"]
            ax.plot(grid, est["values"], color=COLOURS[name], lw=1.4, ls="--", label=name)
            vmin, vmax = min(est["values"]), max(est["values"])
            if vmin < ylim[0] or vmax > ylim[1]:
                off.append(f"{name}: {fmt(vmin, 3)} … {fmt(vmax, 3)}")
            mv = est["measured_value"]
        ax.axvline(mp, color="gray", lw=0.8, ls="-.")
        ax.plot([mp], [mv], marker="*", ms=12, color="black", zorder=5, label="measuring fit F(ε̄)")
        ax.set_xscale("log")
        ax.set_ylim(*ylim)
        ax.set_xlabel("ε (target ε̂)")
        ax.set_title(f"measuring point ε̄ = {mp:g}")
        ax.grid(True, which="both", alpha=0.3)
        if off:
            ax.text(0.02, 0.02, "off-scale (clipped):\n" + "\n".join(off), transform=ax.transAxes,
                    fontsize=7.5, va="bottom", ha="left",
                    bbox=dict(boxstyle="round", fc="white", ec="0.7", alpha=0.9))
    axes[0].set_ylabel("training loss F(θ_ε)")
    axes[-1].legend(fontsize=8, loc="upper right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_measure_sweep(rows, title, path):
    """MAE vs measuring point ε̄ (every grid ε as ε̄), one panel per range."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, rng in zip(axes, ["low", "high"]):
        sub = [r for r in rows if r["range"] == rng]
        for name in ESTIMATORS + ["constant"]:
            pts = sorted((r["measure_at"], r[name]) for r in sub)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, color=COLOURS[name],
                    ls="-" if name != "constant" else ":", label=name if name != "constant" else "constant F(ε̄)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("measuring point ε̄")
        ax.set_ylabel("mean |estimate − measured| over the range")
        ax.set_title(RANGES[rng]["label"])
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_error_vs_n(nrows, dataset, title, path, losses):
    fig, axes = plt.subplots(len(losses), 2, figsize=(11, 4.2 * len(losses)), squeeze=False)
    for i, loss in enumerate(losses):
        for j, rng in enumerate(["low", "high"]):
            ax = axes[i][j]
            mp = RANGES[rng]["nsweep_point"]
            for name in ESTIMATORS + ["constant"]:
                xs, ys, ylo, yhi = [], [], [], []
                for n in SIZES:
                    vals = [r["mae"] for r in nrows if r["dataset"] == dataset and r["loss"] == loss
                            and r["range"] == rng and r["measure_at"] == mp and r["n"] == n and r["estimator"] == name]
                    if not vals:
                        continue
                    m = sum(vals) / len(vals)
                    xs.append(n)
                    ys.append(m)
                    ylo.append(m - min(vals))
                    yhi.append(max(vals) - m)
                if xs:
                    ax.errorbar(xs, ys, yerr=[ylo, yhi], marker="o", ms=4, capsize=3, color=COLOURS[name],
                                ls="-" if name != "constant" else ":",
                                label=name if name != "constant" else "constant F(ε̄)")
            # 1/n reference through the first-order point at n = 1000
            ref = [r["mae"] for r in nrows if r["dataset"] == dataset and r["loss"] == loss and r["range"] == rng
                   and r["measure_at"] == mp and r["n"] == SIZES[0] and r["estimator"] == "first-order"]
            if ref:
                r0 = sum(ref) / len(ref)
                ax.plot(SIZES, [r0 * SIZES[0] / n for n in SIZES], color="black", lw=0.8, ls="--", label="∝ 1/n")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("training rows n")
            ax.set_ylabel("mean |estimate − measured|")
            ax.set_title(f"{LOSSES[loss]}, {RANGES[rng]['label']}, ε̄ = {mp:g}")
            ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----------------------------------------------------------------------------------------
# Tables

def write_csv(path, rows, fields):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def mae_row_cells(stats):
    best = winner(stats)
    cells = []
    for name in ESTIMATORS:
        s = stats[name]
        c = fmt(s["mae"])
        if name == best:
            c = f"**{c}**"
        if s["mae"] > stats["constant"]["mae"]:
            c += " ✗"
        if s["n_negative"]:
            c += f" ({s['n_negative']} neg)"
        cells.append(c)
    cells.append(fmt(stats["constant"]["mae"]))
    return cells


def slope(ns, ys):
    """Least-squares slope of log y on log n."""
    xs = [math.log(n) for n in ns]
    ls = [math.log(y) for y in ys]
    mx, my = sum(xs) / len(xs), sum(ls) / len(ls)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ls)) / sum((x - mx) ** 2 for x in xs)


# ----------------------------------------------------------------------------------------

def machine_info(cli):
    info = {"python": sys.version.split()[0], "platform": platform.platform(), "cores": os.cpu_count()}
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        info["cli_version"] = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.strip()
        info["cli_sha256"] = hashlib.sha256(open(cli, "rb").read()).hexdigest()
    except OSError:
        pass
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        info["repo_head_when_summarised"] = head
        info["repo_tracked_files_modified_when_summarised"] = bool(dirty)
    except OSError:
        pass
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="path to epsilonlab-cli")
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "li-reproduction"),
                    help="figures, tables and small summaries (default docs/li-reproduction)")
    ap.add_argument("--work", default=os.path.join(REPO, "build-li-reproduction"),
                    help="raw CLI JSON (default build-li-reproduction/, git-ignored)")
    ap.add_argument("--data-dir", default=os.path.join(os.path.dirname(REPO), "shared", "datasets"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--seeds", default="1,2,3", help="seeds of the error-vs-n runs (subsample and noise)")
    ap.add_argument("--table-seed", type=int, default=1)
    ap.add_argument("--skip-kdd-huber", action="store_true", help="error vs n on KDD: LR only")
    ap.add_argument("--skip-standardise-check", action="store_true")
    ap.add_argument("--force", action="store_true", help="rerun even if the JSON exists")
    args = ap.parse_args()

    seeds = [int(s) for s in args.seeds.split(",") if s]
    os.makedirs(args.out, exist_ok=True)
    runner = Runner(args.cli, args.work, args.threads, args.repeats, args.force, args.data_dir)
    t0 = time.monotonic()

    # 1. Table 2 on the full Adult training set, plus every grid ε as a measuring point.
    table_runs = {}
    for loss in LOSSES:
        for rng, spec in RANGES.items():
            measure = spec["measure"] + [m for m in log_grid(spec["eps"])
                                         if all(abs(m - p) > 1e-9 for p in spec["measure"])]
            table_runs[(loss, rng)] = runner.run(f"table_adult_{loss}_{rng}", "adult", loss, spec["eps"], measure,
                                                 args.table_seed)

    # 2. Error vs n.
    nsweep = {}
    datasets = [("adult", list(LOSSES), seeds),
                ("kdd", ["logistic"] if args.skip_kdd_huber else list(LOSSES), seeds)]
    if not args.skip_standardise_check:
        datasets.append(("kdd-std", ["logistic"], seeds[:1]))
    for dataset, losses, ds_seeds in datasets:
        for loss in losses:
            for rng, spec in RANGES.items():
                for n in SIZES:
                    for seed in ds_seeds:
                        nsweep[(dataset, loss, rng, n, seed)] = runner.run(
                            f"nsweep_{dataset}_{loss}_{rng}_n{n}_s{seed}", dataset, loss, spec["eps"],
                            spec["measure"], seed, subsample=n)
    # 3. Anchored estimator check: the measured E[F] near ε = ∞ (Adult LR).
    anchor_run = runner.run("anchor_check_adult_logistic", "adult", "logistic", "10,100,1000,10000", [10.0],
                            args.table_seed)
    compute_wall = time.monotonic() - t0

    # ---- Table 2 (Adult, full) ----
    table_rows, md_rows, sweep_rows = [], [], []
    wins = {e: 0 for e in ESTIMATORS}
    cells = 0
    for (loss, rng), res in table_runs.items():
        for mp in RANGES[rng]["measure"]:
            st = cell_stats(res, mp)
            cells += 1
            wins[winner(st)] += 1
            for name in ESTIMATORS + ["constant"]:
                s = st[name]
                table_rows.append({"dataset": "adult", "n": res["data"]["train"]["rows"], "loss": loss, "range": rng,
                                   "measure_at": mp, "estimator": name, "mae": s["mae"],
                                   "mae_targets_below_measure": s["mae_below"],
                                   "mae_targets_at_or_above_measure": s["mae_above"],
                                   "mae_targets_within_factor2": s["mae_near"], "max_abs_err": s["max_err"],
                                   "negative_estimates": s["n_negative"],
                                   "measured_value": st["_measured_value"], "derivative": st["_derivative"]})
            md_rows.append([LOSSES[loss], RANGES[rng]["label"], f"{mp:g}"] + mae_row_cells(st))
        for mp in sorted({e["measure_at"] for e in res["estimates"]}):
            st = cell_stats(res, mp)
            sweep_rows.append(dict({"loss": loss, "range": rng, "measure_at": mp},
                                   **{name: st[name]["mae"] for name in ESTIMATORS + ["constant"]}))
    write_csv(os.path.join(args.out, "table2_adult.csv"), table_rows, list(table_rows[0].keys()))
    write_csv(os.path.join(args.out, "mae_vs_measuring_point_adult.csv"), sweep_rows, list(sweep_rows[0].keys()))

    # Below/above split (where the estimators break down), the local error, summary counts.
    side_rows, near_rows, anchor_rows = [], [], {}
    worse_than_const = {e: 0 for e in ESTIMATORS}
    ratios = []   # first-order MAE / inverse-eps MAE per cell
    near_wins = {e: 0 for e in ESTIMATORS}
    for (loss, rng), res in table_runs.items():
        for mp in RANGES[rng]["measure"]:
            st = cell_stats(res, mp)
            side_rows.append([LOSSES[loss], RANGES[rng]["label"], f"{mp:g}"] + [
                f"{fmt(st[n]['mae_below'], 3)} / {fmt(st[n]['mae_above'], 3)}" for n in ESTIMATORS])
            nbest = min(ESTIMATORS, key=lambda e: st[e]["mae_near"])
            near_wins[nbest] += 1
            near_rows.append([LOSSES[loss], RANGES[rng]["label"], f"{mp:g}"] + [
                (f"**{fmt(st[n]['mae_near'])}**" if n == nbest else fmt(st[n]["mae_near"])) for n in ESTIMATORS]
                + [fmt(st["constant"]["mae_near"])])
            for e in ESTIMATORS:
                worse_than_const[e] += st[e]["mae"] > st["constant"]["mae"]
            ratios.append(st["first-order"]["mae"] / st["inverse-eps"]["mae"])
            if math.isfinite(st["_anchor_slope"]):
                anchor_rows[("adult (full)", loss)] = dict(anchor_rows.get(("adult (full)", loss), {}),
                                                           slope=st["_anchor_slope"], **{rng: st["_chord_slope"]})
    ratios.sort()

    # ---- Error vs n ----
    nrows = []
    for (dataset, loss, rng, n, seed), res in nsweep.items():
        for mp in RANGES[rng]["measure"]:
            st = cell_stats(res, mp)
            for name in ESTIMATORS + ["constant"]:
                nrows.append({"dataset": dataset, "loss": loss, "range": rng, "measure_at": mp, "n": n, "seed": seed,
                              "estimator": name, "mae": st[name]["mae"], "max_abs_err": st[name]["max_err"],
                              "negative_estimates": st[name]["n_negative"],
                              "nonprivate": res["nonprivate"], "measured_at_low_end": res["measured"]["mean"][0],
                              "measured_at_high_end": res["measured"]["mean"][-1]})
    write_csv(os.path.join(args.out, "error_vs_n.csv"), nrows, list(nrows[0].keys()))

    def mean_over_seeds(dataset, loss, rng, mp, n, name, key="mae"):
        vals = [r[key] for r in nrows if r["dataset"] == dataset and r["loss"] == loss and r["range"] == rng
                and r["measure_at"] == mp and r["n"] == n and r["estimator"] == name]
        return (sum(vals) / len(vals), len(vals)) if vals else (float("nan"), 0)

    present = sorted({(r["dataset"], r["loss"]) for r in nrows}, key=lambda t: (t[0], t[1]))
    n_md, slope_rows = [], []
    nwins = {e: 0 for e in ESTIMATORS}
    ncells = 0
    for dataset, loss in present:
        for rng in RANGES:
            for mp in RANGES[rng]["measure"]:
                for n in SIZES:
                    vals = {name: mean_over_seeds(dataset, loss, rng, mp, n, name)[0] for name in ESTIMATORS}
                    if all(math.isnan(v) for v in vals.values()):
                        continue
                    ncells += 1
                    nwins[min(ESTIMATORS, key=lambda e: vals[e])] += 1
                mp_main = RANGES[rng]["nsweep_point"]
                if mp != mp_main:
                    continue
                for n in SIZES:
                    vals = {name: mean_over_seeds(dataset, loss, rng, mp, n, name)[0] for name in ESTIMATORS + ["constant"]}
                    best = min(ESTIMATORS, key=lambda e: vals[e])
                    row = [dataset, LOSSES[loss], RANGES[rng]["label"], f"{mp:g}", str(n)]
                    row += [(f"**{fmt(vals[e])}**" if e == best else fmt(vals[e])) for e in ESTIMATORS]
                    row.append(fmt(vals["constant"]))
                    row.append(str(mean_over_seeds(dataset, loss, rng, mp, n, "first-order")[1]))
                    n_md.append(row)
            for mp in RANGES[rng]["measure"]:
                srow = {"dataset": dataset, "loss": loss, "range": rng, "measure_at": mp}
                for name in ESTIMATORS + ["constant"]:
                    ys = [mean_over_seeds(dataset, loss, rng, mp, n, name)[0] for n in SIZES]
                    srow[name] = slope(SIZES, ys) if all(y > 0 and math.isfinite(y) for y in ys) else float("nan")
                slope_rows.append(srow)
    write_csv(os.path.join(args.out, "error_vs_n_slopes.csv"), slope_rows, list(slope_rows[0].keys()))

    # The paper's own setting for its curves (10,000 random rows): every measuring point.
    n10_md = []
    nworse = {e: 0 for e in ESTIMATORS}
    for dataset, loss in present:
        for rng in RANGES:
            for mp in RANGES[rng]["measure"]:
                vals = {e: mean_over_seeds(dataset, loss, rng, mp, 10000, e)[0] for e in ESTIMATORS + ["constant"]}
                best = min(ESTIMATORS, key=lambda e: vals[e])
                n10_md.append([dataset, LOSSES[loss], RANGES[rng]["label"], f"{mp:g}"] +
                              [(f"**{fmt(vals[e])}**" if e == best else fmt(vals[e])) +
                               (" ✗" if vals[e] > vals["constant"] else "") for e in ESTIMATORS] +
                              [fmt(vals["constant"]), str(mean_over_seeds(dataset, loss, rng, mp, 10000, "constant")[1])])
            for mp in RANGES[rng]["measure"]:
                for n in SIZES:
                    vals = {e: mean_over_seeds(dataset, loss, rng, mp, n, e)[0] for e in ESTIMATORS + ["constant"]}
                    for e in ESTIMATORS:
                        nworse[e] += vals[e] > vals["constant"]
    for dataset, loss in present:
        for rng in RANGES:
            key = (dataset, loss, rng, 10000, seeds[0])
            if key in nsweep:
                for mp in RANGES[rng]["measure"]:
                    st = cell_stats(nsweep[key], mp)
                    if math.isfinite(st["_anchor_slope"]):
                        k = (f"{dataset} (n = 10000, seed {seeds[0]})", loss)
                        anchor_rows[k] = dict(anchor_rows.get(k, {}), slope=st["_anchor_slope"],
                                              **{rng: st["_chord_slope"]})

    # ---- Figures ----
    figs = []
    for (loss, rng), res in table_runs.items():
        p = f"curves_adult_{loss}_{rng}.png"
        plot_curves(res, f"Adult a9a (n = {res['data']['train']['rows']}), {LOSSES[loss]}, {RANGES[rng]['label']}: "
                         f"measured vs estimated training loss ({args.repeats} repetitions, seed {args.table_seed})",
                    os.path.join(args.out, p), RANGES[rng]["measure"])
        figs.append(p)
    for dataset, loss in present:
        if dataset != "kdd":
            continue
        for rng in RANGES:
            key = (dataset, loss, rng, 10000, seeds[0])
            if key in nsweep:
                p = f"curves_kdd_n10000_{loss}_{rng}.png"
                plot_curves(nsweep[key], f"KDD Cup 99 (normal vs attack, n = 10000 subsample, seed {seeds[0]}), "
                                         f"{LOSSES[loss]}, {RANGES[rng]['label']}",
                            os.path.join(args.out, p), RANGES[rng]["measure"])
                figs.append(p)
    for loss in LOSSES:
        p = f"mae_vs_measuring_point_adult_{loss}.png"
        plot_measure_sweep([r for r in sweep_rows if r["loss"] == loss],
                           f"Adult a9a, {LOSSES[loss]}: error of each estimator vs the measuring point "
                           f"(every grid ε used as ε̄)", os.path.join(args.out, p))
        figs.append(p)
    for dataset in sorted({d for d, _ in present}):
        losses = [l for l in LOSSES if (dataset, l) in present]
        name = {"adult": "Adult a9a", "kdd": "KDD Cup 99 (clip only)",
                "kdd-std": "KDD Cup 99 (--standardise, leaks)"}[dataset]
        nseeds = len({r["seed"] for r in nrows if r["dataset"] == dataset})
        p = f"error_vs_n_{dataset}.png"
        plot_error_vs_n(nrows, dataset, f"{name}: error vs training-set size (mean over {nseeds} seed(s), "
                                        f"bars min–max)", os.path.join(args.out, p), losses)
        figs.append(p)

    # ---- Small curve summary (to redraw figures without the raw JSON) ----
    summary = {}
    for (loss, rng), res in table_runs.items():
        summary[f"adult_{loss}_{rng}"] = {
            "rows": res["data"]["train"]["rows"], "grid": res["grid"], "measured": res["measured"],
            "nonprivate": res["nonprivate"],
            "estimates": [e for e in res["estimates"] if any(abs(e["measure_at"] - m) < 1e-12 for m in RANGES[rng]["measure"])]}
    with open(os.path.join(args.out, "curves_adult.json"), "w") as f:
        json.dump(summary, f, indent=1)

    # ---- Anchored slope check ----
    theory = anchor_theory(os.path.join(args.data_dir, "adult", "a9a_train.libsvm"))
    implied = cell_stats(anchor_run, 10.0)["_anchor_slope"]
    anchor_check_rows = []
    for g, mval, sd in zip(anchor_run["grid"], anchor_run["measured"]["mean"], anchor_run["measured"]["std"]):
        anchor_check_rows.append([f"{g:g}", f"{mval:.8f}", f"{(mval - anchor_run['nonprivate']) * g:.4f} ± "
                                  f"{sd / math.sqrt(args.repeats) * g:.4f}"])
    with open(os.path.join(args.out, "anchor_check.json"), "w") as f:
        json.dump({"cli_nonprivate": anchor_run["nonprivate"], "grid": anchor_run["grid"],
                   "measured": anchor_run["measured"], "anchored_implied_slope": implied, "numpy": theory}, f, indent=1)

    # ---- Markdown tables ----
    header = ["loss", "range", "ε̄"] + ESTIMATORS + ["constant F(ε̄)"]
    lines = ["# Li et al. reproduction: generated tables", "",
             "Generated by `scripts/reproduce_li.py`; numbers are mean |estimate − measured mean| over the "
             "20 target ε of the range (the CLI's `errors[].mean_abs_error`). **bold** = smallest of the four "
             "estimators; ✗ = worse than the constant prediction F(ε̄) (no derivative at all); "
             "(k neg) = k of the 20 estimated losses are negative (impossible for a loss).", "",
             f"## Table 2: Adult a9a, all {table_runs[('logistic', 'low')]['data']['train']['rows']} training rows, "
             f"{args.repeats} repetitions, seed {args.table_seed}", "", md_table(header, md_rows), "",
             f"Smallest error per cell: " + ", ".join(f"{e} {wins[e]}/{cells}" for e in ESTIMATORS) + ". "
             f"Worse than the constant F(ε̄): " + ", ".join(f"{e} {worse_than_const[e]}/{cells}" for e in ESTIMATORS)
             + f". first-order / inverse-eps error ratio: median {ratios[len(ratios) // 2]:.1f}, "
               f"range {ratios[0]:.1f} … {ratios[-1]:.1f}.", "",
             "### Same cells split by side: MAE over targets ε̂ < ε̄ / ε̂ ≥ ε̄", "",
             md_table(["loss", "range", "ε̄"] + ESTIMATORS, side_rows), "",
             "### Same cells, only the targets within a factor 2 of ε̄ (ε̄/2 ≤ ε̂ ≤ 2ε̄)", "",
             md_table(["loss", "range", "ε̄"] + ESTIMATORS + ["constant F(ε̄)"], near_rows), "",
             "Smallest local error: " + ", ".join(f"{e} {near_wins[e]}/{cells}" for e in ESTIMATORS), "",
             "## The paper's setting: 10,000 random rows, every measuring point (mean over seeds)", "",
             md_table(["data", "loss", "range", "ε̄"] + ESTIMATORS + ["constant", "seeds"], n10_md), "",
             "## Anchored estimator: slope dF/du at u = 1/ε = 0 it uses vs the measured chord", "",
             "Implied slope read back from the anchored curve at the largest grid ε (the same for every ε̄ "
             "of a run); chord = (F(ε_max) − F_np)·ε_max from the measured mean, for ε_max = 1 and 10. A slope far "
             "from the chord makes the cubic miss even between ε̄ and ∞.", "",
             md_table(["data", "loss", "anchor dF/du at u = 0", "chord from ε = 1", "chord from ε = 10"],
                      [[k[0], LOSSES[k[1]], fmt(v["slope"], 3), fmt(v.get("low", float("nan")), 3),
                        fmt(v.get("high", float("nan")), 3)] for k, v in anchor_rows.items()]), "",
             "### Check: the measured slope of E[F] at u = 1/ε → 0 (Adult LR, full data)", "",
             md_table(["ε", "measured mean F", "chord (F − F_np)·ε ± sd/√R·ε"], anchor_check_rows), "",
             f"Non-private F_np: CLI {anchor_run['nonprivate']:.10f}, numpy {theory['F_np']:.10f}. Slope used by the "
             f"anchored estimator (read back from its curve): {implied:.5f}; numpy ridge (mean-path) term "
             f"{theory['ridge_slope']:.5f}; numpy noise term (2ζ²/n²)·tr(W⁻¹∇²F W⁻¹) {theory['noise_slope']:.5f}; "
             f"ridge + noise {theory['ridge_slope'] + theory['noise_slope']:.5f}.", "",
             "## Error vs n (mean over seeds) at the main measuring point of each range", "",
             md_table(["data", "loss", "range", "ε̄", "n"] + ESTIMATORS + ["constant", "seeds"], n_md), "",
             f"Smallest error over all error-vs-n cells (every dataset, loss, range, measuring point, n; mean over "
             f"seeds): " + ", ".join(f"{e} {nwins[e]}/{ncells}" for e in ESTIMATORS) + ". Worse than the constant "
             f"F(ε̄): " + ", ".join(f"{e} {nworse[e]}/{ncells}" for e in ESTIMATORS) + ".", "",
             "## Log-log slope of error vs n (least squares over n = 1000…20000; Theorem 4 predicts −1)", "",
             md_table(["data", "loss", "range", "ε̄"] + ESTIMATORS + ["constant"],
                      [[r["dataset"], LOSSES[r["loss"]], RANGES[r["range"]]["label"], f"{r['measure_at']:g}"] +
                       [f"{r[e]:.2f}" if math.isfinite(r[e]) else "—" for e in ESTIMATORS + ["constant"]]
                       for r in slope_rows]), ""]
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write("\n".join(lines))

    # ---- Manifest ----
    fresh = [r["wall_seconds"] for r in runner.records if not r["cached"] and r["wall_seconds"]]
    allwall = [r["wall_seconds"] for r in runner.records if r["wall_seconds"]]
    manifest = {"invocation": shlex.join([sys.executable] + sys.argv), "machine": machine_info(runner.cli),
                "runs": len(runner.records), "fresh_runs": len(fresh),
                "cli_wall_seconds_total_all_runs": sum(allwall), "cli_wall_seconds_this_invocation": sum(fresh),
                "script_wall_seconds_this_invocation": compute_wall,
                "figures": figs, "records": runner.records}
    with open(os.path.join(args.out, "runs.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(runner.records)} runs ({len(fresh)} fresh, {sum(fresh):.0f} s); CLI wall total over all runs "
          f"{sum(allwall):.0f} s; outputs in {args.out}")


if __name__ == "__main__":
    main()
