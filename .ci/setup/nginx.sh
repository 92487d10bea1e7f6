#!/usr/bin/env bash
# nginx (the load balancer of scripts/cluster.sh and tests/it/balancer.rs) and wrk (the load
# generator of scripts/cluster.sh), from Debian. Idempotent. Neither runs as a service: the
# script and the test start their own nginx in the foreground on a loopback port.
set -euo pipefail
missing=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# A policy-rc.d that says no keeps the package from starting its own service on port 80.
if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if command -v systemctl >/dev/null 2>&1; then
    systemctl stop nginx >/dev/null 2>&1 || true
fi
command -v nginx || ls /usr/sbin/nginx
command -v wrk
