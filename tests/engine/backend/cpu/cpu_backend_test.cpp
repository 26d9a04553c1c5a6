#include "engine/backend/cpu/cpu_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>
#include <set>

#include "core/error.h"
#include "engine/model/safetensors.h"
#include "tests/engine/backend/cpu/dense_reference.h"
#include "tests/engine/model/fp8_checkpoint.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

constexpr int kBlockSize = 4;
constexpr int kNumBlocks = 64;
constexpr float kTolerance = 1e-4f;

// Hands out the pool's blocks in a shuffled order, so that block tables are scattered and interleaved.
class ShuffledBlocks {
 public:
  explicit ShuffledBlocks(unsigned seed) : m_free(kNumBlocks) {
    std::iota(m_free.begin(), m_free.end(), 0);
    std::shuffle(m_free.begin(), m_free.end(), std::mt19937(seed));
  }
  std::int32_t take() {
    const std::int32_t block = m_free.back();
    m_free.pop_back();
    return block;
  }

 private:
  std::vector<std::int32_t> m_free;
};

// A sequence as the scheduler would track it: all its tokens, how many have KV in the cache, its pages.
struct Sequence {
  std::uint64_t id = 0;
  std::vector<std::int32_t> tokens{};
  int cached = 0;
  std::vector<std::int32_t> blockTable{};
  SamplingParams sampling{.temperature = 0.0f};
  std::int32_t generated = 0;

  // The next `count` uncached tokens as one SeqStep, taking blocks for them.
  SeqStep next(int count, bool sample, ShuffledBlocks& blocks) {
    while (static_cast<int>(blockTable.size()) * kBlockSize < cached + count)
      blockTable.push_back(blocks.take());
    SeqStep step;
    step.seqId = id;
    step.tokens = std::span<const std::int32_t>(tokens).subspan(cached, count);
    step.position = cached;
    step.blockTable = blockTable;
    step.sample = sample;
    step.sampling = &sampling;
    step.generatedSoFar = generated;
    cached += count;
    return step;
  }
};

std::vector<std::int32_t> randomTokens(int count, int vocab, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int32_t> pick(0, vocab - 1);
  std::vector<std::int32_t> tokens(count);
  for (auto& t : tokens)
    t = pick(rng);
  return tokens;
}

float maxAbsDiff(std::span<const float> a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float diff = 0.0f;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    diff = std::max(diff, std::abs(a[i] - b[i]));
  return diff;
}

std::span<const float> logitsRow(const CpuBackend& backend, int row, int vocab) {
  return backend.lastLogits().subspan(static_cast<std::size_t>(row) * vocab, vocab);
}

struct TestModel {
  ModelConfig config;
  std::shared_ptr<const Weights> weights;
};

TestModel smallModel(bool tied = false, std::uint32_t seed = 1) {
  const ModelConfig config = reference::smallTestConfig(tied);
  return {config, std::make_shared<const Weights>(reference::randomTestWeights(config, seed))};
}

TEST(CpuBackend, PrefillInOneChunkMatchesTheDenseReference) {
  for (const bool tied : {false, true}) {
    const TestModel model = smallModel(tied);
    CpuBackend backend(model.config, model.weights, 0);
    backend.allocateKvCache(kNumBlocks, kBlockSize);
    ShuffledBlocks blocks(3);
    Sequence seq{.id = 1, .tokens = randomTokens(23, model.config.vocabSize, 5)};

    StepOutput out;
    const SeqStep step = seq.next(23, true, blocks);
    backend.step({&step, 1}, out);

    const auto dense = reference::denseLogits(model.config, *model.weights, seq.tokens);
    EXPECT_LT(maxAbsDiff(logitsRow(backend, 0, model.config.vocabSize), dense.back()), kTolerance) << tied;
    ASSERT_EQ(out.sampled.size(), 1u);
    EXPECT_EQ(out.sampled[0],
              std::max_element(dense.back().begin(), dense.back().end()) - dense.back().begin());
    EXPECT_TRUE(out.releaseAt.empty());
  }
}

