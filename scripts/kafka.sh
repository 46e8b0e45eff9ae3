#!/usr/bin/env bash
# Dev/test Kafka broker: Apache Kafka 4.1.1, KRaft single node (broker+controller),
# SASL_PLAINTEXT on 127.0.0.1 with SCRAM-SHA-512/256 and PLAIN, StandardAuthorizer,
# super.users=User:admin, delegation tokens enabled.
#
#   bash scripts/kafka.sh start    fetch jars if needed, format once, start, wait until it answers
#   bash scripts/kafka.sh stop     stop the broker started from this tree: SIGTERM (a clean shutdown), wait until
#                                  the process is gone, SIGKILL after KAFKA_STOP_TIMEOUT; says which and how long
#   bash scripts/kafka.sh status   say whether it runs (exit 0) or not (exit 3)
#   bash scripts/kafka.sh jars     fetch the jars into .kafka/lib (Maven, once)
#   bash scripts/kafka.sh reset    stop and delete the broker's data (a fresh cluster on next start)
#   ... --brokers N                with N > 1: the same for a local N-node cluster (scripts/kafka-cluster.sh);
#                                  `stop` and `status` without it cover that cluster too
#
# Environment: KAFKA_PORT (client listener, 9092), KAFKA_CONTROLLER_PORT (9093),
# KAFKA_STATE_DIR (data, logs, pid; default .kafka), KAFKA_START_TIMEOUT (seconds, 180),
# KAFKA_STOP_TIMEOUT (seconds, 60), KAFKA_HEAP (JVM heap flags, default -Xmx1536m -Xms256m).
#
# The heap: at 300,000 ACLs the broker keeps about 500 MB live (the authorizer's ACL cache,
# the controller's ACL table and the metadata image each hold every ACL), which the old
# 512 MB default ran out of; 1.5 GB leaves room for snapshots and full DescribeAcls answers.
# A start at that size replays the metadata for a minute or more, hence the start timeout.
#
# TLS listeners besides SASL_PLAINTEXT on KAFKA_PORT: SASL_SSL (the same users and
# mechanisms) on KAFKA_SASL_SSL_PORT (default KAFKA_PORT+2, 9094) and SSL with a required
# client certificate (mTLS) on KAFKA_MTLS_PORT (default KAFKA_PORT+3, 9095), where a
# certificate CN=<name>,OU=Clients,... is User:<name> (ssl.principal.mapping.rules) and
# any other is its whole DN. The first start makes <state dir>/tls/: ca.pem (the CA to
# trust), client.pem + client.key (CN=console-client,OU=Clients,O=KSC), the broker's
# broker.p12 and truststore.p12. Delete that directory to get new ones at the next start.
#
# Single sign-on (#21, docs/sso.md): the dev broker (no KAFKA_STATE_DIR) first starts the
# development OpenID Connect provider (scripts/oidc/serve.ts, 127.0.0.1:OIDC_DEV_PORT, 9400;
# KSC_OIDC_DEV=0 leaves it out) and then offers SASL_PLAINTEXT with OAUTHBEARER on
# KAFKA_OAUTH_PORT (default KAFKA_PORT+4, 9096): Kafka's OAuthBearerValidatorCallbackHandler
# checks the token against the provider's JWKS (issuer, audience `kafka`), and the principal
# is User:<preferred_username>. Connections there re-authenticate within 5 minutes
# (connections.max.reauth.ms). Without the provider the broker starts without that listener.
#
# Users: admin (super user) has SCRAM-SHA-512/256 credentials from format time and a
# PLAIN password; alice, bob, carol, svc-orders, svc-billing have PLAIN passwords from
# the static JAAS config below. Every password is "<name>-secret". `npm start` and
# `npm run seed` add console-service, the console's service principal (SCRAM, DESCRIBE on
# the cluster only; its random password in <state dir>/console-service.json, mode 0600).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIB_DIR="$ROOT/.kafka/lib"
# Class-data sharing archive of the broker's classes: a function of the jars and the JVM,
# so it lives with the jars and serves every state dir. The first broker that stops
# cleanly dumps it (to its own temp file, then moved into place).
CDS_ARCHIVE="$LIB_DIR/kafka-cds.jsa"
CDS_STAMP="$LIB_DIR/kafka-cds.java"

