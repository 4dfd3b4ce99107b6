#!/usr/bin/env bash
# Runs every check: formatting, the WebAssembly build and its exports (node),
# the Swift tests (core, store, server, CLI), and the browser end-to-end tests
# in Chromium. The wasm is built first: `swift build` embeds Web/
# (touchtracker.wasm included) into the touchtracker binary.
#
# A throwaway PostgreSQL server (Scripts/postgres.sh) runs on loopback for the
# duration, named by TOUCHTRACKER_TEST_POSTGRES_URL, so the store suite and
# the multi-server tests run against PostgreSQL as well as SQLite; it is
# stopped and removed on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh wasm browser postgres
Scripts/check-format.sh
Scripts/build-wasm.sh
Scripts/build-wasm.sh --example
node Tests/wasm/reinit.mjs Web/touchtracker.wasm
# The check makes a target importing a package module it does not declare (the
# engine, TouchKit, reaching into the app) a build error, not a build-order accident.
swift build --build-tests --explicit-target-dependency-import-check error
# The engine's documentation: every public symbol documented, and the DocC
# catalog building without a warning, from the module just built.
Scripts/check-docs.sh --skip-build
postgres_dir=$(mktemp -d "${TMPDIR:-/tmp}/touchtracker-postgres.XXXXXX")
trap 'Scripts/postgres.sh stop "$postgres_dir"' EXIT
TOUCHTRACKER_TEST_POSTGRES_URL=$(Scripts/postgres.sh start "$postgres_dir")
export TOUCHTRACKER_TEST_POSTGRES_URL
echo "test.sh: PostgreSQL for the tests at $TOUCHTRACKER_TEST_POSTGRES_URL" >&2
# At most 8 tests at a time. The servers that tests start in this process
# run on the same cooperative threads (two on a 2-core machine) as the
# tests; with all ~440 tests started at once their work queued behind
# every other test's, and live-socket tests were cut by their clients'
# 30 s deadlines mid-test ("I/O on closed channel"). Bounded, the run is
# also faster (about 100 s against 160 s here).
# The log is kept and, when a test fails, its failure lines are printed
# again last: CI shows only the tail of a run, where a failure among
# hundreds of passing lines was lost (stop 22 could not tell which test).
swift_log="$postgres_dir/swift-test.log"
if ! SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 swift test --skip-build 2>&1 | tee "$swift_log"; then
  set +e +o pipefail # a summary that finds nothing, or is cut short by head, still ends in exit 1
  echo "test.sh: the Swift tests failed; the failing tests again:" >&2
  grep -a '✘' "$swift_log" | cut -c1-800 | head -60 >&2
  echo "test.sh: and their issues in context:" >&2
  grep -a -E -A6 '(✘|error:|Fatal error|Expectation failed)' "$swift_log" | grep -a -v -E '(Test|Suite) .* passed' |
    cut -c1-800 | head -200 >&2
  exit 1
fi
TOUCHTRACKER_BIN="$(swift build --show-bin-path)/touchtracker" python3 -m pytest -q Tests/e2e
