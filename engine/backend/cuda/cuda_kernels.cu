// The CUDA backend's own kernels (see cuda_kernels.h). Memory-bound kernels use 16-byte loads; the
// prefill attention uses the tensor cores through WMMA.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/common/splitmix64.h"
#include "engine/model/weights.h"

namespace ayar::engine::cuda {

namespace {

using bf16 = __nv_bfloat16;

void checkLaunch(const char* what) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    throw Error(std::string("CUDA kernel ") + what + " failed: " + cudaGetErrorString(error));
}

__host__ __device__ inline const bf16* asBf16(const Bf16* p) {
  return reinterpret_cast<const bf16*>(p);
}
__host__ __device__ inline bf16* asBf16(Bf16* p) {
  return reinterpret_cast<bf16*>(p);
}

__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ float warpMax(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Sum over the block (blockDim.x a multiple of 32, at most 1024); every thread gets the result.
__device__ float blockSum(float v, float* scratch) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  v = warpSum(v);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = blockDim.x >> 5;
  v = lane < warps ? scratch[lane] : 0.0f;
  return warpSum(v);
}

__device__ __forceinline__ void unpack8(const uint4& raw, float* out) {
  const __nv_bfloat162* pairs = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 f = __bfloat1622float2(pairs[i]);
    out[2 * i] = f.x;
    out[2 * i + 1] = f.y;
  }
}

// ---------------------------------------------------------------------------------------------------
// Embedding, residual + RMSNorm, SiLU * mul

__global__ void embedRowsKernel(float* residual, const bf16* embedding, const std::int32_t* tokens,
                                int hidden) {
  const std::int64_t row = blockIdx.x;
  const bf16* src = embedding + static_cast<std::int64_t>(tokens[row]) * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x)
    residual[row * hidden + i] = __bfloat162float(src[i]);
}

__global__ void addRmsNormKernel(bf16* out, float* residual, const bf16* add, const bf16* weight,
                                 const std::int32_t* rowIndex, int hidden, float eps) {
  __shared__ float scratch[32];
  const std::int64_t outRow = blockIdx.x;
  const std::int64_t row = rowIndex ? rowIndex[outRow] : outRow;
  float* x = residual + row * hidden;
  float sumSquares = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float v = x[i];
    if (add) {
      v += __bfloat162float(add[row * hidden + i]);
      x[i] = v;
    }
    sumSquares += v * v;
  }
  const float scale = rsqrtf(blockSum(sumSquares, scratch) / hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x)
    out[outRow * hidden + i] = __float2bfloat16(x[i] * scale * __bfloat162float(weight[i]));
}

__global__ void siluMulKernel(bf16* out, const bf16* gateUp, int intermediate) {
  const std::int64_t row = blockIdx.y;
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i >= intermediate) return;
  const bf16* gate = gateUp + row * 2 * intermediate;
  float g[8], u[8];
  unpack8(*reinterpret_cast<const uint4*>(gate + i), g);
  unpack8(*reinterpret_cast<const uint4*>(gate + intermediate + i), u);
  __align__(16) bf16 result[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    result[j] = __float2bfloat16(g[j] / (1.0f + __expf(-g[j])) * u[j]);
  *reinterpret_cast<uint4*>(out + row * intermediate + i) = *reinterpret_cast<const uint4*>(result);
}

// ---------------------------------------------------------------------------------------------------
// RoPE table, q/k norm + RoPE + KV write

__global__ void ropeTableKernel(float* cosines, float* sines, int maxPositions, int half, double theta) {
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<std::int64_t>(maxPositions) * half) return;
  const int position = static_cast<int>(index / half);
  const int i = static_cast<int>(index % half);
  const double inverseFrequency = pow(theta, -2.0 * i / (2 * half));
  const double angle = position * inverseFrequency;
  cosines[index] = static_cast<float>(cos(angle));
  sines[index] = static_cast<float>(sin(angle));
}

// A warp holds one head, lane l elements [4l, 4l + 4), whose rotary partners sit in lane l ^ 16: RMS-norms
// the head (times norm) and rotates it (NeoX halves) by the position's cos and sin rows.
__device__ __forceinline__ void normRopeHead(float (&v)[4], const bf16* norm, const float* cosRow,
                                             const float* sinRow, int lane, float eps) {
  constexpr int kHalf = kHeadDim / 2;
  const int first = lane * 4;
  const int pair = first % kHalf;  // index of this lane's first element within its half
  const bool upper = first >= kHalf;
  const float sumSquares = warpSum(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
  const float scale = rsqrtf(sumSquares / kHeadDim + eps);
#pragma unroll
  for (int j = 0; j < 4; ++j)
    v[j] = v[j] * scale * __bfloat162float(norm[first + j]);
  float partner[4];
#pragma unroll
  for (int j = 0; j < 4; ++j)
    partner[j] = __shfl_xor_sync(0xffffffffu, v[j], 16);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    // lower half: x1 cos - x2 sin; upper half: x2 cos + x1 sin (x1 is the partner there)
    v[j] = upper ? v[j] * cosRow[pair + j] + partner[j] * sinRow[pair + j]
                 : v[j] * cosRow[pair + j] - partner[j] * sinRow[pair + j];
  }
}

// A head of 128 values in a warp: lane l holds elements [4l, 4l + 4).
__device__ __forceinline__ void loadHead4(float (&v)[4], const bf16* head, int lane) {
  const __nv_bfloat162* in = reinterpret_cast<const __nv_bfloat162*>(head + lane * 4);
  const float2 a = __bfloat1622float2(in[0]);
  const float2 b = __bfloat1622float2(in[1]);
  v[0] = a.x;
  v[1] = a.y;
  v[2] = b.x;
  v[3] = b.y;
}

__device__ __forceinline__ uint2 packHead4(const float (&v)[4]) {
  __align__(8)
      __nv_bfloat162 packed[2] = {__floats2bfloat162_rn(v[0], v[1]), __floats2bfloat162_rn(v[2], v[3])};
  return *reinterpret_cast<const uint2*>(packed);
}

