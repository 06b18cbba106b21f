#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), builds Release and starts the
# EpsilonLab GUI on a built-in dataset. Extra arguments go to the app (e.g. --data FILE).
# Without a display it writes the headless report (utility chart PNG/SVG, CSV, JSON, README)
# to ./report (or $EPSILONLAB_REPORT_DIR) and prints where it is.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages
epsilonlab_build release epsilonlab epsilonlab-cli

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${QT_QPA_PLATFORM:-}" ]; then
  exec ./build/release/app/gui/epsilonlab "$@"
fi

spec="builtin:breast_cancer"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --data) spec="${args[$((i + 1))]:-$spec}" ;;
    --data=*) spec="${args[$i]#--data=}" ;;
  esac
done
# No display: the headless report — the utility view computed to completion offscreen, its
# chart as PNG and SVG with the series (CSV) and a JSON sidecar that opens as a session.
report="${EPSILONLAB_REPORT_DIR:-$PWD/report}"
mkdir -p "$report"
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): writing the headless report to $report"
echo "  (To see the GUI without a screen: xvfb-run ./run.sh)"
QT_QPA_PLATFORM=offscreen ./build/release/app/gui/epsilonlab --data "$spec" "$@" \
  --export "$report/utility.png" --export "$report/utility.svg" --screenshot "$report/window.png" \
  > "$report/files.txt" 2> "$report/log.txt" || { cat "$report/log.txt" >&2; exit 1; }
./build/release/app/cli/epsilonlab-cli info --data "$spec" > "$report/dataset.txt"
cat > "$report/README.md" <<EOF_README
# EpsilonLab headless report

Made by \`./run.sh $*\` on $(date -u +%Y-%m-%dT%H:%M:%SZ) without a display, with EpsilonLab
$(./build/release/app/cli/epsilonlab-cli --version 2>/dev/null | head -1).

- \`utility.png\`, \`utility.svg\`: utility (training loss) against ε on \`$spec\` — the measured curve
  (mean and ±1 sd over the repetitions), the Taylor estimate from the measuring point, the
  non-private level. The footnote states the mechanism, its guarantee and the seed.
- \`utility.csv\`: every series of the chart (long format: key, name, kind, x, y, y_upper).
- \`utility.json\`: the settings (dataset spec and SHA-256, mechanism, Λ, δ, grid, seed, version) and the
  numbers; it opens as a session: \`epsilonlab --session utility.json\`.
- \`window.png\`: the main window as it would look. \`dataset.txt\`: what was loaded.
EOF_README
echo
echo "Report written to $report:"
ls -1 "$report"
