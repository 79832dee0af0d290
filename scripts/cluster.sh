#!/usr/bin/env bash
# A local scale-out cluster to try: a throwaway PostgreSQL, two `acedrex
# serve` processes on it and HAProxy in front, all on loopback. Prints the
# URL and runs until Ctrl-C, then tears everything down (the database too).
#   PORT=8080 bash scripts/cluster.sh        (PORT: HAProxy's port)
#   ACEDREX=path/to/acedrex                  (default build/release/acedrex, built if missing)
# The production layout is in docs/deploy.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
port="${PORT:-8080}"
acedrex="${ACEDREX:-$root/build/release/acedrex}"
if [ ! -x "$acedrex" ]; then
  bash scripts/setup.sh
  cmake --preset release >/dev/null
  cmake --build build/release -j"$(nproc)" --target acedrex
fi
command -v haproxy >/dev/null || { echo "cluster: haproxy is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
bash scripts/pg_temp.sh check

dir=$(mktemp -d /tmp/acedrex-cluster-XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash "$root/scripts/pg_temp.sh" stop "$dir/pg" || true
  rm -rf "$dir"
}
trap cleanup INT TERM EXIT

uri=$(bash scripts/pg_temp.sh start "$dir/pg")
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}
ports=()
for n in 1 2; do
  p=$(free_port)
  ports+=("$p")
  "$acedrex" serve --address 127.0.0.1 --port "$p" --db "$uri" --trust-proxy --access-log "$dir/access$n.log" \
    >"$dir/serve$n.out" 2>"$dir/serve$n.err" &
  pids+=($!)
done
for n in 1 2; do
  for _ in $(seq 100); do grep -q '^port ' "$dir/serve$n.out" 2>/dev/null && break; sleep 0.1; done
  grep -q '^port ' "$dir/serve$n.out" || { echo "cluster: serve $n did not start:" >&2; cat "$dir/serve$n.err" >&2; exit 1; }
done
ACEDREX_LISTEN="127.0.0.1:$port" ACEDREX_SERVER1="127.0.0.1:${ports[0]}" ACEDREX_SERVER2="127.0.0.1:${ports[1]}" \
  haproxy -db -f deploy/haproxy.cfg >"$dir/haproxy.log" 2>&1 &
pids+=($!)
sleep 0.5
kill -0 "${pids[2]}" 2>/dev/null || { echo "cluster: haproxy did not start:" >&2; cat "$dir/haproxy.log" >&2; exit 1; }

echo "Acedrex cluster: open http://127.0.0.1:$port/ (Ctrl-C stops it all)"
echo "  PostgreSQL  $uri"
echo "  serve 1     http://127.0.0.1:${ports[0]}/  (pid ${pids[0]})"
echo "  serve 2     http://127.0.0.1:${ports[1]}/  (pid ${pids[1]})"
echo "  logs        $dir"
echo "  try: kill -9 ${pids[0]}  - games go on through serve 2"
wait "${pids[2]}"
