#!/usr/bin/env bash
# Sets up the machine (idempotent), builds ayar-cli and ayar-engine, and runs `ayar-cli bench`.
# With no arguments it runs the default job: the bundled engine on this machine (its CPU when there is
# no GPU) with the default load profile. Arguments go to `ayar-cli bench` as they are (try --help);
# like `vllm bench serve`, it then targets a running server (127.0.0.1:8000 unless told otherwise)
# unless --engine asks it to start one.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target ayar-cli ayar-engine
if [ "$#" -eq 0 ]; then
  set -- --engine bundled
fi
exec build/dev/bin/ayar-cli bench "$@"
