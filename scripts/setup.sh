#!/usr/bin/env bash
# Installs what Acedrex needs on Debian 12 (run as root; safe to run again).
# PostgreSQL and HAProxy are for the scale-out tests and scripts/cluster.sh;
# the tests and that script start throwaway ones of their own.
set -euo pipefail
need=()
for pkg in g++ cmake make libgtest-dev libgmock-dev libbenchmark-dev fairy-stockfish clang libclang-rt-14-dev python3 libboost-dev libsqlite3-dev libcli11-dev libspdlog-dev \
    libpq-dev postgresql haproxy libsodium-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
