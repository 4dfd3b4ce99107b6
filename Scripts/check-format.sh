#!/usr/bin/env bash
# Checks that every Swift file is formatted as .swift-format says.
# Fix with: Scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files --cached --others --exclude-standard '*.swift')
if [[ "${1:-}" == "--fix" ]]; then
  swift-format format --in-place --parallel $files
  exit 0
fi
if ! swift-format lint --strict --parallel $files; then
  echo "Formatting differs from .swift-format; run Scripts/check-format.sh --fix" >&2
  exit 1
fi
