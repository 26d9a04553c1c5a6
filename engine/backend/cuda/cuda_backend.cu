// The bf16 forward pass of a Qwen3 dense model on one NVIDIA GPU, over a paged KV cache.
//
// A step's new tokens are the rows of one activation matrix (as in the CPU backend):
//
//   x = embed(tokens)                                   residual stream in float32
//   per layer:  h = rmsnorm(x [+ previous mlp out])      addRmsNorm
//               qkv = h Wqkv                             one GEMM (q, k, v projections fused)
//               q, k = rmsnorm per head, rope; k, v -> cache   qkNormRopeKvWrite
//               a = attention(q, cache)                  decodeAttention / prefillAttention
//               h = rmsnorm(x += a Wo)                   GEMM, addRmsNorm
//               m = silu(h Wgate) * (h Wup)               one GEMM (gate, up fused), siluMul
//               mlp out = m Wdown                         GEMM (added at the next norm)
//   logits = rmsnorm(x + mlp out) Wlm_head for the last row of each sampling sequence; sampled on the GPU
//
// GEMMs of up to 2 rows (decode at batch 1-2) use the own GEMVs, larger ones cuBLAS (from 4 rows on
// cuBLAS is no slower; the comparison is in docs/BENCHMARKS.md). At up to 2 rows a layer is five launches
// (by default the GEMVs that follow a GEMV as programmatic dependents, see DecodeOverlap): the qkv GEMV,
// the attention, the o GEMV adding into the residual stream, the gate/up GEMV with SiLU * mul
// after it, and the down GEMV adding into the residual stream. The norms are split between the GEMVs
// around them: the GEMV that adds into the residual stream writes it times the next norm's weight with
// each row's sum of squares, and the GEMV after the norm scales its dot products by the RMS factor. When
// every sequence decodes, the decode attention also norms, rotates and caches the new q, k and v (no
// qkNormRopeKvWrite launch). A step in which every sequence decodes one
// token and samples is captured once per (batch size, attention splits, block-table width) as a CUDA graph
// and replayed.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>

#include "core/error.h"
#include "engine/backend/cuda/cuda_backend.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/backend/cuda/cuda_support.h"
#include "engine/backend/seeded_uniform.h"