// One warp per head of a row.
__global__ void qkNormRopeKvWriteKernel(bf16* qkv, const bf16* qNorm, const bf16* kNorm, const float* cosines,
                                        const float* sines, const std::int32_t* positions,
                                        const std::int32_t* slots, int numHeads, LayerKvCache cache,
                                        float eps) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = blockDim.x >> 5;
  const std::int64_t row = blockIdx.x;
  const int kvHeads = cache.numKvHeads;
  const int qkvStride = (numHeads + 2 * kvHeads) * kHeadDim;
  bf16* rowData = qkv + row * qkvStride;
  const std::int64_t rope = static_cast<std::int64_t>(positions[row]) * (kHeadDim / 2);
  const std::int64_t slot = slots[row];
  const std::int64_t block = slot / cache.blockSize;
  const int offset = static_cast<int>(slot % cache.blockSize);

  for (int head = warp; head < numHeads + 2 * kvHeads; head += warps) {
    bf16* data = rowData + head * kHeadDim;
    float v[4];
    loadHead4(v, data, lane);
    const bool isValue = head >= numHeads + kvHeads;
    if (!isValue) normRopeHead(v, head < numHeads ? qNorm : kNorm, cosines + rope, sines + rope, lane, eps);
    bf16* dst;
    if (head < numHeads) {
      dst = data + lane * 4;
    } else {
      const int kvHead = isValue ? head - numHeads - kvHeads : head - numHeads;
      bf16* base = asBf16(isValue ? cache.value : cache.key);
      dst = base + ((block * kvHeads + kvHead) * cache.blockSize + offset) * kHeadDim + lane * 4;
    }
    *reinterpret_cast<uint2*>(dst) = packHead4(v);
  }
}

// ---------------------------------------------------------------------------------------------------
// Decode attention, one launch: one block of 128 threads per (KV head, sequence, split). The split's
// keys come in tiles of 64 through cp.async into shared memory, K and V of a tile together and the next
// tile loading while this one is used, with an online softmax: the KV head's pages are read once for all
// its G query heads, with one global-memory latency per tile. Scores: a half-warp per key (16 lanes x 8
// dims, q in registers); P V: a thread per pair of dims and half of the tile's keys. With several splits
// each block writes its partial (unnormalised output, max, sum) and the last block of a (sequence, KV
// head) to finish, counted by an atomic, merges them. With rope set the block also does
// qkNormRopeKvWrite's work for its sequence's new token: its q heads are normed and rotated on the way
// in, and the split holding the last position writes the new K and V to the cache (and into its tile).

constexpr int kDecodeThreads = 128;
constexpr int kDecodeTile = 64;
constexpr int kDecodeSlice = 16;  // partitions are multiples of it: short contexts spread over more blocks
constexpr int kDecodePitch = kHeadDim + 8;  // bf16 row pitch of the tiles: 272 bytes, no bank conflicts
constexpr std::size_t kDecodeTileBytes =
    2 * 2 * kDecodeTile * kDecodePitch * sizeof(bf16);  // 2 stages, K and V

__device__ __forceinline__ const bf16* kvRow(const bf16* base, const std::int32_t* blockTable, int j,
                                             const LayerKvCache& cache, int kvHead) {
  const std::int64_t block = blockTable[j / cache.blockSize];
  const int offset = j % cache.blockSize;
  return base + ((block * cache.numKvHeads + kvHead) * cache.blockSize + offset) * kHeadDim;
}

__device__ __forceinline__ void cpAsync16(void* sharedDst, const void* globalSrc) {
  const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(sharedDst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(globalSrc));
}
__device__ __forceinline__ void cpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N>
__device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

template <int G>
__global__ void __launch_bounds__(kDecodeThreads)
    decodeAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table, const std::int32_t* seqs,
                          int numHeads, LayerKvCache cache, int splits, float* partials, unsigned* counters,
                          DecodeRope rope, float scale) {
  extern __shared__ __align__(16) unsigned char decodeShared[];
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
  int partition = (context + splits - 1) / splits;
  partition = (partition + kDecodeSlice - 1) / kDecodeSlice * kDecodeSlice;
  const int begin = min(context, split * partition);
  const int end = min(context, begin + partition);
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
  auto issue = [&](int t) {
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
  };
  // The first tile's keys and values were written by earlier steps (the new token's slot is replaced
  // once it lands), so its loads go out before the programmatic wait: launched as a dependent of the
  // kernel before it, the block starts while that one finishes. The next kernel may start now too.
  asm volatile("griddepcontrol.launch_dependents;");
  if (tileCount > 0) issue(0);
  asm volatile("griddepcontrol.wait;" ::: "memory");

  // Query heads, scaled by 1 / sqrt(headDim) (normed and rotated here with rope), through shared memory
  // into the score layout: lane16 holds dims [8 lane16, 8 lane16 + 8) of every head.
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
  // The new token's K (normed, rotated) and V: to the cache now, and into the tile once it has landed.
  uint2 newKey = make_uint2(0, 0), newValue = make_uint2(0, 0);
  if (holdsNew && warp == 0) {
    const int kvHeads = cache.numKvHeads;
    float k[4], v[4];
    loadHead4(k, qRow + (numHeads + kvHead) * kHeadDim, lane);
    loadHead4(v, qRow + (numHeads + kvHeads + kvHead) * kHeadDim, lane);
    const std::int64_t at = static_cast<std::int64_t>(position) * (kHeadDim / 2);
    normRopeHead(k, asBf16(rope.kNorm), rope.cosines + at, rope.sines + at, lane, rope.eps);
    newKey = packHead4(k);
    newValue = packHead4(v);
    const std::int64_t slot = kvRow(key, blockTable, position, cache, kvHead) - key + lane * 4;
    *reinterpret_cast<uint2*>(asBf16(cache.key) + slot) = newKey;
    *reinterpret_cast<uint2*>(asBf16(cache.value) + slot) = newValue;
  }
  if (tid < G) {
    runMax[tid] = -INFINITY;
    runSum[tid] = 0.0f;
  }
  __syncthreads();
  const int lane16 = tid & 15;
  float q[G][8];
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int d = 0; d < 8; ++d)
      q[g][d] = exchange[g * kHeadDim + lane16 * 8 + d];

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

    // Scores: half-warp h takes keys h, h + 8, ... up to `valid` rounded up to 8 (every lane of a warp
    // takes part in the shuffles, so the rows past `valid` are computed but not kept).
    const int scored = (valid + 7) / 8 * 8;
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
    __syncthreads();

    // Online softmax, a warp per head.
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
    __syncthreads();

    // O = O alpha + P V
