#!/usr/bin/env bash
# Load test of POST /v1/games/step on this machine (loopback only, bounded in time).
#
# Starts the release server, builds a mid-hand state, then measures with oha (installed with
# `cargo install oha` when missing; wrk from Debian as a fallback):
#   0. the step against its ceiling: the same step request, alternately to the server and to a
#      bare actix-web JSON echo of the same body (examples/echo.rs, the same workers), $ROUNDS
#      rounds of $DURATION each, and the step's share of the echo's requests per second in each
#      round (goal: at least 60%); `scripts/load.sh echo` runs this part alone;
#   1. plain states: as many step requests per second as the server answers, latency percentiles;
#   2. sealed states: the same;
#   3. a fixed rate of $RATE requests per second (plain), for the p99 latency at that rate;
# and the server's resident memory after the runs. Then seat-bound play against plain play with
# benches/step_load.rs, which plays whole games as each seat's client would (the seat to act
# fetches its view, then steps from the latest state, as a replay guard needs; the same requests
# in both runs): plain states, then sealed states with seat keys (each seat's requests with its
# own key) and a Redis replay guard (redis-server started on a free loopback port; skipped when
# redis-server is missing), and the ratio of the two (goal: at least 75%).
#
# `scripts/load.sh games URL` plays whole one-hand games of Standard against a server (or nginx)
# already running at URL for $DURATION, $GAME_CONNECTIONS at once (Python's standard library, the
# first legal action each time; every request from the latest state, as a replay guard needs;
# states sealed or plain, no seat keys), then prints the requests it sent by route and status on
# one line of JSON; it fails on any answer that is not 2xx. .ci/stages/70-metrics.sh compares them
# with what Prometheus scraped.
#
# `scripts/load.sh soak` instead runs one long test: $SOAK seconds (60) of plain steps at full speed,
# then reports the errors (none allowed) and the server's resident memory, threads and the load
# average after a warm-up, half-way and at the end, with the verdict: flat when the second half
# added at most 2 MB and the whole soak at most a quarter of the memory after the warm-up (or
# 8 MB, whichever is larger); else the script fails.
#
# Environment: PORT (18080), DURATION (10s), CONNECTIONS (64), RATE (10000), WORKERS (one per core),
# GAME_CONNECTIONS (16, for step_load), BIN (a server binary; default: cargo build --release),
# SOAK (60, seconds), ROUNDS (3, step against echo), ECHO_PORT (PORT + 1).
set -euo pipefail
MODE=${1:-all}

cd "$(dirname "$0")/.."
. scripts/lib.sh
PORT=${PORT:-18080}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
RATE=${RATE:-10000}
ADDR="127.0.0.1:$PORT"
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT

# games URL: the `games` mode above.
games() {
    python3 - "$1" "${DURATION%s}" "${GAME_CONNECTIONS:-16}" <<'PY'
import collections, json, sys, threading, time, urllib.error, urllib.request
base, seconds, clients = sys.argv[1].rstrip("/"), float(sys.argv[2]), int(sys.argv[3])
sent = collections.Counter()
lock = threading.Lock()
def post(path, body):
    req = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            status, snap = answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        status, snap = refused.code, None
    with lock:
        sent[f"{path} {status}"] += 1
    return snap
def play(deadline):
    while time.monotonic() < deadline:
        snap = post("/v1/games", {"ruleset": "standard", "target": "single_hand"})
        while snap and snap["status"] != "match_over" and time.monotonic() < deadline:
            snap = post("/v1/games/step", {"state": snap["state"], "action": snap["legal_actions"][0]})
deadline = time.monotonic() + seconds
threads = [threading.Thread(target=play, args=(deadline,)) for _ in range(clients)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(dict(sorted(sent.items()))))
bad = {k: n for k, n in sent.items() if not k.split()[-1].startswith("2")}
if bad:
    sys.exit(f"answers that are not 2xx: {bad}")
PY
}
if [[ "$MODE" == games ]]; then
    games "${2:?scripts/load.sh games URL}"
    exit 0
fi

# --- the load tool -------------------------------------------------------------------------
TOOL=""
export PATH="$HOME/.cargo/bin:$PATH"
if command -v oha >/dev/null 2>&1; then
    TOOL=oha
