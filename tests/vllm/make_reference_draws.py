#!/usr/bin/python3
"""Writes reference_draws.json: what numpy and vLLM's benchmark client draw for given seeds.

Ayar's tests read the committed output; run this again only to change the cases:
    tests/vllm/make_reference_draws.py [TOKENIZER_DIR]
It needs Debian's python3-numpy and python3-regex, and the Qwen3 tokenizer that scripts/setup.sh
fetches (default ~/.cache/ayar/tokenizers/qwen3).

numpy itself draws every random number here. What vLLM's `vllm bench serve` does with them is
written out below as this script's own code, step for step as vLLM does it: the arrival delays
(np.random.seed, then one np.random.gamma per request, cumulative sums, the rescale to N / rate, and
the ramp-up rates) and the random dataset (np.random.default_rng draws for lengths and offsets,
token runs over the vocabulary, and the decode / re-encode / pad-or-truncate rule). The byte-level
BPE of the Qwen3 tokenizer.json (NFC, the Split regex, the byte mapping, merges by rank, added
tokens matched first) is written out too, so that the prompts are the ones a Hugging Face tokenizer
gives.
"""

import json
import math
import os
import sys
import unicodedata

import numpy as np
import regex

HERE = os.path.dirname(os.path.abspath(__file__))
INF = float("inf")


# ---------------------------------------------------------------- Qwen3's byte-level BPE tokenizer
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    chars = printable[:]
    n = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + n)
            n += 1
    return dict(zip(printable, [chr(c) for c in chars]))


class ByteLevelBpe:
    def __init__(self, folder):
        with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
            spec = json.load(f)
        model = spec["model"]
        assert model["type"] == "BPE" and not model.get("ignore_merges")
        assert spec["normalizer"] == {"type": "NFC"}
        self.vocab = model["vocab"]
        self.id_to_token = {i: t for t, i in self.vocab.items()}
        merges = model["merges"]
        self.ranks = {}
        for rank, merge in enumerate(merges):
            pair = tuple(merge.split(" ")) if isinstance(merge, str) else tuple(merge)
            self.ranks[pair] = rank
        split = spec["pre_tokenizer"]["pretokenizers"][0]
        assert split["type"] == "Split" and split["behavior"] == "Isolated"
        self.split = regex.compile(split["pattern"]["Regex"])
        self.added = {t["content"]: t["id"] for t in spec["added_tokens"]}
        self.special_ids = sorted(t["id"] for t in spec["added_tokens"] if t["special"])
        self.added_pattern = regex.compile("|".join(regex.escape(c) for c in sorted(self.added, key=len, reverse=True)))
        self.byte_to_char = bytes_to_unicode()
        self.char_to_byte = {c: b for b, c in self.byte_to_char.items()}
        self.cache = {}
        # transformers' tokenizer.vocab_size: the model's vocabulary without added tokens.
        self.vocab_size = len(self.vocab)

    def bpe(self, word):
        if word in self.cache:
            return self.cache[word]
        parts = list(word)
        while len(parts) > 1:
            best = None
            for i in range(len(parts) - 1):
                rank = self.ranks.get((parts[i], parts[i + 1]))
                if rank is not None and (best is None or rank < best[0]):
                    best = (rank, i)
            if best is None:
                break
            first, second = parts[best[1]], parts[best[1] + 1]
            merged, i = [], 0
            while i < len(parts):
                if i < len(parts) - 1 and parts[i] == first and parts[i + 1] == second:
                    merged.append(first + second)
                    i += 2
                else:
                    merged.append(parts[i])
                    i += 1
            parts = merged
        ids = [self.vocab[p] for p in parts]
        self.cache[word] = ids
        return ids

    def encode(self, text):
        ids, start = [], 0
        for match in self.added_pattern.finditer(text):
            ids += self.encode_ordinary(text[start : match.start()])
            ids.append(self.added[match.group(0)])
            start = match.end()
        return ids + self.encode_ordinary(text[start:])

    def encode_ordinary(self, text):
        ids = []
        for piece in self.split.findall(unicodedata.normalize("NFC", text)):
            ids += self.bpe("".join(self.byte_to_char[b] for b in piece.encode("utf-8")))
        return ids

    def decode(self, ids):
        data = bytearray()
        for i in ids:
            token = self.id_to_token[i]
            data += bytes(self.char_to_byte[c] for c in token)
        return data.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- vLLM's benchmark client, restated
def arrival_delays(count, rate, burstiness, seed, strategy=None, start=None, end=None):
    np.random.seed(seed)
    rates, delays = [], []
    for index in range(count):
        current = rate
        if strategy and start is not None and end is not None:
            progress = index / max(count - 1, 1)
            if strategy == "linear":
                current = start + (end - start) * progress
            else:
                current = start * ((end / start) ** progress)
        rates.append(current)
        if current == INF:
            delays.append(0)
        elif burstiness == INF:
            delays.append(1.0 / current)
        else:
            delays.append(np.random.gamma(shape=burstiness, scale=1.0 / (current * burstiness)))
    for i in range(1, len(delays)):
        delays[i] += delays[i - 1]
    if strategy is None and delays[-1] != 0:
        factor = (count / rate) / delays[-1]
        delays = [d * factor for d in delays]
    return ["inf" if r == INF else float(r) for r in rates], [float(d) for d in delays]


