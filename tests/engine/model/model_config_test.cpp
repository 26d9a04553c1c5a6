#include "engine/model/model_config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

TEST(ModelConfig, PresetParameterCountsMatchThePublishedSizes) {
  // docs/ENGINE.md's Models table (from the model cards), in billions at the precision published there.
  const std::pair<const char*, double> published[] = {{"qwen3-0.6b", 0.60}, {"qwen3-1.7b", 1.72},
                                                      {"qwen3-4b", 4.02},   {"qwen3-8b", 8.19},
                                                      {"qwen3-14b", 14.77}, {"qwen3-32b", 32.8}};
  for (const auto& [name, billions] : published) {
    const auto preset = findModelPreset(name);
    ASSERT_TRUE(preset) << name;
    const double decimals = std::string_view(name) == "qwen3-32b" ? 10.0 : 100.0;
    EXPECT_DOUBLE_EQ(std::round(preset->parameterCount() / 1e9 * decimals) / decimals, billions) << name;
  }
}

TEST(ModelConfig, Qwen3_06bCountsEveryTensorExactly) {
  const ModelConfig c = *findModelPreset("qwen3-0.6b");
  // 28 layers of (q 1024x2048, k and v 1024x1024, o 2048x1024, MLP 3x1024x3072, four norms), tied
  // embedding 151936x1024, final norm.
  const std::int64_t layer =
      1024LL * 2048 + 2 * 1024LL * 1024 + 2048LL * 1024 + 3 * 1024LL * 3072 + 2 * 1024 + 2 * 128;
  EXPECT_EQ(c.parameterCount(), 28 * layer + 151936LL * 1024 + 1024);
}

TEST(ModelConfig, TinyPresetHasTheRealVocabularyAndAWideQueryLikeTheSmallModels) {
  const auto tiny = findModelPreset("qwen3-tiny");
  ASSERT_TRUE(tiny);
  EXPECT_EQ(tiny->hiddenSize, 256);
  EXPECT_EQ(tiny->intermediateSize, 768);
  EXPECT_EQ(tiny->numLayers, 4);
  EXPECT_EQ(tiny->numHeads * tiny->headDim, 512);
  EXPECT_EQ(tiny->numKvHeads, 2);
  EXPECT_TRUE(tiny->tieWordEmbeddings);
  EXPECT_EQ(tiny->vocabSize, 151936);
  EXPECT_EQ(tiny->maxPositionEmbeddings, 40960);
}

TEST(ModelConfig, EveryPresetIsFindableByNameAndUnknownNamesAreNot) {
  EXPECT_EQ(modelPresets().size(), 7u);
  for (const ModelConfig& preset : modelPresets()) {
    EXPECT_EQ(findModelPreset(preset.name)->name, preset.name);
    EXPECT_EQ(preset.ropeTheta, 1e6);
    EXPECT_EQ(preset.rmsNormEps, 1e-6);
  }
  EXPECT_FALSE(findModelPreset("qwen3-9b"));
}

TEST(ModelConfig, KvBytesAndMacsFollowTheShape) {
  const ModelConfig c = *findModelPreset("qwen3-8b");
  EXPECT_EQ(c.kvBytesPerToken(2), 2LL * 36 * 8 * 128 * 2);  // 144 KiB per token in bf16
  // Linear MACs = parameters minus embedding lookup and norms (lm_head is a matmul, the embedding is not).
  EXPECT_EQ(c.linearMacsPerToken(), c.parameterCount() - 151936LL * 4096 - 36 * (2 * 4096 + 2 * 128) - 4096);
}

