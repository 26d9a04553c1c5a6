#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/model/model_config.h"

namespace ayar::engine {

// One decoder layer's weights in float32, row-major as Hugging Face stores them: a projection from n to
// m features is [m, n] (one row per output feature).
struct LayerWeights {
  std::vector<float> inputLayernorm;          // [hidden]
  std::vector<float> qProj;                   // [heads * headDim, hidden]
  std::vector<float> kProj;                   // [kvHeads * headDim, hidden]
  std::vector<float> vProj;                   // [kvHeads * headDim, hidden]
  std::vector<float> oProj;                   // [hidden, heads * headDim]
  std::vector<float> qNorm;                   // [headDim], shared by all heads
  std::vector<float> kNorm;                   // [headDim]
  std::vector<float> postAttentionLayernorm;  // [hidden]
  std::vector<float> gateProj;                // [intermediate, hidden]
  std::vector<float> upProj;                  // [intermediate, hidden]
  std::vector<float> downProj;                // [hidden, intermediate]
};

// A Qwen3 dense model's weights in float32 (the CPU backend's format).
struct Weights {
  std::vector<float> embedTokens;  // [vocab, hidden]
  std::vector<LayerWeights> layers;
  std::vector<float> finalNorm;  // [hidden]
  std::vector<float> lmHead;     // [vocab, hidden]; empty when the embedding is tied

  std::span<const float> outputProjection() const { return lmHead.empty() ? embedTokens : lmHead; }
};

// A weight tensor by its Hugging Face name (model.layers.3.self_attn.q_proj.weight) and shape.
struct WeightTensorRef {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<float>* values;
};

// Every tensor the config calls for, in checkpoint order. The vectors are resized to their shapes (the
// values they hold are kept; a tied model's lmHead is emptied).
std::vector<WeightTensorRef> weightTensors(Weights& weights, const ModelConfig& config);

// The names and shapes of weightTensors, without allocating anything.
struct WeightTensorSpec {
  std::string name;
  std::vector<std::int64_t> shape;
};
std::vector<WeightTensorSpec> weightTensorSpecs(const ModelConfig& config);

// Bytes the CPU backend needs for the weights in float32 (call before loading to refuse what does not
// fit). The KV cache comes on top: config.kvBytesPerToken(4) per cached token.
std::int64_t cpuWeightBytes(const ModelConfig& config);

// Loads config-shaped weights from a Hugging Face folder's safetensors (BF16, F16 or F32, converted to
// float32; in an FP8 checkpoint, F8_E4M3 linear weights times their weight_scale_inv blocks). Throws
// ayar::Error naming the file and tensor for a missing tensor or a shape that disagrees with the config.
Weights loadWeights(const std::filesystem::path& folder, const ModelConfig& config);

// --quantization fp8 on bf16 (or dummy) weights: each linear layer's weight (q/k/v/o, gate/up/down)
// rounded to FP8 e4m3 with one scale per output channel (row), as the GPU keeps them; embedding, norms and
// lm_head stay as they are.
void quantizeLinearWeightsFp8(Weights& weights, const ModelConfig& config);

// Seeded stand-in weights (--load-format dummy): small uniform values scaled by each projection's fan-in
// and norms near 1, so activations stay finite and sampled tokens vary. Same seed, same weights.
Weights makeDummyWeights(const ModelConfig& config, std::uint64_t seed);

// How makeDummyWeights draws a tensor, so that a device can generate the same values in place: value i
// of the tensor is center + halfWidth * (2u - 1), with u = (splitmix64 output >> 40) * 2^-24 and the
// splitmix64 state (chunkBase ^ (i / kDummyChunkValues) * kDummyChunkMultiplier) advanced
// (i % kDummyChunkValues) + 1 times.
inline constexpr std::int64_t kDummyChunkValues = std::int64_t{1} << 20;
inline constexpr std::uint64_t kDummyChunkMultiplier = 0xd1b54a32d192ed03ull;
struct DummyTensorDraw {
  std::uint64_t chunkBase;
  float center;
  float halfWidth;
};
DummyTensorDraw dummyTensorDraw(const WeightTensorSpec& tensor, std::uint64_t seed);

}  // namespace ayar::engine
