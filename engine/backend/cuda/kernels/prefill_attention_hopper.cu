// Prefill attention for Hopper (compute capability 9.0): warpgroup MMA (wgmma) fed by the tensor memory
// accelerator (TMA), with warps specialised as producer and consumers.
//
// A block takes 128 query rows of one KV head and one sequence. Its rows are (position, query head)
// pairs, a KV head's G query heads side by side (row m is position m / G, head m % G of the group), so
// each K/V tile read from the cache serves every query head that shares it (GQA). Three warpgroups:
//   - the producer (warpgroup 0) copies the K and V tiles of 128 keys, cache block by cache block, with
//     TMA into a two-stage ring of shared-memory buffers; a "full" barrier per stage counts the bytes in,
//     an "empty" barrier per stage counts the consumer warps out;
//   - two consumers (warpgroups 1 and 2), 64 rows each: S = Q K^T by wgmma from shared memory, the
//     online softmax in registers, O += P V by wgmma with P from registers. Each consumer issues tile
//     k's S together with tile k - 1's P V and runs tile k's softmax while that product is still on the
//     tensor cores (only the rescale of O waits for it); between the two consumers, one's softmax runs
//     beside the other's products.
// The producer gives its registers to the consumers (setmaxnreg). Keys past a consumer's last row are
// skipped a tile at a time; the tile that crosses a row's position is masked.
//
// Shared memory, all tiles in the 128-byte swizzle that wgmma and TMA share: a tile of R rows x 128 dims
// is two halves of R rows x 64 dims (128 bytes a row), 16-byte chunk c of row r stored at chunk c ^ (r % 8)
// of its row, every 8-row group 1,024 bytes from the next. [Q: consumer 0, consumer 1] [K: stage 0, 1]
// [V: stage 0, 1] [barriers].
//
// Rows of the cache that no token wrote (the end of the last block) are read too: their scores are
// masked, and the backend zeroes the cache when it allocates it so that 0 x value stays finite. A tile
// that reaches past the last key reads the last block's rows again instead of a block the table does not
// have.

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/kernels/common.cuh"
#include "engine/backend/cuda/kernels/prefill_attention_hopper.h"

namespace ayar::engine::cuda {

using namespace detail;

namespace {

constexpr int kRows = 128;         // query rows a block (packed (position, head) rows)
constexpr int kConsumerRows = 64;  // a consumer warpgroup's rows: wgmma's M
constexpr int kKeys = 128;         // keys a K/V tile: wgmma's N for S
constexpr int kStages = 2;
constexpr int kThreads = 3 * 128;                      // producer + two consumers
constexpr int kQBytes = kConsumerRows * kHeadDim * 2;  // one consumer's Q: 16 KiB
constexpr int kTileBytes = kKeys * kHeadDim * 2;       // one K or V tile: 32 KiB
constexpr int kQOffset = 0;
constexpr int kKeyOffset = kQOffset + 2 * kQBytes;
constexpr int kValueOffset = kKeyOffset + kStages * kTileBytes;
constexpr int kBarrierOffset = kValueOffset + kStages * kTileBytes;
constexpr int kSharedBytes = kBarrierOffset + 2 * kStages * 8 + 1024;  // + room to align the base to 1 KiB

static_assert(kHeadDim == 128, "the tiles are two 64-dim halves");

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

constexpr int kHalfBytes = 64 * 2;  // a row of a half tile: 64 bf16, the swizzle's width
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;  // 128 x 40 + 256 x 232 <= 65,536

// ---------------------------------------------------------------------------------------------------
// mbarrier, TMA, wgmma

__device__ __forceinline__ void barrierInit(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(count));
}
__device__ __forceinline__ void barrierExpectBytes(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sharedAddress(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barrierArrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sharedAddress(bar)) : "memory");
}
// Waits until the barrier's phase of this parity has completed.
__device__ __forceinline__ void barrierWait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(sharedAddress(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

// One box of the 2-D tensor map (x: dim, y: cache row) into shared memory, counted on bar.
__device__ __forceinline__ void tmaLoad(void* dst, const CUtensorMap& map, int x, int y, std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];\n" ::"r"(sharedAddress(dst)),
      "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(x), "r"(y), "r"(sharedAddress(bar))
      : "memory");
}

