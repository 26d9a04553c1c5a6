#!/usr/bin/env bash
# The step-time sweep that calibrates the simulator against a real backend (and checks it after).
#
#   scripts/step-sweep.sh [--bin DIR] [--tokenizer DIR] [--model NAME] [--parts LIST] -- ENGINE_ARGS...
#   e.g. scripts/step-sweep.sh -- --device cuda
#        scripts/step-sweep.sh -- --device sim --sim-profile h200
#
# Starts one ayar-engine with ENGINE_ARGS, then measures through ayar-cli bench on loopback:
#   prefill  one request at a time, random prompts of L tokens, 1 output token: mean TTFT = the time of
#            a prefill step of L tokens plus the HTTP path (L = 64 ... 4096);
#   decode   C requests at once (C = 1 ... 256), 512-token prompts, 128 output tokens: median ITL = the
#            decode step time at batch C and contexts of 512-640 tokens (the few steps that also carry
#            prefill chunks fall above the median);
#   mixed    C requests decoding in the background (512-token prompts, long outputs) while one request
#            at a time sends a prompt of L tokens with 1 output token: mean TTFT = a step that carries a
#            prefill of L tokens beside C decodes, plus the HTTP path, plus the wait for the step that
#            was running when it arrived (half a decode step on average).
#   long     as prefill, for prompts longer than one step's token budget (L = 8192 ... 32768): chunked
#            prefill, steps of 8,192 tokens over a growing context, where the prefill attention dominates.
# --parts picks them (comma-separated, default "prefill,decode"; "all" = prefill,decode,mixed,long).
# Each point draws its prompts with its own seed: the random set's prompt i of one length begins with
# prompt i of a shorter length under the same seed, so a shared seed would time prefix-cache hits.
# Prints one line per point: "prefill L ttft_ms", "decode C itl_ms" and "mixed L C ttft_ms".
set -uo pipefail
cd "$(dirname "$0")/.."
bin=build/dev/bin
tokenizer="${AYAR_TOKENIZER_DIR:-$HOME/.cache/ayar/tokenizers/qwen3}"
model=qwen3-8b
parts=prefill,decode
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --tokenizer) tokenizer="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --parts) parts="$2"; shift 2 ;;
    *) echo "step-sweep: unknown option $1 (use --bin, --tokenizer, --model, --parts, then -- ENGINE_ARGS)" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift
[ "$parts" = all ] && parts=prefill,decode,mixed,long
wants() { [[ ",$parts," == *",$1,"* ]]; }
export AYAR_RESOURCES_DIR="${AYAR_RESOURCES_DIR:-$PWD/resources}"
port=$((20000 + RANDOM % 20000))
log=$(mktemp)
"$bin/ayar-engine" serve "$model" --host 127.0.0.1 --port "$port" --tokenizer "$tokenizer" \
  --max-num-seqs 256 "$@" >"$log" 2>&1 &
engine=$!
trap 'kill "$engine" 2>/dev/null; wait "$engine" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 "$engine" 2>/dev/null || { cat "$log" >&2; echo "step-sweep: the engine did not start" >&2; exit 1; }
  sleep 0.2
done

figure() {  # NAME: the "NAME (ms):" value of the bench output on stdin, e.g. "Mean TTFT"
  sed -n "s/^$1 (ms): *\([0-9.]*\).*/\1/p"
}
bench() {
  "$bin/ayar-cli" bench --base-url "http://127.0.0.1:$port" --model "$model" --tokenizer "$tokenizer" \
    --no-store --disable-tqdm --dataset-name random "$@" 2>/dev/null
}
if wants prefill; then
  for length in 64 128 256 512 1024 2048 4096; do
    echo "prefill $length $(bench --seed "$length" --random-input-len "$length" --random-output-len 1 --num-prompts 6 \
      --max-concurrency 1 | figure "Mean TTFT")"
  done
fi
if wants long; then
  for length in 8192 16384 32768; do
    echo "prefill $length $(bench --seed "$length" --random-input-len "$length" --random-output-len 1 --num-prompts 6 \
      --max-concurrency 1 | figure "Mean TTFT")"
  done
fi
if wants decode; then
  for batch in 1 8 32 128 256; do
    echo "decode $batch $(bench --seed "$((batch + 1))" --random-input-len 512 --random-output-len 128 --num-prompts "$batch" \
      --max-concurrency "$batch" | figure "Median ITL")"
  done
fi
if wants mixed; then
  for batch in 1 8 32; do
    # The background decodes outlast the probes: 2,048 output tokens at >= 5 ms a step is >= 10 s.
    bench --seed "$((batch + 7))" --random-input-len 512 --random-output-len 2048 --ignore-eos --num-prompts "$batch" \
      --max-concurrency "$batch" >/dev/null &
    background=$!
    sleep 3  # their prefills done, all of them decoding
    for length in 64 256 1024; do
      echo "mixed $length $batch $(bench --seed "$((length + batch + 100))" --random-input-len "$length" \
        --random-output-len 1 --num-prompts 6 --max-concurrency 1 | figure "Mean TTFT")"
    done
    kill "$background" 2>/dev/null
    wait "$background" 2>/dev/null
  done
fi
