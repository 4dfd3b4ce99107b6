#!/usr/bin/env bash
# Builds the WebAssembly core and then the server (which embeds it), then serves the app:
# open http://127.0.0.1:8080 (drawings are kept in ./touchtracker.sqlite).
# Extra arguments go to `touchtracker serve` (--host, --port, --database, --web-root).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh wasm
Scripts/build-wasm.sh
Scripts/build-wasm.sh --example
swift build -c release --product touchtracker
exec .build/release/touchtracker serve "$@"
