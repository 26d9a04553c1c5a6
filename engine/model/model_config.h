#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ayar::engine {

// The shape of a Qwen3 dense model (the fields of its config.json that the forward pass needs).
struct ModelConfig {
  std::string name;  // preset name, or the folder name for a Hugging Face folder
  int hiddenSize = 0;
  int intermediateSize = 0;
  int numLayers = 0;
  int numHeads = 0;
  int numKvHeads = 0;
  int headDim = 0;
  int vocabSize = 151936;
  bool tieWordEmbeddings = false;
  double ropeTheta = 1e6;
  double rmsNormEps = 1e-6;
  int maxPositionEmbeddings = 40960;
  // An FP8 checkpoint (config.json's quantization_config with quant_method fp8): its linear weights are
  // e4m3 codes with a float scale (weight_scale_inv) per block of fp8BlockRows x fp8BlockCols, and the
  // activations are quantized per token and group of fp8BlockCols on the fly. 0 for a bf16 checkpoint.
  int fp8BlockRows = 0;
  int fp8BlockCols = 0;
  bool fp8Checkpoint() const { return fp8BlockRows > 0; }

  // Parameters of every weight tensor (embedding counted once when tied).
  std::int64_t parameterCount() const;
  // Bytes of K and V for one token across all layers at `bytesPerElement` (2 for bf16, 4 for f32).
  std::int64_t kvBytesPerToken(int bytesPerElement) const;
  // Multiply-accumulates of the linear layers for one token (attention over the cache excluded).
  std::int64_t linearMacsPerToken() const;
  // Bytes the weights take on a GPU: bf16, or with `fp8` the layers' linear weights (q/k/v/o,
  // gate/up/down) in FP8 with one float32 scale per output channel, as vLLM's --quantization fp8
  // keeps them; embedding, lm_head and norms stay bf16.
  std::int64_t deviceWeightBytes(bool fp8) const;
};

// The Qwen3 presets of docs/ENGINE.md (Models) plus qwen3-tiny (same architecture, small, the real
// vocabulary).
std::span<const ModelConfig> modelPresets();
std::optional<ModelConfig> findModelPreset(std::string_view name);

// Reads a Hugging Face config.json (model_type qwen3). Throws ayar::Error naming the file and field.
ModelConfig loadModelConfig(const std::filesystem::path& configJson);

}  // namespace ayar::engine
