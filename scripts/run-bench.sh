#!/usr/bin/env bash
# Sets up the machine (idempotent), builds ayar-cli and ayar-engine, and runs `ayar-cli bench`.
# With no arguments it runs the default job: the bundled engine on this machine (its CPU when there is
# no GPU) with the default profile. Arguments go to `ayar-cli bench` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target ayar-cli ayar-engine
exec build/dev/bin/ayar-cli bench "$@"
