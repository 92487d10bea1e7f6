#!/usr/bin/env bash
# The README's curl walkthrough, run as written against the server BIN: every ```sh block
# between the walkthrough markers, in order, must succeed, and what they print must be the
# ```text blocks shown there. Then examples/play.py plays whole matches of several forms.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/gin-rules}
. scripts/lib.sh
PORT=$(free_port)
WORK=$(mktemp -d)
trap 'stop_spawned; rm -rf "$WORK"' EXIT
start_server "127.0.0.1:$PORT" "$WORK/server.log"

section() {  # the fenced blocks of one language between the walkthrough markers
    awk -v lang="$1" '
        /<!-- walkthrough:start -->/ { on = 1; next }
        /<!-- walkthrough:end -->/ { on = 0 }
        on && $0 == "```" lang { block = 1; next }
        block && $0 == "```" { block = 0; next }
        block { print }' README.md
}
section sh | sed "s#localhost:8080#localhost:$PORT#g" >"$WORK/walk.sh"
(cd "$WORK" && bash -e walk.sh) >"$WORK/printed.txt"
if ! diff -u <(section text) "$WORK/printed.txt"; then
    echo "README walkthrough: the printed output differs from the README (diff above: - README, + server)" >&2
    exit 1
fi
echo "README walkthrough: $(grep -c . "$WORK/walk.sh") lines of shell ran as written"

for game in "standard 100" "straight-gin single_hand" "standard 250" "three-player 100" "four-player 125"; do
    # shellcheck disable=SC2086
    python3 examples/play.py "http://localhost:$PORT" $game | tail -1 | sed "s/^/examples\/play.py $game: /"
done