// Among the consumers' threads only (the producer warpgroup never joins): barrier id, thread count.
__device__ __forceinline__ void namedBarrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// A shared-memory matrix for wgmma in the 128-byte swizzle: start address, the byte offset between its
// 64-element halves along the contiguous dimension (leading; unused when that dimension is K) and between
// 8-row groups (stride).
__device__ __forceinline__ std::uint64_t matrixDescriptor(const void* start, unsigned leadingBytes,
                                                          unsigned strideBytes) {
  const std::uint64_t address = sharedAddress(start);
  return ((address & 0x3FFFF) >> 4) | (static_cast<std::uint64_t>((leadingBytes >> 4) & 0x3FFF) << 16) |
         (static_cast<std::uint64_t>((strideBytes >> 4) & 0x3FFF) << 32) | (std::uint64_t{1} << 62);
}

__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int Pending>
__device__ __forceinline__ void wgmmaWait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}
// Keeps the compiler from moving reads or writes of these registers across an asynchronous wgmma.
__device__ __forceinline__ void fenceRegisters(float (&r)[64]) {
#pragma unroll
  for (int i = 0; i < 64; ++i)
    asm volatile("" : "+f"(r[i])::"memory");
}

// The 64 float accumulators of an m64n128 wgmma, as the operand list ({%0, ..., %63}) and as the asm's
// outputs: both wrappers below name them the same way.
#define AYAR_WGMMA_ACCUMULATOR_LIST                                                                       \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, " \
  "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "  \
  "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "  \
  "%62, %63}, "
#define AYAR_WGMMA_ACCUMULATORS(d)                                                                          \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),           \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),            \
      "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),            \
      "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),            \
      "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),            \
      "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),            \
      "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),            \
      "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

// d (m64n128, 64 floats a thread) = A B (scaleD 0) or d + A B (scaleD 1), A and B from shared memory.
template <int TransB>
__device__ __forceinline__ void wgmmaSS(float (&d)[64], std::uint64_t descA, std::uint64_t descB,
                                        int scaleD) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " AYAR_WGMMA_ACCUMULATOR_LIST
      "%64, %65, p, 1, 1, 0, %67;\n}\n"
      : AYAR_WGMMA_ACCUMULATORS(d)
      : "l"(descA), "l"(descB), "r"(scaleD), "n"(TransB));
}

// d (m64n128) += A B, A from registers (the m16n8k16 A fragment of the warp's 16 rows), B from shared memory.
template <int TransB>
__device__ __forceinline__ void wgmmaRS(float (&d)[64], const unsigned (&a)[4], std::uint64_t descB) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " AYAR_WGMMA_ACCUMULATOR_LIST
      "{%64, %65, %66, %67}, %68, p, 1, 1, %69;\n}\n"
      : AYAR_WGMMA_ACCUMULATORS(d)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(descB), "n"(TransB));
}

#undef AYAR_WGMMA_ACCUMULATORS
#undef AYAR_WGMMA_ACCUMULATOR_LIST

// ---------------------------------------------------------------------------------------------------
// The kernel

struct BlockWork {
  int totalRows = 0;     // packed rows of the sequence's new tokens: queryLen x G
  int firstRow = 0;      // the block's first packed row
  int positionBase = 0;  // position of the sequence's first new token
  int queryStart = 0;    // its row in qkv and out
  int keyEnd = 0;        // keys [0, keyEnd) are read: the block's last row's position + 1
  int kvHead = 0;
  int group = 0;  // G, query heads a KV head
};