def decode_to_target_length(tok, tokens, target, rng, max_retry=10):
    remaining, mismatch, padded = max_retry, 0, 0
    while True:
        prompt = tok.decode(tokens)
        tokens = tok.encode(prompt)
        if remaining <= 0:
            if len(tokens) != target:
                mismatch = len(tokens) - target
            break
        if len(tokens) == target:
            break
        if len(tokens) < target:
            padded += target - len(tokens)
            tokens.extend(rng.integers(0, tok.vocab_size, size=target - len(tokens)).tolist())
        else:
            tokens = tokens[:target]
        remaining -= 1
    return prompt, tokens, mismatch, padded


def random_dataset(tok, seed, count, input_len, output_len, range_ratio, prefix_len):
    rng = np.random.default_rng(seed)
    real_input_len = max(0, input_len)  # Qwen3 adds no special tokens
    input_low = math.floor(real_input_len * (1 - range_ratio))
    input_high = math.ceil(real_input_len * (1 + range_ratio))
    output_low = max(math.floor(output_len * (1 - range_ratio)), 1)
    output_high = max(math.ceil(output_len * (1 + range_ratio)), 1)
    input_lens = rng.integers(input_low, input_high + 1, size=count)
    output_lens = rng.integers(output_low, output_high + 1, size=count)
    offsets = rng.integers(0, tok.vocab_size, size=count)
    allowed = np.array(list(set(np.arange(tok.vocab_size)) - set(tok.special_ids)))
    prefix = allowed[rng.integers(0, len(allowed), size=prefix_len)].tolist() if prefix_len > 0 else []
    prompts = []
    for i in range(count):
        inner = allowed[(int(offsets[i]) + i + np.arange(int(input_lens[i]))) % len(allowed)].tolist()
        prompt, tokens, mismatch, padded = decode_to_target_length(tok, prefix + inner, prefix_len + int(input_lens[i]), rng)
        prompts.append({"prompt": prompt, "prompt_len": len(tokens), "expected_output_len": int(output_lens[i]),
                        "mismatch": mismatch, "padding_drawn": padded})
    return {"input_lens": input_lens.tolist(), "output_lens": output_lens.tolist(), "offsets": offsets.tolist(),
            "prefix": prefix, "prompts": prompts}


# ---------------------------------------------------------------- the cases
def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/ayar/tokenizers/qwen3")
    tok = ByteLevelBpe(folder)
    out = {"numpy_version": np.__version__}

    out["seed_sequence"] = [{"entropy": e, "words": np.random.SeedSequence(e).generate_state(8).tolist()}
                            for e in (0, 1, 42, 2**32 - 1, 2**32, 2**63 + 5)]
    out["pcg64"] = [{"seed": s, "next64": [int(v) for v in np.random.PCG64(s).random_raw(6)]} for s in (0, 42, 2**40)]

    calls = [[0, 10, 3], [0, 2**40, 2], [5, 6, 2], [0, 2**32, 3], [-7, 100, 5], [0, 151643, 4], [0, 2**32 + 1, 1],
             [3, 9, 1], [-(2**63), 2**63 - 1, 2], [0, 2**63 - 1, 3], [10, 11, 1], [0, 7, 9]]
    integer_cases = []
    for seed in (0, 42):
        rng = np.random.default_rng(seed)
        integer_cases.append({"seed": seed, "calls": calls,
                              "values": [rng.integers(lo, hi, size=n).tolist() for lo, hi, n in calls]})
    out["integers"] = integer_cases

    legacy = []
    for seed, shape, scale, n in ((0, 1.0, 0.125, 12), (42, 0.5, 0.5, 12), (42, 2.5, 0.04, 12), (7, 0.25, 1.0, 12),
                                  (2**32 - 1, 4.0, 0.01, 12), (3, 1.0, 1.0, 700)):
        np.random.seed(seed)
        legacy.append({"seed": seed, "shape": shape, "scale": scale,
                       "values": [float(np.random.gamma(shape=shape, scale=scale)) for _ in range(n)]})
    np.random.seed(5)
    out["legacy_uniform"] = {"seed": 5, "values": [float(v) for v in np.random.random_sample(8)]}
    out["legacy_gamma"] = legacy

    arrivals = []
    for count, rate, burstiness, seed, strategy, start, end in (
            (100, 8.0, 1.0, 0, None, None, None), (50, 4.0, 0.5, 42, None, None, None),
            (50, 4.0, 2.5, 42, None, None, None), (20, 10.0, INF, 1, None, None, None),
            (30, INF, 1.0, 0, None, None, None), (40, INF, 1.0, 7, "linear", 1, 20),
            (40, INF, 0.7, 3, "exponential", 2, 50), (1, 3.0, 1.0, 0, None, None, None)):
        rates, delays = arrival_delays(count, rate, burstiness, seed, strategy, start, end)
        arrivals.append({"count": count, "request_rate": "inf" if rate == INF else rate,
                         "burstiness": "inf" if burstiness == INF else burstiness, "seed": seed,
                         "ramp_up_strategy": strategy, "ramp_up_start_rps": start, "ramp_up_end_rps": end,
                         "rates": rates, "delays": delays})
    out["arrivals"] = arrivals

    datasets = []
    for seed, count, input_len, output_len, range_ratio, prefix_len in (
            (42, 3, 4000, 200, 0.0, 0), (0, 6, 64, 16, 0.5, 0), (7, 5, 200, 32, 0.25, 12), (1234, 8, 9, 3, 0.0, 0)):
        case = random_dataset(tok, seed, count, input_len, output_len, range_ratio, prefix_len)
        case.update({"seed": seed, "num_prompts": count, "input_len": input_len, "output_len": output_len,
                     "range_ratio": range_ratio, "prefix_len": prefix_len, "vocab_size": tok.vocab_size})
        datasets.append(case)
    out["random_dataset"] = datasets

    with open(os.path.join(HERE, "reference_draws.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
