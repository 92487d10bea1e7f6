#!/usr/bin/env bash
# Python tools for the stages: schemathesis (pinned), in a virtual environment of its own so the
# system's Python stays as it is. Idempotent: does nothing when the pinned version is in place.
# The stages find it at $GIN_RULES_VENV (default ~/.cache/gin-rules/venv).
set -euo pipefail
SCHEMATHESIS_VERSION=4.32.5
VENV=${GIN_RULES_VENV:-$HOME/.cache/gin-rules/venv}
if [[ -x "$VENV/bin/schemathesis" ]] \
    && "$VENV/bin/python" -m pip show schemathesis 2>/dev/null | grep -qx "Version: $SCHEMATHESIS_VERSION"; then
    exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION"
"$VENV/bin/schemathesis" --version
