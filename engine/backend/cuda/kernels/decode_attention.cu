// Decode attention, one launch: one block of 128 threads per (KV head, sequence, split). The split's
// keys come in tiles of 64 through cp.async into shared memory, K and V of a tile together and the next
// tile loading while this one is used, with an online softmax: the KV head's pages are read once for all
// its G query heads, with one global-memory latency per tile. Scores: a half-warp per key (16 lanes x 8
// dims, q in registers); P V: a thread per pair of dims and half of the tile's keys. With several splits
// each block writes its partial (unnormalised output, max, sum) and the last block of a (sequence, KV
// head) to finish, counted by an atomic, merges them. With rope set the block also does
// qkNormRopeKvWrite's work for its sequence's new token: its q heads are normed and rotated on the way
// in, and the split holding the last position writes the new K and V to the cache (and into its tile).

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"
#include "engine/backend/cuda/kernels/decode_common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

constexpr int kDecodePitch = kHeadDim + 8;  // bf16 row pitch of the tiles: 272 bytes, no bank conflicts
constexpr std::size_t kDecodeTileBytes =
    2 * 2 * kDecodeTile * kDecodePitch * sizeof(bf16);  // 2 stages, K and V

// The stages of decodeAttentionKernel, in the order it runs them. They are forceinline: the kernel stays
// one function, its q and accumulators in registers across the tile loop, and its registers are
// allocated over all of it, so a change to a stage is checked in the whole kernel's register count.

// Tile t of the split ([begin + 64 t, end), at most 64 keys): its keys and values through cp.async into
// stage t & 1 of the tiles, as one commit group.
__device__ __forceinline__ void issueTile(bf16* tiles, int t, int begin, int end, const bf16* key,
                                          const bf16* value, const std::int32_t* blockTable,
                                          const LayerKvCache& cache, int kvHead, int tid) {
  bf16* keyTile = tiles + (t & 1) * 2 * kDecodeTile * kDecodePitch;
  bf16* valueTile = keyTile + kDecodeTile * kDecodePitch;
  const int first = begin + t * kDecodeTile;
  for (int c = tid; c < kDecodeTile * (kHeadDim / 8); c += kDecodeThreads) {
    const int r = c / (kHeadDim / 8);
    const int col = (c % (kHeadDim / 8)) * 8;
    const int j = first + r;
    if (j < end) {
      const std::int64_t at = kvRow(key, blockTable, j, cache, kvHead) - key + col;
      cpAsync16(keyTile + r * kDecodePitch + col, key + at);
      cpAsync16(valueTile + r * kDecodePitch + col, value + at);
    }
  }
  cpAsyncCommit();
}

// The score layout of q: lane16 of every half-warp holds dims [8 lane16, 8 lane16 + 8) of every head.
template <int G>
__device__ __forceinline__ void loadQueries(float (&q)[G][8], const float* exchange, int lane16) {
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int d = 0; d < 8; ++d)
      q[g][d] = exchange[g * kHeadDim + lane16 * 8 + d];
}

// Scores of a tile into probs [G][64]: half-warp h takes keys h, h + 8, ... up to `valid` rounded up to
// 8 (`scored`; every lane of a warp takes part in the shuffles, so the rows past `valid` are computed
// but not kept: -inf).
template <int G>
__device__ __forceinline__ void scoreTile(float* probs, const bf16* keyTile, const float (&q)[G][8],
                                          int valid, int scored, int tid, int lane16) {
  for (int r = tid >> 4; r < scored; r += kDecodeThreads / 16) {
    float k[8];
    unpack8(*reinterpret_cast<const uint4*>(keyTile + r * kDecodePitch + lane16 * 8), k);
#pragma unroll
    for (int g = 0; g < G; ++g) {
      float dot = 0.0f;
#pragma unroll
      for (int d = 0; d < 8; ++d)
        dot += q[g][d] * k[d];
#pragma unroll
      for (int offset = 8; offset > 0; offset >>= 1)
        dot += __shfl_xor_sync(0xffffffffu, dot, offset);
      if (lane16 == 0) probs[g * kDecodeTile + r] = r < valid ? dot : -INFINITY;
    }
  }
}

