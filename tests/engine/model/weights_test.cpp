#include "engine/model/weights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "core/error.h"
#include "engine/model/safetensors.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

ModelConfig smallConfig(bool tied) {
  ModelConfig c;
  c.name = "small";
  c.hiddenSize = 16;
  c.intermediateSize = 24;
  c.numLayers = 2;
  c.numHeads = 2;
  c.numKvHeads = 1;
  c.headDim = 8;
  c.vocabSize = 40;
  c.tieWordEmbeddings = tied;
  return c;
}

// Writes `weights` as a Hugging Face folder: config.json and one safetensors file with the matrices
// in BF16 and the norms in F32 (as mixed checkpoints have them).
void writeFolder(const std::filesystem::path& folder, const ModelConfig& c, Weights& weights,
                 const std::string& skip = "", const std::string& reshape = "") {
  std::vector<SafetensorsWriteTensor> tensors;
  for (const WeightTensorRef& ref : weightTensors(weights, c)) {
    if (ref.name == skip) continue;
    std::vector<std::int64_t> shape = ref.shape;
    if (ref.name == reshape) shape = {shape[1], shape[0]};
    tensors.push_back({ref.name, ref.shape.size() == 2 ? SafetensorsDType::kBF16 : SafetensorsDType::kF32,
                       shape, *ref.values});
  }
  writeSafetensors(folder / "model.safetensors", tensors);
  std::ofstream(folder / "config.json") << R"({"model_type":"qwen3"})";
}

Weights randomWeights(const ModelConfig& c) {
  Weights weights;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (WeightTensorRef& ref : weightTensors(weights, c)) {
    for (float& v : *ref.values)
      v = normal(rng);
  }
  return weights;
}

TEST(Weights, ListsEveryTensorUnderItsHuggingFaceName) {
  Weights tied;
  const auto refs = weightTensors(tied, smallConfig(true));
  EXPECT_EQ(refs.size(), 1u + 2 * 11 + 1);
  EXPECT_EQ(refs[0].name, "model.embed_tokens.weight");
  EXPECT_EQ(refs[2].name, "model.layers.0.self_attn.q_proj.weight");
  EXPECT_EQ(refs[2].shape, (std::vector<std::int64_t>{16, 16}));
  EXPECT_EQ(refs[3].name, "model.layers.0.self_attn.k_proj.weight");
  EXPECT_EQ(refs[3].shape, (std::vector<std::int64_t>{8, 16}));
  EXPECT_EQ(refs.back().name, "model.norm.weight");
  std::int64_t total = 0;
  for (const auto& ref : refs)
    total += static_cast<std::int64_t>(ref.values->size());
  EXPECT_EQ(total, smallConfig(true).parameterCount());

  Weights untied;
  const auto untiedRefs = weightTensors(untied, smallConfig(false));
  EXPECT_EQ(untiedRefs.back().name, "lm_head.weight");
  EXPECT_EQ(untied.lmHead.size(), 40u * 16);
}

TEST(Weights, LoadsAFolderConvertingBf16AndF32) {
  test::TempDir dir;
  const ModelConfig c = smallConfig(false);
  Weights original = randomWeights(c);
  writeFolder(dir.path(), c, original);

  const Weights loaded = loadWeights(dir.path(), c);
  ASSERT_EQ(loaded.layers.size(), 2u);
  EXPECT_EQ(loaded.layers[1].qNorm, original.layers[1].qNorm);  // F32: exact
  ASSERT_EQ(loaded.layers[1].downProj.size(), original.layers[1].downProj.size());
  for (std::size_t i = 0; i < loaded.layers[1].downProj.size(); ++i) {
    // BF16: the value rounded to 8 significant bits.
    EXPECT_EQ(loaded.layers[1].downProj[i], bf16ToFloat(floatToBf16(original.layers[1].downProj[i])));
  }
  EXPECT_EQ(loaded.lmHead.size(), 40u * 16);
}

TEST(Weights, TiedModelsIgnoreAStoredLmHead) {
  test::TempDir dir;
  const ModelConfig untiedConfig = smallConfig(false);
  Weights original = randomWeights(untiedConfig);
  writeFolder(dir.path(), untiedConfig, original);  // holds lm_head.weight
  const Weights loaded = loadWeights(dir.path(), smallConfig(true));
  EXPECT_TRUE(loaded.lmHead.empty());
  EXPECT_EQ(loaded.outputProjection().data(), loaded.embedTokens.data());
}

TEST(Weights, RefusesAMissingTensorNamingIt) {
  test::TempDir dir;
  const ModelConfig c = smallConfig(true);
  Weights original = randomWeights(c);
  writeFolder(dir.path(), c, original, "model.layers.1.mlp.up_proj.weight");
  try {
    loadWeights(dir.path(), c);
    FAIL() << "a checkpoint without up_proj loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'model.layers.1.mlp.up_proj.weight'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
}

TEST(Weights, RefusesAShapeThatDisagreesWithTheConfigNamingFileAndTensor) {
  test::TempDir dir;
  const ModelConfig c = smallConfig(true);
  Weights original = randomWeights(c);
  writeFolder(dir.path(), c, original, "", "model.layers.0.mlp.gate_proj.weight");
  try {
    loadWeights(dir.path(), c);
    FAIL() << "a transposed gate_proj loaded";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("model.safetensors"), std::string::npos) << message;
    EXPECT_NE(message.find("'model.layers.0.mlp.gate_proj.weight'"), std::string::npos) << message;
    EXPECT_NE(message.find("[16, 24]"), std::string::npos) << message;
    EXPECT_NE(message.find("[24, 16]"), std::string::npos) << message;
  }
}

TEST(Weights, DummyWeightsAreSeededFiniteAndNormsNearOne) {
  const ModelConfig c = smallConfig(false);
  const Weights a = makeDummyWeights(c, 1);
  const Weights b = makeDummyWeights(c, 1);
  const Weights other = makeDummyWeights(c, 2);
  EXPECT_EQ(a.layers[0].qProj, b.layers[0].qProj);
  EXPECT_EQ(a.lmHead, b.lmHead);
  EXPECT_NE(a.layers[0].qProj, other.layers[0].qProj);
  for (const float v : a.layers[1].postAttentionLayernorm) {
    EXPECT_GE(v, 0.95f);
    EXPECT_LE(v, 1.05f);
  }
  // Projections: uniform within 1/sqrt(fan-in), with both signs present.
  float lowest = 0.0f, highest = 0.0f;
  for (const float v : a.layers[0].downProj) {
    lowest = std::min(lowest, v);
    highest = std::max(highest, v);
  }
  EXPECT_LT(lowest, -0.1f);
  EXPECT_GT(highest, 0.1f);
  EXPECT_LE(highest, 1.0f / std::sqrt(24.0f));
}

TEST(Weights, CpuWeightBytesIsFourBytesPerParameter) {
  const ModelConfig tiny = *findModelPreset("qwen3-tiny");
  EXPECT_EQ(cpuWeightBytes(tiny), tiny.parameterCount() * 4);
  EXPECT_GT(cpuWeightBytes(*findModelPreset("qwen3-8b")), 32'000'000'000LL);  // why the CPU path refuses it
}

}  // namespace
}  // namespace ayar::engine
