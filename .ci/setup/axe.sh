#!/usr/bin/env bash
# axe-core, the accessibility checker that tests/browser/play_page.py injects into the /play page
# (.ci/stages/60-play.sh), from npm, pinned, into a cache directory of its own. Idempotent: does
# nothing when the pinned version is in place. The stage finds it at $GIN_RULES_AXE (default
# ~/.cache/gin-rules/axe).
set -euo pipefail
AXE_VERSION=4.11.0
DIR=${GIN_RULES_AXE:-$HOME/.cache/gin-rules/axe}
if [[ -f "$DIR/node_modules/axe-core/axe.min.js" ]] \
    && grep -q "\"version\": \"$AXE_VERSION\"" "$DIR/node_modules/axe-core/package.json"; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
mkdir -p "$DIR"
npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error "axe-core@$AXE_VERSION"
ls "$DIR/node_modules/axe-core/axe.min.js"
