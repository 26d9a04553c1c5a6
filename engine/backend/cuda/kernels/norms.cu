// Embedding, residual + RMSNorm and SiLU * mul: the row-wise kernels of steps of more than 2 rows.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

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

void siluMul(Bf16* out, const Bf16* gateUp, int rows, int intermediate, Stream stream) {
  if (rows == 0) return;
  if (intermediate % 8 != 0) throw Error("siluMul: the intermediate size must be a multiple of 8");
  const dim3 grid((intermediate / 8 + 127) / 128, rows);
  siluMulKernel<<<grid, 128, 0, stream>>>(asBf16(out), asBf16(gateUp), intermediate);
  checkLaunch("siluMul");
}

}  // namespace ayar::engine::cuda
