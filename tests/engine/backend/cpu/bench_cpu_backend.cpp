// Figures for the CPU reference backend on qwen3-tiny with dummy weights: a batch-1 request (prefill
// 128 tokens, then 64 greedy decode tokens) and decode throughput at batch 1 and 16.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"

namespace {

using namespace ayar::engine;
using Seconds = std::chrono::duration<double>;

constexpr int kBlockSize = 16;
constexpr int kPromptTokens = 128;

struct BenchSequence {
  std::vector<std::int32_t> tokens;
  std::vector<std::int32_t> blockTable;
};

double secondsSince(Clock::time_point start) {
  return Seconds(Clock::now() - start).count();
}

// CPU seconds of the whole process (all threads): on a shared machine this shows the work apart from
// the waiting.
double processCpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Runs `steps` decode steps over all sequences (each already holds its prompt in the cache and one
// sampled token to feed). Returns the seconds taken.
double decode(CpuBackend& backend, std::vector<BenchSequence>& seqs, int steps,
              const SamplingParams& greedy) {
  StepOutput out;
  const auto start = Clock::now();
  for (int s = 0; s < steps; ++s) {
    std::vector<SeqStep> batch;
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      const auto position = static_cast<std::int32_t>(seqs[i].tokens.size()) - 1;
      batch.push_back({.seqId = i,
                       .tokens = std::span<const std::int32_t>(seqs[i].tokens).subspan(position),
                       .position = position,
                       .blockTable = seqs[i].blockTable,
                       .sample = true,
                       .sampling = &greedy});
    }
    backend.step(batch, out);
    for (std::size_t i = 0; i < seqs.size(); ++i)
      seqs[i].tokens.push_back(out.sampled[i]);
  }
  return secondsSince(start);
}

// Prefills every sequence's prompt in one step and appends the sampled token. Returns the seconds taken.
double prefill(CpuBackend& backend, std::vector<BenchSequence>& seqs, const SamplingParams& greedy) {
  std::vector<SeqStep> batch;
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    batch.push_back({.seqId = i,
                     .tokens = seqs[i].tokens,
                     .position = 0,
                     .blockTable = seqs[i].blockTable,
                     .sample = true,
                     .sampling = &greedy});
  }
  StepOutput out;
  const auto start = Clock::now();
  backend.step(batch, out);
  const double seconds = secondsSince(start);
  for (std::size_t i = 0; i < seqs.size(); ++i)
    seqs[i].tokens.push_back(out.sampled[i]);
  return seconds;
}

std::vector<BenchSequence> makeSequences(int count, int maxTokens, const ModelConfig& config) {
  std::vector<BenchSequence> seqs(count);
  const int blocksEach = (maxTokens + kBlockSize - 1) / kBlockSize;
  for (int i = 0; i < count; ++i) {
    for (int t = 0; t < kPromptTokens; ++t)
      seqs[i].tokens.push_back((i * 7919 + t * 104729) % config.vocabSize);
    for (int b = 0; b < blocksEach; ++b)
      seqs[i].blockTable.push_back(i * blocksEach + b);
  }
  return seqs;
}

}  // namespace

int main() {
  const ModelConfig tiny = *findModelPreset("qwen3-tiny");
  auto start = Clock::now();
  const auto weights = std::make_shared<const Weights>(makeDummyWeights(tiny, 0));
  std::printf("qwen3-tiny, dummy weights: %.1f M parameters, %.0f MB float32, made in %.2f s\n",
              tiny.parameterCount() / 1e6, cpuWeightBytes(tiny) / 1e6, secondsSince(start));
  std::printf("threads: %u hardware\n", std::thread::hardware_concurrency());

  const SamplingParams greedy{.temperature = 0.0f};
  const int maxTokens = kPromptTokens + 1 + 64;
  CpuBackend backend(tiny, weights, 0);
  backend.allocateKvCache(16 * ((maxTokens + kBlockSize - 1) / kBlockSize), kBlockSize);

  // One request: prefill 128, then 64 decode tokens.
  std::vector<BenchSequence> one = makeSequences(1, maxTokens, tiny);
  double cpuStart = processCpuSeconds();
  const double prefillSeconds = prefill(backend, one, greedy);
  const double decodeSeconds = decode(backend, one, 63, greedy);  // the prefill sampled the first token
  std::printf(
      "batch 1: prefill %d tokens %.1f ms (%.0f tok/s), 64 output tokens in %.3f s total, "
      "decode %.2f ms/token (%.1f tok/s)\n",
      kPromptTokens, prefillSeconds * 1e3, kPromptTokens / prefillSeconds, prefillSeconds + decodeSeconds,
      decodeSeconds / 63 * 1e3, 63 / decodeSeconds);
  std::printf("batch 1: %.3f CPU s for the request (both threads)\n", processCpuSeconds() - cpuStart);
  const double weightBytes = static_cast<double>(cpuWeightBytes(tiny));
  std::printf("batch 1 decode reads %.0f MB of weights per token: %.1f GB/s effective\n", weightBytes / 1e6,
              weightBytes * 63 / decodeSeconds / 1e9);

  // Decode throughput at batch 16.
  std::vector<BenchSequence> sixteen = makeSequences(16, maxTokens, tiny);
  const double prefill16 = prefill(backend, sixteen, greedy);
  const int steps = 32;
  cpuStart = processCpuSeconds();
  const double decode16 = decode(backend, sixteen, steps, greedy);
  const double decode16Cpu = processCpuSeconds() - cpuStart;
  std::printf(
      "batch 16: prefill 16 x %d tokens %.2f s (%.0f tok/s), decode %.1f ms/step, %.1f tok/s (%.1f CPU "
      "ms/step)\n",
      kPromptTokens, prefill16, 16.0 * kPromptTokens / prefill16, decode16 / steps * 1e3,
      16.0 * steps / decode16, decode16Cpu / steps * 1e3);
  return 0;
}
