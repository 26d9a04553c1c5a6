#!/usr/bin/python3
"""Writes golden_metrics.json: what vLLM's calculate_metrics gives for fixed per-request records.

Ayar's tests run the same records through Ayar's summary and compare key for key. Run this again
only to change the cases:
    tests/vllm/make_golden_metrics.py
It needs Debian's python3-numpy.

vLLM's calculate_metrics (vllm/benchmarks/serve.py) is written out below as this script's own code,
step for step: per successful request the output length (usage, else the tokenizer), TPOT over
output length - 1, ITLs, TTFT and E2E latency; goodput against every SLO; throughputs over the
given duration; the peak output tokens in one-second bins from the first start; the exact peak of
concurrent requests; mean, median, population std and linear percentiles with numpy, in ms.

Records are given as Ayar keeps them (start, arrival of each chunk with choices relative to the
start); vLLM's client fields follow from them as its client computes them: ttft is the first
arrival, itl the gaps between arrivals, latency the last arrival.
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ("ttft", "tpot", "itl", "e2el")


def vllm_output(record):
    chunks = record["chunk_times_s"]
    success = record["success"]
    return {
        "success": success,
        "start_time": record["start_s"],
        "ttft": chunks[0] if chunks else 0.0,
        "itl": [chunks[k] - chunks[k - 1] for k in range(1, len(chunks))],
        "latency": chunks[-1] if (chunks and success) else 0.0,
        "output_tokens": record["output_tokens"],
        "prompt_len": record["prompt_tokens"],
    }


def calculate_metrics(outputs, dur_s, percentiles, goodput):
    output_lens, total_input, completed, good = [], 0, 0, 0
    itls, tpots, all_tpots, ttfts, e2els = [], [], [], [], []
    for out in outputs:
        if not out["success"]:
            output_lens.append(0)
            continue
        output_len = out["output_tokens"]  # resolved by the client (usage, else the tokenizer)
        output_lens.append(output_len)
        total_input += out["prompt_len"]
        tpot = 0
        if output_len > 1:
            tpot = (out["latency"] - out["ttft"]) / (output_len - 1)
            tpots.append(tpot)
        all_tpots.append(tpot)
        itls += out["itl"]
        ttfts.append(out["ttft"])
        e2els.append(out["latency"])
        completed += 1
    if goodput:
        columns, slos = [], []
        for name, values in (("ttft", ttfts), ("tpot", all_tpots), ("e2el", e2els)):
            if name in goodput:
                columns.append(values)
                slos.append(goodput[name] / 1000)
        for request in zip(*columns):
            if all(s >= r for s, r in zip(slos, request)):
                good += 1

    max_tokens_per_s, max_concurrent = 0.0, 0
    successful = [o for o in outputs if o["success"]]
    if successful:
        min_start = min(o["start_time"] for o in successful)
        max_end = max(o["start_time"] + o["latency"] for o in successful)
        seconds = int(np.ceil(max_end - min_start)) + 1
        tokens = np.zeros(seconds)
        for o in successful:
            times = [o["start_time"] + o["ttft"]]
            t = times[0]
            for gap in o["itl"]:
                t += gap
                times.append(t)
            for t in times:
                bucket = int(t - min_start)
                if 0 <= bucket < seconds:
                    tokens[bucket] += 1
        events = []
        for o in successful:
            events.append((o["start_time"], 1))
            events.append((o["start_time"] + o["latency"], -1))
        events.sort(key=lambda e: (e[0], e[1]))
        current = 0
        for _, delta in events:
            current += delta
            max_concurrent = max(max_concurrent, current)
        max_tokens_per_s = float(np.max(tokens))

    total_output = sum(output_lens)
    result = {
        "duration": dur_s,
        "completed": completed,
        "failed": len(outputs) - len(successful),
        "total_input_tokens": total_input,
        "total_output_tokens": total_output,
        "request_throughput": completed / dur_s,
        "request_goodput": good / dur_s if goodput else None,
        "output_throughput": total_output / dur_s,
        "total_token_throughput": (total_input + total_output) / dur_s,
        "output_lens": output_lens,
        "max_output_tokens_per_s": max_tokens_per_s,
        "max_concurrent_requests": max_concurrent,
    }
    for name, values in zip(METRICS, (ttfts, tpots, itls, e2els)):
        result[f"mean_{name}_ms"] = float(np.mean(values or 0) * 1000)
        result[f"median_{name}_ms"] = float(np.median(values or 0) * 1000)
        result[f"std_{name}_ms"] = float(np.std(values or 0) * 1000)
        for p in percentiles:
            word = str(int(p)) if int(p) == p else str(p)
            result[f"p{word}_{name}_ms"] = float(np.percentile(values or 0, p) * 1000)
    return result


def record(start, chunks, output_tokens, prompt_tokens=10, success=True, error=""):
    return {"start_s": start, "chunk_times_s": chunks, "output_tokens": output_tokens,
            "prompt_tokens": prompt_tokens, "success": success, "error": error}


def hand_made():
    # Times are multiples of 1/1024 s, so that every sum and difference is exact in binary.
    u = 1.0 / 1024
    records = [
        record(0.0, [40 * u, 60 * u, 80 * u, 100 * u], 4),              # one token per chunk
        record(10 * u, [30 * u], 1),                                    # output length 1: no TPOT
        record(20 * u, [50 * u, 150 * u, 400 * u], 9, prompt_tokens=33),  # three tokens per chunk
        record(30 * u, [], 0, success=False, error="HTTP 500: Internal server error"),
        record(40 * u, [45 * u, 90 * u], 0, success=False, error="the connection broke mid-stream after 2 chunks"),
        record(700 * u, [200 * u, 300 * u, 2000 * u], 3),               # runs into the next one-second bin
        record(1100 * u, [90 * u, 91 * u, 92 * u, 93 * u, 94 * u], 5, prompt_tokens=7),
        record(1300 * u, [], 0, success=False, error="timed out after 2 s (the per-request timeout)"),
    ]
    # The last request times out: vLLM's duration runs until it returned, 2 s after its start.
    return {"name": "hand-made: failures, one-token and multi-token outputs, goodput, a timeout last",
            "records": records, "duration_s": 1300 * u + 2.0 + 3 * u, "percentiles": [25, 50, 90, 99.9],
            "goodput": {"ttft": 60.0, "tpot": 30.0, "e2el": 400.0}}


def sim_run():
    with open(os.path.join(HERE, "sim_run_result.json"), encoding="utf-8") as f:
        run = json.load(f)
    records = []
    for i in range(len(run["ttfts"])):
        chunks = [run["ttfts"][i]]
        for gap in run["itls"][i]:
            chunks.append(chunks[-1] + gap)
        records.append(record(run["start_times"][i], chunks, run["output_lens"][i], run["input_lens"][i],
                              success=run["errors"][i] == "", error=run["errors"][i]))
    return {"name": "a run of ayar-cli bench against the bundled engine's timing simulator",
            "records": records, "duration_s": run["duration"], "percentiles": [50, 90, 95, 99],
            "goodput": {"ttft": 10.0, "tpot": 2.5}}


def main():
    cases = []
    for case in (hand_made(), sim_run()):
        outputs = [vllm_output(r) for r in case["records"]]
        case["vllm"] = calculate_metrics(outputs, case["duration_s"], case["percentiles"], case["goodput"])
        # The per-request lists vLLM's benchmark() writes beside them.
        for key, field in (("input_lens", "prompt_len"), ("ttfts", "ttft"), ("itls", "itl"), ("latencies", "latency")):
            case["vllm"][key] = [o[field] for o in outputs]
        cases.append(case)
    with open(os.path.join(HERE, "golden_metrics.json"), "w", encoding="utf-8") as f:
        json.dump({"numpy_version": np.__version__, "cases": cases}, f, indent=1, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
