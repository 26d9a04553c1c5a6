// The CUDA backend against the CPU backend (the float32 reference) on the same dummy weights: the logits
// of every sampled position agree within a relative error (norm of the difference over the norm of the
// reference) of 2e-2, through chunked prefill, 64 decode steps, prefix-cache hits and a preemption.
// Skipped on a machine without a usable GPU.

#include "engine/backend/cuda/cuda_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/model/weights.h"

namespace ayar::engine {
namespace {

constexpr int kBlockSize = 16;
constexpr int kNumBlocks = 512;
constexpr double kTolerance = 2e-2;

#define SKIP_WITHOUT_GPU()                                 \
  do {                                                     \
    const CudaDeviceInfo device = probeCudaDevice();       \
    if (!device.usable) {                                  \
      GTEST_SKIP() << "no usable GPU: " << device.problem; \
    }                                                      \
  } while (false)

double relativeError(std::span<const float> value, std::span<const float> reference) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double d = static_cast<double>(value[i]) - reference[i];
    if (!std::isfinite(value[i])) return INFINITY;
    diff += d * d;
    norm += static_cast<double>(reference[i]) * reference[i];
  }
  return std::sqrt(diff / norm);
}

// Blocks in a shuffled order, so that block tables are scattered; freed blocks can be taken again.
class BlockPool {
 public:
  explicit BlockPool(unsigned seed) : m_free(kNumBlocks) {
    std::iota(m_free.begin(), m_free.end(), 0);
    std::shuffle(m_free.begin(), m_free.end(), std::mt19937(seed));
  }
  std::int32_t take() {
    const std::int32_t block = m_free.back();
    m_free.pop_back();
    return block;
  }
  void give(std::int32_t block) { m_free.insert(m_free.begin(), block); }

 private:
  std::vector<std::int32_t> m_free;
};

struct Sequence {
  std::uint64_t id = 0;
  std::vector<std::int32_t> tokens{};
  int cached = 0;
  std::vector<std::int32_t> blockTable{};
  SamplingParams sampling{.temperature = 0.0f};
  std::int32_t generated = 0;

  SeqStep next(int count, bool sample, BlockPool& blocks) {
    while (static_cast<int>(blockTable.size()) * kBlockSize < cached + count)
      blockTable.push_back(blocks.take());
    SeqStep step;
    step.seqId = id;
    step.tokens = std::span<const std::int32_t>(tokens).subspan(static_cast<std::size_t>(cached),
                                                                static_cast<std::size_t>(count));
    step.position = cached;
    step.blockTable = blockTable;
    step.sample = sample;
    step.sampling = &sampling;
    step.generatedSoFar = generated;
    cached += count;
    return step;
  }
};

std::vector<std::int32_t> randomTokens(int count, int vocab, std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> pick(0, vocab - 1);
  std::vector<std::int32_t> tokens(static_cast<std::size_t>(count));
  for (auto& t : tokens)
    t = pick(rng);
  return tokens;
}

// Runs the same steps on both backends and compares every sampled row's logits. Tokens fed back are the
// CPU's (greedy), so that both follow one history even where two logits nearly tie.
class Pair {
 public:
  Pair(const ModelConfig& config, const CudaBackendOptions& options)
      : m_config(config),
        m_weights(std::make_shared<const Weights>(makeDummyWeights(config, 7))),
        m_cpu(config, m_weights, 1),
        m_cuda(config, m_weights.get(), 7, options) {
    m_cpu.allocateKvCache(kNumBlocks, kBlockSize);
    m_cuda.allocateKvCache(kNumBlocks, kBlockSize);
  }

  // One step; returns the CPU's sampled tokens and records the worst error seen.
  std::vector<std::int32_t> step(const std::vector<SeqStep>& batch, const std::string& what) {
    StepOutput cpuOut, cudaOut;
    m_cpu.step(batch, cpuOut);
    m_cuda.step(batch, cudaOut);
    EXPECT_EQ(cpuOut.sampled.size(), cudaOut.sampled.size());
    const std::span<const float> reference = m_cpu.lastLogits();
    const std::vector<float> logits = m_cuda.lastLogits();
    EXPECT_EQ(reference.size(), logits.size());
    const auto vocab = static_cast<std::size_t>(m_config.vocabSize);
    for (std::size_t row = 0; row * vocab < std::min(reference.size(), logits.size()); ++row) {
      const double error =
          relativeError(std::span(logits).subspan(row * vocab, vocab), reference.subspan(row * vocab, vocab));
      worst = std::max(worst, error);
      EXPECT_LE(error, kTolerance) << what << ", sampled row " << row;
      ++compared;
    }
    return cpuOut.sampled;
  }

  CudaBackend& cuda() { return m_cuda; }
  double worst = 0.0;
  int compared = 0;

 private:
  ModelConfig m_config;
  std::shared_ptr<const Weights> m_weights;
  CpuBackend m_cpu;
  CudaBackend m_cuda;
};

