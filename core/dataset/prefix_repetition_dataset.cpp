#include "core/dataset/prefix_repetition_dataset.h"

#include "core/error.h"

namespace ayar {

std::vector<SampleRequest> generatePrefixRepetitionDataset(const PromptVocabulary& vocabulary,
                                                           const PrefixRepetitionOptions& options) {
  if (options.numPrefixes < 1) {
    throw Error("Prefix repetition dataset: --prefix-repetition-num-prefixes " +
                std::to_string(options.numPrefixes) + " must be at least 1.");
  }
  if (options.numPrompts < options.numPrefixes) {
    throw Error("Prefix repetition dataset: " + std::to_string(options.numPrompts) + " prompts cannot fill " +
                std::to_string(options.numPrefixes) +
                " prefix groups; ask for at least as many prompts as prefixes.");
  }
  if (options.prefixLen < 0 || options.suffixLen < 0 || options.prefixLen + options.suffixLen < 1) {
    throw Error(
        "Prefix repetition dataset: prefix and suffix lengths must not be negative and must add up to at "
        "least 1 token.");
  }
  if (options.outputLen < 1) {
    throw Error("Prefix repetition dataset: --prefix-repetition-output-len must be at least 1.");
  }
  SeededRandom random(options.seed);
  std::vector<SampleRequest> requests;
  requests.reserve(static_cast<std::size_t>(options.numPrompts));
  const int perGroup = options.numPrompts / options.numPrefixes;
  const int larger = options.numPrompts % options.numPrefixes;
  for (int group = 0; group < options.numPrefixes; ++group) {
    const std::vector<TokenId> prefix = vocabulary.randomText(options.prefixLen, random);
    const int members = perGroup + (group < larger ? 1 : 0);
    for (int m = 0; m < members; ++m) {
      SampleRequest request;
      request.promptTokenIds = prefix;
      const std::vector<TokenId> suffix = vocabulary.randomText(options.suffixLen, random);
      request.promptTokenIds.insert(request.promptTokenIds.end(), suffix.begin(), suffix.end());
      request.prompt = vocabulary.render(request.promptTokenIds);
      request.promptTokens = static_cast<int>(request.promptTokenIds.size());
      request.expectedOutputTokens = options.outputLen;
      request.prefixGroup = group;
      requests.push_back(std::move(request));
    }
  }
  random.shuffle(requests);
  return requests;
}

}  // namespace ayar
