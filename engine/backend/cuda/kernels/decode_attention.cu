// Decode attention, one launch: one block of 4 warps per (KV head, sequence, split), on the tensor cores.
// The KV head's G query heads are the rows of a 16-row mma.sync A fragment (rows G..15 zero), so one
// m16n8k16 product scores 8 keys for all of them and the KV head's pages are read once for all its query
// heads. The split's keys come in tiles of 64 through cp.async, three tiles in flight; each warp takes 16
// keys of every tile with its own online softmax, its Q fragments, scores, P and output in registers, and
// the four warps' results meet in shared memory at the end. A tile costs a few dozen instructions a warp,
// so the loads, not the arithmetic, set the pace. With several splits each block writes its partial
// (unnormalised output, max, sum) and the last block of a (sequence, KV head) to finish, counted by an
// atomic, merges them. With rope set the block also does qkNormRopeKvWrite's work for its sequence's new
// token: its q heads are normed and rotated on the way in, and the split holding the last position writes
// the new K and V to the cache (and into its tile).

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

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
// exchange [G][128], from where each thread takes its part of the A fragments.
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

constexpr int kStages = 3;                       // tiles in flight: two loading while one is used
constexpr int kWarps = kDecodeThreads / 32;      // 4
constexpr int kWarpKeys = kDecodeTile / kWarps;  // a warp's keys of each tile
constexpr int kSlices = kHeadDim / 16;           // k16 slices of Q K^T (head dims)
constexpr int kOutputTiles = kHeadDim / 8;       // n8 tiles of O (head dims)
constexpr int kTileElements = kDecodeTile * kHeadDim;
constexpr std::size_t kStagesBytes = kStages * 2 * kTileElements * sizeof(bf16);  // K and V of each stage
constexpr float kLog2e = 1.4426950408889634f;

static_assert(kWarpKeys == 16, "a warp's keys of a tile are one k16 slice of P V");

// Tile t of the split ([begin + 64 t, end), at most 64 keys) into stage t % kStages, K then V (the caller
// commits).
__device__ __forceinline__ void issueTile(bf16* stages, int t, int begin, int end, const LayerKvCache& cache,
                                          int kvHead, const std::int32_t* blockTable, int tid) {
  bf16* keyTile = stages + (t % kStages) * 2 * kTileElements;
  loadKeyValueTile<kDecodeTile, kDecodeThreads>(keyTile, keyTile + kTileElements, cache, blockTable, kvHead,
                                                begin + t * kDecodeTile, end, tid);
}

// The query heads (staged in exchange as floats, scaled) as A fragments: row g < G is head g, rows past G
// and rows 8-15 zero. q[s] covers head dims [16 s, 16 s + 16).
template <int G>
__device__ __forceinline__ void queryFragments(unsigned (&q)[kSlices][4], const float* exchange, int lane) {
  const int g = lane >> 2;
  const int t = lane & 3;
#pragma unroll
  for (int s = 0; s < kSlices; ++s) {
    const float* row = exchange + g * kHeadDim + 16 * s + 2 * t;
    q[s][0] = g < G ? packBf16(row[0], row[1]) : 0u;
    q[s][2] = g < G ? packBf16(row[8], row[9]) : 0u;
    q[s][1] = q[s][3] = 0u;
  }
}

// S = Q K^T for the warp's 16 keys (from row warpFirst of the tile): s[n] holds keys [8 n, 8 n + 8).
// Each ldmatrix gives the B fragments of both key tiles for one slice of head dims.
__device__ __forceinline__ void scoreKeys(float (&s)[2][4], const unsigned (&q)[kSlices][4],
                                          const bf16* keyTile, int warpFirst, int lane) {
#pragma unroll
  for (int n = 0; n < 2; ++n)
    s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0f;
  const int keyInPair = (lane & 7) + ((lane >> 4) << 3);
  const int chunkInSlice = (lane >> 3) & 1;
#pragma unroll
  for (int d = 0; d < kSlices; ++d) {
    unsigned b[4];
    ldmatrixX4(b, sharedAddress(keyTile + swizzled(warpFirst + keyInPair, 2 * d + chunkInSlice)));
    mma16816(s[0], q[d], b[0], b[1]);
    mma16816(s[1], q[d], b[2], b[3]);
  }
}

// The online softmax of row g (the thread's head; rows g + 8 are padding and get P = 0): keys at or past
// `valid` (tile-local) are masked, P = e^(s - max) replaces the scores, O is rescaled to the new max.
// rowSum is the thread's share of the row's sum (the quad's shares add up at the end). The caller runs
// this only for a warp with at least one valid key, so the new max is finite.
__device__ __forceinline__ void softmaxRow(float (&s)[2][4], float (&o)[kOutputTiles][4], float& rowMax,
                                           float& rowSum, int warpFirst, int valid, int lane) {
  const int key = warpFirst + 2 * (lane & 3);
#pragma unroll
  for (int n = 0; n < 2; ++n) {
    if (key + 8 * n >= valid) s[n][0] = -INFINITY;
    if (key + 8 * n + 1 >= valid) s[n][1] = -INFINITY;
  }
  float tileMax = fmaxf(fmaxf(s[0][0], s[0][1]), fmaxf(s[1][0], s[1][1]));
  tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 1));
  tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 2));
  const float newMax = fmaxf(rowMax, tileMax);
  const float alpha = exp2Approx((rowMax - newMax) * kLog2e);  // 0 while the row had no key
  rowMax = newMax;
  float tileSum = 0.0f;
