#!/usr/bin/env bash
# Builds the release server and runs Scripts/reliability.py against it on
# loopback: the figures of RELIABILITY.md (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product touchtracker
exec python3 Scripts/reliability.py --binary .build/release/touchtracker "$@"
