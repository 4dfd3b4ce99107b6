#!/usr/bin/env bash
# Fuzzes the document and trace decoders with libFuzzer (swiftc -sanitize=fuzzer)
# for SECONDS (default 60), starting from the seeds of the test run and any
# corpus kept in .build/fuzz-decoders/corpus. A failure prints the broken
# promise and leaves the input as .build/fuzz-decoders/crash-*; replay it with
#   .build/fuzz-decoders/fuzz-decoders .build/fuzz-decoders/crash-...
#
#   Scripts/fuzz-decoders.sh [SECONDS] [extra libFuzzer options...]
#
# `swift test` runs the same oracle on a few thousand mutants in seconds
# (DecoderFuzzTests); this is the long run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
out="$root/.build/fuzz-decoders"
mkdir -p "$out/corpus" "$out/module"

# The engine (Sources/TouchKit) and the app compile as one module, as in
# Scripts/build-wasm.sh, so the app's `@_exported import TouchKit` stays out.
mapfile -t core < <(find "$root/Sources/TouchKit" "$root/Sources/TouchTrackerCore" -name '*.swift' -not -path '*/Wasm/*' \
  ! -path "$root/Sources/TouchTrackerCore/Engine.swift" | LC_ALL=C sort)
echo "fuzz-decoders: building" >&2
swiftc -O -wmo -parse-as-library -sanitize=fuzzer -enable-experimental-feature Extern \
  -module-name TouchTrackerCore -emit-module -emit-module-path "$out/module/TouchTrackerCore.swiftmodule" \
  -c -o "$out/core.o" "${core[@]}"
fuzzing="$root/Tests/TouchTrackerCoreTests/Fuzzing"
swiftc -O -parse-as-library -sanitize=fuzzer -I "$out/module" -module-name DecodersFuzzer \
  "$fuzzing/DecoderOracle.swift" "$root/Tests/Fuzz/DecodersFuzzer.swift" \
  "$out/core.o" -lm -o "$out/fuzz-decoders"

# Seeds: the valid documents and traces the tests start from, and the fixtures.
seeds="$out/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
cp "$root"/Tests/touchtrackerTests/Fixtures/*.json "$seeds/"
cp "$root"/Samples/*.json "$seeds/" 2>/dev/null || true

echo "fuzz-decoders: fuzzing for ${seconds}s" >&2
cd "$out"
./fuzz-decoders -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 "$@" corpus "$seeds"
