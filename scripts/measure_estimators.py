#!/usr/bin/env python3
"""The Taylor estimators' errors as % of the measured curve's range (docs/li-reproduction.md,
"The variance estimator against inverse-eps and anchored").

Runs `epsilonlab-cli utility` (objpert-gauss, logistic loss, Λ = 0.01, δ = 1e-5, train loss,
20 log-spaced ε in 0.1…10, 10 repetitions, seed 1, measuring at ε̄ = 0.3, 1, 3, every estimator)
on the small datasets of ../shared/datasets, on Adult (a9a) and KDD Cup 99 subsets of n rows,
and prints Markdown tables: per dataset and ε̄ the mean over the grid of |estimate − measured
mean| divided by (max − min) of the measured mean curve, in %. Standard library only.

    python3 scripts/measure_estimators.py --cli build/release/app/cli/epsilonlab-cli \
        [--datasets ../shared/datasets] [--json-dir build-estimators] [--skip-large]
"""
import argparse
import json
import os
import subprocess
import sys

COMMON = ["--mechanism", "objpert-gauss", "--loss", "logistic", "--lambda", "0.01", "--delta", "1e-5",
          "--metric", "train-loss", "--eps", "0.1:10:20", "--repeats", "10", "--seed", "1",
          "--measure-at", "0.3,1,3", "--estimators", "all"]
MEASURE_AT = [0.3, 1.0, 3.0]
SHOWN = ["variance", "inverse-eps", "anchored", "first-order"]


def small_sets(root):
    """(name, extra CLI arguments) of the small tabular sets; multiclass ones one-vs-rest."""
    return [
        ("banknote", ["--data", f"{root}/banknote/banknote_authentication.csv"]),
        ("breast cancer", ["--data", f"{root}/breast_cancer_wdbc/breast_cancer_wdbc.csv"]),
        ("iris (3 classes)", ["--data", f"{root}/iris/iris.csv"]),
        ("wine (3 classes)", ["--data", f"{root}/wine/wine.csv"]),
        ("penguins (3 classes)", ["--data", f"{root}/penguins/penguins.csv", "--label", "species"]),
        ("breast cancer, public bounds", ["--data", "builtin:breast_cancer", "--bounds", "builtin"]),
        ("wine, public bounds", ["--data", "builtin:wine", "--bounds", "builtin"]),
    ]


def large_sets(root):
    out = []
    for n in [1000, 2000, 5000, 10000, 20000]:
        out.append((f"adult n={n}", ["--data", f"{root}/adult/a9a_train.libsvm", "--subsample", str(n)]))
    out.append(("adult (all 32,561)", ["--data", f"{root}/adult/a9a_train.libsvm"]))
    for n in [1000, 2000, 5000, 10000, 20000]:
        out.append((f"kdd n={n}", ["--data", f"{root}/kddcup99/kddcup99_10percent.csv.gz", "--label", "label",
                                   "--positive", "normal", "--subsample", str(n)]))
    return out


def run(cli, name, args, json_dir):
    path = os.path.join(json_dir, name.replace(" ", "_").replace(",", "").replace("(", "").replace(")", "")
                        .replace("=", "") + ".json")
    if not os.path.exists(path):
        cmd = [cli, "utility", *args, *COMMON, "--threads", "2", "--out", path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"{name}: {proc.stderr.strip()}", file=sys.stderr)
            return None
    with open(path) as f:
        return json.load(f)


def errors(report):
    mean = report["measured"]["mean"]
    span = max(mean) - min(mean)
    out = {}
    for e in report["errors"]:
        out[(e["measure_at"], e["estimator"])] = 100.0 * e["mean_abs_error"] / span
    return out, span


def table(rows):
    lines = ["| data | measured range | estimator | ε̄ = 0.3 | ε̄ = 1 | ε̄ = 3 | worst |",
             "|---|---|---|---|---|---|---|"]
    for name, report in rows:
        errs, span = errors(report)
        best_worst = min(max(errs[(m, e)] for m in MEASURE_AT) for e in SHOWN)
        for e in SHOWN:
            cells = [errs[(m, e)] for m in MEASURE_AT]
            worst = max(cells)
            first = e == SHOWN[0]
            lines.append(f"| {name if first else ''} | {f'{span:.3g}' if first else ''} | `{e}` | "
                         + " | ".join(f"{v:.1f}" for v in cells)
                         + (f" | **{worst:.1f}** |" if worst == best_worst else f" | {worst:.1f} |"))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--json-dir", default="build-estimators")
    ap.add_argument("--skip-large", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.json_dir, exist_ok=True)
    sets = small_sets(a.datasets) + ([] if a.skip_large else large_sets(a.datasets))
    rows = []
    for name, args in sets:
        r = run(a.cli, name, args, a.json_dir)
        if r is not None:
            rows.append((name, r))
    print(table(rows))


if __name__ == "__main__":
    main()
