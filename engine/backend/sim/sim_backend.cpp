#include "engine/backend/sim/sim_backend.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "core/error.h"
#include "engine/common/splitmix64.h"

namespace ayar::engine {

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kH100MemoryBytes = 81559 * kMiB;
constexpr std::int64_t kH200MemoryBytes = 143771 * kMiB;
// The h200 profile: constants fitted by scripts/fit-sim-profile.py to the step times the CUDA backend
// showed on an H200: the step sweeps engine/backend/sim/calibration/h200-qwen3-{8b,14b}.txt (written by
// scripts/step-sweep.sh: prefills of 128-32,768 tokens, decode steps of 1-256 sequences, prefills beside
// decodes); docs/BENCHMARKS.md has the fit point by point, its error, and the serving runs it was checked
// against.
constexpr double kH200FusedOverheadPerLayer = 8.27e-6;     // a decode-only step of 1-2 sequences (graph)
constexpr double kH200GraphOverheadPerLayer = 40.9e-6;     // a decode-only step of 3-16 sequences (graph)
constexpr double kH200WideOverheadPerLayer = 36.6e-6;      // one of more than 16 sequences (graph)
constexpr double kH200EagerOverheadPerLayer = 60.5e-6;     // a prefill-only step, or --enforce-eager
constexpr double kH200MixedOverheadPerLayer = 97.9e-6;     // a step with prefill beside decodes
constexpr double kH200WeightBytesPerSecond = 3.916e12;     // weights streamed by the GEMMs
constexpr double kH200LinearFlopsPerSecond = 6.493e14;     // bf16 GEMMs once compute-bound
constexpr double kH200AttentionBytesPerSecond = 2.735e12;  // decode attention reading the paged KV cache
constexpr double kH200PrefillAttentionFlopsPerSecond = 2.382e14;  // causal attention of prefill chunks
// The h100 profile is derived, not measured: the same GH100 compute and launch costs, memory terms
// scaled by the datasheets' HBM bandwidth (3.35 TB/s against 4.8).
constexpr double kH100BandwidthScale = 3.35 / 4.8;
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

SimProfile roofline(std::string name, double bandwidthScale, std::int64_t memoryBytes) {
  SimProfile profile;
  profile.kind = SimProfile::Kind::kRoofline;
  profile.name = std::move(name);
  profile.memoryBytesPerSecond = kH200WeightBytesPerSecond * bandwidthScale;
  profile.flopsPerSecond = kH200LinearFlopsPerSecond;
  profile.attentionBytesPerSecond = kH200AttentionBytesPerSecond * bandwidthScale;
  profile.attentionFlopsPerSecond = kH200PrefillAttentionFlopsPerSecond;
  profile.fusedOverheadPerLayerSeconds = kH200FusedOverheadPerLayer;
  profile.graphOverheadPerLayerSeconds = kH200GraphOverheadPerLayer;
  profile.wideOverheadPerLayerSeconds = kH200WideOverheadPerLayer;
  profile.eagerOverheadPerLayerSeconds = kH200EagerOverheadPerLayer;
  profile.mixedOverheadPerLayerSeconds = kH200MixedOverheadPerLayer;
  profile.deviceMemoryBytes = memoryBytes;
  return profile;
}

// splitmix64's next output from state x (taken by value: the caller's x does not advance).
std::uint64_t mix64(std::uint64_t x) {
  return splitmix64Next(x);
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
      const Clock::duration cost = fromMs(1e3 * rooflineStepCost(m_model, m_profile, batch).seconds);
      // The profile's constants were fitted to the time between the ends of consecutive steps on the
      // real backend, its host's work between them included. So a step that carries on a sequence of
      // the previous step (the loop came straight back) ends one cost after the previous step ended:
      // the sim's own host work is absorbed instead of added, and so is a late wake-up on a loaded
      // machine. A step after an idle loop costs its time from now.
      const bool backToBack = std::ranges::any_of(batch, [this](const SeqStep& seq) {
        return std::ranges::binary_search(m_previousSeqIds, seq.seqId);
      });
      const Clock::time_point end = backToBack ? std::max(m_previousEnd + cost, start) : start + cost;
      std::this_thread::sleep_until(end);
      m_previousEnd = end;
      m_previousSeqIds.clear();
      for (const SeqStep& seq : batch)
        m_previousSeqIds.push_back(seq.seqId);
      std::ranges::sort(m_previousSeqIds);
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
  // The roofline kind's last step: when it ended and which sequences it carried (sorted).
  Clock::time_point m_previousEnd{};
  std::vector<std::uint64_t> m_previousSeqIds;
  std::uint64_t m_numTextTokens;
};

}  // namespace