TEST(CpuBackend, PrefillInSeveralChunksMatchesTheDenseReference) {
  const TestModel model = smallModel();
  CpuBackend backend(model.config, model.weights, 0);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(4);
  Sequence seq{.id = 1, .tokens = randomTokens(26, model.config.vocabSize, 6)};
  const auto dense = reference::denseLogits(model.config, *model.weights, seq.tokens);

  // Chunk edges inside and across blocks; each chunk's last position is checked.
  for (const int chunk : {7, 1, 5, 13}) {
    StepOutput out;
    const SeqStep step = seq.next(chunk, true, blocks);
    backend.step({&step, 1}, out);
    EXPECT_LT(maxAbsDiff(logitsRow(backend, 0, model.config.vocabSize), dense[seq.cached - 1]), kTolerance)
        << "after " << seq.cached << " tokens";
  }
}

TEST(CpuBackend, GreedyDecodeMatchesTheDenseReference) {
  const TestModel model = smallModel();
  CpuBackend backend(model.config, model.weights, 0);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(5);
  Sequence seq{.id = 9, .tokens = randomTokens(10, model.config.vocabSize, 7)};

  StepOutput out;
  SeqStep step = seq.next(10, true, blocks);
  backend.step({&step, 1}, out);
  for (int i = 0; i < 14; ++i) {
    seq.tokens.push_back(out.sampled.at(0));
    ++seq.generated;
    const auto dense = reference::denseLogits(model.config, *model.weights, seq.tokens);
    step = seq.next(1, true, blocks);
    backend.step({&step, 1}, out);
    EXPECT_LT(maxAbsDiff(logitsRow(backend, 0, model.config.vocabSize), dense.back()), kTolerance)
        << "decode " << i;
    EXPECT_EQ(out.sampled.at(0),
              std::max_element(dense.back().begin(), dense.back().end()) - dense.back().begin());
  }
  // The greedy continuation is not stuck on one token (it would hide a cache that is never read).
  EXPECT_GT(std::set<std::int32_t>(seq.tokens.begin() + 10, seq.tokens.end()).size(), 2u);
}

TEST(CpuBackend, MixedBatchWithShuffledBlockTablesMatchesTheDenseReference) {
  const TestModel model = smallModel();
  CpuBackend backend(model.config, model.weights, 0);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(6);
  std::vector<Sequence> seqs = {{.id = 1, .tokens = randomTokens(15, model.config.vocabSize, 11)},
                                {.id = 2, .tokens = randomTokens(5, model.config.vocabSize, 12)},
                                {.id = 3, .tokens = randomTokens(13, model.config.vocabSize, 13)}};

  auto runAndCheck = [&](std::vector<SeqStep> batch, const std::string& what) {
    StepOutput out;
    backend.step(batch, out);
    int row = 0;
    for (const SeqStep& step : batch) {
      if (!step.sample) continue;
      Sequence& seq =
          *std::find_if(seqs.begin(), seqs.end(), [&](const Sequence& s) { return s.id == step.seqId; });
      const auto dense = reference::denseLogits(
          model.config, *model.weights,
          std::vector<std::int32_t>(seq.tokens.begin(), seq.tokens.begin() + seq.cached));
      EXPECT_LT(maxAbsDiff(logitsRow(backend, row, model.config.vocabSize), dense.back()), kTolerance)
          << what << ", sequence " << seq.id;
      seq.tokens.push_back(out.sampled.at(row++));
      ++seq.generated;
    }
    EXPECT_EQ(static_cast<std::size_t>(row), out.sampled.size());
  };

  // Step 1: a prefill chunk that does not sample yet, and two whole prefills.
  runAndCheck({seqs[0].next(9, false, blocks), seqs[1].next(5, true, blocks), seqs[2].next(13, true, blocks)},
              "prefills");
  // Step 2: the rest of the chunked prefill alongside two decodes.
  runAndCheck({seqs[1].next(1, true, blocks), seqs[0].next(6, true, blocks), seqs[2].next(1, true, blocks)},
              "chunk with decodes");
  // Steps 3..7: everyone decodes, in a changing order.
  for (int i = 0; i < 5; ++i) {
    std::vector<SeqStep> batch;
    for (int s = 0; s < 3; ++s)
      batch.push_back(seqs[(s + i) % 3].next(1, true, blocks));
    runAndCheck(batch, "decode " + std::to_string(i));
  }
}