// The producer's thread: every tile's K and V, box by box (boxRows keys of one cache block, two 64-dim
// halves each), one lane a box. A box at or past keyEnd reads the last real box again.
__device__ __forceinline__ void produce(const BlockWork& work, const std::int32_t* blockTable, int blockSize,
                                        int boxRows, int numKvHeads, const CUtensorMap& keyMap,
                                        const CUtensorMap& valueMap, unsigned char* shared,
                                        std::uint64_t* full, std::uint64_t* empty, int lane) {
  const int tiles = (work.keyEnd + kKeys - 1) / kKeys;
  const int boxes = kKeys / boxRows;  // at most 16
  const int lastBox = (work.keyEnd - 1) / boxRows * boxRows;
  for (int k = 0; k < tiles; ++k) {
    const int stage = k % kStages;
    int row = 0;
    if (lane < boxes) {
      const int key = min(k * kKeys + lane * boxRows, lastBox);
      const int block = blockTable[key / blockSize];
      row = (block * numKvHeads + work.kvHead) * blockSize + key % blockSize;
    }
    if (k >= kStages) barrierWait(&empty[stage], ((k / kStages) + 1) & 1);
    if (lane == 0) barrierExpectBytes(&full[stage], 2 * kTileBytes);
    __syncwarp();
    if (lane < boxes) {
      unsigned char* keyDst = shared + kKeyOffset + stage * kTileBytes + lane * boxRows * kHalfBytes;
      unsigned char* valueDst = shared + kValueOffset + stage * kTileBytes + lane * boxRows * kHalfBytes;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        tmaLoad(keyDst + half * (kTileBytes / 2), keyMap, half * 64, row, &full[stage]);
        tmaLoad(valueDst + half * (kTileBytes / 2), valueMap, half * 64, row, &full[stage]);
      }
    }
  }
}

// A consumer's 64 rows of Q (packed row firstRow + r: position index (firstRow + r) / G, head
// kvHead x G + (firstRow + r) % G), rows past the sequence zero, by cp.async into its swizzled halves.
__device__ __forceinline__ void loadQuery(unsigned char* qTile, const bf16* qkv, int qkvStride,
                                          const BlockWork& work, int firstRow, int thread) {
#pragma unroll
  for (int i = 0; i < kConsumerRows * 16 / 128; ++i) {
    const int c = thread + i * 128;
    const int r = c / 16;
    const int chunk = c % 16;
    unsigned char* dst =
        qTile + (chunk / 8) * (kQBytes / 2) + r * kHalfBytes + (((chunk % 8) ^ (r % 8)) << 4);
    const int row = firstRow + r;
    if (row < work.totalRows) {
      const int head = work.kvHead * work.group + row % work.group;
      cpAsync16(dst, qkv + static_cast<std::int64_t>(work.queryStart + row / work.group) * qkvStride +
                         head * kHeadDim + chunk * 8);
    } else {
      *reinterpret_cast<uint4*>(dst) = make_uint4(0, 0, 0, 0);
    }
  }
}

// The consumer's registers between tiles.
struct ConsumerState {
  float o[64];       // O, the wgmma accumulator of the warpgroup's 64 rows x 128 dims
  float rowMax[2];   // running max of the raw scores of the thread's rows g and g + 8
  float rowSum[2];   // this thread's share of their running sums
  unsigned p[8][4];  // P of the last tile in bf16, the A fragments of its 8 key slices
};

// Issues S = Q K^T for the consumer's 64 rows and the tile's 128 keys (the caller commits and waits).
__device__ __forceinline__ void issueScores(float (&s)[64], const unsigned char* qTile,
                                            const unsigned char* keyTile) {
#pragma unroll
  for (int d = 0; d < kHeadDim / 16; ++d) {
    const std::uint64_t a = matrixDescriptor(qTile + (d / 4) * (kQBytes / 2) + (d % 4) * 32, 16, 1024);
    const std::uint64_t b = matrixDescriptor(keyTile + (d / 4) * (kTileBytes / 2) + (d % 4) * 32, 16, 1024);
    wgmmaSS<0>(s, a, b, d > 0 ? 1 : 0);
  }
}

