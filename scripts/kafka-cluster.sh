#!/usr/bin/env bash
# Local multi-node Kafka cluster for development and the multi-broker tests: N KRaft nodes
# (default 3) with the dev broker's users and settings (SASL_PLAINTEXT, SCRAM-SHA-512/256
# and PLAIN, StandardAuthorizer, super.users=User:admin, delegation tokens, the SASL_SSL and
# mTLS listeners). Every node is broker+controller: a quorum of three voters survives one
# node down. Each node's config is scripts/kafka.sh's single-broker config (its
# write_config) plus a block of overrides: node id, the quorum, replication factors. The
# nodes share one CA and broker certificate (<cluster state dir>/tls, as kafka.sh describes).
#
#   bash scripts/kafka-cluster.sh start [--brokers N]  jars if needed, format every node once (one cluster id,
#                                                      the same SCRAM users), start them all, wait until each answers
#   bash scripts/kafka-cluster.sh stop                 clean shutdown of every node at once (SIGKILL after
#                                                      KAFKA_STOP_TIMEOUT)
#   bash scripts/kafka-cluster.sh status               one line per node and the active controller;
#                                                      exit 0 all running, 3 none, 4 some
#   bash scripts/kafka-cluster.sh reset                stop and delete every node's data
#   bash scripts/kafka-cluster.sh stop-node I          one node: clean stop / SIGKILL (a broker lost) /
#   bash scripts/kafka-cluster.sh kill-node I          start again and wait until it answers
#   bash scripts/kafka-cluster.sh start-node I
#   bash scripts/kafka-cluster.sh leader               the node id of the active controller (from the
#                                                      running nodes' quorum-state files)
#   With --if-present, stop and status say nothing when the cluster was never started
#   (what `npm run kafka:stop` and `bash scripts/kafka.sh status` call).
#
# `npm run kafka:start -- --brokers 3` runs this through scripts/kafka.sh.
#
# Environment: KAFKA_CLUSTER_STATE_DIR (default .kafka-cluster; node I in node-I),
# KAFKA_CLUSTER_BASE_PORT (19092): node I's listeners are, with P = BASE+I-1, SASL_PLAINTEXT
# on P (19092, 19093, 19094), its controller on P+10, SASL_SSL on P+20, mTLS on P+30;
# KAFKA_HEAP per node (default -Xmx512m -Xms128m: several JVMs on a small machine),
# KAFKA_START_TIMEOUT, KAFKA_STOP_TIMEOUT as for scripts/kafka.sh.
set -euo pipefail

: "${KAFKA_HEAP:=-Xmx512m -Xms128m}"
# shellcheck source=scripts/kafka.sh
source "$(dirname "${BASH_SOURCE[0]}")/kafka.sh"

