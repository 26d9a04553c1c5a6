// The CUDA backend's own kernels (see cuda_kernels.h). Memory-bound kernels use 16-byte loads; the
// prefill attention uses the tensor cores through WMMA.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
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

// One warp per head of a row; lane l holds elements [4l, 4l + 4), whose rotary partners sit in lane l ^ 16.
__global__ void qkNormRopeKvWriteKernel(bf16* qkv, const bf16* qNorm, const bf16* kNorm, const float* cosines,
                                        const float* sines, const std::int32_t* positions,
                                        const std::int32_t* slots, int numHeads, LayerKvCache cache,
                                        float eps) {
  constexpr int kHalf = kHeadDim / 2;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = blockDim.x >> 5;
  const std::int64_t row = blockIdx.x;
  const int kvHeads = cache.numKvHeads;
  const int qkvStride = (numHeads + 2 * kvHeads) * kHeadDim;
  bf16* rowData = qkv + row * qkvStride;
  const int position = positions[row];
  const std::int64_t slot = slots[row];
  const std::int64_t block = slot / cache.blockSize;
  const int offset = static_cast<int>(slot % cache.blockSize);
  const int first = lane * 4;
  const int pair = first % kHalf;  // index of this lane's first element within its half
  const bool upper = first >= kHalf;

  for (int head = warp; head < numHeads + 2 * kvHeads; head += warps) {
    bf16* data = rowData + head * kHeadDim;
    float v[4];
    const __nv_bfloat162* in = reinterpret_cast<const __nv_bfloat162*>(data + first);
    const float2 a = __bfloat1622float2(in[0]);
    const float2 b = __bfloat1622float2(in[1]);
    v[0] = a.x;
    v[1] = a.y;
    v[2] = b.x;
    v[3] = b.y;
    const bool isValue = head >= numHeads + kvHeads;
    if (!isValue) {
      const bf16* norm = head < numHeads ? qNorm : kNorm;
      const float sumSquares = warpSum(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
      const float scale = rsqrtf(sumSquares / kHeadDim + eps);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        v[j] = v[j] * scale * __bfloat162float(norm[first + j]);
      float partner[4];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        partner[j] = __shfl_xor_sync(0xffffffffu, v[j], 16);
      const float* c = cosines + static_cast<std::int64_t>(position) * kHalf + pair;
      const float* s = sines + static_cast<std::int64_t>(position) * kHalf + pair;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        // lower half: x1 cos - x2 sin; upper half: x2 cos + x1 sin (x1 is the partner there)
        v[j] = upper ? v[j] * c[j] + partner[j] * s[j] : v[j] * c[j] - partner[j] * s[j];
      }
    }
    __align__(8)
        __nv_bfloat162 packed[2] = {__floats2bfloat162_rn(v[0], v[1]), __floats2bfloat162_rn(v[2], v[3])};
    bf16* dst;
    if (head < numHeads) {
      dst = data + first;
    } else {
      const int kvHead = isValue ? head - numHeads - kvHeads : head - numHeads;
      bf16* base = asBf16(isValue ? cache.value : cache.key);
      dst = base + ((block * kvHeads + kvHead) * cache.blockSize + offset) * kHeadDim + first;
    }
    *reinterpret_cast<uint2*>(dst) = *reinterpret_cast<const uint2*>(packed);
  }
}

// ---------------------------------------------------------------------------------------------------
// Decode attention: one block per (KV head, sequence, split), 128 threads. A half-warp reads one key
// (16 lanes x 8 dims); the scores of all G query heads of the KV head are kept in shared memory, then
// the same half-warps accumulate V. Partials (unnormalised output, max, sum) are merged by the combine
// kernel.

constexpr int kDecodeThreads = 128;
constexpr int kDecodeMaxPartition = 512;
constexpr int kDecodeUnroll = 8;

__device__ __forceinline__ const bf16* kvRow(const bf16* base, const std::int32_t* blockTable, int j,
                                             const LayerKvCache& cache, int kvHead) {
  const std::int64_t block = blockTable[j / cache.blockSize];
  const int offset = j % cache.blockSize;
  return base + ((block * cache.numKvHeads + kvHead) * cache.blockSize + offset) * kHeadDim;
}

