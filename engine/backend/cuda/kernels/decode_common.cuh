// What the two decode attention kernels share (decode_attention.cu: scores and P V on the CUDA cores;
// decode_attention_mma.cu: on the tensor cores): the block shape, the partition of a context into splits,
// the query heads staged with their norm and rotation, the new token's K and V written to the cache, and
// the merge of the splits' partials by the last block of a (sequence, KV head) to finish.

#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda::detail {

constexpr int kDecodeThreads = 128;
constexpr int kDecodeTile = 64;   // keys a tile
constexpr int kDecodeSlice = 16;  // partitions are multiples of it: short contexts spread over more blocks

// Where a block's split of its sequence's keys lies: [begin, end).
struct SplitRange {
  int begin, end;
};
__device__ __forceinline__ SplitRange splitRange(int context, int splits, int split) {
  int partition = (context + splits - 1) / splits;
  partition = (partition + kDecodeSlice - 1) / kDecodeSlice * kDecodeSlice;
  const int begin = min(context, split * partition);
  return {begin, min(context, begin + partition)};
}

// Query heads, scaled by 1 / sqrt(headDim) (normed and rotated here with rope), a warp a head, into
// exchange [G][128], from where every thread reads its part in the score layout.
template <int G>
__device__ __forceinline__ void stageQueries(float* exchange, const bf16* qRow, int kvHead, bool fused,
                                             const DecodeRope& rope, int position, float scale, int warp,
                                             int lane) {
  for (int g = warp; g < G; g += kDecodeThreads / 32) {
    float v[4];
    loadHead4(v, qRow + (kvHead * G + g) * kHeadDim, lane);
    if (fused) {
      const std::int64_t at = static_cast<std::int64_t>(position) * (kHeadDim / 2);
      normRopeHead(v, asBf16(rope.qNorm), rope.cosines + at, rope.sines + at, lane, rope.eps);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      exchange[g * kHeadDim + lane * 4 + j] = v[j] * scale;
  }
}

// The new token's K (normed, rotated) and V, lane's 4 dims of each in bf16.
struct NewKeyValue {
  uint2 key, value;
};

// By warp 0 of the split holding the new token: its K and V, written to the token's cache slot now; the
// kernel puts them into the tile too once that has landed.
__device__ __forceinline__ NewKeyValue writeNewKeyValue(const bf16* qRow, int numHeads, int kvHead,
                                                        const LayerKvCache& cache, const DecodeRope& rope,
                                                        const bf16* key, const std::int32_t* blockTable,
                                                        int position, int lane) {
  const int kvHeads = cache.numKvHeads;
  float k[4], v[4];
  loadHead4(k, qRow + (numHeads + kvHead) * kHeadDim, lane);
  loadHead4(v, qRow + (numHeads + kvHeads + kvHead) * kHeadDim, lane);
  const std::int64_t at = static_cast<std::int64_t>(position) * (kHeadDim / 2);
  normRopeHead(k, asBf16(rope.kNorm), rope.cosines + at, rope.sines + at, lane, rope.eps);
  const NewKeyValue kv{packHead4(k), packHead4(v)};
  const std::int64_t slot = kvRow(key, blockTable, position, cache, kvHead) - key + lane * 4;
  *reinterpret_cast<uint2*>(asBf16(cache.key) + slot) = kv.key;
  *reinterpret_cast<uint2*>(asBf16(cache.value) + slot) = kv.value;
  return kv;
}

// Layout of partials: [seq][head][split][128 + 2] (output, then max and sum).
constexpr int kDecodePartial = kHeadDim + 2;

// The merge of the splits' partials (see the kernel's end) reads them in batches of 8 splits, all in
// flight at once, and folds each batch into a running state of one head.
constexpr int kMergeBatch = 8;
struct MergeState {
  float total, runningMax;  // the sum of exp over the splits so far, relative to runningMax
  float4 sum;               // lane's 4 dims of the output so far, on the same scale
};

// One batch of splits folded in: the state moves to the batch's maximum (empty splits, max -inf and sum
// 0, count for nothing).
__device__ __forceinline__ MergeState foldBatch(MergeState s, const float (&maxima)[kMergeBatch],
                                                const float (&sums)[kMergeBatch],
                                                const float2 (&lo)[kMergeBatch],
                                                const float2 (&hi)[kMergeBatch]) {
  float batchMax = s.runningMax;
#pragma unroll
  for (int u = 0; u < kMergeBatch; ++u)
    batchMax = sums[u] > 0.0f ? fmaxf(batchMax, maxima[u]) : batchMax;  // empty splits: -inf, 0
  if (batchMax == -INFINITY) return s;
  const float keep = __expf(s.runningMax - batchMax);  // 0 while nothing was added
  s.total *= keep;
  s.sum.x *= keep;
  s.sum.y *= keep;
  s.sum.z *= keep;
  s.sum.w *= keep;
#pragma unroll
  for (int u = 0; u < kMergeBatch; ++u) {
    const float weight = sums[u] > 0.0f ? __expf(maxima[u] - batchMax) : 0.0f;
    s.total += sums[u] * weight;
    s.sum.x += lo[u].x * weight;
    s.sum.y += lo[u].y * weight;
    s.sum.z += hi[u].x * weight;
    s.sum.w += hi[u].y * weight;
  }
  s.runningMax = batchMax;
  return s;
}

// A merged head's 4 dims of lane, normalised, to out + at.
__device__ __forceinline__ void writeMerged(bf16* out, std::int64_t at, float4 sum, float total) {
  const float inverse = 1.0f / total;
  __nv_bfloat162* dst = reinterpret_cast<__nv_bfloat162*>(out + at);
  dst[0] = __floats2bfloat162_rn(sum.x * inverse, sum.y * inverse);
  dst[1] = __floats2bfloat162_rn(sum.z * inverse, sum.w * inverse);
}

// Several splits, once this block's partial (its unnormalised output, max and sum per head) is written:
// a count of the splits done, and the last block of this (sequence, KV head) merges every split's
// partial, read from L2 in one pass: a warp per head, 4 dims a lane, the loads of 8 splits (outputs,
// maxima and sums) in flight at once and folded in with a running maximum, so the merge costs one round
// trip per 8 splits. lastBlock is a __shared__ flag of the block.
template <int G>
__device__ __forceinline__ void mergeIfLast(bf16* out, std::int64_t outRow, const float* partials,
                                            unsigned* counters, int index, int kvHead, int numKvHeads,
                                            int numHeads, int splits, bool& lastBlock, int tid) {
  const int warp = tid >> 5;
  const int lane = tid & 31;
  const std::int64_t headStride = static_cast<std::int64_t>(splits) * kDecodePartial;
  __threadfence();
  __syncthreads();
  unsigned* counter = counters + static_cast<std::int64_t>(index) * numKvHeads + kvHead;
  if (tid == 0) lastBlock = atomicAdd(counter, 1u) == static_cast<unsigned>(splits - 1);
  __syncthreads();
  if (!lastBlock) return;
  __threadfence();
  const float* heads = partials + (static_cast<std::int64_t>(index) * numHeads + kvHead * G) * headStride;
  for (int g = warp; g < G; g += kDecodeThreads / 32) {
    const float* p = heads + g * headStride;
    MergeState state{0.0f, -INFINITY, make_float4(0.0f, 0.0f, 0.0f, 0.0f)};
    for (int first = 0; first < splits; first += kMergeBatch) {
      float maxima[kMergeBatch], sums[kMergeBatch];
      float2 lo[kMergeBatch], hi[kMergeBatch];
#pragma unroll
      for (int u = 0; u < kMergeBatch; ++u) {
        const float* part = p + (first + u) * kDecodePartial;  // 8-byte aligned: kDecodePartial is even
        const bool present = first + u < splits;
        maxima[u] = present ? __ldcg(part + kHeadDim) : -INFINITY;
        sums[u] = present ? __ldcg(part + kHeadDim + 1) : 0.0f;
        lo[u] = present ? __ldcg(reinterpret_cast<const float2*>(part + lane * 4)) : make_float2(0.0f, 0.0f);
        hi[u] =
            present ? __ldcg(reinterpret_cast<const float2*>(part + lane * 4 + 2)) : make_float2(0.0f, 0.0f);
      }
      state = foldBatch(state, maxima, sums, lo, hi);
    }
    writeMerged(out, outRow + (kvHead * G + g) * kHeadDim + lane * 4, state.sum, state.total);
  }
  if (tid == 0) *counter = 0u;  // ready for the next launch
}

}  // namespace ayar::engine::cuda::detail
