// Prefill attention, the portable kernel (any GPU with mma.sync; prefill_attention_hopper.cu has the
// Hopper one, and prefillAttention at the end of this file picks), FlashAttention-2 style: one block per
// (128-query tile, query head, sequence), 8 warps of 16 query rows each. Everything a warp computes stays in
// its registers: its Q rows (mma A fragments), the scores S = Q K^T of one 64-key tile, the online softmax's
// row max and sum, P = softmax(S) in bf16 and the output O. Shared memory holds only the Q tile (read once
// into registers, reused at the end to stage the output) and two K/V tile buffers: the next tile's keys and
// values load (cp.async, through the block table) while the warps work on this one.
//
// Why 8 warps of 16 rows: a warp's registers hold Q (32 a thread), O (64) and S (32) with room to spare,
// so nothing spills at one block of 256 threads a multiprocessor. 4 warps of 32 rows would reuse each
// K/V fragment for two row tiles but need twice the O and S registers and Q back in shared memory; a
// block of 64 rows (4 warps, two blocks a multiprocessor) reads every K/V tile from L2 twice as often.
// The fragment layouts and the tensor-core helpers are in common.cuh.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"
#include "engine/backend/cuda/kernels/prefill_attention_hopper.h"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

constexpr int kQueryTile = 128;          // query rows a block
constexpr int kKeyTile = 64;             // keys a K/V tile
constexpr int kWarps = kQueryTile / 16;  // one warp per 16 query rows
constexpr int kThreads = kWarps * 32;
constexpr int kChunks = kHeadDim / 8;        // 16-byte chunks in a row of 128 bf16
constexpr int kScoreTiles = kKeyTile / 8;    // n8 tiles of S (keys)
constexpr int kOutputTiles = kHeadDim / 8;   // n8 tiles of O (head dims)
constexpr int kQuerySlices = kHeadDim / 16;  // k16 slices of Q K^T (head dims)
constexpr int kValueSlices = kKeyTile / 16;  // k16 slices of P V (keys)
constexpr int kQueryTileElements = kQueryTile * kHeadDim;
constexpr int kKeyTileElements = kKeyTile * kHeadDim;
// Q, then K buffers 0 and 1, then V buffers 0 and 1; rows of 128 bf16 without padding (swizzled).
constexpr std::size_t kPrefillSharedBytes = (kQueryTileElements + 4 * kKeyTileElements) * sizeof(bf16);

static_assert(kHeadDim == 128, "the tiles below assume 16 chunks of 8 bf16 a row");
static_assert(kQueryTile * kChunks % kThreads == 0 && kKeyTile * kChunks % kThreads == 0);

// ---------------------------------------------------------------------------------------------------
// The stages of prefillAttentionKernel, in the order it runs them (forceinline: the kernel stays one
// function, its registers allocated over all of it).

// Where a block's work sits: its sequence's rows and keys, and the positions of its query rows.
struct TileWork {
  int queryRow = 0;       // first row of the tile in qkv and out
  int rowsHere = 0;       // real query rows in the tile (the rest are zero and not written)
  int firstPosition = 0;  // position of the tile's row 0
  int keyEnd = 0;         // the last real row's position + 1: keys [0, keyEnd) are read
  int kvHead = 0;
  const std::int32_t* blockTable = nullptr;
};

// The block's query tile (rows past rowsHere zero) into qTile, by cp.async (the caller commits).
__device__ __forceinline__ void loadQueryTile(bf16* qTile, const bf16* qkv, int qkvStride, int head,
                                              const TileWork& work, int tid) {
#pragma unroll
  for (int i = 0; i < kQueryTile * kChunks / kThreads; ++i) {
    const int c = tid + i * kThreads;
    const int r = c / kChunks;
    const int chunk = c % kChunks;
    bf16* dst = qTile + swizzled(r, chunk);
    if (r < work.rowsHere) {
      cpAsync16(dst,
                qkv + static_cast<std::int64_t>(work.queryRow + r) * qkvStride + head * kHeadDim + chunk * 8);
    } else {
      *reinterpret_cast<uint4*>(dst) = make_uint4(0, 0, 0, 0);
    }
  }
}

// The warp's 16 Q rows as A fragments: q[s] covers head dims [16s, 16s + 16). Matrices 0-3 of each
// ldmatrix are (rows 0-7, dims 0-7), (rows 8-15, dims 0-7), (rows 0-7, dims 8-15), (rows 8-15, dims
// 8-15) of the slice: a0..a3.
__device__ __forceinline__ void loadQueryFragments(unsigned (&q)[kQuerySlices][4], const bf16* qTile,
                                                   int warp, int lane) {
  const int row = warp * 16 + (lane & 15);
#pragma unroll
  for (int s = 0; s < kQuerySlices; ++s)
    ldmatrixX4(q[s], sharedAddress(qTile + swizzled(row, 2 * s + (lane >> 4))));
}