// Online softmax over a tile's scores, a warp per head: probs become exp(score - new max), and each
// head's running max and sum move on, rescale holding the factor for the output so far.
template <int G>
__device__ __forceinline__ void softmaxUpdate(float* probs, float (&runMax)[G], float (&runSum)[G],
                                              float (&rescale)[G], int scored, int warp, int lane) {
  for (int g = warp; g < G; g += kDecodeThreads / 32) {
    const float s0 = lane < scored ? probs[g * kDecodeTile + lane] : -INFINITY;
    const float s1 = lane + 32 < scored ? probs[g * kDecodeTile + lane + 32] : -INFINITY;
    const float oldMax = runMax[g];
    const float newMax = fmaxf(oldMax, warpMax(fmaxf(s0, s1)));  // finite: valid >= 1
    const float p0 = __expf(s0 - newMax), p1 = __expf(s1 - newMax);
    probs[g * kDecodeTile + lane] = p0;
    probs[g * kDecodeTile + lane + 32] = p1;
    const float sum = warpSum(p0 + p1);
    if (lane == 0) {
      const float alpha = __expf(oldMax - newMax);
      rescale[g] = alpha;
      runSum[g] = runSum[g] * alpha + sum;
      runMax[g] = newMax;
    }
  }
}

// O = O alpha + P V: the thread's pair of dims over its half of the tile's keys.
template <int G>
__device__ __forceinline__ void accumulateValues(float (&acc)[G][2], const float (&rescale)[G],
                                                 const float* probs, const bf16* valueTile, int valid,
                                                 int keyHalf, int pair) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    acc[g][0] *= rescale[g];
    acc[g][1] *= rescale[g];
  }
  for (int j = keyHalf; j < valid; j += 2) {
    const float2 v =
        __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(valueTile + j * kDecodePitch + 2 * pair));
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const float p = probs[g * kDecodeTile + j];
      acc[g][0] += p * v.x;
      acc[g][1] += p * v.y;
    }
  }
}

// The second key half's O into the exchange, for the first half to add.
template <int G>
__device__ __forceinline__ void shareHalf(float* exchange, const float (&acc)[G][2], int pair) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    exchange[g * kHeadDim + 2 * pair] = acc[g][0];
    exchange[g * kHeadDim + 2 * pair + 1] = acc[g][1];
  }
}

// One split alone: out = (this half's O + the other half's, from the exchange) / the running sum.
template <int G>
__device__ __forceinline__ void writeOutput(bf16* out, std::int64_t outRow, const float (&acc)[G][2],
                                            const float* exchange, const float (&runSum)[G], int kvHead,
                                            int pair) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const float inverse = 1.0f / runSum[g];
    *reinterpret_cast<__nv_bfloat162*>(out + outRow + (kvHead * G + g) * kHeadDim + 2 * pair) =
        __floats2bfloat162_rn((acc[g][0] + exchange[g * kHeadDim + 2 * pair]) * inverse,
                              (acc[g][1] + exchange[g * kHeadDim + 2 * pair + 1]) * inverse);
  }
}

// Several splits: this split's unnormalised O (both halves) into its partial, mine.
template <int G>
__device__ __forceinline__ void writePartial(float* mine, std::int64_t headStride, const float (&acc)[G][2],
                                             const float* exchange, int pair) {
#pragma unroll
  for (int g = 0; g < G; ++g) {
    mine[g * headStride + 2 * pair] = acc[g][0] + exchange[g * kHeadDim + 2 * pair];
    mine[g * headStride + 2 * pair + 1] = acc[g][1] + exchange[g * kHeadDim + 2 * pair + 1];
  }
}

