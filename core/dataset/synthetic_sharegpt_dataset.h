#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/dataset/prompt_vocabulary.h"
#include "core/dataset/sample_request.h"

namespace ayar {

// A ShareGPT-like workload for machines without the ShareGPT file. Lengths follow log-normal
// distributions truncated by ShareGPT's own filters (prompt 4..1024 tokens, output >= 4, both
// <= 2048) whose location is solved so that the expected means are the targets; the defaults give
// ~217 input and ~202 output tokens per request, as vLLM's ShareGPT sample did for Qwen3 in one
// published run (1000 requests: 217,393 in, ~201,600 out).
struct SyntheticShareGptOptions {
  int numPrompts = 1000;
  std::uint64_t seed = 0;
  double meanInputTokens = 217.4;
  double meanOutputTokens = 201.6;
  // Spread (sigma of the log) of the two distributions: ShareGPT's prompts are more skewed than
  // its replies.
  double inputSigma = 1.2;
  double outputSigma = 0.9;
  std::optional<int> outputLen;  // like --sharegpt-output-len: a fixed output length
};

// Prompts are readable-ish English made of real word tokens, each re-tokenizing to exactly its
// length. Lengths are drawn stratified (one draw from each 1/n slice of the distribution, in seeded
// random order) so that the totals of a run sit close to the targets. Output lengths are exact only
// with ignore_eos. Throws ayar::Error for targets outside what the filters allow.
std::vector<SampleRequest> generateSyntheticShareGptDataset(const PromptVocabulary& vocabulary,
                                                            const SyntheticShareGptOptions& options);

}  // namespace ayar