# The paths of one broker's state dir $1 (relative to the tree unless absolute). The
# multi-node cluster (scripts/kafka-cluster.sh) calls it once per node.
state_paths() {
  STATE_DIR="$1"
  case "$STATE_DIR" in /*) ;; *) STATE_DIR="$ROOT/$STATE_DIR" ;; esac
  DATA_DIR="$STATE_DIR/data"
  LOG_DIR="$STATE_DIR/logs"
  PID_FILE="$STATE_DIR/kafka.pid"
  PROPS="$STATE_DIR/server.properties"
  LOG4J="$STATE_DIR/log4j2.xml"
  CDS_DUMP="$STATE_DIR/kafka-cds.jsa.dump"
}
state_paths "${KAFKA_STATE_DIR:-$ROOT/.kafka}"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
TIMEOUT="${KAFKA_START_TIMEOUT:-180}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-60}"
HEAP="${KAFKA_HEAP:--Xmx1536m -Xms256m}"
PLAIN_USERS=(admin alice bob carol svc-orders svc-billing)
SASL_SSL_PORT="${KAFKA_SASL_SSL_PORT:-$((PORT + 2))}"
MTLS_PORT="${KAFKA_MTLS_PORT:-$((PORT + 3))}"
OAUTH_PORT="${KAFKA_OAUTH_PORT:-$((PORT + 4))}"
OIDC_PORT="${OIDC_DEV_PORT:-9400}"
OIDC_DIR="$ROOT/.oidc"
OIDC_PID_FILE="$OIDC_DIR/oidc.pid"
# Set by start_oidc when the provider answers: the broker then gets the OAUTH listener.
OAUTH_ENABLED=0
# The dev broker's keystore and truststore password (they hold nothing secret).
TLS_STORE_PASSWORD="dev-only-tls-password"
TLS_DIR=""

say() { printf 'kafka: %s\n' "$*"; }
die() { printf 'kafka: %s\n' "$*" >&2; exit 1; }

need_java() {
  command -v java >/dev/null 2>&1 || die "Java 17 or newer is required but 'java' is not on PATH. Install a JDK/JRE 17+ (e.g. apt-get install openjdk-17-jre-headless)."
  local v major
  v="$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n1)"
  major="${v%%.*}"
  [[ "$major" == "1" ]] && major="$(echo "$v" | cut -d. -f2)"
  [[ "$major" =~ ^[0-9]+$ ]] || die "could not read the Java version from 'java -version' (got '$v')."
  ((major >= 17)) || die "Java 17 or newer is required; 'java' on PATH is version $v."
}

pom_sum() { sha256sum "$ROOT/pom.xml" | cut -d' ' -f1; }

jars_ok() { [[ -f "$LIB_DIR/.pom.sha256" && "$(cat "$LIB_DIR/.pom.sha256")" == "$(pom_sum)" ]]; }

fetch_jars() {
  if jars_ok; then return 0; fi
  command -v mvn >/dev/null 2>&1 || die "the Kafka jars are not in .kafka/lib yet and Maven ('mvn') is not on PATH to fetch them. Install Maven 3.6+ (e.g. apt-get install maven) and run again."
  say "fetching Apache Kafka jars from Maven Central into .kafka/lib (once)..."
  rm -rf "$LIB_DIR"
  mkdir -p "$LIB_DIR"
  if ! (cd "$ROOT" && mvn -q -B -f pom.xml dependency:copy-dependencies); then
    rm -rf "$LIB_DIR"
    die "Maven could not fetch the Kafka jars (see the output above). Is Maven Central reachable?"
  fi
  pom_sum >"$LIB_DIR/.pom.sha256"
  say "jars ready: $(find "$LIB_DIR" -name '*.jar' | wc -l) files"
}

# Whether pid $1 is the broker JVM of THIS state dir (guards against a recycled pid and
# against another tree's broker): its command line runs kafka.Kafka with our properties.
is_our_broker() {
  local args
  args="$({ tr '\0' '\n' <"/proc/$1/cmdline"; } 2>/dev/null)" || return 1
  grep -qxF "$PROPS" <<<"$args" && grep -qxF "kafka.Kafka" <<<"$args"
}

running_pid() {
  local pid
  if [[ -f "$PID_FILE" ]]; then
    pid="$(cat "$PID_FILE" 2>/dev/null || true)"
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && is_our_broker "$pid"; then
      echo "$pid"
      return 0
    fi
  fi
  # The pid file is gone or stale but our broker may still run (a start interrupted
  # before it wrote the file, a file deleted by hand): find it by its properties file.
  local dir
  for dir in /proc/[0-9]*; do
    pid="${dir#/proc/}"
    if is_our_broker "$pid"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_config() {
  mkdir -p "$STATE_DIR" "$LOG_DIR"
  local plain_users="" u
  for u in "${PLAIN_USERS[@]}"; do plain_users+=" user_${u}=\"${u}-secret\""; done
  cat >"$PROPS" <<EOF
# Written by scripts/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${CONTROLLER_PORT}
listeners=CLIENT://127.0.0.1:${PORT},CONTROLLER://127.0.0.1:${CONTROLLER_PORT}$(tls_listeners)$(oauth_listener)
advertised.listeners=CLIENT://127.0.0.1:${PORT}$(tls_listeners)$(oauth_listener)
listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,MTLS:SSL,OAUTH:SASL_PLAINTEXT
inter.broker.listener.name=CLIENT
controller.listener.names=CONTROLLER

# Clients: SCRAM (credentials in the metadata log) and PLAIN (static list below).
listener.name.client.sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256,PLAIN
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="admin-secret";
listener.name.client.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="admin-secret";
listener.name.client.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret"${plain_users};
# KRaft controllers cannot use SCRAM (the credentials live in the log they serve): PLAIN.
listener.name.controller.sasl.enabled.mechanisms=PLAIN
sasl.mechanism.controller.protocol=PLAIN
listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" user_admin="admin-secret";

authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:admin
allow.everyone.if.no.acl.found=false

delegation.token.secret.key=dev-only-delegation-token-secret-key
delegation.token.expiry.check.interval.ms=5000

# Kafka 4.1.1 loses SCRAM credentials on restart when it replays the metadata log from
# an empty image and the log holds a credential deletion (ScramDelta.apply drops a
# mechanism as soon as a removal empties it, mid-loop). Loading from a snapshot is not
# affected, so take snapshots often: a restart then starts from a correct image. Keep
# an hour of them, not the default week.
metadata.log.max.snapshot.interval.ms=10000
metadata.max.retention.ms=3600000

log.dirs=${DATA_DIR}
num.partitions=1
default.replication.factor=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
background.threads=2
log.cleaner.threads=1
EOF
  ensure_tls_material
  tls_properties >>"$PROPS"
  oauth_properties >>"$PROPS"
  cat >"$LOG4J" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="warn">
  <Appenders>
    <File name="server" fileName="${LOG_DIR}/server.log" append="true">
      <PatternLayout pattern="[%d] %p %m (%c)%n"/>
    </File>
  </Appenders>
  <Loggers>
    <!-- Quiet by default (startup replays every metadata record at INFO); keep what a
         developer reads: lifecycle, errors, and the authorizer's denials. -->
    <Root level="warn"><AppenderRef ref="server"/></Root>
    <Logger name="kafka.server.KafkaRaftServer" level="info"/>
    <Logger name="kafka.server.BrokerServer" level="info"/>
    <Logger name="kafka.server.ControllerServer" level="info"/>
    <Logger name="kafka.authorizer.logger" level="info"/>
  </Loggers>
</Configuration>
EOF
}

# TLS material for the SASL_SSL and mTLS listeners, made once into $1 (default
# $STATE_DIR/tls) and reused: a CA, the broker's key and certificate (127.0.0.1 and
# localhost) in a PKCS12 keystore, a truststore holding the CA (keytool), and a client
# certificate with its key in PEM (CN=console-client,OU=Clients,O=KSC). Made in a temp
# dir and moved into place, so an interrupted start leaves nothing half made. Sets TLS_DIR.
ensure_tls_material() {
  TLS_DIR="${1:-$STATE_DIR/tls}"
  [[ -f "$TLS_DIR/.complete" ]] && return 0
  command -v openssl >/dev/null 2>&1 || die "'openssl' is needed to make the TLS certificates (apt-get install openssl)."
  command -v keytool >/dev/null 2>&1 || die "'keytool' (part of the JDK) is needed to make the broker's truststore."
  say "making a CA and TLS certificates in $TLS_DIR (once)"
  mkdir -p "$(dirname "$TLS_DIR")"
  local tmp
  tmp="$(mktemp -d "$TLS_DIR.XXXXXX")"
  if ! (
    set -e
    cd "$tmp"
    issue() { # name, subject, extensions: a key and a certificate signed by the CA
      openssl req -new -newkey rsa:2048 -nodes -keyout "$1.key" -subj "$2" -out "$1.csr"
      printf '%b\n' "$3" >"$1.ext"
      openssl x509 -req -sha256 -days 3650 -in "$1.csr" -CA ca.pem -CAkey ca.key -set_serial "0x$(openssl rand -hex 16)" -extfile "$1.ext" -out "$1.pem"
      rm -f "$1.csr" "$1.ext"
    }
    openssl req -x509 -sha256 -days 3650 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -subj "/O=KSC/OU=Dev/CN=KSC dev CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
    issue broker "/O=KSC/OU=Brokers/CN=localhost" "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth"
    issue client "/O=KSC/OU=Clients/CN=console-client" "extendedKeyUsage=clientAuth"
    openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker -out broker.p12 -passout "pass:$TLS_STORE_PASSWORD"
    keytool -importcert -noprompt -alias ksc-dev-ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass "$TLS_STORE_PASSWORD"
    chmod 600 ./*.key
  ) >"$tmp.log" 2>&1; then
    cat "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log"
    die "making the TLS certificates failed (output above)."
  fi
  rm -rf "$TLS_DIR" "$tmp.log"
  mv "$tmp" "$TLS_DIR"
  touch "$TLS_DIR/.complete"
}

# Where the running broker offers TLS, from the config it was started with.
say_tls() {
  if grep -q '^listeners=.*SASL_SSL://' "$PROPS" 2>/dev/null; then
    say "TLS: SASL_SSL on 127.0.0.1:$SASL_SSL_PORT, mTLS on 127.0.0.1:$MTLS_PORT; CA $STATE_DIR/tls/ca.pem, client certificate $STATE_DIR/tls/client.pem (key client.key)"
  else
    say "it runs without the TLS listeners (started by an older scripts/kafka.sh); restart it for them: npm run kafka:stop && npm run kafka:start"
  fi
}

# The TLS listeners, to append to `listeners` and `advertised.listeners`.
tls_listeners() { printf ',SASL_SSL://127.0.0.1:%s,MTLS://127.0.0.1:%s' "$SASL_SSL_PORT" "$MTLS_PORT"; }

# The TLS listeners' settings, after the rest of $PROPS: SASL_SSL takes the CLIENT
# listener's SASL settings (the same users and mechanisms); MTLS requires a client
# certificate and maps CN=<name>,OU=Clients,... to User:<name> (any other DN stays whole).
tls_properties() {
  cat <<EOF

# TLS (scripts/kafka.sh made the files in ${TLS_DIR} at first start).
ssl.keystore.type=PKCS12
ssl.keystore.location=${TLS_DIR}/broker.p12
ssl.keystore.password=${TLS_STORE_PASSWORD}
ssl.key.password=${TLS_STORE_PASSWORD}
ssl.truststore.type=PKCS12
ssl.truststore.location=${TLS_DIR}/truststore.p12
ssl.truststore.password=${TLS_STORE_PASSWORD}
listener.name.mtls.ssl.client.auth=required
listener.name.mtls.ssl.principal.mapping.rules=RULE:^CN=([^,]+),OU=Clients,.*\$/\$1/,DEFAULT
EOF
  sed -n 's/^listener\.name\.client\.\(.*sasl\.\(enabled\.mechanisms\|jaas\.config\)=\)/listener.name.sasl_ssl.\1/p' "$PROPS"
}

# The OAUTH listener, to append to `listeners` and `advertised.listeners` (when the provider runs).
oauth_listener() { if ((OAUTH_ENABLED)); then printf ',OAUTH://127.0.0.1:%s' "$OAUTH_PORT"; fi; }

# The OAUTH listener's settings: tokens of the development provider, validated by Kafka itself.
oauth_properties() {
  ((OAUTH_ENABLED)) || return 0
  cat <<EOF

# OAUTHBEARER (docs/sso.md): tokens of the development OpenID Connect provider on 127.0.0.1:${OIDC_PORT}.
listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required ;
listener.name.oauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
# Kafka 4.1.1's default validator checks no signature unless this names the broker's own (it
# then fetches the JWKS below): without it any well-formed JWT is accepted.
listener.name.oauth.sasl.oauthbearer.jwt.validator.class=org.apache.kafka.common.security.oauthbearer.BrokerJwtValidator
listener.name.oauth.sasl.oauthbearer.jwks.endpoint.url=http://127.0.0.1:${OIDC_PORT}/jwks
listener.name.oauth.sasl.oauthbearer.expected.issuer=http://127.0.0.1:${OIDC_PORT}
listener.name.oauth.sasl.oauthbearer.expected.audience=kafka
listener.name.oauth.sasl.oauthbearer.sub.claim.name=preferred_username
listener.name.oauth.connections.max.reauth.ms=300000
EOF
}

# The Node the project brings (the `node` dev dependency), else the one on PATH.
project_node() {
  if [[ -x "$ROOT/node_modules/node/bin/node" ]]; then echo "$ROOT/node_modules/node/bin/node"; else echo node; fi
}

oidc_answers() { curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$OIDC_PORT/jwks" 2>/dev/null; }

# Starts the development OpenID Connect provider for the dev broker (state dir .kafka; not for
# private brokers or the local cluster's nodes), or finds it running; OAUTH_ENABLED=1 once it answers. A provider
# that does not come up leaves the broker without the OAUTH listener, said so, not failed.
start_oidc() {
  [[ "$STATE_DIR" == "$ROOT/.kafka" && "${KSC_OIDC_DEV:-1}" != "0" ]] || return 0
  if ! oidc_answers; then
    if [[ ! -f "$ROOT/scripts/oidc/serve.ts" || ! -d "$ROOT/node_modules/oidc-provider" ]]; then
      say "no development OpenID provider (npm install first): starting without the OAUTH listener"
      return 0
    fi
    mkdir -p "$OIDC_DIR"
    # exec: the background job is the provider itself (its pid in the file), holding neither
    # this script's output nor its lock (fd 9).
    (cd "$ROOT" && OIDC_DEV_PORT="$OIDC_PORT" exec nohup "$(project_node)" --import tsx scripts/oidc/serve.ts \
      >"$OIDC_DIR/oidc.log" 2>&1 </dev/null) 9>&- &
    echo $! >"$OIDC_PID_FILE"
    local deadline=$((SECONDS + 30))
    until oidc_answers; do
      if ((SECONDS >= deadline)); then
        say "the development OpenID provider did not answer on 127.0.0.1:$OIDC_PORT within 30 s (see $OIDC_DIR/oidc.log): starting without the OAUTH listener"
        stop_oidc
        return 0
      fi
      sleep 0.2
    done
    say "development OpenID provider on http://127.0.0.1:$OIDC_PORT (log $OIDC_DIR/oidc.log)"
  fi
  if port_open "$OAUTH_PORT"; then
    say "port $OAUTH_PORT on 127.0.0.1 (OAUTHBEARER) is taken: starting without the OAUTH listener"
    return 0
  fi
  OAUTH_ENABLED=1
}

# Stops the provider start_oidc started (its pid file), if it still runs.
stop_oidc() {
  [[ "$STATE_DIR" == "$ROOT/.kafka" && -f "$OIDC_PID_FILE" ]] || return 0
  local pid
  pid="$(cat "$OIDC_PID_FILE" 2>/dev/null || true)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -q "scripts/oidc/serve.ts"; then
    kill -TERM "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$OIDC_PID_FILE"
}

jvm_opts() {
  # shellcheck disable=SC2206
  local opts=($HEAP -Xlog:cds=off -Xlog:cds+dynamic=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -Djava.awt.headless=true
    "-Dlog4j2.configurationFile=$LOG4J" "-Dkafka.logs.dir=$LOG_DIR"
    "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=http://127.0.0.1:$OIDC_PORT/jwks"
    -cp "$LIB_DIR/*")
  printf '%s\n' "${opts[@]}"
}

java_stamp() { java -version 2>&1 | tr -d '\n'; }

cds_opts() {
  if [[ -f "$CDS_ARCHIVE" && -f "$CDS_STAMP" && "$(cat "$CDS_STAMP")" == "$(java_stamp)" ]]; then
    printf '%s\n' "-XX:SharedArchiveFile=$CDS_ARCHIVE" -Xshare:auto
  elif [[ "${1:-}" == "dump" ]]; then
    rm -f "$CDS_DUMP"
    printf '%s\n' "-XX:ArchiveClassesAtExit=$CDS_DUMP"
  fi
}

# After a clean stop: adopt the archive the JVM dumped at exit, if none is in place yet.
adopt_cds_dump() {
  [[ -s "$CDS_DUMP" ]] || { rm -f "$CDS_DUMP"; return 0; }
  if [[ ! -f "$CDS_ARCHIVE" || "$(cat "$CDS_STAMP" 2>/dev/null)" != "$(java_stamp)" ]]; then
    mv -f "$CDS_DUMP" "$CDS_ARCHIVE.tmp.$$" && mv -f "$CDS_ARCHIVE.tmp.$$" "$CDS_ARCHIVE" && java_stamp >"$CDS_STAMP"
  fi
  rm -f "$CDS_DUMP"
}

# (A random id may start with "-": format takes it as --cluster-id=..., never as an argument of its own.)
new_cluster_id() { head -c16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }

# Formats the storage once, with cluster id $1 (the nodes of one cluster share it) or a new one.
format_once() {
  [[ -f "$DATA_DIR/meta.properties" ]] && return 0
  say "formatting KRaft storage in $DATA_DIR (once)"
  mkdir -p "$DATA_DIR"
  local cluster_id="${1:-$(new_cluster_id)}"
  mapfile -t opts < <(cds_opts; jvm_opts)
  if ! java "${opts[@]}" kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$PROPS" \
    --add-scram 'SCRAM-SHA-512=[name=admin,password=admin-secret]' \
    --add-scram 'SCRAM-SHA-256=[name=admin,password=admin-secret]' >"$LOG_DIR/format.log" 2>&1; then
    cat "$LOG_DIR/format.log" >&2
    rm -rf "$DATA_DIR"
    die "formatting the storage failed (output above)."
  fi
}

# One start/stop at a time per state dir: concurrent `start`s (several terminals, test
# runners) would otherwise race to launch two JVMs on the same data.
take_lock() {
  mkdir -p "$STATE_DIR"
  exec 9>"$STATE_DIR/.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
}

cmd_start() {
  local pid
  take_lock
  if pid="$(running_pid)"; then
    say "already running (pid $pid) on 127.0.0.1:$PORT"
    say_tls
    return 0
  fi
  rm -f "$PID_FILE"
  need_java
  fetch_jars
  if port_open "$PORT"; then die "port $PORT on 127.0.0.1 is taken by another process; stop it or set KAFKA_PORT."; fi
  if port_open "$CONTROLLER_PORT"; then die "port $CONTROLLER_PORT on 127.0.0.1 is taken by another process; stop it or set KAFKA_CONTROLLER_PORT."; fi
  if port_open "$SASL_SSL_PORT"; then die "port $SASL_SSL_PORT on 127.0.0.1 (SASL_SSL) is taken by another process; stop it or set KAFKA_SASL_SSL_PORT."; fi
  if port_open "$MTLS_PORT"; then die "port $MTLS_PORT on 127.0.0.1 (mTLS) is taken by another process; stop it or set KAFKA_MTLS_PORT."; fi
  start_oidc
  write_config
  format_once
  launch_broker
  say "starting (pid $LAUNCHED_PID), waiting up to ${TIMEOUT}s for 127.0.0.1:$PORT ..."
  await_broker "$LAUNCHED_PID" "$LAUNCHED_AT" "$LAUNCHED_LOG_START" || {
    cmd_stop --locked >/dev/null 2>&1 || true
    die "the broker did not answer within ${TIMEOUT}s (log above); stopped it."
  }
  say_tls
}

# Starts the JVM of the current state dir in the background: LAUNCHED_PID, LAUNCHED_AT
# (ns) and LAUNCHED_LOG_START (server.log's size before) are for await_broker.
launch_broker() {
  LAUNCHED_AT=$(date +%s%N)
  LAUNCHED_LOG_START=$(stat -c %s "$LOG_DIR/server.log" 2>/dev/null || echo 0)
  mapfile -t opts < <(cds_opts dump; jvm_opts)
  nohup java "${opts[@]}" kafka.Kafka "$PROPS" >"$LOG_DIR/stdout.log" 2>&1 </dev/null 9>&- &
  LAUNCHED_PID=$!
  echo "$LAUNCHED_PID" >"$PID_FILE"
}

# Waits until broker pid $1 (launched at $2 ns, server.log offset $3) serves $PORT; dies
# if it exits, returns 1 after TIMEOUT seconds (the log's tail shown).
await_broker() {
  local pid="$1" t0="$2" log_start="$3" started_marker="Kafka Server started"
  local deadline=$((SECONDS + TIMEOUT))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      echo "---- last lines of $LOG_DIR/server.log and stdout.log ----" >&2
      tail -n 40 "$LOG_DIR/server.log" >&2 2>/dev/null || true
      tail -n 20 "$LOG_DIR/stdout.log" >&2 2>/dev/null || true
      die "the broker exited during startup (see above)."
    fi
    if port_open "$PORT" && tail -c +"$((log_start + 1))" "$LOG_DIR/server.log" 2>/dev/null | grep -q "$started_marker"; then
      local ms=$((($(date +%s%N) - t0) / 1000000))
      say "ready on SASL_PLAINTEXT://127.0.0.1:$PORT (pid $pid, ${ms} ms). Logs: $LOG_DIR/server.log"
      return 0
    fi
    sleep 0.2
  done
  tail -n 40 "$LOG_DIR/server.log" >&2 2>/dev/null || true
  return 1
}

# Waits up to $2 seconds for pid $1 to exit; true when it did.
wait_gone() {
  local pid="$1" deadline=$((SECONDS + $2))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

cmd_stop() {
  local pid t0 ms
  [[ "${1:-}" == "--locked" ]] || take_lock
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    stop_oidc
    say "not running"
    return 0
  fi
  t0=$(date +%s%N)
  say "stopping (pid $pid): clean shutdown, up to ${STOP_TIMEOUT}s ..."
  kill -TERM "$pid" 2>/dev/null || true
  if wait_gone "$pid" "$STOP_TIMEOUT"; then
    ms=$((($(date +%s%N) - t0) / 1000000))
    rm -f "$PID_FILE"
    adopt_cds_dump
    stop_oidc
    say "stopped cleanly in ${ms} ms"
    return 0
  fi
  say "no clean shutdown within ${STOP_TIMEOUT}s; killing (SIGKILL)"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$CDS_DUMP"
  if ! wait_gone "$pid" 10; then
    die "pid $pid is still there 10s after SIGKILL; the pid file stays at $PID_FILE."
  fi
  ms=$((($(date +%s%N) - t0) / 1000000))
  rm -f "$PID_FILE"
  stop_oidc
  say "killed after ${ms} ms (the next start recovers the log; see $LOG_DIR/server.log)"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    if port_open "$PORT"; then say "running (pid $pid) on 127.0.0.1:$PORT"; else say "process $pid is up but port $PORT does not answer yet"; fi
    say_tls
    return 0
  fi
  say "not running"
  return 3
}

cmd_reset() {
  cmd_stop
  rm -rf "$DATA_DIR" "$LOG_DIR"
  say "data deleted; the next start formats a fresh cluster"
}

# Sourced by scripts/kafka-cluster.sh for the functions above: no command then.
[[ "${BASH_SOURCE[0]}" == "$0" ]] || return 0

usage() { echo "usage: bash scripts/kafka.sh start|stop|status|jars|reset [--brokers N]" >&2; exit 2; }
command="${1:-}"
shift || true
brokers=1
while (($# > 0)); do
  case "$1" in
    --brokers) brokers="${2:-}"; shift 2 || usage ;;
    --brokers=*) brokers="${1#*=}"; shift ;;
    *) usage ;;
  esac
done
[[ "$brokers" =~ ^[1-9]$ ]] || die "--brokers takes a number of brokers from 1 to 9, got '$brokers'."
# More than one broker: the local multi-node cluster (its own state dir and ports).
if ((brokers > 1)); then exec bash "$ROOT/scripts/kafka-cluster.sh" "$command" --brokers "$brokers"; fi
# The dev commands (no KAFKA_STATE_DIR of a private broker) also cover the local cluster.
cluster() { [[ -n "${KAFKA_STATE_DIR:-}" ]] || bash "$ROOT/scripts/kafka-cluster.sh" "$1" --if-present; }

case "$command" in
  start) cmd_start ;;
  stop) cmd_stop; cluster stop ;;
  status) rc=0; cmd_status || rc=$?; cluster status || true; exit "$rc" ;;
  jars) need_java; fetch_jars; say "jars in $LIB_DIR" ;;
  reset) cmd_reset ;;
  *) usage ;;
esac
