#!/usr/bin/env bash
# Sets up the machine (idempotent), builds Ayar, and runs `ayar-cli bench`.
# With no arguments it runs the default job: the bundled engine on this machine (its GPU when one is
# present, else its CPU) with the default load profile. On a machine with a display it then opens the
# workbench (`ayar`) with that run loaded; without one the printed result is the whole demo.
# Arguments go to `ayar-cli bench` as they are (try --help); like `vllm bench serve`, it then targets a
# running server (127.0.0.1:8000 unless told otherwise) unless --engine asks it to start one.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target ayar-cli ayar-engine
if [ "$#" -ne 0 ]; then
  exec build/dev/bin/ayar-cli bench "$@"
fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/dev/bin/ayar-cli bench --engine bundled
fi
cmake --build --preset dev --target ayar
log=$(mktemp)
trap 'rm -f "$log"' EXIT
build/dev/bin/ayar-cli bench --engine bundled 2>&1 | tee "$log"
run=$(sed -n 's/^ayar: stored as run \([0-9]*\) in .*/\1/p' "$log" | tail -n 1)
if [ -z "$run" ]; then
  echo "run-bench: the benchmark stored no run; the workbench is not opened" >&2
  exit 1
fi
exec build/dev/bin/ayar --open-run "$run"
