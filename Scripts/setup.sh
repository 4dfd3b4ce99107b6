#!/usr/bin/env bash
# Makes sure this machine has what TouchTracker needs beyond Swift, and
# installs what is missing (Debian packages with apt, Python packages with pip).
#
#   Scripts/setup.sh wasm      wasi-libc, clang's wasm32 builtins and binaryen, for the WebAssembly core
#   Scripts/setup.sh browser   chromium, playwright, pytest, prometheus-client (parses /metrics), zxing-cpp with numpy (decodes the
#                              Share sheet's QR code), and openapi-spec-validator with schemathesis (the API's contract,
#                              Tests/e2e/test_openapi.py and Scripts/fuzz-api.sh), for the end-to-end tests
#   Scripts/setup.sh benchmark websockets, for the live-sync load harness (Benchmarks/server/live.py)
#   Scripts/setup.sh postgres  PostgreSQL (server and psql), for the PostgreSQL store's tests (Scripts/postgres.sh)
set -euo pipefail

# zlib's headers: the server gzips the page's files (Sources/CZlib).
apt_packages=(zlib1g-dev)
pip_packages=()
for group in "$@"; do
  case "$group" in
    wasm) apt_packages+=(wasi-libc libclang-rt-14-dev-wasm32 binaryen) ;;
    browser)
      apt_packages+=(chromium)
      # PACKAGE, PACKAGE:MODULE when the module imports under another name, PACKAGE==VERSION for one version.
      pip_packages+=(playwright pytest numpy zxing-cpp:zxingcpp prometheus-client:prometheus_client)
      # schemathesis pinned: a new release changes what the fuzzing finds between two runs of one commit.
      pip_packages+=(openapi-spec-validator:openapi_spec_validator schemathesis==4.32.4)
      ;;
    benchmark) pip_packages+=(websockets) ;;
    postgres) apt_packages+=(postgresql postgresql-client) ;;
    *) echo "setup.sh: unknown group '$group' (expected wasm, browser, benchmark or postgres)" >&2; exit 2 ;;
  esac
done

if ! command -v swift >/dev/null; then
  echo "setup.sh: 'swift' is not on PATH; install Swift 6.3 (with Embedded Swift and wasm-ld) first" >&2
  exit 1
fi

missing=()
for package in "${apt_packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}" >&2
  sudo=""
  if [[ $(id -u) != 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo="sudo"
    else
      echo "setup.sh: missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

missing=()
for entry in "${pip_packages[@]}"; do
  package=${entry%%:*}
  module=${entry#*:}
  module=${module%%==*}
  if [[ $package == *==* ]]; then
    # A pinned version: what is installed must be that one (pip replaces another).
    python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('${package%%==*}') != '${package#*==}')" 2>/dev/null ||
      missing+=("$package")
  else
    python3 -c "import $module" 2>/dev/null || missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]} from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check "${missing[@]}"
fi
