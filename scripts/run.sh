#!/usr/bin/env bash
# Sets everything up and runs Acedrex's main job: the web server with its
# SQLite store. Open http://localhost:8080/ (PORT and DB override the port
# and the database file). With arguments, runs that acedrex command instead,
# e.g. `bash scripts/run.sh perft --variant shako 4`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build build/release -j"$(nproc)" --target acedrex
if [ $# -gt 0 ]; then
  exec build/release/acedrex "$@"
fi
port="${PORT:-8080}"
echo "Acedrex: open http://localhost:${port}/ in a browser (Ctrl-C stops the server)"
exec build/release/acedrex serve --port "$port" --db "${DB:-acedrex.db}"