#pragma unroll
    for (int g = 0; g < G; ++g) {
      acc[g][0] *= rescale[g];
      acc[g][1] *= rescale[g];
    }
    for (int j = keyHalf; j < valid; j += 2) {
      const float2 v = __bfloat1622float2(
          *reinterpret_cast<const __nv_bfloat162*>(valueTile + j * kDecodePitch + 2 * pair));
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const float p = probs[g * kDecodeTile + j];
        acc[g][0] += p * v.x;
        acc[g][1] += p * v.y;
      }
    }
    __syncthreads();  // the next iteration refills this stage and the scores
  }

  // The two key halves meet (after every thread has read its q from the exchange).
  __syncthreads();
  if (keyHalf == 1) {
#pragma unroll
    for (int g = 0; g < G; ++g) {
      exchange[g * kHeadDim + 2 * pair] = acc[g][0];
      exchange[g * kHeadDim + 2 * pair + 1] = acc[g][1];
    }
  }
  __syncthreads();
  const std::int64_t outRow = static_cast<std::int64_t>(row) * numHeads * kHeadDim;
  if (splits == 1) {
    if (keyHalf == 0) {
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const float inverse = 1.0f / runSum[g];
        *reinterpret_cast<__nv_bfloat162*>(out + outRow + (kvHead * G + g) * kHeadDim + 2 * pair) =
            __floats2bfloat162_rn((acc[g][0] + exchange[g * kHeadDim + 2 * pair]) * inverse,
                                  (acc[g][1] + exchange[g * kHeadDim + 2 * pair + 1]) * inverse);
      }
    }
    return;
  }

  // Layout of partials: [seq][head][split][128 + 2] (output, then max and sum).
  constexpr int kPartial = kHeadDim + 2;
  float* mine =
      partials + ((static_cast<std::int64_t>(index) * numHeads + kvHead * G) * splits + split) * kPartial;
  const std::int64_t headStride = static_cast<std::int64_t>(splits) * kPartial;
  if (keyHalf == 0) {
#pragma unroll
    for (int g = 0; g < G; ++g) {
      mine[g * headStride + 2 * pair] = acc[g][0] + exchange[g * kHeadDim + 2 * pair];
      mine[g * headStride + 2 * pair + 1] = acc[g][1] + exchange[g * kHeadDim + 2 * pair + 1];
    }
  }
  if (tid < G) {
    mine[tid * headStride + kHeadDim] = runMax[tid];  // -inf for an empty split
    mine[tid * headStride + kHeadDim + 1] = runSum[tid];
  }
  __threadfence();
  __syncthreads();
  unsigned* counter = counters + static_cast<std::int64_t>(index) * cache.numKvHeads + kvHead;
  if (tid == 0) lastBlock = atomicAdd(counter, 1u) == static_cast<unsigned>(splits - 1);
  __syncthreads();
  if (!lastBlock) return;
  __threadfence();
  // The last block of this (sequence, KV head) merges every split's partial, read from L2 in one pass: a
  // warp per head, 4 dims a lane, the loads of 8 splits (outputs, maxima and sums) in flight at once and
  // folded in with a running maximum, so the merge costs one round trip per 8 splits.
  const float* heads = partials + (static_cast<std::int64_t>(index) * numHeads + kvHead * G) * headStride;
  constexpr int kMergeBatch = 8;
  for (int g = warp; g < G; g += kDecodeThreads / 32) {
    const float* p = heads + g * headStride;
    float runningMax = -INFINITY, total = 0.0f;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int first = 0; first < splits; first += kMergeBatch) {
      float maxima[kMergeBatch], sums[kMergeBatch];
      float2 lo[kMergeBatch], hi[kMergeBatch];
#pragma unroll
      for (int u = 0; u < kMergeBatch; ++u) {
        const float* part = p + (first + u) * kPartial;  // 8-byte aligned: kPartial is even
        const bool present = first + u < splits;
        maxima[u] = present ? __ldcg(part + kHeadDim) : -INFINITY;
        sums[u] = present ? __ldcg(part + kHeadDim + 1) : 0.0f;
        lo[u] = present ? __ldcg(reinterpret_cast<const float2*>(part + lane * 4)) : make_float2(0.0f, 0.0f);
        hi[u] =
            present ? __ldcg(reinterpret_cast<const float2*>(part + lane * 4 + 2)) : make_float2(0.0f, 0.0f);
      }
      float batchMax = runningMax;
#pragma unroll
      for (int u = 0; u < kMergeBatch; ++u)
        batchMax = sums[u] > 0.0f ? fmaxf(batchMax, maxima[u]) : batchMax;  // empty splits: -inf, 0
      if (batchMax == -INFINITY) continue;
      const float keep = __expf(runningMax - batchMax);  // 0 while nothing was added
      total *= keep;
      sum.x *= keep;
      sum.y *= keep;
      sum.z *= keep;
      sum.w *= keep;
#pragma unroll
      for (int u = 0; u < kMergeBatch; ++u) {
        const float weight = sums[u] > 0.0f ? __expf(maxima[u] - batchMax) : 0.0f;
        total += sums[u] * weight;
        sum.x += lo[u].x * weight;
        sum.y += lo[u].y * weight;
        sum.z += hi[u].x * weight;
        sum.w += hi[u].y * weight;
      }
      runningMax = batchMax;
    }
    const float inverse = 1.0f / total;
    __nv_bfloat162* dst =
        reinterpret_cast<__nv_bfloat162*>(out + outRow + (kvHead * G + g) * kHeadDim + lane * 4);
    dst[0] = __floats2bfloat162_rn(sum.x * inverse, sum.y * inverse);
    dst[1] = __floats2bfloat162_rn(sum.z * inverse, sum.w * inverse);
  }
  if (tid == 0) *counter = 0u;  // ready for the next launch
}

// A launch configuration whose kernel may start while the one before it on the stream finishes, when
// overlapPrevious is set (programmatic dependent launch; the kernel waits with griddepcontrol.wait
// before it touches anything that one wrote). The attribute lives in the returned object.
struct LaunchConfig {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attribute{};

  LaunchConfig(dim3 grid, dim3 block, std::size_t sharedBytes, Stream stream, bool overlapPrevious) {
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = sharedBytes;
    config.stream = stream;
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = overlapPrevious ? 1 : 0;
  }
  LaunchConfig(const LaunchConfig&) = delete;
  LaunchConfig& operator=(const LaunchConfig&) = delete;
};