// S = Q K^T for the warp's 16 rows and the tile's 64 keys: s[n] is the C fragment of keys [8n, 8n + 8).
// Each ldmatrix gives the B fragments of two key tiles: matrices (keys 0-7, dims 0-7) -> b0 and (keys
// 0-7, dims 8-15) -> b1 of key tile 2p, (keys 8-15, dims 0-7) and (keys 8-15, dims 8-15) of tile 2p + 1.
__device__ __forceinline__ void computeScores(float (&s)[kScoreTiles][4],
                                              const unsigned (&q)[kQuerySlices][4], const bf16* keyTile,
                                              int lane) {
#pragma unroll
  for (int n = 0; n < kScoreTiles; ++n)
    s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0f;
  const int keyInPair = (lane & 7) + ((lane >> 4) << 3);
  const int chunkInSlice = (lane >> 3) & 1;
#pragma unroll
  for (int d = 0; d < kQuerySlices; ++d) {
#pragma unroll
    for (int p = 0; p < kScoreTiles / 2; ++p) {
      unsigned b[4];
      ldmatrixX4(b, sharedAddress(keyTile + swizzled(16 * p + keyInPair, 2 * d + chunkInSlice)));
      mma16816(s[2 * p], q[d], b[0], b[1]);
      mma16816(s[2 * p + 1], q[d], b[2], b[3]);
    }
  }
}

// The causal mask on a tile that crosses the warp's diagonal: scores of keys past the row's position
// (rowPosition for row g, + 8 for row g + 8) become -inf.
__device__ __forceinline__ void maskScores(float (&s)[kScoreTiles][4], int keyBase, int rowPosition,
                                           int lane) {
#pragma unroll
  for (int n = 0; n < kScoreTiles; ++n) {
    const int key = keyBase + 8 * n + 2 * (lane & 3);
    if (key > rowPosition) s[n][0] = -INFINITY;
    if (key + 1 > rowPosition) s[n][1] = -INFINITY;
    if (key > rowPosition + 8) s[n][2] = -INFINITY;
    if (key + 1 > rowPosition + 8) s[n][3] = -INFINITY;
  }
}

// The online softmax for the thread's two rows (h = 0: row g, h = 1: row g + 8), whose 64 scores are
// spread over the 4 lanes of a quad. rowMax is the running max of the raw scores (the whole quad holds the
// same value); rowSum is this thread's share of the running sum (the quad's shares add up at the end,
// all scaled alike). The scores become P = 2^(scaleLog2 (s - max)) in place, and O is rescaled by
// 2^(scaleLog2 (oldMax - newMax)). A row with no key yet (max -inf) keeps P = 0, O = 0 and sum = 0.
__device__ __forceinline__ void softmaxUpdate(float (&s)[kScoreTiles][4], float (&o)[kOutputTiles][4],
                                              float (&rowMax)[2], float (&rowSum)[2], float scaleLog2) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float tileMax = -INFINITY;
#pragma unroll
    for (int n = 0; n < kScoreTiles; ++n)
      tileMax = fmaxf(tileMax, fmaxf(s[n][2 * h], s[n][2 * h + 1]));
    tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 1));
    tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 2));
    const float newMax = fmaxf(rowMax[h], tileMax);
    // With newMax -inf every score and the old max are -inf: an offset of 0 keeps 2^(-inf - 0) = 0
    // instead of -inf - (-inf) = NaN.
    const float offset = newMax == -INFINITY ? 0.0f : newMax * scaleLog2;
    const float alpha = exp2Approx(rowMax[h] * scaleLog2 - offset);
    rowMax[h] = newMax;
    float tileSum = 0.0f;
#pragma unroll
    for (int n = 0; n < kScoreTiles; ++n) {
      s[n][2 * h] = exp2Approx(fmaf(s[n][2 * h], scaleLog2, -offset));
      s[n][2 * h + 1] = exp2Approx(fmaf(s[n][2 * h + 1], scaleLog2, -offset));
      tileSum += s[n][2 * h] + s[n][2 * h + 1];
    }
    rowSum[h] = rowSum[h] * alpha + tileSum;
#pragma unroll
    for (int n = 0; n < kOutputTiles; ++n) {
      o[n][2 * h] *= alpha;
      o[n][2 * h + 1] *= alpha;
    }
  }
}

