#!/usr/bin/env python3
"""The prefill attention's peer on this GPU: PyTorch's scaled_dot_product_attention (causal, bf16, head
dim 128) with its cuDNN and FlashAttention backends, at the shapes bench_cuda_backend times the bundled
engine's kernels on: one prompt of 2k, 8k and 32k tokens with qwen3-8b's heads (32 query heads over 8 KV
heads) and 8k with qwen3-14b's (40 over 8). TFLOP/s counts what the engine's benchmark counts: both
products over the causal half with its diagonal, 4 x L(L+1)/2 x heads x 128.

    python3 scripts/sdpa-bench.py [--json FILE]

Needs PyTorch with CUDA (the GPU host's image has it; nothing here installs it). A backend that cannot run a
shape says so on its row instead of a figure."""
import argparse
import json
import sys

try:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
except ImportError as error:  # the figures need PyTorch; say what is missing instead of a traceback
    sys.exit(f"sdpa-bench: PyTorch with CUDA is needed ({error})")

SHAPES = [(2048, 32, 8), (8192, 32, 8), (32768, 32, 8), (8192, 40, 8)]
BACKENDS = [("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)]


def time_ms(fn, repeats, inner):
    """Median over repeats of the mean of inner back-to-back calls, in milliseconds (CUDA events)."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / inner)
    times.sort()
    return times[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("sdpa-bench: no CUDA device")
    print(f"{torch.cuda.get_device_name()}, PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    rows = []
    for length, heads, kv_heads in SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(length + heads)
        q = torch.randn(1, heads, length, 128, device="cuda", dtype=torch.bfloat16, generator=gen)
        k = torch.randn(1, kv_heads, length, 128, device="cuda", dtype=torch.bfloat16, generator=gen)
        v = torch.randn(1, kv_heads, length, 128, device="cuda", dtype=torch.bfloat16, generator=gen)
        # Both backends are timed on K and V expanded to every query head (the form each accepts on every
        # PyTorch version); the expansion is done once, outside the timing.
        k_all = k.repeat_interleave(heads // kv_heads, dim=1)
        v_all = v.repeat_interleave(heads // kv_heads, dim=1)
        flops = 4.0 * length * (length + 1) / 2.0 * heads * 128
        for name, backend in BACKENDS:
            label = f"sdpa {name} {length} x {heads}/{kv_heads} heads"
            try:
                with sdpa_kernel([backend]):
                    ms = time_ms(lambda: F.scaled_dot_product_attention(q, k_all, v_all, is_causal=True),
                                 5 if length <= 8192 else 3, 4 if length <= 8192 else 2)
            except RuntimeError as error:
                print(f"{label:44s} unavailable: {str(error).splitlines()[0][:80]}")
                rows.append({"kernel": label, "error": str(error).splitlines()[0]})
                continue
            tflops = flops / (ms * 1e-3) / 1e12
            print(f"{label:44s} {ms * 1e3:10.1f} us {tflops:8.1f} TFLOP/s")
            rows.append({"kernel": label, "us": ms * 1e3, "TFLOPs": tflops})
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
