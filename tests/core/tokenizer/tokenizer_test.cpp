#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "core/tokenizer/byte_level.h"
#include "core/tokenizer/byte_pair_encoder.h"
#include "core/tokenizer/utf8.h"
#include "tests/core/tokenizer/qwen3.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using test::qwen3;

TEST(Tokenizer, LoadsQwen3VocabularyAddedTokensAndEos) {
  const Tokenizer& tokenizer = qwen3();
  EXPECT_EQ(tokenizer.vocabSize(), 151669u);
  EXPECT_EQ(tokenizer.tokenToId("<|endoftext|>"), 151643);
  EXPECT_EQ(tokenizer.tokenToId("<|im_end|>"), 151645);
  EXPECT_EQ(tokenizer.tokenToId("<think>"), 151667);
  EXPECT_EQ(tokenizer.tokenToId("\xC4\xA0the"), 279);  // "Ġthe", as the vocabulary writes " the"
  EXPECT_EQ(tokenizer.tokenToId("no such token"), std::nullopt);
  EXPECT_EQ(tokenizer.eosTokenId(), 151645);
  EXPECT_TRUE(tokenizer.isSpecial(151645));
  EXPECT_TRUE(tokenizer.isAddedToken(151645));
  EXPECT_FALSE(tokenizer.isSpecial(151667));  // <think> is added but not special
  EXPECT_TRUE(tokenizer.isAddedToken(151667));
  EXPECT_FALSE(tokenizer.isAddedToken(279));
  EXPECT_FALSE(tokenizer.isSpecial(-1));
  EXPECT_FALSE(tokenizer.isSpecial(1 << 30));
  EXPECT_EQ(tokenizer.sourcePath().filename(), "tokenizer.json");
}

TEST(Tokenizer, LoadsFromTheFileAsWellAsTheFolder) {
  const auto fromFile = Tokenizer::load(test::tokenizerDir() / "tokenizer.json");
  EXPECT_EQ(fromFile->vocabSize(), qwen3().vocabSize());
  EXPECT_EQ(fromFile->eosTokenId(), 151645);  // tokenizer_config.json is read beside the file
  EXPECT_EQ(fromFile->encode("Hello world"), qwen3().encode("Hello world"));
}

TEST(Tokenizer, EncodesKnownTextToKnownIds) {
  EXPECT_EQ(qwen3().encode("Hello world"), (std::vector<TokenId>{9707, 1879}));
  EXPECT_EQ(qwen3().encode("<|im_start|>user\n"), (std::vector<TokenId>{151644, 872, 198}));
  EXPECT_TRUE(qwen3().encode("").empty());
}

TEST(Tokenizer, EncodeOrdinaryTreatsAddedTokensAsPlainText) {
  const std::vector<TokenId> ids = qwen3().encodeOrdinary("<|im_end|><think>");
  for (TokenId id : ids)
    EXPECT_FALSE(qwen3().isAddedToken(id));
  EXPECT_GT(ids.size(), 2u);
  EXPECT_EQ(qwen3().decode(ids), "<|im_end|><think>");
  EXPECT_EQ(qwen3().encodeOrdinary("plain text"), qwen3().encode("plain text"));
}

TEST(Tokenizer, TokenBytesUndoTheByteLevelMapping) {
  EXPECT_EQ(qwen3().tokenBytes(279), " the");
  EXPECT_EQ(qwen3().tokenBytes(198), "\n");
  EXPECT_EQ(qwen3().tokenBytes(151645), "<|im_end|>");
  EXPECT_EQ(qwen3().tokenBytes(-5), "");
  EXPECT_EQ(qwen3().tokenBytes(static_cast<TokenId>(qwen3().vocabSize())), "");
}

TEST(Tokenizer, DecodeSkipsOnlySpecialTokensWhenAsked) {
  const std::vector<TokenId> ids =
      qwen3().encode("<|im_start|>user\nhi<|im_end|>\n<think>x</think><|endoftext|>");
  EXPECT_EQ(qwen3().decode(ids), "<|im_start|>user\nhi<|im_end|>\n<think>x</think><|endoftext|>");
  EXPECT_EQ(qwen3().decode(ids, true), "user\nhi\n<think>x</think>");
}