CLUSTER_DIR="${KAFKA_CLUSTER_STATE_DIR:-$ROOT/.kafka-cluster}"
case "$CLUSTER_DIR" in /*) ;; *) CLUSTER_DIR="$ROOT/$CLUSTER_DIR" ;; esac
BASE_PORT="${KAFKA_CLUSTER_BASE_PORT:-19092}"
MAX_NODES=5

csay() { printf 'kafka-cluster: %s\n' "$*"; }
cdie() { printf 'kafka-cluster: %s\n' "$*" >&2; exit 1; }

client_port() { echo $((BASE_PORT + $1 - 1)); }

# Selects node $1: its state dir and ports become kafka.sh's STATE_DIR, PORT, CONTROLLER_PORT, ...
node() {
  state_paths "$CLUSTER_DIR/node-$1"
  PORT=$(client_port "$1")
  CONTROLLER_PORT=$((PORT + 10))
  SASL_SSL_PORT=$((PORT + 20))
  MTLS_PORT=$((PORT + 30))
}

node_count() { cat "$CLUSTER_DIR/nodes" 2>/dev/null || echo 0; }

voters_of() {
  local n=$1 i list=""
  for ((i = 1; i <= n; i++)); do list+="${list:+,}$i@127.0.0.1:$(($(client_port "$i") + 10))"; done
  echo "$list"
}

bootstrap_of() {
  local n=$1 i list=""
  for ((i = 1; i <= n; i++)); do list+="${list:+,}127.0.0.1:$(client_port "$i")"; done
  echo "$list"
}

# kafka.sh's config for the selected node $1 of $2, then this node's overrides (a
# properties file keeps the last value of a repeated key).
write_node_config() {
  local i=$1 n=$2 rf min_isr
  rf=$((n < 3 ? n : 3))
  min_isr=$((rf < 2 ? 1 : 2))
  mkdir -p "$STATE_DIR"
  [[ -L "$STATE_DIR/tls" ]] || ln -sfn ../tls "$STATE_DIR/tls"
  write_config
  cat >>"$PROPS" <<CONF

# ---- node $i of a $n-node cluster (scripts/kafka-cluster.sh); overrides the keys above
node.id=$i
controller.quorum.voters=$(voters_of "$n")
# Three JVMs starting at once on a small, busy machine: a broker may wait longer than the
# default minute for the quorum to register it (it exits when that runs out).
initial.broker.registration.timeout.ms=$((TIMEOUT * 1000))
default.replication.factor=$rf
offsets.topic.replication.factor=$rf
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$min_isr
share.coordinator.state.topic.replication.factor=$rf
share.coordinator.state.topic.min.isr=$min_isr
CONF
}

cluster_lock() {
  mkdir -p "$CLUSTER_DIR"
  exec 9>"$CLUSTER_DIR/.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
}

# Launches node $1 of $2 unless it runs; appends "node pid t0 log_start" to LAUNCHED.
launch_node() {
  local i=$1 n=$2 pid p
  node "$i"
  if pid="$(running_pid)"; then
    csay "node $i already running (pid $pid) on 127.0.0.1:$PORT"
    return 0
  fi
  rm -f "$PID_FILE"
  for p in "$PORT" "$CONTROLLER_PORT" "$SASL_SSL_PORT" "$MTLS_PORT"; do
    if port_open "$p"; then cdie "port $p on 127.0.0.1 (node $i) is taken by another process; stop it or set KAFKA_CLUSTER_BASE_PORT."; fi
  done
  write_node_config "$i" "$n"
  format_once "$(cat "$CLUSTER_DIR/cluster-id")"
  launch_broker
  csay "node $i starting (pid $LAUNCHED_PID) on 127.0.0.1:$PORT"
  LAUNCHED+=("$i $LAUNCHED_PID $LAUNCHED_AT $LAUNCHED_LOG_START")
}

# Waits for every launched node (they need each other: the controller quorum elects a
# leader only once a majority runs). False when one did not come up.
await_nodes() {
  local entry i pid t0 log_start ok=0
  for entry in "${LAUNCHED[@]}"; do
    read -r i pid t0 log_start <<<"$entry"
    node "$i"
    # A subshell: await_broker exits when the JVM dies, and the others must be stopped then.
    if ! (say() { csay "node $i: $*"; } && await_broker "$pid" "$t0" "$log_start"); then
      csay "node $i did not come up"
      ok=1
    fi
  done
  return "$ok"
}

prepare() {
  need_java
  fetch_jars
  cluster_lock
  [[ -s "$CLUSTER_DIR/cluster-id" ]] || new_cluster_id >"$CLUSTER_DIR/cluster-id"
  # The TLS listeners' CA and certificates, shared by every node.
  ensure_tls_material "$CLUSTER_DIR/tls"
}

cmd_cluster_start() {
  local n=$1 i had
  prepare
  had="$(node_count)"
  if ((had > 0 && had != n)) && [[ -d "$CLUSTER_DIR/node-1/data" ]]; then
    cdie "the cluster in $CLUSTER_DIR was formatted with $had nodes; reset it (bash scripts/kafka-cluster.sh reset) to start $n."
  fi
  echo "$n" >"$CLUSTER_DIR/nodes"
  LAUNCHED=()
  for ((i = 1; i <= n; i++)); do launch_node "$i" "$n"; done
  if ((${#LAUNCHED[@]} > 0)); then
    csay "waiting up to ${TIMEOUT}s for ${#LAUNCHED[@]} node(s) ..."
    if ! await_nodes; then
      stop_all >/dev/null 2>&1 || true
      cdie "the cluster did not start (see above); stopped every node."
    fi
  fi
  csay "ready: KAFKA_BOOTSTRAP_SERVERS=$(bootstrap_of "$n") (CA for SASL_SSL: $CLUSTER_DIR/tls/ca.pem)"
}

# Every node at once: a node stopping after the others would wait for a quorum that is gone.
stop_all() {
  local n i
  n="$(node_count)"
  for ((i = 1; i <= n; i++)); do
    (node "$i" && say() { csay "node $i: $*"; } && cmd_stop --locked) &
  done
  wait
}

cmd_cluster_status() {
  local n i pid up=0 leader
  n="$(node_count)"
  if ((n == 0)); then
    csay "not set up in $CLUSTER_DIR"
    return 3
  fi
  for ((i = 1; i <= n; i++)); do
    node "$i"
    if pid="$(running_pid)"; then
      up=$((up + 1))
      if port_open "$PORT"; then csay "node $i: running (pid $pid) on 127.0.0.1:$PORT"; else csay "node $i: process $pid is up but port $PORT does not answer"; fi
    else
      csay "node $i: not running (127.0.0.1:$PORT)"
    fi
  done
  if leader="$(active_controller)"; then csay "active controller: node $leader"; fi
  if ((up == n)); then return 0; elif ((up == 0)); then return 3; else return 4; fi
}

# The leader of the highest epoch that a running node's quorum-state file records.
active_controller() {
  local n i best_epoch=-1 best="" state epoch leader
  n="$(node_count)"
  for ((i = 1; i <= n; i++)); do
    node "$i"
    running_pid >/dev/null || continue
    state="$(cat "$DATA_DIR/__cluster_metadata-0/quorum-state" 2>/dev/null)" || continue
    epoch="$(sed -n 's/.*"leaderEpoch":\([0-9-]*\).*/\1/p' <<<"$state")"
    leader="$(sed -n 's/.*"leaderId":\([0-9-]*\).*/\1/p' <<<"$state")"
    [[ "$epoch" =~ ^[0-9]+$ && "$leader" =~ ^[0-9]+$ ]] || continue
    if ((epoch > best_epoch)); then best_epoch=$epoch best=$leader; fi
  done
  [[ -n "$best" ]] && echo "$best"
}

