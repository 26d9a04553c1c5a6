// Bad or unsupported tokenizer files fail with an ayar::Error that names the file and the part, in
// both languages.
#include <gtest/gtest.h>

#include "core/report/message_text.h"
#include "tests/core/tokenizer/qwen3.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

// Loads `path` and returns the error message; fails the test when loading succeeds. The message
// is also said in Turkish: every part of it, not only its frame.
std::string loadError(const std::filesystem::path& path) {
  try {
    Tokenizer::load(path);
  } catch (const Error& e) {
    const std::string turkish = errorText(e, ReportLanguage::Turkish);
    EXPECT_NE(turkish, e.what()) << "no Turkish for: " << e.what();
    // The JSON library's own words are quoted as it wrote them.
    const std::string ours = turkish.substr(0, turkish.find("[json.exception"));
    for (const char* english :
         {"is not supported", "has no", "expected", "is not a", "does not compile", "is not valid"})
      EXPECT_EQ(ours.find(english), std::string::npos) << "English inside the Turkish: " << turkish;
    return e.what();
  }
  ADD_FAILURE() << "loading " << path << " should have failed";
  return {};
}

bool mentions(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

class TokenizerFileErrors : public ::testing::Test {
 protected:
  // Writes `json` as tokenizer.json in a fresh folder and returns the load error.
  std::string errorFor(const nlohmann::json& json) { return errorFor(json.dump()); }
  std::string errorFor(const std::string& text) {
    test::writeFileBytes(m_dir / "tokenizer.json", text);
    const std::string message = loadError(m_dir.path());
    EXPECT_TRUE(mentions(message, (m_dir / "tokenizer.json").string()))
        << "does not name the file: " << message;
    return message;
  }

  nlohmann::json valid() const { return test::tinyTokenizerJson({{"a", "b"}, {"ab", "c"}}); }

  test::TempDir m_dir;
};

TEST_F(TokenizerFileErrors, TheValidBaseFileLoads) {
  test::writeFileBytes(m_dir / "tokenizer.json", valid().dump());
  const auto tokenizer = Tokenizer::load(m_dir.path());
  EXPECT_EQ(tokenizer->encode("abc abc"),
            (std::vector<TokenId>{257, 32, 257}));  // "abc", " " (byte 32), "abc"
}

TEST_F(TokenizerFileErrors, MissingFileIsNamedWithAHint) {
  const std::string message = loadError(m_dir / "nowhere" / "tokenizer.json");
  EXPECT_TRUE(mentions(message, "nowhere")) << message;
  EXPECT_TRUE(mentions(message, "does not exist")) << message;
  EXPECT_TRUE(mentions(loadError(m_dir.path()), "tokenizer.json"));  // a folder without one
}

TEST_F(TokenizerFileErrors, InvalidJsonIsReported) {
  EXPECT_TRUE(mentions(errorFor(std::string("{\"model\": {\"vocab\": {\"a\": 1,}")), "not valid JSON"));
  EXPECT_TRUE(mentions(errorFor(std::string("")), "not valid JSON"));
  EXPECT_TRUE(mentions(errorFor(std::string("[1, 2, 3]")), "JSON object"));
}

TEST_F(TokenizerFileErrors, UnsupportedModelTypeIsNamed) {
  nlohmann::json json = valid();
  json["model"]["type"] = "WordPiece";
  const std::string message = errorFor(json);
  EXPECT_TRUE(mentions(message, "model type WordPiece")) << message;
  json["model"]["type"] = "Unigram";
  EXPECT_TRUE(mentions(errorFor(json), "Unigram"));
  json.erase("model");
  EXPECT_TRUE(mentions(errorFor(json), "model"));
}

TEST_F(TokenizerFileErrors, UnsupportedBpeOptionsAreNamed) {
  nlohmann::json json = valid();
  json["model"]["byte_fallback"] = true;
  EXPECT_TRUE(mentions(errorFor(json), "byte_fallback"));
  json = valid();
  json["model"]["continuing_subword_prefix"] = "##";
  EXPECT_TRUE(mentions(errorFor(json), "continuing_subword_prefix"));
  json = valid();
  json["model"]["dropout"] = 0.1;
  EXPECT_TRUE(mentions(errorFor(json), "dropout"));
}

TEST_F(TokenizerFileErrors, UnsupportedNormalizerPreTokenizerAndDecoderAreNamed) {
  nlohmann::json json = valid();
  json["normalizer"] = {{"type", "NFKC"}};
  EXPECT_TRUE(mentions(errorFor(json), "normalizer NFKC"));
  json["normalizer"] = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFC"}}, {{"type", "Lowercase"}}}}};
  EXPECT_TRUE(mentions(errorFor(json), "normalizer Lowercase"));

  json = valid();
  json["pre_tokenizer"] = {{"type", "Whitespace"}};
  EXPECT_TRUE(mentions(errorFor(json), "pre_tokenizer Whitespace"));
  json["pre_tokenizer"] = {{"type", "Split"}, {"pattern", {{"Regex", "\\s+"}}}, {"behavior", "Removed"}};
  EXPECT_TRUE(mentions(errorFor(json), "Removed"));
  json["pre_tokenizer"] = {
      {"type", "Split"}, {"pattern", {{"Regex", "(unclosed"}}}, {"behavior", "Isolated"}};
  EXPECT_TRUE(mentions(errorFor(json), "(unclosed"));

  json = valid();
  json["decoder"] = {{"type", "WordPiece"}};
  EXPECT_TRUE(mentions(errorFor(json), "decoder WordPiece"));
}

TEST_F(TokenizerFileErrors, MalformedVocabAndMergesAreNamed) {
  nlohmann::json json = valid();
  json["model"]["merges"].push_back({"x", "nonexistent"});
  EXPECT_TRUE(mentions(errorFor(json), "merge #2"));
  json = valid();
  json["model"]["merges"].push_back("one two three");
  EXPECT_TRUE(mentions(errorFor(json), "not two tokens"));
  json = valid();
  json["model"]["merges"].push_back(42);
  EXPECT_TRUE(mentions(errorFor(json), "merge #2"));
  json = valid();
  json["model"]["vocab"]["bad"] = "seven";
  EXPECT_TRUE(mentions(errorFor(json), "vocab entry bad"));
  json = valid();
  json["model"]["vocab"].erase("a");
  EXPECT_TRUE(mentions(errorFor(json), "byte-level token"));
}

TEST_F(TokenizerFileErrors, BadAddedTokensAndConfigAreNamed) {
  nlohmann::json json = valid();
  json["added_tokens"] = {{{"id", 500}}};
  EXPECT_TRUE(mentions(errorFor(json), "added token"));

  test::writeFileBytes(m_dir / "tokenizer.json", valid().dump());
  test::writeFileBytes(m_dir / "tokenizer_config.json", "{ not json");
  std::string message = loadError(m_dir.path());
  EXPECT_TRUE(mentions(message, "tokenizer_config.json")) << message;
  test::writeFileBytes(m_dir / "tokenizer_config.json", R"({"eos_token": "<|missing|>"})");
  message = loadError(m_dir.path());
  EXPECT_TRUE(mentions(message, "<|missing|>")) << message;
}

TEST_F(TokenizerFileErrors, AcceptsAPlainGpt2StyleByteLevelPreTokenizerWithAddedTokens) {
  nlohmann::json json = valid();
  json["added_tokens"] = {{{"id", 600},
                           {"content", "<eos>"},
                           {"special", true},
                           {"lstrip", false},
                           {"rstrip", false},
                           {"single_word", false},
                           {"normalized", false}}};
  test::writeFileBytes(m_dir / "tokenizer.json", json.dump());
  test::writeFileBytes(m_dir / "tokenizer_config.json", R"({"eos_token": {"content": "<eos>"}})");
  const auto tokenizer = Tokenizer::load(m_dir.path());
  EXPECT_EQ(tokenizer->eosTokenId(), 600);
  EXPECT_EQ(tokenizer->encode("abc<eos>"), (std::vector<TokenId>{257, 600}));
  EXPECT_EQ(tokenizer->vocabSize(), 601u);
  EXPECT_EQ(tokenizer->decode(std::vector<TokenId>{257, 600}, true), "abc");
}

}  // namespace
}  // namespace ayar
