#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), builds the 'ci' preset
# (Release, warnings as errors) and runs the whole test suite — GUI tests offscreen,
# benchmarks excluded — then builds the configuration without the GUI ('ci-nogui': core, CLI
# and their tests) and runs its tests, through ccache so that the second build reuses the first's
# objects. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages ccache
# Both presets compile the same core and CLI with the same flags: a compiler cache inside the
# build tree lets the second reuse the first's objects (empty on a fresh clone: nothing stale).
export CCACHE_DIR="$PWD/build/.ccache" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=2G
export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
epsilonlab_build ci
export QT_QPA_PLATFORM=offscreen
ctest --preset ci -j"$(nproc)" "$@"
epsilonlab_build ci-nogui
ctest --preset ci-nogui -j"$(nproc)" "$@"