TEST(Tokenizer, DecodeReplacesIncompleteUtf8LikePython) {
  // "你" is E4 BD A0; its first two bytes alone decode to one U+FFFD, as bytes.decode(errors="replace").
  std::vector<TokenId> ids;
  for (unsigned char byte : {0xE4, 0xBD}) {
    std::string mapped;
    utf8::append(mapped, byte_level::byteToChar(byte));
    ids.push_back(qwen3().tokenToId(mapped).value());
  }
  EXPECT_EQ(qwen3().decode(ids), "\xEF\xBF\xBD");
  ids.push_back(qwen3().tokenToId("!").value());
  EXPECT_EQ(qwen3().decode(ids), "\xEF\xBF\xBD!");
}

TEST(Tokenizer, DecodeRejectsIdsOutsideTheVocabularyNamingThem) {
  const std::vector<TokenId> ids = {9707, 999999};
  try {
    qwen3().decode(ids);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("999999"), std::string::npos) << e.what();
  }
  const std::vector<TokenId> negative = {-1};
  EXPECT_THROW(qwen3().decode(negative), Error);
}

TEST(Tokenizer, InvalidUtf8InputIsReplacedNotRejected) {
  EXPECT_EQ(qwen3().encode("caf\xE9!"), qwen3().encode("caf\xEF\xBF\xBD!"));
  EXPECT_EQ(qwen3().decode(qwen3().encode("a\xF0\x9F\x98z")), "a\xEF\xBF\xBDz");
}

