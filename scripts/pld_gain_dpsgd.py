#!/usr/bin/env python3
"""The accuracy DP-SGD gains on DIGITS by calibrating σ with the PLD accountant instead of RDP
(docs/dpsgd.md, "PLD against RDP"): the network and schedule of scripts/reproduce_dpsgd.py
(64→500→10, S = 100, per-layer clip C = 2, 100 epochs, constant learning rate 0.05, δ = 1e-4,
N = 1,437 declared public, no dropout), ε ∈ {1, 0.5}, the same seeds for both accountants.

Every number comes from `epsilonlab-cli train`. Writes docs/dpsgd/pld-digits.json (one record per
run) and prints, per ε and accountant, σ and the test accuracy's mean ± sd, and the mean ± sd of
the per-seed difference PLD − RDP. Usage:
  scripts/pld_gain_dpsgd.py [--cli build/ci/app/cli/epsilonlab-cli] [--runs 10] [--jobs 2]
"""

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMON = ["--data", "builtin:digits", "--split", "0.2", "--mechanism", "dpsgd", "--hidden", "500",
          "--batch-size", "100", "--clip", "2", "--clip-mode", "per-layer", "--epochs", "100",
          "--learning-rate", "0.05", "--lr-decay", "0", "--delta", "1e-4", "--public-rows", "1437",
          "--dropout", "none"]
EPS = ["1", "0.5"]
ACCOUNTANTS = ["rdp", "pld"]


def run(cli, eps, accountant, seed):
    t0 = time.time()
    out = subprocess.run([cli, "train"] + COMMON + ["--accountant", accountant, "--eps", eps, "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    g = j.get("guarantee") or {}
    return {"eps": eps, "accountant": accountant, "seed": seed, "sigma": j["sigma"],
            "test_accuracy": j["epochs"][-1]["test_accuracy"], "guarantee_eps": g.get("epsilon"),
            "seconds": time.time() - t0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(REPO, "build", "ci", "app", "cli", "epsilonlab-cli"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    tasks = [(e, acc, s) for e in EPS for acc in ACCOUNTANTS for s in range(1, a.runs + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda t: run(a.cli, *t), tasks))
    with open(os.path.join(REPO, "docs", "dpsgd", "pld-digits.json"), "w") as f:
        json.dump({"command": ["epsilonlab-cli", "train"] + COMMON, "runs": results}, f, indent=1)
    for e in EPS:
        by = {acc: {r["seed"]: r for r in results if r["eps"] == e and r["accountant"] == acc} for acc in ACCOUNTANTS}
        for acc in ACCOUNTANTS:
            accs = [r["test_accuracy"] for r in by[acc].values()]
            sigma = next(iter(by[acc].values()))["sigma"]
            print(f"eps {e} {acc}: sigma {sigma:.4f}, test accuracy {statistics.mean(accs):.4f} ± "
                  f"{statistics.stdev(accs):.4f} ({len(accs)} runs)")
        gain = [by["pld"][s]["test_accuracy"] - by["rdp"][s]["test_accuracy"] for s in by["rdp"]]
        print(f"eps {e} PLD − RDP, same seed: {statistics.mean(gain):+.4f} ± {statistics.stdev(gain):.4f}")


if __name__ == "__main__":
    main()