#pragma unroll
  for (int n = 0; n < 2; ++n) {
    s[n][0] = exp2Approx((s[n][0] - newMax) * kLog2e);
    s[n][1] = exp2Approx((s[n][1] - newMax) * kLog2e);
    tileSum += s[n][0] + s[n][1];
  }
  rowSum = rowSum * alpha + tileSum;
#pragma unroll
  for (int n = 0; n < kOutputTiles; ++n) {
    o[n][0] *= alpha;
    o[n][1] *= alpha;
  }
}

// O += P V over the warp's 16 keys: P's C fragments (rows g, keys 2t.. of both key tiles) are the A
// fragment of one k16 slice, rows 8-15 zero. Each ldmatrix.trans gives the B fragments of two dim tiles.
__device__ __forceinline__ void accumulateValues(float (&o)[kOutputTiles][4], const float (&p)[2][4],
                                                 const bf16* valueTile, int warpFirst, int lane) {
  const unsigned a[4] = {packBf16(p[0][0], p[0][1]), 0u, packBf16(p[1][0], p[1][1]), 0u};
  const int keyInSlice = (lane & 7) + (((lane >> 3) & 1) << 3);
  const int chunkInPair = lane >> 4;
#pragma unroll
  for (int d = 0; d < kOutputTiles / 2; ++d) {
    unsigned b[4];
    ldmatrixX4Trans(b, sharedAddress(valueTile + swizzled(warpFirst + keyInSlice, 2 * d + chunkInPair)));
    mma16816(o[2 * d], a, b[0], b[1]);
    mma16816(o[2 * d + 1], a, b[2], b[3]);
  }
}

// The four warps' results as the block's: head g's unnormalised output into combined [G][128], its max
// and sum into blockMax, blockSum. warpOut ([4][G][128] floats) is the stages' memory, free once every
// warp is past the tile loop. Ends with a barrier.
template <int G>
__device__ __forceinline__ void combineWarps(float* combined, float* warpOut, float (&warpMax)[kWarps][G],
                                             float (&warpSum)[kWarps][G], float (&blockMax)[G],
                                             float (&blockSum)[G], const float (&o)[kOutputTiles][4],
                                             float rowMax, float rowSum, int warp, int lane, int tid) {
  const int g = lane >> 2;
  const int t = lane & 3;
  rowSum += __shfl_xor_sync(0xffffffffu, rowSum, 1);
  rowSum += __shfl_xor_sync(0xffffffffu, rowSum, 2);
  __syncthreads();  // every warp is done with the stages
  if (g < G && t == 0) {
    warpMax[warp][g] = rowMax;
    warpSum[warp][g] = rowSum;
  }
  __syncthreads();
  if (g < G) {
    float top = -INFINITY;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      top = fmaxf(top, warpMax[w][g]);
    const float factor = rowMax == -INFINITY ? 0.0f : exp2Approx((rowMax - top) * kLog2e);
    float* mine = warpOut + (warp * G + g) * kHeadDim + 2 * t;
#pragma unroll
    for (int n = 0; n < kOutputTiles; ++n) {
      mine[8 * n] = o[n][0] * factor;
      mine[8 * n + 1] = o[n][1] * factor;
    }
  }
  if (tid < G) {
    float top = -INFINITY;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      top = fmaxf(top, warpMax[w][tid]);
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      sum += warpMax[w][tid] == -INFINITY ? 0.0f
                                          : warpSum[w][tid] * exp2Approx((warpMax[w][tid] - top) * kLog2e);
    blockMax[tid] = top;  // -inf for an empty split (its sum is 0)
    blockSum[tid] = sum;
  }
  __syncthreads();
  for (int i = tid; i < G * kHeadDim; i += kDecodeThreads) {
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      v += warpOut[w * G * kHeadDim + i];
    combined[i] = v;
  }
  __syncthreads();
}

