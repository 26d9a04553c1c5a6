#include "core/dataset/prefix_repetition_dataset.h"

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

std::vector<SampleRequest> generatePrefixRepetitionDataset(const PromptVocabulary& vocabulary,
                                                           const PrefixRepetitionOptions& options) {
  if (options.numPrefixes < 1) {
    throw MessageError({MessageText::PrefixNumPrefixes, {std::to_string(options.numPrefixes)}});
  }
  if (options.numPrompts < options.numPrefixes) {
    throw MessageError({MessageText::PrefixTooFewPrompts,
                        {std::to_string(options.numPrompts), std::to_string(options.numPrefixes)}});
  }
  if (options.prefixLen < 0 || options.suffixLen < 0 || options.prefixLen + options.suffixLen < 1) {
    throw MessageError({MessageText::PrefixLengths, {}});
  }
  if (options.outputLen < 1) {
    throw MessageError({MessageText::PrefixOutputLen, {}});
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
