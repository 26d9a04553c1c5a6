// Sampling: one block of 1024 threads per row (greedy, temperature, top-k, top-p, inverse CDF).

#include <cuda_runtime.h>

#include <cstdint>

#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

constexpr int kSampleThreads = 1024;

// Orders floats as unsigned integers (larger float, larger key).
__device__ __forceinline__ unsigned orderedKey(float v) {
  const unsigned bits = __float_as_uint(v);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

// blockSum for counts: every thread gets the block's total.
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

// Top-k: the largest key t with at least k logits at or above it (ties at t are all kept).
__device__ __forceinline__ unsigned topKThreshold(const float* l, int vocab, int topK, unsigned* scratch,
                                                  int tid) {
  unsigned lo = 0, hi = 0xffffffffu;  // count(key >= lo) >= k; the answer is in [lo, hi]
  while (lo < hi) {
    const auto mid = static_cast<unsigned>(lo + (static_cast<unsigned long long>(hi) - lo + 1) / 2);
    unsigned count = 0;
    for (int i = tid; i < vocab; i += kSampleThreads)
      count += orderedKey(l[i]) >= mid ? 1u : 0u;
    count = blockSumUnsigned(count, scratch);
    if (count >= static_cast<unsigned>(topK)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// The argmax's reductions and the top-p search stay inline: as functions they changed the kernel's
// machine code.
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

  unsigned threshold = 0;
  if (topK > 0 && topK < vocab) threshold = topKThreshold(l, vocab, topK, uintScratch, tid);
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

}  // namespace

void sampleTokens(std::int32_t* tokens, const float* logits, int rows, int vocab, const SampleParams& params,
                  Stream stream) {
  if (rows == 0) return;
  sampleKernel<<<rows, kSampleThreads, 0, stream>>>(tokens, logits, vocab, params);
  checkLaunch("sampleTokens");
}

}  // namespace ayar::engine::cuda
