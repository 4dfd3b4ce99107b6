#!/usr/bin/env bash
# Runs every row of BENCHMARKS.md on this machine and prints the table.
#
#   Scripts/benchmark.sh
#
# Each row measures ours and a baseline in the same run and reports their
# ratio (never an absolute threshold: the machine is shared and noisy).
# Needs what Scripts/setup.sh installs for `wasm`, `browser`, `benchmark` and `postgres`
# (row 12 starts a throwaway PostgreSQL on loopback with Scripts/postgres.sh), and node.
# Builds everything in release in one scratch folder, Benchmarks/.build-bench:
# the benchmarks, bench-tool and (a product of the root package the
# benchmarks depend on) touchtracker for the storage row.
# Results (raw JSON and package-benchmark samples) go to
# Benchmarks/.build-results; the table also to Benchmarks/.build-results/report.md.
#
#   Scripts/benchmark.sh --only room
#
# runs row 15 alone (a room of 1,000 on one server and on two servers on
# PostgreSQL, 10,000 idle connections: Benchmarks/server/room.py) and prints its rows.
#
#   Scripts/benchmark.sh --only first-stroke
#
# runs row 16 alone (the first stroke on a phone against tldraw 3.11.1:
# Benchmarks/browser/first_stroke.py): it builds the wasm into Web/ and the
# release server that embeds it, and measures the page as that binary serves it.
set -euo pipefail

only=""
if [[ ${1:-} == --only ]]; then
  only=${2:?"benchmark.sh: --only takes a name: room or first-stroke"}
  [[ $only == room || $only == first-stroke ]] ||
    { echo "benchmark.sh: --only knows 'room' and 'first-stroke', not '$only'" >&2; exit 2; }
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$root/Benchmarks/.build-results"
rm -rf "$out"
mkdir -p "$out/samples"
bench_scratch="Benchmarks/.build-bench"
tool="$bench_scratch/release/bench-tool"
started=$SECONDS

step() { printf '\n== %s (%ds so far)\n' "$1" $((SECONDS - started)) >&2; }

