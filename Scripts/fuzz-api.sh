#!/usr/bin/env bash
# Fuzzes the HTTP API against its contract (docs/openapi.yaml) with
# schemathesis: a real `touchtracker serve` on loopback on a temporary
# SQLite database, every operation, positive and negative data, the
# stateful phase (the contract's links: a drawing stored, then read,
# appended to, renamed...), once with access control off and once on with
# the admin token. Longer than CI's run of the same test
# (Tests/e2e/test_openapi.py, 12 examples an operation, no stateful phase).
#
#   Scripts/fuzz-api.sh [EXAMPLES] [SEED]     (defaults: 200, random)
#
# It builds the server first. A failure prints schemathesis's report: each
# problem with the curl command that reproduces it.
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-200}"
seed="${2:-random}"
Scripts/setup.sh browser
swift build --product touchtracker
TOUCHTRACKER_BIN="$(swift build --show-bin-path)/touchtracker" \
  TOUCHTRACKER_FUZZ_EXAMPLES="$examples" \
  TOUCHTRACKER_FUZZ_PHASES=examples,coverage,fuzzing,stateful \
  TOUCHTRACKER_FUZZ_SEED="$seed" \
  python3 -m pytest -q -s -p no:cacheprovider Tests/e2e/test_openapi.py
