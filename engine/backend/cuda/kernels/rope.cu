// The rotary table, and the q/k RMSNorm + RoPE + paged KV write of the rows of a step.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

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

}  // namespace

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

}  // namespace ayar::engine::cuda