TEST(Tokenizer, VeryLongWordsAndWhitespaceRunsEncodeAndRoundTrip) {
  // Past the word cache's limit and the short-word BPE path; sized to stay quick under ASan.
  for (const std::string& text :
       {std::string(40'000, 'a'), std::string(30'000, ' ') + "x", std::string(20'000, '\n'),
        std::string(10'000, '!') + "?", std::string(20'000, '7'), "x" + std::string(10'000, '\t') + "\r\n"}) {
    const std::vector<TokenId> ids = qwen3().encode(text);
    EXPECT_FALSE(ids.empty());
    EXPECT_LE(ids.size(), text.size());  // digits are one token each
    EXPECT_EQ(qwen3().decode(ids), text);
  }
}

TEST(Tokenizer, EncodingFromSeveralThreadsGivesIdenticalResults) {
  std::vector<std::string> texts;
  for (const char* name : {"english", "turkish", "chinese", "emoji", "code", "nfc"}) {
    texts.push_back(
        test::readFileBytes(test::tokenizerTestDataDir() / "corpus" / (std::string(name) + ".txt")));
  }
  std::vector<std::vector<TokenId>> expected;
  for (const std::string& text : texts)
    expected.push_back(qwen3().encode(text));

  // A fresh tokenizer so that the threads race to fill its word cache.
  const auto shared = Tokenizer::load(test::tokenizerDir());
  constexpr int kThreads = 4;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < texts.size(); ++i) {
          const std::size_t which = (i + static_cast<std::size_t>(t)) % texts.size();
          if (shared->encode(texts[which]) != expected[which]) ++mismatches[static_cast<std::size_t>(t)];
        }
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

// A direct, slow statement of BPE: repeatedly merge the leftmost pair of lowest rank.
std::vector<TokenId> naiveBpe(std::string_view word,
                              const std::map<std::pair<TokenId, TokenId>, std::pair<int, TokenId>>& merges) {
  std::vector<TokenId> ids;
  for (char c : word)
    ids.push_back(static_cast<unsigned char>(c));
  while (true) {
    int bestRank = -1;
    std::size_t best = 0;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      const auto it = merges.find({ids[i], ids[i + 1]});
      if (it != merges.end() && (bestRank < 0 || it->second.first < bestRank)) {
        bestRank = it->second.first;
        best = i;
      }
    }
    if (bestRank < 0) return ids;
    ids[best] = merges.at({ids[best], ids[best + 1]}).second;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
}

TEST(BytePairEncoder, MergesByRankThenLeftmostOnShortAndLongWords) {
  std::array<TokenId, 256> byteTokens{};
  for (int b = 0; b < 256; ++b)
    byteTokens[static_cast<std::size_t>(b)] = b;
  std::mt19937 random(42);
  for (int trial = 0; trial < 20; ++trial) {
    // Random merges over a 3-letter alphabet; merged ids start at 256.
    std::map<std::pair<TokenId, TokenId>, std::pair<int, TokenId>> merges;
    std::vector<TokenId> symbols = {'a', 'b', 'c'};
    BytePairEncoder encoder(byteTokens, 40);
    TokenId next = 256;
    for (int rank = 0; rank < 40; ++rank) {
      const TokenId left = symbols[random() % symbols.size()];
      const TokenId right = symbols[random() % symbols.size()];
      if (merges.count({left, right})) continue;
      merges[{left, right}] = {rank, next};
      encoder.addMerge(left, right, next, rank);
      symbols.push_back(next++);
    }
    for (std::size_t length : {1u, 2u, 3u, 7u, 20u, 48u, 49u, 120u, 700u}) {
      std::string word;
      for (std::size_t i = 0; i < length; ++i)
        word.push_back("abc"[random() % 3]);
      std::vector<TokenId> actual;
      encoder.encode(word, actual);
      EXPECT_EQ(actual, naiveBpe(word, merges)) << "trial " << trial << " word " << word;
    }
  }
}

TEST(BytePairEncoder, LowerRankWinsOverPositionAndEqualRanksGoLeftFirst) {
  std::array<TokenId, 256> byteTokens{};
  for (int b = 0; b < 256; ++b)
    byteTokens[static_cast<std::size_t>(b)] = b;
  BytePairEncoder encoder(byteTokens, 4);
  encoder.addMerge('b', 'c', 300, 0);  // "bc" first, although "ab" starts further left
  encoder.addMerge('a', 'b', 301, 1);
  encoder.addMerge('a', 'a', 302, 2);
  std::vector<TokenId> ids;
  encoder.encode("abc", ids);
  EXPECT_EQ(ids, (std::vector<TokenId>{'a', 300}));
  ids.clear();
  encoder.encode("aaa", ids);
  EXPECT_EQ(ids, (std::vector<TokenId>{302, 'a'}));
  EXPECT_EQ(encoder.rank('b', 'c'), 0);
  EXPECT_EQ(encoder.rank('c', 'b'), -1);
}

TEST(Tokenizer, MergesWrittenAsStringsOrAsPairsGiveTheSameTokens) {
  const std::vector<std::pair<std::string, std::string>> merges = {
      {"h", "e"}, {"l", "l"}, {"he", "ll"}, {"hell", "o"}, {"\xC4\xA0", "w"}, {"\xC4\xA0w", "o"}};
  nlohmann::json asPairs = test::tinyTokenizerJson(merges);
  nlohmann::json asStrings = asPairs;
  asStrings["model"]["merges"] = nlohmann::json::array();
  for (const auto& [left, right] : merges)
    asStrings["model"]["merges"].push_back(left + " " + right);

  test::TempDir dir;
  test::writeFileBytes(dir / "pairs.json", asPairs.dump());
  test::writeFileBytes(dir / "strings.json", asStrings.dump());
  const auto pairs = Tokenizer::load(dir / "pairs.json");
  const auto strings = Tokenizer::load(dir / "strings.json");
  const std::vector<TokenId> ids = pairs->encode("hello world");
  EXPECT_EQ(strings->encode("hello world"), ids);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(pairs->tokenBytes(ids[0]), "hello");
  EXPECT_EQ(pairs->decode(ids), "hello world");
  EXPECT_EQ(pairs->eosTokenId(), std::nullopt);  // no tokenizer_config.json beside it
}

TEST(Tokenizer, DefaultDirectoryFollowsTheEnvironment) {
  const char* saved = std::getenv("AYAR_TOKENIZER_DIR");
  const std::string savedValue = saved ? saved : "";
  ::setenv("AYAR_TOKENIZER_DIR", "/some/where", 1);
  EXPECT_EQ(defaultTokenizerDir(), std::filesystem::path("/some/where"));
  ::unsetenv("AYAR_TOKENIZER_DIR");
  EXPECT_EQ(defaultTokenizerDir().filename(), "qwen3");
  EXPECT_EQ(defaultTokenizerDir().parent_path().filename(), "tokenizers");
  if (saved) ::setenv("AYAR_TOKENIZER_DIR", savedValue.c_str(), 1);
}

}  // namespace
}  // namespace ayar