void checkLaunchResult(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    throw Error(std::string("CUDA kernel ") + what + " failed: " + cudaGetErrorString(error));
  checkLaunch(what);
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

// ---------------------------------------------------------------------------------------------------
// Prefill attention: one block (4 warps) per (64-query tile, query head, sequence). Each warp owns 16
// query rows: S = Q K^T and O += P V on the tensor cores (WMMA bf16, float accumulators), the online
// softmax in shared memory. Keys come in tiles of 64 through the block table.

constexpr int kTile = 64;
constexpr int kPadBf16 = kHeadDim + 8;  // row pitch of Q, K, V tiles (bf16)
constexpr int kPadScore = kTile + 4;    // of S (float)
constexpr int kPadProb = kTile + 8;     // of P (bf16)
constexpr int kPadOut = kHeadDim + 4;   // of O (float)
constexpr std::size_t kPrefillSharedBytes =
    3 * kTile * kPadBf16 * sizeof(bf16) + 4 * 16 * kPadScore * sizeof(float) +
    4 * 16 * kPadProb * sizeof(bf16) + kTile * kPadOut * sizeof(float) + 2 * kTile * sizeof(float);

__global__ void __launch_bounds__(128)
    prefillAttentionKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table,
                           const std::int32_t* seqs, int numHeads, LayerKvCache cache, float scale) {
  using namespace nvcuda;
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
    for (int c = tid; c < kTile * kHeadDim / 8; c += 128) {
      const int r = c / (kHeadDim / 8);
      const int col = (c % (kHeadDim / 8)) * 8;
      const int j = keyBase + r;
      uint4 key = make_uint4(0, 0, 0, 0), value = make_uint4(0, 0, 0, 0);
      if (j < keyEnd) {
        key = *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.key), blockTable, j, cache, kvHead) + col);
        value =
            *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.value), blockTable, j, cache, kvHead) + col);
      }
      *reinterpret_cast<uint4*>(keyTile + r * kPadBf16 + col) = key;
      *reinterpret_cast<uint4*>(valueTile + r * kPadBf16 + col) = value;
    }
    __syncthreads();

    // S = Q K^T for this warp's 16 rows.
    for (int nt = 0; nt < kTile / 16; ++nt) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> s;
      wmma::fill_fragment(s, 0.0f);
#pragma unroll
      for (int kk = 0; kk < kHeadDim / 16; ++kk) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> b;
        wmma::load_matrix_sync(a, qTile + warp * 16 * kPadBf16 + kk * 16, kPadBf16);
        wmma::load_matrix_sync(b, keyTile + nt * 16 * kPadBf16 + kk * 16, kPadBf16);
        wmma::mma_sync(s, a, b, s);
      }
      wmma::store_matrix_sync(sWarp + nt * 16, s, kPadScore, wmma::mem_row_major);
    }
    __syncwarp();

    // Online softmax: two lanes per row, 32 columns each.
    float values[32];
    float localMax = -INFINITY;
#pragma unroll
    for (int c = 0; c < 32; ++c) {
      const int j = keyBase + myHalf * 32 + c;
      float v = sWarp[myRow * kPadScore + myHalf * 32 + c] * scale;
      if (j > myPosition) v = -INFINITY;
      values[c] = v;
      localMax = fmaxf(localMax, v);
    }
    localMax = fmaxf(localMax, __shfl_xor_sync(0xffffffffu, localMax, 1));
    const float oldMax = rowMax[warp * 16 + myRow];
    const float newMax = fmaxf(oldMax, localMax);
    const float alpha = newMax == -INFINITY ? 1.0f : __expf(oldMax - newMax);
    float localSum = 0.0f;
#pragma unroll
    for (int c = 0; c < 32; ++c) {
      const float p = values[c] == -INFINITY ? 0.0f : __expf(values[c] - newMax);
      localSum += p;
      pWarp[myRow * kPadProb + myHalf * 32 + c] = __float2bfloat16(p);
    }
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 1);
    __syncwarp();
    if (myHalf == 0) {
      rowMax[warp * 16 + myRow] = newMax;
      rowSum[warp * 16 + myRow] = rowSum[warp * 16 + myRow] * alpha + localSum;
    }
    float* oRow = oTile + (warp * 16 + myRow) * kPadOut + myHalf * 64;
#pragma unroll 8
    for (int c = 0; c < 64; ++c)
      oRow[c] *= alpha;
    __syncwarp();

    // O += P V
    for (int nt = 0; nt < kHeadDim / 16; ++nt) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> o;
      float* oPtr = oTile + warp * 16 * kPadOut + nt * 16;
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

// ---------------------------------------------------------------------------------------------------
// GEMV for up to 8 rows, split-K inside the block: each output feature's weight row is split along k
// over W warps, merged through shared memory (so no second kernel), and a block holds 2 features
// (NormedSiluMul: the gate and the up row of one). Loads are 16 bytes a lane, 4 at a time (a batch
// covers 1,024 elements a warp). When a row is at most 8 batches long, W is its number of batches and
// each warp makes one batch of loads, all in flight at once: one round trip a block, and no second set
// of registers (qwen3-14b's k of 5,120 takes 5 warps instead of 4 warps with a quarter batch after the
// first). Rows of 9 to 16 batches (except NormedSiluMul's) do the same with one feature a block
// (qwen3-8b's down projection, k of 12,288: 12 warps of one batch each, not 4 warps looping over three).
// Longer rows take 4 warps that loop over their batches, the next batch's loads issued before the
// current one is used. x comes through L1.
//
// The one-batch forms run in waves of blocks, and the last wave's blocks finish one by one while the
// memory idles (qwen3-8b's o projection: 2,048 blocks, several waves). So where rows of 2 to 8 batches are
// few enough that one looping warp a row puts every row on the GPU at once (by the occupancy of that
// form, queried at its first launch), each row gets one warp that streams it, 4 rows a block: one wave,
// no tail (qwen3-8b's o projection). Rows that do not all fit at once (qwen3-8b's qkv projection, 6,144
// rows) stay in the one-batch form: there the looping form would run in waves too, and is the slower.
//
// The weights never depend on the kernel before, so a block issues its first weight loads before
// griddepcontrol.wait: launched as a programmatic dependent, the blocks that fit beside the kernel before
// it stream their weights while that one finishes (the backend does so where a GEMV follows a GEMV; see
// DecodeOverlap in cuda_backend.h). What the epilogue reads from earlier kernels is loaded right after
// the wait, under the weight stream, not after the reduction.
//
// The same kernel carries the work around the GEMVs of the decode path at 1-2 rows (see
// gemvNormed in cuda_kernels.h): the RMSNorm before a GEMV is split in two, the producer of the residual
// stream writes residual * norm weight in bf16 and adds the row's sum of squares into a double, and the
// consumer multiplies its dot products by the RMS scale, a per-row factor. So x is a plain bf16 row for
// every GEMV, and the epilogues are a few flops per output.