TEST(CpuBackend, OneThreadAndTwoThreadsGiveIdenticalLogits) {
  const TestModel model = smallModel();
  std::vector<float> logits[2];
  for (const int threads : {1, 2}) {
    CpuBackend backend(model.config, model.weights, 0, threads);
    backend.allocateKvCache(kNumBlocks, kBlockSize);
    ShuffledBlocks blocks(8);
    Sequence a{.id = 1, .tokens = randomTokens(40, model.config.vocabSize, 21)};
    Sequence b{.id = 2, .tokens = randomTokens(3, model.config.vocabSize, 22)};
    const SeqStep batch[] = {a.next(40, true, blocks), b.next(3, true, blocks)};
    StepOutput out;
    backend.step(batch, out);
    logits[threads - 1].assign(backend.lastLogits().begin(), backend.lastLogits().end());
  }
  EXPECT_EQ(logits[0], logits[1]);  // splitting rows between threads changes no sum
}

// A sequence's logits, alone in one prefill, in chunks beside another sequence, and with its last token as
// a decode: the same bits each time, whatever the backend's precision.
void expectLogitsIndependentOfBatchAndChunking(const TestModel& model, CpuPrecision precision) {
  const std::vector<std::int32_t> tokens = randomTokens(11, model.config.vocabSize, 61);
  auto lastLogits = [&](const CpuBackend& backend, int row) {
    const auto logits = logitsRow(backend, row, model.config.vocabSize);
    return std::vector<float>(logits.begin(), logits.end());
  };

  // Alone, in one prefill.
  CpuBackend alone(model.config, model.weights, 0, 0, precision);
  alone.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocksA(13);
  Sequence a{.id = 1, .tokens = tokens};
  StepOutput out;
  SeqStep step = a.next(11, true, blocksA);
  alone.step({&step, 1}, out);
  const std::vector<float> reference = lastLogits(alone, 0);

  // In two chunks, each sharing its step with another sequence, so that its rows fall differently into
  // the matmul's 4-token groups: tokens 2..4 go alone here (grouped above), tokens 8..10, the sampled
  // one included, go grouped here (alone above).
  CpuBackend shared(model.config, model.weights, 0, 0, precision);
  shared.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocksB(14);
  Sequence b{.id = 1, .tokens = tokens};
  Sequence other{.id = 2, .tokens = randomTokens(8, model.config.vocabSize, 62)};
  const SeqStep first[] = {other.next(2, false, blocksB), b.next(5, false, blocksB)};
  shared.step(first, out);
  const SeqStep second[] = {b.next(6, true, blocksB), other.next(2, true, blocksB)};
  shared.step(second, out);
  EXPECT_EQ(lastLogits(shared, 0), reference);

  // Prefilled up to the last token, which then comes as a decode.
  CpuBackend decoded(model.config, model.weights, 0, 0, precision);
  decoded.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocksC(15);
  Sequence d{.id = 1, .tokens = tokens};
  step = d.next(10, false, blocksC);
  decoded.step({&step, 1}, out);
  step = d.next(1, true, blocksC);
  decoded.step({&step, 1}, out);
  EXPECT_EQ(lastLogits(decoded, 0), reference);
}

TEST(CpuBackend, LogitsDoNotDependOnTheRestOfTheBatchOrOnChunking) {
  expectLogitsIndependentOfBatchAndChunking(smallModel(), {});
}

