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

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

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

// The partial sums of warps [firstWarp, firstWarp + warps) for row m: one feature's dot product.
template <int M>
__device__ __forceinline__ float sumOverWarps(const float (&partial)[kGemvMaxThreads / 32][M], int firstWarp,
                                              int m, int warps) {
  float total = 0.0f;
  for (int q = 0; q < warps; ++q)
    total += partial[firstWarp + q][m];
  return total;
}

// What the epilogue reads from the kernels before: the row's RMS scale (Normed*), or the residual value
// it adds to and the next norm's weight (AddResidualNormed).
struct EpilogueInputs {
  float scale = 1.0f, residualValue = 0.0f, normValue = 0.0f;
};
template <GemvMode Mode>
__device__ __forceinline__ EpilogueInputs fetchEpilogueInputs(const GemvArgs& a, int lane, int feature) {
  EpilogueInputs in;
  if constexpr (Mode == GemvMode::Normed || Mode == GemvMode::NormedSiluMul)
    in.scale =
        rmsScale(a.sumSquares, Mode == GemvMode::Normed && a.rowIndex ? a.rowIndex[lane] : lane, a.k, a.eps);
  if constexpr (Mode == GemvMode::AddResidualNormed) {
    in.residualValue = a.residual[static_cast<std::int64_t>(lane) * a.n + feature];
    in.normValue = __bfloat162float(a.nextNorm[feature]);
  }
  return in;
}

// The weight stream, the dot products, the reduction over warps, then the mode's epilogue. The
// AddResidualNormed epilogue stays inline: as a function it changed the one-row kernel's machine code.
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
  EpilogueInputs in;
  if (writes) in = fetchEpilogueInputs<Mode>(a, lane, feature);

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
  auto sumOf = [&](int firstWarp, int m) { return sumOverWarps<M>(partial, firstWarp, m, a.warps); };

  if constexpr (Mode == GemvMode::AddResidualNormed) {
    if (blockIdx.x == 0 && threadIdx.x < M) a.clear[threadIdx.x] = 0.0;
    if (part == 0 && lane < M) {
      float square = 0.0f;
      if (writes) {
        const std::int64_t at = static_cast<std::int64_t>(lane) * a.n + feature;
        const float value = in.residualValue + sumOf(warp, lane);
        a.residual[at] = value;
        a.weighted[at] = __float2bfloat16(value * in.normValue);
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
      const float gate = sumOf(0, lane) * in.scale;
      const float up = sumOf(a.warps, lane) * in.scale;
      y[static_cast<std::int64_t>(lane) * a.n + feature] =
          fromFloat<OutT>(gate / (1.0f + __expf(-gate)) * up);
    }
  } else {
    if (writes)
      y[static_cast<std::int64_t>(lane) * a.n + feature] = fromFloat<OutT>(sumOf(warp, lane) * in.scale);
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

// The arguments of a GEMV after an RMSNorm (see gemvNormed).
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

}  // namespace ayar::engine::cuda
