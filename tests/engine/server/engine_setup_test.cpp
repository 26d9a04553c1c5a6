#include "engine/server/engine_setup.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "engine/model/weights.h"
#include "tests/engine/model/fp8_checkpoint.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

std::string refusal(const EngineOptions& options, std::int64_t availableHost) {
  try {
    planEngine(options, availableHost);
  } catch (const ayar::Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "planned " << options.model << " on " << options.device;
  return {};
}

TEST(EngineSetup, ParsesHumanReadableByteCountsAsVllmDoes) {
  EXPECT_EQ(parseByteCount("4096"), 4096);
  EXPECT_EQ(parseByteCount("1k"), 1000);
  EXPECT_EQ(parseByteCount("1K"), 1024);
  EXPECT_EQ(parseByteCount("2G"), 2 * kGiB);
  EXPECT_EQ(parseByteCount("1.5g"), 1'500'000'000);
  EXPECT_EQ(parseByteCount("512Mi"), 512 << 20);
  EXPECT_EQ(parseByteCount("lots"), std::nullopt);
  EXPECT_EQ(parseByteCount("-1G"), std::nullopt);
}

TEST(EngineSetup, SimSizesTheKvPoolFromTheSimulatedCard) {
  EngineOptions options;
  options.model = "qwen3-8b";
  options.device = "sim";
  options.simProfile = "h100";
  const EnginePlan plan = planEngine(options, 0);
  EXPECT_EQ(plan.device, "sim");
  EXPECT_EQ(plan.maxModelLen, 40960);
  EXPECT_EQ(plan.weightBytes, plan.model.parameterCount() * 2);
  // 80 GB x 0.9 minus ~16 GB of weights leaves well over 50 GiB of KV cache at 144 KiB per token.
  EXPECT_GT(plan.kvBudgetBytes, 50 * kGiB);
  EXPECT_EQ(plan.kvBytesPerBlock, plan.model.kvBytesPerToken(2) * 16);
  EXPECT_EQ(plan.numBlocks, plan.kvBudgetBytes / plan.kvBytesPerBlock);

  options.gpuMemoryUtilization = 0.5;
  EXPECT_LT(planEngine(options, 0).numBlocks, plan.numBlocks);
  options.kvCacheMemoryBytes = 8 * kGiB;
  EXPECT_EQ(planEngine(options, 0).numBlocks, 8 * kGiB / plan.kvBytesPerBlock);
}

// vLLM's default --max-num-seqs: 1024 on a card with at least 70 GiB that is not an A100, else 256, and
// never above the step's token budget; a value given on the command line is kept as it is.
TEST(EngineSetup, MaxNumSeqsDefaultsAsVllmByDevice) {
  EXPECT_EQ(defaultMaxNumSeqs("NVIDIA H200", 140 * kGiB, 8192), 1024);
  EXPECT_EQ(defaultMaxNumSeqs("NVIDIA H100 80GB HBM3", 80 * kGiB - kGiB / 2, 8192), 1024);
  EXPECT_EQ(defaultMaxNumSeqs("NVIDIA A100-SXM4-80GB", 80 * kGiB, 8192), 256);
  EXPECT_EQ(defaultMaxNumSeqs("NVIDIA L40S", 45 * kGiB, 8192), 256);
  EXPECT_EQ(defaultMaxNumSeqs("NVIDIA H200", 140 * kGiB, 512), 512);
  EXPECT_EQ(defaultMaxNumSeqs("", 0, 8192), 256);

  EngineOptions options;
  options.model = "qwen3-8b";
  options.device = "sim";
  for (const char* profile : {"h100", "h200"}) {
    options.simProfile = profile;
    EXPECT_EQ(planEngine(options, 0).maxNumSeqs, 1024) << profile;
  }
  options.simProfile = "fixed:20,5";  // no card is modelled: the general default
  EXPECT_EQ(planEngine(options, 0).maxNumSeqs, 256);
  options.simProfile = "h200";
  options.maxNumSeqs = 48;
  EXPECT_EQ(planEngine(options, 0).maxNumSeqs, 48);

  EngineOptions cpu;
  cpu.model = "qwen3-tiny";
  cpu.device = "cpu";
  EXPECT_EQ(planEngine(cpu, 16 * kGiB).maxNumSeqs, 256);
}

// --quantization fp8 and --kv-cache-dtype fp8 on the sim: the weights' layers at one byte (plus a float
// scale per output channel), the KV cache at one byte an element, so the same card holds more blocks.
// The cpu backend refuses both (RefusesWhatIsNotBuilt...); so does cuda until it has them.
TEST(EngineSetup, Fp8OnTheSimShrinksTheWeightsAndDoublesTheKvCache) {
  EngineOptions options;
  options.model = "qwen3-14b";
  options.device = "sim";
  const EnginePlan bf16 = planEngine(options, 0);
  options.kvCacheDtype = "fp8";
  const EnginePlan fp8Kv = planEngine(options, 0);
  EXPECT_TRUE(fp8Kv.fp8KvCache);
  EXPECT_TRUE(fp8Kv.simProfile->fp8KvCache);
  EXPECT_EQ(fp8Kv.kvBytesPerBlock * 2, bf16.kvBytesPerBlock);
  EXPECT_EQ(fp8Kv.kvBudgetBytes, bf16.kvBudgetBytes);
  EXPECT_NEAR(fp8Kv.numBlocks, 2 * bf16.numBlocks, 1);

  options.kvCacheDtype = "auto";
  options.quantization = "fp8";
  const EnginePlan fp8Weights = planEngine(options, 0);
  EXPECT_TRUE(fp8Weights.simProfile->fp8Weights);
  const ModelConfig& model = bf16.model;
  const std::int64_t embeddings = std::int64_t{2} * model.vocabSize * model.hiddenSize;  // untied
  const std::int64_t layerLinear =
      model.linearMacsPerToken() - std::int64_t{model.vocabSize} * model.hiddenSize;
  EXPECT_EQ(bf16.weightBytes, model.parameterCount() * 2);
  // One byte a layer weight instead of two; embedding, lm_head and norms keep two; scales are small.
  EXPECT_GT(fp8Weights.weightBytes, bf16.weightBytes - layerLinear);
  EXPECT_LT(fp8Weights.weightBytes, bf16.weightBytes - layerLinear + layerLinear / 100);
  EXPECT_GT(fp8Weights.weightBytes, embeddings * 2);
  EXPECT_EQ(fp8Weights.kvBudgetBytes - bf16.kvBudgetBytes, bf16.weightBytes - fp8Weights.weightBytes);
  EXPECT_GT(fp8Weights.numBlocks, bf16.numBlocks);
}

TEST(EngineSetup, RefusesWhatDoesNotFitNamingTheFlag) {
  EngineOptions cpu;
  cpu.model = "qwen3-32b";
  cpu.device = "cpu";
  EXPECT_NE(refusal(cpu, 16 * kGiB).find("does not fit on --device cpu"), std::string::npos);

  EngineOptions sim;
  sim.model = "qwen3-32b";
  sim.device = "sim";
  sim.simProfile = "h100";
  sim.gpuMemoryUtilization = 0.5;
  EXPECT_NE(refusal(sim, 0).find("--gpu-memory-utilization"), std::string::npos);

  EngineOptions shortOfKv;
  shortOfKv.model = "qwen3-0.6b";
  shortOfKv.device = "cpu";
  const std::string message = refusal(shortOfKv, 16 * kGiB);  // 1 GiB of float32 KV < 40960 tokens
  EXPECT_NE(message.find("--max-model-len 40960"), std::string::npos) << message;
  EXPECT_NE(message.find("largest --max-model-len"), std::string::npos) << message;

  EngineOptions tooLong;
  tooLong.model = "qwen3-tiny";
  tooLong.device = "cpu";
  tooLong.maxModelLen = 50000;
  EXPECT_NE(refusal(tooLong, 16 * kGiB).find("max_position_embeddings"), std::string::npos);
}

TEST(EngineSetup, RefusesUnknownModelsCudaAndFp8OnCudaClearly) {
  EngineOptions options;
  options.model = "no-such-model";
  EXPECT_NE(refusal(options, 16 * kGiB).find("Unknown model 'no-such-model'"), std::string::npos);
  options.model = "qwen3-tiny";
  if (!cudaUnavailableReason().empty()) {  // without a usable GPU (or a CUDA build) cuda is refused
    options.device = "cuda";
    EXPECT_NE(refusal(options, 16 * kGiB).find("--device cuda: " + cudaUnavailableReason()),
              std::string::npos);
  }
  if (cudaUnavailableReason().empty()) {  // FP8 on the GPU is not built yet: refused by name
    options.device = "cuda";
    options.kvCacheDtype = "fp8";
    EXPECT_NE(refusal(options, 16 * kGiB).find("--kv-cache-dtype fp8"), std::string::npos);
    options.kvCacheDtype = "auto";
    options.quantization = "fp8";
    EXPECT_NE(refusal(options, 16 * kGiB).find("--quantization fp8"), std::string::npos);
    options.quantization = "none";
  }
  options.device = "cpu";
  options.loadFormat = "safetensors";
  EXPECT_NE(refusal(options, 16 * kGiB).find("--load-format safetensors"), std::string::npos);
}

TEST(EngineSetup, AutoDeviceIsCudaWithAGpuElseCpuWithDummyWeightsForAPreset) {
  EngineOptions options;
  options.model = "qwen3-tiny";
  const EnginePlan plan = planEngine(options, 16 * kGiB);
  EXPECT_EQ(plan.loadFormat, "dummy");
  EXPECT_EQ(plan.servedModelName, "qwen3-tiny");
  if (cudaUnavailableReason().empty()) {
    EXPECT_EQ(plan.device, "cuda");
    EXPECT_EQ(plan.weightBytes, plan.model.parameterCount() * 2);
    EXPECT_GT(plan.numBlocks, 0);
  } else {
    EXPECT_EQ(plan.device, "cpu");
    EXPECT_EQ(plan.kvBudgetBytes, kDefaultCpuKvCacheBytes);
  }
}

// On the CPU, fp8 is the reference: the plan's KV block is one byte an element, the backend made from the
// plan agrees, and an FP8 checkpoint is served in FP8 without --quantization.
TEST(EngineSetup, CpuPlansFp8WeightsAndKvCacheAndReadsAnFp8Checkpoint) {
  EngineOptions options;
  options.model = "qwen3-tiny";
  options.device = "cpu";
  const EnginePlan floats = planEngine(options, 16 * kGiB);
  options.kvCacheDtype = "fp8";
  options.quantization = "fp8";
  const EnginePlan fp8 = planEngine(options, 16 * kGiB);
  EXPECT_TRUE(fp8.fp8Weights);
  EXPECT_TRUE(fp8.fp8KvCache);
  EXPECT_EQ(fp8.kvBytesPerBlock * 4, floats.kvBytesPerBlock);
  EXPECT_EQ(static_cast<std::int64_t>(createBackend(fp8, 1)->kvBytesPerBlock(options.blockSize)),
            fp8.kvBytesPerBlock);

  test::TempDir dir;
  ModelConfig small = *findModelPreset("qwen3-tiny");
  small.vocabSize = 300;  // a small file
  writeFp8TestCheckpoint(dir.path(), small, makeDummyWeights(small, 5), 128, 128,
                         R"("model_type": "qwen3", "hidden_size": 256, "intermediate_size": 768,
                            "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
                            "head_dim": 128, "vocab_size": 300, "tie_word_embeddings": true)");
  EngineOptions folder;
  folder.model = dir.path().string();
  folder.device = "cpu";
  const EnginePlan checkpoint = planEngine(folder, 16 * kGiB);
  EXPECT_TRUE(checkpoint.model.fp8Checkpoint());
  EXPECT_TRUE(checkpoint.fp8Weights);  // --quantization left at none
  EXPECT_EQ(checkpoint.loadFormat, "safetensors");
  EXPECT_NE(createBackend(checkpoint, 1), nullptr);
}

}  // namespace
}  // namespace ayar::engine
