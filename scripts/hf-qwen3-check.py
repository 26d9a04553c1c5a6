#!/usr/bin/env python3
"""Checks that ayar-engine's backends compute Qwen3 as Hugging Face transformers does.

For each model shape (qwen3-tiny, and qwen3-8b's layer shapes with 2 layers), it builds a randomly
initialised transformers Qwen3ForCausalLM, saves it as bf16 safetensors, runs the same token sequence
through transformers (float32 math on the bf16 weights) and through the dump_logits tool (the CUDA and
CPU backends: a prefill of the first half, then one decode step per token), and compares the logits at
every position: relative error (norm of the difference over the norm of the reference) <= 2e-2.

    scripts/hf-qwen3-check.py --dump-logits build/dev/bin/dump_logits [--devices cuda,cpu]

Needs torch and transformers (present on the GPU machine). Exits 1 when a bound is missed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from transformers import Qwen3Config, Qwen3ForCausalLM

SHAPES = {
    "qwen3-tiny": dict(hidden_size=256, intermediate_size=768, num_hidden_layers=4, num_attention_heads=4,
                       num_key_value_heads=2, tie_word_embeddings=True),
    "qwen3-8b-shaped-2-layers": dict(hidden_size=4096, intermediate_size=12288, num_hidden_layers=2,
                                     num_attention_heads=32, num_key_value_heads=8, tie_word_embeddings=False),
}
BOUND = 2e-2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump-logits", required=True, help="the dump_logits tool")
    parser.add_argument("--devices", default="cuda,cpu")
    parser.add_argument("--tokens", type=int, default=48, help="sequence length")
    args = parser.parse_args()

    torch.manual_seed(0)
    failed = False
    results = []
    for name, shape in SHAPES.items():
        config = Qwen3Config(vocab_size=151936, head_dim=128, rope_theta=1e6, rms_norm_eps=1e-6,
                             max_position_embeddings=40960, **shape)
        model = Qwen3ForCausalLM(config)
        # transformers' default init (std 0.02) gives near-uniform logits; a larger scale makes them peaked
        # enough that a wrong rotation or norm shows.
        with torch.no_grad():
            for parameter in model.parameters():
                if parameter.dim() == 2:
                    parameter.normal_(0.0, 1.0 / parameter.shape[1] ** 0.5)
                else:
                    parameter.uniform_(0.9, 1.1)
        model = model.to(torch.bfloat16)
        tokens = torch.randint(0, config.vocab_size, (args.tokens,)).tolist()
        prefill = args.tokens // 2
        with tempfile.TemporaryDirectory() as folder:
            model.save_pretrained(folder, safe_serialization=True)
            with open(os.path.join(folder, "config.json")) as f:
                saved = json.load(f)
            saved.update(model_type="qwen3", rope_theta=1e6, head_dim=128)
            with open(os.path.join(folder, "config.json"), "w") as f:
                json.dump(saved, f)
            reference_model = model.float().cuda().eval()
            with torch.no_grad():
                reference = reference_model(torch.tensor([tokens]).cuda()).logits[0].double().cpu().numpy()
            for device in args.devices.split(","):
                out = os.path.join(folder, f"logits-{device}.bin")
                subprocess.run([args.dump_logits, "--model", folder, "--device", device, "--tokens",
                                ",".join(map(str, tokens)), "--prefill", str(prefill), "--out", out], check=True)
                logits = np.fromfile(out, dtype=np.float32).reshape(-1, config.vocab_size).astype(np.float64)
                positions = range(prefill - 1, args.tokens)
                errors = [np.linalg.norm(logits[i] - reference[p]) / np.linalg.norm(reference[p])
                          for i, p in enumerate(positions)]
                worst = max(errors)
                argmax_agree = sum(int(np.argmax(logits[i]) == np.argmax(reference[p]))
                                   for i, p in enumerate(positions))
                ok = worst <= BOUND
                failed |= not ok
                results.append(dict(model=name, device=device, positions=len(errors), worst_relative_error=float(worst),
                                    argmax_agreement=argmax_agree, passed=bool(ok)))
                print(f"{name:28s} {device:5s} positions {len(errors):3d}  worst relative error {worst:.2e}  "
                      f"argmax agrees {argmax_agree}/{len(errors)}  {'ok' if ok else 'MISSED ' + str(BOUND)}")
        del model, reference_model
        torch.cuda.empty_cache()
    print("JSON " + json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
