#!/bin/sh
# Makes the Redis Cluster of the compose stack's redis-cluster profile (redis-node-1 … redis-node-6 in
# docker-compose.yml; README "Redis Cluster"): three masters and three replicas, once. It runs on every
# `docker compose --profile redis-cluster up` and never makes a cluster twice:
#   - every node says cluster_state:ok: nothing to do;
#   - no node knows another nor serves a slot (new volumes): `redis-cli --cluster create … --cluster-replicas 1`;
#   - the nodes were a cluster but are not all ok yet: each is introduced to the others again at its current address
#     (CLUSTER MEET; a node already known only has its address updated). Recreated containers may come back on other
#     addresses, and the nodes keep their peers' old ones in nodes.conf; a node restarted alone finds its peers by
#     itself. Then it waits for every node to say cluster_state:ok.
# A mix of new and old nodes (one node's volume removed) is left to a person: it says what to do and fails.
#
# REDIS_CLUSTER_NODES: the nodes, host:port, space-separated (default: the compose services at 6379);
# REDIS_CLUSTER_WAIT_SECONDS (120): how long to wait for the nodes to answer, then for the cluster to be ok.
set -eu

NODES="${REDIS_CLUSTER_NODES:-redis-node-1:6379 redis-node-2:6379 redis-node-3:6379 redis-node-4:6379 redis-node-5:6379 redis-node-6:6379}"
WAIT="${REDIS_CLUSTER_WAIT_SECONDS:-120}"

cli() {
  node="$1"
  shift
  redis-cli -h "${node%:*}" -p "${node##*:}" "$@"
}

# A field of a node's CLUSTER INFO (empty when the node does not answer).
info() {
  cli "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"
}

# The address the node is reached at: the local address of a connection to it (CLIENT INFO's laddr).
address() {
  laddr="$(cli "$1" client info | tr ' ' '\n' | sed -n 's/^laddr=//p')"
  ip="${laddr%:*}"
  ip="${ip#\[}"
  echo "${ip%\]}"
}

all_ok() {
  for node in $NODES; do
    [ "$(info "$node" cluster_state)" = ok ] || return 1
  done
}

for node in $NODES; do
  waited=0
  until [ "$(cli "$node" ping 2>/dev/null)" = PONG ]; do
    if [ "$waited" -ge "$WAIT" ]; then
      echo "$node did not answer in ${WAIT}s" >&2
      exit 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
done

if all_ok; then
  echo "The Redis Cluster is made: $NODES"
  exit 0
fi

new=''
old=''
for node in $NODES; do
  if [ "$(info "$node" cluster_known_nodes)" = 1 ] && [ "$(info "$node" cluster_slots_assigned)" = 0 ]; then
    new="$new $node"
  else
    old="$old $node"
  fi
done

if [ -z "$old" ]; then
  echo "Making the Redis Cluster of$new"
  # shellcheck disable=SC2086 # one argument per node
  redis-cli --cluster create $NODES --cluster-replicas 1 --cluster-yes
elif [ -z "$new" ]; then
  echo "Introducing the nodes to each other again at their current addresses"
  for node in $NODES; do
    ip="$(address "$node")"
    for other in $NODES; do
      [ "$other" != "$node" ] || continue
      reply="$(cli "$other" cluster meet "$ip" "${node##*:}" 2>&1 || true)"
      [ "$reply" = OK ] || echo "$other: CLUSTER MEET $ip ${node##*:}: $reply" >&2
    done
  done
else
  echo "Part of the nodes are in the Redis Cluster (${old# }), part are new (${new# }): not made again." >&2
  echo "Add each new one as a replica (redis-cli --cluster add-node NEW:6379 OLD:6379 --cluster-slave) and forget" >&2
  echo "its old id on the others (CLUSTER FORGET), or remove every node's volume to make a new cluster." >&2
  exit 1
fi

waited=0
until all_ok; do
  if [ "$waited" -ge "$WAIT" ]; then
    echo "The Redis Cluster is not ok after ${WAIT}s:" >&2
    cli "${NODES%% *}" cluster nodes >&2 || true
    exit 1
  fi
  sleep 1
  waited=$((waited + 1))
done
echo "The Redis Cluster is ok: $NODES"
