#!/usr/bin/env python3
"""Fits the simulator's calibrated step-time model to scripts/step-sweep.sh output of a real backend, and
to the step logs of rate runs on it.

    scripts/fit-sim-profile.py SWEEP_8B.txt SWEEP_14B.txt [STEPS_8B.csv ...]

The model (the same arithmetic as rooflineStepCost in engine/backend/sim/sim_backend.cpp):

    step = layers * (fused_us if the step decodes 1-2 sequences, graph_us if 3-16, wide_us if more;
                     eager_us if it prefills only, mixed_us if it prefills beside decodes)
         + max(weight bytes / weight_bw, linear FLOPs / linear_rate)
         + KV bytes read by decode tokens / attention_bw
         + prefill attention FLOPs / prefill_attention_rate

A prefill point is the mean TTFT of six prompts of L tokens. Five are one step of L tokens from
position 0 (a prompt longer than the step's token budget, 8,192, is one step per chunk of that many,
each chunk's attention over the context before it); the first is also the prompt of ayar-cli's ready check, so it finds all but its last
block in the prefix cache and costs one step of the rest. Each TTFT also holds the HTTP path, which
the simulator's own measurement has too, so HTTP_MS (from the simulator's sweep) is taken off first.
A decode point is C sequences of one token each at contexts of 512-640 tokens (576 on average).
A mixed point (a prefill of L tokens beside C decodes, from the sweep's mixed part) is not fitted but
predicted, to check the model on steps the fit did not see.
The first prefill point (64 tokens) is left out: it is the first request after the engine started and
carries one-time set-up.
A step log (ayar-engine --step-log, qwen3-8b) adds every step of a real serving run: its decodes, its
prefill chunk and the contexts, against the time from the end of the step before (when the loop came
straight back; the host's work between steps is part of what the simulator's cost stands for) or its
own duration (after an idle loop). Steps with more than one prefill chunk are left out (the log does not
say how the new tokens split), and so are the log's first two steps (the engine's ready check); of the
rest every step with a prefill is kept and an even sample of the decode-only steps, at most STEP_SAMPLE
a log. The sweep points and the logged steps weigh the same in the fit (each group's mean squared error).
Prints the constants and each point's fit, and each log's mean step, measured and modelled.
"""
import csv
import functools
import math
import sys

HTTP_MS = 0.8
BLOCK = 16  # KV block size of the sweep's engine (the default)
CHUNK = 8192  # the sweep engine's --max-num-batched-tokens (the default): a longer prompt prefills in chunks
STEP_SAMPLE = 400  # decode-only steps kept from each step log
MODELS = {  # layers, hidden, intermediate, heads, kv heads, head dim, vocabulary
    "qwen3-8b": (36, 4096, 12288, 32, 8, 128, 151936),
    "qwen3-14b": (40, 5120, 17408, 40, 8, 128, 151936),
}


@functools.lru_cache(maxsize=None)
def counts(model):
    layers, hidden, inter, heads, kv, hd, vocab = MODELS[model]
    per_layer = hidden * (heads + 2 * kv) * hd + heads * hd * hidden + hidden * 2 * inter + inter * hidden
    linear_macs = layers * per_layer + vocab * hidden  # with the lm_head, as ModelConfig counts
    lm_head_macs = vocab * hidden
    kv_bytes = 2 * layers * kv * hd * 2  # K and V, bf16
    pair_flops = 4.0 * heads * hd * layers
    return layers, linear_macs, lm_head_macs, kv_bytes, pair_flops