// Prefill every sequence in chunks (mixed with the others' decodes in the same steps), decode 64 steps,
// then preempt one sequence, recompute it in other blocks, and decode on.
void runScenario(const ModelConfig& config, int batchSize, const CudaBackendOptions& options,
                 int longPrompt) {
  Pair pair(config, options);
  BlockPool blocks(11);
  std::mt19937 rng(5);
  std::vector<Sequence> seqs(static_cast<std::size_t>(batchSize));
  std::uniform_int_distribution<int> promptLength(3, 90);
  for (int i = 0; i < batchSize; ++i) {
    Sequence& s = seqs[static_cast<std::size_t>(i)];
    s.id = static_cast<std::uint64_t>(i);
    s.tokens = randomTokens(i == 0 ? longPrompt : promptLength(rng), config.vocabSize, rng);
  }
  // A prefix-cache hit: sequence 1 (when there is one) starts with sequence 0's first two blocks, which it
  // shares instead of computing.
  const int shared = 2 * kBlockSize;
  const bool prefixHit = batchSize > 1 && longPrompt > shared;
  if (prefixHit) {
    std::copy_n(seqs[0].tokens.begin(), shared, std::back_inserter(seqs[1].tokens));
    std::rotate(seqs[1].tokens.begin(), seqs[1].tokens.end() - shared, seqs[1].tokens.end());
  }

  // Prefill: 48-token chunks (not a multiple of the attention tiles), sequence 0 first; a sequence whose
  // prompt is done decodes in the same steps as the others' chunks.
  const int chunk = 48;
  auto prompting = [&] {
    return std::any_of(seqs.begin(), seqs.end(), [](const Sequence& s) { return s.generated == 0; });
  };
  for (int stepIndex = 0; prompting(); ++stepIndex) {
    std::vector<SeqStep> batch;
    std::vector<std::size_t> sampledSeqs;
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      Sequence& s = seqs[i];
      if (i == 1 && prefixHit && s.cached == 0) {
        if (seqs[0].cached < shared) continue;  // sequence 0 writes the shared blocks first
        s.blockTable = {seqs[0].blockTable[0], seqs[0].blockTable[1]};
        s.cached = shared;
      }
      const int count = std::min(chunk, static_cast<int>(s.tokens.size()) - s.cached);
      const bool last = s.cached + count == static_cast<int>(s.tokens.size());
      batch.push_back(s.next(count, last, blocks));
      if (last) sampledSeqs.push_back(i);
    }
    const std::vector<std::int32_t> next = pair.step(batch, "prefill step " + std::to_string(stepIndex));
    for (std::size_t k = 0; k < std::min(next.size(), sampledSeqs.size()); ++k) {
      seqs[sampledSeqs[k]].tokens.push_back(next[k]);
      seqs[sampledSeqs[k]].generated++;
    }
  }

  auto decode = [&](int steps, const std::string& label) {
    for (int d = 0; d < steps; ++d) {
      std::vector<SeqStep> batch;
      for (Sequence& s : seqs)
        batch.push_back(s.next(1, true, blocks));
      const std::vector<std::int32_t> next = pair.step(batch, label + " decode step " + std::to_string(d));
      for (std::size_t k = 0; k < std::min(next.size(), seqs.size()); ++k) {
        seqs[k].tokens.push_back(next[k]);
        seqs[k].generated++;
      }
    }
  };
  decode(64, "first");

  // Preempt the last sequence: its blocks go back to the pool, and it is recomputed from scratch (prompt
  // and generated tokens as one prefill) in whatever blocks come next.
  Sequence& victim = seqs.back();
  for (const std::int32_t block : victim.blockTable)
    blocks.give(block);
  victim.blockTable.clear();
  victim.cached = 0;
  {
    std::vector<SeqStep> batch{victim.next(static_cast<int>(victim.tokens.size()) - 1, false, blocks)};
    pair.step(batch, "recompute after preemption");
  }
  decode(8, "after preemption");

  EXPECT_GT(pair.compared, batchSize * 72);
  if (!options.enforceEager) {
    EXPECT_GT(pair.cuda().capturedGraphs(), 0);
  }
  std::printf("%s batch %d %s: %d logit rows compared, worst relative error %.2e\n", config.name.c_str(),
              batchSize, options.enforceEager ? "eager" : "graphs", pair.compared, pair.worst);
}

// qwen3-8b's layer shapes (hidden, heads, KV heads, intermediate) with two layers and a smaller
// vocabulary, so that the float32 reference stays quick.
ModelConfig fewLayerQwen3_8b() {
  ModelConfig config = *findModelPreset("qwen3-8b");
  config.name = "qwen3-8b-shaped (2 layers)";
  config.numLayers = 2;
  config.vocabSize = 32768;
  return config;
}

// Eager, and every launch of the decode path a programmatic dependent (the other tests: the default).
TEST(CudaBackend, MatchesTheCpuBackendOnQwen3TinyAtBatch1EagerWithEveryLaunchOverlapped) {
  SKIP_WITHOUT_GPU();
  runScenario(*findModelPreset("qwen3-tiny"), 1,
              CudaBackendOptions{.enforceEager = true, .seed = 1, .tuning = {.overlap = DecodeOverlap::All}},
              700);
}

