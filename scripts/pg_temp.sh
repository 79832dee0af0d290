#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and for scripts/cluster.sh:
#   pg_temp.sh start DIR [PORT]   makes DIR/data (initdb), starts it on a free
#                                 port with its socket in DIR, creates the
#                                 database "acedrex", prints its libpq URI
#   pg_temp.sh stop DIR           stops it (fast) and removes DIR
#   pg_temp.sh halt DIR           stops it, keeps DIR (for a restart test)
#   pg_temp.sh resume DIR         starts it again on the same port
#   pg_temp.sh uri DIR            prints the URI again
#   pg_temp.sh check              exits 0 when the PostgreSQL binaries are there
# The cluster runs as the calling user, or as "nobody" when called by root
# (initdb refuses root). It listens on the unix socket in DIR and on
# 127.0.0.1 (for HAProxy-less TCP clients), trust authentication, user acedrex.
set -euo pipefail

bindir() {
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

uri() { echo "postgresql://acedrex@127.0.0.1:$(cat "$1/port")/acedrex"; }

cmd=${1:-}
case "$cmd" in
  check)
    bindir >/dev/null || { echo "pg_temp: PostgreSQL binaries (initdb, pg_ctl) not found; scripts/setup.sh installs them" >&2; exit 1; }
    ;;
  start)
    dir=${2:?usage: pg_temp.sh start DIR [PORT]}
    bin=$(bindir) || { echo "pg_temp: PostgreSQL binaries not found" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    port=${3:-$(free_port)}
    echo "$port" > "$dir/port"
    [ "$(id -u)" = 0 ] && chown nobody "$dir" && chmod 755 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U acedrex --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port can be taken by someone else before the server binds it:
    # then try another one (only when no port was asked for).
    for attempt in 1 2 3 4 5; do
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 30 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c shared_buffers=16MB" \
        start >/dev/null; then
        break
      fi
      if [ -n "${3:-}" ] || [ "$attempt" = 5 ]; then cat "$dir/data/server.log" >&2; exit 1; fi
      port=$(free_port)
      echo "$port" > "$dir/port"
    done
    "$bin/createdb" -h "$dir" -p "$port" -U acedrex acedrex
    uri "$dir"
    ;;
  halt)
    dir=${2:?}; bin=$(bindir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    dir=${2:?}; bin=$(bindir); port=$(cat "$dir/port")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 30 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c shared_buffers=16MB" start >/dev/null
    ;;
  stop)
    dir=${2:?}; bin=$(bindir) || true
    if [ -f "$dir/data/postmaster.pid" ] && [ -n "$bin" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  uri)
    uri "${2:?}"
    ;;
  *)
    echo "usage: pg_temp.sh start|stop|halt|resume|uri DIR | check" >&2; exit 2 ;;
esac