// Issues O += P V for the tile whose P the state holds (the caller commits and waits).
__device__ __forceinline__ void issueValues(ConsumerState& state, const unsigned char* valueTile) {
#pragma unroll
  for (int kk = 0; kk < 8; ++kk)
    wgmmaRS<1>(state.o, state.p[kk],
               matrixDescriptor(valueTile + kk * 16 * kHalfBytes, kTileBytes / 2, 1024));
}

// Scores of keys past a row's position become -inf (rowPosition: rows g and g + 8; key of s[4j + i]:
// keyBase + 8j + 2t + i % 2).
__device__ __forceinline__ void maskScores(float (&s)[64], int keyBase, const int (&rowPosition)[2], int t) {
#pragma unroll
  for (int j = 0; j < 16; ++j) {
    const int key = keyBase + 8 * j + 2 * t;
    if (key > rowPosition[0]) s[4 * j] = -INFINITY;
    if (key + 1 > rowPosition[0]) s[4 * j + 1] = -INFINITY;
    if (key > rowPosition[1]) s[4 * j + 2] = -INFINITY;
    if (key + 1 > rowPosition[1]) s[4 * j + 3] = -INFINITY;
  }
}

// The online softmax's first half, which needs no O: the new row maxima, S turned into unnormalised
// probabilities in place, the factor alpha that rescales what came before and this tile's sums. A row with
// no key yet (max -inf) keeps P = 0 (offset 0 instead of -inf - -inf).
__device__ __forceinline__ void softmaxScores(float (&s)[64], float (&rowMax)[2], float (&alpha)[2],
                                              float (&tileSum)[2], float scaleLog2) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float tileMax = -INFINITY;
#pragma unroll
    for (int j = 0; j < 16; ++j)
      tileMax = fmaxf(tileMax, fmaxf(s[4 * j + 2 * h], s[4 * j + 2 * h + 1]));
    tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 1));
    tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 2));
    const float newMax = fmaxf(rowMax[h], tileMax);
    const float offset = newMax == -INFINITY ? 0.0f : newMax * scaleLog2;
    alpha[h] = exp2Approx(rowMax[h] * scaleLog2 - offset);
    rowMax[h] = newMax;
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      s[4 * j + 2 * h] = exp2Approx(fmaf(s[4 * j + 2 * h], scaleLog2, -offset));
      s[4 * j + 2 * h + 1] = exp2Approx(fmaf(s[4 * j + 2 * h + 1], scaleLog2, -offset));
      sum += s[4 * j + 2 * h] + s[4 * j + 2 * h + 1];
    }
    tileSum[h] = sum;
  }
}

// The second half, once no wgmma writes O: O and the sums rescaled, this tile's P packed to bf16 A
// fragments (keys [16kk, 16kk + 16) from the C fragments of key tiles 2kk and 2kk + 1).
__device__ __forceinline__ void rescaleAndPack(ConsumerState& state, const float (&s)[64],
                                               const float (&alpha)[2], const float (&tileSum)[2]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    state.rowSum[h] = state.rowSum[h] * alpha[h] + tileSum[h];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      state.o[4 * j + 2 * h] *= alpha[h];
      state.o[4 * j + 2 * h + 1] *= alpha[h];
    }
  }
#pragma unroll
  for (int kk = 0; kk < 8; ++kk) {
    state.p[kk][0] = packBf16(s[8 * kk], s[8 * kk + 1]);
    state.p[kk][1] = packBf16(s[8 * kk + 2], s[8 * kk + 3]);
    state.p[kk][2] = packBf16(s[8 * kk + 4], s[8 * kk + 5]);
    state.p[kk][3] = packBf16(s[8 * kk + 6], s[8 * kk + 7]);
  }
}