TEST(CudaBackend, MatchesTheCpuBackendOnQwen3TinyAtBatch13WithGraphsPrefixHitsAndPreemption) {
  SKIP_WITHOUT_GPU();
  runScenario(*findModelPreset("qwen3-tiny"), 13, CudaBackendOptions{.seed = 1}, 150);
}

TEST(CudaBackend, MatchesTheCpuBackendWithQwen3_8bShapesAtBatch1) {
  SKIP_WITHOUT_GPU();
  runScenario(fewLayerQwen3_8b(), 1, CudaBackendOptions{.seed = 1}, 120);
}

TEST(CudaBackend, MatchesTheCpuBackendWithQwen3_8bShapesAtBatch13) {
  SKIP_WITHOUT_GPU();
  runScenario(fewLayerQwen3_8b(), 13, CudaBackendOptions{.seed = 1}, 120);
}

TEST(CudaBackend, DummyWeightsDrawnOnTheGpuEqualTheHostDraw) {
  SKIP_WITHOUT_GPU();
  const ModelConfig config = *findModelPreset("qwen3-tiny");
  const Weights weights = makeDummyWeights(config, 42);
  CudaBackend uploaded(config, &weights, 0, {});
  CudaBackend drawn(config, nullptr, 42, {});
  uploaded.allocateKvCache(16, kBlockSize);
  drawn.allocateKvCache(16, kBlockSize);
  std::mt19937 rng(3);
  const std::vector<std::int32_t> tokens = randomTokens(40, config.vocabSize, rng);
  const std::vector<std::int32_t> table{3, 1, 4};
  const SamplingParams greedy{.temperature = 0.0f};
  SeqStep step{
      .seqId = 1, .tokens = tokens, .position = 0, .blockTable = table, .sample = true, .sampling = &greedy};
  StepOutput a, b;
  uploaded.step(std::span(&step, 1), a);
  drawn.step(std::span(&step, 1), b);
  EXPECT_EQ(uploaded.lastLogits(), drawn.lastLogits());  // the same bf16 weights, bit for bit
  EXPECT_EQ(a.sampled, b.sampled);
}

TEST(CudaBackend, SeededSamplingRepeatsAndGreedyPicksTheArgmax) {
  SKIP_WITHOUT_GPU();
  const ModelConfig config = *findModelPreset("qwen3-tiny");
  CudaBackend backend(config, nullptr, 9, {});
  backend.allocateKvCache(16, kBlockSize);
  std::mt19937 rng(4);
  const std::vector<std::int32_t> tokens = randomTokens(20, config.vocabSize, rng);
  const std::vector<std::int32_t> table{0, 1};
  auto run = [&](const SamplingParams& params) {
    SeqStep step{.seqId = 1,
                 .tokens = tokens,
                 .position = 0,
                 .blockTable = table,
                 .sample = true,
                 .sampling = &params,
                 .generatedSoFar = 3};
    StepOutput out;
    backend.step(std::span(&step, 1), out);
    return out.sampled.at(0);
  };
  const std::int32_t greedy = run({.temperature = 0.0f});
  const std::vector<float> logits = backend.lastLogits();
  EXPECT_EQ(greedy, argmaxToken(logits));
  const SamplingParams seeded{.temperature = 1.0f, .topP = 0.9f, .topK = 50, .seed = 1234, .hasSeed = true};
  EXPECT_EQ(run(seeded), run(seeded));
  EXPECT_EQ(run({.temperature = 0.8f, .topK = 1}), greedy);
}

// With tuning.timeSteps, each step reports its device time, which is part of the step's wall time.
TEST(CudaBackend, TimedStepsReportTheirDeviceTimeWithinTheWallTime) {
  SKIP_WITHOUT_GPU();
  const ModelConfig config = *findModelPreset("qwen3-tiny");
  CudaBackend timed(config, nullptr, 9, {.tuning = {.timeSteps = true}});
  CudaBackend untimed(config, nullptr, 9, {});
  timed.allocateKvCache(16, kBlockSize);
  untimed.allocateKvCache(16, kBlockSize);
  std::mt19937 rng(6);
  const std::vector<std::int32_t> tokens = randomTokens(30, config.vocabSize, rng);
  const std::vector<std::int32_t> table{2, 5};
  const SamplingParams greedy{.temperature = 0.0f};
  const SeqStep step{
      .seqId = 1, .tokens = tokens, .position = 0, .blockTable = table, .sample = true, .sampling = &greedy};
  StepOutput a, b;
  const auto start = std::chrono::steady_clock::now();
  timed.step(std::span(&step, 1), a);
  const double wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  untimed.step(std::span(&step, 1), b);
  EXPECT_GT(timed.lastStepDeviceMs(), 0.0);
  EXPECT_LE(timed.lastStepDeviceMs(), wallMs);
  EXPECT_EQ(untimed.lastStepDeviceMs(), 0.0);
  EXPECT_EQ(a.sampled, b.sampled);  // timing changes nothing else
}

}  // namespace
}  // namespace ayar::engine
