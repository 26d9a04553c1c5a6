#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/dataset/prefix_repetition_dataset.h"
#include "core/dataset/random_dataset.h"
#include "core/dataset/synthetic_sharegpt_dataset.h"
#include "core/error.h"
#include "tests/core/dataset/dataset_fixture.h"

namespace ayar {
namespace {

using PromptVocabularyTest = test::DatasetTest;
using RandomDataset = test::DatasetTest;
using SyntheticShareGpt = test::DatasetTest;
using PrefixRepetition = test::DatasetTest;

TEST_F(PromptVocabularyTest, RandomPoolHoldsOnlyOrdinarySpaceLetterTokens) {
  const auto pool = vocabulary().randomTokens();
  EXPECT_GT(pool.size(), 20000u);
  for (TokenId id : pool) {
    ASSERT_FALSE(tokenizer().isSpecial(id));
    ASSERT_FALSE(tokenizer().isAddedToken(id));
    const std::string_view bytes = tokenizer().tokenBytes(id);
    ASSERT_EQ(bytes[0], ' ');
  }
}

TEST_F(PromptVocabularyTest, TheWholePoolInOneTextReTokenizesToItself) {
  const std::vector<TokenId> all(vocabulary().randomTokens().begin(), vocabulary().randomTokens().end());
  EXPECT_EQ(tokenizer().encode(vocabulary().render(all)), all);
}

TEST_F(PromptVocabularyTest, EnglishTextIsReadableAndExact) {
  SeededRandom random(3);
  const std::vector<TokenId> ids = vocabulary().englishText(400, random);
  ASSERT_EQ(ids.size(), 400u);
  const std::string text = vocabulary().render(ids);
  EXPECT_EQ(tokenizer().encode(text), ids);
  EXPECT_TRUE(text[0] >= 'A' && text[0] <= 'Z') << text;
  EXPECT_NE(text.find(". "), std::string::npos) << text;
  EXPECT_NE(text.find(" the "), std::string::npos) << text;
  EXPECT_GT(vocabulary().englishWordCount(), 300u);
}

TEST_F(RandomDataset, PromptsHaveExactlyTheAskedLengths) {
  std::vector<int> lengths;
  for (int n = 1; n <= 64; ++n)
    lengths.push_back(n);
  for (int n : {100, 127, 128, 255, 256, 511, 512, 1000, 1023, 1024, 2047, 2048, 3000, 4095, 4096, 32000}) {
    lengths.push_back(n);
  }
  for (int length : lengths) {
    SCOPED_TRACE(length);
    RandomDatasetOptions options;
    options.numPrompts = 2;
    options.inputLen = length;
    options.outputLen = 7;
    options.seed = static_cast<std::uint64_t>(length);
    for (const SampleRequest& request : generateRandomDataset(tokenizer(), options)) {
      EXPECT_EQ(request.promptTokens, length);
      EXPECT_EQ(request.expectedOutputTokens, 7);
      expectExactTokens(request);
    }
  }
}

TEST_F(RandomDataset, WideRangeStaysExactForEveryDrawnLength) {
  RandomDatasetOptions options;
  options.numPrompts = 60;
  options.inputLen = 2048;
  options.rangeRatio = 0.99;  // lengths from 20 to 4076
  options.seed = 11;
  for (const SampleRequest& request : generateRandomDataset(tokenizer(), options))
    expectExactTokens(request);
}

TEST_F(RandomDataset, LengthsAreUniformOverVllmsBounds) {
  RandomDatasetOptions options;
  options.numPrompts = 2000;
  options.inputLen = 100;
  options.outputLen = 10;
  options.rangeRatio = 0.25;
  const auto requests = generateRandomDataset(tokenizer(), options);
  std::set<int> inputs, outputs;
  for (const SampleRequest& r : requests) {
    inputs.insert(r.promptTokens);
    outputs.insert(r.expectedOutputTokens);
  }
  // Inputs [floor(75), ceil(125)], outputs [floor(7.5), ceil(12.5)] = [7, 13].
  EXPECT_EQ(*inputs.begin(), 75);
  EXPECT_EQ(*inputs.rbegin(), 125);
  EXPECT_EQ(inputs.size(), 51u);
  EXPECT_EQ(*outputs.begin(), 7);
  EXPECT_EQ(*outputs.rbegin(), 13);
  for (std::size_t i = 0; i < 5; ++i)
    expectExactTokens(requests[i]);
}

TEST_F(RandomDataset, CommonPrefixIsSharedByEveryRequest) {
  RandomDatasetOptions options;
  options.numPrompts = 20;
  options.inputLen = 30;
  options.prefixLen = 50;
  const auto requests = generateRandomDataset(tokenizer(), options);
  const std::vector<TokenId> prefix(requests[0].promptTokenIds.begin(),
                                    requests[0].promptTokenIds.begin() + 50);
  for (const SampleRequest& r : requests) {
    EXPECT_EQ(r.promptTokens, 80);
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), r.promptTokenIds.begin()));
    expectExactTokens(r);
  }
  EXPECT_NE(requests[0].promptTokenIds, requests[1].promptTokenIds);
}

