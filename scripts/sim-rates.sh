#!/usr/bin/env bash
# The simulator beside the CUDA backend: qwen3-8b at the four ShareGPT-like rate profiles, with the
# prompt counts of scripts/cuda-bench.sh's "rates" run on the GPU (RATE_PROMPTS there), on the sim
# profile given (default h200). Prints mean TTFT, TPOT and E2EL per rate, for docs/BENCHMARKS.md.
# RATE_PROMPTS (default "60 200 400 320") sets the prompt counts of the 1, 4, 8 and 16 req/s runs, as in
# cuda-bench.sh.
#
#   scripts/sim-rates.sh [--bin DIR] [PROFILE]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/dev/bin
if [ "${1:-}" = "--bin" ]; then bin="$2"; shift 2; fi
profile="${1:-h200}"
export AYAR_RESOURCES_DIR="${AYAR_RESOURCES_DIR:-$PWD/resources}"
read -r -a counts <<<"${RATE_PROMPTS:-60 200 400 320}"
i=0
for rate in 1 4 8 16; do
  prompts="${counts[$i]}"
  i=$((i + 1))
  "$bin/ayar-cli" bench --engine bundled --device sim --model qwen3-8b --engine-arg="--sim-profile=$profile" \
    --no-store --disable-tqdm --percentile-metrics ttft,tpot,itl,e2el --load-profile "sharegpt-${rate}rps" \
    --num-prompts "$prompts" 2>&1 | grep -E "Mean (TTFT|TPOT|E2EL)" | sed "s/^/$profile ${rate} req\/s: /"
done
