#!/usr/bin/env bash
# Runs every check: formatting, the WebAssembly build and its exports (node),
# the Swift tests (core, store, server, CLI), and the browser end-to-end tests
# in Chromium. The wasm is built first: `swift build` embeds Web/
# (touchtracker.wasm included) into the touchtracker binary.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh wasm browser
Scripts/check-format.sh
Scripts/build-wasm.sh
node Tests/wasm/reinit.mjs Web/touchtracker.wasm
swift build --build-tests
swift test --skip-build
TOUCHTRACKER_BIN="$(swift build --show-bin-path)/touchtracker" python3 -m pytest -q Tests/e2e
