#include "engine/model/model_config.h"

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ayar::engine {

namespace {

ModelConfig qwen3(std::string name, int hidden, int intermediate, int layers, int heads, int kvHeads,
                  bool tied) {
  ModelConfig c;
  c.name = std::move(name);
  c.hiddenSize = hidden;
  c.intermediateSize = intermediate;
  c.numLayers = layers;
  c.numHeads = heads;
  c.numKvHeads = kvHeads;
  c.headDim = 128;
  c.tieWordEmbeddings = tied;
  return c;
}

// Facts from the published config.json of each model (docs/ENGINE.md, Models).
const std::array<ModelConfig, 7>& presetTable() {
  static const std::array<ModelConfig, 7> table = {
      qwen3("qwen3-tiny", 256, 768, 4, 4, 2, true),      qwen3("qwen3-0.6b", 1024, 3072, 28, 16, 8, true),
      qwen3("qwen3-1.7b", 2048, 6144, 28, 16, 8, true),  qwen3("qwen3-4b", 2560, 9728, 36, 32, 8, true),
      qwen3("qwen3-8b", 4096, 12288, 36, 32, 8, false),  qwen3("qwen3-14b", 5120, 17408, 40, 40, 8, false),
      qwen3("qwen3-32b", 5120, 25600, 64, 64, 8, false),
  };
  return table;
}

}  // namespace

std::int64_t ModelConfig::parameterCount() const {
  const std::int64_t hidden = hiddenSize;
  const std::int64_t qDim = std::int64_t{numHeads} * headDim;
  const std::int64_t kvDim = std::int64_t{numKvHeads} * headDim;
  const std::int64_t attention = hidden * qDim + 2 * hidden * kvDim + qDim * hidden;
  const std::int64_t mlp = 3 * hidden * intermediateSize;
  const std::int64_t norms = 2 * hidden + 2 * std::int64_t{headDim};
  const std::int64_t embedding = std::int64_t{vocabSize} * hidden;
  return numLayers * (attention + mlp + norms) + hidden + embedding * (tieWordEmbeddings ? 1 : 2);
}

std::int64_t ModelConfig::kvBytesPerToken(int bytesPerElement) const {
  return 2 * std::int64_t{numLayers} * numKvHeads * headDim * bytesPerElement;
}

std::int64_t ModelConfig::deviceWeightBytes(bool fp8) const {
  if (!fp8) return parameterCount() * 2;
  const std::int64_t hidden = hiddenSize;
  const std::int64_t qDim = std::int64_t{numHeads} * headDim;
  const std::int64_t kvDim = std::int64_t{numKvHeads} * headDim;
  const std::int64_t layerLinear = linearMacsPerToken() - hidden * vocabSize;  // every layer's weights
  const std::int64_t outputChannels =
      numLayers * ((qDim + 2 * kvDim) + hidden + 2 * std::int64_t{intermediateSize} + hidden);
  return (parameterCount() - layerLinear) * 2 + layerLinear + outputChannels * 4;
}

std::int64_t ModelConfig::linearMacsPerToken() const {
  const std::int64_t hidden = hiddenSize;
  const std::int64_t qDim = std::int64_t{numHeads} * headDim;
  const std::int64_t kvDim = std::int64_t{numKvHeads} * headDim;
  const std::int64_t perLayer = hidden * (qDim + 2 * kvDim) + qDim * hidden + 3 * hidden * intermediateSize;
  return numLayers * perLayer + hidden * vocabSize;
}

std::span<const ModelConfig> modelPresets() {
  return presetTable();
}

std::optional<ModelConfig> findModelPreset(std::string_view name) {
  for (const ModelConfig& preset : presetTable()) {
    if (preset.name == name) return preset;
  }
  return std::nullopt;
}

namespace {

int positiveInt(const nlohmann::json& json, const char* field, const std::filesystem::path& file,
                std::optional<int> fallback = std::nullopt) {
  const auto it = json.find(field);
  if (it == json.end() || it->is_null()) {
    if (fallback) return *fallback;
    throw Error(file.string() + ": field '" + field + "' is missing; a Qwen3 config.json has it");
  }
  if (!it->is_number_integer() || it->get<std::int64_t>() <= 0 || it->get<std::int64_t>() > (1 << 30)) {
    throw Error(file.string() + ": field '" + field + "' must be a positive integer, got " + it->dump());
  }
  return it->get<int>();
}

double positiveNumber(const nlohmann::json& json, const char* field, const std::filesystem::path& file,
                      double fallback) {
  const auto it = json.find(field);
  if (it == json.end() || it->is_null()) return fallback;
  if (!it->is_number() || it->get<double>() <= 0.0) {
    throw Error(file.string() + ": field '" + field + "' must be a positive number, got " + it->dump());
  }
  return it->get<double>();
}

// quantization_config: absent or null for a bf16 checkpoint; else FP8 as Qwen's FP8 releases write it
// (quant_method fp8, fmt e4m3, activation_scheme dynamic, weight_block_size [128, 128]). Anything else is
// refused by its field, since loading it as bf16 would give wrong numbers.
void readQuantizationConfig(const nlohmann::json& json, const std::filesystem::path& file, ModelConfig& c) {
  const auto it = json.find("quantization_config");
  if (it == json.end() || it->is_null()) return;
  const auto fail = [&](const std::string& field, const std::string& what) {
    throw Error(file.string() + ": quantization_config." + field + " " + what);
  };
  if (!it->is_object())
    throw Error(file.string() + ": quantization_config must be an object, got " + it->dump());
  const nlohmann::json& q = *it;
  const auto method = q.find("quant_method");
  if (method == q.end() || !method->is_string()) fail("quant_method", "is missing or not a string");
  if (method->get<std::string>() != "fp8") {
    fail("quant_method",
         "is " + method->dump() +
             ": Ayar loads bf16 checkpoints and FP8 ones (quant_method \"fp8\"), no other scheme");
  }
  const auto fmt = q.find("fmt");
  if (fmt != q.end() && !fmt->is_null() && *fmt != "e4m3")
    fail("fmt", "is " + fmt->dump() + ": only e4m3 FP8 weights are read");
  const auto scheme = q.find("activation_scheme");
  if (scheme != q.end() && !scheme->is_null() && *scheme != "dynamic") {
    fail("activation_scheme",
         "is " + scheme->dump() + ": only dynamic activation scales (computed per token) are supported");
  }
  const auto block = q.find("weight_block_size");
  if (block == q.end() || block->is_null()) {
    fail("weight_block_size",
         "is missing: Ayar reads block-scaled FP8 checkpoints (weight_scale_inv per "
         "block), such as weight_block_size [128, 128]");
  }
  if (!block->is_array() || block->size() != 2 || !(*block)[0].is_number_integer() ||
      !(*block)[1].is_number_integer() || (*block)[0].get<std::int64_t>() <= 0 ||
      (*block)[1].get<std::int64_t>() <= 0 || (*block)[0].get<std::int64_t>() > 65536 ||
      (*block)[1].get<std::int64_t>() > 65536) {
    fail("weight_block_size", "must be two positive integers (rows, columns), got " + block->dump());
  }
  c.fp8BlockRows = (*block)[0].get<int>();
  c.fp8BlockCols = (*block)[1].get<int>();
}

}  // namespace

ModelConfig loadModelConfig(const std::filesystem::path& configJson) {
  std::ifstream in(configJson);
  if (!in) throw Error(configJson.string() + ": cannot open the model's config.json");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(configJson.string() + ": not valid JSON (" + e.what() + ")");
  }
  if (!json.is_object()) throw Error(configJson.string() + ": expected a JSON object");

  const auto modelType = json.find("model_type");
  if (modelType == json.end() || !modelType->is_string() || modelType->get<std::string>() != "qwen3") {
    throw Error(configJson.string() + ": model_type must be \"qwen3\" (Qwen3 dense models only), got " +
                (modelType == json.end() ? std::string("nothing") : modelType->dump()));
  }

  ModelConfig c;
  c.name = configJson.parent_path().filename().string();
  c.hiddenSize = positiveInt(json, "hidden_size", configJson);
  c.intermediateSize = positiveInt(json, "intermediate_size", configJson);
  c.numLayers = positiveInt(json, "num_hidden_layers", configJson);
  c.numHeads = positiveInt(json, "num_attention_heads", configJson);
  c.numKvHeads = positiveInt(json, "num_key_value_heads", configJson, c.numHeads);
  if (c.numHeads % c.numKvHeads != 0) {
    throw Error(configJson.string() + ": num_attention_heads (" + std::to_string(c.numHeads) +
                ") must be a multiple of num_key_value_heads (" + std::to_string(c.numKvHeads) + ")");
  }
  // Older configs leave head_dim out; it is then hidden / heads.
  c.headDim = positiveInt(json, "head_dim", configJson, c.hiddenSize / c.numHeads);
  if (c.headDim % 2 != 0) {
    throw Error(configJson.string() + ": head_dim must be even for rotary embeddings, got " +
                std::to_string(c.headDim));
  }
  c.vocabSize = positiveInt(json, "vocab_size", configJson);
  c.maxPositionEmbeddings = positiveInt(json, "max_position_embeddings", configJson, 40960);
  c.ropeTheta = positiveNumber(json, "rope_theta", configJson, 1e6);
  c.rmsNormEps = positiveNumber(json, "rms_norm_eps", configJson, 1e-6);
  const auto tied = json.find("tie_word_embeddings");
  if (tied != json.end() && !tied->is_null()) {
    if (!tied->is_boolean()) {
      throw Error(configJson.string() + ": field 'tie_word_embeddings' must be true or false, got " +
                  tied->dump());
    }
    c.tieWordEmbeddings = tied->get<bool>();
  }
  readQuantizationConfig(json, configJson, c);
  return c;
}

}  // namespace ayar::engine
