// Dummy weights drawn on the device (makeDummyWeights' values), and float <-> bf16 on the host.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"
#include "engine/common/splitmix64.h"
#include "engine/model/weights.h"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

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
