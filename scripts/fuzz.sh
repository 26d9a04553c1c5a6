#!/usr/bin/env bash
# Builds the fuzz preset (clang-14, libFuzzer, AddressSanitizer + UBSan) and runs every fuzz target for
# a while, one after the other, each on a copy of its seed corpus: fuzz/corpus/ is only read, so a run
# (CI's included) never adds files to the repository. Fails when a target crashes, leaks, hangs on an
# input, or runs out of memory; the input that did it is kept under build/fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh                 every target, 3 seconds each (what CI runs)
#   scripts/fuzz.sh 600             every target, 10 minutes each
#   scripts/fuzz.sh 60 sse_parser   the named targets only
#
# AYAR_BUILD_JOBS limits the build's parallel jobs (default: every core). AYAR_FUZZ_MAX_RUNS stops a
# target after that many executions even if its seconds are not up (the long run's bar is ten million
# executions or an hour a target: `AYAR_FUZZ_MAX_RUNS=10000000 scripts/fuzz.sh 3600`). docs/FUZZING.md
# says how to run one target by hand and how to reproduce a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-3}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: the first argument is the seconds to run each target (a whole number above 0), not '$seconds'." >&2
  exit 2
fi
shift || true
max_runs=${AYAR_FUZZ_MAX_RUNS:-}
if [ -n "$max_runs" ] && ! [[ "$max_runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: AYAR_FUZZ_MAX_RUNS is the executions after which a target stops (a whole number above 0), not '$max_runs'." >&2
  exit 2
fi
runs_flag=()
[ -n "$max_runs" ] && runs_flag=(-runs="$max_runs")

say() { printf 'fuzz: %s\n' "$*" >&2; }

# clang-14, libFuzzer and the Qwen3 tokenizer (two targets encode with it) come from the set-up.
./scripts/setup.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -- -j"${AYAR_BUILD_JOBS:-$(nproc)}"
bin=build/fuzz/bin

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for dir in fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
printf '%-22s %12s  %s\n' target executions result
for target in "${targets[@]}"; do
  if [ ! -x "$bin/fuzz_$target" ] || [ ! -d "fuzz/corpus/$target" ]; then
    say "no target '$target': the targets are those with a folder in fuzz/corpus/ (and a program $bin/fuzz_<target>)."
    exit 2
  fi
  mkdir -p "$work/$target" "build/fuzz/artifacts/$target"
  cp -R "fuzz/corpus/$target/." "$work/$target/"
  log="build/fuzz/artifacts/$target/last-run.log"
  # -timeout: one input running longer is a hang. The outer timeout is a backstop for a fuzzer that
  # does not stop by itself.
  set +e
  timeout --kill-after=10 $((seconds + 120)) "$bin/fuzz_$target" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 "${runs_flag[@]}" -artifact_prefix="build/fuzz/artifacts/$target/" \
    "$work/$target" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    printf '%-22s %12s  %s\n' "$target" "${runs:-?}" ok
  else
    printf '%-22s %12s  %s\n' "$target" "${runs:-?}" "FAILED (exit $rc)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz check failed|.*runtime error)|Test unit written to' "$log" | head -n 8 | sed 's/^/    /' >&2
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  say "failed: ${failed[*]}. Each one's log and the input that failed are in build/fuzz/artifacts/<target>/;"
  say "docs/FUZZING.md says how to reproduce one."
  exit 1
fi
say "every target ran (up to ${seconds} s${max_runs:+ or ${max_runs} executions}) without a finding"