enum class GemvMode { Plain, Normed, NormedSiluMul, AddResidualNormed };

struct GemvArgs {
  const bf16* x = nullptr;                 // [rows, k]; Normed*: the weighted rows
  const bf16* w = nullptr;                 // [n, k]; NormedSiluMul: [2 n, k], gate rows then up rows
  const std::int32_t* rowIndex = nullptr;  // Normed: the input row of output row m (null: m)
  const double* sumSquares = nullptr;      // Normed*: per input row
  float eps = 0.0f;
  float* residual = nullptr;       // AddResidualNormed: [rows, n]
  bf16* weighted = nullptr;        // AddResidualNormed: [rows, n], written
  const bf16* nextNorm = nullptr;  // AddResidualNormed: [n]
  double* accumulate = nullptr;    // AddResidualNormed: [rows], the new rows' sums of squares added
  double* clear = nullptr;         // AddResidualNormed: [rows], set to zero
  int n = 0, k = 0;
  int warps = 0;   // per feature
  int groups = 0;  // features a block (NormedSiluMul: 2, its gate and up rows)
  int span = 0;    // elements of a row per warp, a multiple of 8
};

constexpr int kGemvLoads = 4;                    // 16-byte loads a lane in a batch
constexpr int kGemvBatch = 32 * 8 * kGemvLoads;  // elements a warp covers per batch
constexpr int kGemvOneBatchWarps = 8;            // rows of up to 8 batches: one batch a warp, 2 rows a block
constexpr int kGemvWideWarps = 16;               // up to 16 batches: one batch a warp, a row a block
constexpr int kGemvLoopWarps = 4;                // longer rows: 4 warps, looping, 2 rows a block
constexpr int kGemvRowWarpRows = 4;              // a warp a row, looping: 4 rows a block
constexpr int kGemvGroups = 2;                   // features a block in the other forms
constexpr int kGemvMaxThreads = 32 * kGemvWideWarps;

template <typename T>
__device__ __forceinline__ T fromFloat(float v);
template <>
__device__ __forceinline__ float fromFloat<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ bf16 fromFloat<bf16>(float v) {
  return __float2bfloat16(v);
}

__device__ __forceinline__ float rmsScale(const double* sumSquares, int row, int k, float eps) {
  return rsqrtf(static_cast<float>(sumSquares[row] / k) + eps);
}

template <int M, typename OutT, GemvMode Mode, bool kLoop>
__global__ void __launch_bounds__(kGemvMaxThreads) gemvKernel(OutT* y, GemvArgs a) {
  __shared__ float partial[kGemvMaxThreads / 32][M];
  __shared__ float squares[kGemvMaxThreads / 32][M];
  constexpr bool kSilu = Mode == GemvMode::NormedSiluMul;
  const int warp = threadIdx.x >> 5;
  const int lane = threadIdx.x & 31;
  const int group = warp / a.warps;  // the block's feature (NormedSiluMul: 0 gate, 1 up)
  const int part = warp % a.warps;   // the warp's share of the row
  const int feature = kSilu ? static_cast<int>(blockIdx.x) : static_cast<int>(blockIdx.x) * a.groups + group;
  const bool active = feature < a.n;
  const std::int64_t weightRow = kSilu ? static_cast<std::int64_t>(group) * a.n + feature : feature;
  const int kBegin = part * a.span;
  const int kEnd = min(a.k, kBegin + a.span);
  const uint4* row = reinterpret_cast<const uint4*>(a.w + (active ? weightRow : 0) * a.k);
  constexpr int kStep = 32 * 8;  // elements a warp covers per load
  uint4 next[kGemvLoads];
  auto load = [&](int base) {
#pragma unroll
    for (int u = 0; u < kGemvLoads; ++u) {
      const int i = base + u * kStep;
      next[u] = active && i < kEnd ? __ldcs(row + i / 8) : make_uint4(0, 0, 0, 0);
    }
  };
  int base = kBegin + lane * 8;
  load(base);
  asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("griddepcontrol.wait;" ::: "memory");

  // What the epilogue reads from the kernels before is fetched now, under the weight stream.
  const bool writes = kSilu ? warp == 0 && lane < M && active : part == 0 && lane < M && active;
  float scale = 1.0f, residualValue = 0.0f, normValue = 0.0f;
  if (writes) {
    if constexpr (Mode == GemvMode::Normed || kSilu)
      scale = rmsScale(a.sumSquares, Mode == GemvMode::Normed && a.rowIndex ? a.rowIndex[lane] : lane, a.k,
                       a.eps);
    if constexpr (Mode == GemvMode::AddResidualNormed) {
      residualValue = a.residual[static_cast<std::int64_t>(lane) * a.n + feature];
      normValue = __bfloat162float(a.nextNorm[feature]);
    }
  }

  const bf16* xRows[M];
#pragma unroll
  for (int m = 0; m < M; ++m) {
    const int r = Mode == GemvMode::Normed && a.rowIndex ? a.rowIndex[m] : m;
    xRows[m] = a.x + static_cast<std::int64_t>(r) * a.k;
  }
  float acc[M];
#pragma unroll
  for (int m = 0; m < M; ++m)
    acc[m] = 0.0f;
  auto consume = [&](const uint4(&raw)[kGemvLoads], int at) {
#pragma unroll
    for (int u = 0; u < kGemvLoads; ++u) {
      const int i = at + u * kStep;
      if (i >= kEnd) break;
      float wv[8];
      unpack8(raw[u], wv);
#pragma unroll
      for (int m = 0; m < M; ++m) {
        float xv[8];
        unpack8(__ldg(reinterpret_cast<const uint4*>(xRows[m] + i)), xv);
#pragma unroll
        for (int d = 0; d < 8; ++d)
          acc[m] += wv[d] * xv[d];
      }
    }
  };
  if constexpr (kLoop) {
    for (; base < kEnd; base += kGemvBatch) {
      uint4 raw[kGemvLoads];
#pragma unroll
      for (int u = 0; u < kGemvLoads; ++u)
        raw[u] = next[u];
      if (base + kGemvBatch < kEnd) load(base + kGemvBatch);
      consume(raw, base);
    }
  } else {
    consume(next, base);
  }
#pragma unroll
  for (int m = 0; m < M; ++m) {
    const float total = warpSum(acc[m]);
    if (lane == 0) partial[warp][m] = total;
  }
  __syncthreads();
  auto sumOf = [&](int firstWarp, int m) {
    float total = 0.0f;
    for (int q = 0; q < a.warps; ++q)
      total += partial[firstWarp + q][m];
    return total;
  };

  if constexpr (Mode == GemvMode::AddResidualNormed) {
    if (blockIdx.x == 0 && threadIdx.x < M) a.clear[threadIdx.x] = 0.0;
    if (part == 0 && lane < M) {
      float square = 0.0f;
      if (writes) {
        const std::int64_t at = static_cast<std::int64_t>(lane) * a.n + feature;
        const float value = residualValue + sumOf(warp, lane);
        a.residual[at] = value;
        a.weighted[at] = __float2bfloat16(value * normValue);
        square = value * value;
      }
      squares[group][lane] = square;
    }
    __syncthreads();
    if (threadIdx.x < M) {
      float total = 0.0f;
      for (int g = 0; g < a.groups; ++g)
        total += squares[g][threadIdx.x];
      atomicAdd(a.accumulate + threadIdx.x, static_cast<double>(total));
    }
  } else if constexpr (kSilu) {
    if (writes) {
      const float gate = sumOf(0, lane) * scale;
      const float up = sumOf(a.warps, lane) * scale;
      y[static_cast<std::int64_t>(lane) * a.n + feature] =
          fromFloat<OutT>(gate / (1.0f + __expf(-gate)) * up);
    }
  } else {
    if (writes)
      y[static_cast<std::int64_t>(lane) * a.n + feature] = fromFloat<OutT>(sumOf(warp, lane) * scale);
  }
}