elif command -v wrk >/dev/null 2>&1; then
    TOOL=wrk
else
    echo "== installing oha (cargo install oha --locked)" >&2
    if cargo install oha --locked >&2; then
        TOOL=oha
    elif (apt-get update -qq && apt-get install -y -qq wrk) >&2; then
        TOOL=wrk
    else
        echo "neither oha nor wrk could be installed" >&2
        exit 1
    fi
fi
echo "== load tool: $TOOL" >&2

# --- the server ----------------------------------------------------------------------------
# BIN: a server binary to measure instead of building the release one.
release_bin
if [[ "$MODE" == all ]]; then
    cargo bench --quiet --no-run --bench step_load
fi
if [[ "$MODE" != soak ]]; then
    cargo build --release --quiet --example echo
fi

SECRET_FILE="$WORK/secret.txt"
echo "load-test secret, $(date +%s), at least thirty-two bytes long" >"$SECRET_FILE"
server_up() {
    # $1: plain or sealed; more arguments go to the server
    local sealed=()
    [[ "$1" == sealed ]] && sealed=(--secret-file "$SECRET_FILE")
    shift
    start_server "$ADDR" "$WORK/server.log" ${WORKERS:+--workers "$WORKERS"} "${sealed[@]}" "$@"
}

stop_server() {
    stop "$SERVER_PID"
    SERVER_PID=""
}

# load BODY RATE [ADDR]: the load tool's whole report of step requests with the body in the file
# BODY to ADDR (the server's by default) for $DURATION, at RATE requests/s (empty: full speed).
load() {
    if [[ "$TOOL" == oha ]]; then
        oha --no-tui -z "$DURATION" -c "$CONNECTIONS" ${2:+-q "$2"} -m POST \
            -H 'content-type: application/json' -D "$1" "http://${3:-$ADDR}/v1/games/step"
    else
        cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
local f = io.open("$1", "rb"); wrk.body = f:read("*a"); f:close()
LUA
        wrk -t2 -c "$CONNECTIONS" -d "$DURATION" --latency -s "$WORK/post.lua" "http://${3:-$ADDR}/v1/games/step"
    fi
}

run_load() {
    # $1: label, $2: body file, $3: rate (empty: as fast as possible)
    echo
    echo "== $1"
    if [[ "$TOOL" == oha ]]; then
        load "$2" "$3" | grep -E 'Success rate|Requests/sec|Slowest|Fastest|Average|(50|90|95|99|99\.90)(\.00)?% in|\[[0-9]+\]' || true
    else
        load "$2" "$3" | grep -E 'Latency|Req/Sec|50%|75%|90%|99%|Requests/sec|Non-2xx' || true
        if [[ -n "$3" ]]; then
            echo "   (wrk cannot hold a fixed rate; the figures above are at full speed)"
        fi
    fi
}

# rate_at BODY ADDR: requests per second at full speed, a whole number; fails on any answer that
# is not 2xx or any socket error (an error answered fast would flatter the rate).
rate_at() {
    local out rate
    out=$(load "$1" "" "$2")
    if [[ "$TOOL" == oha ]]; then
        # Status lines read `[200] N responses`, error lines `[N] reason`: all must be the former.
        if ! grep -q 'Success rate: 100' <<<"$out" \
            || grep -E '^ *\[[0-9]+\]' <<<"$out" | grep -vqE '^ *\[200\] [0-9]+ responses'; then
            echo "errors in the run against $2:" >&2
            echo "$out" >&2
            return 1
        fi
    elif grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
        echo "errors in the run against $2:" >&2
        echo "$out" >&2
        return 1
    fi
    rate=$(sed -n 's/^ *Requests\/sec: *\([0-9]*\).*/\1/p' <<<"$out" | head -1)
    echo "${rate:-0}"
}

