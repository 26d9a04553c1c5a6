#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/sampler.h"
#include "engine/backend/cpu/worker_pool.h"
#include "engine/model/model_config.h"
#include "engine/model/weights.h"

namespace ayar::engine {

// The float32 reference forward pass over a paged KV cache: the truth that the other backends are
// tested against, and the engine on machines without a GPU. The whole pass is in cpu_backend.cpp.
class CpuBackend final : public Backend {
 public:
  // numThreads 0: one per hardware thread.
  CpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights, std::uint64_t seed,
             int numThreads = 0);

  std::string_view name() const override { return "cpu"; }
  std::size_t kvBytesPerBlock(int blockSize) const override;
  void allocateKvCache(int numBlocks, int blockSize) override;
  void step(std::span<const SeqStep> batch, StepOutput& out) override;

  // The logits behind the last step's sampled tokens: one row of vocabSize per SeqStep with sample set,
  // in batch order. For tests and tools.
  std::span<const float> lastLogits() const { return m_logits; }

 private:
  // K and V of one token at one layer: [kvHeads * headDim] floats.
  float* keyAt(int layer, std::int32_t block, int slot);
  float* valueAt(int layer, std::int32_t block, int slot);
  void checkBatch(std::span<const SeqStep> batch) const;
  // step()'s stages, in order.
  void prepareRows(std::span<const SeqStep> batch);
  void embed(std::span<const SeqStep> batch);
  void attentionBlock(int layer, std::span<const SeqStep> batch);
  void attend(int layer, std::span<const SeqStep> batch);
  void mlpBlock(int layer);
  void sampleLastRows(std::span<const SeqStep> batch, StepOutput& out);

  // Where a row of the step's activations comes from.
  struct TokenRow {
    int seq;  // index into the batch
    std::int32_t position;
  };

  ModelConfig m_config;
  std::shared_ptr<const Weights> m_weights;
  Sampler m_sampler;
  WorkerPool m_pool;

  int m_numBlocks = 0;
  int m_blockSize = 0;
  // [layer][block][slot][kvHead][headDim]
  std::vector<float> m_keyCache;
  std::vector<float> m_valueCache;

  // Activations of the current step, one row per new token (reused between steps).
  std::vector<TokenRow> m_rows;        // [tokens]
  std::vector<float> m_cosines;        // [tokens, headDim / 2]: each row's rotary angles
  std::vector<float> m_sines;          // [tokens, headDim / 2]
  std::vector<float> m_residual;       // [tokens, hidden]
  std::vector<float> m_normed;         // [tokens, hidden]
  std::vector<float> m_query;          // [tokens, heads * headDim]
  std::vector<float> m_key;            // [tokens, kvHeads * headDim]
  std::vector<float> m_value;          // [tokens, kvHeads * headDim]
  std::vector<float> m_attention;      // [tokens, heads * headDim]
  std::vector<float> m_projected;      // [tokens, hidden]
  std::vector<float> m_gate;           // [tokens, intermediate]
  std::vector<float> m_up;             // [tokens, intermediate]
  std::vector<float> m_sampledHidden;  // [sampled, hidden]
  std::vector<float> m_logits;         // [sampled, vocab]
};

// The backend for --device cpu.
std::unique_ptr<Backend> makeCpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights,
                                        std::uint64_t seed);

}  // namespace ayar::engine
