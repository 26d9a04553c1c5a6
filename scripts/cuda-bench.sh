#!/usr/bin/env bash
# The CUDA backend on this machine's GPU: checks, then figures. Prints a table per part and JSON lines.
#
#   scripts/cuda-bench.sh [--bin DIR] [--out DIR] [--tokenizer DIR] PART...
#
# PARTS (run in the order given):
#   build    configure and build what the other parts run into build/cuda (AYAR_CUDA=ON, no workbench,
#            so a GPU host needs no Qt), and take the binaries from there unless --bin was given
#   tests    the CUDA test suite (kernels against references, the backend against the CPU backend)
#   hf       scripts/hf-qwen3-check.py: the backends against Hugging Face transformers' Qwen3
#   sanitize compute-sanitizer (memcheck, then racecheck and synccheck) on the attention kernels' tests
#   kernels  bench_cuda_backend: copy bandwidth, batch-1 decode vs the floor (8b, 14b), decode steps at
#            batch 8-256, prefill of a 2k and an 8k prompt, one row per kernel (both prefill attention
#            kernels at 2k, 8k and 32k); KERNELS_ARGS adds the benchmark's flags (e.g. --quick)
#   sdpa     scripts/sdpa-bench.py: PyTorch's causal attention (cuDNN, FlashAttention) on the prefill
#            attention rows' shapes, the peer to read them against
#   burst    ayar-cli bench: qwen3-14b, 1000 ShareGPT-like prompts sent at once (total tokens/s), the
#            engine's defaults (--max-num-seqs 1024 on an H100/H200-class GPU)
#   burst16k the burst with --max-num-batched-tokens 16384
#   burst256 the burst with --max-num-seqs 256 (the default on smaller GPUs)
#   random32k, random4k, random2k, random128: the throughput study's random-prompt scenarios on qwen3-14b
#            (profiles random-32k-100 with 100 prompts, random-4k-200 and random-2k-100 with 500,
#            random-128-4 with 1,000)
#   rates    ayar-cli bench: qwen3-8b at 1, 4, 8 and 16 requests/s (mean latency, TTFT, TPOT);
#            RATES (default "1 4 8 16") picks the rates, RATE_PROMPTS (default "60 200 400 800") bounds
#            each run's prompts
#   eager    the 1 request/s run and the burst again with --enforce-eager
#   noprefix the burst with --no-enable-prefix-caching
#   routes   qwen3-8b at 1 request/s on the completions route (the rate runs use the chat route)
# Every serving run also leaves the engine's step log (--step-log) as steps-LABEL.csv in the out folder.
# DIR defaults: --bin build/dev/bin (build/cuda/bin after the build part), --out ./cuda-bench-out,
# --tokenizer the Qwen3 tokenizer set-up fetched. Example, from a fresh checkout on a GPU host after
# scripts/setup.sh: scripts/cuda-bench.sh build tests kernels rates burst
set -uo pipefail
cd "$(dirname "$0")/.."
bin=build/dev/bin
binGiven=0
out=cuda-bench-out
tokenizer="${AYAR_TOKENIZER_DIR:-$HOME/.cache/ayar/tokenizers/qwen3}"
parts=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --bin) bin="$2"; binGiven=1; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --tokenizer) tokenizer="$2"; shift 2 ;;
    *) parts+=("$1"); shift ;;
  esac
done
mkdir -p "$out"
export AYAR_RESOURCES_DIR="${AYAR_RESOURCES_DIR:-$PWD/resources}"
status=0

serve_bench() {  # LABEL MODEL ENGINE_ARGS... -- BENCH_ARGS...
  local label="$1" model="$2"; shift 2
  local engine_args=() bench_args=()
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do engine_args+=("--engine-arg=$1"); shift; done  # --flag=value
  shift
  bench_args=("$@")
  echo "== ayar-cli bench: $label"
  "$bin/ayar-cli" bench --engine bundled --device cuda --model "$model" --tokenizer "$tokenizer" \
    "${engine_args[@]}" --engine-arg="--step-log=$out/steps-$label.csv" --engine-log "$out/engine-$label.log" \
    --no-store --disable-tqdm \
    --percentile-metrics ttft,tpot,itl,e2el --save-result --save-detailed --result-dir "$out" \
    --result-filename "$label.json" --label "$label" "${bench_args[@]}" 2>&1 | tee "$out/bench-$label.txt" |
    grep -E "Successful requests|Benchmark duration|Total token throughput|Output token throughput|Mean (TTFT|TPOT|E2EL)|Failed|error" ||
    status=1
}