template <int G>
__global__ void __launch_bounds__(kDecodeThreads)
    decodeAttentionKernel(const bf16* qkv, int qkvStride, SeqTable table, const std::int32_t* seqs,
                          int numHeads, LayerKvCache cache, int splits, float* partials, float scale) {
  extern __shared__ float shared[];
  float* query = shared;                                  // [G][128]
  float* scores = query + G * kHeadDim;                   // [G][partition]
  float* accumulated = scores + G * kDecodeMaxPartition;  // [G][128]
  __shared__ float rowMax[G], rowSum[G];

  const int kvHead = blockIdx.x;
  const int index = blockIdx.y;
  const int split = blockIdx.z;
  const int seq = seqs[index];
  const int context = table.contextLen[seq];
  const int row = table.queryStart[seq];
  const std::int32_t* blockTable =
      table.blockTables + static_cast<std::int64_t>(seq) * table.blockTableStride;
  int partition = (context + splits - 1) / splits;
  partition = (partition + 15) / 16 * 16;
  const int begin = split * partition;
  const int end = min(context, begin + partition);
  const int tid = threadIdx.x;

  float* out = partials +
               ((static_cast<std::int64_t>(index) * numHeads + kvHead * G) * splits + split) * (kHeadDim + 2);
  // Layout of partials: [seq][head][split][128 + 2] (output, then max and sum).
  const std::int64_t headStride = static_cast<std::int64_t>(splits) * (kHeadDim + 2);
  if (begin >= end) {
    for (int i = tid; i < G * (kHeadDim + 2); i += kDecodeThreads) {
      const int g = i / (kHeadDim + 2);
      const int d = i % (kHeadDim + 2);
      out[g * headStride + d] = d == kHeadDim ? -FLT_MAX : 0.0f;
    }
    return;
  }

  for (int i = tid; i < G * kHeadDim; i += kDecodeThreads) {
    const int g = i / kHeadDim;
    query[i] =
        __bfloat162float(
            qkv[static_cast<std::int64_t>(row) * qkvStride + (kvHead * G + g) * kHeadDim + i % kHeadDim]) *
        scale;
    accumulated[i] = 0.0f;
  }
  __syncthreads();

  const int lane16 = tid & 15;
  // 8 half-warps; key j goes to half-warp (j - begin) % 8. Both halves of a warp run the same loop
  // iterations, since the score loop shuffles across the whole warp.
  const int stream = tid >> 4;
  constexpr int kStreams = kDecodeThreads / 16;
  float q[G][8];
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int d = 0; d < 8; ++d)
      q[g][d] = query[g * kHeadDim + lane16 * 8 + d];

  for (int base = begin + (stream & ~1); base < end; base += kStreams * kDecodeUnroll) {
    uint4 raw[kDecodeUnroll];
#pragma unroll
    for (int u = 0; u < kDecodeUnroll; ++u) {
      const int j = base + (stream & 1) + u * kStreams;
      raw[u] = make_uint4(0, 0, 0, 0);
      if (j < end)
        raw[u] = *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.key), blockTable, j, cache, kvHead) +
                                                 lane16 * 8);
    }
#pragma unroll
    for (int u = 0; u < kDecodeUnroll; ++u) {
      const int j = base + (stream & 1) + u * kStreams;
      float k[8];
      unpack8(raw[u], k);
#pragma unroll
      for (int g = 0; g < G; ++g) {
        float dot = 0.0f;
#pragma unroll
        for (int d = 0; d < 8; ++d)
          dot += q[g][d] * k[d];
#pragma unroll
        for (int offset = 8; offset > 0; offset >>= 1)
          dot += __shfl_xor_sync(0xffffffffu, dot, offset);
        if (lane16 == 0 && j < end) scores[g * kDecodeMaxPartition + (j - begin)] = dot;
      }
    }
  }
  __syncthreads();

  const int warp = tid >> 5;
  const int lane = tid & 31;
  const int length = end - begin;
  for (int g = warp; g < G; g += kDecodeThreads / 32) {
    float* s = scores + g * kDecodeMaxPartition;
    float m = -FLT_MAX;
    for (int j = lane; j < length; j += 32)
      m = fmaxf(m, s[j]);
    m = warpMax(m);
    float sum = 0.0f;
    for (int j = lane; j < length; j += 32) {
      const float p = __expf(s[j] - m);
      s[j] = p;
      sum += p;
    }
    sum = warpSum(sum);
    if (lane == 0) {
      rowMax[g] = m;
      rowSum[g] = sum;
    }
  }
  __syncthreads();

  float acc[G][8];
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int d = 0; d < 8; ++d)
      acc[g][d] = 0.0f;
  for (int base = begin + (stream & ~1); base < end; base += kStreams * kDecodeUnroll) {
    uint4 raw[kDecodeUnroll];
#pragma unroll
    for (int u = 0; u < kDecodeUnroll; ++u) {
      const int j = base + (stream & 1) + u * kStreams;
      if (j < end)
        raw[u] = *reinterpret_cast<const uint4*>(kvRow(asBf16(cache.value), blockTable, j, cache, kvHead) +
                                                 lane16 * 8);
    }
#pragma unroll
    for (int u = 0; u < kDecodeUnroll; ++u) {
      const int j = base + (stream & 1) + u * kStreams;
      if (j >= end) break;
      float v[8];
      unpack8(raw[u], v);
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const float p = scores[g * kDecodeMaxPartition + (j - begin)];
#pragma unroll
        for (int d = 0; d < 8; ++d)
          acc[g][d] += p * v[d];
      }
    }
  }
