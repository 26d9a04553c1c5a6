#include "engine/model/weights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>

#include "core/error.h"
#include "engine/model/fp8.h"
#include "engine/model/safetensors.h"
#include "tests/engine/model/fp8_checkpoint.h"
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

// smallConfig's shape as config.json members, for the FP8 checkpoints below.
const char* kSmallConfigFields = R"("model_type": "qwen3", "hidden_size": 16, "intermediate_size": 24,
  "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8, "vocab_size": 40,
  "tie_word_embeddings": false)";

// Blocks of 16 x 5 over matrices of 8-24 rows and 16-24 columns: whole and cut-short blocks both ways.
TEST(Weights, LoadsAnFp8CheckpointAsItsCodesTimesTheirBlockScales) {
  test::TempDir dir;
  const ModelConfig c = smallConfig(false);
  const Weights expected = writeFp8TestCheckpoint(dir.path(), c, randomWeights(c), 16, 5, kSmallConfigFields);
  const ModelConfig loadedConfig = loadModelConfig(dir / "config.json");
  ASSERT_TRUE(loadedConfig.fp8Checkpoint());
  const Weights loaded = loadWeights(dir.path(), loadedConfig);
  ASSERT_EQ(loaded.layers.size(), 2u);
  for (std::size_t l = 0; l < 2; ++l) {
    EXPECT_EQ(loaded.layers[l].qProj, expected.layers[l].qProj) << l;
    EXPECT_EQ(loaded.layers[l].kProj, expected.layers[l].kProj) << l;
    EXPECT_EQ(loaded.layers[l].oProj, expected.layers[l].oProj) << l;
    EXPECT_EQ(loaded.layers[l].upProj, expected.layers[l].upProj) << l;
    EXPECT_EQ(loaded.layers[l].downProj, expected.layers[l].downProj) << l;
    EXPECT_EQ(loaded.layers[l].inputLayernorm, expected.layers[l].inputLayernorm) << l;  // F32 as stored
  }
  EXPECT_EQ(loaded.embedTokens, expected.embedTokens);
  EXPECT_EQ(loaded.lmHead, expected.lmHead);
  // The values are FP8 values times a block's scale, not the random floats they came from.
  const Weights original = randomWeights(c);
  EXPECT_NE(loaded.layers[0].gateProj, original.layers[0].gateProj);
}

