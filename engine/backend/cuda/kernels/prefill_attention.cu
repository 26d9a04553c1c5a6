// Prefill attention: one block (4 warps) per (64-query tile, query head, sequence). Each warp owns 16
// query rows: S = Q K^T and O += P V on the tensor cores (WMMA bf16, float accumulators), the online
// softmax in shared memory. Keys come in tiles of 64 through the block table.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdint>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

constexpr int kTile = 64;
constexpr int kPadBf16 = kHeadDim + 8;  // row pitch of Q, K, V tiles (bf16)
constexpr int kPadScore = kTile + 4;    // of S (float)
constexpr int kPadProb = kTile + 8;     // of P (bf16)
constexpr int kPadOut = kHeadDim + 4;   // of O (float)
constexpr std::size_t kPrefillSharedBytes =
    3 * kTile * kPadBf16 * sizeof(bf16) + 4 * 16 * kPadScore * sizeof(float) +
    4 * 16 * kPadProb * sizeof(bf16) + kTile * kPadOut * sizeof(float) + 2 * kTile * sizeof(float);

// The stages of prefillAttentionKernel, in the order it runs them (forceinline: the kernel stays one
// function, its registers allocated over all of it).

// Query tile `tile` of a sequence's rows (from queryStart) of one head into qTile (rows past rowsHere
// zero).
__device__ __forceinline__ void loadQueryTile(bf16* qTile, const bf16* qkv, int qkvStride, int queryStart,
                                              int tile, int head, int rowsHere, int tid) {
  for (int c = tid; c < kTile * kHeadDim / 8; c += 128) {
    const int r = c / (kHeadDim / 8);
    const int col = (c % (kHeadDim / 8)) * 8;
    uint4 value = make_uint4(0, 0, 0, 0);
    if (r < rowsHere) {
      value = *reinterpret_cast<const uint4*>(
          qkv + static_cast<std::int64_t>(queryStart + tile * kTile + r) * qkvStride + head * kHeadDim + col);
    }
    *reinterpret_cast<uint4*>(qTile + r * kPadBf16 + col) = value;
  }
}

// Keys and values [keyBase, keyBase + 64) through the block table into their tiles (past keyEnd zero).
__device__ __forceinline__ void loadKeyValueTile(bf16* keyTile, bf16* valueTile, const LayerKvCache& cache,
                                                 const std::int32_t* blockTable, int kvHead, int keyBase,
                                                 int keyEnd, int tid) {
  for (int c = tid; c < kTile * kHeadDim / 8; c += 128) {
    const int r = c / (kHeadDim / 8);
    const int col = (c % (kHeadDim / 8)) * 8;
    const int j = keyBase + r;
    uint4 key = make_uint4(0, 0, 0, 0), value = make_uint4(0, 0, 0, 0);
    if (j < keyEnd) {
      key = *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.key), blockTable, j, cache, kvHead) + col);
      value = *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.value), blockTable, j, cache, kvHead) + col);
    }
    *reinterpret_cast<uint4*>(keyTile + r * kPadBf16 + col) = key;
    *reinterpret_cast<uint4*>(valueTile + r * kPadBf16 + col) = value;
  }
}

// S = Q K^T for a warp's 16 query rows (qRows) against the tile's 64 keys, on the tensor cores.
__device__ __forceinline__ void scoreTile(float* sWarp, const bf16* qRows, const bf16* keyTile) {
  using namespace nvcuda;
  for (int nt = 0; nt < kTile / 16; ++nt) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> s;
    wmma::fill_fragment(s, 0.0f);
#pragma unroll
    for (int kk = 0; kk < kHeadDim / 16; ++kk) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> b;
      wmma::load_matrix_sync(a, qRows + kk * 16, kPadBf16);
      wmma::load_matrix_sync(b, keyTile + nt * 16 * kPadBf16 + kk * 16, kPadBf16);
      wmma::mma_sync(s, a, b, s);
    }
    wmma::store_matrix_sync(sWarp + nt * 16, s, kPadScore, wmma::mem_row_major);
  }
}

// Online softmax of one row's scores, two lanes a row (myHalf: 32 columns each), causal (keys past
// myPosition masked): P in bf16 for the tensor cores, the row's max and sum moved on, and its output so
// far (oRow, this lane's 64 dims) rescaled.
__device__ __forceinline__ void softmaxRow(const float* sRow, bf16* pRow, float& rowMax, float& rowSum,
                                           float* oRow, int keyBase, int myPosition, int myHalf,
                                           float scale) {
  float values[32];
  float localMax = -INFINITY;
#pragma unroll
  for (int c = 0; c < 32; ++c) {
    const int j = keyBase + myHalf * 32 + c;
    float v = sRow[myHalf * 32 + c] * scale;
    if (j > myPosition) v = -INFINITY;
    values[c] = v;
    localMax = fmaxf(localMax, v);
  }
  localMax = fmaxf(localMax, __shfl_xor_sync(0xffffffffu, localMax, 1));
  const float oldMax = rowMax;
  const float newMax = fmaxf(oldMax, localMax);
  const float alpha = newMax == -INFINITY ? 1.0f : __expf(oldMax - newMax);
  float localSum = 0.0f;
#pragma unroll
  for (int c = 0; c < 32; ++c) {
    const float p = values[c] == -INFINITY ? 0.0f : __expf(values[c] - newMax);
    localSum += p;
    pRow[myHalf * 32 + c] = __float2bfloat16(p);
  }
  localSum += __shfl_xor_sync(0xffffffffu, localSum, 1);
  __syncwarp();
  if (myHalf == 0) {
    rowMax = newMax;
    rowSum = rowSum * alpha + localSum;
  }
#pragma unroll 8
  for (int c = 0; c < 64; ++c)
    oRow[c] *= alpha;
}

