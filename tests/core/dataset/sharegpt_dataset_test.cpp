#include "core/dataset/sharegpt_dataset.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "tests/core/dataset/dataset_fixture.h"

namespace ayar {
namespace {

using ShareGpt = test::DatasetTest;

std::string repeated(std::string_view word, int times) {
  std::string text;
  for (int i = 0; i < times; ++i)
    text += (i == 0 ? "" : " ") + std::string(word);
  return text;
}

nlohmann::json turn(std::string from, std::string value) {
  return {{"from", from}, {"value", value}};
}

std::string promptOf(int entry) {
  return "Entry " + std::to_string(entry) +
         ": please explain how a \"hash map\" works,\nin simple terms. Ünïcödé ok?";
}
std::string replyOf(int entry) {
  return "Reply " + std::to_string(entry) +
         ": a hash map stores keys and values in buckets chosen by a hash.";
}

// Entries 0, 6 and 9..14 pass every filter; the others exercise one rule each.
nlohmann::json sampleEntries() {
  nlohmann::json entries = nlohmann::json::array();
  entries.push_back({{"id", "e0"}, {"conversations", {turn("human", promptOf(0)), turn("gpt", replyOf(0))}}});
  entries.push_back({{"id", "e1"}, {"conversations", {turn("human", "Only one turn here, nothing else.")}}});
  entries.push_back(
      {{"id", "e2"}, {"conversations", {turn("human", "Hi"), turn("gpt", replyOf(2))}}});  // prompt < 4
  entries.push_back(
      {{"id", "e3"},
       {"model", "gpt-4"},
       {"conversations",
        {turn("user", promptOf(3)), turn("assistant", "Ok."), turn("user", "more please")}}});  // output < 4
  entries.push_back(
      {{"conversations", {turn("human", repeated("hello", 1100)), turn("gpt", replyOf(4))}}});  // > 1024
  entries.push_back(
      {{"conversations",
        {turn("human", repeated("hello", 1000)), turn("gpt", repeated("hello", 1100))}}});  // > 2048
  nlohmann::json reversed = {{"lang", "en"},
                             {"meta", {{"conversations", {1, 2, 3}}}},
                             {"conversations", {turn("gpt", promptOf(6)), turn("human", replyOf(6))}}};
  reversed["conversations"][1]["extra"] = {{"nested", {1, 2, {{"value", "not this one"}}}}};
  entries.push_back(reversed);
  entries.push_back({{"id", "no conversations"}});
  entries.push_back({{"conversations", {{{"from", "human"}}, turn("gpt", replyOf(8))}}});  // no value
  for (int e = 9; e <= 14; ++e) {
    entries.push_back({{"id", "e" + std::to_string(e)},
                       {"conversations", {turn("human", promptOf(e)), turn("gpt", replyOf(e))}}});
  }
  return entries;
}

std::filesystem::path writeFile(const test::TempDir& dir, const std::string& name,
                                const std::string& content) {
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string entryNumber(const SampleRequest& r) {
  return r.prompt.substr(0, r.prompt.find(':'));
}

TEST_F(ShareGpt, ShufflesLikeVllmAndAppliesTheLengthFilters) {
  test::TempDir dir;
  ShareGptOptions options;
  options.path = writeFile(dir, "sharegpt.json", sampleEntries().dump());
  options.numPrompts = 8;
  const auto samples = loadShareGpt(tokenizer(), options);
  // Python: random.seed(0); random.shuffle(the 13 entries with two turns or more) puts them in the
  // order 2, 12, 11, 6, 13, 3, 4, 9, 10, 5, 0, 14, 8; entries 2, 3, 4, 5 and 8 fail a filter.
  std::vector<std::string> order;
  for (const SampleRequest& r : samples)
    order.push_back(entryNumber(r));
  EXPECT_EQ(order, (std::vector<std::string>{"Entry 12", "Entry 11", "Entry 6", "Entry 13", "Entry 9",
                                             "Entry 10", "Entry 0", "Entry 14"}));
  for (const SampleRequest& r : samples) {
    EXPECT_EQ(r.promptTokenIds, tokenizer().encode(r.prompt));
    EXPECT_EQ(r.promptTokens, static_cast<int>(r.promptTokenIds.size()));
    const int entry = std::stoi(entryNumber(r).substr(6));
    EXPECT_EQ(r.prompt, promptOf(entry));  // JSON escapes and UTF-8 come through intact
    EXPECT_EQ(r.expectedOutputTokens, static_cast<int>(tokenizer().encode(replyOf(entry)).size()));
  }
}

TEST_F(ShareGpt, FixedOutputLengthSkipsTheMinimumOutputCheck) {
  test::TempDir dir;
  ShareGptOptions options;
  options.path = writeFile(dir, "sharegpt.json", sampleEntries().dump());
  options.numPrompts = 10;
  options.outputLen = 100;
  const auto samples = loadShareGpt(tokenizer(), options);
  std::vector<std::string> order;
  for (const SampleRequest& r : samples) {
    order.push_back(r.prompt.starts_with("hello") ? "Entry 5" : entryNumber(r));
    EXPECT_EQ(r.expectedOutputTokens, 100);
  }
  // Entry 3 (a 2-token reply) and entry 5 (1000 + 100 tokens) now pass; 2 and 4 still fail.
  EXPECT_EQ(order, (std::vector<std::string>{"Entry 12", "Entry 11", "Entry 6", "Entry 13", "Entry 3",
                                             "Entry 9", "Entry 10", "Entry 5", "Entry 0", "Entry 14"}));
  EXPECT_EQ(samples[7].promptTokens, 1000);
}

TEST_F(ShareGpt, SeedsAreDeterministicAndDiffer) {
  test::TempDir dir;
  ShareGptOptions options;
  options.path = writeFile(dir, "sharegpt.json", sampleEntries().dump());
  options.numPrompts = 8;
  const auto a = loadShareGpt(tokenizer(), options);
  const auto b = loadShareGpt(tokenizer(), options);
  options.seed = 1;
  const auto c = loadShareGpt(tokenizer(), options);
  std::vector<std::string> orderA, orderB, orderC;
  for (std::size_t i = 0; i < a.size(); ++i) {
    orderA.push_back(entryNumber(a[i]));
    orderB.push_back(entryNumber(b[i]));
    orderC.push_back(entryNumber(c[i]));
  }
  EXPECT_EQ(orderA, orderB);
  EXPECT_NE(orderA, orderC);
}

void expectErrorMentions(const std::function<void()>& call, const std::vector<std::string>& parts) {
  try {
    call();
    ADD_FAILURE() << "no ayar::Error";
  } catch (const Error& e) {
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what() << " lacks " << part;
    }
  }
}

TEST_F(ShareGpt, TooFewUsableEntriesIsAnErrorWithTheCounts) {
  test::TempDir dir;
  ShareGptOptions options;
  options.path = writeFile(dir, "small.json", sampleEntries().dump());
  options.numPrompts = 9;
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); },
                      {"small.json", "only 8", "15 entries", "9 prompts"});
}