// Every way an FP8 tensor can be unreadable is refused with the file, the tensor and what is wrong.
TEST(Weights, RefusesAnFp8TensorWhoseScalesAreMissingMisshapenOrImpossible) {
  const ModelConfig c = smallConfig(false);
  const std::string weight = "model.layers.1.mlp.down_proj.weight";
  auto expectRefusal = [&](const std::filesystem::path& folder, const ModelConfig& config,
                           const std::string& part) {
    try {
      loadWeights(folder, config);
      ADD_FAILURE() << "loaded; expected an error saying " << part;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(".safetensors"), std::string::npos) << e.what();
    }
  };
  // Rewrites every shard, each tensor through `edit` (its name, values and shape; false drops it).
  using Edit = std::function<bool(const std::string&, std::vector<float>&, std::vector<std::int64_t>&)>;
  auto rewrite = [](const std::filesystem::path& folder, const Edit& edit) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() != ".safetensors") continue;
      std::vector<std::vector<float>> data;
      std::vector<SafetensorsWriteTensor> tensors;
      {
        const auto file = SafetensorsFile::open(entry.path());
        for (const auto& [tensorName, tensor] : file->tensors()) {
          std::vector<float> v(static_cast<std::size_t>(tensor.elementCount()));
          if (tensor.dtype == SafetensorsDType::kF8E4M3) {
            for (std::size_t i = 0; i < v.size(); ++i)
              v[i] = e4m3ToFloat(static_cast<std::uint8_t>(tensor.bytes[i]));
          } else {
            convertToFloat32(tensor, v);
          }
          std::vector<std::int64_t> shape = tensor.shape;
          if (!edit(tensorName, v, shape)) continue;
          data.push_back(std::move(v));
          tensors.push_back({tensorName, tensor.dtype, shape, {}});
        }
      }
      for (std::size_t i = 0; i < tensors.size(); ++i)
        tensors[i].values = data[i];
      writeSafetensors(entry.path(), tensors);
    }
  };
  auto replace = [&](const std::filesystem::path& folder, const std::string& name, std::vector<float> values,
                     std::vector<std::int64_t> shape = {}) {
    rewrite(folder, [&](const std::string& tensorName, std::vector<float>& v, std::vector<std::int64_t>& s) {
      if (tensorName == name) {
        v = values;
        if (!shape.empty()) s = shape;
      }
      return true;
    });
  };
  {
    test::TempDir dir;
    writeFp8TestCheckpoint(dir.path(), c, randomWeights(c), 16, 16, kSmallConfigFields);
    const ModelConfig config = loadModelConfig(dir / "config.json");
    replace(dir.path(), weight + "_scale_inv", {1.0f, -0.5f});  // [1, 2] blocks of 16 over [16, 24]
    expectRefusal(dir.path(), config, "positive finite");
    replace(dir.path(), weight + "_scale_inv", {1.0f, 1.0f, 1.0f}, {1, 3});
    expectRefusal(dir.path(), config, "implies [1, 2]");
    replace(dir.path(), weight + "_scale_inv", {1.0f, std::nanf("")}, {1, 2});
    expectRefusal(dir.path(), config, "positive finite");
  }
  {
    test::TempDir dir;
    writeFp8TestCheckpoint(dir.path(), c, randomWeights(c), 16, 16, kSmallConfigFields);
    std::vector<float> withNan(16 * 24, 1.0f);
    withNan[30] = std::nanf("");  // the writer stores NaN as code 0x7f
    replace(dir.path(), weight, withNan);
    expectRefusal(dir.path(), loadModelConfig(dir / "config.json"), "NaN at (1, 6)");
  }
  {
    test::TempDir dir;  // an FP8 tensor without a config that says how it is scaled
    writeFp8TestCheckpoint(dir.path(), c, randomWeights(c), 16, 16, kSmallConfigFields);
    expectRefusal(dir.path(), c, "quantization_config");
  }
  {
    test::TempDir dir;  // the scales left out of every shard and the index
    writeFp8TestCheckpoint(dir.path(), c, randomWeights(c), 16, 16, kSmallConfigFields);
    const ModelConfig config = loadModelConfig(dir / "config.json");
    std::filesystem::remove(dir / "model.safetensors.index.json");
    rewrite(dir.path(), [&](const std::string& name, std::vector<float>&, std::vector<std::int64_t>&) {
      return name != weight + "_scale_inv";
    });
    expectRefusal(dir.path(), config, "'" + weight + "_scale_inv'");
  }
}

// --quantization fp8 on bf16 weights: the linear layers rounded per output channel, the rest untouched.
TEST(Weights, Fp8QuantizationRoundsOnlyTheLinearLayersPerOutputChannel) {
  const ModelConfig c = smallConfig(false);
  const Weights original = randomWeights(c);
  Weights quantized = original;
  quantizeLinearWeightsFp8(quantized, c);
  EXPECT_EQ(quantized.embedTokens, original.embedTokens);
  EXPECT_EQ(quantized.lmHead, original.lmHead);
  EXPECT_EQ(quantized.layers[0].qNorm, original.layers[0].qNorm);
  std::vector<float> expected = original.layers[1].gateProj;  // [24, 16]
  quantizeRowsFp8(expected, 24, 16);
  EXPECT_EQ(quantized.layers[1].gateProj, expected);
  EXPECT_NE(quantized.layers[1].gateProj, original.layers[1].gateProj);
}

}  // namespace
}  // namespace ayar::engine