// O += P V for a warp's 16 rows (oRows, pWarp), on the tensor cores.
__device__ __forceinline__ void accumulateValues(float* oRows, const bf16* pWarp, const bf16* valueTile) {
  using namespace nvcuda;
  for (int nt = 0; nt < kHeadDim / 16; ++nt) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> o;
    float* oPtr = oRows + nt * 16;
    wmma::load_matrix_sync(o, oPtr, kPadOut, wmma::mem_row_major);
#pragma unroll
    for (int kk = 0; kk < kTile / 16; ++kk) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> b;
      wmma::load_matrix_sync(a, pWarp + kk * 16, kPadProb);
      wmma::load_matrix_sync(b, valueTile + kk * 16 * kPadBf16 + nt * 16, kPadBf16);
      wmma::mma_sync(o, a, b, o);
    }
    wmma::store_matrix_sync(oPtr, o, kPadOut, wmma::mem_row_major);
  }
}

__global__ void __launch_bounds__(128)
    prefillAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table,
                           const std::int32_t* seqs, int numHeads, LayerKvCache cache, float scale) {
  extern __shared__ __align__(128) unsigned char sharedBytes[];
  bf16* qTile = reinterpret_cast<bf16*>(sharedBytes);
  bf16* keyTile = qTile + kTile * kPadBf16;
  bf16* valueTile = keyTile + kTile * kPadBf16;
  float* sAll = reinterpret_cast<float*>(valueTile + kTile * kPadBf16);
  bf16* pAll = reinterpret_cast<bf16*>(sAll + 4 * 16 * kPadScore);
  float* oTile = reinterpret_cast<float*>(pAll + 4 * 16 * kPadProb);
  float* rowMax = oTile + kTile * kPadOut;
  float* rowSum = rowMax + kTile;

  const int tile = blockIdx.x;
  const int head = blockIdx.y;
  const int seq = seqs[blockIdx.z];
  const int queryLen = table.queryLen[seq];
  if (tile * kTile >= queryLen) return;
  const int context = table.contextLen[seq];
  const int firstPosition = context - queryLen;
  const int queryStart = table.queryStart[seq];
  const int kvHead = head / (numHeads / cache.numKvHeads);
  const int rowsHere = min(kTile, queryLen - tile * kTile);
  const int keyEnd = firstPosition + tile * kTile + rowsHere;  // the last row's position + 1
  const std::int32_t* blockTable =
      table.blockTables + static_cast<std::int64_t>(seq) * table.blockTableStride;
  const int tid = threadIdx.x;
  const int warp = tid >> 5;
  const int lane = tid & 31;

  loadQueryTile(qTile, qkv, qkvStride, queryStart, tile, head, rowsHere, tid);
  for (int i = tid; i < kTile * kPadOut; i += 128)
    oTile[i] = 0.0f;
  if (tid < kTile) {
    rowMax[tid] = -INFINITY;
    rowSum[tid] = 0.0f;
  }

  float* sWarp = sAll + warp * 16 * kPadScore;
  bf16* pWarp = pAll + warp * 16 * kPadProb;
  const int myRow = lane >> 1;
  const int myHalf = lane & 1;
  const int myPosition = firstPosition + tile * kTile + warp * 16 + myRow;

  for (int keyBase = 0; keyBase < keyEnd; keyBase += kTile) {
    __syncthreads();  // the previous tile's K and V are no longer read
    loadKeyValueTile(keyTile, valueTile, cache, blockTable, kvHead, keyBase, keyEnd, tid);
    __syncthreads();

    scoreTile(sWarp, qTile + warp * 16 * kPadBf16, keyTile);  // each warp its own 16 rows from here
    __syncwarp();

    softmaxRow(sWarp + myRow * kPadScore, pWarp + myRow * kPadProb, rowMax[warp * 16 + myRow],
               rowSum[warp * 16 + myRow], oTile + (warp * 16 + myRow) * kPadOut + myHalf * 64, keyBase,
               myPosition, myHalf, scale);
    __syncwarp();

    accumulateValues(oTile + warp * 16 * kPadOut, pWarp, valueTile);
    __syncwarp();
  }

  const int r = warp * 16 + myRow;
  if (r < rowsHere) {
    const float inverse = 1.0f / rowSum[r];
    bf16* dst = out + static_cast<std::int64_t>(queryStart + tile * kTile + r) * numHeads * kHeadDim +
                head * kHeadDim + myHalf * 64;
    const float* src = oTile + r * kPadOut + myHalf * 64;
    for (int c = 0; c < 64; c += 2)
      *reinterpret_cast<__nv_bfloat162*>(dst + c) =
          __floats2bfloat162_rn(src[c] * inverse, src[c + 1] * inverse);
  }
}

}  // namespace

void prefillAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                      const std::int32_t* seqs, int count, int maxQueryLen, int numHeads,
                      const LayerKvCache& cache, Stream stream) {
  if (count == 0) return;
  static const bool attributeSet = [] {
    return cudaFuncSetAttribute(prefillAttentionKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(kPrefillSharedBytes)) == cudaSuccess;
  }();
  if (!attributeSet)
    throw Error("prefill attention: the device cannot give a block the shared memory it needs");
  const dim3 grid((maxQueryLen + kTile - 1) / kTile, numHeads, count);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
  prefillAttentionKernel<<<grid, 128, kPrefillSharedBytes, stream>>>(asBf16(out), asBf16(qkv), qkvStride,
                                                                     table, seqs, numHeads, cache, scale);
  checkLaunch("prefillAttention");
}

}  // namespace ayar::engine::cuda