for part in "${parts[@]}"; do
  case "$part" in
    build)
      cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAYAR_CUDA=ON -DAYAR_BUILD_GUI=OFF \
        >"$out/build.txt" 2>&1 &&
        cmake --build build/cuda --target ayar-engine ayar-cli test_engine_backend_cuda bench_cuda_backend \
          dump_logits >>"$out/build.txt" 2>&1
      if [ $? -ne 0 ]; then
        tail -20 "$out/build.txt" >&2
        echo "cuda-bench: the build failed (whole log: $out/build.txt)" >&2
        exit 1
      fi
      echo "== built build/cuda"
      [ "$binGiven" = 1 ] || bin=build/cuda/bin ;;
    tests)
      "$bin/test_engine_backend_cuda" --gtest_brief=0 2>&1 | tee "$out/tests.txt" |
        grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED) *\]|worst relative error|Failure|error" || true
      grep -q "FAILED" "$out/tests.txt" && status=1 ;;
    hf)
      python3 scripts/hf-qwen3-check.py --dump-logits "$bin/dump_logits" 2>&1 | tee "$out/hf.txt" || status=1 ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        echo "== compute-sanitizer --tool $tool"
        compute-sanitizer --tool "$tool" --error-exitcode 1 "$bin/test_engine_backend_cuda" \
          --gtest_filter='*Attention*' >"$out/sanitize-$tool.txt" 2>&1 || status=1
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[ *(PASSED|FAILED) *\]" "$out/sanitize-$tool.txt"
      done ;;
    kernels)
      read -r -a kernelsArgs <<<"${KERNELS_ARGS:-}"
      "$bin/bench_cuda_backend" "${kernelsArgs[@]}" --json "$out/kernels.json" 2>&1 | tee "$out/kernels.txt" ||
        status=1 ;;
    sdpa)
      python3 scripts/sdpa-bench.py --json "$out/sdpa.json" 2>&1 | tee "$out/sdpa.txt" || status=1 ;;
    burst)
      serve_bench burst-14b qwen3-14b -- --load-profile sharegpt-all-at-once --num-prompts 1000 ;;
    burst16k)
      serve_bench burst-14b-16k qwen3-14b --max-num-batched-tokens=16384 -- --load-profile sharegpt-all-at-once \
        --num-prompts 1000 ;;
    burst256)
      serve_bench burst-14b-256 qwen3-14b --max-num-seqs=256 -- --load-profile sharegpt-all-at-once \
        --num-prompts 1000 ;;
    random32k) serve_bench random-32k-14b qwen3-14b -- --load-profile random-32k-100 --num-prompts 100 ;;
    random4k) serve_bench random-4k-14b qwen3-14b -- --load-profile random-4k-200 --num-prompts 500 ;;
    random2k) serve_bench random-2k-14b qwen3-14b -- --load-profile random-2k-100 --num-prompts 500 ;;
    random128) serve_bench random-128-14b qwen3-14b -- --load-profile random-128-4 --num-prompts 1000 ;;
    rates)
      read -r -a counts <<<"${RATE_PROMPTS:-60 200 400 800}"
      i=0
      for rate in ${RATES:-1 4 8 16}; do
        serve_bench "rate-${rate}rps-8b" qwen3-8b -- --load-profile "sharegpt-${rate}rps" --num-prompts "${counts[$i]}"
        i=$((i + 1))
      done ;;
    eager)
      serve_bench rate-1rps-8b-eager qwen3-8b --enforce-eager -- --load-profile sharegpt-1rps \
        --num-prompts "$(first=${RATE_PROMPTS:-60}; echo "${first%% *}")"
      serve_bench burst-14b-eager qwen3-14b --enforce-eager -- --load-profile sharegpt-all-at-once --num-prompts 1000 ;;
    noprefix)
      serve_bench burst-14b-noprefix qwen3-14b --no-enable-prefix-caching -- --load-profile sharegpt-all-at-once \
        --num-prompts 1000 ;;
    routes)
      serve_bench rate-1rps-8b-completions qwen3-8b -- --load-profile sharegpt-1rps --backend openai \
        --endpoint /v1/completions \
        --num-prompts "$(first=${RATE_PROMPTS:-60}; echo "${first%% *}")" ;;
    *) echo "unknown part: $part" >&2; exit 2 ;;
  esac
done
exit $status
