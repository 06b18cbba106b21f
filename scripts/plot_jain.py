#!/usr/bin/env python3
"""Figures and tables for the Jain et al. stability reproduction (issue 5).

Reads the JSON written by scripts/reproduce_jain.sh (epsilonlab-cli stability) from IN_DIR and
writes, into OUT_DIR, one PNG per (dataset, removal) with test error and marginal error
against ρ (mean ± sd band over the 20 repetitions), and tables.md (Markdown tables).

Usage: /usr/bin/python3 scripts/plot_jain.py IN_DIR OUT_DIR
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""

import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DATASETS = [
    ("alt.atheism_vs_talk.religion.misc", "20NG atheism vs religion.misc"),
    ("comp.graphics_vs_comp.windows.x", "20NG graphics vs windows.x"),
    ("rec.sport.baseball_vs_sci.crypt", "20NG baseball vs crypt"),
    ("boston", "Boston housing (linear regression)"),
]
COLOURS = {"none": "tab:gray", "l2": "tab:blue", "dropout": "tab:red", "deterministic-dropout": "tab:orange"}


def load(path):
    with open(path) as f:
        return json.load(f)


def plot(j, title, png):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    rho = j["rho"]
    for m in j["methods"]:
        c = COLOURS.get(m["method"])
        for ax, key in zip(axes, ["test_error", "marginal_error"]):
            mean, sd = m[key]["mean"], m[key]["sd"]
            ax.plot(rho, mean, marker="o", ms=3, color=c, label=m["method"])
            ax.fill_between(rho, [a - b for a, b in zip(mean, sd)], [a + b for a, b in zip(mean, sd)],
                            color=c, alpha=0.12)
    measure = "MSE" if j["model"] == "linear" else "misclassification"
    axes[0].set_title(f"test error ({measure})")
    axes[1].set_title("marginal error |err(ρ) − err(0)|")
    for ax in axes:
        ax.set_xlabel("ρ (fraction of training data removed)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{title}, {j['removal']} removal, {j['repeats']} repetitions, dropout rate {j['dropout_rate']}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def table(j):
    rho = j["rho"]
    lines = ["| method | err(0) | " + " | ".join(f"ρ={r:.1f}" for r in rho) + " | mean marginal | model stability ‖Δθ‖ (rel.) |",
             "|---|---|" + "---|" * len(rho) + "---|---|"]
    for m in j["methods"]:
        full = m["full_data"]["test_error"]["mean"]
        cells = [f"{e:.3f} / {d:.3f}" for e, d in zip(m["test_error"]["mean"], m["marginal_error"]["mean"])]
        avg = sum(m["marginal_error"]["mean"]) / len(rho)
        st = m["model_stability"]
        stab = f"{st['mean']:.3g} ({st['relative_mean']:.3g})" if st else "—"
        name = m["method"]
        if m["lambda"]:
            name += f" (λ={m['lambda']['chosen']:g})"
        if m["full_data"]["separable"]:
            name += " †"
        lines.append(f"| {name} | {full:.3f} | " + " | ".join(cells) + f" | {avg:.4f} | {stab} |")
    return "\n".join(lines)


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    md = ["Cells: mean test error / mean marginal error over 20 repetitions. † = training data "
          "linearly separable, fit stopped by the separable rule.", ""]
    for stem, title in DATASETS:
        for removal in ["random", "adversarial"]:
            path = os.path.join(src, f"{stem}.{removal}.json")
            if not os.path.exists(path):
                continue
            j = load(path)
            png = f"{stem}.{removal}.png"
            plot(j, title, os.path.join(out, png))
            md += [f"### {title}, {removal} removal", "",
                   f"train {j['data']['train']['rows']} rows × {j['data']['train']['features']} features, "
                   f"test {j['data']['test']['rows']} rows; wall time "
                   f"{sum(v for k, v in j['timings'].items() if k.startswith('seconds')):.1f} s", "",
                   table(j), "", f"![{title}, {removal}]({png})", ""]
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
