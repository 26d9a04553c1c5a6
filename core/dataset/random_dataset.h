#pragma once

#include <cstdint>
#include <vector>

#include "core/dataset/sample_request.h"
#include "core/tokenizer/tokenizer.h"

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

// vLLM's RandomDataset, draw for draw, so that the same seed gives the same prompts as `vllm bench
// serve` with the same tokenizer. A numpy default_rng(seed) draws the input lengths, uniform in
// [floor(L(1-r)), ceil(L(1+r))], the output lengths in [max(1, floor(O(1-r))), max(1, ceil(O(1+r)))],
// one offset per request below the model's vocabulary size, and the common prefix. Request i's
// tokens are the prefix then allowed[(offset_i + i + j) % |allowed|] for j < its length, `allowed`
// being the model's vocabulary less special tokens. That run is decoded and re-encoded; while the
// count differs from the asked one (at most 10 more rounds) the tokens are cut to length or padded
// with ids the generator draws, and the round repeats. The prompt is the last decoded text, and
// promptTokens the count of its re-encoding, which in rare cases still differs from the asked length
// as in vLLM. Output lengths are exact only when the client sends ignore_eos, as vLLM does for this
// dataset. Throws ayar::Error for options vLLM rejects.
std::vector<SampleRequest> generateRandomDataset(const Tokenizer& tokenizer,
                                                 const RandomDatasetOptions& options);

}  // namespace ayar
