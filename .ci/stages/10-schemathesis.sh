#!/usr/bin/env bash
# Schemathesis against a live server (BIN): every operation of the OpenAPI document it serves,
# in every phase (the document's examples, coverage of its constraints, fuzzing, and
# stateful runs along the document's links: the deal's state into step and view), every check.
# Two servers at once: plain states, and sealed states (--secret-file). Fails on any failure or
# server error, and when fewer than $MIN_REQUESTS requests reached the servers in all.
#
# Environment: BIN (default target/release/gin-rules), SCHEMATHESIS_EXAMPLES (cases per operation
# and phase on the plain server, default 100; the sealed run uses a quarter),
# SCHEMATHESIS_SEED (default fixed, so that CI is reproducible; `random` for a new one),
# GIN_RULES_VENV (where .ci/setup/python-tools.sh installed schemathesis).
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-target/release/gin-rules}
VENV=${GIN_RULES_VENV:-$HOME/.cache/gin-rules/venv}
ST="$VENV/bin/schemathesis"
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-100}
SEED=${SCHEMATHESIS_SEED:-20261201}
MIN_REQUESTS=1000
if [[ "$SEED" == random ]]; then
    SEED=$RANDOM$RANDOM
fi
[[ -x "$ST" ]] || { echo "schemathesis is missing: run .ci/setup/python-tools.sh" >&2; exit 1; }
[[ -x "$BIN" ]] || { echo "$BIN is missing: cargo build --release" >&2; exit 1; }

. scripts/lib.sh
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT

# The configuration (schemathesis.toml): every check; what they expect; narrow exclusions.
cat >"$WORK/schemathesis.toml" <<'TOML'
[checks]
enabled = true

[checks.positive_data_acceptance]
# A request the document allows may still be refused for what no schema can say: an illegal
# action, a state that no play reaches, an option the ruleset does not offer, a ruleset whose YAML
# does not load. Those answers are 422 with a code from the error table (or 404 for an unknown
# ruleset). A request the document allows must never be 400 invalid-json, and never 5xx.
expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

# Narrow exclusions of findings that other work fixes go here, each with its reason, until the
# fix is on main (none now).
TOML

run() {
    # $1: label, $2: examples per operation, the rest: more arguments for `serve`. Starts its
    # server, runs schemathesis against it, stops it; prints to $WORK/$label.out and writes
    # "<requests> <failed>" to $WORK/$label.result.
    local label=$1 examples=$2 start status requests errors failed=0
    shift 2
    trap 'stop_spawned' EXIT
    exec >"$WORK/$label.out" 2>&1
    # The server's log (one line per request) is counted below.
    ADDR="127.0.0.1:$(free_port)"
    RUST_LOG=info start_server "$ADDR" "$WORK/$label-server.log" --workers 2 "$@"
    echo "== schemathesis, $label: $examples cases per operation and phase, seed $SEED"
    start=$(date +%s)
    status=0
    # From a folder of its own: schemathesis keeps a cache in the working directory.
    mkdir -p "$WORK/$label"
    (cd "$WORK/$label" && timeout 900 "$ST" --config-file "$WORK/schemathesis.toml" run "http://$ADDR/openapi.json" \
        --phases examples,coverage,fuzzing,stateful \
        --max-examples "$examples" --seed "$SEED" --workers 2 \
        --generation-database none --request-timeout 30 --no-color \
        >"$WORK/$label.txt" 2>&1) || status=$?
    stop_spawned
    # The summary, and every failure in full when there are any.
    if [[ $status -ne 0 ]]; then
        cat "$WORK/$label.txt"
        failed=1
    else
        sed -n '/^ *✅  Loaded/,$p' "$WORK/$label.txt" | grep -E 'Examples|Coverage|Fuzzing|Stateful|passed|Scenarios|API Links|generated|passed in|failures in' || true
    fi
    requests=$(grep -c 'gin_rules::http: request' "$WORK/$label-server.log" || true)
    errors=$(grep -cE 'gin_rules::http: request .*status=5[0-9][0-9]' "$WORK/$label-server.log" || true)
    echo "== $label: schemathesis exit $status, $requests requests reached the server" \
        "($errors answered 5xx) in $(($(date +%s) - start)) s"
    if [[ $errors -ne 0 ]]; then
        grep -E 'status=5[0-9][0-9]' "$WORK/$label-server.log" | head -20
        failed=1
    fi
    echo "$requests $failed" >"$WORK/$label.result"
}

# The two servers are tested at once: each run is mostly schemathesis's own (Python) time.
START=$(date +%s)
head -c 48 /dev/urandom | base64 >"$WORK/secret.txt"
run plain "$EXAMPLES" &
PLAIN=$!
run sealed $((EXAMPLES / 4 > 0 ? EXAMPLES / 4 : 1)) --secret-file "$WORK/secret.txt" &
SEALED=$!
wait "$PLAIN" || true
wait "$SEALED" || true
TOTAL=0
FAILED=0
for label in plain sealed; do
    cat "$WORK/$label.out" 2>/dev/null || true
    if [[ ! -f "$WORK/$label.result" ]] || ! read -r requests failed <"$WORK/$label.result"; then
        echo "== $label: the run did not finish" >&2
        requests=0 failed=1
    fi
    TOTAL=$((TOTAL + requests))
    [[ $failed -eq 0 ]] || FAILED=1
done

echo "== schemathesis: $TOTAL requests in all, $(($(date +%s) - START)) s"
if [[ $TOTAL -lt $MIN_REQUESTS ]]; then
    echo "fewer than $MIN_REQUESTS requests reached the servers" >&2
    FAILED=1
fi
exit "$FAILED"
