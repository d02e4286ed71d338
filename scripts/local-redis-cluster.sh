#!/usr/bin/env bash
# A Redis Cluster of three masters and three replicas on local ports, from Debian's redis-server, for the cluster suite
# and for trying REDIS_CLUSTER=true by hand (README "Redis Cluster").
#
#   scripts/local-redis-cluster.sh start        start the six nodes and make the cluster (kept when running whole)
#   scripts/local-redis-cluster.sh stop         stop them and forget the cluster
#   scripts/local-redis-cluster.sh start-node P start the node of port P again (after a test killed it)
#
# REDIS_CLUSTER_PORT (7000) is the first port (the nodes use it and the five after it); REDIS_CLUSTER_DIR
# (/tmp/seatlink-redis-cluster) keeps each node's cluster state. Prints the URL of a seed node.
set -euo pipefail

FIRST="${REDIS_CLUSTER_PORT:-7000}"
DIR="${REDIS_CLUSTER_DIR:-/tmp/seatlink-redis-cluster}"
PORTS=()
for i in 0 1 2 3 4 5; do PORTS+=("$((FIRST + i))"); done

node() {
  local port="$1"
  mkdir -p "$DIR/$port"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$DIR/$port" \
    --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000 \
    --save "" --appendonly no --logfile "$DIR/$port/redis.log" --pidfile "$DIR/$port/redis.pid"
}

# Every slot served, and all six nodes up: three masters, each with its replica (a cluster a test left with a node
# down is made again, or the next test that kills a master may kill one with no replica).
healthy() {
  local nodes
  redis-cli -h 127.0.0.1 -p "$FIRST" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  nodes="$(redis-cli -h 127.0.0.1 -p "$FIRST" cluster nodes 2>/dev/null)" || return 1
  [ "$(grep -c ' connected' <<<"$nodes")" -eq 6 ] && ! grep -q 'fail' <<<"$nodes" &&
    [ "$(grep -c 'master' <<<"$nodes")" -eq 3 ]
}

start() {
  if healthy; then
    echo "redis://127.0.0.1:$FIRST"
    return
  fi
  stop
  for port in "${PORTS[@]}"; do node "$port"; done
  for port in "${PORTS[@]}"; do
    for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  done
  redis-cli --cluster create $(printf '127.0.0.1:%s ' "${PORTS[@]}") --cluster-replicas 1 --cluster-yes >/dev/null
  for _ in $(seq 100); do healthy && break; sleep 0.2; done
  healthy || { echo "the cluster did not come up" >&2; exit 1; }
  echo "redis://127.0.0.1:$FIRST"
}

stop() {
  for port in "${PORTS[@]}"; do redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true; done
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  start-node) node "${2:?port}" ;;
  *)
    echo "usage: $0 start|stop|start-node PORT" >&2
    exit 2
    ;;
esac