// O += P V. The C fragments of key tiles 2k and 2k + 1 are, packed to bf16, the A fragment of keys
// [16k, 16k + 16): a0 = (row g, keys 2t..) of tile 2k, a1 = (row g + 8) of tile 2k, a2, a3 the same of
// tile 2k + 1. Each ldmatrix.trans gives the B fragments of two dim tiles: matrices (keys 0-7, dims 0-7)
// -> b0 and (keys 8-15, dims 0-7) -> b1 of dim tile 2p, (keys 0-7, dims 8-15) and (keys 8-15, dims 8-15)
// of tile 2p + 1.
__device__ __forceinline__ void accumulateValues(float (&o)[kOutputTiles][4],
                                                 const float (&p)[kScoreTiles][4], const bf16* valueTile,
                                                 int lane) {
  const int keyInSlice = (lane & 7) + (((lane >> 3) & 1) << 3);
  const int chunkInPair = lane >> 4;
#pragma unroll
  for (int k = 0; k < kValueSlices; ++k) {
    const unsigned a[4] = {packBf16(p[2 * k][0], p[2 * k][1]), packBf16(p[2 * k][2], p[2 * k][3]),
                           packBf16(p[2 * k + 1][0], p[2 * k + 1][1]),
                           packBf16(p[2 * k + 1][2], p[2 * k + 1][3])};
#pragma unroll
    for (int d = 0; d < kOutputTiles / 2; ++d) {
      unsigned b[4];
      ldmatrixX4Trans(b, sharedAddress(valueTile + swizzled(16 * k + keyInSlice, 2 * d + chunkInPair)));
      mma16816(o[2 * d], a, b[0], b[1]);
      mma16816(o[2 * d + 1], a, b[2], b[3]);
    }
  }
}

// O / row sum in bf16, through the warp's own 16 rows of the Q tile (no other warp reads them, and the
// warp read its Q fragments long before) so that each row goes out in 16-byte stores; rows past rowsHere
// are not written. out row = queryRow + row, columns head * 128 ...
__device__ __forceinline__ void storeOutput(bf16* out, bf16* stage, const float (&o)[kOutputTiles][4],
                                            const float (&rowSum)[2], const TileWork& work, int head,
                                            int numHeads, int warp, int lane) {
  float inverse[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float sum = rowSum[h];
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    inverse[h] = 1.0f / sum;  // every row sees key 0, so sum > 0 once the warp has run a tile
  }
  const int g = lane >> 2;
  const int t = lane & 3;
#pragma unroll
  for (int n = 0; n < kOutputTiles; ++n) {
    *reinterpret_cast<unsigned*>(stage + swizzled(g, n) + 2 * t) =
        packBf16(o[n][0] * inverse[0], o[n][1] * inverse[0]);
    *reinterpret_cast<unsigned*>(stage + swizzled(g + 8, n) + 2 * t) =
        packBf16(o[n][2] * inverse[1], o[n][3] * inverse[1]);
  }
  __syncwarp();
  const std::int64_t outStride = static_cast<std::int64_t>(numHeads) * kHeadDim;
#pragma unroll
  for (int i = 0; i < 16 * kChunks / 32; ++i) {
    const int r = 2 * i + (lane >> 4);
    const int chunk = lane & 15;
    const int row = warp * 16 + r;
    if (row < work.rowsHere)
      *reinterpret_cast<uint4*>(out + (work.queryRow + row) * outStride + head * kHeadDim + chunk * 8) =
          *reinterpret_cast<const uint4*>(stage + swizzled(r, chunk));
  }
}

