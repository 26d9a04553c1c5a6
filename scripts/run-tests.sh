#!/usr/bin/env bash
# Sets up the machine (idempotent), builds the `dev` preset and runs the whole test suite.
# Extra arguments go to ctest (e.g. -R Tokenizer).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset dev >/dev/null
cmake --build --preset dev
ctest --preset dev -j "$(nproc)" "$@"
