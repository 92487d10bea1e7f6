#!/usr/bin/env bash
# The /play page in a real browser: Debian's chromium (.ci/setup/chromium.sh), headless, driven by
# Playwright from the venv of .ci/setup/python-tools.sh (pointed at that chromium: nothing
# downloads a browser) and axe-core from npm (.ci/setup/axe.sh). Two servers of BIN: one as `cargo
# run --release` starts it (plain states) with the variants of examples/ added, one with a secret,
# --seat-keys and a replay guard. tests/browser/play_page.py plays through the page's own controls:
# a one-hand Straight Gin game and a Standard match to 100 against `basic` bots, a three-player and
# a four-player deal, disabled controls and a refusal (the server's reason shown), keys and a
# phone-sized screen, the ways to choose a discard, random clicks through whole hands (no request
# refused), a lay-off and the showdown (every hand face up), reload and resume, pass and play (the
# screen covered between seats), an added ruleset, the card faces (a joker among them), and the axe
# audit. Screenshots go to $PLAY_SHOTS (printed at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/gin-rules}
VENV=${GIN_RULES_VENV:-$HOME/.cache/gin-rules/venv}
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
AXE=${AXE:-${GIN_RULES_AXE:-$HOME/.cache/gin-rules/axe}/node_modules/axe-core/axe.min.js}
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CHROMIUM AXE
if [[ -z "$CHROMIUM" || ! -x "$VENV/bin/python" || ! -f "$AXE" ]] || ! "$VENV/bin/python" -c 'import playwright' 2>/dev/null; then
    echo "play: chromium, playwright or axe-core is missing (run .ci/setup/chromium.sh, .ci/setup/python-tools.sh and .ci/setup/axe.sh)" >&2
    exit 1
fi
SHOTS=${PLAY_SHOTS:-$PWD/target/play-screenshots}
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
. scripts/lib.sh
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT
PLAIN_PORT=$(free_port)
KEYED_PORT=$(free_port)
head -c 48 /dev/urandom | base64 >"$WORK/secret"
start_server "127.0.0.1:$PLAIN_PORT" "$WORK/plain.log" --rulesets examples/
start_server "127.0.0.1:$KEYED_PORT" "$WORK/keyed.log" --secret-file "$WORK/secret" --seat-keys \
    --replay-guard memory

START=$(date +%s)
if ! "$VENV/bin/python" tests/browser/play_page.py "http://127.0.0.1:$PLAIN_PORT" \
    "http://127.0.0.1:$KEYED_PORT" "$SHOTS"; then
    echo "play: the browser tests failed; server logs:" >&2
    tail -n 20 "$WORK/plain.log" "$WORK/keyed.log" >&2
    exit 1
fi
echo "play: browser tests took $(($(date +%s) - START)) s; screenshots in $SHOTS:"
ls "$SHOTS" | sed 's/^/  /'