// Grid: (query head, query tile counted from the last, sequence in seqs). The tiles go heaviest first
// (the last tile of a causal prompt reads the most keys) so that the short ones fill the end of the run.
__global__ void __launch_bounds__(kThreads, 1)
    prefillAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table,
                           const std::int32_t* seqs, int numHeads, LayerKvCache cache, float scaleLog2) {
  extern __shared__ __align__(128) unsigned char sharedBytes[];
  bf16* qTile = reinterpret_cast<bf16*>(sharedBytes);
  bf16* keyTiles = qTile + kQueryTileElements;         // two buffers
  bf16* valueTiles = keyTiles + 2 * kKeyTileElements;  // two buffers

  const int head = blockIdx.x;
  const int tile = gridDim.y - 1 - blockIdx.y;
  const int seq = seqs[blockIdx.z];
  const int queryLen = table.queryLen[seq];
  if (tile * kQueryTile >= queryLen) return;
  TileWork work;
  work.queryRow = table.queryStart[seq] + tile * kQueryTile;
  work.rowsHere = min(kQueryTile, queryLen - tile * kQueryTile);
  work.firstPosition = table.contextLen[seq] - queryLen + tile * kQueryTile;
  work.keyEnd = work.firstPosition + work.rowsHere;
  work.kvHead = head / (numHeads / cache.numKvHeads);
  work.blockTable = table.blockTables + static_cast<std::int64_t>(seq) * table.blockTableStride;
  const int tid = threadIdx.x;
  const int warp = tid >> 5;
  const int lane = tid & 31;

  // The warp's rows: positions [warpFirst, warpLast] of real rows (none when warp * 16 >= rowsHere).
  const bool warpHasRows = warp * 16 < work.rowsHere;
  const int warpFirst = work.firstPosition + warp * 16;
  const int warpLast = work.firstPosition + min(warp * 16 + 15, work.rowsHere - 1);
  const int rowPosition = warpFirst + (lane >> 2);  // of the thread's row g (row g + 8: + 8)

  loadQueryTile(qTile, qkv, qkvStride, head, work, tid);
  cpAsyncCommit();
  loadKeyValueTile<kKeyTile, kThreads>(keyTiles, valueTiles, cache, work.blockTable, work.kvHead, 0,
                                       work.keyEnd, tid);
  cpAsyncCommit();
  cpAsyncWait<1>();  // the Q tile (the K/V tile 0 may still be in flight)
  __syncthreads();
  unsigned q[kQuerySlices][4];
  loadQueryFragments(q, qTile, warp, lane);

  float o[kOutputTiles][4];
#pragma unroll
  for (int n = 0; n < kOutputTiles; ++n)
    o[n][0] = o[n][1] = o[n][2] = o[n][3] = 0.0f;
  float rowMax[2] = {-INFINITY, -INFINITY};
  float rowSum[2] = {0.0f, 0.0f};

  const int keyTileCount = (work.keyEnd + kKeyTile - 1) / kKeyTile;
  for (int k = 0; k < keyTileCount; ++k) {
    // Tile k has landed for every thread, and every warp is done with tile k - 1, whose buffer the
    // next load reuses.
    cpAsyncWait<0>();
    __syncthreads();
    if (k + 1 < keyTileCount) {
      const int next = (k + 1) & 1;
      loadKeyValueTile<kKeyTile, kThreads>(keyTiles + next * kKeyTileElements,
                                           valueTiles + next * kKeyTileElements, cache, work.blockTable,
                                           work.kvHead, (k + 1) * kKeyTile, work.keyEnd, tid);
    }
    cpAsyncCommit();

    const int keyBase = k * kKeyTile;
    if (!warpHasRows || keyBase > warpLast) continue;  // every key of the tile is past the warp's rows
    const bf16* keyTile = keyTiles + (k & 1) * kKeyTileElements;
    const bf16* valueTile = valueTiles + (k & 1) * kKeyTileElements;
    float s[kScoreTiles][4];
    computeScores(s, q, keyTile, lane);
    // Only a tile with a key past the warp's first row needs the mask; keys past keyEnd (zero rows) are
    // past every row's position, so the last tile is always masked.
    if (keyBase + kKeyTile - 1 > warpFirst) maskScores(s, keyBase, rowPosition, lane);
    softmaxUpdate(s, o, rowMax, rowSum, scaleLog2);
    accumulateValues(o, s, valueTile, lane);
  }

  if (warpHasRows)
    storeOutput(out, qTile + warp * 16 * kHeadDim, o, rowSum, work, head, numHeads, warp, lane);
}

}  // namespace

void prefillAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                      const std::int32_t* seqs, int count, int maxQueryLen, int numHeads,
                      const LayerKvCache& cache, Stream stream, PrefillKernel kernel) {
  if (count == 0) return;
  const bool hopper = kernel != PrefillKernel::Portable && hopperPrefillAvailable(cache);
  if (kernel == PrefillKernel::Hopper && !hopper)
    throw Error(
        "prefill attention: the Hopper kernel needs a compute capability 9.0 GPU and a cache whose "
        "block size is a power of two of at least 8, with its block count given");
  if (hopper) {
    detail::prefillAttentionHopper(out, qkv, qkvStride, table, seqs, count, maxQueryLen, numHeads, cache,
                                   stream);
    return;
  }
  static const bool attributeSet = [] {
    return cudaFuncSetAttribute(prefillAttentionKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(kPrefillSharedBytes)) == cudaSuccess;
  }();
  if (!attributeSet)
    throw Error("prefill attention: the device cannot give a block the shared memory it needs");
  const dim3 grid(numHeads, (maxQueryLen + kQueryTile - 1) / kQueryTile, count);
  // Softmax in base 2: e^(x / sqrt(d)) = 2^(x log2(e) / sqrt(d)).
  const float scaleLog2 = static_cast<float>(1.4426950408889634 / std::sqrt(static_cast<double>(kHeadDim)));
  prefillAttentionKernel<<<grid, kThreads, kPrefillSharedBytes, stream>>>(
      asBf16(out), asBf16(qkv), qkvStride, table, seqs, numHeads, cache, scaleLog2);
  checkLaunch("prefillAttention");
}

}  // namespace ayar::engine::cuda