// Blocks of the looping kernel at kGemvRowWarpRows rows a block that the whole GPU holds at once.
template <int M, typename OutT, GemvMode Mode>
int rowWarpCapacity() {
  static const int capacity = [] {
    int device = 0, multiprocessors = 0, perMultiprocessor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, gemvKernel<M, OutT, Mode, true>,
                                                      32 * kGemvRowWarpRows, 0) != cudaSuccess) {
      cudaGetLastError();  // not a launch's error: the one-batch form then
      return 0;
    }
    return multiprocessors * perMultiprocessor;
  }();
  return capacity;
}

template <int M, typename OutT, GemvMode Mode>
cudaError_t startGemv(OutT* y, GemvArgs a, Launch mode, Stream stream) {
  const int batches = (a.k + kGemvBatch - 1) / kGemvBatch;
  const bool wide =
      Mode != GemvMode::NormedSiluMul && batches > kGemvOneBatchWarps && batches <= kGemvWideWarps;
  bool loop = batches > kGemvOneBatchWarps && !wide;
  a.warps = loop ? kGemvLoopWarps : batches;
  a.groups = wide ? 1 : kGemvGroups;
  a.span = loop ? (a.k / kGemvLoopWarps + 7) / 8 * 8 : kGemvBatch;
  if (Mode != GemvMode::NormedSiluMul && batches >= 2 && batches <= kGemvOneBatchWarps &&
      (a.n + kGemvRowWarpRows - 1) / kGemvRowWarpRows <= rowWarpCapacity<M, OutT, Mode>()) {
    loop = true;  // a warp a row, every row resident at once
    a.warps = 1;
    a.groups = kGemvRowWarpRows;
    a.span = a.k;
  }
  const int blocks = Mode == GemvMode::NormedSiluMul ? a.n : (a.n + a.groups - 1) / a.groups;
  LaunchConfig launch(dim3(static_cast<unsigned>(blocks)),
                      dim3(static_cast<unsigned>(32 * a.warps * a.groups)), 0, stream,
                      mode == Launch::Dependent);
  return loop ? cudaLaunchKernelEx(&launch.config, gemvKernel<M, OutT, Mode, true>, y, a)
              : cudaLaunchKernelEx(&launch.config, gemvKernel<M, OutT, Mode, false>, y, a);
}

template <typename OutT, GemvMode Mode>
void launchGemv(OutT* y, GemvArgs a, int rows, Launch mode, Stream stream) {
  constexpr int kMostRows = Mode == GemvMode::Plain ? kGemvMaxRows : kGemvFusedRows;
  if (rows < 1 || rows > kMostRows || a.k <= 0 || a.k % 8 != 0)
    throw Error("gemv: rows must be 1.." + std::to_string(kMostRows) + " and k a positive multiple of 8");
  cudaError_t error = cudaErrorInvalidValue;
  switch (rows) {
#define AYAR_GEMV_CASE(M)                                                               \
  case M:                                                                               \
    if constexpr (M <= kMostRows) error = startGemv<M, OutT, Mode>(y, a, mode, stream); \
    break;
    AYAR_GEMV_CASE(1)
    AYAR_GEMV_CASE(2)
    AYAR_GEMV_CASE(3)
    AYAR_GEMV_CASE(4)
    AYAR_GEMV_CASE(5)
    AYAR_GEMV_CASE(6)
    AYAR_GEMV_CASE(7)
    AYAR_GEMV_CASE(8)
#undef AYAR_GEMV_CASE
  }
  checkLaunchResult(error, "gemv");
}

// The embedding of a decode-path step: residual = the token's row, weighted = bf16(residual * norm),
// sumSquares = the row's sum of squares, clear = 0. One block per row.
__global__ void embedRowsNormedKernel(float* residual, bf16* weighted, double* sumSquares, double* clear,
                                      const bf16* embedding, const std::int32_t* tokens, const bf16* norm,
                                      int hidden) {
  __shared__ float scratch[32];
  const std::int64_t row = blockIdx.x;
  const bf16* src = embedding + static_cast<std::int64_t>(tokens[row]) * hidden;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float v = __bfloat162float(src[i]);
    residual[row * hidden + i] = v;
    weighted[row * hidden + i] = __float2bfloat16(v * __bfloat162float(norm[i]));
    sum += v * v;
  }
  sum = blockSum(sum, scratch);
  if (threadIdx.x == 0) {
    sumSquares[row] = sum;
    clear[row] = 0.0;
  }
}

// ---------------------------------------------------------------------------------------------------
// Sampling: one block of 1024 threads per row.

constexpr int kSampleThreads = 1024;

