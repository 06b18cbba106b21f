#!/usr/bin/env python3
"""Adult: test accuracy against ε for four ways to prepare the numeric columns (issue 13).

Runs epsilonlab-cli utility on ../shared/datasets/adult (train CSV, test CSV encoded with the
training schema, fnlwgt ignored) with objective perturbation (ε, δ = 1e-5), logistic loss, the
intercept, 10 repetitions per ε, for
  - clipping only: rows clipped to ‖x‖₂ ≤ 1 (the default without bounds);
  - public bounds: docs/bounds/adult.csv (ranges from the survey's definition), then clipping;
  - private bounds: ranges estimated with ε_b = 0.5 (sparse vector technique), then clipping;
    plotted at the total ε = ε + ε_b (basic composition);
  - standardising: columns to mean 0, sd 1 with the training data's own statistics (leaks:
    the reported ε does not hold).
Writes OUT_DIR/adult_bounds.csv, adult_bounds.json (every run's settings and numbers) and,
with matplotlib (Debian: python3-matplotlib), adult_bounds.png.

Usage: /usr/bin/python3 scripts/adult_bounds.py CLI OUT_DIR [LAMBDA]
"""

import csv
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ADULT = os.path.join(ROOT, "..", "shared", "datasets", "adult")
PIPELINES = [
    ("clip", "clipping only", []),
    ("public", "public bounds", ["--bounds", os.path.join(ROOT, "docs", "bounds", "adult.csv")]),
    ("private", "private bounds (ε_b = 0.5)", ["--private-bounds", "0.5"]),
    ("standardise", "standardising (leaks)", ["--standardise"]),
]
PREP_EPS = {"private": 0.5}


def run(cli, extra, lam):
    cmd = [cli, "utility", "--data", os.path.join(ADULT, "adult_train.csv"), "--label", "income",
           "--test", os.path.join(ADULT, "adult_test.csv"), "--ignore", "fnlwgt", "--metric", "test-acc",
           "--mechanism", "objpert-gauss", "--lambda", str(lam), "--delta", "1e-5",
           "--eps", "0.05:10:12", "--repeats", "10", "--seed", "1", "--estimators", "inverse-eps"] + extra
    t0 = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.time() - t0, cmd


def main():
    cli, out_dir = sys.argv[1], sys.argv[2]
    lam = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    os.makedirs(out_dir, exist_ok=True)
    rows, runs = [], {}
    for key, title, extra in PIPELINES:
        j, seconds, cmd = run(cli, extra, lam)
        runs[key] = {"title": title, "command": [os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd],
                     "seconds": round(seconds, 2), "nonprivate": j.get("nonprivate"),
                     "grid": j["grid"], "mean": j["measured"]["mean"], "std": j["measured"]["std"],
                     "guarantee_at_max": j["mechanism"]["guarantee"]["epsilon"]}
        for e, m, s in zip(j["grid"], j["measured"]["mean"], j["measured"]["std"]):
            rows.append({"pipeline": key, "eps_model": e, "eps_total": e + PREP_EPS.get(key, 0.0),
                         "test_accuracy_mean": m, "test_accuracy_sd": s})
        print(f"{title}: {seconds:.1f} s, non-private {runs[key]['nonprivate']}", file=sys.stderr)
    with open(os.path.join(out_dir, "adult_bounds.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out_dir, "adult_bounds.json"), "w") as f:
        json.dump({"lambda": lam, "repeats": 10, "runs": runs}, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no PNG", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7.5, 4.6), dpi=120)
    colours = {"clip": "tab:gray", "public": "tab:blue", "private": "tab:green", "standardise": "tab:red"}
    for key, title, _ in PIPELINES:
        pts = [r for r in rows if r["pipeline"] == key]
        x = [r["eps_total"] for r in pts]
        m = [r["test_accuracy_mean"] for r in pts]
        s = [r["test_accuracy_sd"] for r in pts]
        ax.plot(x, m, marker="o", color=colours[key], label=title, ms=3.5, lw=1.6,
                ls="--" if key == "standardise" else "-")
        ax.fill_between(x, [a - b for a, b in zip(m, s)], [min(1.0, a + b) for a, b in zip(m, s)],
                        color=colours[key], alpha=0.15, lw=0)
    ax.axhline(12435 / 16281, color="black", lw=0.8, ls=":", label="always ≤50K (76.4 %)")
    ax.set_xscale("log")
    ax.set_xlabel("ε (private bounds: ε + ε_b)")
    ax.set_ylabel("test accuracy (mean ± 1 sd, 10 runs)")
    ax.set_title(f"Adult, objective perturbation (ε, δ = 1e-5), logistic, Λ = {lam:g}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "adult_bounds.png"))


if __name__ == "__main__":
    main()