#pragma unroll
  for (int g = 0; g < G; ++g)
#pragma unroll
    for (int d = 0; d < 8; ++d)
      atomicAdd(&accumulated[g * kHeadDim + lane16 * 8 + d], acc[g][d]);
  __syncthreads();

  for (int i = tid; i < G * (kHeadDim + 2); i += kDecodeThreads) {
    const int g = i / (kHeadDim + 2);
    const int d = i % (kHeadDim + 2);
    const float value =
        d < kHeadDim ? accumulated[g * kHeadDim + d] : (d == kHeadDim ? rowMax[g] : rowSum[g]);
    out[g * headStride + d] = value;
  }
}

// One block per (query head, sequence), one thread per dimension.
__global__ void decodeCombineKernel(bf16* out, SeqTable table, const std::int32_t* seqs, int numHeads,
                                    int splits, const float* partials) {
  const int head = blockIdx.x;
  const int index = blockIdx.y;
  const int d = threadIdx.x;
  const float* p = partials + (static_cast<std::int64_t>(index) * numHeads + head) * splits * (kHeadDim + 2);
  float m = -FLT_MAX;
  for (int s = 0; s < splits; ++s)
    m = fmaxf(m, p[s * (kHeadDim + 2) + kHeadDim]);
  float total = 0.0f, value = 0.0f;
  for (int s = 0; s < splits; ++s) {
    const float* part = p + s * (kHeadDim + 2);
    const float weight = part[kHeadDim + 1] > 0.0f ? __expf(part[kHeadDim] - m) : 0.0f;
    total += part[kHeadDim + 1] * weight;
    value += part[d] * weight;
  }
  const std::int64_t row = table.queryStart[seqs[index]];
  out[row * numHeads * kHeadDim + head * kHeadDim + d] = __float2bfloat16(value / total);
}

