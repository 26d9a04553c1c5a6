#include "engine/model/weights.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "core/error.h"
#include "engine/common/splitmix64.h"
#include "engine/model/fp8.h"
#include "engine/model/safetensors.h"

namespace ayar::engine {

namespace {

std::string shapeText(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::uint64_t nameHash(const std::string& name) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a
  for (const char c : name)
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

// Dummy values come in chunks, each from its own generator seeded by (seed, tensor name, chunk), so
// that they do not depend on the order in which tensors are filled nor on the number of threads.
constexpr std::size_t kDummyChunk = static_cast<std::size_t>(kDummyChunkValues);

// Uniform in [center - halfWidth, center + halfWidth).
void fillUniformChunk(std::vector<float>& values, std::size_t chunk, const DummyTensorDraw& draw) {
  std::uint64_t state = draw.chunkBase ^ (chunk * kDummyChunkMultiplier);
  const std::size_t end = std::min(values.size(), (chunk + 1) * kDummyChunk);
  for (std::size_t i = chunk * kDummyChunk; i < end; ++i) {
    const float unit = static_cast<float>(splitmix64Next(state) >> 40) * 0x1.0p-24f;  // [0, 1)
    values[i] = draw.center + draw.halfWidth * (2.0f * unit - 1.0f);
  }
}

}  // namespace

std::vector<WeightTensorSpec> weightTensorSpecs(const ModelConfig& config) {
  const std::int64_t hidden = config.hiddenSize;
  const std::int64_t qDim = std::int64_t{config.numHeads} * config.headDim;
  const std::int64_t kvDim = std::int64_t{config.numKvHeads} * config.headDim;
  const std::int64_t intermediate = config.intermediateSize;
  const std::int64_t vocab = config.vocabSize;

  std::vector<WeightTensorSpec> specs;
  auto add = [&](std::string name, std::vector<std::int64_t> shape) {
    specs.push_back({std::move(name), std::move(shape)});
  };
  add("model.embed_tokens.weight", {vocab, hidden});
  for (int i = 0; i < config.numLayers; ++i) {
    const std::string prefix = "model.layers." + std::to_string(i) + ".";
    add(prefix + "input_layernorm.weight", {hidden});
    add(prefix + "self_attn.q_proj.weight", {qDim, hidden});
    add(prefix + "self_attn.k_proj.weight", {kvDim, hidden});
    add(prefix + "self_attn.v_proj.weight", {kvDim, hidden});
    add(prefix + "self_attn.o_proj.weight", {hidden, qDim});
    add(prefix + "self_attn.q_norm.weight", {config.headDim});
    add(prefix + "self_attn.k_norm.weight", {config.headDim});
    add(prefix + "post_attention_layernorm.weight", {hidden});
    add(prefix + "mlp.gate_proj.weight", {intermediate, hidden});
    add(prefix + "mlp.up_proj.weight", {intermediate, hidden});
    add(prefix + "mlp.down_proj.weight", {hidden, intermediate});
  }
  add("model.norm.weight", {hidden});
  if (!config.tieWordEmbeddings) add("lm_head.weight", {vocab, hidden});
  return specs;
}

std::vector<WeightTensorRef> weightTensors(Weights& weights, const ModelConfig& config) {
  weights.layers.resize(static_cast<std::size_t>(config.numLayers));
  if (config.tieWordEmbeddings) weights.lmHead.clear();  // untied, it is resized below: values kept
  std::vector<WeightTensorRef> refs;
  // Specs come in the order: embedding, 11 per layer, final norm, lm_head when untied.
  const std::vector<WeightTensorSpec> specs = weightTensorSpecs(config);
  std::size_t next = 0;
  auto add = [&](std::vector<float>& values) {
    const WeightTensorSpec& spec = specs[next++];
    std::int64_t count = 1;
    for (const std::int64_t d : spec.shape)
      count *= d;
    values.resize(static_cast<std::size_t>(count));
    refs.push_back({spec.name, spec.shape, &values});
  };
  add(weights.embedTokens);
  for (LayerWeights& layer : weights.layers) {
    for (std::vector<float>* values :
         {&layer.inputLayernorm, &layer.qProj, &layer.kProj, &layer.vProj, &layer.oProj, &layer.qNorm,
          &layer.kNorm, &layer.postAttentionLayernorm, &layer.gateProj, &layer.upProj, &layer.downProj}) {
      add(*values);
    }
  }
  add(weights.finalNorm);
  if (!config.tieWordEmbeddings) add(weights.lmHead);
  return refs;
}

DummyTensorDraw dummyTensorDraw(const WeightTensorSpec& tensor, std::uint64_t seed) {
  DummyTensorDraw draw{seed ^ nameHash(tensor.name), 0.0f, 0.0f};
  if (tensor.shape.size() == 1) {
    draw.center = 1.0f;  // norm weights near 1
    draw.halfWidth = 0.05f;
  } else {
    // Fan-in scaling (PyTorch's Linear default bound) keeps every layer's output at a steady scale.
    draw.halfWidth = 1.0f / std::sqrt(static_cast<float>(tensor.shape[1]));
  }
  return draw;
}

std::int64_t cpuWeightBytes(const ModelConfig& config) {
  return config.parameterCount() * static_cast<std::int64_t>(sizeof(float));
}

namespace {

// An FP8 weight of a block-scaled checkpoint, in float32: each code times the weight_scale_inv of its
// block (weight_block_size rows x columns; the last blocks of a row or column may be cut short).
void loadFp8Tensor(const SafetensorsCheckpoint& checkpoint, const SafetensorsTensor& tensor,
                   std::span<float> out, const ModelConfig& config) {
  const std::string where = tensor.file.string() + ": tensor '" + tensor.name + "'";
  if (!config.fp8Checkpoint()) {
    throw Error(where +
                " is F8_E4M3 but config.json has no quantization_config (quant_method fp8, "
                "weight_block_size) saying how it is scaled; is the config.json of this checkpoint?");
  }
  const std::string scaleName = tensor.name + "_scale_inv";
  const SafetensorsTensor* scale = checkpoint.find(scaleName);
  if (!scale) {
    throw Error(where + " is F8_E4M3 but its block scales ('" + scaleName +
                "') are missing from the safetensors files");
  }
  dequantizeBlockScaledFp8(tensor, *scale, config.fp8BlockRows, config.fp8BlockCols, out);
}

}  // namespace

Weights loadWeights(const std::filesystem::path& folder, const ModelConfig& config) {
  const SafetensorsCheckpoint checkpoint = SafetensorsCheckpoint::open(folder);
  Weights weights;
  for (WeightTensorRef& ref : weightTensors(weights, config)) {
    const SafetensorsTensor* tensor = checkpoint.find(ref.name);
    if (!tensor) {
      throw Error(folder.string() + ": tensor '" + ref.name +
                  "' is missing from the safetensors files; the config.json calls for it (is this a Qwen3 "
                  "checkpoint, and is every shard downloaded?)");
    }
    if (tensor->shape != ref.shape) {
      throw Error(tensor->file.string() + ": tensor '" + ref.name + "' has shape " +
                  shapeText(tensor->shape) + " but config.json implies " + shapeText(ref.shape) +
                  "; the weights and config.json disagree");
    }
    if (tensor->dtype == SafetensorsDType::kF8E4M3) {
      loadFp8Tensor(checkpoint, *tensor, *ref.values, config);
    } else {
      convertToFloat32(*tensor, *ref.values);
    }
  }
  return weights;
}

void quantizeLinearWeightsFp8(Weights& weights, const ModelConfig& config) {
  const std::int64_t hidden = config.hiddenSize, intermediate = config.intermediateSize;
  const std::int64_t qDim = std::int64_t{config.numHeads} * config.headDim;
  const std::int64_t kvDim = std::int64_t{config.numKvHeads} * config.headDim;
  for (LayerWeights& layer : weights.layers) {
    quantizeRowsFp8(layer.qProj, qDim, hidden);
    quantizeRowsFp8(layer.kProj, kvDim, hidden);
    quantizeRowsFp8(layer.vProj, kvDim, hidden);
    quantizeRowsFp8(layer.oProj, hidden, qDim);
    quantizeRowsFp8(layer.gateProj, intermediate, hidden);
    quantizeRowsFp8(layer.upProj, intermediate, hidden);
    quantizeRowsFp8(layer.downProj, hidden, intermediate);
  }
}

Weights makeDummyWeights(const ModelConfig& config, std::uint64_t seed) {
  Weights weights;
  struct Job {
    const WeightTensorRef* tensor;
    std::size_t chunk;
  };
  const std::vector<WeightTensorRef> tensors = weightTensors(weights, config);
  std::vector<Job> jobs;
  for (const WeightTensorRef& ref : tensors) {
    for (std::size_t chunk = 0; chunk * kDummyChunk < ref.values->size(); ++chunk)
      jobs.push_back({&ref, chunk});
  }
  // Billions of values for the larger presets: fill them on every core.
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t j = next++; j < jobs.size(); j = next++) {
      const WeightTensorRef& ref = *jobs[j].tensor;
      fillUniformChunk(*ref.values, jobs[j].chunk, dummyTensorDraw({ref.name, ref.shape}, seed));
    }
  };
  std::vector<std::thread> helpers;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 1; t < threads && t < jobs.size(); ++t)
    helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers)
    helper.join();
  return weights;
}

}  // namespace ayar::engine
