// What the kernel files under kernels/ share: the bf16 view of the public Bf16 bits, warp and block
// reductions, 16-byte unpacking, a 128-value head held by a warp (load, RMS-norm + RoPE, pack), the paged
// cache's row address, cp.async, the launch configuration for programmatic dependent launches and the
// launch checks. Each kernel and the host function that launches it live in one .cu file, so no
// separable compilation is needed; what is shared is inline here, in namespace detail.

#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace ayar::engine::cuda::detail {

using bf16 = __nv_bfloat16;

inline void checkLaunch(const char* what) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    throw Error(std::string("CUDA kernel ") + what + " failed: " + cudaGetErrorString(error));
}

// The launch's own error (cudaLaunchKernelEx's result), then any error left on the device.
inline void checkLaunchResult(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    throw Error(std::string("CUDA kernel ") + what + " failed: " + cudaGetErrorString(error));
  checkLaunch(what);
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
__device__ inline float blockSum(float v, float* scratch) {
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
// A head of kHeadDim = 128 values held by a warp, lane l elements [4l, 4l + 4) (the q/k-norm + RoPE kernel
// and the decode attention's fused form)

// The rotary partners of lane l's elements sit in lane l ^ 16: RMS-norms the head (times norm) and
// rotates it (NeoX halves) by the position's cos and sin rows.
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

// ---------------------------------------------------------------------------------------------------
// The paged KV cache and cp.async (the attention kernels)

// Row j of a sequence's keys (or values, with base the value cache) for one KV head.
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

// ---------------------------------------------------------------------------------------------------
// Launches

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

}  // namespace ayar::engine::cuda::detail
