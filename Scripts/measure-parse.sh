#!/usr/bin/env bash
# Measures how parsing time grows with the number of keys in one JSON object:
# the median over ROUNDS of time(80k keys) / time(20k keys), each pair parsed
# back to back. Linear is 4x; the bar (issue 8) is at most 5x. Exits 1 above it.
#
#   Scripts/measure-parse.sh [ROUNDS]     (default 21; about 10 s with the build)
#
# Compiles the core and Benchmarks/Sources/BenchmarkSupport/ManyKeys.swift
# with swiftc -O into a scratch folder, so it needs neither the Benchmarks
# package nor its dependencies (Benchmarks/Benchmarks/JSONParse is the same
# measurement as a package-benchmark row).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-21}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The engine (Sources/TouchKit) and the app compile as one module, as in
# Scripts/build-wasm.sh, so the app's `@_exported import TouchKit` stays out.
mapfile -t core < <(find "$root/Sources/TouchKit" "$root/Sources/TouchTrackerCore" -name '*.swift' -not -path '*/Wasm/*' \
  ! -path "$root/Sources/TouchTrackerCore/Engine.swift" | LC_ALL=C sort)
swiftc -O -wmo -parse-as-library -enable-experimental-feature Extern \
  -module-name TouchTrackerCore -emit-module -emit-module-path "$work/TouchTrackerCore.swiftmodule" \
  -c -o "$work/core.o" "${core[@]}"
cat >"$work/main.swift" <<SWIFT
let (small, large, ratio) = ManyKeys.medianRatio(rounds: $rounds)
print("{\"keys\": [20000, 80000], \"rounds\": $rounds, \"medianNanoseconds\": [\(small), \(large)], \"ratio\": \(ratio)}")
if ratio > 5 { fatalError("parsing 80k keys took more than 5x the time of 20k") }
SWIFT
swiftc -O -I "$work" -module-name MeasureParse \
  "$root/Benchmarks/Sources/BenchmarkSupport/ManyKeys.swift" \
  "$root/Benchmarks/Sources/BenchmarkSupport/Stopwatch.swift" \
  "$work/main.swift" "$work/core.o" -lm -o "$work/measure-parse"
"$work/measure-parse" || { echo "measure-parse: 80k keys took more than 5x the time of 20k" >&2; exit 1; }
