#!/usr/bin/env bash
# Python tools for the stages, pinned, in a virtual environment of their own so the system's Python
# stays as it is: schemathesis (.ci/stages/10-schemathesis.sh) and playwright (the browser tests of
# .ci/stages/60-play.sh, which drive Debian's chromium: the package's own browser download is never
# run). Idempotent: does nothing when the pinned versions are in place.
# The stages find it at $GIN_RULES_VENV (default ~/.cache/gin-rules/venv).
set -euo pipefail
SCHEMATHESIS_VERSION=4.32.5
PLAYWRIGHT_VERSION=1.65.2
VENV=${GIN_RULES_VENV:-$HOME/.cache/gin-rules/venv}
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
has() {  # has PACKAGE VERSION: the venv holds exactly that version
    "$VENV/bin/python" -m pip show "$1" 2>/dev/null | grep -qx "Version: $2"
}
if [[ -x "$VENV/bin/schemathesis" ]] && has schemathesis "$SCHEMATHESIS_VERSION" \
    && has playwright "$PLAYWRIGHT_VERSION"; then
    exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION" "playwright==$PLAYWRIGHT_VERSION"
"$VENV/bin/schemathesis" --version
"$VENV/bin/python" -m playwright --version