// Where a consumer's tiles are and which of its rows' keys need the mask.
struct ConsumerTiles {
  const unsigned char* shared;
  std::uint64_t* full;
  std::uint64_t* empty;
  const unsigned char* qTile;
  int tiles;          // the block's tiles (every one is waited for and given back)
  int computed;       // the first `computed` of them hold keys of this consumer's rows
  int firstPosition;  // of the consumer's first row: tiles reaching past it are masked
  int rowPosition[2];
  int t;
  int lane;
  __device__ const unsigned char* keys(int k) const {
    return shared + kKeyOffset + (k % kStages) * kTileBytes;
  }
  __device__ const unsigned char* values(int k) const {
    return shared + kValueOffset + (k % kStages) * kTileBytes;
  }
  __device__ void waitFull(int k) const { barrierWait(&full[k % kStages], (k / kStages) & 1); }
  __device__ void giveBack(int k) const {
    __syncwarp();
    if (lane == 0) barrierArrive(&empty[k % kStages]);
  }
};

// Tile k's S = Q K^T is issued together with tile k - 1's O += P V; the softmax of tile k runs while that
// product is still on the tensor cores, and only the rescale of O waits for it. The first tile and the
// last product are peeled off the loop, so that its body issues the same wgmma groups on every pass.
__device__ __forceinline__ void consumeOverlapped(ConsumerState& state, const ConsumerTiles& c,
                                                  float scaleLog2) {
  float s[64];
  float alpha[2], tileSum[2];
  auto softmax = [&](int k) {
    if (k * kKeys + kKeys - 1 > c.firstPosition) maskScores(s, k * kKeys, c.rowPosition, c.t);
    softmaxScores(s, state.rowMax, alpha, tileSum, scaleLog2);
  };
  if (c.computed > 0) {
    c.waitFull(0);
    wgmmaFence();
    issueScores(s, c.qTile, c.keys(0));
    wgmmaCommit();
    wgmmaWait<0>();
    fenceRegisters(s);
    softmax(0);
    rescaleAndPack(state, s, alpha, tileSum);
    for (int k = 1; k < c.computed; ++k) {
      c.waitFull(k);
      fenceRegisters(state.o);
      wgmmaFence();
      issueScores(s, c.qTile, c.keys(k));
      wgmmaCommit();
      issueValues(state, c.values(k - 1));
      wgmmaCommit();
      wgmmaWait<1>();  // S of tile k; the P V of tile k - 1 may still run
      fenceRegisters(s);
      softmax(k);
      wgmmaWait<0>();
      fenceRegisters(state.o);
      c.giveBack(k - 1);
      rescaleAndPack(state, s, alpha, tileSum);
    }
    fenceRegisters(state.o);
    wgmmaFence();
    issueValues(state, c.values(c.computed - 1));
    wgmmaCommit();
    wgmmaWait<0>();
    fenceRegisters(state.o);
    c.giveBack(c.computed - 1);
  }
  for (int k = c.computed; k < c.tiles; ++k) {  // tiles past this consumer's rows: waited for, given back
    c.waitFull(k);
    c.giveBack(k);
  }
}

