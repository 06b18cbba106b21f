#!/usr/bin/python3
"""Writes the built-in lessons (resources/lessons/*.json) from sessions the GUI itself saves.

  scripts/make_builtin_lessons.py build/release/app/gui/epsilonlab

Each template is one batch run of the GUI (--export: the sidecar beside the figure is a session);
a step is a template with the shown view, its ε and a few settings changed, and only the shown
view's block kept (the other views open with their defaults). The GUI checks every step when it
opens the lesson; tests/ui/test_lessons.cpp applies every step of every built-in lesson.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
EPS_KEY = {"accounting": "eps", "ptr": "eps"}

TEMPLATES = {
    "moons": ["--data", "builtin:moons", "--view", "regions"],
    "penguins": ["--data", "builtin:penguins", "--view", "utility"],
    "penguins-bounds": ["--data", "builtin:penguins", "--bounds", "builtin", "--view", "utility"],
    "digits-accounting": ["--data", "builtin:digits", "--view", "accounting"],
    "digits-audit": ["--data", "builtin:digits", "--view", "audit", "--eps", "2"],
}

# The white-box audit of DP-SGD on digits (three pixels no training row uses hold the canaries).
WHITEBOX = {"mechanism.kind": "dpsgd", "method": "whitebox", "whitebox_runs": 400, "whitebox_view": "iterates"}

LESSONS = {
    "what-eps-means": ("What ε means", [
        ("moons", "regions", 0.1, {},
         "Ten private models trained on the same two moons at ε = 0.1. Each grey line is one model's boundary: "
         "with this much noise they point every way, and the shading is faint where they disagree."),
        ("moons", "regions", 1, {},
         "ε = 1: less noise. The ten boundaries begin to agree, and the shading is strong where most of them "
         "give the same answer."),
        ("moons", "regions", 10, {},
         "ε = 10: the ten boundaries close in on the dashed non-private one. Larger ε, less noise, better "
         "models — and a weaker promise to each person in the data."),
        ("moons", "regions", "inf", {},
         "ε = ∞ promises nothing: the non-private model alone. ε measures how much one person's row may "
         "change what is published."),
    ]),
    "why-rows-are-clipped": ("Why rows are clipped", [
        ("penguins", "data", None, {},
         "Penguins measured in millimetres and grams. The mechanisms' guarantee assumes every row has length "
         "(norm) at most 1, so that one penguin can move the model only so far. These rows are far longer."),
        ("penguins", "utility", 1, {},
         "So each row is clipped to length 1. In raw units body mass (thousands of grams) fills every row, and "
         "clipping keeps little else: even without noise the model is right on only 77 % of test penguins."),
        ("penguins-bounds", "data", None, {},
         "Public bounds: each column's range as the field guide gives it — not as the data shows it — maps "
         "every value to [0, 1] before clipping. Reading a public range spends no privacy."),
        ("penguins-bounds", "utility", 1, {},
         "With every column on the same scale, clipping keeps what tells the species apart: the non-private "
         "model gets every test penguin right, and the private one closes in as ε grows (0.88 at ε = 10)."),
    ]),
    "ten-draws": ("Ten draws are not one", [
        ("moons", "regions", 1, {"draws": 1},
         "One private model trained at ε = 1: what you would publish. Its guarantee is ε = 1."),
        ("moons", "regions", 1, {"draws": 10},
         "Ten models, each trained at ε = 1 on the same rows. Each alone is (1, 10⁻⁵)-DP, but the ten together "
         "are only (10, 10⁻⁴)-DP: privacy losses add up (composition; the guarantee's last lines)."),
        ("moons", "regions", 0.1, {"draws": 10},
         "For the ten together to cost ε = 1, each must be trained at ε = 0.1: ten much noisier boundaries. "
         "Ten draws are not one."),
    ]),
    "the-accountant": ("Why the accountant matters", [
        ("digits-accounting", "accounting", 1, {"follow_utility": False},
         "DP-SGD adds noise σ at every step. Each curve is one accountant's ε for a given σ, for the same "
         "training. Where a curve crosses the dotted ε = 1 line is the σ that accountant needs."),
        ("digits-accounting", "accounting", 1, {"follow_utility": False, "accountant": "ac"},
         "Calibrated with advanced composition (orange), the same ε = 1 takes σ = 151, eight times RDP's 19 "
         "(blue) and PLD's 18 (green). Same training, same promise: a tighter proof means less noise."),
        ("digits-accounting", "accounting", 4, {"follow_utility": False},
         "At ε = 4 every σ is smaller, and the gap stays. The grey curve is not a proof: a run calibrated "
         "with it is only guaranteed what RDP proves for its σ."),
    ]),
    "checking-a-claim": ("Checking a claim", [
        ("digits-audit", "audit", 2, WHITEBOX,
         "An audit trains DP-SGD 400 times with canary examples in or out and tries to tell which. Its 95 % "
         "lower bound ε_LB = 0.77 stays under the claimed ε = 2: consistent with the claim."),
        ("digits-audit", "audit", 2, {**WHITEBOX, "noise_divisor": 10},
         "The same training broken on purpose (noise ÷ 10: trained for ε = 20) while still claiming ε = 2. "
         "The audit proves ε ≥ 6.9 with 95 % confidence: the claim is violated."),
        ("digits-audit", "audit", 2, {**WHITEBOX, "noise_divisor": 1.5},
         "Broken a little (noise ÷ 1.5: trained for ε = 3, claiming 2), the same audit finds only ε_LB = 1.61 "
         "and calls it consistent. An audit can catch a broken claim; passing one is evidence, not a proof."),
    ]),
}


# Penguins' documented ranges (--bounds builtin) cover the columns the regions view plots; a lesson
# on clipping needs every numeric column on the same scale: flipper length and body mass by hand
# for the three species, as the built-in bill ranges are.
PENGUIN_RANGES = [{"column": "flipper_length_mm", "lo": 170.0, "hi": 235.0},
                  {"column": "body_mass_g", "lo": 2500.0, "hi": 6500.0}]


def template_session(gui, name, args, work):
    cache = os.environ.get("LESSON_TEMPLATES")  # a directory: keep the templates between runs
    if cache and (pathlib.Path(cache) / f"{name}.json").exists():
        return json.loads((pathlib.Path(cache) / f"{name}.json").read_text())
    figure = work / f"{name}.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([gui, *args, "--export", str(figure)], check=True, env=env, stdout=subprocess.DEVNULL)
    sidecars = sorted(work.glob(f"{name}*.json"))  # a view with two figures writes NAME-SUFFIX.json
    if cache:
        pathlib.Path(cache).mkdir(parents=True, exist_ok=True)
        (pathlib.Path(cache) / f"{name}.json").write_text(sidecars[0].read_text())
    return json.loads(sidecars[0].read_text())


def step_session(template, view, eps, changes):
    session = {k: template[k] for k in ("format", "version", "app_version", "dataset")}
    session["view"] = view
    if view in template:
        block = dict(template[view])
        if eps is not None:
            block[EPS_KEY.get(view, "current_eps")] = eps
        for key, value in changes.items():
            if "." in key:  # "mechanism.kind": a field of a nested block
                outer, inner = key.split(".")
                block[outer] = dict(block[outer], **{inner: value})
            else:
                block[key] = value
        session[view] = block
    return session


def main():
    gui = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        templates = {name: template_session(gui, name, args, pathlib.Path(tmp)) for name, args in TEMPLATES.items()}
    bounds = templates["penguins-bounds"]["dataset"]["bounds"]
    bounds["columns"] += PENGUIN_RANGES
    bounds["source"] = ("public ranges for the three species: year 2007–2009 (the study), bill length 30–60 mm, "
                        "bill depth 13–22 mm, flipper length 170–235 mm, body mass 2,500–6,500 g")
    for name, (title, steps) in LESSONS.items():
        lesson = {"format": "epsilonlab-lesson", "version": 1, "title": title, "steps": [
            {"caption": caption, "session": step_session(templates[t], view, eps, changes)}
            for t, view, eps, changes, caption in steps]}
        out = ROOT / "resources" / "lessons" / f"{name}.json"
        out.write_text(json.dumps(lesson, indent=1, ensure_ascii=False) + "\n")
        print(out)


if __name__ == "__main__":
    main()