SimProfile SimProfile::parse(std::string_view value) {
  if (value == "h100") return roofline("h100", kH100BandwidthScale, kH100MemoryBytes);
  if (value == "h200") return roofline("h200", 1.0, kH200MemoryBytes);
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
  const double kvBytesPerToken = static_cast<double>(model.kvBytesPerToken(profile.fp8KvCache ? 1 : 2));
  const double layerWeightBytes = profile.fp8Weights ? 1.0 : 2.0;  // per linear weight of a layer
  // Per query token per layer, per context token: q.k and p.v, two FLOPs per multiply-add each.
  const double attentionFlopsPerPair = 2.0 * 2.0 * model.numHeads * model.headDim * model.numLayers;

  // Every linear weight read once for the whole batch: the layers' at their precision, lm_head in bf16.
  double weightBytes = layerWeightBytes * (linearMacs - lmHeadMacs) + 2.0 * lmHeadMacs;
  double layerFlops = 0.0;        // the layers' GEMMs
  double lmHeadFlops = 0.0;       // lm_head's, always bf16
  double decodeKvBytes = 0.0;     // the context read by the decode attention
  double prefillAttention = 0.0;  // FLOPs of the prefill chunks' attention
  bool decodeOnly = true;
  bool anyDecode = false;
  for (const SeqStep& seq : batch) {
    const double newTokens = static_cast<double>(seq.tokens.size());
    const double position = seq.position;
    weightBytes += newTokens * kvBytesPerToken;  // the new tokens' K and V written
    // The lm_head runs only on the token that is sampled.
    layerFlops += 2.0 * (linearMacs - lmHeadMacs) * newTokens;
    lmHeadFlops += seq.sample ? 2.0 * lmHeadMacs : 0.0;
    // Causal: query i of the chunk attends to position + i + 1 tokens.
    const double pairs = newTokens * position + newTokens * (newTokens + 1.0) / 2.0;
    if (seq.tokens.size() == 1) {
      anyDecode = true;
      decodeKvBytes += (position + 1.0) * kvBytesPerToken;
    } else {
      decodeOnly = false;
      prefillAttention += attentionFlopsPerPair * pairs;
    }
    cost.flops += attentionFlopsPerPair * pairs;
  }
  cost.bytes = weightBytes + decodeKvBytes;
  cost.flops += layerFlops + lmHeadFlops;
  if (profile.kind != SimProfile::Kind::kRoofline) return cost;  // counts only: fixed mode has no rates
  cost.memorySeconds = weightBytes / profile.memoryBytesPerSecond;
  cost.computeSeconds = layerFlops / (profile.flopsPerSecond * (profile.fp8Weights ? 2.0 : 1.0)) +
                        lmHeadFlops / profile.flopsPerSecond;
  cost.attentionSeconds =
      decodeKvBytes / profile.attentionBytesPerSecond + prefillAttention / profile.attentionFlopsPerSecond;
  // The CUDA backend decodes 1-2 sequences through its fused GEMVs, more through cuBLAS and the unfused
  // kernels, which cost more from 17 sequences on (rows padded to 32 and more); decode-only steps are
  // CUDA graphs unless --enforce-eager, a step with prefill never is, and one that also decodes runs
  // both attention kernels.
  const double perLayer = !decodeOnly && anyDecode              ? profile.mixedOverheadPerLayerSeconds
                          : !decodeOnly || profile.enforceEager ? profile.eagerOverheadPerLayerSeconds
                          : batch.size() <= 2                   ? profile.fusedOverheadPerLayerSeconds
                          : batch.size() <= 16                  ? profile.graphOverheadPerLayerSeconds
                                                                : profile.wideOverheadPerLayerSeconds;
  cost.overheadSeconds = model.numLayers * perLayer;
  cost.seconds =
      cost.overheadSeconds + std::max(cost.memorySeconds, cost.computeSeconds) + cost.attentionSeconds;
  return cost;
}

std::unique_ptr<Backend> makeSimBackend(const ModelConfig& model, const SimProfile& profile,
                                        std::uint64_t seed) {
  return std::make_unique<SimBackend>(model, profile, seed);
}

}  // namespace ayar::engine
