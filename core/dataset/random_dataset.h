#pragma once

#include <cstdint>
#include <vector>

#include "core/dataset/prompt_vocabulary.h"
#include "core/dataset/sample_request.h"

namespace ayar {

// vLLM's RandomDataset options (--random-input-len, --random-output-len, --random-range-ratio,
// --random-prefix-len) with its defaults.
struct RandomDatasetOptions {
  int numPrompts = 1000;
  int inputLen = 1024;
  int outputLen = 128;
  double rangeRatio = 0.0;  // in [0, 1)
  int prefixLen = 0;        // a common prefix of random tokens shared by every request
  std::uint64_t seed = 0;
};

// Like vLLM's RandomDataset: input lengths uniform integers in [floor(L(1-r)), ceil(L(1+r))], output
// lengths in [max(1, floor(O(1-r))), max(1, ceil(O(1+r)))], the prompt the common prefix then a run of
// consecutive pool tokens from a random offset. Unlike vLLM, whose decode/re-encode round trip can
// change the count, every prompt re-tokenizes to exactly prefixLen + its drawn length. Output lengths
// are exact only when the client sends ignore_eos, as vLLM does for this dataset. Throws ayar::Error
// for options vLLM rejects.
std::vector<SampleRequest> generateRandomDataset(const PromptVocabulary& vocabulary,
                                                 const RandomDatasetOptions& options);

}  // namespace ayar
