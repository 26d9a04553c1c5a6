#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/dataset/sample_request.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar {

struct ShareGptOptions {
  std::filesystem::path path;  // ShareGPT_V3_unfiltered_cleaned_split.json or a file of that shape
  int numPrompts = 1000;
  std::uint64_t seed = 0;
  // vLLM's --sharegpt-output-len: every request asks for this many tokens (and the minimum output
  // length filter is skipped, as in vLLM).
  std::optional<int> outputLen;
};

// vLLM's ShareGPTDataset: a JSON list of {"conversations": [{"from", "value"}, ...]}; entries with at
// least two turns are shuffled with Python's random.seed(seed) + random.shuffle, so the same seed picks
// the same conversations as `vllm bench serve`. Turn 0 is the prompt, turn 1's token count the output
// length; pairs with a prompt under 4 or over 1024 tokens, an output under 4, or more than 2048 in all
// are skipped. Extra fields and any roles are accepted; a turn without a string "value" skips its entry.
//
// The file is parsed once as a stream (SAX) keeping only the first two turns of each conversation;
// only the entries actually used are tokenized. Throws ayar::Error naming the file for a missing or
// unreadable file, invalid JSON, a top level that is not a list, or fewer usable conversations than
// numPrompts (vLLM would repeat some; Ayar asks for a smaller count instead).
std::vector<SampleRequest> loadShareGpt(const Tokenizer& tokenizer, const ShareGptOptions& options);

// vLLM's is_valid_sequence with its defaults (min 4, prompt <= 1024, prompt + output <= 2048).
bool isValidShareGptPair(int promptTokens, int outputTokens, bool skipMinOutputCheck = false);

}  // namespace ayar