void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(ModelConfig, ReadsAHuggingFaceConfigJson) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "Qwen3-8B");
  // Abridged from the published Qwen/Qwen3-8B config.json.
  writeText(dir / "Qwen3-8B" / "config.json", R"({
    "architectures": ["Qwen3ForCausalLM"], "attention_bias": false, "head_dim": 128, "hidden_act": "silu",
    "hidden_size": 4096, "intermediate_size": 12288, "max_position_embeddings": 40960, "model_type": "qwen3",
    "num_attention_heads": 32, "num_hidden_layers": 36, "num_key_value_heads": 8, "rms_norm_eps": 1e-06,
    "rope_scaling": null, "rope_theta": 1000000, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
    "vocab_size": 151936})");
  const ModelConfig c = loadModelConfig(dir / "Qwen3-8B" / "config.json");
  const ModelConfig preset = *findModelPreset("qwen3-8b");
  EXPECT_EQ(c.name, "Qwen3-8B");
  EXPECT_EQ(c.parameterCount(), preset.parameterCount());
  EXPECT_EQ(c.numKvHeads, 8);
  EXPECT_FALSE(c.tieWordEmbeddings);
  EXPECT_EQ(c.ropeTheta, 1e6);
}

TEST(ModelConfig, RefusesAnotherArchitectureNamingTheFile) {
  test::TempDir dir;
  writeText(dir / "config.json", R"({"model_type": "llama", "hidden_size": 4096})");
  try {
    loadModelConfig(dir / "config.json");
    FAIL() << "a llama config was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("config.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("qwen3"), std::string::npos) << e.what();
  }
}

TEST(ModelConfig, RefusesMissingOrMalformedFieldsNamingTheField) {
  test::TempDir dir;
  writeText(dir / "config.json", R"({"model_type": "qwen3", "hidden_size": 64, "intermediate_size": 128,
    "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": -5})");
  EXPECT_THROW(
      {
        try {
          loadModelConfig(dir / "config.json");
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("vocab_size"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  writeText(dir / "config.json", "{not json");
  EXPECT_THROW(loadModelConfig(dir / "config.json"), Error);
  EXPECT_THROW(loadModelConfig(dir / "absent.json"), Error);
}

// Qwen's FP8 releases: quantization_config with quant_method fp8, e4m3, dynamic activations, 128 x 128
// blocks. A checkpoint quantized otherwise is refused by the field that says so, never read as bf16.
TEST(ModelConfig, ReadsAnFp8QuantizationConfigAndRefusesOtherSchemesByField) {
  test::TempDir dir;
  const std::string shape = R"("model_type": "qwen3", "hidden_size": 64, "intermediate_size": 128,
    "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 300)";
  writeText(dir / "config.json", "{" + shape + R"(, "quantization_config": {"activation_scheme": "dynamic",
    "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}})");
  const ModelConfig fp8 = loadModelConfig(dir / "config.json");
  EXPECT_TRUE(fp8.fp8Checkpoint());
  EXPECT_EQ(fp8.fp8BlockRows, 128);
  EXPECT_EQ(fp8.fp8BlockCols, 128);
  writeText(dir / "config.json", "{" + shape + R"(, "quantization_config": null})");
  EXPECT_FALSE(loadModelConfig(dir / "config.json").fp8Checkpoint());

  for (const auto& [quantization, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"quant_method": "awq", "bits": 4})", "quant_method"},
           {R"({"quant_method": "fp8", "fmt": "e5m2", "weight_block_size": [128, 128]})", "fmt"},
           {R"({"quant_method": "fp8", "activation_scheme": "static", "weight_block_size": [128, 128]})",
            "activation_scheme"},
           {R"({"quant_method": "fp8"})", "weight_block_size"},
           {R"({"quant_method": "fp8", "weight_block_size": [128, 0]})", "weight_block_size"},
           {R"({"quant_method": "fp8", "weight_block_size": [128]})", "weight_block_size"},
           {R"({"quant_method": "fp8", "weight_block_size": "128x128"})", "weight_block_size"},
           {R"("fp8")", "quantization_config"}}) {
    writeText(dir / "config.json", "{" + shape + R"(, "quantization_config": )" + quantization + "}");
    try {
      loadModelConfig(dir / "config.json");
      ADD_FAILURE() << quantization << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("config.json"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace ayar::engine
