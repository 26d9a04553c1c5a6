#!/usr/bin/env bash
# How well the comparison's 95% intervals tell noise from a real change, measured on the bundled
# engine's timing simulator (`step:BASE_MS,PER_SEQ_MS`, each step BASE + PER_SEQ x its sequences), with
# the same reports a user reads (`ayar-cli report --format json`).
#
# For each trial i: the baseline configuration run twice, and a configuration whose every step takes 10%
# longer run once. SEEDS says which workloads they get: `differ` (the default): seeds i, i + trials and
# i + trials (other prompt lengths and Poisson arrivals in each compared pair); `same`: seed i for all
# three (the same prompts and arrivals, as two `vllm bench serve` runs with its default seed get).
# Printed per figure: in how many trials two runs of one configuration were "no clear difference" (the
# interval holds 1), and in how many the 10% change was found (the interval leaves 1 out, on the slower
# side).
#
#   scripts/interval-trials.sh [TRIALS, default 100] [SEEDS: differ or same] [BUILD_DIR, default build/dev]
#
# Runs on loopback only; about 3 runs of 1-2 seconds each a trial.
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-100}
seeds=${2:-differ}
build=${3:-build/dev}
if ! [[ "$trials" =~ ^[1-9][0-9]*$ ]]; then
  echo "interval-trials.sh: the first argument is the number of trials (a whole number above 0), not '$trials'." >&2
  exit 2
fi
case "$seeds" in
  differ) other=$trials ;;
  same) other=0 ;;
  *) echo "interval-trials.sh: SEEDS is differ or same, not '$seeds'." >&2; exit 2 ;;
esac
cli=$build/bin/ayar-cli
[ -x "$cli" ] || { echo "interval-trials.sh: no $cli: build first (cmake --build --preset dev)." >&2; exit 2; }
export AYAR_RESOURCES_DIR=${AYAR_RESOURCES_DIR:-$PWD/resources}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store=$work/trials.db
baseline_profile=step:10,0.5
slower_profile=step:11,0.55

bench() {  # label sim-profile seed
  "$cli" bench --engine bundled --device sim --model qwen3-8b --engine-arg="--sim-profile=$2" \
    --dataset-name random --random-input-len 256 --random-output-len 64 --random-range-ratio 0.5 \
    --request-rate 40 --num-prompts 60 --seed "$3" --label "$1" --store "$store" >/dev/null 2>"$work/bench.log" ||
    { cat "$work/bench.log" >&2; exit 1; }
}

id=0
for ((i = 1; i <= trials; i++)); do
  bench same-a "$baseline_profile" "$i"
  bench same-b "$baseline_profile" $((i + other))
  bench slower "$slower_profile" $((i + other))
  a=$((id + 1)) b=$((id + 2)) s=$((id + 3))
  id=$s
  "$cli" report "$a" "$b" --store "$store" --format json >"$work/same-$i.json"
  "$cli" report "$a" "$s" --store "$store" --format json >"$work/slower-$i.json"
done

python3 - "$work" "$trials" <<'EOF'
import json, sys
work, trials = sys.argv[1], int(sys.argv[2])
figures = ["mean_ttft_ms", "mean_tpot_ms", "p99_tpot_ms", "mean_e2el_ms"]
noise = {f: 0 for f in figures}
found = {f: 0 for f in figures}
for i in range(1, trials + 1):
    for kind, counts in (("same", noise), ("slower", found)):
        data = json.load(open(f"{work}/{kind}-{i}.json"))["data"]["candidates"][0]["figures"]
        for f in figures:
            interval = data[f]["interval"]
            if kind == "same":
                counts[f] += 0 if interval["clear"] else 1
            else:
                counts[f] += 1 if interval["high"] < 1.0 else 0
print(f"{'figure':<14} {'same config: no clear difference':>34} {'10% slower steps: found':>25}")
for f in figures:
    print(f"{f:<14} {noise[f]:>27} / {trials:<4} {found[f]:>18} / {trials}")
EOF
