#!/usr/bin/env bash
# What .ci/stages/50-clients.sh needs to generate and check the clients of examples/: Node.js and npm
# (the machine's; Debian's when it has none; the npm packages themselves come from
# examples/ts-client/package-lock.json in the stage), openapi-python-client and mypy (PyPI, pinned).
set -euo pipefail
OPENAPI_PYTHON_CLIENT=0.29.1
MYPY=2.4.1

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

installed() {  # installed NAME VERSION: that version of the Python package is there
    [[ "$(python3 -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$1" 2>/dev/null)" == "$2" ]]
}
if ! installed openapi-python-client "$OPENAPI_PYTHON_CLIENT" || ! installed mypy "$MYPY"; then
    python3 -m pip install -q --root-user-action=ignore \
        "openapi-python-client==$OPENAPI_PYTHON_CLIENT" "mypy==$MYPY"
fi
echo "clients: node $(node --version), npm $(npm --version), openapi-python-client $OPENAPI_PYTHON_CLIENT, mypy $MYPY"
