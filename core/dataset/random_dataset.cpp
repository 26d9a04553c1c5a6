#include "core/dataset/random_dataset.h"

#include <cmath>

#include "core/error.h"

namespace ayar {

std::vector<SampleRequest> generateRandomDataset(const PromptVocabulary& vocabulary,
                                                 const RandomDatasetOptions& options) {
  if (options.numPrompts < 1) {
    throw Error("Random dataset: asked for " + std::to_string(options.numPrompts) +
                " prompts; ask for at least 1.");
  }
  if (!(options.rangeRatio >= 0.0 && options.rangeRatio < 1.0)) {
    throw Error("Random dataset: --random-range-ratio " + std::to_string(options.rangeRatio) +
                " must be in [0, 1).");
  }
  if (options.inputLen < 0 || options.outputLen < 0 || options.prefixLen < 0) {
    throw Error("Random dataset: input, output and prefix lengths must not be negative.");
  }
  // vLLM's bounds: floor for the low end, ceil for the high end (Qwen adds no special tokens).
  const double r = options.rangeRatio;
  const auto inputLow = static_cast<std::int64_t>(std::floor(options.inputLen * (1.0 - r)));
  const auto inputHigh = static_cast<std::int64_t>(std::ceil(options.inputLen * (1.0 + r)));
  const auto outputLow =
      std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(options.outputLen * (1.0 - r))), 1);
  const auto outputHigh =
      std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(options.outputLen * (1.0 + r))), 1);
  if (options.prefixLen + inputLow < 1) {
    throw Error(
        "Random dataset: with --random-input-len " + std::to_string(options.inputLen) +
        " and --random-range-ratio " + std::to_string(r) +
        " a prompt could have 0 tokens; increase the input or prefix length or lower the range ratio.");
  }

  SeededRandom random(options.seed);
  const auto n = static_cast<std::size_t>(options.numPrompts);
  std::vector<std::int64_t> inputLens(n), outputLens(n);
  std::vector<std::uint64_t> offsets(n);
  const std::span<const TokenId> pool = vocabulary.randomTokens();
  for (auto& length : inputLens)
    length = random.between(inputLow, inputHigh);
  for (auto& length : outputLens)
    length = random.between(outputLow, outputHigh);
  for (auto& offset : offsets)
    offset = random.below(pool.size());
  const std::vector<TokenId> prefix = vocabulary.randomText(options.prefixLen, random);

  std::vector<SampleRequest> requests(n);
  for (std::size_t i = 0; i < n; ++i) {
    SampleRequest& request = requests[i];
    request.promptTokenIds = prefix;
    request.promptTokenIds.reserve(prefix.size() + static_cast<std::size_t>(inputLens[i]));
    // vLLM: (offset + index + arange(input_len)) % vocabulary size.
    for (std::int64_t j = 0; j < inputLens[i]; ++j) {
      request.promptTokenIds.push_back(pool[(offsets[i] + i + static_cast<std::uint64_t>(j)) % pool.size()]);
    }
    request.prompt = vocabulary.render(request.promptTokenIds);
    request.promptTokens = static_cast<int>(request.promptTokenIds.size());
    request.expectedOutputTokens = static_cast<int>(outputLens[i]);
  }
  return requests;
}

}  // namespace ayar