TEST(CpuBackend, SeededSamplingReproducesWhenARequestIsRecomputed) {
  const TestModel model = smallModel();
  const SamplingParams sampling{
      .temperature = 1.5f, .topP = 0.95f, .topK = 50, .seed = 1234, .hasSeed = true};
  const std::vector<std::int32_t> prompt = randomTokens(9, model.config.vocabSize, 31);

  // First run: prefill, then 10 generated tokens.
  CpuBackend first(model.config, model.weights, 1);
  first.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(9);
  Sequence seq{.id = 1, .tokens = prompt, .sampling = sampling};
  StepOutput out;
  for (int i = 0; i < 10; ++i) {
    const SeqStep step = seq.next(static_cast<int>(seq.tokens.size()) - seq.cached, true, blocks);
    first.step({&step, 1}, out);
    seq.tokens.push_back(out.sampled.at(0));
    ++seq.generated;
  }

  // Second run, as after a preemption: another backend (another --seed), other blocks, the prompt and
  // the first 4 generated tokens recomputed in one prefill, then generation resumes at index 4.
  CpuBackend second(model.config, model.weights, 2);
  second.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks otherBlocks(10);
  Sequence again{.id = 1,
                 .tokens = std::vector<std::int32_t>(seq.tokens.begin(), seq.tokens.begin() + 9 + 4),
                 .sampling = sampling,
                 .generated = 4};
  for (int i = 4; i < 10; ++i) {
    const SeqStep step = again.next(static_cast<int>(again.tokens.size()) - again.cached, true, otherBlocks);
    second.step({&step, 1}, out);
    again.tokens.push_back(out.sampled.at(0));
    ++again.generated;
  }
  EXPECT_EQ(again.tokens, seq.tokens);
  EXPECT_GT(std::set<std::int32_t>(seq.tokens.begin() + 9, seq.tokens.end()).size(),
            3u);  // it really sampled
}

TEST(CpuBackend, RefusesATokenOutsideTheVocabulary) {
  const TestModel model = smallModel();
  CpuBackend backend(model.config, model.weights, 0);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(1);
  Sequence seq{.id = 1, .tokens = {1, 2, 300}};
  const SeqStep step = seq.next(3, true, blocks);
  StepOutput out;
  try {
    backend.step({&step, 1}, out);
    FAIL() << "token 300 of a 300-token vocabulary was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("token id 300"), std::string::npos) << e.what();
  }
}

TEST(CpuBackend, KvBlockHoldsKeysAndValuesOfEveryLayerInFloat32) {
  const TestModel model = smallModel();
  const auto backend = makeCpuBackend(model.config, model.weights, 0);
  EXPECT_EQ(backend->name(), "cpu");
  EXPECT_FALSE(backend->simulated());
  // 2 (K and V) x 2 layers x 2 KV heads x 32 x 4 bytes, per token.
  EXPECT_EQ(backend->kvBytesPerBlock(16), 16u * 2 * 2 * 2 * 32 * 4);
}

TEST(CpuBackend, LoadsASafetensorsFolderAndMatchesTheDenseReference) {
  ::ayar::test::TempDir dir;
  const ModelConfig config = reference::smallTestConfig(false);
  Weights original = reference::randomTestWeights(config, 41);
  std::vector<SafetensorsWriteTensor> tensors;
  for (const WeightTensorRef& ref : weightTensors(original, config)) {
    // Matrices in BF16 as Qwen3 ships them, norms in F32.
    tensors.push_back({ref.name, ref.shape.size() == 2 ? SafetensorsDType::kBF16 : SafetensorsDType::kF32,
                       ref.shape, *ref.values});
  }
  writeSafetensors(dir / "model.safetensors", tensors, {{"format", "pt"}});
  std::ofstream(dir / "config.json") << R"({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
    "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
    "num_key_value_heads": 2, "head_dim": 32, "vocab_size": 300, "rms_norm_eps": 1e-06,
    "rope_theta": 1000000, "tie_word_embeddings": false, "max_position_embeddings": 40960})";

  const ModelConfig loadedConfig = loadModelConfig(dir / "config.json");
  EXPECT_EQ(loadedConfig.parameterCount(), config.parameterCount());
  const auto loaded = std::make_shared<const Weights>(loadWeights(dir.path(), loadedConfig));
  EXPECT_EQ(loaded->layers[1].kProj[5], bf16ToFloat(floatToBf16(original.layers[1].kProj[5])));
  EXPECT_EQ(loaded->layers[1].kNorm, original.layers[1].kNorm);

  CpuBackend backend(loadedConfig, loaded, 0);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(12);
  Sequence seq{.id = 1, .tokens = randomTokens(12, config.vocabSize, 42)};
  const SeqStep step = seq.next(12, true, blocks);
  StepOutput out;
  backend.step({&step, 1}, out);
  const auto dense = reference::denseLogits(loadedConfig, *loaded, seq.tokens);
  EXPECT_LT(maxAbsDiff(logitsRow(backend, 0, config.vocabSize), dense.back()), kTolerance);
}

