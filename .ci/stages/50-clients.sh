#!/usr/bin/env bash
# The clients generated from openapi/openapi.json play against the server BIN (default release):
#   examples/ts-client      openapi-typescript types + openapi-fetch, `tsc --strict`, run with node;
#   examples/python-client  openapi-python-client, `mypy --strict`, run with python3.
# Both are generated here afresh (nothing generated is committed, nothing generated is edited).
# openapi-python-client must report no warning; openapi-typescript's warnings are counted. Both must
# type the closed sets of codes (a problem's `type`, an illegal action's `reason`, a seat's `phase`)
# as enums: a union of string literals in TypeScript, an Enum class in Python. Each
# program plays a one-hand Straight Gin game and a Standard match to 100 for every seat, and the
# two must print the same games.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/gin-rules}
SPEC=$PWD/openapi/openapi.json
TS=examples/ts-client
PY=examples/python-client
WORK=$(mktemp -d)
. scripts/lib.sh
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
trap 'stop_spawned; rm -rf "$WORK"' EXIT
spawn "$BIN" serve --addr "127.0.0.1:$PORT" >"$WORK/server.log" 2>&1

ts_install() { (cd "$TS" && npm ci --no-audit --no-fund --loglevel=error); }

ts_generate() {
    rm -f "$TS/src/schema.d.ts"
    (cd "$TS" && npm run --silent generate) >"$WORK/ts-gen.log" 2>&1 || { cat "$WORK/ts-gen.log" >&2; return 1; }
    TS_WARNINGS=$(grep -c '⚠' "$WORK/ts-gen.log" || true)
    grep '⚠' "$WORK/ts-gen.log" >&2 || true
    echo "openapi-typescript: $TS_WARNINGS warnings, $(wc -l <"$TS/src/schema.d.ts") lines of types"
}

ts_build() {  # tsc --strict type-checks play.ts against the fresh types and, clean only, writes dist/
    rm -rf "$TS/dist"
    (cd "$TS" && npx --no-install tsc --strict)
}

py_generate() {
    # openapi-python-client's own command, with a count of the warnings it prints (it fails on any).
    python3 - "$SPEC" "$PY/gin_rules_client" 2>"$WORK/py-gen.log" <<'EOF' || { cat "$WORK/py-gen.log" >&2; return 1; }
import sys
from openapi_python_client import cli

print_errors = cli.handle_errors
def counted(errors, fail_on_warning=False):
    print(f"openapi-python-client: {len(errors)} warnings", file=sys.stderr)
    print_errors(errors, fail_on_warning=True)
cli.handle_errors = counted

spec, out = sys.argv[1:]
sys.argv = ["openapi-python-client", "generate", "--path", spec, "--meta", "none",
            "--output-path", out, "--overwrite"]
cli.app()
EOF
    if ! grep -q '^openapi-python-client: 0 warnings$' "$WORK/py-gen.log"; then
        cat "$WORK/py-gen.log" >&2
        echo "openapi-python-client: warnings (above), or no count of them" >&2
        return 1
    fi
    echo "openapi-python-client: 0 warnings, $(find "$PY/gin_rules_client" -name '*.py' | wc -l) modules"
}

py_check() {
    (cd "$PY" && python3 -m mypy play.py)
    # The generated package itself, apart: what openapi-python-client's own code does under --strict
    # is reported, not fatal (nothing generated is edited).
    local errors
    errors=$(cd "$PY" && python3 -m mypy -p gin_rules_client | grep ': error:' || true)
    if [[ -n "$errors" ]]; then
        echo "$errors" | sed 's/^/  generated: /'
    fi
    echo "mypy --strict on the generated package: $(grep -c . <<<"$errors" || true) errors (generator defects, above; not fatal)"
}

typed_enums() {  # the closed sets of codes are enums in both generated clients, not plain strings
    local types=$TS/src/schema.d.ts models=$PY/gin_rules_client/models missing=()
    grep -Eq '^\s*ProblemCode: "invalid-json" \| "' "$types" || missing+=("ts: ProblemCode")
    grep -Eq '^\s*IllegalReason: "match-over" \| "' "$types" || missing+=("ts: IllegalReason")
    grep -Eq '^\s*phase: "discard" \| "draw" \| "' "$types" || missing+=("ts: SeatView.phase")
    grep -Eq '^\s*type: components\["schemas"\]\["ProblemCode"\];' "$types" || missing+=("ts: Problem.type")
    grep -q '^class ProblemCode(\(StrEnum\|str, Enum\)):' "$models/problem_code.py" || missing+=("py: ProblemCode")
    grep -q '^class IllegalReason(\(StrEnum\|str, Enum\)):' "$models/illegal_reason.py" || missing+=("py: IllegalReason")
    grep -q '^class SeatViewPhase(\(StrEnum\|str, Enum\)):' "$models/seat_view_phase.py" || missing+=("py: SeatView.phase")
    grep -Eq '^\s*type_: ProblemCode$' "$models/problem.py" || missing+=("py: Problem.type")
    if ((${#missing[@]})); then
        printf 'clients: typed as a plain string, not an enum: %s\n' "${missing[@]}" >&2
        return 1
    fi
    echo "clients: ProblemCode, IllegalReason and SeatView.phase are enums in both"
}

play() {  # play NAME COMMAND...: one client's games, kept for the comparison
    local name=$1
    shift
    "$@" "$URL" >"$WORK/$name.out" || { cat "$WORK/$name.out"; echo "$name client: failed" >&2; return 1; }
    echo "$name client: $(grep -c hand_over "$WORK/$name.out") hands, $(grep 'final totals' "$WORK/$name.out" | tr -s ' ' | paste -sd ';')"
}

STAGE_START=$(date +%s%N)
timed "server up" wait_for "$URL/healthz" "the server" "$WORK/server.log"
timed "npm ci" ts_install
timed "openapi-typescript" ts_generate
timed "tsc --strict (and build)" ts_build
timed "openapi-python-client" py_generate
timed "mypy --strict" py_check
timed "enums typed" typed_enums
timed "play: TypeScript" play ts node "$TS/dist/play.js"
timed "play: Python" play py python3 "$PY/play.py"
if ! diff -u "$WORK/ts.out" "$WORK/py.out"; then
    echo "clients: the two generated clients played different games (diff above: - ts, + python)" >&2
    exit 1
fi
echo "clients: both generated clients played the same games"
printf '  %s\n' "${TIMES[@]}"
printf '  %-28s %6.1f s\n' "clients stage" "$((($(date +%s%N) - STAGE_START) / 1000000))e-3"
