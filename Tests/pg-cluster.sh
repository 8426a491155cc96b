#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests.
#
#   pg-cluster.sh start DIR   creates DIR (initdb, trust auth, 127.0.0.1 on a free port, unix socket in
#                             DIR), starts it and prints its URL (also written to DIR/url)
#   pg-cluster.sh stop DIR    stops it and removes DIR
#   pg-cluster.sh halt DIR    stops it, keeping DIR (a database outage)
#   pg-cluster.sh resume DIR  starts a halted cluster again, on the same port and data
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user (created by
# Debian's package) through runuser.
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|halt|resume DIR" >&2; exit 2; }

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bindir/initdb" ] || { echo "pg-cluster: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Starts the server of $dir on $port.
serve() {
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c max_connections=200" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
}

case "$cmd" in
start)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  serve
  url="postgres://postgres@127.0.0.1:$port/postgres"
  echo "$url" >"$dir/url"
  echo "$url"
  ;;
stop)
  [ -d "$dir/data" ] && as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
halt)
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
  ;;
resume)
  dir=$(cd "$dir" && pwd)
  url=$(cat "$dir/url")
  port=${url##*:}; port=${port%%/*}
  serve
  ;;
*)
  echo "usage: $0 start|stop|halt|resume DIR" >&2; exit 2 ;;
esac
