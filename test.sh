#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), builds the 'ci' preset
# (Release, warnings as errors) and runs the whole test suite — GUI tests offscreen,
# benchmarks excluded — then builds the configuration without the GUI ('ci-nogui': core, CLI
# and their tests) and runs its tests. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages
epsilonlab_build ci
export QT_QPA_PLATFORM=offscreen
ctest --preset ci -j"$(nproc)" "$@"
epsilonlab_build ci-nogui
ctest --preset ci-nogui -j"$(nproc)" "$@"
