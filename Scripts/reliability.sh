#!/usr/bin/env bash
# Every figure of RELIABILITY.md on this machine (a few minutes):
#   1. the server under slow clients, a descriptor limit, SIGTERM, a PostgreSQL
#      outage and ten 212 MB bodies at once against its body budget
#      (Scripts/reliability.py, release build, loopback only);
#   2. parsing cost, 80k vs 20k keys in one object (Scripts/measure-parse.sh);
#   3. the decoders fuzzed with libFuzzer for FUZZ_SECONDS (default 30);
#   4. the wasm's tt_init called 200 times without growing memory.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product touchtracker
# An absolute path: each phase starts the server from a directory of its own.
python3 Scripts/reliability.py --binary "$PWD/.build/release/touchtracker" "$@"
Scripts/measure-parse.sh
Scripts/fuzz-decoders.sh "${FUZZ_SECONDS:-30}"
Scripts/build-wasm.sh >/dev/null
node Tests/wasm/reinit.mjs Web/touchtracker.wasm
