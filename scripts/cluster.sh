#!/usr/bin/env bash
# Two gin-rules instances behind nginx on this machine (loopback only, bounded in time).
#
#   scripts/cluster.sh          throughput: POST /v1/games/step requests/s for one instance
#                               direct, then for the two behind nginx (wrk)
#   scripts/cluster.sh serve    start the cluster and keep it up until Ctrl-C (prints its address)
#
# Both instances read the same --secret-file, so a state sealed by one opens on the other. nginx
# runs in the foreground with scripts/nginx.conf.template (round robin, no sticky sessions, a
# request that finds an instance dead goes to the other), rendered in a temporary directory.
# nginx and wrk come from Debian (.ci/setup/nginx.sh installs them when missing).
#
# Environment: DURATION (10s), CONNECTIONS (64), WORKERS (per instance; default one per core),
# BIN (a server binary; default: cargo build --release), PORT (nginx's; default a free one).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-throughput}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
. scripts/lib.sh
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT

bash .ci/setup/nginx.sh >&2  # nothing to do when both are there

release_bin

head -c 48 /dev/urandom | base64 >"$WORK/secret.txt"
A=127.0.0.1:$(free_port)
B=127.0.0.1:$(free_port)
LB=127.0.0.1:${PORT:-$(free_port)}
for addr in "$A" "$B"; do
    start_server "$addr" "$WORK/server-${addr##*:}.log" --secret-file "$WORK/secret.txt" \
        ${WORKERS:+--workers "$WORKERS"}
done
start_nginx "$WORK" "$LB" "$A" "$B"

if [[ "$MODE" == serve ]]; then
    echo "== two instances ($A, $B) behind nginx at http://$LB (Ctrl-C stops)"
    wait
    exit 0
fi

# A sealed mid-hand state dealt by instance A, stepped with a draw (the same request every time,
# as the servers keep no state).
step_body "$A" "$WORK/body.json"
cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
local f = io.open("$WORK/body.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA

FAILED=0
load() {
    # $1: label, $2: URL; prints requests/s, fails on any error or non-2xx answer
    local out rps
    out=$(wrk -t2 -c "$CONNECTIONS" -d "$DURATION" --latency -s "$WORK/post.lua" "$2")
    rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")
    echo "== $1: ${rps%.*} requests/s"
    grep -E '^ +(50|99)%|Socket errors|Non-2xx' <<<"$out" || true
    if grep -qE 'Socket errors|Non-2xx' <<<"$out"; then
        FAILED=1
    fi
}

echo "== machine: $(nproc) cores shared by wrk, nginx and the servers; $CONNECTIONS connections, $DURATION per run"
load "one instance, direct" "http://$A/v1/games/step"
load "two instances behind nginx" "http://$LB/v1/games/step"
exit "$FAILED"
