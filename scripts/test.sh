#!/usr/bin/env bash
# Sets everything up and runs all the tests: the fast suite in a release build
# and again under AddressSanitizer and UndefinedBehaviorSanitizer.
#   scripts/test.sh          fast suite and the browser end-to-end tests (what CI runs)
#   scripts/test.sh --slow   the slow suite too: deep perft, the Fairy-Stockfish
#                            differential test, bounded fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
slow=0
[ "${1:-}" = "--slow" ] && slow=1
bash scripts/setup.sh
jobs=$(nproc)

echo "== release build"
cmake --preset release >/dev/null
cmake --build build/release -j"$jobs"
echo "== release tests"
ctest --test-dir build/release -L fast -j"$jobs" --output-on-failure

echo "== asan-ubsan build"
cmake --preset asan-ubsan >/dev/null
cmake --build build/asan-ubsan -j"$jobs"
echo "== asan-ubsan tests"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan-ubsan -L fast -j"$jobs" --output-on-failure

echo "== browser end-to-end tests (headless Chromium)"
ACEDREX_BIN="$PWD/build/release/acedrex" bash tests/e2e/run.sh

if [ "$slow" = 1 ]; then
  echo "== slow tests"
  # The differential tests against ffish/chessops register once their
  # packages are installed (tools/reference/README.md).
  (cd tools/reference && npm ci --no-audit --no-fund --loglevel=error)
  cmake --preset release >/dev/null
  ctest --test-dir build/release -L slow --output-on-failure
  echo "== fuzzing"
  bash tools/run_fuzz.sh 60
fi
