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

// What the CPU backend rounds to FP8, as the GPU's FP8 path would (the float32 arithmetic around it is
// unchanged). The weights arrive already quantized: by quantizeLinearWeightsFp8, or as an FP8
// checkpoint's values.
struct CpuPrecision {
  // The linear layers' inputs (q/k/v, o, gate/up, down; not the lm_head's): < 0 float32; 0 FP8 with one
  // scale per token (--quantization fp8); > 0 one scale per token and run of this many features (an FP8
  // checkpoint's weight_block_size columns).
  int fp8ActivationGroup = -1;
  // K and V stored as e4m3 codes with one scale of 1 for the whole cache (--kv-cache-dtype fp8: vLLM's
  // scale when none is calibrated), one byte an element.
  bool fp8KvCache = false;
};

// The float32 reference forward pass over a paged KV cache: the truth that the other backends are
// tested against, and the engine on machines without a GPU. The whole pass is in cpu_backend.cpp.
class CpuBackend final : public Backend {
 public:
  // numThreads 0: one per hardware thread.
  CpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights, std::uint64_t seed,
             int numThreads = 0, CpuPrecision precision = {});

  std::string_view name() const override { return "cpu"; }
  std::size_t kvBytesPerBlock(int blockSize) const override;
  void allocateKvCache(int numBlocks, int blockSize) override;
  void step(std::span<const SeqStep> batch, StepOutput& out) override;

  // The logits behind the last step's sampled tokens: one row of vocabSize per SeqStep with sample set,
  // in batch order. For tests and tools.
  std::span<const float> lastLogits() const { return m_logits; }

 private:
  // Where K or V of one token at one layer starts: [kvHeads * headDim] elements in the float cache or the
  // code cache, whichever the precision keeps.
  std::size_t cacheOffset(int layer, std::int32_t block, int slot) const;
  // Writes one token's K and V ([kvHeads * headDim] each) into its slot.
  void storeKeyValue(int layer, std::int32_t block, int slot, const float* key, const float* value);
  // One KV head's K (or V) of a cached token: a pointer into the float cache, or the FP8 codes decoded
  // into scratch ([headDim]).
  const float* cachedRow(bool value, std::size_t offset, float* scratch) const;
  // A linear layer's input as the precision feeds it: the activations, or a copy rounded to FP8.
  const float* linearInput(const std::vector<float>& x, std::int64_t tokens, int width);
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
  CpuPrecision m_precision;
  std::shared_ptr<const Weights> m_weights;
  Sampler m_sampler;
  WorkerPool m_pool;

  int m_numBlocks = 0;
  int m_blockSize = 0;
  // [layer][block][slot][kvHead][headDim]: floats, or e4m3 codes with --kv-cache-dtype fp8
  std::vector<float> m_keyCache;
  std::vector<float> m_valueCache;
  std::vector<std::uint8_t> m_keyCodes;
  std::vector<std::uint8_t> m_valueCodes;
  std::vector<float> m_e4m3Values;  // [256]: the value of each code

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
  std::vector<float> m_linearInput;    // [tokens, width]: a linear layer's input rounded to FP8
};

// The backend for --device cpu.
std::unique_ptr<Backend> makeCpuBackend(const ModelConfig& config, std::shared_ptr<const Weights> weights,
                                        std::uint64_t seed, CpuPrecision precision = {});

}  // namespace ayar::engine