// The new token's tile patch stays inline: as a function it changed the kernel's machine code.
template <int G>
__global__ void __launch_bounds__(kDecodeThreads)
    decodeAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table, const std::int32_t* seqs,
                          int numHeads, LayerKvCache cache, int splits, float* partials, unsigned* counters,
                          DecodeRope rope, float scale) {
  // cp.async needs 16-byte alignment; 128 keeps the buffer where it began when the prefill kernel's
  // 128-aligned buffer shared this kernel's file (a file's extern shared arrays share one start).
  extern __shared__ __align__(128) unsigned char decodeShared[];
  bf16* tiles = reinterpret_cast<bf16*>(decodeShared);                       // [stage][K, V][64][pitch]
  float* probs = reinterpret_cast<float*>(decodeShared + kDecodeTileBytes);  // [G][64]
  float* exchange = probs + G * kDecodeTile;                                 // [G][128]
  __shared__ float runMax[G], runSum[G], rescale[G];
  __shared__ bool lastBlock;

  const int kvHead = blockIdx.x;
  const int index = blockIdx.y;
  const int split = blockIdx.z;
  const int seq = seqs != nullptr ? seqs[index] : index;
  const int context = table.contextLen[seq];
  const int row = table.queryStart[seq];
  const std::int32_t* blockTable =
      table.blockTables + static_cast<std::int64_t>(seq) * table.blockTableStride;
  const auto [begin, end] = splitRange(context, splits, split);
  const int tid = threadIdx.x;
  const int warp = tid >> 5;
  const int lane = tid & 31;
  const int position = context - 1;  // the new token's
  const bool fused = rope.qNorm != nullptr;
  const bool holdsNew = fused && begin <= position && position < end;
  const bf16* qRow = qkv + static_cast<std::int64_t>(row) * qkvStride;
  const bf16* key = asBf16(cache.key);
  const bf16* value = asBf16(cache.value);

  // The tiles' loads go out first; nothing below touches their stage before the first wait.
  const int tileCount = (end - begin + kDecodeTile - 1) / kDecodeTile;
  auto issue = [&](int t) { issueTile(tiles, t, begin, end, key, value, blockTable, cache, kvHead, tid); };
  // The first tile's keys and values were written by earlier steps (the new token's slot is replaced
  // once it lands), so its loads go out before the programmatic wait: launched as a dependent of the
  // kernel before it, the block starts while that one finishes. The next kernel may start now too.
  asm volatile("griddepcontrol.launch_dependents;");
  if (tileCount > 0) issue(0);
  asm volatile("griddepcontrol.wait;" ::: "memory");

  stageQueries<G>(exchange, qRow, kvHead, fused, rope, position, scale, warp, lane);
  // The new token's K (normed, rotated) and V: to the cache now, and into the tile once it has landed.
  uint2 newValue = make_uint2(0, 0), newKey = make_uint2(0, 0);
  if (holdsNew && warp == 0) {
    const NewKeyValue kv =
        writeNewKeyValue(qRow, numHeads, kvHead, cache, rope, key, blockTable, position, lane);
    newKey = kv.key;
    newValue = kv.value;
  }
  if (tid < G) {
    runMax[tid] = -INFINITY;
    runSum[tid] = 0.0f;
  }
  __syncthreads();
  const int lane16 = tid & 15;
  float q[G][8];
  loadQueries<G>(q, exchange, lane16);

  const int pair = tid & 63;  // P V: dims 2 pair, 2 pair + 1
  const int keyHalf = tid >> 6;
  float acc[G][2];
#pragma unroll
  for (int g = 0; g < G; ++g)
    acc[g][0] = acc[g][1] = 0.0f;

  for (int t = 0; t < tileCount; ++t) {
    if (t + 1 < tileCount) {
      issue(t + 1);
      cpAsyncWait<1>();
    } else {
      cpAsyncWait<0>();
    }
    __syncthreads();
    bf16* keyTile = tiles + (t & 1) * 2 * kDecodeTile * kDecodePitch;
    const bf16* valueTile = keyTile + kDecodeTile * kDecodePitch;
    const int first = begin + t * kDecodeTile;
    const int valid = min(kDecodeTile, end - first);
    if (holdsNew && position < first + valid && position >= first) {
      if (warp == 0) {
        *reinterpret_cast<uint2*>(keyTile + (position - first) * kDecodePitch + lane * 4) = newKey;
        *reinterpret_cast<uint2*>(keyTile + kDecodeTile * kDecodePitch + (position - first) * kDecodePitch +
                                  lane * 4) = newValue;
      }
      __syncthreads();
    }

    const int scored = (valid + 7) / 8 * 8;
    scoreTile<G>(probs, keyTile, q, valid, scored, tid, lane16);
    __syncthreads();

    softmaxUpdate<G>(probs, runMax, runSum, rescale, scored, warp, lane);
    __syncthreads();

    accumulateValues<G>(acc, rescale, probs, valueTile, valid, keyHalf, pair);
    __syncthreads();  // the next iteration refills this stage and the scores
  }

  // The two key halves meet (after every thread has read its q from the exchange).
  __syncthreads();
  if (keyHalf == 1) shareHalf<G>(exchange, acc, pair);
  __syncthreads();
  const std::int64_t outRow = static_cast<std::int64_t>(row) * numHeads * kHeadDim;
  if (splits == 1) {
    if (keyHalf == 0) writeOutput<G>(out, outRow, acc, exchange, runSum, kvHead, pair);
    return;
  }

  // Several splits: this block's partial, then a count of the splits done; the last block merges them.
  float* mine = partials + ((static_cast<std::int64_t>(index) * numHeads + kvHead * G) * splits + split) *
                               kDecodePartial;
  const std::int64_t headStride = static_cast<std::int64_t>(splits) * kDecodePartial;
  if (keyHalf == 0) writePartial<G>(mine, headStride, acc, exchange, pair);
  if (tid < G) {
    mine[tid * headStride + kHeadDim] = runMax[tid];  // -inf for an empty split
    mine[tid * headStride + kHeadDim + 1] = runSum[tid];
  }
  mergeIfLast<G>(out, outRow, partials, counters, index, kvHead, cache.numKvHeads, numHeads, splits,
                 lastBlock, tid);
}

