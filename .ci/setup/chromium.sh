#!/usr/bin/env bash
# Debian's chromium for the browser tests of the /play page (.ci/stages/60-play.sh drives it
# headless with Playwright, pointed at this binary: no browser build is ever downloaded).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
command -v chromium
