#!/usr/bin/env bash
# jq for the README walkthrough (.ci/stages/40-walkthrough.sh).
set -euo pipefail
command -v jq >/dev/null 2>&1 && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends jq >/dev/null
command -v jq
