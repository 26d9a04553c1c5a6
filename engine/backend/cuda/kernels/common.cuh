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
// Tensor cores (the attention kernels): swizzled tiles of 128-bf16 rows, ldmatrix, mma.sync
//
// Fragment layouts (PTX ISA, mma.m16n8k16 with bf16 inputs; g = lane / 4, t = lane % 4):
//   A (16 x 16, row-major) a0: (g, 2t..2t+1)  a1: (g+8, 2t..2t+1)  a2: (g, 2t+8..2t+9)  a3: (g+8, 2t+8..2t+9)
//   B (16 x 8, k x n)      b0: (k 2t..2t+1, n g)  b1: (k 2t+8..2t+9, n g)
//   C (16 x 8, float)      c0, c1: (g, 2t..2t+1)  c2, c3: (g+8, 2t..2t+1)
// The lower-indexed element of a pair sits in the lower 16 bits of its register. ldmatrix (8 x 8 bf16
// matrices, the 8 lanes 8i..8i+7 giving the row addresses of matrix i) hands lane l row l / 4, elements
// 2(l % 4)..+1 of each matrix: an A fragment from row-major Q, a B fragment from K (its rows are the n
// index, so S = Q K^T needs no transpose) and, with .trans, from V (rows are the k index there).

// Element offset of 16-byte chunk `chunk` of row `row` in a tile of 128-bf16 rows. A row is 256 bytes, so
// without the swizzle the same chunk of 8 consecutive rows would sit in the same 4 banks; XOR-ing the
// chunk index with row % 8 spreads those 8 chunks over all 32 banks. Every ldmatrix below reads 8
// consecutive rows (starting at a multiple of 8) of one logical chunk per matrix, so it is conflict-free.
__device__ __forceinline__ int swizzled(int row, int chunk) {
  return row * kHeadDim + ((chunk ^ (row & 7)) << 3);
}

__device__ __forceinline__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrixX4(unsigned (&r)[4], unsigned address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void ldmatrixX4Trans(unsigned (&r)[4], unsigned address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// d += a b for one m16n8k16 tile (bf16 inputs, float accumulators).
__device__ __forceinline__ void mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two floats as a bf16 pair, lo in the lower 16 bits (the lower-indexed element of a fragment pair).
__device__ __forceinline__ unsigned packBf16(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const unsigned*>(&pair);
}

// Keys and values [first, first + Rows) of one KV head, through the block table, into a swizzled K tile
// and V tile by cp.async, spread over the block's Threads threads (the caller commits). Rows at or past
// `end` are zero: the attention masks their scores, and zero values keep P V finite whatever the tile
// held before.
template <int Rows, int Threads>
__device__ __forceinline__ void loadKeyValueTile(bf16* keyTile, bf16* valueTile, const LayerKvCache& cache,
                                                 const std::int32_t* blockTable, int kvHead, int first,
                                                 int end, int tid) {
  constexpr int kChunksPerRow = kHeadDim / 8;
  static_assert(Rows * kChunksPerRow % Threads == 0, "every thread loads the same number of chunks");
  const bf16* keys = asBf16(cache.key);
  const bf16* values = asBf16(cache.value);
#pragma unroll
  for (int i = 0; i < Rows * kChunksPerRow / Threads; ++i) {
    const int c = tid + i * Threads;
    const int r = c / kChunksPerRow;
    const int chunk = c % kChunksPerRow;
    bf16* keyDst = keyTile + swizzled(r, chunk);
    bf16* valueDst = valueTile + swizzled(r, chunk);
    if (first + r < end) {
      const bf16* keyRow = kvRow(keys, blockTable, first + r, cache, kvHead);
      cpAsync16(keyDst, keyRow + chunk * 8);
      cpAsync16(valueDst, values + (keyRow - keys) + chunk * 8);  // the same slot in the value cache
    } else {
      *reinterpret_cast<uint4*>(keyDst) = make_uint4(0, 0, 0, 0);
      *reinterpret_cast<uint4*>(valueDst) = make_uint4(0, 0, 0, 0);
    }
  }
}

// 2^x on the special function unit; 2^-inf = 0.
__device__ __forceinline__ float exp2Approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
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
