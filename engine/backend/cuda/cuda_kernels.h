#pragma once

// The CUDA backend's own kernels, as host functions that launch them on a stream. Device pointers are
// plain pointers; bf16 tensors are passed as std::uint16_t (the bits of a bfloat16), so that this
// header needs no CUDA header and the tests can be plain C++. Every function checks its launch and
// throws ayar::Error on a CUDA error. They are defined under kernels/, one file per family, each kernel
// beside the function that launches it; memory-bound kernels use 16-byte loads, both attentions
// the tensor cores through mma.sync.

#include <cstdint>

struct CUstream_st;

namespace ayar::engine::cuda {

using Stream = CUstream_st*;
using Bf16 = std::uint16_t;

inline constexpr int kHeadDim = 128;  // every Qwen3 size; the attention kernels are built for it

// Where each sequence of a step sits. All arrays are on the device, indexed by the sequence's place in
// the batch; blockTables is [numSeqs, blockTableStride].
struct SeqTable {
  const std::int32_t* queryStart = nullptr;  // first row of the sequence's new tokens
  const std::int32_t* queryLen = nullptr;    // its new tokens
  const std::int32_t* contextLen = nullptr;  // tokens in the cache after this step (position + queryLen)
  const std::int32_t* blockTables = nullptr;
  int blockTableStride = 0;
};

// The paged KV cache of one layer: K and V each [numBlocks, kvHeads, blockSize, headDim] bf16.
struct LayerKvCache {
  Bf16* key = nullptr;
  Bf16* value = nullptr;
  int blockSize = 0;
  int numKvHeads = 0;
  int numBlocks = 0;  // the pool's extent, for the Hopper prefill kernel's tensor maps (0: unknown)
};

// residual[t, :] = float(embedding[tokens[t], :])
void embedRows(float* residual, const Bf16* embedding, const std::int32_t* tokens, int rows, int hidden,
               Stream stream);

// For each output row r (input row i = rowIndex ? rowIndex[r] : r): residual[i] += add[i] (when add is
// set), then out[r] = rmsnorm(residual[i]) * weight, in bf16.
void addRmsNorm(Bf16* out, float* residual, const Bf16* add, const Bf16* weight, const std::int32_t* rowIndex,
                int rows, int hidden, float eps, Stream stream);

// cos and sin of position p times each rotary frequency, [maxPositions, headDim / 2] floats each, computed
// in double precision once.
void fillRopeTable(float* cosines, float* sines, int maxPositions, int headDim, double theta, Stream stream);

// qkv rows are [q heads | k heads | v heads] of headDim each. Per row: each q and k head is RMS-normed
// (qNorm / kNorm over headDim) and rotated (NeoX halves) for positions[t]; q is written back in place,
// k and v go to the cache slot slots[t] (block * blockSize + offset).
void qkNormRopeKvWrite(Bf16* qkv, const Bf16* qNorm, const Bf16* kNorm, const float* cosines,
                       const float* sines, const std::int32_t* positions, const std::int32_t* slots, int rows,
                       int numHeads, const LayerKvCache& cache, float eps, Stream stream);

// out[t, i] = silu(gateUp[t, i]) * gateUp[t, intermediate + i]
void siluMul(Bf16* out, const Bf16* gateUp, int rows, int intermediate, Stream stream);

// With rope set, decodeAttention also does qkNormRopeKvWrite's work for its sequences' new tokens (the
// row's q heads normed and rotated on the way in, k and v written to the cache slot of position
// contextLen - 1), so that a step of decodes alone needs no qkNormRopeKvWrite launch.
struct DecodeRope {
  const Bf16* qNorm = nullptr;  // null: the rows were already done by qkNormRopeKvWrite
  const Bf16* kNorm = nullptr;
  const float* cosines = nullptr;
  const float* sines = nullptr;
  float eps = 0.0f;
};

// Decode attention for sequences with one new token (listed in seqs[0..count); seqs null: the sequences
// 0..count-1, one dependent load less at the kernel's start), in one launch on the tensor cores,
// GQA-aware: a block reads a KV head's pages once for all its query heads. The context is split into `splits`
// parts that run in parallel; the last block of each (sequence, KV head) to finish merges them. partials
// needs decodeAttentionPartialFloats(count, numHeads, splits) floats (unused with one split) and
// counters count * numKvHeads unsigned zeros (left zero after the launch). q is read from qkv (row
// stride qkvStride); out is [rows, numHeads * headDim]. With overlapPrevious the kernel is launched as a
// programmatic dependent of the one before it (see the GEMVs below).
std::int64_t decodeAttentionPartialFloats(int count, int numHeads, int splits);
// The splits the backend gives a decode attention over `count` sequences of up to maxContext keys:
// enough blocks to fill the GPU's multiprocessors twice when the batch alone does not, in partitions of
// whole 64-key tiles; where that leaves fewer than 16 splits, partitions down to 16 keys (a short context
// spread over small partitions finishes sooner). Small partitions stop at 16 splits: beyond that they cost
// more than they save, and whole tiles win (timings in docs/BENCHMARKS.md). Powers of two, so that decode
// graphs come in few variants.
int decodeAttentionSplits(int count, int maxContext, int kvHeads, int multiprocessors);
void decodeAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                     const std::int32_t* seqs, int count, int numHeads, const LayerKvCache& cache, int splits,
                     float* partials, unsigned* counters, const DecodeRope& rope, bool overlapPrevious,
                     Stream stream);

