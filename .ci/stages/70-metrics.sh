#!/usr/bin/env bash
# GET /metrics against a real Prometheus (issue 25): two instances of BIN with one secret and a
# shared Redis replay guard behind nginx (scripts/nginx.conf.template), each serving its metrics on
# a loopback address of its own (--metrics-addr), and Prometheus (Debian's package,
# .ci/setup/prometheus.sh) scraping both every second. scripts/load.sh plays whole games through
# nginx for a few seconds; after a final scrape, the requests Prometheus counted over both
# instances must equal the requests the load sent, route by route. Then Redis is stopped: /readyz
# of each instance must turn 503 and Prometheus must see the replay guard's errors.
#
# Environment: BIN (default target/release/gin-rules), DURATION (seconds of load, 4).
set -euo pipefail
cd "$(dirname "$0")/../.."
export BIN=${BIN:-target/release/gin-rules}
DURATION=${DURATION:-4}
. scripts/lib.sh
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT
[[ -x "$BIN" ]] || { echo "$BIN is missing: cargo build --release" >&2; exit 1; }

# Redis, no persistence: this stage stops it for good.
REDIS_PORT=$(free_port)
spawn redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no >"$WORK/redis.log"
REDIS_PID=$SPAWNED_PID
for _ in $(seq 1 100); do
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
done

head -c 48 /dev/urandom | base64 >"$WORK/secret"
A=127.0.0.1:$(free_port)
B=127.0.0.1:$(free_port)
METRICS_A=127.0.0.1:$(free_port)
METRICS_B=127.0.0.1:$(free_port)
LB=127.0.0.1:$(free_port)
start_server "$A" "$WORK/a.log" --secret-file "$WORK/secret" --workers 2 \
    --replay-guard "redis://127.0.0.1:$REDIS_PORT" --metrics-addr "$METRICS_A"
start_server "$B" "$WORK/b.log" --secret-file "$WORK/secret" --workers 2 \
    --replay-guard "redis://127.0.0.1:$REDIS_PORT" --metrics-addr "$METRICS_B"
start_nginx "$WORK" "$LB" "$A" "$B"

PROM=127.0.0.1:$(free_port)
cat >"$WORK/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gin-rules
    static_configs:
      - targets: ['$METRICS_A', '$METRICS_B']
YML
spawn prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="$PROM" >"$WORK/prometheus.log" 2>&1
wait_for "http://$PROM/-/ready" "prometheus" "$WORK/prometheus.log"

# query PROMQL: the value of an instant query's single result (empty when there is none).
query() {
    curl -fsS "http://$PROM/api/v1/query" --data-urlencode "query=$1" \
        | jq -r '.data.result[0].value[1] // empty'
}

# until_equal WHAT PROMQL EXPECTED: waits up to 10 s for PROMQL to equal EXPECTED.
until_equal() {
    local got=""
    for _ in $(seq 1 50); do
        got=$(query "$2")
        [[ "$got" == "$3" ]] && { echo "   $1: $got"; return 0; }
        sleep 0.2
    done
    echo "FAILED: $1: Prometheus says ${got:-nothing} ($2), expected $3" >&2
    exit 1
}

until_equal "instances up" 'sum(up{job="gin-rules"})' 2

echo "== load through nginx for $DURATION s (scripts/load.sh games)"
SENT=$(DURATION="${DURATION}s" GAME_CONNECTIONS=4 bash scripts/load.sh games "http://$LB")
echo "   sent: $SENT"
for route in /v1/games /v1/games/step; do
    expected=$(jq -r --arg r "$route" \
        '[to_entries[] | select(.key | startswith($r + " ")) | .value] | add // 0' <<<"$SENT")
    [[ "$expected" -gt 0 ]] || { echo "FAILED: no request on $route" >&2; exit 1; }
    until_equal "requests on $route, both instances" \
        "sum(gin_rules_http_requests_total{route=\"$route\"})" "$expected"
done
steps=$(jq -r '.["/v1/games/step 200"] // 0' <<<"$SENT")
until_equal "replay-guard records (one per accepted step)" \
    'sum(gin_rules_replay_guard_calls_total{operation="advance"})' "$steps"
until_equal "replay-guard errors while Redis answers" \
    'sum(gin_rules_replay_guard_errors_total) or vector(0)' 0

echo "== Redis stopped"
stop "$REDIS_PID"
for addr in "$A" "$B"; do
    # A deal needs no guard; its step does, and is refused.
    state=$(curl -fsS "http://$addr/v1/games" -H 'content-type: application/json' -d '{"seed": 1}')
    body=$(jq -c '{state, action: .legal_actions[0]}' <<<"$state")
    status=$(curl -s -o "$WORK/step.json" -w '%{http_code}' "http://$addr/v1/games/step" \
        -H 'content-type: application/json' -d "$body")
    [[ "$status" == 503 ]] || { echo "FAILED: a step at $addr without Redis: $status" >&2; exit 1; }
    ready=""
    for _ in $(seq 1 50); do
        ready=$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/readyz")
        [[ "$ready" == 503 ]] && break
        sleep 0.2
    done
    [[ "$ready" == 503 ]] || { echo "FAILED: /readyz at $addr says $ready without Redis" >&2; exit 1; }
    echo "   $addr: step $status $(jq -r .type "$WORK/step.json"), /readyz $ready"
done
errors=0
for _ in $(seq 1 50); do
    errors=$(query 'sum(gin_rules_replay_guard_errors_total)')
    [[ "${errors:-0}" != 0 ]] && break
    sleep 0.2
done
[[ "${errors:-0}" != 0 ]] || { echo "FAILED: Prometheus saw no replay-guard error" >&2; exit 1; }
echo "   replay-guard errors scraped: $errors"
echo "== metrics stage: ok"
