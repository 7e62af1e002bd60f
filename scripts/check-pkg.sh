#!/usr/bin/env bash
# Fails when pkg/ was not rebuilt after a change to what it is built from.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(bash scripts/source-hash.sh)
have=$(cat pkg/SOURCE_HASH 2>/dev/null || echo missing)
if [ "$want" != "$have" ]; then
  echo "pkg/ is stale: built from sources $have, the sources are now $want."
  echo "Rebuild it with: bash scripts/build-pkg.sh   (then commit pkg/)"
  exit 1
fi
for f in pkg/schedlab.js pkg/schedlab_bg.wasm; do
  [ -s "$f" ] || { echo "$f is missing: run bash scripts/build-pkg.sh"; exit 1; }
done
echo "pkg/ matches the sources ($want)"
