#include "core/dataset/random_dataset.h"

#include <cmath>

#include "core/dataset/numpy_random.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr int kMaxRetries = 10;

// vLLM's gen_prompt_decode_to_target_len: decode, re-encode, and cut or pad until the count is right.
void decodeToTargetLength(const Tokenizer& tokenizer, std::vector<TokenId> tokens, std::size_t target,
                          NumpyGenerator& random, SampleRequest& request) {
  const auto vocabulary = static_cast<std::int64_t>(tokenizer.modelVocabSize());
  for (int remaining = kMaxRetries;; --remaining) {
    request.prompt = tokenizer.decode(tokens);
    tokens = tokenizer.encode(request.prompt);
    if (remaining <= 0 || tokens.size() == target) break;
    if (tokens.size() < target) {
      for (std::int64_t id : random.integers(0, vocabulary, target - tokens.size()))
        tokens.push_back(static_cast<TokenId>(id));
    } else {
      tokens.resize(target);
    }
  }
  request.promptTokens = static_cast<int>(tokens.size());
  request.promptTokenIds = std::move(tokens);
}

}  // namespace

std::vector<SampleRequest> generateRandomDataset(const Tokenizer& tokenizer,
                                                 const RandomDatasetOptions& options) {
  if (options.numPrompts < 1) {
    throw MessageError({MessageText::RandomNumPrompts, {std::to_string(options.numPrompts)}});
  }
  if (!(options.rangeRatio >= 0.0 && options.rangeRatio < 1.0)) {
    throw MessageError(
        {MessageText::RandomRangeRatio, {decimalArgument(std::to_string(options.rangeRatio))}});
  }
  if (options.inputLen < 0 || options.outputLen < 0 || options.prefixLen < 0) {
    throw MessageError({MessageText::RandomNegative, {}});
  }
  // vLLM's bounds: floor for the low end, ceil for the high end (Qwen adds no special tokens).
  const double r = options.rangeRatio;
  const auto inputLow = static_cast<std::int64_t>(std::floor(options.inputLen * (1 - r)));
  const auto inputHigh = static_cast<std::int64_t>(std::ceil(options.inputLen * (1 + r)));
  const auto outputLow =
      std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(options.outputLen * (1 - r))), 1);
  const auto outputHigh =
      std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(options.outputLen * (1 + r))), 1);
  if (options.prefixLen + inputLow < 1) {
    throw MessageError({MessageText::RandomEmptyPrompt,
                        {std::to_string(options.inputLen), decimalArgument(std::to_string(r))}});
  }
  const auto vocabulary = static_cast<std::int64_t>(tokenizer.modelVocabSize());
  if (vocabulary < 1)
    throw MessageError({MessageText::RandomNoVocabulary, {tokenizer.sourcePath().string()}});

  NumpyGenerator random(options.seed);
  const auto n = static_cast<std::size_t>(options.numPrompts);
  const std::vector<std::int64_t> inputLens = random.integers(inputLow, inputHigh + 1, n);
  const std::vector<std::int64_t> outputLens = random.integers(outputLow, outputHigh + 1, n);
  const std::vector<std::int64_t> offsets = random.integers(0, vocabulary, n);

  std::vector<TokenId> allowed;
  allowed.reserve(static_cast<std::size_t>(vocabulary));
  for (TokenId id = 0; id < vocabulary; ++id) {
    if (!tokenizer.isSpecial(id)) allowed.push_back(id);
  }
  const auto allowedCount = static_cast<std::int64_t>(allowed.size());
  std::vector<TokenId> prefix;
  if (options.prefixLen > 0) {
    for (std::int64_t pick : random.integers(0, allowedCount, static_cast<std::size_t>(options.prefixLen)))
      prefix.push_back(allowed[static_cast<std::size_t>(pick)]);
  }

  std::vector<SampleRequest> requests(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<TokenId> tokens = prefix;
    tokens.reserve(prefix.size() + static_cast<std::size_t>(inputLens[i]));
    for (std::int64_t j = 0; j < inputLens[i]; ++j) {
      const std::int64_t position = (offsets[i] + static_cast<std::int64_t>(i) + j) % allowedCount;
      tokens.push_back(allowed[static_cast<std::size_t>(position)]);
    }
    const std::size_t target = prefix.size() + static_cast<std::size_t>(inputLens[i]);
    decodeToTargetLength(tokenizer, std::move(tokens), target, random, requests[i]);
    requests[i].expectedOutputTokens = static_cast<int>(outputLens[i]);
  }
  return requests;
}

}  // namespace ayar