# The step against the echo of the same body, alternately, $ROUNDS rounds.
versus_echo() {
    local echo_port=${ECHO_PORT:-$((PORT + 1))} rounds=${ROUNDS:-3} step echo ratios=()
    local echo_addr="127.0.0.1:$echo_port"
    server_up plain
    step_body "$ADDR" "$WORK/plain.json"
    spawn "${ECHO_BIN:-target/release/examples/echo}" "$echo_addr" "${WORKERS:-$(nproc)}"
    local echo_pid=$SPAWNED_PID
    for _ in $(seq 1 100); do
        curl -fsS -H 'content-type: application/json' --data-binary "@$WORK/plain.json" \
            "http://$echo_addr/v1/games/step" >/dev/null 2>&1 && break
        sleep 0.1
    done
    echo
    echo "== the step against a bare actix-web echo of the same body ($TOOL, $CONNECTIONS connections," \
        "$DURATION a run, ${WORKERS:-$(nproc)} workers each, alternately)"
    for round in $(seq 1 "$rounds"); do
        step=$(rate_at "$WORK/plain.json" "$ADDR")
        echo=$(rate_at "$WORK/plain.json" "$echo_addr")
        ratios+=($((100 * step / (echo > 0 ? echo : 1))))
        echo "   round $round: step $step requests/s, echo $echo requests/s: ${ratios[-1]}% of the echo" \
            "(load average $(cut -d' ' -f1-3 /proc/loadavg))"
    done
    stop "$echo_pid"
    stop_server
    local sorted
    sorted=$(printf '%s\n' "${ratios[@]}" | sort -n | tr '\n' ' ')
    echo "== step / echo over $rounds rounds: ${sorted% }% (goal: at least 60%)"
}

rss() {
    echo "$(( $(ps -o rss= -p "$SERVER_PID") / 1024 )) MB"
}

rss_kb() {
    awk '/^VmRSS/ {print $2}' "/proc/$SERVER_PID/status"
}