def batch_ms(p, model, prefill=0, position=0, decodes=0, context=577.0):
    """One step: a prefill chunk of `prefill` tokens from `position` (its last token sampled) beside
    `decodes` sequences of one token at `context` tokens. Only a decode-only step is a CUDA graph; one of
    1-2 sequences takes the backend's fused GEMV path, more take cuBLAS and the unfused kernels, which
    cost more from 17 sequences on (rows padded to 32 and more: the step logs show the jump)."""
    fused_us, graph_us, wide_us, eager_us, mixed_us, weight_bw, linear_rate, attention_bw, prefill_rate = p
    layers, linear_macs, lm_head_macs, kv_bytes, pair_flops = counts(model)
    tokens, samples = prefill + decodes, (1 if prefill else 0) + decodes
    pairs = prefill * position + prefill * (prefill + 1) / 2.0
    per_layer = (mixed_us if prefill and decodes else eager_us if prefill else fused_us if decodes <= 2 else
                 graph_us if decodes <= 16 else wide_us)
    seconds = layers * per_layer * 1e-6
    linear_flops = 2.0 * (linear_macs - lm_head_macs) * tokens + 2.0 * lm_head_macs * samples
    weight_bytes = 2.0 * linear_macs + tokens * kv_bytes
    seconds += max(weight_bytes / weight_bw, linear_flops / linear_rate)
    seconds += decodes * context * kv_bytes / attention_bw + pair_flops * pairs / prefill_rate
    return seconds * 1e3


def step_ms(p, model, kind, n, position=0):
    """A prefill of n tokens from `position` (one step per CHUNK tokens, each over the context before it),
    or a decode step of n sequences."""
    if kind == "prefill":
        return sum(batch_ms(p, model, prefill=min(CHUNK, n - done), position=position + done)
                   for done in range(0, n, CHUNK))
    return batch_ms(p, model, decodes=n)


def mixed_ms(p, model, length, batch):
    """A prefill of `length` tokens arriving while `batch` sequences decode (step-sweep.sh's mixed part,
    contexts ~1,000 tokens by then): on average half a decode step's wait, then one step carrying the
    prefill beside the decodes."""
    wait = 0.5 * batch_ms(p, model, decodes=batch, context=1000.0)
    return wait + batch_ms(p, model, prefill=length, decodes=batch, context=1000.0)


def read(path, model):
    points, mixed = [], []
    for line in open(path):
        fields = line.split()
        if fields[0] == "mixed":
            mixed.append((model, int(fields[1]), int(fields[2]), float(fields[3]) - HTTP_MS))
            continue
        kind, n, ms = fields
        if kind == "prefill" and int(n) == 64:
            continue
        measured = float(ms) - (HTTP_MS if kind == "prefill" else 0.0)
        points.append((model, kind, int(n), measured))
    return points, mixed


