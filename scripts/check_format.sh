#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (14, .clang-format) makes of it,
# and names the files. Fix with: git ls-files '*.h' '*.cpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$format" ]; then
    echo "error: clang-format not found (Debian: apt-get install clang-format)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files '*.h' '*.cpp' ':!:tests/data/**' ':!:tests/fixtures/**')
mapfile -t files < <(for f in "${files[@]}"; do [ -f "$f" ] && echo "$f"; done) # deleted in the work tree: nothing to check
# One clang-format process for all files; each violation is reported as FILE:LINE:COL: error: ...
mapfile -t bad < <("$format" --dry-run --Werror "${files[@]}" 2>&1 | grep -oE '^[^:]+:[0-9]+:[0-9]+: error' |
                   cut -d: -f1 | sort -u || true)
if [ ${#bad[@]} -gt 0 ]; then
    printf 'not formatted with .clang-format (%d files):\n' "${#bad[@]}" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "${#files[@]} C++ files formatted as .clang-format says"
