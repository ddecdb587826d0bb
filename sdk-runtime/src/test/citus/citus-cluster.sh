#!/usr/bin/env bash
# A Citus cluster on this machine for the tests and the bench: a coordinator and two workers on
# loopback ports, made with the installed PostgreSQL and Citus (this script installs nothing).
#
#   citus-cluster.sh start [DIR]    initdb each node into DIR (once), start them, join the workers
#   citus-cluster.sh stop [DIR]     stop the three nodes (their data stays in DIR)
#   citus-cluster.sh status [DIR]   whether each node runs, and the coordinator's active workers
#
# DIR defaults to sdk-runtime/target/citus-cluster. Ports: CITUS_PORT (default 9700) for the
# coordinator, the next two for the workers. PG_CONFIG names the pg_config of the PostgreSQL to use
# (default: the one on PATH). Nodes trust local connections (loopback only) and keep durable
# commits on (fsync, synchronous_commit), with pg_stat_statements and citus.enable_stat_counters for
# the tests that count statements. Run as root, the servers run as the user "postgres".
# `start` prints the settings the citus Maven profile reads:
#   HOOKLEDGER_TEST_DATABASE_URL=jdbc:postgresql://localhost:9700/postgres?user=postgres
#   HOOKLEDGER_TEST_CITUS_WORKERS=localhost:9701,localhost:9702
set -euo pipefail

command=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
dir=${2:-$here/../../../target/citus-cluster}
port=${CITUS_PORT:-9700}
pg_config=${PG_CONFIG:-pg_config}
nodes=(coordinator worker1 worker2)

usage() {
  echo "usage: $0 start|stop|status [DIR]" >&2
  exit 64
}

[ -n "$command" ] || usage
if ! command -v "$pg_config" >/dev/null 2>&1; then
  echo "no pg_config on PATH (set PG_CONFIG): PostgreSQL's server and its development files are needed" >&2
  exit 69
fi
bin=$("$pg_config" --bindir)
if [ ! -f "$("$pg_config" --pkglibdir)/citus.so" ] || [ ! -f "$("$pg_config" --sharedir)/extension/citus.control" ]; then
  echo "Citus is not installed for the PostgreSQL of $bin ($("$pg_config" --version))." >&2
  echo "Install it first, from Citus's packages or from source, as its documentation says:" >&2
  echo "  https://docs.citusdata.com/en/stable/installation/index.html" >&2
  echo "  https://github.com/citusdata/citus/blob/main/CONTRIBUTING.md" >&2
  exit 69
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# PostgreSQL refuses to run as root: then each server runs as the user postgres
as_server() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

node_port() { echo $((port + $1)); }

sql() { # PORT SQL: runs SQL on that node's database postgres
  as_server "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h localhost -p "$1" -U postgres -d postgres -tA -c "$2"
}

start() {
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
  fi
  for i in 0 1 2; do
    local data=$dir/${nodes[$i]} p
    p=$(node_port $i)
    if [ ! -f "$data/PG_VERSION" ]; then
      as_server "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C >"$dir/${nodes[$i]}-initdb.log"
      cat >>"$data/postgresql.conf" <<CONF
# hookledger's Citus test cluster
port = $p
listen_addresses = 'localhost'
unix_socket_directories = '$dir'
shared_preload_libraries = 'citus,pg_stat_statements'
citus.shard_count = 8
max_connections = 300
# Citus runs a maintenance daemon (distributed deadlock detection, recovery of two-phase commits) per
# database, as a background worker: the default 8 workers leave most test databases without one
max_worker_processes = 64
fsync = on
synchronous_commit = on
citus.enable_stat_counters = on
CONF
    fi
    if ! as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      as_server "$bin/pg_ctl" -D "$data" -l "$dir/${nodes[$i]}.log" -w -t 120 start >/dev/null
    fi
  done
  for i in 0 1 2; do
    sql "$(node_port $i)" "CREATE EXTENSION IF NOT EXISTS citus"
  done
  sql "$port" "SELECT citus_set_coordinator_host('localhost', $port)" >/dev/null
  for i in 1 2; do
    sql "$port" "SELECT citus_add_node('localhost', $(node_port $i))" >/dev/null
  done
  echo "HOOKLEDGER_TEST_DATABASE_URL=jdbc:postgresql://localhost:$port/postgres?user=postgres"
  echo "HOOKLEDGER_TEST_CITUS_WORKERS=localhost:$(node_port 1),localhost:$(node_port 2)"
}

stop() {
  for i in 2 1 0; do
    local data=$dir/${nodes[$i]}
    if [ -f "$data/PG_VERSION" ] && as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      as_server "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
      echo "${nodes[$i]} stopped"
    fi
  done
}

status() {
  local running=0
  for i in 0 1 2; do
    local data=$dir/${nodes[$i]}
    if [ -f "$data/PG_VERSION" ] && as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      echo "${nodes[$i]}: running on localhost:$(node_port $i)"
      running=$((running + 1))
    else
      echo "${nodes[$i]}: not running"
    fi
  done
  if [ "$running" -gt 0 ] && sql "$port" "SELECT 1" >/dev/null 2>&1; then
    echo "active workers: $(sql "$port" "SELECT string_agg(node_name || ':' || node_port, ', ' ORDER BY node_port) FROM citus_get_active_worker_nodes()")"
  fi
  [ "$running" = 3 ]
}

case "$command" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