TEST(CpuBackend, Qwen3TinyDummyWeightsGiveFiniteLogitsAndVaryingSamples) {
  const ModelConfig tiny = *findModelPreset("qwen3-tiny");
  const auto weights = std::make_shared<const Weights>(makeDummyWeights(tiny, 0));
  CpuBackend backend(tiny, weights, 7);
  backend.allocateKvCache(16, 16);

  std::vector<std::int32_t> tokens = randomTokens(12, tiny.vocabSize, 51);
  SamplingParams sampling;  // temperature 1, unseeded: the backend's generator
  std::vector<std::int32_t> table = {3, 9};
  std::set<std::int32_t> sampled;
  StepOutput out;
  for (int i = 0; i < 2; ++i) {  // a prefill and a decode
    SeqStep step{.seqId = 1,
                 .tokens = tokens,
                 .position = 0,
                 .blockTable = table,
                 .sample = true,
                 .sampling = &sampling};
    if (i > 0) {
      step.tokens = std::span<const std::int32_t>(tokens).subspan(tokens.size() - 1);
      step.position = static_cast<std::int32_t>(tokens.size()) - 1;
    }
    backend.step({&step, 1}, out);
    const auto logits = backend.lastLogits();
    ASSERT_EQ(logits.size(), static_cast<std::size_t>(tiny.vocabSize));
    EXPECT_TRUE(std::all_of(logits.begin(), logits.end(), [](float v) { return std::isfinite(v); }));
    const auto [lo, hi] = std::minmax_element(logits.begin(), logits.end());
    EXPECT_GT(*hi - *lo, 0.1f);  // not a flat distribution
    sampled.insert(out.sampled.at(0));
    tokens.push_back(out.sampled.at(0));
  }
  EXPECT_GT(sampled.size(), 1u);
}

// smallTestConfig as config.json members.
const char* kSmallConfigFields = R"("architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
    "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
    "num_key_value_heads": 2, "head_dim": 32, "vocab_size": 300, "rms_norm_eps": 1e-06,
    "rope_theta": 1000000, "tie_word_embeddings": false, "max_position_embeddings": 40960)";

// The last row's logits of one prefill of `tokens`.
std::vector<float> prefillLogits(const ModelConfig& config, std::shared_ptr<const Weights> weights,
                                 CpuPrecision precision, const std::vector<std::int32_t>& tokens) {
  CpuBackend backend(config, std::move(weights), 0, 0, precision);
  backend.allocateKvCache(kNumBlocks, kBlockSize);
  ShuffledBlocks blocks(31);
  Sequence seq{.id = 1, .tokens = tokens};
  const SeqStep step = seq.next(static_cast<int>(tokens.size()), true, blocks);
  StepOutput out;
  backend.step({&step, 1}, out);
  const auto logits = logitsRow(backend, 0, config.vocabSize);
  return {logits.begin(), logits.end()};
}

// max |a - b| over the range of b: how far FP8 rounding moved the logits, against how spread they are. An
// e4m3 value keeps 3 mantissa bits (up to 6% off); through this model's two layers the logits move by
// 5-7% of their range, so 15% holds them to rounding's size while a wrong scale (a factor off) would not.
float relativeSpread(const std::vector<float>& a, const std::vector<float>& b) {
  const auto [lo, hi] = std::minmax_element(b.begin(), b.end());
  return maxAbsDiff(a, b) / (*hi - *lo);
}

