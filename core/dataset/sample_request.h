#pragma once

#include <string>
#include <vector>

#include "core/tokenizer/tokenizer.h"

namespace ayar {

// One request a dataset produced: what to send and how long it is.
struct SampleRequest {
  std::string prompt;
  int promptTokens = 0;          // the tokenizer's count of `prompt`
  int expectedOutputTokens = 0;  // max_tokens to ask for
  // The prompt's token ids; `prompt` re-tokenizes to exactly these (generated datasets build the text
  // from them; ShareGPT's are the tokenizer's encoding of the text).
  std::vector<TokenId> promptTokenIds;
  int prefixGroup = -1;  // shared-prefix datasets: which prefix this request shares, else -1
};

}  // namespace ayar
