#!/usr/bin/env bash
# Two gin-rules instances behind nginx on this machine (loopback only, bounded in time).
#
#   scripts/cluster.sh          throughput: POST /v1/games/step requests/s for one instance
#                               direct, then for the two behind nginx (wrk)
#   scripts/cluster.sh serve    start the cluster and keep it up until Ctrl-C (prints its address)
#
# Both instances read the same --secret-file, so a state sealed by one opens on the other. nginx
# runs in the foreground (not as a daemon) with its own nginx.conf in a temporary directory:
# round robin, no sticky sessions, and `proxy_next_upstream` so that a request that finds an
# instance dead goes to the other (a step is a pure function of its body: sending it again is
# safe). nginx and wrk come from Debian (.ci/setup/nginx.sh installs them when missing).
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

NGINX=$(command -v nginx || true)
[[ -z "$NGINX" && -x /usr/sbin/nginx ]] && NGINX=/usr/sbin/nginx
if [[ -z "$NGINX" ]] || ! command -v wrk >/dev/null 2>&1; then
    bash .ci/setup/nginx.sh >&2
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi

release_bin

head -c 48 /dev/urandom | base64 >"$WORK/secret.txt"
A=$(free_port)
B=$(free_port)
LB=${PORT:-$(free_port)}
for port in "$A" "$B"; do
    spawn env -u GIN_RULES_SECRET RUST_LOG=warn "$BIN" serve --addr "127.0.0.1:$port" \
        --secret-file "$WORK/secret.txt" ${WORKERS:+--workers "$WORKERS"}
done

mkdir -p "$WORK/temp"
USER_LINE=""
[[ $(id -u) -eq 0 ]] && USER_LINE="user root;"
cat >"$WORK/nginx.conf" <<CONF
$USER_LINE
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/temp/body;
    proxy_temp_path $WORK/temp/proxy;
    fastcgi_temp_path $WORK/temp/fastcgi;
    uwsgi_temp_path $WORK/temp/uwsgi;
    scgi_temp_path $WORK/temp/scgi;
    # The server refuses bodies over 256 KiB itself (413 payload-too-large).
    client_max_body_size 1m;
    client_body_buffer_size 512k;
    upstream gin_rules {
        # No stickiness: any instance serves any game.
        server 127.0.0.1:$A max_fails=1 fail_timeout=5s;
        server 127.0.0.1:$B max_fails=1 fail_timeout=5s;
        keepalive 64;
    }
    server {
        listen 127.0.0.1:$LB;
        location / {
            proxy_pass http://gin_rules;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_connect_timeout 1s;
            # A dead instance is skipped, for POST too (non_idempotent): a step is a pure
            # function of its body. Under a replay guard the retry may be 409 stale-state when
            # the dead instance had recorded the step; the client then has the latest state.
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_next_upstream_tries 2;
        }
    }
}
CONF
spawn "$NGINX" -p "$WORK" -e "$WORK/nginx-error.log" -c "$WORK/nginx.conf"
wait_for "http://127.0.0.1:$A/healthz" "instance A"
wait_for "http://127.0.0.1:$B/healthz" "instance B"
wait_for "http://127.0.0.1:$LB/healthz" "nginx"

if [[ "$MODE" == serve ]]; then
    echo "== two instances (127.0.0.1:$A, 127.0.0.1:$B) behind nginx at http://127.0.0.1:$LB (Ctrl-C stops)"
    wait
    exit 0
fi

# A sealed mid-hand state dealt by instance A, stepped with a draw (the same request every time,
# as the servers keep no state).
step_body "127.0.0.1:$A" "$WORK/body.json"
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
load "one instance, direct" "http://127.0.0.1:$A/v1/games/step"
load "two instances behind nginx" "http://127.0.0.1:$LB/v1/games/step"
exit "$FAILED"