# Resident memory, threads and the load average, on one line.
server_line() {
    local anon threads
    anon=$(awk '/^RssAnon/ {print $2}' "/proc/$SERVER_PID/status")
    threads=$(ls "/proc/$SERVER_PID/task" | wc -l)
    echo "RSS $(($(rss_kb) / 1024)) MB (anonymous $((anon / 1024)) MB), $threads threads, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

soak() {
    local seconds=${SOAK:-60} out start_kb mid_kb end_kb errors load_pid
    echo "== soak: $seconds s of plain steps at full speed, $CONNECTIONS connections, $(nproc) cores ($TOOL)"
    echo "== machine: load average $(cut -d' ' -f1-3 /proc/loadavg)"
    server_up plain
    echo "   idle:              $(server_line)"
    step_body "$ADDR" "$WORK/plain.json"
    # Warm-up: the allocator and the connection buffers settle first.
    DURATION=5s run_load "warm-up, 5 s" "$WORK/plain.json" "" >/dev/null
    start_kb=$(rss_kb)
    echo "   after the warm-up: $(server_line)"
    if [[ "$TOOL" == oha ]]; then
        oha --no-tui -z "${seconds}s" -c "$CONNECTIONS" -m POST -H 'content-type: application/json' \
            -D "$WORK/plain.json" "http://$ADDR/v1/games/step" >"$WORK/soak.txt" &
    else
        cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
local f = io.open("$WORK/plain.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
        wrk -t2 -c "$CONNECTIONS" -d "${seconds}s" --timeout 10s --latency -s "$WORK/post.lua" \
            "http://$ADDR/v1/games/step" >"$WORK/soak.txt" &
    fi
    load_pid=$!
    sleep $((seconds / 2))
    mid_kb=$(rss_kb)
    echo "   after $((seconds / 2)) s:       $(server_line)"
    wait "$load_pid"
    end_kb=$(rss_kb)
    echo "   after $seconds s:       $(server_line)"
    out=$(cat "$WORK/soak.txt")
    if [[ "$TOOL" == oha ]]; then
        errors=$(awk '/Status code distribution/{on=1; next} on && /\[[0-9]+\]/{gsub(/[\[\]]/,"",$1); if ($1 != "200") n += $2} /Error distribution/{on=0} END{print n+0}' <<<"$out")
        errors=$((errors + $(awk '/Error distribution/{on=1; next} on && /\[[0-9]+\]/{gsub(/[\[\]]/,"",$1); n += $1} END{print n+0}' <<<"$out")))
        grep -E 'Success rate|Requests/sec|(50|99)(\.00)?% in' <<<"$out" || true
    else
        errors=$(( $(sed -n 's/.*Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' <<<"$out" | head -1 | grep . || echo 0) ))
        errors=$((errors + $(sed -n 's/.*Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\).*/\1+\2+\3+\4/p' <<<"$out" | head -1 | grep . || echo 0) ))
        grep -E 'Requests/sec|^ +(50|99)%|requests in|Latency' <<<"$out" || true
    fi
    stop_server
    # Flat: the second half grows by at most 2 MB, the whole soak by at most a quarter of the
    # memory after the warm-up or 8 MB, whichever is larger.
    local allowed=$((start_kb / 4 > 8192 ? start_kb / 4 : 8192))
    local verdict=flat
    if [[ $((end_kb - mid_kb)) -gt 2048 || $((end_kb - start_kb)) -gt $allowed ]]; then
        verdict="GROWING"
    fi
    echo "== soak: $errors errors; server RSS $((start_kb / 1024)) MB after the warm-up," \
        "$((mid_kb / 1024)) MB after $((seconds / 2)) s, $((end_kb / 1024)) MB at the end: $verdict"
    if [[ $errors -ne 0 ]]; then
        echo "FAILED: the soak had errors" >&2
        exit 1
    fi
    if [[ "$verdict" != flat ]]; then
        echo "FAILED: resident memory grew by $(((end_kb - start_kb) / 1024)) MB during the soak" \
            "($(((end_kb - mid_kb) / 1024)) MB in its second half)" >&2
        exit 1
    fi
}

if [[ "$MODE" == soak ]]; then
    soak
    exit 0
fi

echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); server on $ADDR, $CONNECTIONS connections, $DURATION per run" >&2

versus_echo
if [[ "$MODE" == echo ]]; then
    exit 0
fi

server_up plain
step_body "$ADDR" "$WORK/plain.json"
run_load "plain state, full speed" "$WORK/plain.json" ""
run_load "plain state, fixed rate of $RATE req/s" "$WORK/plain.json" "$RATE"
echo
echo "== server RSS after the plain runs: $(rss)"
stop_server

server_up sealed
step_body "$ADDR" "$WORK/sealed.json"
run_load "sealed state, full speed" "$WORK/sealed.json" ""
run_load "sealed state, fixed rate of $RATE req/s" "$WORK/sealed.json" "$RATE"
echo
echo "== server RSS after the sealed runs: $(rss)"
stop_server

# --- seat-bound play against plain play, whole games ---------------------------------------
SECONDS_EACH=${DURATION%s}
GAME_CONNECTIONS=${GAME_CONNECTIONS:-16}
game_load() {
    # $1: label
    echo
    echo "== $1 (step_load: $GAME_CONNECTIONS connections, ${SECONDS_EACH} s, one-hand games;" \
        "load average $(cut -d' ' -f1-3 /proc/loadavg))"
    cargo bench --quiet --bench step_load -- "$ADDR" "$GAME_CONNECTIONS" "$SECONDS_EACH" | tee "$WORK/last.txt"
}
rate_of() { sed -n 's/^requests\/s: \([0-9]*\).*/\1/p' "$WORK/last.txt"; }

server_up plain
game_load "plain states, whole games"
PLAIN_RATE=$(rate_of)
stop_server

if command -v redis-server >/dev/null 2>&1; then
    REDIS_PORT=$(free_port)
    spawn redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no >/dev/null
    REDIS_PID=$SPAWNED_PID
    for _ in $(seq 1 50); do
        redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    server_up sealed --seat-keys --replay-guard "redis://127.0.0.1:$REDIS_PORT"
    game_load "seat keys + Redis replay guard, whole games"
    GUARDED_RATE=$(rate_of)
    stop_server
    stop "$REDIS_PID"
    echo
    echo "== seat keys + Redis guard: $GUARDED_RATE requests/s against $PLAIN_RATE plain" \
        "($(( 100 * GUARDED_RATE / (PLAIN_RATE > 0 ? PLAIN_RATE : 1) ))% of plain; goal: at least 75%)"
else
    echo
    echo "== skipped the seat-key + Redis run: install redis-server"
fi
