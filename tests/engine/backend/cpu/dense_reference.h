#pragma once

#include <cstdint>
#include <vector>

#include "engine/model/model_config.h"
#include "engine/model/weights.h"

namespace ayar::engine::reference {

// The test model: 2 layers, hidden 64, 4 query heads and 2 KV heads of 32 (so the query is wider than
// hidden, as in the small Qwen3 models), intermediate 128, vocabulary 300.
ModelConfig smallTestConfig(bool tied = false);

// Random weights, normally distributed and large enough that logits spread widely (greedy choices are
// clear), with norm weights around 1.
Weights randomTestWeights(const ModelConfig& config, std::uint32_t seed);

// The Qwen3 forward pass written the plain way, separately from the backend: no KV cache, no paging,
// no batching, double accumulators; recomputes the whole sequence. Returns the logits of every
// position, [tokens.size()][vocab].
std::vector<std::vector<float>> denseLogits(const ModelConfig& config, const Weights& weights,
                                            const std::vector<std::int32_t>& tokens);

}  // namespace ayar::engine::reference
