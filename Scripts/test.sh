#!/usr/bin/env bash
# Runs every check: formatting, the Swift tests (core, store, server, CLI),
# the WebAssembly build and its exports (node), and the browser end-to-end tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh wasm browser
Scripts/check-format.sh
swift build --build-tests
swift test --skip-build
Scripts/build-wasm.sh
node Tests/wasm/reinit.mjs Web/touchtracker.wasm
TOUCHTRACKER_BIN="$(swift build --show-bin-path)/touchtracker" python3 -m pytest -q Tests/e2e
