#!/usr/bin/env bash
# Builds Web/touchtracker.wasm from one Swift module: the engine's sources
# (Sources/TouchKit/**) and the app's (Sources/TouchTrackerCore/**), including
# its wasm-only exports in Wasm/.
#
#   Scripts/build-wasm.sh [--output PATH]
#   Scripts/build-wasm.sh --example    the engine's example instead (Examples/Hypnosis:
#                                      TouchKit and the example, Web/examples/hypnosis/hypnosis.wasm)
#
# Needs a Swift toolchain with Embedded Swift (swiftc, clang and wasm-ld, 6.x),
# Debian's wasi-libc (libc, libm), libclang-rt-14-dev-wasm32 (builtins) and
# binaryen (wasm-opt). Fails when the module outgrows its budget, `maxBytes` in
# Scripts/wasm-budget.json, which only `Benchmarks/browser/download_cost.py --derive`
# writes: derived from what a first visit downloads and how long the module takes to
# compile, against a peer's bundle in the same run (docs/DESIGN.md, "The wasm's budget").
# The sync client, Sync/, is ~30 KB of the module.
#
# Size: the budget holds because of three choices, each worth 20-50 KB:
# no LLVM inlining beyond what -Osize's SIL optimizer did
# (-inline-threshold=0), TouchKit/Wasm/UnicodeNormalizationStubs.c in place of the
# normalization tables, and wasm-opt -Oz over the linked module.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="$root/Web/touchtracker.wasm"
if [[ "${1:-}" == "--output" && -n "${2:-}" ]]; then output="$2"; fi
budget_file="$root/Scripts/wasm-budget.json"
max_bytes="$(sed -n 's/^ *"maxBytes": *\([0-9][0-9]*\).*/\1/p' "$budget_file" 2>/dev/null | head -n 1)"
if [[ -z "$max_bytes" ]]; then
  echo "build-wasm: no \"maxBytes\" in $budget_file (written by Benchmarks/browser/download_cost.py --derive)" >&2
  exit 1
fi
example=0
if [[ "${1:-}" == "--example" ]]; then
  example=1
  output="$root/Web/examples/hypnosis/hypnosis.wasm"
fi

missing=()
apt_packages=()

# The first existing file among the arguments, or nothing.
first_file() { for f in "$@"; do [[ -f "$f" ]] && { echo "$f"; return; }; done; }

# Finds a file a Debian package installs, by the end of its path.
from_package() {
  local package="$1" suffix="$2"
  dpkg -L "$package" 2>/dev/null | grep -E "$suffix\$" | head -n 1 || true
}

swiftc="${SWIFTC:-$(command -v swiftc || true)}"
if [[ -z "$swiftc" ]]; then
  missing+=("swiftc (a Swift 6 toolchain with Embedded Swift, from swift.org)")
fi
wasm_ld="${WASM_LD:-$(command -v wasm-ld || true)}"
if [[ -z "$wasm_ld" && -n "$swiftc" ]]; then
  wasm_ld="$(first_file "$(dirname "$swiftc")/wasm-ld")"
fi
if [[ -z "$wasm_ld" ]]; then
  missing+=("wasm-ld (ships with the Swift toolchain)")
fi

clang="${CLANG:-}"
if [[ -z "$clang" && -n "$swiftc" ]]; then clang="$(first_file "$(dirname "$swiftc")/clang")"; fi
if [[ -z "$clang" ]]; then clang="$(command -v clang || true)"; fi
if [[ -z "$clang" ]]; then
  missing+=("clang with the WebAssembly target (ships with the Swift toolchain)")
fi
wasm_opt="${WASM_OPT:-$(command -v wasm-opt || true)}"
wasm_dis="$(command -v wasm-dis || true)"
if [[ -z "$wasm_opt" || -z "$wasm_dis" ]]; then
  missing+=("wasm-opt and wasm-dis (binaryen)")
  apt_packages+=(binaryen)
fi

libc="$(first_file /usr/lib/wasm32-wasi/libc.a "$(from_package wasi-libc '/wasm32-wasi/libc\.a')")"
libm="$(first_file /usr/lib/wasm32-wasi/libm.a "$(from_package wasi-libc '/wasm32-wasi/libm\.a')")"
if [[ -z "$libc" || -z "$libm" ]]; then
  missing+=("wasi-libc (libc.a and libm.a for wasm32)")
  apt_packages+=(wasi-libc)
fi
builtins="$(from_package libclang-rt-14-dev-wasm32 'libclang_rt\.builtins-wasm32\.a')"
if [[ -z "$builtins" ]]; then
  builtins="$(first_file /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a)"
fi
if [[ -z "$builtins" ]]; then
  missing+=("clang_rt builtins for wasm32 (libclang_rt.builtins-wasm32.a)")
  apt_packages+=(libclang-rt-14-dev-wasm32)
