#include "engine/backend/cpu/sampler.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/common/splitmix64.h"

namespace ayar::engine {

namespace {

bool greater(const std::pair<float, std::int32_t>& a, const std::pair<float, std::int32_t>& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}

}  // namespace

std::int32_t argmaxToken(std::span<const float> logits) {
  assert(!logits.empty());
  std::size_t best = 0;
  for (std::size_t i = 1; i < logits.size(); ++i) {
    if (logits[i] > logits[best]) best = i;
  }
  return static_cast<std::int32_t>(best);
}

Sampler::Sampler(std::uint64_t seed) : m_state(seed) {}

double Sampler::nextUnseededUniform() {
  return uniformFromBits(splitmix64Next(m_state));
}

std::int32_t Sampler::sample(std::span<const float> logits, const SamplingParams& params,
                             std::int32_t generatedIndex) {
  assert(!logits.empty());
  const std::size_t vocab = logits.size();
  if (params.temperature <= 0.0f || params.topK == 1) return argmaxToken(logits);
  // Draw first, so an unseeded request consumes exactly one number per token whatever the filters.
  const double u = params.hasSeed ? seededUniform(params.seed, generatedIndex) : nextUnseededUniform();

  const double invTemperature = 1.0 / params.temperature;
  const float maxLogit = logits[static_cast<std::size_t>(argmaxToken(logits))];
  const std::size_t topK =
      params.topK > 0 ? std::min<std::size_t>(static_cast<std::size_t>(params.topK), vocab) : vocab;
  const bool topP = params.topP > 0.0f && params.topP < 1.0f;

  if (topK == vocab && !topP) {
    // Plain softmax sampling over the whole vocabulary, in token order: no sort needed.
    m_weights.resize(vocab);
    double total = 0.0;
    for (std::size_t i = 0; i < vocab; ++i) {
      m_weights[i] = std::exp((static_cast<double>(logits[i]) - maxLogit) * invTemperature);
      total += m_weights[i];
    }
    double target = u * total;
    for (std::size_t i = 0; i < vocab; ++i) {
      target -= m_weights[i];
      if (target < 0.0) return static_cast<std::int32_t>(i);
    }
    return argmaxToken(logits);  // rounding left a sliver past the end
  }

  auto weight = [&](float logit) {
    return std::exp((static_cast<double>(logit) - maxLogit) * invTemperature);
  };

  // Candidates in a strict order (larger logit first, then lower id), so that every set below is defined.
  m_candidates.resize(vocab);
  for (std::size_t i = 0; i < vocab; ++i)
    m_candidates[i] = {logits[i], static_cast<std::int32_t>(i)};
  if (topK < vocab) {
    std::nth_element(m_candidates.begin(), m_candidates.begin() + static_cast<std::ptrdiff_t>(topK),
                     m_candidates.end(), greater);
    m_candidates.resize(topK);
  }
  double total = 0.0;
  for (const auto& candidate : m_candidates)
    total += weight(candidate.first);

  // Top-p: the smallest set of largest candidates whose weight reaches topP * total (the mass is relative
  // to the top-k set). Found by a weighted quickselect, O(vocab) even when the distribution is flat.
  // Invariant: [0, lo) is in the set, and the set ends inside (lo, hi].
  std::size_t lo = 0;
  std::size_t hi = m_candidates.size();
  double needed = params.topP * total;
  while (topP && hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const auto at = [&](std::size_t i) { return m_candidates.begin() + static_cast<std::ptrdiff_t>(i); };
    std::nth_element(at(lo), at(mid), at(hi), greater);
    double upper = 0.0;
    for (std::size_t i = lo; i < mid; ++i)
      upper += weight(m_candidates[i].first);
    if (upper >= needed) {
      hi = mid;
    } else {
      needed -= upper;
      lo = mid;
    }
  }
  const std::size_t kept = hi;

  // Inverse CDF over the kept candidates, in the (deterministic) order they now sit in.
  double keptWeight = 0.0;
  for (std::size_t i = 0; i < kept; ++i)
    keptWeight += weight(m_candidates[i].first);
  double target = u * keptWeight;
  for (std::size_t i = 0; i < kept; ++i) {
    target -= weight(m_candidates[i].first);
    if (target < 0.0) return m_candidates[i].second;
  }
  return m_candidates[kept - 1].second;  // rounding left a sliver past the end
}

}  // namespace ayar::engine
