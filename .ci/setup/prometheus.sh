#!/usr/bin/env bash
# Prometheus (Debian's package) for the metrics stage (.ci/stages/70-metrics.sh), which starts its
# own Prometheus on a free loopback port with a configuration and data directory of its own.
# Idempotent; the package's own service is not run.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# A policy-rc.d that says no keeps the package from starting its own service on port 9090.
if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends prometheus >/dev/null
if command -v systemctl >/dev/null 2>&1; then
    systemctl stop prometheus >/dev/null 2>&1 || true
fi
command -v prometheus
