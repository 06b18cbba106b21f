#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), checks the C++ formatting
# (.clang-format, no diff allowed), builds the 'ci' preset (Release, warnings as errors, GUI) and
# runs the whole test suite — GUI tests offscreen, benchmarks excluded — then builds the
# configuration without Qt Widgets under AddressSanitizer + UBSan ('ci-asan': core, CLI and their
# tests) and runs its tests (benchmarks and scale runs excluded): that proves the build without the
# GUI and that no test meets a memory error, a leak or undefined behaviour. Exits non-zero on any
# failure.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages ccache lld clang-format
scripts/check_format.sh
# A compiler cache inside the build tree (empty on a fresh clone: nothing stale; it speeds up
# runs of this script on one clone).
export CCACHE_DIR="$PWD/build/.ccache" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=2G
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
epsilonlab_build ci
export QT_QPA_PLATFORM=offscreen
ctest --preset ci -j"$(nproc)" "$@"
epsilonlab_build ci-asan
ctest --preset ci-asan -j"$(nproc)" "$@"