// Grid: (KV head, block of packed rows counted from the last, sequence in seqs).
__global__ void __launch_bounds__(kThreads, 1)
    hopperPrefillKernel(bf16* out, const bf16* qkv, int qkvStride, SeqTable table, const std::int32_t* seqs,
                        int numHeads, int numKvHeads, int blockSize, int boxRows, float scaleLog2,
                        const __grid_constant__ CUtensorMap keyMap,
                        const __grid_constant__ CUtensorMap valueMap) {
  extern __shared__ unsigned char sharedRaw[];
  unsigned char* shared = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(sharedRaw) + 1023) & ~std::uintptr_t{1023});
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(shared + kBarrierOffset);
  std::uint64_t* empty = full + kStages;

  const int seq = seqs[blockIdx.z];
  BlockWork work;
  work.group = numHeads / numKvHeads;
  work.kvHead = blockIdx.x;
  const int queryLen = table.queryLen[seq];
  work.totalRows = queryLen * work.group;
  work.firstRow = (gridDim.y - 1 - blockIdx.y) * kRows;
  if (work.firstRow >= work.totalRows) return;
  work.positionBase = table.contextLen[seq] - queryLen;
  work.queryStart = table.queryStart[seq];
  work.keyEnd = work.positionBase + (min(work.firstRow + kRows, work.totalRows) - 1) / work.group + 1;

  const int tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      barrierInit(&full[s], 1);
      barrierInit(&empty[s], 8);  // the consumers' 8 warps
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  // Broadcast from lane 0, so that the compiler knows it is the same in every thread of a warp: a
  // branch on a value it must assume divergent makes it serialise the wgmma instructions inside.
  const int warpgroup = __shfl_sync(0xffffffffu, tid / 128, 0);
  const int lane = tid & 31;
  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kProducerRegisters));
    if (tid < 32)
      produce(work, table.blockTables + static_cast<std::int64_t>(seq) * table.blockTableStride, blockSize,
              boxRows, numKvHeads, keyMap, valueMap, shared, full, empty, lane);
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kConsumerRegisters));
    const int consumer = warpgroup - 1;
    const int thread = tid - 128 * warpgroup;  // within the warpgroup
    const int warp = thread >> 5;
    unsigned char* qTile = shared + kQOffset + consumer * kQBytes;
    const int firstRow = work.firstRow + consumer * kConsumerRows;
    loadQuery(qTile, qkv, qkvStride, work, firstRow, thread);
    cpAsyncCommit();
    cpAsyncWait<0>();
    // Written by ordinary stores and cp.async, read next by wgmma (the async proxy).
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    namedBarrier(1 + consumer, 128);

    // This consumer's rows: positions [firstPosition, lastPosition]; none when firstRow is past the end.
    const bool hasRows = firstRow < work.totalRows;
    const int lastRow = min(firstRow + kConsumerRows, work.totalRows) - 1;
    const int firstPosition = work.positionBase + firstRow / work.group;
    const int lastPosition = work.positionBase + lastRow / work.group;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int rowPosition[2] = {work.positionBase + (firstRow + warp * 16 + g) / work.group,
                                work.positionBase + (firstRow + warp * 16 + g + 8) / work.group};

    ConsumerState state;
#pragma unroll
    for (int i = 0; i < 64; ++i)
      state.o[i] = 0.0f;
    state.rowMax[0] = state.rowMax[1] = -INFINITY;
    state.rowSum[0] = state.rowSum[1] = 0.0f;
    ConsumerTiles c;
    c.shared = shared;
    c.full = full;
    c.empty = empty;
    c.qTile = qTile;
    c.tiles = (work.keyEnd + kKeys - 1) / kKeys;
    c.computed = hasRows ? min(c.tiles, lastPosition / kKeys + 1) : 0;
    c.firstPosition = firstPosition;
    c.rowPosition[0] = rowPosition[0];
    c.rowPosition[1] = rowPosition[1];
    c.t = t;
    c.lane = lane;
    consumeOverlapped(state, c, scaleLog2);

    if (hasRows) {
      // Every warp of this consumer is past its last wgmma, so its Q tile is free: the output goes
      // through it (rows of 256 bytes, swizzled as in the portable kernel) to leave in 16-byte stores.
      namedBarrier(1 + consumer, 128);
      float inverse[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float sum = state.rowSum[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        inverse[h] = 1.0f / sum;  // every row sees key 0
      }
      bf16* stage = reinterpret_cast<bf16*>(qTile);
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        *reinterpret_cast<unsigned*>(stage + swizzled(warp * 16 + g, j) + 2 * t) =
            packBf16(state.o[4 * j] * inverse[0], state.o[4 * j + 1] * inverse[0]);
        *reinterpret_cast<unsigned*>(stage + swizzled(warp * 16 + g + 8, j) + 2 * t) =
            packBf16(state.o[4 * j + 2] * inverse[1], state.o[4 * j + 3] * inverse[1]);
      }
      __syncwarp();
      const std::int64_t outStride = static_cast<std::int64_t>(numHeads) * kHeadDim;
#pragma unroll
      for (int i = 0; i < 16 * 16 / 32; ++i) {
        const int r = warp * 16 + 2 * i + (lane >> 4);
        const int chunk = lane & 15;
        const int row = firstRow + r;
        if (row < work.totalRows) {
          const int head = work.kvHead * work.group + row % work.group;
          *reinterpret_cast<uint4*>(out + (work.queryStart + row / work.group) * outStride + head * kHeadDim +
                                    chunk * 8) = *reinterpret_cast<const uint4*>(stage + swizzled(r, chunk));
        }
      }
    }
  }
}

