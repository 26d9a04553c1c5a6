#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/seeded_uniform.h"

namespace ayar::engine {

// The index of the largest logit (the first one on ties).
std::int32_t argmaxToken(std::span<const float> logits);

// Picks the next token from one position's logits: greedy at temperature 0 (or top-k 1), otherwise
// softmax at the temperature, restricted to the top-k logits and then to the smallest set of largest
// logits whose probability reaches top-p, drawn by inverse CDF. Requests without a seed
// draw from the sampler's own generator (seeded by the engine's --seed). Reusable by every backend that
// samples on the host. Not thread-safe.
class Sampler {
 public:
  explicit Sampler(std::uint64_t seed);

  std::int32_t sample(std::span<const float> logits, const SamplingParams& params,
                      std::int32_t generatedIndex);

 private:
  double nextUnseededUniform();

  std::uint64_t m_state;
  std::vector<std::pair<float, std::int32_t>> m_candidates;  // (logit, token)
  std::vector<double> m_weights;                             // of the whole vocabulary, without top-k/top-p
};

}  // namespace ayar::engine
