// The Hopper prefill attention's launcher, for prefillAttention's choice (kernels/prefill_attention.cu).

#pragma once

#include <cstdint>

#include "engine/backend/cuda/cuda_kernels.h"

namespace ayar::engine::cuda::detail {

// As prefillAttention; hopperPrefillAvailable(cache) must hold.
void prefillAttentionHopper(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                            const std::int32_t* seqs, int count, int maxQueryLen, int numHeads,
                            const LayerKvCache& cache, Stream stream);

}  // namespace ayar::engine::cuda::detail
