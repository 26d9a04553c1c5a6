#include "engine/backend/sim/sim_backend.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include "core/error.h"

namespace ayar::engine {

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kH100MemoryBytes = 81559 * kMiB;
constexpr std::int64_t kH200MemoryBytes = 143771 * kMiB;
// A device copy measured on an H200 (~4.3 TB/s of 4.8 peak), times the best fraction of that floor that
// cuBLAS bf16 decode GEMMs reached (89% for qwen3-14b; 86% for qwen3-8b).
constexpr double kAchievedBandwidthFraction = (4.3 / 4.8) * 0.89;
constexpr double kDenseBf16PeakFlops = 989e12;
constexpr double kAchievedTensorFraction = 0.70;
constexpr double kStepOverheadSeconds = 30e-6;
constexpr std::int32_t kFirstSpecialToken = 151643;  // <|endoftext|>; everything below is ordinary text
constexpr double kMaxFixedMs = 3'600'000.0;          // an hour: beyond it a typo, not a test

[[noreturn]] void badProfile(std::string_view value, const std::string& why) {
  throw Error("--sim-profile '" + std::string(value) + "': " + why);
}

double parseMilliseconds(std::string_view text, std::string_view value) {
  double ms = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(ms) ||
      ms < 0.0 || ms > kMaxFixedMs) {
    badProfile(value,
               "both numbers must be milliseconds between 0 and 3600000, e.g. fixed:200,20 or step:10,5");
  }
  return ms;
}

// "A,B" after a prefix: two milliseconds.
std::pair<double, double> parseTwoMilliseconds(std::string_view numbers, std::string_view value,
                                               std::string_view form) {
  const std::size_t comma = numbers.find(',');
  if (comma == std::string_view::npos) {
    badProfile(value, "expected two numbers, " + std::string(form));
  }
  return {parseMilliseconds(numbers.substr(0, comma), value),
          parseMilliseconds(numbers.substr(comma + 1), value)};
}

SimProfile roofline(std::string name, double peakBytesPerSecond, std::int64_t memoryBytes) {
  SimProfile profile;
  profile.kind = SimProfile::Kind::kRoofline;
  profile.name = std::move(name);
  profile.memoryBytesPerSecond = peakBytesPerSecond * kAchievedBandwidthFraction;
  profile.flopsPerSecond = kDenseBf16PeakFlops * kAchievedTensorFraction;
  profile.stepOverheadSeconds = kStepOverheadSeconds;
  profile.deviceMemoryBytes = memoryBytes;
  return profile;
}

std::uint64_t mix64(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Clock::duration fromMs(double ms) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

class SimBackend final : public Backend {
 public:
  SimBackend(const ModelConfig& model, const SimProfile& profile, std::uint64_t seed)
      : m_model(model),
        m_profile(profile),
        m_rngState(seed),
        m_numTextTokens(static_cast<std::uint64_t>(std::min(kFirstSpecialToken, model.vocabSize))) {}

  std::string_view name() const override { return "sim"; }
  bool simulated() const override { return true; }
  std::size_t kvBytesPerBlock(int blockSize) const override {
    return static_cast<std::size_t>(m_model.kvBytesPerToken(2) * blockSize);
  }
  void allocateKvCache(int /*numBlocks*/, int /*blockSize*/) override {}  // no device, nothing to hold

  void step(std::span<const SeqStep> batch, StepOutput& out) override {
    const Clock::time_point start = Clock::now();
    for (const SeqStep& seq : batch) {
      if (!seq.sample) continue;
      out.sampled.push_back(drawToken(seq));
      if (m_profile.kind == SimProfile::Kind::kFixed) {
        // From the arrival, not from the previous release: no drift whatever the loop's latency.
        out.releaseAt.push_back(seq.arrival +
                                fromMs(m_profile.ttftMs + m_profile.itlMs * seq.generatedSoFar));
      }
    }
    if (m_profile.kind == SimProfile::Kind::kStep && !batch.empty()) {
      std::this_thread::sleep_until(start + fromMs(stepMilliseconds(m_profile, batch.size())));
    }
    if (m_profile.kind == SimProfile::Kind::kRoofline && !batch.empty()) {
      std::this_thread::sleep_until(start +
                                    fromMs(1e3 * rooflineStepCost(m_model, m_profile, batch).seconds));
    }
  }

 private:
  std::int32_t drawToken(const SeqStep& seq) {
    // A request with a seed gets the same tokens whatever it is batched with.
    const std::uint64_t bits =
        seq.sampling != nullptr && seq.sampling->hasSeed
            ? mix64(mix64(seq.sampling->seed) ^ static_cast<std::uint64_t>(seq.generatedSoFar))
            : mix64(m_rngState++);
    return static_cast<std::int32_t>(bits % m_numTextTokens);
  }

  ModelConfig m_model;
  SimProfile m_profile;
  std::uint64_t m_rngState;
  std::uint64_t m_numTextTokens;
};

}  // namespace

