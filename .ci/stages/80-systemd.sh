#!/usr/bin/env bash
# The systemd unit of docs/deploy.md (scripts/gin-rules.service) checked by `systemd-analyze
# verify`, with ExecStart pointing at BIN (verify checks the program exists): any complaint fails.
# Without systemd-analyze (a machine without systemd) it says so and checks nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/gin-rules}
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "== systemd-analyze is missing: the unit is not checked"
    exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
sed "s#/usr/local/bin/gin-rules#$(realpath "$BIN")#" scripts/gin-rules.service >"$WORK/gin-rules.service"
if ! out=$(systemd-analyze verify "$WORK/gin-rules.service" 2>&1) || [[ -n "$out" ]]; then
    echo "FAILED: systemd-analyze verify scripts/gin-rules.service:" >&2
    echo "$out" >&2
    exit 1
fi
echo "== $(systemd-analyze --version | head -1): scripts/gin-rules.service verifies"
