#!/usr/bin/env bash
# Browser tests of the page: headless Debian Chromium driven by playwright-core (node:test).
# Installs what is missing (chromium via apt, node_modules via npm ci), serves the repository
# root on a free localhost port, runs `node --test tests/browser/`, stops the server.
# SCHEDLAB_MOCK_PKG=1 serves tests/browser/mock-pkg/ as pkg/ (only for developing the page
# before the wasm build exists; the CLI comparison test is then skipped). SCHEDLAB_PKG_DIR=DIR
# serves DIR as pkg/ (a wasm build of uncommitted sources, e.g. made by build-pkg.sh elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

if [[ ! -x /usr/bin/chromium ]]; then
  echo "browser-test: installing chromium (apt)" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [[ ! -d node_modules/playwright-core ]]; then
  echo "browser-test: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# The page's results are compared with the CLI's: build the CLI from these sources.
if [[ -z "${SCHEDLAB_BIN:-}" ]]; then
  cargo build --quiet --bin schedlab
  target_dir="${CARGO_TARGET_DIR:-target}"
  [[ "$target_dir" = /* ]] || target_dir="$root/$target_dir"
  export SCHEDLAB_BIN="$target_dir/debug/schedlab"
fi

serve_root="$root"
tmp=""
if [[ "${SCHEDLAB_MOCK_PKG:-}" == 1 ]]; then
  tmp="$(mktemp -d)"
  ln -s "$root/index.html" "$root/www" "$tmp/"
  ln -s "$root/tests/browser/mock-pkg" "$tmp/pkg"
  serve_root="$tmp"
  export SCHEDLAB_MOCK=1
elif [[ -n "${SCHEDLAB_PKG_DIR:-}" ]]; then
  tmp="$(mktemp -d)"
  ln -s "$root/index.html" "$root/papers.html" "$root/www" "$tmp/"
  ln -s "$(cd "$SCHEDLAB_PKG_DIR" && pwd)" "$tmp/pkg"
  serve_root="$tmp"
elif [[ ! -f pkg/schedlab.js ]]; then
  echo "browser-test: pkg/schedlab.js is missing (build it, or set SCHEDLAB_MOCK_PKG=1)" >&2
  exit 1
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$serve_root" >/tmp/schedlab-http.$port.log 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [[ -n "$tmp" ]]; then rm -rf "$tmp"; fi
  return 0 # the script's status is the tests' status, never the cleanup's
}
trap cleanup EXIT
for _ in $(seq 1 50); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html', timeout=1)" 2>/dev/null; then break; fi
  sleep 0.1
done

export SCHEDLAB_URL="http://127.0.0.1:$port/"
status=0
# Two test files at once (each its own Chromium): the second file uses what the first leaves
# idle (a worker's stall timer, a page load's fetches). On a 2-core machine (2026-12-02) the
# suite took 507 to 580 s one file at a time and 483 s two at once; its tests' own durations
# then add up to 929 s against 556 s, so most of it is CPU (a page's load and first run, about
# 1.5 s each, some 200 times) and a third file would gain little. BROWSER_CONCURRENCY=1 runs
# them one at a time (for timing a single test). The timeout is a guard against a hung browser,
# not a time target.
timeout 900 node --test --test-concurrency="${BROWSER_CONCURRENCY:-2}" ${BROWSER_TESTS:-tests/browser/} || status=$?
exit "$status"
