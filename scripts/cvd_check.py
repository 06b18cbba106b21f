#!/usr/bin/python3
"""Colour-blind readability of EpsilonLab's chart colours.

  scripts/cvd_check.py                      # every colour set of ui/charts/palettes.cpp: the least
                                            # pairwise ΔE*ab in normal vision and under simulated
                                            # protanopia, deuteranopia, tritanopia; exit 1 below 15
  scripts/cvd_check.py shot.png [OUT_DIR]   # the screenshot as seen with each deficiency
                                            # (OUT_DIR/shot-protanopia.png, …)

Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of
color vision deficiency", the severity-1.0 matrices, applied to linear RGB. Distance: CIE 1976
ΔE*ab in CIELAB (D65). The same computation is tests/ui/test_palettes.cpp.
Needs python3-numpy (and python3-pil for screenshots).
"""
import itertools
import pathlib
import re
import sys

import numpy as np

MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
THRESHOLD = 15.0
ROOT = pathlib.Path(__file__).resolve().parent.parent


def to_linear(srgb):  # srgb in [0, 1]
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear):
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


def lab(linear):
    xyz = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                    [0.0193339, 0.1191920, 0.9503041]]) @ np.clip(linear, 0.0, 1.0)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(rgb, deficiency):
    linear = to_linear(np.array([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255], float) / 255)
    return lab(linear if deficiency is None else np.array(MACHADO[deficiency]) @ linear)


def least_distance(colours, deficiency):
    labs = [seen(c, deficiency) for c in colours]
    return min(((float(np.linalg.norm(labs[i] - labs[j])), colours[i], colours[j])
                for i, j in itertools.combinations(range(len(colours)), 2)), key=lambda t: t[0])


def colour_sets():
    header = (ROOT / "ui/charts/palettes.h").read_text()
    names = {m[1]: int(m[2], 16) for m in re.finditer(r"constexpr QRgb (k\w+) = (0x[0-9A-Fa-f]{6});", header)}
    for alias, target in re.findall(r"constexpr QRgb (k\w+) = (k\w+);", header):
        names[alias] = names[target]
    source = (ROOT / "ui/charts/palettes.cpp").read_text()
    for name, body in re.findall(r'\{"([^"]+)",\s*\{([^}]*)\}\}', source):
        yield name, [int(t, 16) if t.startswith("0x") else names[t] for t in (x.strip() for x in body.split(","))]


def check_palettes():
    failed = False
    print(f"{'colour set':52s} {'normal':>7s} {'protan':>7s} {'deutan':>7s} {'tritan':>7s}  closest pair (worst case)")
    for name, colours in colour_sets():
        results = [least_distance(colours, d) for d in (None, *MACHADO)]
        worst = min(results, key=lambda t: t[0])
        failed |= worst[0] < THRESHOLD
        print(f"{name:52s} " + " ".join(f"{r[0]:7.1f}" for r in results) +
              f"  #{worst[1]:06X} / #{worst[2]:06X}{'  FAILS' if worst[0] < THRESHOLD else ''}")
    return 1 if failed else 0


def simulate_image(path, out_dir):
    from PIL import Image
    image = np.asarray(Image.open(path).convert("RGB"), float) / 255
    linear = to_linear(image)
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for deficiency, matrix in MACHADO.items():
        simulated = to_srgb(linear @ np.array(matrix).T)
        out = out_dir / f"{pathlib.Path(path).stem}-{deficiency}.png"
        Image.fromarray((simulated * 255 + 0.5).astype(np.uint8)).save(out)
        print(out)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        simulate_image(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ".")
    else:
        sys.exit(check_palettes())
