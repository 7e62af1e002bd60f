#!/usr/bin/env bash
# Builds pkg/ (the wasm module and its JS glue, committed so the page is a static site):
# cargo (wasm32, release) -> wasm-bindgen --target web (the exact version in Cargo.lock, installed
# with cargo if missing) -> wasm-opt -Oz (npm binaryen, pinned). Records the source
# hash in pkg/SOURCE_HASH; CI fails when it does not match the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (found: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want"
fi
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
# Remap local paths so that the module does not carry this machine's directories.
export RUSTFLAGS="--remap-path-prefix=$PWD=/schedlab --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
cargo build --lib --release --target wasm32-unknown-unknown
rm -rf pkg.new && mkdir pkg.new
wasm-bindgen --target web --no-typescript --out-dir pkg.new --out-name schedlab \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/schedlab.wasm"
# wasm-opt from the npm package `binaryen` (a maintained binaryen compiled to JS/wasm), pinned here
# and in package.json; Debian bookworm's binaryen 108 corrupts the externref table that
# wasm-bindgen emits for today's Rust, so no system wasm-opt is used. -Oz: the smallest download;
# -O3 was no faster (tests/browser/bench.mjs, tests/browser/engine-bench.mjs; README).
binaryen_version=132.0.0
grep -q "\"binaryen\": \"$binaryen_version\"" package.json ||
  { echo "package.json must pin binaryen $binaryen_version (devDependencies)" >&2; exit 1; }
if [ "$(node -p 'require("./node_modules/binaryen/package.json").version' 2>/dev/null || true)" != "$binaryen_version" ]; then
  echo "installing node_modules (npm ci: binaryen $binaryen_version)"
  npm ci --no-audit --no-fund --loglevel=error
fi
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  -o pkg.new/schedlab_bg.opt.wasm pkg.new/schedlab_bg.wasm
mv pkg.new/schedlab_bg.opt.wasm pkg.new/schedlab_bg.wasm
bash scripts/source-hash.sh > pkg.new/SOURCE_HASH
rm -rf pkg && mv pkg.new pkg
raw=$(stat -c %s pkg/schedlab_bg.wasm)
gz=$(gzip -9 -c pkg/schedlab_bg.wasm | wc -c)
echo "pkg/schedlab_bg.wasm: $raw bytes raw, $gz bytes gzip -9"