namespace ayar::engine {

using cuda::Bf16;
using cuda_support::check;
using cuda_support::Cublas;
using cuda_support::DeviceArray;

namespace {

struct LayerDeviceWeights {
  DeviceArray<Bf16> inputLayernorm, qkvProj, qNorm, kNorm, oProj, postAttentionLayernorm, gateUpProj,
      downProj;
};

int roundUp(int value, int multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Steps of up to this many tokens use the own GEMV instead of cuBLAS (see bench_cuda_backend's rows).
constexpr int kGemvRows = cuda::kGemvFusedRows;

// The row count a step of more than kGemvRows rows computes with (see CudaBackendTuning::bucketRows),
// and the lm_head's count of sampled rows in such a step.
int bucketRows(int rows) {
  const int grain = rows <= 256 ? 16 : rows <= 1024 ? 64 : rows <= 4096 ? 256 : 512;
  return roundUp(rows, grain);
}
int bucketSamples(int samples) {
  return roundUp(samples, 16);
}

int nextPowerOfTwo(int value) {
  int p = 1;
  while (p < value)
    p *= 2;
  return p;
}

}  // namespace

struct CudaBackend::State {
  ModelConfig config;
  CudaBackendOptions options;
  int multiprocessors = 0;
  int qDim = 0, kvDim = 0, qkvDim = 0;
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  DeviceArray<std::uint8_t> cublasWorkspace;

  // Weights (bf16).
  DeviceArray<Bf16> embedTokens, finalNorm, lmHead;
  std::vector<LayerDeviceWeights> layers;
  DeviceArray<float> ropeCos, ropeSin;
  int ropePositions = 0;

  // KV cache: [layer][block][kvHead][slot][headDim] for K and for V.
  DeviceArray<Bf16> keyCache, valueCache;
  int numBlocks = 0, blockSize = 0;

  // Activations, for up to tokenCap rows and seqCap sequences.
  int tokenCap = 0, seqCap = 0;
  DeviceArray<float> residual;
  DeviceArray<Bf16> normed, qkv, attention, projected, gateUp, activated, finalNormed;
  DeviceArray<float> logits, decodePartials;
  DeviceArray<double> sumSquares;  // the decode path's two norm slots of kGemvRows rows (see forward)
  DeviceArray<std::int32_t> sampled;
  DeviceArray<unsigned> decodeCounters;  // [seq][kvHead], zero between launches
  std::int64_t partialCap = 0;

  // The step's inputs: packed on the host (pinned) and copied in one transfer.
  DeviceArray<std::int32_t> staging;
  std::int32_t* hostStaging = nullptr;
  std::int32_t* hostSampled = nullptr;
  std::int64_t stagingCap = 0;
  int lastSampledRows = 0;

  // Decode graphs by (batch size, splits, block-table width).
  std::map<std::tuple<int, int, int>, cudaGraphExec_t> graphs;
  std::uint64_t unseededDraws = 0;

  // With options.tuning.timeSteps: events around each step's device work.
  cudaEvent_t stepStart = nullptr, stepEnd = nullptr;
  double lastDeviceMs = 0.0;

  ~State() {
    dropGraphs();
    if (stepStart) cudaEventDestroy(stepStart);
    if (stepEnd) cudaEventDestroy(stepEnd);
    if (hostStaging) cudaFreeHost(hostStaging);
    if (hostSampled) cudaFreeHost(hostSampled);
    if (cublas) Cublas::get().destroy(cublas);
    if (stream) cudaStreamDestroy(stream);
  }

  void dropGraphs() {
    for (auto& [key, exec] : graphs)
      cudaGraphExecDestroy(exec);
    graphs.clear();
  }

  // The packed layout of one step's inputs (offsets in int32 units into staging).
  struct Layout {
    int tokens = 0, seqs = 0, stride = 0;
    std::int64_t tokenIds = 0, positions = 0, slots = 0, queryStart = 0, queryLen = 0, contextLen = 0,
                 decodeSeqs = 0, prefillSeqs = 0, sampleRows = 0, topK = 0, temperature = 0, topP = 0,
                 uniform = 0, blockTables = 0, total = 0;
  };

  static Layout layoutFor(int tokens, int seqs, int stride) {
    Layout l;
    l.tokens = tokens;
    l.seqs = seqs;
    l.stride = stride;
    std::int64_t at = 0;
    for (std::int64_t* field : {&l.tokenIds, &l.positions, &l.slots}) {
      *field = at;
      at += roundUp(tokens, 4);
    }
    for (std::int64_t* field : {&l.queryStart, &l.queryLen, &l.contextLen, &l.decodeSeqs, &l.prefillSeqs,
                                &l.sampleRows, &l.topK, &l.temperature, &l.topP, &l.uniform}) {
      *field = at;
      at += roundUp(seqs, 4);
    }
    l.blockTables = at;
    at += static_cast<std::int64_t>(seqs) * stride;
    l.total = at;
    return l;
  }

  // What one step runs, besides the packed inputs.
  struct Plan {
    Layout layout;
    int decodeCount = 0, prefillCount = 0, maxQueryLen = 0, splits = 1, sampleCount = 0;
    // Rows the GEMMs and row-wise kernels of a step of more than kGemvRows rows compute, and the lm_head's
    // (see CudaBackendTuning::bucketRows); the rows past the step's own hold stale values nobody reads.
    int gemmRows = 0, gemmSamples = 0;
  };

  void ensureCapacity(int tokens, int seqs, std::int64_t stagingInts, std::int64_t partialFloats) {
    const ModelConfig& c = config;
    bool changed = false;
    if (tokens > tokenCap) {
      tokenCap = roundUp(tokens, 64);
      residual.resize(std::int64_t{tokenCap} * c.hiddenSize);
      normed.resize(std::int64_t{tokenCap} * c.hiddenSize);
      qkv.resize(std::int64_t{tokenCap} * qkvDim);
      attention.resize(std::int64_t{tokenCap} * qDim);
      projected.resize(std::int64_t{tokenCap} * c.hiddenSize);
      gateUp.resize(std::int64_t{tokenCap} * 2 * c.intermediateSize);
      activated.resize(std::int64_t{tokenCap} * c.intermediateSize);
      changed = true;
    }
    if (seqs > seqCap) {
      seqCap = roundUp(seqs, 16);
      finalNormed.resize(std::int64_t{seqCap} * c.hiddenSize);
      logits.resize(std::int64_t{seqCap} * c.vocabSize);
      sampled.resize(seqCap);
      decodeCounters.resize(std::int64_t{seqCap} * c.numKvHeads);
      check(cudaMemset(decodeCounters.get(), 0, sizeof(unsigned) * decodeCounters.size()), "cudaMemset");
      if (hostSampled) cudaFreeHost(hostSampled);
      hostSampled = nullptr;
      check(cudaMallocHost(&hostSampled, sizeof(std::int32_t) * seqCap), "cudaMallocHost");
      changed = true;
    }
    if (stagingInts > stagingCap) {
      stagingCap = std::max<std::int64_t>(stagingInts * 2, 4096);
      staging.resize(stagingCap);
      if (hostStaging) cudaFreeHost(hostStaging);
      hostStaging = nullptr;
      check(cudaMallocHost(&hostStaging, sizeof(std::int32_t) * stagingCap), "cudaMallocHost");
      changed = true;
    }
    if (partialFloats > partialCap) {
      partialCap = partialFloats * 2;
      decodePartials.resize(partialCap);
      changed = true;
    }
    if (changed) dropGraphs();  // graphs hold the old buffers' addresses
  }

  cuda::LayerKvCache layerCache(int layer) const {
    const std::int64_t perLayer = std::int64_t{numBlocks} * blockSize * kvDim;
    return {keyCache.get() + layer * perLayer, valueCache.get() + layer * perLayer, blockSize,
            config.numKvHeads, numBlocks};
  }

  // y[rows, n] = x[rows, k] W[n, k]^T
  template <typename OutT>
  void linear(OutT* y, const Bf16* x, const Bf16* w, int rows, int n, int k) {
    if (rows == 0) return;
    if (rows <= kGemvRows) {
      cuda::gemv(y, x, w, rows, n, k, stream);
      return;
    }
    const float alpha = 1.0f, beta = 0.0f;
    const cudaDataType_t outType = std::is_same_v<OutT, float> ? CUDA_R_32F : CUDA_R_16BF;
    check(Cublas::get().gemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, n, rows, k, &alpha, w, CUDA_R_16BF, k, x,
                               CUDA_R_16BF, k, &beta, y, outType, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  }

  // Enqueues the whole forward pass and the sampling of one step on the stream.
  void forward(const Plan& plan) {
    const ModelConfig& c = config;
    const Layout& l = plan.layout;
    std::int32_t* in = staging.get();
    const int rows = l.tokens;
    const float eps = static_cast<float>(c.rmsNormEps);
    cuda::SeqTable table{in + l.queryStart, in + l.queryLen, in + l.contextLen, in + l.blockTables, l.stride};

    // Steps of up to kGemvRows rows fold the norms, the residual adds and SiLU * mul into the GEMVs (see
    // gemvNormed): the residual stream is always up to date, `normed` holds it times the next norm's weight
    // and sumSquares its rows' sums of squares, slot 0 for the input (and final) norm, slot 1 for the
    // post-attention norm. Larger steps add the MLP output at the next norm.
    const bool fused = rows <= kGemvRows;
    // Launches: see DecodeOverlap. Larger steps launch plainly.
    const DecodeOverlap overlap = fused ? options.tuning.overlap : DecodeOverlap::None;
    const cuda::Launch afterGemv =
        overlap != DecodeOverlap::None ? cuda::Launch::Dependent : cuda::Launch::Plain;
    const cuda::Launch afterAttention =
        overlap == DecodeOverlap::All ? cuda::Launch::Dependent : cuda::Launch::Plain;
    double* inputSlot = sumSquares.get();
    double* postSlot = sumSquares.get() + kGemvRows;
    const cuda::NormedRows toInputNorm{residual.get(), normed.get(), inputSlot};
    const cuda::NormedRows toPostNorm{residual.get(), normed.get(), postSlot};
    if (fused) {
      cuda::embedRowsNormed(toInputNorm, postSlot, embedTokens.get(), in + l.tokenIds,
                            layers.front().inputLayernorm.get(), rows, c.hiddenSize, stream);
    } else {
      cuda::embedRows(residual.get(), embedTokens.get(), in + l.tokenIds, rows, c.hiddenSize, stream);
    }
    // A step of decodes alone lets the decode attention norm, rotate and cache the new tokens itself.
    const bool decodesOnly = plan.prefillCount == 0;
    for (int layer = 0; layer < c.numLayers; ++layer) {
      const LayerDeviceWeights& w = layers[static_cast<std::size_t>(layer)];
      const cuda::LayerKvCache cache = layerCache(layer);
      if (fused) {
        cuda::gemvNormed(qkv.get(), normed.get(), inputSlot, eps, w.qkvProj.get(), rows, qkvDim, c.hiddenSize,
                         afterGemv, stream);
      } else {
        cuda::addRmsNorm(normed.get(), residual.get(), layer == 0 ? nullptr : projected.get(),
                         w.inputLayernorm.get(), nullptr, plan.gemmRows, c.hiddenSize, eps, stream);
        linear(qkv.get(), normed.get(), w.qkvProj.get(), plan.gemmRows, qkvDim, c.hiddenSize);
      }
      cuda::DecodeRope rope;
      if (decodesOnly) {
        rope = {w.qNorm.get(), w.kNorm.get(), ropeCos.get(), ropeSin.get(), eps};
      } else {
        cuda::qkNormRopeKvWrite(qkv.get(), w.qNorm.get(), w.kNorm.get(), ropeCos.get(), ropeSin.get(),
                                in + l.positions, in + l.slots, rows, c.numHeads, cache, eps, stream);
      }
      // In a step of decodes alone, sequence i is the i-th decode: no list to read first (seqs null). Only
      // then may the attention be a programmatic dependent: its early loads read no new token's K or V.
      cuda::decodeAttention(attention.get(), qkv.get(), qkvDim, table,
                            decodesOnly ? nullptr : in + l.decodeSeqs, plan.decodeCount, c.numHeads, cache,
                            plan.splits, decodePartials.get(), decodeCounters.get(), rope,
                            overlap == DecodeOverlap::All && decodesOnly, stream);
      cuda::prefillAttention(attention.get(), qkv.get(), qkvDim, table, in + l.prefillSeqs, plan.prefillCount,
                             plan.maxQueryLen, c.numHeads, cache, stream);
      if (fused) {
        const bool last = layer + 1 == c.numLayers;
        const Bf16* nextNorm =
            last ? finalNorm.get() : layers[static_cast<std::size_t>(layer) + 1].inputLayernorm.get();
        cuda::gemvAddResidualNormed(toPostNorm, inputSlot, w.postAttentionLayernorm.get(), attention.get(),
                                    w.oProj.get(), rows, c.hiddenSize, qDim, afterAttention, stream);
        cuda::gemvNormedSiluMul(activated.get(), normed.get(), postSlot, eps, w.gateUpProj.get(), rows,
                                c.intermediateSize, c.hiddenSize, afterGemv, stream);
        cuda::gemvAddResidualNormed(toInputNorm, postSlot, nextNorm, activated.get(), w.downProj.get(), rows,
                                    c.hiddenSize, c.intermediateSize, afterGemv, stream);
        continue;
      }
      const int m = plan.gemmRows;
      linear(projected.get(), attention.get(), w.oProj.get(), m, c.hiddenSize, qDim);
      cuda::addRmsNorm(normed.get(), residual.get(), projected.get(), w.postAttentionLayernorm.get(), nullptr,
                       m, c.hiddenSize, eps, stream);
      linear(gateUp.get(), normed.get(), w.gateUpProj.get(), m, 2 * c.intermediateSize, c.hiddenSize);
      cuda::siluMul(activated.get(), gateUp.get(), m, c.intermediateSize, stream);
      linear(projected.get(), activated.get(), w.downProj.get(), m, c.hiddenSize, c.intermediateSize);
    }
    if (plan.sampleCount == 0) return;
    const Bf16* output = c.tieWordEmbeddings ? embedTokens.get() : lmHead.get();
    if (fused) {
      cuda::gemvNormed(logits.get(), normed.get(), inputSlot, in + l.sampleRows, eps, output,
                       plan.sampleCount, c.vocabSize, c.hiddenSize, afterGemv, stream);
    } else {
      cuda::addRmsNorm(finalNormed.get(), residual.get(), projected.get(), finalNorm.get(), in + l.sampleRows,
                       plan.sampleCount, c.hiddenSize, eps, stream);
      linear(logits.get(), finalNormed.get(), output, plan.gemmSamples, c.vocabSize, c.hiddenSize);
    }
    cuda::SampleParams params{reinterpret_cast<const float*>(in + l.temperature),
                              reinterpret_cast<const float*>(in + l.topP), in + l.topK,
                              reinterpret_cast<const float*>(in + l.uniform)};
    cuda::sampleTokens(sampled.get(), logits.get(), plan.sampleCount, c.vocabSize, params, stream);
  }

  // The stages of a step (see CudaBackend::step): check the batch, plan the step, pack its inputs, launch
  // it (or replay its decode graph), collect the sampled tokens.

  // What checkBatch finds out about a batch besides its being well formed.
  struct BatchShape {
    int tokens = 0, maxBlocks = 1, maxContext = 1, maxQueryLen = 0, samples = 0;
    bool allDecode = true;  // every sequence decodes one token and samples: a step a decode graph can run
  };

  // Checks the batch (a malformed one would write outside the cache) and sizes the step.
  BatchShape checkBatch(std::span<const SeqStep> batch) const {
    const ModelConfig& c = config;
    BatchShape shape;
    for (const SeqStep& seq : batch) {
      for (const std::int32_t token : seq.tokens) {
        if (token < 0 || token >= c.vocabSize) {
          throw Error("token id " + std::to_string(token) + " is outside the vocabulary of " + c.name +
                      " (0.." + std::to_string(c.vocabSize - 1) + ")");
        }
      }
      const std::int64_t end = std::int64_t{seq.position} + static_cast<std::int64_t>(seq.tokens.size());
      const std::int64_t blocksNeeded = (end + blockSize - 1) / blockSize;
      if (seq.tokens.empty() || seq.position < 0 || end > ropePositions ||
          static_cast<std::int64_t>(seq.blockTable.size()) < blocksNeeded || (seq.sample && !seq.sampling)) {
        throw std::logic_error("malformed SeqStep for sequence " + std::to_string(seq.seqId));
      }
      for (std::int64_t b = 0; b < blocksNeeded; ++b) {
        const std::int32_t block = seq.blockTable[static_cast<std::size_t>(b)];
        if (block < 0 || block >= numBlocks) {
          throw std::logic_error("block id out of range for sequence " + std::to_string(seq.seqId));
        }
      }
      shape.tokens += static_cast<int>(seq.tokens.size());
      shape.maxBlocks = std::max(shape.maxBlocks, static_cast<int>(blocksNeeded));
      shape.maxContext = std::max(shape.maxContext, static_cast<int>(end));
      shape.maxQueryLen = std::max(shape.maxQueryLen, static_cast<int>(seq.tokens.size()));
      shape.samples += seq.sample ? 1 : 0;
      shape.allDecode = shape.allDecode && seq.tokens.size() == 1 && seq.sample;
    }
    return shape;
  }

  // The step's layout, row counts and attention splits; grows the buffers to hold it.
  Plan planStep(std::span<const SeqStep> batch, const BatchShape& shape) {
    const ModelConfig& c = config;
    const int seqs = static_cast<int>(batch.size());
    Plan plan;
    plan.layout = layoutFor(shape.tokens, seqs, nextPowerOfTwo(shape.maxBlocks));
    plan.sampleCount = shape.samples;
    plan.maxQueryLen = shape.maxQueryLen;
    const bool bucketed = shape.tokens > kGemvRows && options.tuning.bucketRows;
    plan.gemmRows = bucketed ? bucketRows(shape.tokens) : shape.tokens;
    plan.gemmSamples = bucketed ? bucketSamples(shape.samples) : shape.samples;
    for (const SeqStep& seq : batch)
      plan.decodeCount += seq.tokens.size() == 1 ? 1 : 0;
    plan.prefillCount = seqs - plan.decodeCount;
    plan.splits = plan.decodeCount > 0 ? cuda::decodeAttentionSplits(plan.decodeCount, shape.maxContext,
                                                                     c.numKvHeads, multiprocessors)
                                       : 1;
    ensureCapacity(
        plan.gemmRows, std::max(seqs, plan.gemmSamples), plan.layout.total,
        cuda::decodeAttentionPartialFloats(std::max(plan.decodeCount, 1), c.numHeads, plan.splits));
    return plan;
  }

  // The step's inputs into the pinned staging buffer, in the plan's layout; each sampled row's draw.
  void packInputs(std::span<const SeqStep> batch, const Plan& plan) {
    const Layout& l = plan.layout;
    std::int32_t* h = hostStaging;
    int row = 0, decodes = 0, prefills = 0;
    for (int i = 0; i < l.seqs; ++i) {
      const SeqStep& seq = batch[static_cast<std::size_t>(i)];
      const int count = static_cast<int>(seq.tokens.size());
      h[l.queryStart + i] = row;
      h[l.queryLen + i] = count;
      h[l.contextLen + i] = seq.position + count;
      for (int t = 0; t < count; ++t, ++row) {
        const int position = seq.position + t;
        h[l.tokenIds + row] = seq.tokens[static_cast<std::size_t>(t)];
        h[l.positions + row] = position;
        h[l.slots + row] =
            seq.blockTable[static_cast<std::size_t>(position / blockSize)] * blockSize + position % blockSize;
      }
      if (count == 1) {
        h[l.decodeSeqs + decodes++] = i;
      } else {
        h[l.prefillSeqs + prefills++] = i;
      }
      const std::int64_t blocks =
          std::min<std::int64_t>(static_cast<std::int64_t>(seq.blockTable.size()), l.stride);
      std::copy_n(seq.blockTable.data(), blocks, h + l.blockTables + static_cast<std::int64_t>(i) * l.stride);
      std::fill(h + l.blockTables + static_cast<std::int64_t>(i) * l.stride + blocks,
                h + l.blockTables + static_cast<std::int64_t>(i + 1) * l.stride, 0);
      if (seq.sample) {
        const int k = lastSampledRows++;
        const SamplingParams& p = *seq.sampling;
        h[l.sampleRows + k] = row - 1;
        h[l.topK + k] = p.topK;
        const float temperature = p.temperature;
        const float topP = p.topP;
        const auto uniform = static_cast<float>(
            p.hasSeed ? seededUniform(p.seed, seq.generatedSoFar)
                      : seededUniform(options.seed, static_cast<std::int64_t>(unseededDraws++)));
        std::memcpy(h + l.temperature + k, &temperature, sizeof(float));
        std::memcpy(h + l.topP + k, &topP, sizeof(float));
        std::memcpy(h + l.uniform + k, &uniform, sizeof(float));
      }
    }
  }

  // Enqueues the step: its inputs' transfer, then its decode graph (captured at its first use) where
  // every sequence decodes and graphs are on, else the forward pass launch by launch, then the sampled
  // tokens' transfer back.
  void launchStep(const Plan& plan, bool allDecode) {
    if (stepStart) check(cudaEventRecord(stepStart, stream), "cudaEventRecord");
    check(cudaMemcpyAsync(staging.get(), hostStaging,
                          static_cast<std::size_t>(plan.layout.total) * sizeof(std::int32_t),
                          cudaMemcpyHostToDevice, stream),
          "copying the step's inputs");
    if (allDecode && !options.enforceEager) {
      check(cudaGraphLaunch(decodeGraph(plan), stream), "cudaGraphLaunch");
    } else {
      forward(plan);
    }
    if (plan.sampleCount > 0) {
      check(cudaMemcpyAsync(hostSampled, sampled.get(), sizeof(std::int32_t) * plan.sampleCount,
                            cudaMemcpyDeviceToHost, stream),
            "copying the sampled tokens");
    }
    if (stepEnd) check(cudaEventRecord(stepEnd, stream), "cudaEventRecord");
  }

  // The decode graph of the plan's (batch size, splits, block-table width), captured from forward() the
  // first time.
  cudaGraphExec_t decodeGraph(const Plan& plan) {
    const auto key = std::make_tuple(plan.layout.seqs, plan.splits, plan.layout.stride);
    auto it = graphs.find(key);
    if (it == graphs.end()) {
      cudaGraph_t graph = nullptr;
      check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
      try {
        forward(plan);
      } catch (...) {
        cudaStreamEndCapture(stream, &graph);
        if (graph) cudaGraphDestroy(graph);
        throw;
      }
      check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
      cudaGraphExec_t exec = nullptr;
      const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      check(instantiated, "cudaGraphInstantiate");
      it = graphs.emplace(key, exec).first;
    }
    return it->second;
  }

  // Waits for the step, hands back its sampled tokens and, with timing on, its device time.
  void collectStep(int samples, StepOutput& out) {
    check(cudaStreamSynchronize(stream), "running the step");
    out.sampled.assign(hostSampled, hostSampled + samples);
    if (stepEnd) {
      float ms = 0.0f;
      check(cudaEventElapsedTime(&ms, stepStart, stepEnd), "cudaEventElapsedTime");
      lastDeviceMs = ms;
    }
  }
};

CudaBackend::CudaBackend(const ModelConfig& config, const Weights* hostWeights, std::uint64_t dummySeed,
                         const CudaBackendOptions& options)
    : m(std::make_unique<State>()) {
  State& s = *m;
  s.config = config;
  s.options = options;
  const CudaDeviceInfo device = probeCudaDevice();
  if (!device.usable) throw Error("--device cuda: no usable GPU (" + device.problem + ")");
  if (config.headDim != cuda::kHeadDim) {
    throw Error(config.name + ": head_dim " + std::to_string(config.headDim) +
                " is not supported by the CUDA backend (it is built for 128, as every Qwen3 size has)");
  }
  if (config.numHeads % config.numKvHeads != 0 || config.numHeads / config.numKvHeads > 8) {
    throw Error(config.name + ": the CUDA backend needs 1 to 8 query heads per KV head");
  }
  s.multiprocessors = device.multiprocessors;
  s.qDim = config.numHeads * config.headDim;
  s.kvDim = config.numKvHeads * config.headDim;
  s.qkvDim = s.qDim + 2 * s.kvDim;
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  if (options.tuning.timeSteps) {
    check(cudaEventCreate(&s.stepStart), "cudaEventCreate");
    check(cudaEventCreate(&s.stepEnd), "cudaEventCreate");
  }
  const Cublas& blas = Cublas::get();
  check(blas.create(&s.cublas), "cublasCreate");
  check(blas.setStream(s.cublas, s.stream), "cublasSetStream");
  // A workspace of its own keeps cuBLAS from allocating while a graph is captured.
  s.cublasWorkspace.resize(std::int64_t{32} << 20);
  check(blas.setWorkspace(s.cublas, s.cublasWorkspace.get(),
                          static_cast<std::size_t>(s.cublasWorkspace.size())),
        "cublasSetWorkspace");

  const std::int64_t hidden = config.hiddenSize;
  const std::int64_t inter = config.intermediateSize;
  s.embedTokens.resize(std::int64_t{config.vocabSize} * hidden);
  s.finalNorm.resize(hidden);
  s.sumSquares.resize(2 * kGemvRows);
  if (!config.tieWordEmbeddings) s.lmHead.resize(std::int64_t{config.vocabSize} * hidden);
  s.layers.resize(static_cast<std::size_t>(config.numLayers));
  for (LayerDeviceWeights& w : s.layers) {
    w.inputLayernorm.resize(hidden);
    w.qkvProj.resize(s.qkvDim * hidden);
    w.qNorm.resize(config.headDim);
    w.kNorm.resize(config.headDim);
    w.oProj.resize(hidden * s.qDim);
    w.postAttentionLayernorm.resize(hidden);
    w.gateUpProj.resize(2 * inter * hidden);
    w.downProj.resize(hidden * inter);
  }
  // Where each checkpoint tensor goes, in weightTensorSpecs' order: q, k, v rows stacked into qkvProj,
  // gate and up rows into gateUpProj.
  std::vector<Bf16*> destinations;
  destinations.push_back(s.embedTokens.get());
  for (LayerDeviceWeights& w : s.layers) {
    Bf16* qkv = w.qkvProj.get();
    Bf16* gateUp = w.gateUpProj.get();
    for (Bf16* d : {w.inputLayernorm.get(), qkv, qkv + s.qDim * hidden, qkv + (s.qDim + s.kvDim) * hidden,
                    w.oProj.get(), w.qNorm.get(), w.kNorm.get(), w.postAttentionLayernorm.get(), gateUp,
                    gateUp + inter * hidden, w.downProj.get()}) {
      destinations.push_back(d);
    }
  }
  destinations.push_back(s.finalNorm.get());
  if (!config.tieWordEmbeddings) destinations.push_back(s.lmHead.get());

  const std::vector<WeightTensorSpec> specs = weightTensorSpecs(config);
  assert(specs.size() == destinations.size());
  if (hostWeights) {
    std::vector<const std::vector<float>*> sources{&hostWeights->embedTokens};
    for (const LayerWeights& w : hostWeights->layers) {
      for (const std::vector<float>* v :
           {&w.inputLayernorm, &w.qProj, &w.kProj, &w.vProj, &w.oProj, &w.qNorm, &w.kNorm,
            &w.postAttentionLayernorm, &w.gateProj, &w.upProj, &w.downProj})
        sources.push_back(v);
    }
    sources.push_back(&hostWeights->finalNorm);
    if (!config.tieWordEmbeddings) sources.push_back(&hostWeights->lmHead);
    if (sources.size() != specs.size())
      throw std::logic_error("CudaBackend: weights do not match the config");
    std::vector<Bf16> converted;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const std::vector<float>& values = *sources[i];
      converted.resize(values.size());
      for (std::size_t j = 0; j < values.size(); ++j)
        converted[j] = cuda::toBf16(values[j]);
      check(cudaMemcpy(destinations[i], converted.data(), converted.size() * sizeof(Bf16),
                       cudaMemcpyHostToDevice),
            "uploading weights");
    }
  } else {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      std::int64_t count = 1;
      for (const std::int64_t d : specs[i].shape)
        count *= d;
      const DummyTensorDraw draw = dummyTensorDraw(specs[i], dummySeed);
      cuda::fillDummy(destinations[i], count, draw.chunkBase, draw.center, draw.halfWidth, s.stream);
    }
  }

  s.ropePositions = options.maxPositions > 0 ? options.maxPositions : config.maxPositionEmbeddings;
  s.ropeCos.resize(std::int64_t{s.ropePositions} * config.headDim / 2);
  s.ropeSin.resize(std::int64_t{s.ropePositions} * config.headDim / 2);
  cuda::fillRopeTable(s.ropeCos.get(), s.ropeSin.get(), s.ropePositions, config.headDim, config.ropeTheta,
                      s.stream);

  check(cudaStreamSynchronize(s.stream), "loading the weights");
}

CudaBackend::~CudaBackend() = default;

std::size_t CudaBackend::kvBytesPerBlock(int blockSize) const {
  return static_cast<std::size_t>(blockSize) * static_cast<std::size_t>(m->config.kvBytesPerToken(2));
}

void CudaBackend::allocateKvCache(int numBlocks, int blockSize) {
  assert(numBlocks > 0 && blockSize > 0);
  State& s = *m;
  s.dropGraphs();
  s.numBlocks = numBlocks;
  s.blockSize = blockSize;
  const std::int64_t elements = std::int64_t{s.config.numLayers} * numBlocks * blockSize * s.kvDim;
  s.keyCache.resize(elements);
  s.valueCache.resize(elements);
  // Zeroed once: the Hopper prefill kernel reads whole cache blocks, so rows no token has written yet
  // reach its shared memory; their scores are masked, and a zero (not whatever the allocation held, a NaN
  // perhaps) keeps 0 x value finite.
  check(cudaMemset(s.keyCache.get(), 0, sizeof(Bf16) * static_cast<std::size_t>(elements)), "cudaMemset");
  check(cudaMemset(s.valueCache.get(), 0, sizeof(Bf16) * static_cast<std::size_t>(elements)), "cudaMemset");
}

void CudaBackend::warmUp(int maxBatchedTokens, int maxSeqs) {
  State& s = *m;
  const ModelConfig& c = s.config;
  if (!s.options.tuning.bucketRows)
    return;  // without buckets the shapes are unbounded: nothing to meet in advance
  const int mostRows = bucketRows(std::max(maxBatchedTokens, kGemvRows + 1));
  const int mostSamples = bucketSamples(std::max(maxSeqs, 1));
  s.ensureCapacity(mostRows, mostSamples, 0, 0);
  const LayerDeviceWeights& w = s.layers.front();
  for (int rows = bucketRows(kGemvRows + 1); rows <= mostRows; rows = bucketRows(rows + 1)) {
    s.linear(s.qkv.get(), s.normed.get(), w.qkvProj.get(), rows, s.qkvDim, c.hiddenSize);
    s.linear(s.projected.get(), s.attention.get(), w.oProj.get(), rows, c.hiddenSize, s.qDim);
    s.linear(s.gateUp.get(), s.normed.get(), w.gateUpProj.get(), rows, 2 * c.intermediateSize, c.hiddenSize);
    s.linear(s.projected.get(), s.activated.get(), w.downProj.get(), rows, c.hiddenSize, c.intermediateSize);
  }
  const Bf16* output = c.tieWordEmbeddings ? s.embedTokens.get() : s.lmHead.get();
  for (int samples = bucketSamples(1); samples <= mostSamples; samples = bucketSamples(samples + 1))
    s.linear(s.logits.get(), s.finalNormed.get(), output, samples, c.vocabSize, c.hiddenSize);
  check(cudaStreamSynchronize(s.stream), "warming up cuBLAS");
}

std::int64_t CudaBackend::weightBytes() const {
  return m->config.parameterCount() * 2;
}

int CudaBackend::capturedGraphs() const {
  return static_cast<int>(m->graphs.size());
}

void CudaBackend::step(std::span<const SeqStep> batch, StepOutput& out) {
  State& s = *m;
  out.sampled.clear();
  out.releaseAt.clear();
  s.lastSampledRows = 0;
  if (s.numBlocks == 0) throw std::logic_error("CudaBackend::step before allocateKvCache");
  if (batch.empty()) return;
  const State::BatchShape shape = s.checkBatch(batch);
  const State::Plan plan = s.planStep(batch, shape);
  s.packInputs(batch, plan);
  s.launchStep(plan, shape.allDecode);
  s.collectStep(shape.samples, out);
}

double CudaBackend::lastStepDeviceMs() const {
  return m->lastDeviceMs;
}

std::vector<float> CudaBackend::lastLogits() const {
  std::vector<float> values(static_cast<std::size_t>(m->lastSampledRows) * m->config.vocabSize);
  if (!values.empty()) {
    check(cudaMemcpy(values.data(), m->logits.get(), values.size() * sizeof(float), cudaMemcpyDeviceToHost),
          "copying the logits");
  }
  return values;
}

std::unique_ptr<Backend> makeCudaBackend(const ModelConfig& config, const Weights* hostWeights,
                                         std::uint64_t dummySeed, const CudaBackendOptions& options) {
  return std::make_unique<CudaBackend>(config, hostWeights, dummySeed, options);
}

}  // namespace ayar::engine
