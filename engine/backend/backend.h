#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace ayar::engine {

using Clock = std::chrono::steady_clock;

struct SamplingParams {
  float temperature = 1.0f;  // 0 = greedy
  float topP = 1.0f;
  int topK = 0;            // 0 or -1: off
  std::uint64_t seed = 0;  // with hasSeed, the draw for the k-th generated token depends only on (seed, k)
  bool hasSeed = false;
};

// One sequence's share of a step: the tokens whose KV is computed now (a prefill chunk, or the one
// token of a decode), where they sit, and the pages that hold its KV cache.
struct SeqStep {
  std::uint64_t seqId = 0;
  std::span<const std::int32_t> tokens;      // new tokens this step
  std::int32_t position = 0;                 // position of tokens[0] in the sequence
  std::span<const std::int32_t> blockTable;  // physical block ids for positions [0, position + tokens.size())
  bool sample = false;                       // produce the token that follows tokens.back()
  const SamplingParams* sampling = nullptr;  // set when sample is true
  std::int32_t generatedSoFar = 0;           // tokens already generated (the index of the one sampled now)
  Clock::time_point arrival{};               // when the request reached the engine
};

struct StepOutput {
  // One entry per SeqStep with sample == true, in batch order.
  std::vector<std::int32_t> sampled;
  // Empty, or one per sampled token: the time at which the token may be released to the client.
  // Only the sim's fixed-timing mode sets it; every other backend's tokens are due at once.
  std::vector<Clock::time_point> releaseAt;
};

// What every backend (cpu, cuda, sim) provides to the scheduler's loop. Not thread-safe: one loop
// thread calls it.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;  // "cpu", "cuda", "sim"
  virtual bool simulated() const { return false; }
  // Bytes one KV block of `blockSize` tokens takes on this backend's device.
  virtual std::size_t kvBytesPerBlock(int blockSize) const = 0;
  virtual void allocateKvCache(int numBlocks, int blockSize) = 0;
  // Called once after allocateKvCache with the largest step the scheduler will make: a backend with
  // per-shape start-up costs (library heuristics, kernels loaded on first use) pays them here, before the
  // server says it is ready, instead of in a request's step.
  virtual void warmUp(int /*maxBatchedTokens*/, int /*maxSeqs*/) {}
  // Runs one step over the batch: writes K/V for every new token and samples where asked.
  virtual void step(std::span<const SeqStep> batch, StepOutput& out) = 0;
};

}  // namespace ayar::engine