fi

unicode_tables=""
if [[ -n "$swiftc" ]]; then
  toolchain_lib="$(cd "$(dirname "$swiftc")/../lib" && pwd)"
  unicode_tables="$(first_file "$toolchain_lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a")"
  if [[ -z "$unicode_tables" ]]; then
    missing+=("libswiftUnicodeDataTables.a for wasm32 in $toolchain_lib/swift/embedded (a toolchain with Embedded Swift for wasm32)")
  fi
fi

if ((${#missing[@]} > 0)); then
  echo "build-wasm: missing tools:" >&2
  for item in "${missing[@]}"; do echo "  - $item" >&2; done
  if ((${#apt_packages[@]} > 0)); then
    echo "Install with: sudo apt-get install -y ${apt_packages[*]}" >&2
  fi
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

core="$root/Sources/TouchTrackerCore"
# The engine (Sources/TouchKit) and the app compile as one module: a second
# module fails to link, so the app's `@_exported import TouchKit` stays out.
mapfile -t sources < <(find "$root/Sources/TouchKit" "$core" -name '*.swift' ! -path "$core/Engine.swift" | LC_ALL=C sort)
module=TouchTrackerCore
if ((example)); then
  # The engine and the example only: nothing of the app's core.
  mapfile -t sources < <(find "$root/Sources/TouchKit" "$root/Examples/Hypnosis" -name '*.swift' ! -name Engine.swift |
    LC_ALL=C sort)
  module=HypnosisExample
fi

echo "build-wasm: compiling ${#sources[@]} Swift files"
"$swiftc" \
  -target wasm32-unknown-none-wasm \
  -enable-experimental-feature Embedded \
  -enable-experimental-feature Extern \
  -wmo -Osize \
  -Xfrontend -disable-stack-protector \
  -Xllvm -inline-threshold=0 \
  -parse-as-library \
  -module-name "$module" \
  -c -o "$work/TouchTrackerCore.o" \
  "${sources[@]}"
"$clang" --target=wasm32-unknown-unknown -Oz -c \
  -o "$work/UnicodeNormalizationStubs.o" "$root/Sources/TouchKit/Wasm/UnicodeNormalizationStubs.c"

echo "build-wasm: linking"
# --max-memory caps the memory at 2 GiB, so every address an export returns
# fits in a positive i32 (JavaScript reads i32 results as signed); malloc
# fails beyond it, and the exports answer 0 or -1 (see Wasm/ExportBuffer.swift).
# The stubs come before the toolchain's tables, so the tables' normalization
# member is never pulled in; the rest of the archive stays available.
"$wasm_ld" \
  --no-entry --gc-sections --strip-all --max-memory=2147483648 \
  -o "$work/linked.wasm" \
  "$work/TouchTrackerCore.o" "$work/UnicodeNormalizationStubs.o" \
  "$unicode_tables" "$libc" "$libm" "$builtins"

echo "build-wasm: optimizing for size"
mkdir -p "$(dirname "$output")"
# The features LLVM's generic wasm32 CPU already uses (the linked module
# lost its target_features section to --strip-all), and no others.
"$wasm_opt" -Oz \
  --enable-bulk-memory --enable-multivalue --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext \
  --strip-debug --strip-producers \
  -o "$output" "$work/linked.wasm"

# The page provides one import, `tt.read_input(offset, pointer, capacity)`
# (the document's text a chunk at a time, Web/core/bridge.js): any other (a
# libc function reaching for WASI, say) must fail here, not in the browser.
imports="$("$wasm_dis" --all-features "$output" | grep -E '^ *\(import ' |
  grep -vE '^ *\(import "tt" "read_input" \(func [^ ]+ (\(type [^)]+\) )?\(param i32 i32 i32\) \(result i32\)\)\)$' || true)"
if [[ -n "$imports" ]]; then
  echo "build-wasm: the module has imports the page does not provide (only tt.read_input(i32, i32, i32) -> i32):" >&2
  echo "$imports" >&2
  exit 1
fi

raw=$(wc -c <"$output")
gzipped=$(gzip -9 -c "$output" | wc -c)
echo "build-wasm: $output"
awk -v raw="$raw" -v gz="$gzipped" \
  'BEGIN { printf "build-wasm: %.1f KB raw (%d bytes), %.1f KB gzipped (%d bytes)\n", raw / 1024, raw, gz / 1024, gz }'
if ((example)); then exit 0; fi
if ((raw > max_bytes)); then
  echo "build-wasm: larger than the budget, $max_bytes bytes ($((max_bytes / 1024)) KB, Scripts/wasm-budget.json), by $((raw - max_bytes)) bytes" >&2
  exit 1
fi
echo "build-wasm: $((max_bytes - raw)) bytes under the budget ($max_bytes, Scripts/wasm-budget.json)"
