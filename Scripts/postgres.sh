#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback, for the tests and benchmarks.
#
#   Scripts/postgres.sh start DIR   creates a cluster in DIR (new or empty), starts it on a free
#                                   loopback port and prints its URL (postgres://touchtracker@127.0.0.1:PORT/touchtracker)
#   Scripts/postgres.sh url DIR     prints the URL of the server started in DIR
#   Scripts/postgres.sh stop DIR    stops that server and removes DIR
#
# Installs Debian's postgresql if it is missing (Scripts/setup.sh postgres). initdb refuses to
# run as root, so as root the cluster belongs to the `postgres` user (runuser); the server
# trusts local connections, which is what a throwaway test cluster on 127.0.0.1 wants.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: Scripts/postgres.sh start|url|stop DIR" >&2; exit 2; }
(($# == 2)) || usage
command=$1
dir=$2

as_owner() {
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() {
  [[ -f "$dir/port" ]] || { echo "postgres.sh: no server was started in '$dir'" >&2; exit 1; }
  echo "postgres://touchtracker@127.0.0.1:$(cat "$dir/port")/touchtracker"
}

case "$command" in
  start)
    Scripts/setup.sh postgres
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -x "$bin/initdb" ]] || { echo "postgres.sh: no initdb under /usr/lib/postgresql/*/bin" >&2; exit 1; }
    mkdir -p "$dir"
    if [[ -n $(ls -A "$dir") ]]; then echo "postgres.sh: '$dir' is not empty" >&2; exit 1; fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$dir/data" "$dir/socket"
    [[ $(id -u) == 0 ]] && chown -R postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U touchtracker -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # Many test stores run at once, each with its own pool.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir/socket -c max_connections=400 -c shared_buffers=64MB" >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    "$bin/psql" -q -h 127.0.0.1 -p "$port" -U touchtracker -d postgres -c "CREATE DATABASE touchtracker" >/dev/null
    url
    ;;
  url) url ;;
  stop)
    if [[ -d "$dir/data" ]]; then
      bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