#else  // the compute_90 PTX and the host pass: the launcher runs this kernel only on sm_90a machine code

__global__ void hopperPrefillKernel(bf16*, const bf16*, int, SeqTable, const std::int32_t*, int, int, int,
                                    int, float, const __grid_constant__ CUtensorMap,
                                    const __grid_constant__ CUtensorMap) {
#if defined(__CUDA_ARCH__)
  __trap();
#endif
}

#endif

// ---------------------------------------------------------------------------------------------------
// Host side

// The driver's tensor-map encoder, looked up once through the runtime (the program links no libcuda).
PFN_cuTensorMapEncodeTiled_v12000 tensorMapEncoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return PFN_cuTensorMapEncodeTiled_v12000{};
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return encoder;
}

// Keys of a cache block that one TMA box takes: the whole block when it fits in a tile, else a tile.
int boxRowsFor(int blockSize) {
  return blockSize < kKeys ? blockSize : kKeys;
}

// The cache of one layer (K or V) as a 2-D tensor: rows of 128 bf16, one per (block, KV head, offset).
CUtensorMap cacheTensorMap(const Bf16* base, const LayerKvCache& cache) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(kHeadDim),
                              static_cast<cuuint64_t>(cache.numBlocks) * cache.numKvHeads * cache.blockSize};
  const cuuint64_t strides[1] = {kHeadDim * sizeof(Bf16)};
  const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(boxRowsFor(cache.blockSize))};
  const cuuint32_t elementStrides[2] = {1, 1};
  const CUresult result =
      tensorMapEncoder()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<Bf16*>(base), dims, strides,
                         box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw Error("prefill attention: the KV cache's tensor map could not be made (CUDA driver error " +
                std::to_string(static_cast<int>(result)) + ")");
  return map;
}

bool hopperDevice() {
  static const bool hopper = [] {
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return major == 9 && minor == 0 && tensorMapEncoder() != nullptr;
  }();
  return hopper;
}

}  // namespace

bool hopperPrefillAvailable(const LayerKvCache& cache) {
  const int b = cache.blockSize;
  const bool tiles = b >= 8 && (b & (b - 1)) == 0;  // a power of two: divides 128 or is a multiple of it
  const std::int64_t rows = std::int64_t{cache.numBlocks} * cache.numKvHeads * b;
  return tiles && cache.numBlocks > 0 && rows < (std::int64_t{1} << 31) && hopperDevice();
}

namespace detail {

void prefillAttentionHopper(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                            const std::int32_t* seqs, int count, int maxQueryLen, int numHeads,
                            const LayerKvCache& cache, Stream stream) {
  static const bool attributeSet = [] {
    return cudaFuncSetAttribute(hopperPrefillKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                kSharedBytes) == cudaSuccess;
  }();
  if (!attributeSet)
    throw Error(
        "prefill attention: the device cannot give a block the shared memory the Hopper kernel needs");
  const CUtensorMap keyMap = cacheTensorMap(cache.key, cache);
  const CUtensorMap valueMap = cacheTensorMap(cache.value, cache);
  const int group = numHeads / cache.numKvHeads;
  const dim3 grid(cache.numKvHeads, (maxQueryLen * group + kRows - 1) / kRows, count);
  const float scaleLog2 = static_cast<float>(1.4426950408889634 / std::sqrt(static_cast<double>(kHeadDim)));
  hopperPrefillKernel<<<grid, kThreads, kSharedBytes, stream>>>(
      asBf16(out), asBf16(qkv), qkvStride, table, seqs, numHeads, cache.numKvHeads, cache.blockSize,
      boxRowsFor(cache.blockSize), scaleLog2, keyMap, valueMap);
  checkLaunch("prefillAttention (Hopper)");
}

}  // namespace detail
}  // namespace ayar::engine::cuda
