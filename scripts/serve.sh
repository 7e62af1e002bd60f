#!/usr/bin/env bash
# Serves the page (the repository root: index.html, www/, pkg/) at http://localhost:PORT/.
# Needs only Python 3; pkg/ (the wasm build) is committed, so no Rust is needed.
# Usage: scripts/serve.sh [PORT]   (default 8000)
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-8000}"
if [[ ! -f pkg/schedlab.js ]]; then
  echo "warning: pkg/schedlab.js is missing: the page will say the engine cannot be loaded" >&2
fi
echo "schedlab page: http://localhost:${port}/  (Ctrl-C stops)"
# python's http.server serves .wasm as application/wasm and .mjs/.js as text/javascript.
exec python3 -m http.server "$port" --bind 127.0.0.1
