#!/usr/bin/env bash
# Two instances of BIN with one secret behind nginx: requests/s for one instance direct and for
# the two behind nginx, briefly (scripts/cluster.sh; it fails on any error or non-2xx answer).
# The kill test (an instance SIGKILLed mid-hand) is tests/it/balancer.rs, which .ci/run runs with
# the other tests that need nginx or redis-server (`cargo test --test it -- --ignored`).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/gin-rules} DURATION=${DURATION:-3s} bash scripts/cluster.sh
