#!/usr/bin/env bash
# Builds oneTBB's libtbb instrumented with ThreadSanitizer, the version Debian 12 ships
# (v2021.8.0), into build/tbb-tsan. ThreadSanitizer sees the synchronisation of oneTBB's task
# scheduler only when libtbb is instrumented too: with Debian's libtbb every parallel_for reports
# data races inside oneTBB's headers (a task's fields written by the thread that spawns it, read by
# the one that steals it). Then configure the tsan preset with it (docs/developer.md, Sanitizers):
#   cmake --preset tsan -DEPSILONLAB_BUILD_GUI=OFF -DEPSILONLAB_TSAN_TBB_DIR=$PWD/build/tbb-tsan
# Usage: scripts/build_tbb_tsan.sh [oneTBB source directory]   (default: a shallow clone of the tag)
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-build/tbb-tsan-src}
out=build/tbb-tsan
if [ ! -f "$src/CMakeLists.txt" ]; then
    git clone --quiet --depth 1 --branch v2021.8.0 https://github.com/oneapi-src/oneTBB.git "$src"
fi
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF -DTBB_EXAMPLES=OFF >/dev/null
cmake --build "$out" --target tbb
find "$PWD/$out" -name libtbb.so.12
