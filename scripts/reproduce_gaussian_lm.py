#!/usr/bin/env python3
"""The experiment Pathak & Raj never ran (issue 11): test accuracy vs ε for the corrected DP
large-margin Gaussian classifier against one-vs-rest objective perturbation, on the built-in
multiclass datasets, with the non-private Gaussian classifier and logistic regression as
references.

Every number comes from `epsilonlab-cli utility` (the same engine as the GUI):
  --split 0.3 --metric test-acc --eps 0.01:100:20 --repeats 20 --seed 1
  mechanisms: gaussian-lm (Huber h = 0.1, natively multiclass, pure ε),
              objpert-pure and objpert-gauss (logistic, one-vs-rest: each class's model at ε/K),
  and each sweep's non-private reference (gaussian-lm: Sha & Saul's PSD-constrained model;
  the others: regularised logistic regression).

Writes docs/gaussian-lm/runs.json (the raw CLI outputs), docs/gaussian-lm/accuracy.csv and one
figure per dataset (docs/gaussian-lm/accuracy_<dataset>.png). Usage:
  scripts/reproduce_gaussian_lm.py [--cli build/ci/app/cli/epsilonlab-cli] [--repeats 20]
"""

import argparse
import csv
import json
import os
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
OUT = os.path.join(REPO, "docs", "gaussian-lm")
DATASETS = ["iris", "wine", "penguins", "digits"]
MECHANISMS = [
    ("gaussian-lm", ["--mechanism", "gaussian-lm"], "Gaussian classifier, corrected (ε-DP)", "tab:red"),
    ("objpert-pure", ["--mechanism", "objpert-pure", "--loss", "logistic"], "LR one-vs-rest, objective pert. (ε-DP)",
     "tab:blue"),
    ("objpert-gauss", ["--mechanism", "objpert-gauss", "--loss", "logistic"],
     "LR one-vs-rest, objective pert. ((ε, δ)-DP)", "tab:green"),
]


def run(cli, dataset, extra, repeats, eps):
    cmd = [cli, "utility", "--data", f"builtin:{dataset}", "--split", "0.3", "--metric", "test-acc", "--eps", eps,
           "--repeats", str(repeats), "--seed", "1"] + extra
    t0 = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    result["wall_seconds"] = time.time() - t0
    result["command_line"] = " ".join(cmd[1:])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(REPO, "build", "ci", "app", "cli", "epsilonlab-cli"))
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--eps", default="0.01:100:20")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    runs = {}
    for dataset in DATASETS:
        for name, extra, _, _ in MECHANISMS:
            print(f"{dataset} {name} …", file=sys.stderr, flush=True)
            runs[f"{dataset}/{name}"] = run(args.cli, dataset, extra, args.repeats, args.eps)
    with open(os.path.join(OUT, "runs.json"), "w") as f:
        json.dump(runs, f, indent=1)

    with open(os.path.join(OUT, "accuracy.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["dataset", "mechanism", "eps", "test_acc_mean", "test_acc_sd", "nonprivate_test_acc"])
        for key, r in runs.items():
            dataset, name = key.split("/")
            for e, m, s in zip(r["grid"], r["measured"]["mean"], r["measured"]["std"]):
                w.writerow([dataset, name, e, m, s, r["nonprivate"]])

    for dataset in DATASETS:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for name, _, label, colour in MECHANISMS:
            r = runs[f"{dataset}/{name}"]
            mean, sd = r["measured"]["mean"], r["measured"]["std"]
            ax.plot(r["grid"], mean, "o-", ms=3, color=colour, label=label)
            ax.fill_between(r["grid"], [m - s for m, s in zip(mean, sd)], [min(1.0, m + s) for m, s in zip(mean, sd)],
                            color=colour, alpha=0.12, lw=0)
        ax.axhline(runs[f"{dataset}/gaussian-lm"]["nonprivate"], color="tab:red", ls="--", lw=1,
                   label="Gaussian classifier, non-private (Sha & Saul)")
        ax.axhline(runs[f"{dataset}/objpert-pure"]["nonprivate"], color="tab:blue", ls="--", lw=1,
                   label="LR, non-private")
        ax.set_xscale("log")
        ax.set_xlabel("ε")
        ax.set_ylabel(f"test accuracy (mean ± sd, {args.repeats} repetitions)")
        ax.set_title(f"{dataset}: private multiclass classifiers")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        fig.savefig(os.path.join(OUT, f"accuracy_{dataset}.png"), dpi=120)
        plt.close(fig)
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
