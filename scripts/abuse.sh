#!/usr/bin/env bash
# Abuse test: the release server with 2 workers takes the worst-case requests of issue 10 (lay-off
# states with repeated melds, thousands of options, a 200 KB script name, costly loops, print
# floods and string growth in every hook, big authored YAML, non-JSON bodies, bodies that trickle
# in), 8 in flight, while /healthz is probed every 10 ms. Prints each case's answers and times
# and the health latencies (p50, p99, max); exits non-zero when /healthz ever took over 50 ms, a
# case got a 5xx other than 503 server-busy or an answer it should not, or the server died. First,
# one request at a time, the cost cases of issue 23: the endless hand and the stuck game (CPU per
# request at most 50 ms, a human always to act) and 1 000 distinct maximal authored rulesets (the
# server's RSS under 128 MiB).
#
# Environment: PORT (a free one), DURATION (seconds of abuse, 20), IN_FLIGHT (8), WORKERS (2),
# BIN (a server binary; default: cargo build --release).
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/lib.sh
PORT=${PORT:-$(free_port)}
DURATION=${DURATION:-20}
IN_FLIGHT=${IN_FLIGHT:-8}
WORKERS=${WORKERS:-2}
ADDR="127.0.0.1:$PORT"
LOG=$(mktemp)
trap 'stop_spawned; rm -f "$LOG"' EXIT

release_bin
start_server "$ADDR" "$LOG" --workers "$WORKERS"
rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$SERVER_PID/status"; }
echo "== $BIN serve --workers $WORKERS ($(nproc) cores), RSS at start $(rss)"

status=0
python3 scripts/abuse.py "http://$ADDR" --duration "$DURATION" --in-flight "$IN_FLIGHT" --pid "$SERVER_PID" || status=$?

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "FAILED: the server died" >&2
    cat "$LOG" >&2
    exit 1
fi
echo "== RSS after the abuse $(rss)"
if grep -q "panicked" "$LOG"; then
    echo "FAILED: the server logged a panic:" >&2
    grep -A3 "panicked" "$LOG" >&2
    exit 1
fi
exit "$status"
