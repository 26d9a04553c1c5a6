#include "core/study/request_builder.h"

#include "core/dataset/prefix_repetition_dataset.h"
#include "core/dataset/prompt_vocabulary.h"
#include "core/dataset/random_dataset.h"
#include "core/dataset/sharegpt_dataset.h"
#include "core/dataset/synthetic_sharegpt_dataset.h"
#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {
namespace {

std::vector<LoadRequest> toLoadRequests(std::vector<SampleRequest>&& samples) {
  std::vector<LoadRequest> out;
  out.reserve(samples.size());
  for (auto& sample : samples) {
    LoadRequest request;
    request.prompt = std::move(sample.prompt);
    request.promptTokens = sample.promptTokens;
    request.expectedOutputTokens = sample.expectedOutputTokens;
    out.push_back(std::move(request));
  }
  return out;
}

}  // namespace

BuiltRequests buildRequests(const ProfileSpec& profile, std::shared_ptr<const Tokenizer> tokenizer) {
  BuiltRequests built;
  built.datasetName = profile.datasetName;
  const std::string& name = profile.datasetName;

  if (name == "sharegpt" && !profile.datasetPath.empty()) {
    ShareGptOptions options;
    options.path = profile.datasetPath;
    options.numPrompts = profile.numPrompts;
    options.seed = profile.seed;
    options.outputLen = profile.sharegptOutputLen;
    built.requests = toLoadRequests(loadShareGpt(*tokenizer, options));
    return built;
  }

  if (name == "random") {
    RandomDatasetOptions options;
    options.numPrompts = profile.numPrompts;
    options.inputLen = profile.randomInputLen;
    options.outputLen = profile.randomOutputLen;
    options.rangeRatio = profile.randomRangeRatio;
    options.prefixLen = profile.randomPrefixLen;
    options.seed = profile.seed;
    built.requests = toLoadRequests(generateRandomDataset(*tokenizer, options));
    built.forcesIgnoreEos = true;
    return built;
  }
  const PromptVocabulary vocabulary(tokenizer);
  if (name == "sharegpt" || name == "synthetic-sharegpt") {
    SyntheticShareGptOptions options;
    options.numPrompts = profile.numPrompts;
    options.seed = profile.seed;
    options.outputLen = profile.sharegptOutputLen;
    built.requests = toLoadRequests(generateSyntheticShareGptDataset(vocabulary, options));
    built.datasetName = "synthetic-sharegpt";
    built.synthetic = true;
    built.noteText = {
        name == "sharegpt" ? MessageText::DatasetSyntheticStandIn : MessageText::DatasetSynthetic, {}};
    built.note = built.noteText.in(ReportLanguage::English);
    return built;
  }
  if (name == "prefix-repetition") {
    PrefixRepetitionOptions options;
    options.numPrompts = profile.numPrompts;
    options.prefixLen = profile.prefixRepetitionPrefixLen;
    options.suffixLen = profile.prefixRepetitionSuffixLen;
    options.numPrefixes = profile.prefixRepetitionNumPrefixes;
    options.outputLen = profile.prefixRepetitionOutputLen;
    options.seed = profile.seed;
    built.requests = toLoadRequests(generatePrefixRepetitionDataset(vocabulary, options));
    return built;
  }
  throw MessageError({MessageText::ProfileDatasetUnknown, {name}});
}

}  // namespace ayar