SimProfile SimProfile::parse(std::string_view value) {
  if (value == "h100") return roofline("h100", 3.35e12, kH100MemoryBytes);
  if (value == "h200") return roofline("h200", 4.8e12, kH200MemoryBytes);
  constexpr std::string_view kFixedPrefix = "fixed:";
  constexpr std::string_view kStepPrefix = "step:";
  SimProfile profile;
  profile.deviceMemoryBytes = kH200MemoryBytes;
  if (value.starts_with(kFixedPrefix)) {
    profile.kind = Kind::kFixed;
    profile.name = "fixed";
    std::tie(profile.ttftMs, profile.itlMs) = parseTwoMilliseconds(
        value.substr(kFixedPrefix.size()), value, "fixed:TTFT_MS,ITL_MS (e.g. fixed:200,20)");
    return profile;
  }
  if (value.starts_with(kStepPrefix)) {
    profile.kind = Kind::kStep;
    profile.name = "step";
    std::tie(profile.stepBaseMs, profile.stepPerSeqMs) = parseTwoMilliseconds(
        value.substr(kStepPrefix.size()), value, "step:BASE_MS,PER_SEQ_MS (e.g. step:10,5)");
    return profile;
  }
  badProfile(value,
             "unknown profile; use h100, h200, fixed:TTFT_MS,ITL_MS (e.g. fixed:200,20) or "
             "step:BASE_MS,PER_SEQ_MS (e.g. step:10,5)");
}

double stepMilliseconds(const SimProfile& profile, std::size_t sequences) {
  return profile.stepBaseMs + profile.stepPerSeqMs * static_cast<double>(sequences);
}

std::int64_t simulatedDeviceMemoryBytes(const SimProfile& profile) {
  return profile.deviceMemoryBytes > 0 ? profile.deviceMemoryBytes : kH200MemoryBytes;
}

StepCost rooflineStepCost(const ModelConfig& model, const SimProfile& profile,
                          std::span<const SeqStep> batch) {
  StepCost cost;
  if (batch.empty()) return cost;
  const double linearMacs = static_cast<double>(model.linearMacsPerToken());
  const double lmHeadMacs = static_cast<double>(model.vocabSize) * model.hiddenSize;
  const double kvBytesPerToken = static_cast<double>(model.kvBytesPerToken(2));
  // Per query token per layer, per context token: q.k and p.v, two FLOPs per multiply-add each.
  const double attentionFlopsPerPair = 2.0 * 2.0 * model.numHeads * model.headDim * model.numLayers;

  cost.bytes = 2.0 * linearMacs;  // every linear weight in bf16, read once for the whole batch
  for (const SeqStep& seq : batch) {
    const double newTokens = static_cast<double>(seq.tokens.size());
    const double position = seq.position;
    cost.bytes += (position + newTokens) * kvBytesPerToken;  // the context read by attention
    cost.bytes += newTokens * kvBytesPerToken;               // the new tokens' K and V written
    // The lm_head runs only on the token that is sampled.
    cost.flops += 2.0 * (linearMacs - lmHeadMacs) * newTokens + (seq.sample ? 2.0 * lmHeadMacs : 0.0);
    // Causal: query i of the chunk attends to position + i + 1 tokens.
    const double pairs = newTokens * position + newTokens * (newTokens + 1.0) / 2.0;
    cost.flops += attentionFlopsPerPair * pairs;
  }
  if (profile.kind != SimProfile::Kind::kRoofline) return cost;  // counts only: fixed mode has no rates
  cost.memorySeconds = cost.bytes / profile.memoryBytesPerSecond;
  cost.computeSeconds = cost.flops / profile.flopsPerSecond;
  cost.seconds = std::max(cost.memorySeconds, cost.computeSeconds) + profile.stepOverheadSeconds;
  return cost;
}

std::unique_ptr<Backend> makeSimBackend(const ModelConfig& model, const SimProfile& profile,
                                        std::uint64_t seed) {
  return std::make_unique<SimBackend>(model, profile, seed);
}

}  // namespace ayar::engine