TEST_F(RandomDataset, SameSeedSameRequestsDifferentSeedsDiffer) {
  RandomDatasetOptions options;
  options.numPrompts = 10;
  options.inputLen = 64;
  options.rangeRatio = 0.5;
  const auto a = generateRandomDataset(tokenizer(), options);
  const auto b = generateRandomDataset(tokenizer(), options);
  options.seed = 1;
  const auto c = generateRandomDataset(tokenizer(), options);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].prompt, b[i].prompt);
    EXPECT_EQ(a[i].expectedOutputTokens, b[i].expectedOutputTokens);
  }
  EXPECT_NE(a[0].prompt, c[0].prompt);
}

TEST_F(RandomDataset, RejectsWhatVllmRejects) {
  RandomDatasetOptions options;
  options.rangeRatio = 1.0;
  EXPECT_THROW(generateRandomDataset(tokenizer(), options), Error);
  options.rangeRatio = 0.0;
  options.inputLen = 0;
  EXPECT_THROW(generateRandomDataset(tokenizer(), options), Error);
  options.prefixLen = 4;  // a prefix alone is a valid prompt
  EXPECT_EQ(generateRandomDataset(tokenizer(), options)[0].promptTokens, 4);
  options.numPrompts = 0;
  EXPECT_THROW(generateRandomDataset(tokenizer(), options), Error);
}

TEST_F(SyntheticShareGpt, ThousandRequestsMatchThePublishedTotals) {
  for (std::uint64_t seed : {0, 1, 2}) {
    SCOPED_TRACE(seed);
    SyntheticShareGptOptions options;
    options.seed = seed;
    const auto requests = generateSyntheticShareGptDataset(vocabulary(), options);
    ASSERT_EQ(requests.size(), 1000u);
    double input = 0, output = 0;
    for (const SampleRequest& r : requests) {
      input += r.promptTokens;
      output += r.expectedOutputTokens;
      // ShareGPT's filters hold for every request.
      EXPECT_GE(r.promptTokens, 4);
      EXPECT_LE(r.promptTokens, 1024);
      EXPECT_GE(r.expectedOutputTokens, 4);
      EXPECT_LE(r.promptTokens + r.expectedOutputTokens, 2048);
    }
    // ~217k in and ~202k out, within 2%.
    EXPECT_NEAR(input, 217400.0, 0.02 * 217400.0);
    EXPECT_NEAR(output, 201600.0, 0.02 * 201600.0);
  }
}

TEST_F(SyntheticShareGpt, OtherTargetsAreMetToo) {
  SyntheticShareGptOptions options;
  options.meanInputTokens = 342.1;
  options.meanOutputTokens = 281.4;
  double input = 0, output = 0;
  for (const SampleRequest& r : generateSyntheticShareGptDataset(vocabulary(), options)) {
    input += r.promptTokens;
    output += r.expectedOutputTokens;
  }
  EXPECT_NEAR(input / 1000.0, 342.1, 0.02 * 342.1);
  EXPECT_NEAR(output / 1000.0, 281.4, 0.02 * 281.4);
}

TEST_F(SyntheticShareGpt, LengthsAreSkewedLikeShareGpt) {
  const auto requests = generateSyntheticShareGptDataset(vocabulary(), {});
  std::vector<int> inputs;
  for (const SampleRequest& r : requests)
    inputs.push_back(r.promptTokens);
  std::sort(inputs.begin(), inputs.end());
  // A long tail: the median well under the mean, some prompts near the 1024 cap.
  EXPECT_LT(inputs[500], 150);
  EXPECT_GT(inputs[990], 800);
}