one_node() {
  local i="${1:-}" n
  n="$(node_count)"
  [[ "$i" =~ ^[0-9]+$ ]] && ((i >= 1 && i <= n)) || cdie "no node '$i' (the cluster has $n)."
  node "$i"
}

usage() {
  echo "usage: bash scripts/kafka-cluster.sh start [--brokers N] | stop | status | reset | stop-node I | kill-node I | start-node I | leader" >&2
  exit 2
}
command="${1:-}"
shift || true
brokers=3
if_present=0
node_arg=""
while (($# > 0)); do
  case "$1" in
    --brokers) brokers="${2:-}"; shift 2 || usage ;;
    --brokers=*) brokers="${1#*=}"; shift ;;
    --if-present) if_present=1; shift ;;
    [0-9]*) node_arg="$1"; shift ;;
    *) usage ;;
  esac
done
if ! [[ "$brokers" =~ ^[0-9]+$ ]] || ((brokers < 2 || brokers > MAX_NODES)); then
  cdie "--brokers takes a number of brokers from 2 to $MAX_NODES, got '$brokers'."
fi
if ((if_present)) && [[ ! -s "$CLUSTER_DIR/nodes" ]]; then exit 0; fi

case "$command" in
  start) cmd_cluster_start "$brokers" ;;
  stop) cluster_lock; stop_all ;;
  status) cmd_cluster_status ;;
  reset)
    cluster_lock
    stop_all
    rm -rf "$CLUSTER_DIR"/node-* "$CLUSTER_DIR/cluster-id" "$CLUSTER_DIR/nodes" "$CLUSTER_DIR/tls"
    csay "data deleted; the next start formats a fresh cluster"
    ;;
  stop-node) one_node "$node_arg"; cluster_lock; say() { csay "node $node_arg: $*"; }; cmd_stop --locked ;;
  kill-node)
    one_node "$node_arg"
    if pid="$(running_pid)"; then
      kill -KILL "$pid"
      wait_gone "$pid" 10 || cdie "node $node_arg (pid $pid) is still there 10s after SIGKILL."
      rm -f "$PID_FILE" "$CDS_DUMP"
      csay "node $node_arg killed (pid $pid)"
    else
      csay "node $node_arg is not running"
    fi
    ;;
  start-node)
    one_node "$node_arg"
    prepare
    LAUNCHED=()
    launch_node "$node_arg" "$(node_count)"
    if ((${#LAUNCHED[@]} > 0)); then await_nodes || cdie "node $node_arg did not come up (see above)."; fi
    ;;
  leader) active_controller || cdie "no running node knows the active controller." ;;
  *) usage ;;
esac
