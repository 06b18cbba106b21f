#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (missing packages only), checks the C++ formatting
# (.clang-format, no diff allowed), builds the 'ci' preset (Release, warnings as errors, GUI) and
# runs the whole test suite — GUI tests offscreen, benchmarks excluded — then builds the CLI of the
# configuration without Qt Widgets ('ci-nogui', ccache hits for the core and the CLI), which proves
# that the core and the CLI build without the GUI, and last the core under AddressSanitizer + UBSan
# ('ci-asan') with the core tests that exercise its threads, shared buffers and parsers, and runs
# them: no memory error, leak or undefined behaviour there. (All tests under ci-asan: ctest --preset
# ci-asan after a full build of it; too slow for every change.) Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
epsilonlab_install_packages ccache lld clang-format
scripts/check_format.sh
# The compiler cache lets the no-GUI configuration reuse the first's objects, and a later run on
# this machine (another clone included: paths are relative to the clone) reuse the objects of files
# that did not change. It lives outside the clone (EPSILONLAB_CCACHE_DIR to move it); ccache checks
# each hit against the preprocessed source, the compiler and its options.
export CCACHE_DIR="${EPSILONLAB_CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/epsilonlab-ccache}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=4G
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
# The libraries and the CLI as a few large translation units: a build from scratch parses Eigen,
# oneTBB and Qt once per batch of 16 files instead of once per file.
EPSILONLAB_CONFIGURE_ARGS=(-DEPSILONLAB_UNITY_BUILD=ON)
epsilonlab_build ci
export QT_QPA_PLATFORM=offscreen
ctest --preset ci -j"$(nproc)" "$@"
epsilonlab_build ci-nogui epsilonlab-cli
asan_tests=(test_parallel_grid test_vector_state test_utility_sweep test_stability_sweep test_checkpoint test_regions
            test_dpsgd test_audit test_shared_vector test_csv_malformed test_libsvm_loader test_source_reader)
epsilonlab_build ci-asan "${asan_tests[@]}"
ctest --preset ci-asan -j"$(nproc)" -R "^($(IFS='|'; echo "${asan_tests[*]}"))\$" "$@"
