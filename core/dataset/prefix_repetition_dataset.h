#pragma once

#include <cstdint>
#include <vector>

#include "core/dataset/prompt_vocabulary.h"
#include "core/dataset/sample_request.h"

namespace ayar {

// vLLM's prefix_repetition dataset options (--prefix-repetition-prefix-len, -suffix-len,
// -num-prefixes, -output-len) with its defaults.
struct PrefixRepetitionOptions {
  int numPrompts = 1000;
  int prefixLen = 256;
  int suffixLen = 256;
  int numPrefixes = 10;
  int outputLen = 128;
  std::uint64_t seed = 0;
};

// numPrefixes groups, each sharing one prefix of prefixLen random tokens; every request adds its own
// suffix of suffixLen random tokens (the prompt re-tokenizes to exactly prefix + suffix) and asks for
// outputLen tokens; the requests are then shuffled. vLLM makes numPrompts / numPrefixes (rounded
// down) requests per group; Ayar makes exactly numPrompts, the first numPrompts % numPrefixes
// groups holding one more. SampleRequest::prefixGroup says which group a request belongs to. Throws
// ayar::Error when numPrompts < numPrefixes (as vLLM) or a length is out of range.
std::vector<SampleRequest> generatePrefixRepetitionDataset(const PromptVocabulary& vocabulary,
                                                           const PrefixRepetitionOptions& options);

}  // namespace ayar
