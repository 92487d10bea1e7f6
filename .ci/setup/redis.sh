#!/usr/bin/env bash
# redis-server for the replay-guard tests (tests/it/cluster.rs starts it on a free loopback port).
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends redis-server >/dev/null
# The package's own service is not needed: each test starts its server and stops it.
if command -v systemctl >/dev/null 2>&1; then
    systemctl stop redis-server >/dev/null 2>&1 || true
fi
command -v redis-server