template <int G>
__global__ void __launch_bounds__(kDecodeThreads)
    decodeAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table, const std::int32_t* seqs,
                          int numHeads, LayerKvCache cache, int splits, float* partials, unsigned* counters,
                          DecodeRope rope, float scale) {
  extern __shared__ __align__(128) unsigned char decodeShared[];
  bf16* stages = reinterpret_cast<bf16*>(decodeShared);  // [stage][K, V][64][128], swizzled
  float* exchange = reinterpret_cast<float*>(decodeShared + kStagesBytes);  // [G][128]
  __shared__ float warpMax[kWarps][G], warpSum[kWarps][G], blockMax[G], blockSum[G];
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

  // The first tiles' keys and values were written by earlier steps (the new token's slot is replaced once
  // it lands), so their loads go out before the programmatic wait: launched as a dependent of the kernel
  // before it, the block starts while that one finishes. The next kernel may start now too.
  const int tileCount = (end - begin + kDecodeTile - 1) / kDecodeTile;
  asm volatile("griddepcontrol.launch_dependents;");
#pragma unroll
  for (int t = 0; t < kStages - 1; ++t) {
    if (t < tileCount) issueTile(stages, t, begin, end, cache, kvHead, blockTable, tid);
    cpAsyncCommit();  // an empty group past the last tile keeps the wait counts below exact
  }
  asm volatile("griddepcontrol.wait;" ::: "memory");

  stageQueries<G>(exchange, qRow, kvHead, fused, rope, position, scale, warp, lane);
  uint2 newKey = make_uint2(0, 0), newValue = make_uint2(0, 0);
  if (holdsNew && warp == 0) {
    const NewKeyValue kv =
        writeNewKeyValue(qRow, numHeads, kvHead, cache, rope, asBf16(cache.key), blockTable, position, lane);
    newKey = kv.key;
    newValue = kv.value;
  }
  __syncthreads();
  unsigned q[kSlices][4];
  queryFragments<G>(q, exchange, lane);

  float o[kOutputTiles][4];
#pragma unroll
  for (int n = 0; n < kOutputTiles; ++n)
    o[n][0] = o[n][1] = o[n][2] = o[n][3] = 0.0f;
  float rowMax = -INFINITY, rowSum = 0.0f;
  const int warpFirst = warp * kWarpKeys;

  for (int t = 0; t < tileCount; ++t) {
    // Tile t has landed for every thread, and every warp is done with tile t - 1, whose stage the load
    // of tile t + kStages - 1 reuses.
    cpAsyncWait<kStages - 2>();
    __syncthreads();
    if (t + kStages - 1 < tileCount)
      issueTile(stages, t + kStages - 1, begin, end, cache, kvHead, blockTable, tid);
    cpAsyncCommit();
    bf16* keyTile = stages + (t % kStages) * 2 * kTileElements;
    const bf16* valueTile = keyTile + kTileElements;
    const int first = begin + t * kDecodeTile;
    const int valid = min(kDecodeTile, end - first);
    if (holdsNew && position >= first && position < first + valid) {
      if (warp == 0) {
        const int at = swizzled(position - first, lane >> 1) + (lane & 1) * 4;
        *reinterpret_cast<uint2*>(keyTile + at) = newKey;
        *reinterpret_cast<uint2*>(keyTile + kTileElements + at) = newValue;
      }
      __syncthreads();
    }
    if (warpFirst >= valid) continue;  // none of this tile's keys is the warp's
    float s[2][4];
    scoreKeys(s, q, keyTile, warpFirst, lane);
    softmaxRow(s, o, rowMax, rowSum, warpFirst, valid, lane);
    accumulateValues(o, s, valueTile, warpFirst, lane);
  }
  cpAsyncWait<0>();  // no load may land in the stages once they hold the warps' outputs

  combineWarps<G>(exchange, reinterpret_cast<float*>(stages), warpMax, warpSum, blockMax, blockSum, o, rowMax,
                  rowSum, warp, lane, tid);
  const std::int64_t outRow = static_cast<std::int64_t>(row) * numHeads * kHeadDim;
  if (splits == 1) {
    for (int i = tid; i < G * kHeadDim / 2; i += kDecodeThreads) {
      const int g = 2 * i / kHeadDim;
      const float inverse = 1.0f / blockSum[g];
      *reinterpret_cast<__nv_bfloat162*>(out + outRow + kvHead * G * kHeadDim + 2 * i) =
          __floats2bfloat162_rn(exchange[2 * i] * inverse, exchange[2 * i + 1] * inverse);
    }
    return;
  }
  // Several splits: this block's partial ([seq][head][split][128 + 2]), then the merge by the last block.
  const std::int64_t headStride = static_cast<std::int64_t>(splits) * kDecodePartial;
  float* mine = partials + ((static_cast<std::int64_t>(index) * numHeads + kvHead * G) * splits + split) *
                               kDecodePartial;
  for (int i = tid; i < G * kHeadDim; i += kDecodeThreads)
    mine[(i / kHeadDim) * headStride + i % kHeadDim] = exchange[i];
  if (tid < G) {
    mine[tid * headStride + kHeadDim] = blockMax[tid];
    mine[tid * headStride + kHeadDim + 1] = blockSum[tid];
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
  // The warps' outputs ([4][G][128] floats, at most 16 KB) reuse the stages at the end.
  const std::size_t sharedBytes = kStagesBytes + sizeof(float) * group * kHeadDim;
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