// An FP8 checkpoint (two shards, scales in 48 x 32 blocks, the last cut short) serves the same logits as
// its weights dequantized by hand; the activations are rounded per token and 32 features, so the logits
// sit near (not on) the float32 pass over the same weights.
TEST(CpuBackend, AnFp8CheckpointGivesTheLogitsOfItsWeightsDequantizedByHand) {
  ::ayar::test::TempDir dir;
  const ModelConfig config = reference::smallTestConfig(false);
  const auto byHand = std::make_shared<const Weights>(writeFp8TestCheckpoint(
      dir.path(), config, reference::randomTestWeights(config, 43), 48, 32, kSmallConfigFields));
  const ModelConfig loadedConfig = loadModelConfig(dir / "config.json");
  ASSERT_EQ(loadedConfig.fp8BlockCols, 32);
  const auto loaded = std::make_shared<const Weights>(loadWeights(dir.path(), loadedConfig));
  const std::vector<std::int32_t> tokens = randomTokens(9, config.vocabSize, 44);
  const CpuPrecision fp8{.fp8ActivationGroup = 32};
  const std::vector<float> served = prefillLogits(loadedConfig, loaded, fp8, tokens);
  EXPECT_EQ(served, prefillLogits(config, byHand, fp8, tokens));
  const std::vector<float> unrounded = prefillLogits(config, byHand, {}, tokens);
  EXPECT_GT(maxAbsDiff(served, unrounded), 0.0f);  // the activations were rounded
  EXPECT_LT(relativeSpread(served, unrounded), 0.15f);
}

// --quantization fp8 (weights per output channel, activations per token) and --kv-cache-dtype fp8: logits
// near the float32 pass, a KV block a quarter of float32's, and still the same bits however a sequence is
// batched or chunked.
TEST(CpuBackend, Fp8WeightsActivationsAndKvCacheStayNearFloatAndIndependentOfBatching) {
  const TestModel model = smallModel(false, 45);
  Weights quantized = *model.weights;
  quantizeLinearWeightsFp8(quantized, model.config);
  const TestModel fp8Model{model.config, std::make_shared<const Weights>(std::move(quantized))};
  const std::vector<std::int32_t> tokens = randomTokens(12, model.config.vocabSize, 46);
  const std::vector<float> exact = prefillLogits(model.config, model.weights, {}, tokens);

  const std::vector<float> weightsOnly = prefillLogits(fp8Model.config, fp8Model.weights, {}, tokens);
  const std::vector<float> fp8 =
      prefillLogits(fp8Model.config, fp8Model.weights, {.fp8ActivationGroup = 0}, tokens);
  const std::vector<float> fp8Kv = prefillLogits(model.config, model.weights, {.fp8KvCache = true}, tokens);
  for (const auto& [name, logits] :
       {std::pair{"weights", &weightsOnly}, std::pair{"weights and activations", &fp8},
        std::pair{"KV cache", &fp8Kv}}) {
    EXPECT_GT(maxAbsDiff(*logits, exact), 0.0f) << name;
    EXPECT_LT(relativeSpread(*logits, exact), 0.15f) << name;
  }
  EXPECT_NE(fp8, weightsOnly);

  const CpuBackend floatCache(model.config, model.weights, 0);
  const CpuBackend byteCache(model.config, model.weights, 0, 0, {.fp8KvCache = true});
  EXPECT_EQ(byteCache.kvBytesPerBlock(16) * 4, floatCache.kvBytesPerBlock(16));

  expectLogitsIndependentOfBatchAndChunking(fp8Model, {.fp8ActivationGroup = 0});
  expectLogitsIndependentOfBatchAndChunking(fp8Model, {.fp8ActivationGroup = 16, .fp8KvCache = true});
}

}  // namespace
}  // namespace ayar::engine
