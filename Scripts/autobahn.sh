#!/usr/bin/env bash
# The Autobahn WebSocket test suite's fuzzing client against the live
# endpoint of a `touchtracker serve` it starts on loopback (RELIABILITY.md,
# "The live socket's framing"). Autobahn is Python 2 only: it runs on a
# Python 2.7 (default: pyenv's 2.7.18) with autobahntestsuite 25.10.1
# installed into .build/autobahn/py2 on first use. Cases 9 (performance),
# 12 and 13 (compression, not offered) are left out.
#
#   Scripts/autobahn.sh [BINARY]    (default .build-mine/debug/touchtracker)
#
# Report: .build/autobahn/reports/index.html, and a summary on stdout.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-$root/.build-mine/debug/touchtracker}"
python2="${PYTHON2:-$HOME/.pyenv/versions/2.7.18/bin/python2.7}"
out="$root/.build/autobahn"
prefix="$out/py2"
site="$prefix/lib/python2.7/site-packages"
mkdir -p "$out"
if [ ! -d "$site/autobahntestsuite" ]; then
  # setuptools first: the source packages among its dependencies need it to build.
  for package in setuptools==44.0.0 autobahntestsuite==25.10.1; do
    PYTHONPATH="$site" "$python2" -m pip install -q --no-warn-script-location --prefix "$prefix" "$package"
  done
fi
port=$((20000 + RANDOM % 20000))
work="$(mktemp -d)"
"$binary" serve --port "$port" --database "$work/d.sqlite" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
rm -rf "$out/reports"
cat >"$work/spec.json" <<JSON
{"outdir": "$out/reports", "cases": ["*"], "exclude-cases": ["9.*", "12.*", "13.*"],
 "servers": [{"agent": "touchtracker", "url": "ws://127.0.0.1:$port/api/drawings/autobahn/live"}]}
JSON
(cd "$work" && "$python2" -c "import site, sys; site.addsitedir('$site'); from autobahntestsuite.wstest import run; sys.exit(run())" \
  -m fuzzingclient -s "$work/spec.json" >"$out/wstest.log" 2>&1)
python3 "$root/Scripts/autobahn_summary.py" "$out/reports/index.json"