// Causal attention for sequences with several new tokens (prefill chunks, listed in seqs[0..count)), over
// their whole context in the paged cache (earlier chunks and prefix-cache hits included), flash-style on
// the tensor cores. maxQueryLen bounds the queryLen of the listed sequences.
//
// Two kernels: the Hopper one (warpgroup MMA fed by the tensor memory accelerator, kernels/
// prefill_attention_hopper.cu) on a compute capability 9.0 GPU when the cache's blocks tile its 128-key
// stages (a block size of 8-128 dividing 128, or a multiple of 128) and cache.numBlocks is given; the
// portable one (mma.sync, kernels/prefill_attention.cu) elsewhere. Best picks; the tests and the
// benchmark name one (Hopper where it cannot run throws).
enum class PrefillKernel { Best, Hopper, Portable };
void prefillAttention(Bf16* out, const Bf16* qkv, int qkvStride, const SeqTable& table,
                      const std::int32_t* seqs, int count, int maxQueryLen, int numHeads,
                      const LayerKvCache& cache, Stream stream, PrefillKernel kernel = PrefillKernel::Best);
// Whether the Hopper kernel can run this cache's layout on the current device.
bool hopperPrefillAvailable(const LayerKvCache& cache);

// y[m, n] = sum_k x[m, k] * w[n, k] for m < rows <= kGemvMaxRows: a GEMV that streams the weight once,
// each output feature split along k over one warp per 1,024 elements up to 8 warps (two features a
// block), or up to 16 warps (one feature a block; not for the gate/up form), longer rows over 4 warps that
// loop (k a multiple of 8). Rows of 2-8 warps' worth that all fit on the GPU at once as one looping warp
// each take that form instead (one wave of blocks, no tail; not for the gate/up form).
inline constexpr int kGemvMaxRows = 8;
void gemv(Bf16* y, const Bf16* x, const Bf16* w, int rows, int n, int k, Stream stream);
void gemv(float* y, const Bf16* x, const Bf16* w, int rows, int n, int k, Stream stream);

// The decode path's GEMVs, for steps of up to kGemvFusedRows rows, with the kernels around them folded
// in. Each RMSNorm is split between the two GEMVs around it: the GEMV that updates the residual stream
// also writes the new rows times the next norm's weight (in bf16) and adds their sums of squares into a
// double per row; the GEMV after the norm reads those bf16 rows as its x and multiplies each dot product
// by the row's RMS scale, 1 / sqrt(sumSquares / k + eps). So every GEMV streams its weight with a plain
// bf16 x and a few flops of epilogue. Launch::Dependent launches a kernel as a programmatic dependent of
// the one before it on the stream: its blocks may start while that one finishes, issue their first
// weight loads, then wait for it before touching anything it wrote.
enum class Launch { Plain, Dependent };
inline constexpr int kGemvFusedRows = 2;

// A residual stream as the decode path keeps it (device pointers, rows of one width).
struct NormedRows {
  float* residual = nullptr;     // [rows, width]
  Bf16* weighted = nullptr;      // [rows, width]: bf16(residual * the weight of the RMSNorm that follows)
  double* sumSquares = nullptr;  // [rows]: each row's sum of residual^2
};

// out.residual[m] = embedding[tokens[m]], out.weighted and out.sumSquares from it and norm; clear[m] = 0.
void embedRowsNormed(const NormedRows& out, double* clear, const Bf16* embedding, const std::int32_t* tokens,
                     const Bf16* norm, int rows, int hidden, Stream stream);
// y[m, :] = s_m (weighted[m, :] W^T), s_m the RMS scale of sumSquares[m] over k: the GEMV after an RMSNorm.
void gemvNormed(Bf16* y, const Bf16* weighted, const double* sumSquares, float eps, const Bf16* w, int rows,
                int n, int k, Launch launch, Stream stream);
// The same with float output, input row rowIndex[m] for output row m (the lm_head over the sampled rows).
void gemvNormed(float* y, const Bf16* weighted, const double* sumSquares, const std::int32_t* rowIndex,
                float eps, const Bf16* w, int rows, int n, int k, Launch launch, Stream stream);
// activated[m, i] = silu(g) * u with g, u the normed GEMV's outputs i and intermediate + i of gateUp (the
// fused gate/up projection, 2 * intermediate rows of k).
void gemvNormedSiluMul(Bf16* activated, const Bf16* weighted, const double* sumSquares, float eps,
                       const Bf16* gateUp, int rows, int intermediate, int k, Launch launch, Stream stream);
// out.residual[m, :] += x[m, :] W^T (width n); then out.weighted[m, :] = bf16(out.residual[m, :] * nextNorm),
// out.sumSquares[m] += the new row's sum of squares, and clear[m] = 0 (the other norm's slot, whose reader
// has finished). out.sumSquares must be zero before.
void gemvAddResidualNormed(const NormedRows& out, double* clear, const Bf16* nextNorm, const Bf16* x,
                           const Bf16* w, int rows, int n, int k, Launch launch, Stream stream);

// One row per sequence that samples: temperature (<= 0: greedy), top-p (>= 1: off), top-k (<= 0: off)
// and the uniform draw u in [0, 1) that picks the token by inverse CDF over the kept tokens in id order.
struct SampleParams {
  const float* temperature = nullptr;
  const float* topP = nullptr;
  const std::int32_t* topK = nullptr;
  const float* uniform = nullptr;
};
void sampleTokens(std::int32_t* tokens, const float* logits, int rows, int vocab, const SampleParams& params,
                  Stream stream);

// Fills n bf16 values as makeDummyWeights draws them (see DummyTensorDraw), starting at tensor index 0.
void fillDummy(Bf16* out, std::int64_t n, std::uint64_t chunkBase, float center, float halfWidth,
               Stream stream);

// float <-> bf16 bits, round to nearest even, on the host.
Bf16 toBf16(float value);
float fromBf16(Bf16 bits);

}  // namespace ayar::engine::cuda