TEST_F(ShareGpt, MissingFileBadJsonAndWrongShapeNameTheFile) {
  test::TempDir dir;
  ShareGptOptions options;
  options.path = dir / "absent.json";
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); }, {"absent.json", "does not exist"});
  options.path = writeFile(dir, "broken.json", R"([{"conversations": [{"from": "human", "value": "abc"})");
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); }, {"broken.json", "not valid JSON"});
  options.path = writeFile(dir, "object.json", R"({"conversations": []})");
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); }, {"object.json", "not a list"});
  options.path = writeFile(dir, "empty.json", "");
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); }, {"empty.json"});
  options.path = dir.path();
  expectErrorMentions([&] { loadShareGpt(tokenizer(), options); }, {"not a file"});
}

TEST(ShareGptFilter, MatchesVllmsIsValidSequence) {
  EXPECT_TRUE(isValidShareGptPair(4, 4));
  EXPECT_FALSE(isValidShareGptPair(3, 100));
  EXPECT_FALSE(isValidShareGptPair(100, 3));
  EXPECT_TRUE(isValidShareGptPair(100, 3, true));
  EXPECT_TRUE(isValidShareGptPair(1024, 1024));
  EXPECT_FALSE(isValidShareGptPair(1025, 10));
  EXPECT_FALSE(isValidShareGptPair(1000, 1049));
}

}  // namespace
}  // namespace ayar
