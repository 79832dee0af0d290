#!/usr/bin/env bash
# Sets everything up and runs Acedrex's main job. Arguments go to the acedrex
# command; without any it lists the variants and counts Shako's first moves.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build build/release -j"$(nproc)" --target acedrex
if [ $# -eq 0 ]; then
  build/release/acedrex variants
  echo
  build/release/acedrex perft --variant shako --divide 1
else
  exec build/release/acedrex "$@"
fi