template <int G>
void launchDecode(dim3 grid, std::size_t sharedBytes, Stream stream, const bf16* qkv, int qkvStride,
                  const SeqTable& table, const std::int32_t* seqs, int numHeads, const LayerKvCache& cache,
                  int splits, float* partials, float scale) {
  decodeAttentionKernel<G><<<grid, kDecodeThreads, sharedBytes, stream>>>(
      qkv, qkvStride, table, seqs, numHeads, cache, splits, partials, scale);
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
// GEMV for up to 8 rows: a block of 8 warps computes 2 output features, 4 warps each, every warp over a
// quarter of k (split-K inside the block, merged through shared memory, so no second kernel). Weight
// loads are 16 bytes a lane, 4 in flight before the first use; x comes through L1.

constexpr int kGemvWarpsPerFeature = 4;
constexpr int kGemvFeaturesPerBlock = 2;
constexpr int kGemvThreads = 32 * kGemvWarpsPerFeature * kGemvFeaturesPerBlock;
constexpr int kGemvUnroll = 4;

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

template <int M, typename OutT>
__global__ void __launch_bounds__(kGemvThreads)
    gemvKernel(OutT* y, const bf16* x, const bf16* w, int n, int k) {
  __shared__ float partial[kGemvFeaturesPerBlock * kGemvWarpsPerFeature][M];
  const int warp = threadIdx.x >> 5;
  const int lane = threadIdx.x & 31;
  const int feature = blockIdx.x * kGemvFeaturesPerBlock + warp / kGemvWarpsPerFeature;
  const int quarter = warp % kGemvWarpsPerFeature;
  const int span = (k / kGemvWarpsPerFeature + 7) / 8 * 8;
  const int kBegin = quarter * span;
  const int kEnd = min(k, kBegin + span);
  float acc[M];
#pragma unroll
  for (int m = 0; m < M; ++m)
    acc[m] = 0.0f;
  if (feature < n) {
    const bf16* row = w + static_cast<std::int64_t>(feature) * k;
    constexpr int kStep = 32 * 8;
    for (int base = kBegin + lane * 8; base < kEnd; base += kStep * kGemvUnroll) {
      uint4 raw[kGemvUnroll];
#pragma unroll
      for (int u = 0; u < kGemvUnroll; ++u) {
        const int i = base + u * kStep;
        raw[u] = i < kEnd ? __ldcs(reinterpret_cast<const uint4*>(row + i)) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int u = 0; u < kGemvUnroll; ++u) {
        const int i = base + u * kStep;
        if (i >= kEnd) break;
        float wv[8];
        unpack8(raw[u], wv);
#pragma unroll
        for (int m = 0; m < M; ++m) {
          float xv[8];
          unpack8(__ldg(reinterpret_cast<const uint4*>(x + static_cast<std::int64_t>(m) * k + i)), xv);
#pragma unroll
          for (int d = 0; d < 8; ++d)
            acc[m] += wv[d] * xv[d];
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < M; ++m) {
    const float total = warpSum(acc[m]);
    if (lane == 0) partial[warp][m] = total;
  }
  __syncthreads();
  if (quarter == 0 && lane < M && feature < n) {
    float total = 0.0f;
#pragma unroll
    for (int q = 0; q < kGemvWarpsPerFeature; ++q)
      total += partial[warp + q][lane];
    y[static_cast<std::int64_t>(lane) * n + feature] = fromFloat<OutT>(total);
  }
}

template <typename OutT>
void launchGemv(OutT* y, const bf16* x, const bf16* w, int rows, int n, int k, Stream stream) {
  if (rows < 1 || rows > kGemvMaxRows || k % 8 != 0)
    throw Error("gemv: rows must be 1..8 and k a multiple of 8");
  const int grid = (n + kGemvFeaturesPerBlock - 1) / kGemvFeaturesPerBlock;
  switch (rows) {
#define AYAR_GEMV_CASE(M)                                                  \
  case M:                                                                  \
    gemvKernel<M, OutT><<<grid, kGemvThreads, 0, stream>>>(y, x, w, n, k); \
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
  checkLaunch("gemv");
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
  for (int i = tid; i < vocab; i += kSampleThreads) {
    if (l[i] > best) {
      best = l[i];
      bestAt = i;
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

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void fillDummyKernel(bf16* out, std::int64_t n, std::uint64_t chunkBase, float center,
                                float halfWidth, std::int64_t chunkValues, std::uint64_t chunkMultiplier) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t chunk = static_cast<std::uint64_t>(i / chunkValues);
  const std::uint64_t local = static_cast<std::uint64_t>(i % chunkValues);
  const std::uint64_t state = (chunkBase ^ (chunk * chunkMultiplier)) + (local + 1) * 0x9e3779b97f4a7c15ull;
  const float unit = static_cast<float>(mix64(state) >> 40) * 0x1.0p-24f;
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

std::int64_t decodeAttentionPartialFloats(int count, int numHeads, int splits) {
  return static_cast<std::int64_t>(count) * numHeads * splits * (kHeadDim + 2);
}

void decodeAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                     const std::int32_t* seqs, int count, int numHeads, const LayerKvCache& cache, int splits,
                     float* partials, Stream stream) {
  if (count == 0) return;
  const int group = numHeads / cache.numKvHeads;
  const dim3 grid(cache.numKvHeads, count, splits);
  const std::size_t sharedBytes = sizeof(float) * group * (2 * kHeadDim + kDecodeMaxPartition);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
  const bf16* q = asBf16(qkv);
  switch (group) {
#define AYAR_DECODE_CASE(G)                                                                                  \
  case G:                                                                                                    \
    launchDecode<G>(grid, sharedBytes, stream, q, qkvStride, table, seqs, numHeads, cache, splits, partials, \
                    scale);                                                                                  \
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
  checkLaunch("decodeAttention");
  decodeCombineKernel<<<dim3(numHeads, count), kHeadDim, 0, stream>>>(asBf16(out), table, seqs, numHeads,
                                                                      splits, partials);
  checkLaunch("decodeAttention combine");
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
  launchGemv(asBf16(y), asBf16(x), asBf16(w), rows, n, k, stream);
}

void gemv(float* y, const Bf16* x, const Bf16* w, int rows, int n, int k, Stream stream) {
  launchGemv(y, asBf16(x), asBf16(w), rows, n, k, stream);
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