def read_steps(path, model="qwen3-8b"):
    steps = []
    previous_end = None
    for i, row in enumerate(csv.DictReader(open(path))):
        start, duration = float(row["start_ms"]), float(row["duration_ms"])
        end = start + duration
        back_to_back = previous_end is not None and start - previous_end < 1.0
        measured = end - previous_end if back_to_back else duration
        previous_end = end
        decodes, prefills = int(row["decodes"]), int(row["prefill_sequences"])
        if i < 2 or prefills > 1:
            continue
        prefill = int(row["new_tokens"]) - decodes
        context = (int(row["context_tokens"]) - prefill) / decodes if decodes else 0.0
        steps.append((model, prefill, decodes, context, measured))
    decode_only = [st for st in steps if st[1] == 0]
    stride = max(1, len(decode_only) // STEP_SAMPLE)
    return [st for st in steps if st[1] > 0] + decode_only[::stride]


def step_log_ms(p, model, prefill, decodes, context):
    return batch_ms(p, model, prefill=prefill, decodes=decodes, context=context)


def point_ms(p, model, kind, n):
    if kind != "prefill":
        return step_ms(p, model, kind, n)
    cached = (n - 1) // BLOCK * BLOCK  # the ready check's prompt: every full block but the last is cached
    return (5 * step_ms(p, model, kind, n) + step_ms(p, model, kind, n - cached, cached)) / 6


def loss(p, points, steps=(), mixed=()):
    if min(p) <= 0:
        return math.inf
    total = sum((point_ms(p, *pt[:3]) / pt[3] - 1.0) ** 2 for pt in points)
    total += sum((mixed_ms(p, *mx[:3]) / mx[3] - 1.0) ** 2 for mx in mixed)
    if steps:
        logged = sum((step_log_ms(p, *st[:4]) / st[4] - 1.0) ** 2 for st in steps)
        total += logged * len(points) / len(steps)
    return total


def nelder_mead(f, x0, iterations=4000):
    n = len(x0)
    simplex = [list(x0)] + [[x * (1.25 if i == j else 1.0) for j, x in enumerate(x0)] for i in range(n)]
    for _ in range(iterations):
        simplex.sort(key=f)
        best, worst = simplex[0], simplex[-1]
        centre = [sum(v[i] for v in simplex[:-1]) / n for i in range(n)]
        reflect = [c + (c - w) for c, w in zip(centre, worst)]
        if f(reflect) < f(best):
            expand = [c + 2 * (c - w) for c, w in zip(centre, worst)]
            simplex[-1] = expand if f(expand) < f(reflect) else reflect
        elif f(reflect) < f(simplex[-2]):
            simplex[-1] = reflect
        else:
            contract = [c + 0.5 * (w - c) for c, w in zip(centre, worst)]
            if f(contract) < f(worst):
                simplex[-1] = contract
            else:
                simplex = [best] + [[b + 0.5 * (v - b) for b, v in zip(best, x)] for x in simplex[1:]]
    return min(simplex, key=f)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: fit-sim-profile.py SWEEP_8B.txt SWEEP_14B.txt [STEPS_8B.csv ...]")
    points8, mixed8 = read(sys.argv[1], "qwen3-8b")
    points14, mixed14 = read(sys.argv[2], "qwen3-14b")
    points, mixed = points8 + points14, mixed8 + mixed14
    logs = [(path, read_steps(path)) for path in sys.argv[3:]]
    steps = [st for _, log in logs for st in log]
    # Start: 10, 40, 40, 60 and 90 us a layer, 3.8 TB/s weights, 700 TFLOP/s linear, 1.5 TB/s
    # attention, 60 TFLOP/s prefill attention.
    x0 = [10.0, 40.0, 40.0, 60.0, 90.0, 3.8e12, 7.0e14, 1.5e12, 6.0e13]
    p = nelder_mead(lambda q: loss(q, points, steps, mixed), x0)
    p = nelder_mead(lambda q: loss(q, points, steps, mixed), p)
    names = ["fused_us_per_layer", "graph_us_per_layer", "wide_graph_us_per_layer", "eager_us_per_layer", "mixed_us_per_layer", "weight_bytes_per_s", "linear_flops_per_s",
             "decode_attention_bytes_per_s", "prefill_attention_flops_per_s"]
    for name, value in zip(names, p):
        print(f"{name} {value:.4g}")
    print(f"rms relative error {math.sqrt(loss(p, points) / len(points)):.3f} over the sweep points")
    if steps:
        rms = math.sqrt(sum((step_log_ms(p, *st[:4]) / st[4] - 1.0) ** 2 for st in steps) / len(steps))
        print(f"rms relative error {rms:.3f} over {len(steps)} logged steps")
    for model, kind, n, measured in points:
        fitted = point_ms(p, model, kind, n)
        print(f"{model} {kind} {n}: measured {measured:.2f} ms, model {fitted:.2f} ms "
              f"({100 * (fitted / measured - 1):+.1f}%)")
    if mixed:
        rms = math.sqrt(sum((mixed_ms(p, *mx[:3]) / mx[3] - 1.0) ** 2 for mx in mixed) / len(mixed))
        print(f"rms relative error {rms:.3f} over the {len(mixed)} mixed points")
    for model, length, batch, measured in mixed:
        fitted = mixed_ms(p, model, length, batch)
        print(f"{model} mixed {length} + {batch} decoding: measured {measured:.2f} ms, model {fitted:.2f} ms "
              f"({100 * (fitted / measured - 1):+.1f}%)")
    for path, log in logs:
        for label, chosen in (("decode-only", [st for st in log if st[1] == 0]),
                              ("with a prefill", [st for st in log if st[1] > 0])):
            if not chosen:
                continue
            measured = sum(st[4] for st in chosen) / len(chosen)
            fitted = sum(step_log_ms(p, *st[:4]) for st in chosen) / len(chosen)
            print(f"{path}: {len(chosen)} steps {label}: mean measured {measured:.2f} ms, model {fitted:.2f} ms "
                  f"({100 * (fitted / measured - 1):+.1f}%)")


if __name__ == "__main__":
    main()
