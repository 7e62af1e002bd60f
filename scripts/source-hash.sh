#!/usr/bin/env bash
# Prints the hash of everything pkg/ is built from (Cargo.toml, Cargo.lock, src/, the build
# script). scripts/build-pkg.sh records it in pkg/SOURCE_HASH; scripts/check.sh compares.
set -euo pipefail
cd "$(dirname "$0")/.."
{ printf '%s\n' Cargo.toml Cargo.lock scripts/build-pkg.sh; find src -type f -name '*.rs' | LC_ALL=C sort; } |
  while read -r f; do printf '%s %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$f"; done |
  sha256sum | cut -d' ' -f1
