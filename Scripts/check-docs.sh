#!/usr/bin/env bash
# Checks the engine's documentation: every public symbol of TouchKit has a
# doc comment, and its DocC catalog (Sources/TouchKit/TouchKit.docc) builds
# with swift-docc-plugin without a single warning (a broken symbol link, an
# unknown topic, a malformed page).
#
#   Scripts/check-docs.sh [--scratch-path PATH] [--skip-build]
#
# Both steps read the TouchKit module from the scratch path (.build by
# default): after a `swift build` of the same path (Scripts/test.sh runs it
# first, with --skip-build), nothing is compiled again but the plugin's own
# tool on its first run. The archive is left in
# PATH/plugins/Swift-DocC/outputs/TouchKit.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build
skip_build=false
while (($#)); do
  case "$1" in
    --scratch-path) scratch=$2; shift 2 ;;
    --skip-build) skip_build=true; shift ;;
    *) echo "check-docs.sh: unknown argument '$1' (expected --scratch-path PATH or --skip-build)" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/touchkit-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT

if ! $skip_build; then
  swift build --scratch-path "$scratch" --target TouchKit
fi

# 1. Every public symbol documented. The symbol graph is what DocC reads;
# left out: what the compiler synthesizes (`::SYNTHESIZED::`), and overrides
# and default implementations of requirements, which show their parent's
# documentation (symbols implementing a protocol's requirement carry it in
# the graph already).
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
swift-symbolgraph-extract -module-name TouchKit -I "$scratch/debug/Modules" -target "$triple" \
  -minimum-access-level public -output-dir "$work"
python3 - "$work/TouchKit.symbols.json" <<'EOF'
import json, sys

graph = json.load(open(sys.argv[1]))
inheriting = {r["source"] for r in graph["relationships"] if r["kind"] in ("overrides", "defaultImplementationOf")}
missing = []
checked = 0
for symbol in graph["symbols"]:
    precise = symbol["identifier"]["precise"]
    if "::SYNTHESIZED::" in precise or precise in inheriting:
        continue
    checked += 1
    if "docComment" in symbol:
        continue
    location = symbol.get("location", {})
    path = location.get("uri", "?").split("/Sources/", 1)[-1]
    line = location.get("position", {}).get("line", -1) + 1
    missing.append(f"Sources/{path}:{line}: {symbol['kind']['displayName'].lower()} "
                   f"{'.'.join(symbol['pathComponents'])} has no /// documentation")
for entry in sorted(missing):
    print(entry, file=sys.stderr)
if missing:
    print(f"check-docs.sh: {len(missing)} public symbols of TouchKit are undocumented", file=sys.stderr)
    sys.exit(1)
print(f"check-docs.sh: all {checked} public symbols of TouchKit are documented")
EOF

# 2. The catalog and the comments build without a warning.
log="$work/docc.log"
if ! swift package --scratch-path "$scratch" generate-documentation --target TouchKit --warnings-as-errors \
  >"$log" 2>&1; then
  cat "$log" >&2
  echo "check-docs.sh: generate-documentation failed (its warnings count as errors)" >&2
  exit 1
fi
# What DocC said (everything from its first line on); the build's own output before it is not DocC's.
if sed -n '/^Building documentation for/,$p' "$log" | grep -E '(warning|error):'; then
  echo "check-docs.sh: DocC warned about the documentation of TouchKit" >&2
  exit 1
fi
grep -E '^(Finished building documentation|Generated documentation archive)' "$log" || true
