#!/usr/bin/env python3
"""epsilonlab-cli utility --mechanism a,b,c: the comparison report checked against single runs.

  compare_mechanisms.py CLI

- mechanisms[] holds one element per name, in order, and each element's fields are those of a
  run of that mechanism alone with the same options (the seconds fields aside);
- the catalog's schema decides which flags a mechanism uses: DP-SGD's block is there for dpsgd
  only;
- the ranking at --rank-at orders the mechanisms by the utility a single run measures at that ε;
- each verified ε meets the target when a single run measures there, and least_eps names the
  mechanism with the smallest one;
- CSV: long format with a mechanism column, one row per mechanism and grid ε.
"""

import json
import math
import subprocess
import sys

CLI = sys.argv[1]
BASE = ["utility", "--data", "builtin:breast_cancer", "--repeats", "4", "--seed", "3", "--epochs", "2", "--lambda",
        "0.1"]
COMMON = BASE + ["--eps", "0.1:20:6"]
NAMES = ["objpert-gauss", "outpert-gauss", "dpsgd"]
TARGET = 0.45  # training loss: met when the mean is ≤ it
RANK_AT = 1.5  # not a grid point: measured on its own


def run(args):
    done = subprocess.run([CLI] + args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def report(args):
    return json.loads(run(args))


def without_seconds(value):
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if not k.startswith("seconds")}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


both = report(COMMON + ["--mechanism", ",".join(NAMES), "--target", str(TARGET), "--rank-at", str(RANK_AT)])
elements = both["mechanisms"]
check([m["mechanism"]["name"] for m in elements] == NAMES,
      f"mechanisms[] names {[m['mechanism']['name'] for m in elements]}, expected {NAMES}")

for name, element in zip(NAMES, elements):
    alone = report(COMMON + ["--mechanism", name, "--target", str(TARGET)])
    for key in ("grid", "metric", "repeats", "data", "seed"):
        check(alone[key] == both[key], f"{key}: the comparison's differs from a single run's")
    for key, value in alone.items():
        if key in ("command", "version", "seed", "seed_mode", "data", "classes", "metric", "repeats", "grid"):
            continue
        check(key in element, f"{name}: the single report's field '{key}' is missing from its element")
        if key in element:
            check(without_seconds(element[key]) == without_seconds(value),
                  f"{name}: '{key}' differs from a run of {name} alone")
    sgd = element["mechanism"]["sgd"]
    check((sgd is not None) == (name == "dpsgd"), f"{name}: DP-SGD's parameter block is {sgd!r}")

    # The verified ε: a single run measuring there meets the target; the curve's ε is not above it.
    found = element["target_eps"]
    if found["verified"] is not None:
        at = report(BASE + ["--mechanism", name, "--eps", repr(found["verified"]), "--no-reference"])
        mean = at["measured"]["mean"][0]
        check(mean <= TARGET, f"{name}: verified ε = {found['verified']} measures {mean} > target {TARGET}")
        check(found["measured"] is not None and found["measured"] <= found["verified"] * (1 + 1e-12),
              f"{name}: measured ε {found['measured']} above verified {found['verified']}")
    else:
        check(min(alone["measured"]["mean"]) > TARGET and found["measured"] is None,
              f"{name}: no verified ε, yet the curve reaches {min(alone['measured']['mean'])} ≤ {TARGET}")

# The ranking: by the mean a single run measures at --rank-at, lowest loss first.
means = {}
for name in NAMES:
    means[name] = report(BASE + ["--mechanism", name, "--eps", str(RANK_AT), "--no-reference"])["measured"]["mean"][0]
expected = sorted(NAMES, key=lambda n: means[n])
ranked = [r["mechanism"] for r in both["ranking"]["order"]]
check(ranked == expected, f"ranking at ε = {RANK_AT}: {ranked}, expected {expected} from {means}")
for r in both["ranking"]["order"]:
    check(math.isclose(r["mean"], means[r["mechanism"]], rel_tol=0, abs_tol=0),
          f"ranking: {r['mechanism']} mean {r['mean']} against {means[r['mechanism']]} alone")

verified = {m["mechanism"]["name"]: m["target_eps"]["verified"] for m in elements}
reached = {n: e for n, e in verified.items() if e is not None}
check(len(reached) >= 1, f"no mechanism reaches the target {TARGET}: pick another (verified {verified})")
least = both["least_eps"]
if reached:
    best = min(reached, key=lambda n: reached[n])
    check(least["mechanism"] == best and least["eps"] == reached[best],
          f"least_eps {least}, expected {best} at {reached[best]}")

csv = run(COMMON + ["--mechanism", "objpert-gauss,outpert-gauss", "--csv"]).splitlines()
check(csv[0].startswith("mechanism,eps,measured_mean,measured_std"), f"CSV header: {csv[0]}")
rows = [line.split(",") for line in csv[1:]]
check([r[0] for r in rows] == ["objpert-gauss"] * 6 + ["outpert-gauss"] * 6, f"CSV mechanism column: {rows}")
grid = report(COMMON + ["--mechanism", "outpert-gauss"])
check([float(r[2]) for r in rows[6:]] == [float(f"{v:.10g}") for v in grid["measured"]["mean"]],
      "CSV: outpert-gauss's means differ from its single run's")

if failures:
    sys.exit("\n".join(failures))
print(f"ok: {len(NAMES)} mechanisms, ranking {ranked}, least ε {least}")