# Row 15: a room of 1,000 (one server, then two on PostgreSQL) and 10,000 idle connections.
room_rows() {
  python3 Benchmarks/server/room.py --server "$bench_scratch/release/touchtracker" \
    --swarm "$bench_scratch/release/live-swarm" --out "$out/room.json" >&2 ||
    echo "benchmark.sh: row 15 found problems (in $out/room.json, and in the report)" >&2
  local dir
  dir=$(mktemp -d)
  local url
  if url=$(Scripts/postgres.sh start "$dir" | tail -n 1) && [[ $url == postgres://* ]]; then
    python3 Benchmarks/server/room.py --server "$bench_scratch/release/touchtracker" \
      --swarm "$bench_scratch/release/live-swarm" --postgres "$url" --servers 2 --skip idle \
      --out "$out/room-postgres.json" >&2 ||
      echo "benchmark.sh: row 15 on PostgreSQL found problems (in $out/room-postgres.json)" >&2
  else
    echo "benchmark.sh: no PostgreSQL (Scripts/postgres.sh start failed): row 15's two servers are left out" >&2
  fi
  Scripts/postgres.sh stop "$dir" >&2 || true
}

# Row 16: navigation to the first stroke on screen, phone profile, beside tldraw (~4 min).
first_stroke_row() {
  python3 Benchmarks/browser/first_stroke.py --server "$bench_scratch/release/touchtracker" "$@" \
    --out "$out/first-stroke.json" | tee "$out/first-stroke.md" >&2
}

if [[ $only == first-stroke ]]; then
  step "Building the wasm into Web/ and touchtracker (release) with it"
  Scripts/build-wasm.sh >&2
  swift build -c release --package-path Benchmarks --scratch-path "$bench_scratch" --product touchtracker >&2
  step "Row 16: the first stroke on a phone, beside tldraw"
  first_stroke_row
  exit 0
fi

if [[ $only == room ]]; then
  step "Building live-swarm and touchtracker (release)"
  swift build -c release --package-path Benchmarks --scratch-path "$bench_scratch" --product live-swarm >&2
  swift build -c release --package-path Benchmarks --scratch-path "$bench_scratch" --product touchtracker >&2
  step "Row 15: a room of 1,000, and 10,000 idle connections"
  room_rows
  step "Report (row 15)"
  results=("$out/room.json")
  [[ -f $out/room-postgres.json ]] && results+=("$out/room-postgres.json")
  python3 Benchmarks/server/room.py --report "${results[@]}" | tee "$out/report.md"
  exit 0
fi

step "Row 6: wasm size"
# The budget is Scripts/wasm-budget.json's (Benchmarks/browser/download_cost.py --derive).
budget=$(sed -n 's/^ *"maxBytes": *\([0-9][0-9]*\).*/\1/p' Scripts/wasm-budget.json | head -n 1)
# A module over its budget is a result (the report says so), not the end of the run: build-wasm.sh
# writes the module, checks its imports, and checks its size last ($out is new: the file is this build's).
status=0
Scripts/build-wasm.sh --output "$out/touchtracker.wasm" >&2 2>"$out/build-wasm.err" || status=$?
cat "$out/build-wasm.err" >&2
if ((status != 0)); then
  if grep -q '^build-wasm: larger than the budget' "$out/build-wasm.err"; then
    echo "benchmark.sh: the module is over its budget (row 6 reports it); the other rows go on" >&2
  else
    exit "$status"
  fi
fi
raw=$(wc -c <"$out/touchtracker.wasm")
gzipped=$(gzip -9 -c "$out/touchtracker.wasm" | wc -c)
echo "{\"rawBytes\": $raw, \"gzippedBytes\": $gzipped, \"budgetBytes\": $budget}" >"$out/size.json"

step "Building the benchmarks and touchtracker (release)"
swift build -c release --package-path Benchmarks --scratch-path "$bench_scratch" >&2
swift build -c release --package-path Benchmarks --scratch-path "$bench_scratch" --product touchtracker >&2

step "Row 1: hit-test answers (ours must equal the exact scan)"
"$tool" check-hit-test >"$out/hit-check.json"

step "Rows 1, 2, 5: package-benchmark (hit test, touch throughput, memory)"
swift package --package-path Benchmarks --scratch-path "$bench_scratch" \
  --allow-writing-to-directory "$out/samples" \
  benchmark --format histogramSamples --path "$out/samples" --no-progress >&2

step "Row 2: the same ten-finger trace, native and as wasm in node"
strokes=20
repeats=20
"$tool" trace-native $strokes $repeats >"$out/trace-native-1.json"
node Benchmarks/wasm/touch-throughput.mjs "$out/touchtracker.wasm" $strokes $repeats "$out/trace-wasm.document.json" \
  >"$out/trace-wasm.json"
"$tool" trace-native $strokes $repeats >"$out/trace-native-2.json"
"$tool" trace-drawing $strokes >"$out/trace-native.document.json"
if ! cmp -s "$out/trace-native.document.json" "$out/trace-wasm.document.json"; then
  echo "benchmark.sh: the wasm drew a different drawing from the same trace" >&2
  exit 1
fi

step "A 100k-line drawing for rows 3 and 4"
"$tool" document 100000 "$out/drawing-100k.json" >&2

step "Row 9: opening the 100k-line document in the wasm vs JSON.parse"
node Benchmarks/wasm/decode.mjs "$out/touchtracker.wasm" "$out/drawing-100k.json" 9 >"$out/wasm-decode.json"

step "Row 4: storage through the HTTP API"
python3 Benchmarks/server/storage.py --server "$bench_scratch/release/touchtracker" \
  --document "$out/drawing-100k.json" --lines 100000 --out "$out/storage.json" >&2

step "Row 7: saving one line as a change, listing with a 30 MB drawing stored"
python3 Benchmarks/server/append.py --server "$bench_scratch/release/touchtracker" --lines 100000 \
  --out "$out/append.json" >&2

step "Row 10: touchtracker render of 1,000,000 lines (peak RSS), and the same document through the API"
"$tool" document 1000000 "$out/drawing-1m.json" >&2
python3 Benchmarks/cli/render_memory.py --touchtracker "$bench_scratch/release/touchtracker" \
  --document "$out/drawing-1m.json" --lines 1000000 --out "$out/render-memory.json" >&2
rm -f "$out/drawing-1m.json"

step "Row 8: drawing together, live sync under load (and kill -9)"
# A load that does not converge is a result (the report says so), not the end of the run.
python3 Benchmarks/server/live.py --server "$bench_scratch/release/touchtracker" \
  --swarm "$bench_scratch/release/live-swarm" --out "$out/live.json" >&2 ||
  echo "benchmark.sh: row 8 found problems (in $out/live.json, and in the report)" >&2


step "Row 3: frame cost in Chromium"
python3 Benchmarks/browser/frame_cost.py --document "$out/drawing-100k.json" --lines 100000 \
  --wasm "$out/touchtracker.wasm" --out "$out/frames.json" >&2

step "Row 14: undo, delete, redo and long presses at 100k lines in the page, against a whole repaint (~1 min)"
python3 Benchmarks/browser/change_cost.py --document "$out/drawing-100k.json" --lines 100000 \
  --wasm "$out/touchtracker.wasm" --out "$out/changes.json" >&2

step "Row 14: the next line's input latency at 100k lines, against a bare canvas page (~1 min)"
python3 Benchmarks/browser/input_latency.py --document "$out/drawing-100k.json" --lines 100000 \
  --wasm "$out/touchtracker.wasm" --out "$out/latency.json" >&2

step "Row 11: opening 100k lines in the page vs a plain page stroking each segment once"
python3 Benchmarks/browser/open_cost.py --plain --document "$out/drawing-100k.json" --lines 100000 \
  --wasm "$out/touchtracker.wasm" --runs 3 --out "$out/open.json" >&2

step "Row 6: the first visit's download and the wasm's compile against tldraw's bundle (the budget's measurement, ~3 min)"
# Measures only: the budget moves when someone runs it with --derive Scripts/wasm-budget.json and commits that.
# Without the peer (pip cannot reach PyPI) it reports our side alone and says so.
python3 Benchmarks/browser/download_cost.py --server "$bench_scratch/release/touchtracker" \
  --wasm "$out/touchtracker.wasm" --out "$out/download.json" >&2

step "Row 11: page memory after opening 1,000,000 lines (wasm + JS heap)"
python3 Benchmarks/browser/open_memory.py --wasm "$out/touchtracker.wasm" --out "$out/open-memory.json" >&2

step "Sync: how soon a page says it is offline when the server stops answering (SIGSTOP)"
offline_web=$(mktemp -d)
cp -r Web/. "$offline_web" && cp "$out/touchtracker.wasm" "$offline_web/touchtracker.wasm"
python3 Benchmarks/browser/offline_notice.py --binary "$bench_scratch/release/touchtracker" \
  --web-root "$offline_web" --out "$out/offline-notice.json" >&2
rm -rf "$offline_web"

step "Row 12: two servers on one PostgreSQL (live sync, kill -9 of one), saves vs pgbench"
# Last before the report: without PostgreSQL the other rows still stand.
postgres_dir=$(mktemp -d)
trap 'Scripts/postgres.sh stop "$postgres_dir" >&2 || true' EXIT
if postgres_url=$(Scripts/postgres.sh start "$postgres_dir" | tail -n 1) && [[ $postgres_url == postgres://* ]]; then
  python3 Benchmarks/server/live.py --server "$bench_scratch/release/touchtracker" \
    --swarm "$bench_scratch/release/live-swarm" --postgres "$postgres_url" --servers 2 \
    --out "$out/live-postgres.json" >&2 ||
    echo "benchmark.sh: row 12's live loads found problems (in $out/live-postgres.json, and in the report)" >&2
  python3 Benchmarks/server/writers.py --server "$bench_scratch/release/touchtracker" --postgres "$postgres_url" \
    --tool "$tool" --store-writers "$bench_scratch/release/store-writers" --out "$out/writers.json" >&2
else
  echo "benchmark.sh: no PostgreSQL (Scripts/postgres.sh start failed): row 12 is left out" >&2
fi
Scripts/postgres.sh stop "$postgres_dir" >&2 || true
trap - EXIT

step "Row 15: a room of 1,000 (one server, two on PostgreSQL), and 10,000 idle connections"
room_rows

step "Row 16: the first stroke on a phone, beside tldraw (its table in $out/first-stroke.md)"
stroke_web=$(mktemp -d)
cp -r Web/. "$stroke_web" && cp "$out/touchtracker.wasm" "$stroke_web/touchtracker.wasm"
first_stroke_row --web-root "$stroke_web"
rm -rf "$stroke_web"

step "Report"
python3 Benchmarks/report.py "$out" | tee "$out/report.md"
printf '\nbenchmark.sh: done in %ds\n' $((SECONDS - started)) >&2