TEST_F(SyntheticShareGpt, PromptsAreEnglishAndReTokenizeExactly) {
  SyntheticShareGptOptions options;
  options.numPrompts = 300;
  const auto requests = generateSyntheticShareGptDataset(vocabulary(), options);
  for (const SampleRequest& r : requests) {
    expectExactTokens(r);
    ASSERT_FALSE(r.prompt.empty());
    EXPECT_TRUE(r.prompt[0] >= 'A' && r.prompt[0] <= 'Z') << r.prompt;
  }
}

TEST_F(SyntheticShareGpt, SeedsAreDeterministicAndOutputLengthCanBeFixed) {
  SyntheticShareGptOptions options;
  options.numPrompts = 50;
  const auto a = generateSyntheticShareGptDataset(vocabulary(), options);
  const auto b = generateSyntheticShareGptDataset(vocabulary(), options);
  options.seed = 9;
  options.outputLen = 256;
  const auto c = generateSyntheticShareGptDataset(vocabulary(), options);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].prompt, b[i].prompt);
    EXPECT_EQ(c[i].expectedOutputTokens, 256);
  }
  EXPECT_NE(a[0].prompt, c[0].prompt);
  options.meanInputTokens = 5000;
  EXPECT_THROW(generateSyntheticShareGptDataset(vocabulary(), options), Error);
}

TEST_F(PrefixRepetition, GroupsShareTheirPrefixTokenForToken) {
  PrefixRepetitionOptions options;
  options.numPrompts = 25;
  options.numPrefixes = 4;
  options.prefixLen = 64;
  options.suffixLen = 32;
  options.outputLen = 100;
  const auto requests = generatePrefixRepetitionDataset(vocabulary(), options);
  ASSERT_EQ(requests.size(), 25u);
  std::vector<std::vector<TokenId>> prefixes(4);
  std::vector<int> members(4, 0);
  std::set<std::vector<TokenId>> suffixes;
  for (const SampleRequest& r : requests) {
    ASSERT_GE(r.prefixGroup, 0);
    ASSERT_LT(r.prefixGroup, 4);
    EXPECT_EQ(r.promptTokens, 96);
    EXPECT_EQ(r.expectedOutputTokens, 100);
    expectExactTokens(r);
    const std::vector<TokenId> prefix(r.promptTokenIds.begin(), r.promptTokenIds.begin() + 64);
    auto& groupPrefix = prefixes[static_cast<std::size_t>(r.prefixGroup)];
    if (groupPrefix.empty()) groupPrefix = prefix;
    EXPECT_EQ(prefix, groupPrefix);
    // The prompt text also starts with the same characters, so a server's prefix cache sees it.
    EXPECT_EQ(r.prompt.substr(0, vocabulary().render(groupPrefix).size()), vocabulary().render(groupPrefix));
    suffixes.insert(std::vector<TokenId>(r.promptTokenIds.begin() + 64, r.promptTokenIds.end()));
    ++members[static_cast<std::size_t>(r.prefixGroup)];
  }
  EXPECT_EQ(members, (std::vector<int>{7, 6, 6, 6}));
  EXPECT_EQ(suffixes.size(), 25u);
  EXPECT_EQ(std::set<std::vector<TokenId>>(prefixes.begin(), prefixes.end()).size(), 4u);
  // Shuffled: the groups are interleaved, not in blocks.
  bool interleaved = false;
  for (std::size_t i = 1; i < 7; ++i)
    interleaved = interleaved || requests[i].prefixGroup != requests[0].prefixGroup;
  EXPECT_TRUE(interleaved);
}

TEST_F(PrefixRepetition, IsDeterministicAndRejectsTooFewPrompts) {
  PrefixRepetitionOptions options;
  options.numPrompts = 20;
  options.numPrefixes = 5;
  options.prefixLen = 16;
  options.suffixLen = 8;
  const auto a = generatePrefixRepetitionDataset(vocabulary(), options);
  const auto b = generatePrefixRepetitionDataset(vocabulary(), options);
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i].prompt, b[i].prompt);
  options.seed = 1;
  EXPECT_NE(generatePrefixRepetitionDataset(vocabulary(), options)[0].prompt, a[0].prompt);
  options.numPrompts = 4;
  EXPECT_THROW(generatePrefixRepetitionDataset(vocabulary(), options), Error);
}

}  // namespace
}  // namespace ayar
