# What scripts/*.sh and .ci/stages/*.sh share; source it (`. scripts/lib.sh`) from the repository
# root. It defines functions only and sets no shell options.

# A TCP port of 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# BIN, or the release server of this checkout, built when BIN is unset.
release_bin() {
    if [[ -z "${BIN:-}" ]]; then
        cargo build --release --quiet
        BIN=target/release/gin-rules
    fi
}

# Processes started with `spawn COMMAND...` (its pid in SPAWNED_PID) are stopped by `stop_spawned`
# (SIGTERM, then waited for), which a script's exit trap calls.
SPAWNED=()
spawn() {
    "$@" &
    SPAWNED_PID=$!
    SPAWNED+=("$SPAWNED_PID")
}

# stop PID: stops one process started with `spawn`, waiting for it.
stop() {
    kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    local kept=() pid
    for pid in "${SPAWNED[@]}"; do
        [[ "$pid" == "$1" ]] || kept+=("$pid")
    done
    SPAWNED=("${kept[@]}")
}

stop_spawned() {
    local pid
    for pid in "${SPAWNED[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${SPAWNED[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    SPAWNED=()
}

# start_server ADDR LOG [ARGS...]: starts `$BIN serve --addr ADDR ARGS...` with `spawn` (its pid in
# SERVER_PID), its output to LOG, RUST_LOG=warn unless RUST_LOG is set, and none of the caller's
# GIN_RULES_* settings (a secret, seat keys, a replay guard: ARGS say them); waits until it
# answers /healthz, else prints LOG and exits the script.
start_server() {
    local addr=$1 log=$2
    shift 2
    spawn env -u GIN_RULES_SECRET -u GIN_RULES_SEAT_KEYS -u GIN_RULES_REPLAY_GUARD -u GIN_RULES_METRICS_ADDR \
        RUST_LOG="${RUST_LOG:-warn}" "$BIN" serve --addr "$addr" "$@" >"$log" 2>&1
    SERVER_PID=$SPAWNED_PID
    wait_for "http://$addr/healthz" "the server ($*)" "$log"
}

# start_nginx DIR LISTEN A B: nginx in the foreground (with `spawn`) in DIR with
# scripts/nginx.conf.template rendered into DIR/nginx.conf: listening at LISTEN, balancing the
# instances at A and B (each HOST:PORT); waits until /healthz answers through it. NGINX is the
# program (default: nginx on the PATH, else /usr/sbin/nginx).
start_nginx() {
    local dir=$1 listen=$2 nginx=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
    sed -e "s#@LISTEN@#$listen#g" -e "s#@INSTANCE_A@#$3#g" -e "s#@INSTANCE_B@#$4#g" \
        scripts/nginx.conf.template >"$dir/nginx.conf"
    spawn "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/nginx-error.log" \
        -g 'daemon off; master_process off; pid nginx.pid;'
    wait_for "http://$listen/healthz" "nginx" "$dir/nginx-error.log"
}

# wait_for URL WHAT [LOG]: waits up to 10 s for URL to answer with a success; otherwise says
# that WHAT did not start, prints LOG when given, and exits the script.
wait_for() {
    for _ in $(seq 1 100); do
        if curl -fsS "$1" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
    done
    echo "$2 did not start at $1" >&2
    if [[ -n "${3:-}" ]]; then
        cat "$3" >&2
    fi
    exit 1
}

# step_body ADDR OUT: deals a standard game (seed 42) at the server at ADDR and plays passes,
# draws from the stock and discards for 16 turns or more, to a draw; writes to OUT the step
# request that draws from the stock (the same request every time, as the server keeps no state).
step_body() {
    python3 - "$1" "$2" <<'PY'
import json, sys, urllib.request
addr, out = sys.argv[1], sys.argv[2]
def post(path, body):
    req = urllib.request.Request(f"http://{addr}{path}", json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    return json.load(urllib.request.urlopen(req))
snap = post("/v1/games", {"ruleset": "standard", "seed": 42, "dealer": 1})
def pick(snap):
    legal = snap["legal_actions"]
    for want in ("pass", "draw", "discard"):
        for a in legal:
            if a["type"] == want and a.get("from", "stock") == "stock":
                return a
    return legal[0]
turns = 0
while turns < 16 or pick(snap)["type"] != "draw":
    snap = post("/v1/games/step", {"state": snap["state"], "action": pick(snap)})
    turns += 1
body = {"state": snap["state"], "action": pick(snap)}
json.dump(body, open(out, "w"))
print(f"   body: {len(json.dumps(body))} bytes, action {body['action']}", file=sys.stderr)
PY
}

# timed NAME COMMAND...: runs COMMAND and adds how long it took to TIMES (print them at the end).
TIMES=()
timed() {
    local name=$1 start
    shift
    start=$(date +%s%N)
    "$@"
    TIMES+=("$(printf '%7.1f s  %s' "$((($(date +%s%N) - start) / 1000000))e-3" "$name")")
}