// Orders floats as unsigned integers (larger float, larger key).
__device__ __forceinline__ unsigned orderedKey(float v) {
  const unsigned bits = __float_as_uint(v);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

__device__ unsigned blockSumUnsigned(unsigned v, unsigned* scratch) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < (blockDim.x >> 5) ? scratch[lane] : 0u;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void __launch_bounds__(kSampleThreads)
    sampleKernel(std::int32_t* tokens, const float* logits, int vocab, SampleParams params) {
  __shared__ float floatScratch[32];
  __shared__ unsigned uintScratch[32];
  __shared__ float bestValue[32];
  __shared__ int bestIndex[32];
  __shared__ float chunkMass[kSampleThreads];
  const int row = blockIdx.x;
  const float* l = logits + static_cast<std::int64_t>(row) * vocab;
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;

  // Argmax (the first index on ties); its value is the softmax's shift.
  float best = -INFINITY;
  int bestAt = vocab;
  if (vocab % 4 == 0) {  // 16-byte loads, several in flight: the row is read from L2 by one block
    const float4* l4 = reinterpret_cast<const float4*>(l);
#pragma unroll 4
    for (int i = tid; i < vocab / 4; i += kSampleThreads) {
      const float4 v = l4[i];
      const float values[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (values[j] > best) {
          best = values[j];
          bestAt = 4 * i + j;
        }
      }
    }
  } else {
    for (int i = tid; i < vocab; i += kSampleThreads) {
      if (l[i] > best) {
        best = l[i];
        bestAt = i;
      }
    }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const float otherValue = __shfl_xor_sync(0xffffffffu, best, offset);
    const int otherIndex = __shfl_xor_sync(0xffffffffu, bestAt, offset);
    if (otherValue > best || (otherValue == best && otherIndex < bestAt)) {
      best = otherValue;
      bestAt = otherIndex;
    }
  }
  if (lane == 0) {
    bestValue[warp] = best;
    bestIndex[warp] = bestAt;
  }
  __syncthreads();
  if (warp == 0) {
    best = bestValue[lane];
    bestAt = bestIndex[lane];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
      const float otherValue = __shfl_xor_sync(0xffffffffu, best, offset);
      const int otherIndex = __shfl_xor_sync(0xffffffffu, bestAt, offset);
      if (otherValue > best || (otherValue == best && otherIndex < bestAt)) {
        best = otherValue;
        bestAt = otherIndex;
      }
    }
    if (lane == 0) {
      bestValue[0] = best;
      bestIndex[0] = bestAt;
    }
  }
  __syncthreads();
  const float maxLogit = bestValue[0];
  const int argmax = bestIndex[0];
  const float temperature = params.temperature[row];
  const int topK = params.topK[row];
  if (temperature <= 0.0f || topK == 1) {
    if (tid == 0) tokens[row] = argmax;
    return;
  }
  const float invTemperature = 1.0f / temperature;
  auto weight = [&](float logit) { return __expf((logit - maxLogit) * invTemperature); };

  // Top-k: the largest key t with at least k logits at or above it (ties at t are all kept).
  unsigned threshold = 0;
  if (topK > 0 && topK < vocab) {
    unsigned lo = 0, hi = 0xffffffffu;  // count(key >= lo) >= k; the answer is in [lo, hi]
    while (lo < hi) {
      const auto mid = static_cast<unsigned>(lo + (static_cast<unsigned long long>(hi) - lo + 1) / 2);
      unsigned count = 0;
      for (int i = tid; i < vocab; i += kSampleThreads)
        count += orderedKey(l[i]) >= mid ? 1u : 0u;
      count = blockSumUnsigned(count, uintScratch);
      if (count >= static_cast<unsigned>(topK)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    threshold = lo;
  }
  // Top-p: the largest key t (>= the top-k threshold) whose kept mass reaches topP of the top-k mass.
  const float topP = params.topP[row];
  if (topP > 0.0f && topP < 1.0f) {
    float total = 0.0f;
    for (int i = tid; i < vocab; i += kSampleThreads)
      total += orderedKey(l[i]) >= threshold ? weight(l[i]) : 0.0f;
    total = blockSum(total, floatScratch);
    const float needed = topP * total;
    unsigned lo = threshold, hi = orderedKey(maxLogit);
    while (lo < hi) {
      const auto mid = static_cast<unsigned>(lo + (static_cast<unsigned long long>(hi) - lo + 1) / 2);
      float mass = 0.0f;
      for (int i = tid; i < vocab; i += kSampleThreads)
        mass += orderedKey(l[i]) >= mid ? weight(l[i]) : 0.0f;
      mass = blockSum(mass, floatScratch);
      if (mass >= needed) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    threshold = lo;
  }

  // Inverse CDF over the kept tokens in id order: each thread owns a contiguous range.
  const int per = (vocab + kSampleThreads - 1) / kSampleThreads;
  const int begin = min(vocab, tid * per);
  const int end = min(vocab, begin + per);
  float mass = 0.0f;
  for (int i = begin; i < end; ++i)
    mass += orderedKey(l[i]) >= threshold ? weight(l[i]) : 0.0f;
  chunkMass[tid] = mass;
  __syncthreads();
  if (tid == 0) {
    // A serial scan over 1024 partial sums is short next to the passes above.
    float total = 0.0f;
    for (int t = 0; t < kSampleThreads; ++t)
      total += chunkMass[t];
    float target = params.uniform[row] * total;
    int chosen = argmax;
    for (int t = 0; t < kSampleThreads; ++t) {
      if (target < chunkMass[t]) {
        const int b = min(vocab, t * per);
        const int e = min(vocab, b + per);
        for (int i = b; i < e; ++i) {
          if (orderedKey(l[i]) < threshold) continue;
          target -= weight(l[i]);
          chosen = i;
          if (target < 0.0f) break;
        }
        break;
      }
      target -= chunkMass[t];
    }
    tokens[row] = chosen;
  }
}

// ---------------------------------------------------------------------------------------------------
// Dummy weights

__global__ void fillDummyKernel(bf16* out, std::int64_t n, std::uint64_t chunkBase, float center,
                                float halfWidth, std::int64_t chunkValues, std::uint64_t chunkMultiplier) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t chunk = static_cast<std::uint64_t>(i / chunkValues);
  const std::uint64_t local = static_cast<std::uint64_t>(i % chunkValues);
  const std::uint64_t state = (chunkBase ^ (chunk * chunkMultiplier)) + (local + 1) * kSplitMix64Gamma;
  const float unit = static_cast<float>(splitmix64Mix(state) >> 40) * 0x1.0p-24f;
  out[i] = __float2bfloat16(center + halfWidth * (2.0f * unit - 1.0f));
}

}  // namespace

void embedRows(float* residual, const Bf16* embedding, const std::int32_t* tokens, int rows, int hidden,
               Stream stream) {
  if (rows == 0) return;
  embedRowsKernel<<<rows, 256, 0, stream>>>(residual, asBf16(embedding), tokens, hidden);
  checkLaunch("embedRows");
}

void addRmsNorm(Bf16* out, float* residual, const Bf16* add, const Bf16* weight, const std::int32_t* rowIndex,
                int rows, int hidden, float eps, Stream stream) {
  if (rows == 0) return;
  addRmsNormKernel<<<rows, 512, 0, stream>>>(asBf16(out), residual, asBf16(add), asBf16(weight), rowIndex,
                                             hidden, eps);
  checkLaunch("addRmsNorm");
}

void fillRopeTable(float* cosines, float* sines, int maxPositions, int headDim, double theta, Stream stream) {
  const std::int64_t count = static_cast<std::int64_t>(maxPositions) * (headDim / 2);
  ropeTableKernel<<<static_cast<unsigned>((count + 255) / 256), 256, 0, stream>>>(
      cosines, sines, maxPositions, headDim / 2, theta);
  checkLaunch("fillRopeTable");
}

void qkNormRopeKvWrite(Bf16* qkv, const Bf16* qNorm, const Bf16* kNorm, const float* cosines,
                       const float* sines, const std::int32_t* positions, const std::int32_t* slots, int rows,
                       int numHeads, const LayerKvCache& cache, float eps, Stream stream) {
  if (rows == 0) return;
  qkNormRopeKvWriteKernel<<<rows, 256, 0, stream>>>(asBf16(qkv), asBf16(qNorm), asBf16(kNorm), cosines, sines,
                                                    positions, slots, numHeads, cache, eps);
  checkLaunch("qkNormRopeKvWrite");
}

void siluMul(Bf16* out, const Bf16* gateUp, int rows, int intermediate, Stream stream) {
  if (rows == 0) return;
  if (intermediate % 8 != 0) throw Error("siluMul: the intermediate size must be a multiple of 8");
  const dim3 grid((intermediate / 8 + 127) / 128, rows);
  siluMulKernel<<<grid, 128, 0, stream>>>(asBf16(out), asBf16(gateUp), intermediate);
  checkLaunch("siluMul");
}

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

void gemv(Bf16* y, const Bf16* x, const Bf16* w, int rows, int n, int k, Stream stream) {
  GemvArgs a;
  a.x = asBf16(x);
  a.w = asBf16(w);
  a.n = n;
  a.k = k;
  launchGemv<bf16, GemvMode::Plain>(asBf16(y), a, rows, Launch::Plain, stream);
}

void gemv(float* y, const Bf16* x, const Bf16* w, int rows, int n, int k, Stream stream) {
  GemvArgs a;
  a.x = asBf16(x);
  a.w = asBf16(w);
  a.n = n;
  a.k = k;
  launchGemv<float, GemvMode::Plain>(y, a, rows, Launch::Plain, stream);
}

void embedRowsNormed(const NormedRows& out, double* clear, const Bf16* embedding, const std::int32_t* tokens,
                     const Bf16* norm, int rows, int hidden, Stream stream) {
  if (rows == 0) return;
  embedRowsNormedKernel<<<rows, 256, 0, stream>>>(out.residual, asBf16(out.weighted), out.sumSquares, clear,
                                                  asBf16(embedding), tokens, asBf16(norm), hidden);
  checkLaunch("embedRowsNormed");
}

namespace {
GemvArgs normedArgs(const Bf16* weighted, const double* sumSquares, float eps, const Bf16* w, int n, int k) {
  GemvArgs a;
  a.x = asBf16(weighted);
  a.sumSquares = sumSquares;
  a.eps = eps;
  a.w = asBf16(w);
  a.n = n;
  a.k = k;
  return a;
}
}  // namespace

void gemvNormed(Bf16* y, const Bf16* weighted, const double* sumSquares, float eps, const Bf16* w, int rows,
                int n, int k, Launch launch, Stream stream) {
  launchGemv<bf16, GemvMode::Normed>(asBf16(y), normedArgs(weighted, sumSquares, eps, w, n, k), rows, launch,
                                     stream);
}

void gemvNormed(float* y, const Bf16* weighted, const double* sumSquares, const std::int32_t* rowIndex,
                float eps, const Bf16* w, int rows, int n, int k, Launch launch, Stream stream) {
  GemvArgs a = normedArgs(weighted, sumSquares, eps, w, n, k);
  a.rowIndex = rowIndex;
  launchGemv<float, GemvMode::Normed>(y, a, rows, launch, stream);
}

void gemvNormedSiluMul(Bf16* activated, const Bf16* weighted, const double* sumSquares, float eps,
                       const Bf16* gateUp, int rows, int intermediate, int k, Launch launch, Stream stream) {
  launchGemv<bf16, GemvMode::NormedSiluMul>(asBf16(activated),
                                            normedArgs(weighted, sumSquares, eps, gateUp, intermediate, k),
                                            rows, launch, stream);
}

void gemvAddResidualNormed(const NormedRows& out, double* clear, const Bf16* nextNorm, const Bf16* x,
                           const Bf16* w, int rows, int n, int k, Launch launch, Stream stream) {
  GemvArgs a;
  a.x = asBf16(x);
  a.w = asBf16(w);
  a.residual = out.residual;
  a.weighted = asBf16(out.weighted);
  a.accumulate = out.sumSquares;
  a.clear = clear;
  a.nextNorm = asBf16(nextNorm);
  a.n = n;
  a.k = k;
  launchGemv<bf16, GemvMode::AddResidualNormed>(nullptr, a, rows, launch, stream);
}

void sampleTokens(std::int32_t* tokens, const float* logits, int rows, int vocab, const SampleParams& params,
                  Stream stream) {
  if (rows == 0) return;
  sampleKernel<<<rows, kSampleThreads, 0, stream>>>(tokens, logits, vocab, params);
  checkLaunch("sampleTokens");
}

void fillDummy(Bf16* out, std::int64_t n, std::uint64_t chunkBase, float center, float halfWidth,
               Stream stream) {
  if (n == 0) return;
  fillDummyKernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(
      asBf16(out), n, chunkBase, center, halfWidth, kDummyChunkValues, kDummyChunkMultiplier);
  checkLaunch("fillDummy");
}

Bf16 toBf16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<Bf16>((bits >> 16) | 0x40);  // NaN stays NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<Bf16>(bits >> 16);
}

float fromBf16(Bf16 bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

}  // namespace ayar::engine::cuda