template <int G>
void launchDecode(dim3 grid, std::size_t sharedBytes, bool overlapPrevious, Stream stream, bf16* out,
                  const bf16* qkv, int qkvStride, const SeqTable& table, const std::int32_t* seqs,
                  int numHeads, const LayerKvCache& cache, int splits, float* partials, unsigned* counters,
                  const DecodeRope& rope, float scale) {
  static const bool attributeSet = [&] {
    return cudaFuncSetAttribute(decodeAttentionKernel<G>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(sharedBytes)) == cudaSuccess;
  }();
  if (!attributeSet)
    throw Error("decode attention: the device cannot give a block the shared memory it needs");
  LaunchConfig launch(grid, dim3(kDecodeThreads), sharedBytes, stream, overlapPrevious);
  checkLaunchResult(cudaLaunchKernelEx(&launch.config, decodeAttentionKernel<G>, out, qkv, qkvStride, table,
                                       seqs, numHeads, cache, splits, partials, counters, rope, scale),
                    "decodeAttention");
}

}  // namespace

int decodeAttentionSplits(int count, int maxContext, int kvHeads, int multiprocessors) {
  auto atLeast = [](int value) {  // the smallest power of two >= value
    int p = 1;
    while (p < value)
      p *= 2;
    return p;
  };
  auto atMost = [](int value) {  // the largest power of two <= value (1 for less)
    int p = 1;
    while (2 * p <= value)
      p *= 2;
    return p;
  };
  const int wanted = (2 * multiprocessors + count * kvHeads - 1) / (count * kvHeads);
  const int tiles = atLeast(std::min(wanted, std::max(1, (maxContext + kDecodeTile - 1) / kDecodeTile)));
  const int slices =
      atMost(std::min({wanted, 16, std::max(1, (maxContext + kDecodeSlice - 1) / kDecodeSlice)}));
  return std::max(tiles, slices);
}

std::int64_t decodeAttentionPartialFloats(int count, int numHeads, int splits) {
  return static_cast<std::int64_t>(count) * numHeads * splits * (kHeadDim + 2);
}

void decodeAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                     const std::int32_t* seqs, int count, int numHeads, const LayerKvCache& cache, int splits,
                     float* partials, unsigned* counters, const DecodeRope& rope, bool overlapPrevious,
                     Stream stream) {
  if (count == 0) return;
  const int group = numHeads / cache.numKvHeads;
  const dim3 grid(cache.numKvHeads, count, splits);
  const std::size_t sharedBytes = kDecodeTileBytes + sizeof(float) * group * (kDecodeTile + kHeadDim);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
  switch (group) {
#define AYAR_DECODE_CASE(G)                                                                                 \
  case G:                                                                                                   \
    launchDecode<G>(grid, sharedBytes, overlapPrevious, stream, asBf16(out), asBf16(qkv), qkvStride, table, \
                    seqs, numHeads, cache, splits, partials, counters, rope, scale);                        \
    break;
    AYAR_DECODE_CASE(1)
    AYAR_DECODE_CASE(2)
    AYAR_DECODE_CASE(3)
    AYAR_DECODE_CASE(4)
    AYAR_DECODE_CASE(5)
    AYAR_DECODE_CASE(6)
    AYAR_DECODE_CASE(7)
    AYAR_DECODE_CASE(8)
#undef AYAR_DECODE_CASE
    default:
      throw Error("decode attention supports 1 to 8 query heads per KV head, not " + std::to_string(group));
  }
}

}  // namespace ayar::engine::cuda
