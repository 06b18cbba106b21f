#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), builds Release and starts the
# EpsilonLab GUI on a built-in dataset. Extra arguments go to the app (e.g. --data FILE).
# Without a display it says so and prints the headless report of the dataset instead.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages
epsilonlab_build release

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
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running the headless report."
echo "  (To see the GUI without a screen: xvfb-run ./run.sh, or QT_QPA_PLATFORM=offscreen ./run.sh --screenshot shot.png)"
echo
exec ./build/release/app/cli/epsilonlab-cli info --data "$spec"
