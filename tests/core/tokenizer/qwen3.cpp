#include "tests/core/tokenizer/qwen3.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/tokenizer/byte_level.h"
#include "tests/support/test_env.h"

namespace ayar::test {

const Tokenizer& qwen3() {
  static const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::load(tokenizerDir());
  return *tokenizer;
}

std::filesystem::path tokenizerTestDataDir() {
  return AYAR_TOKENIZER_TEST_DATA_DIR;
}

std::string readFileBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read test data file " + file.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

nlohmann::json readJson(const std::filesystem::path& file) {
  return nlohmann::json::parse(readFileBytes(file));
}

void writeFileBytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write test file " + file.string());
}

nlohmann::json tinyTokenizerJson(const std::vector<std::pair<std::string, std::string>>& merges) {
  nlohmann::json vocab = nlohmann::json::object();
  for (int b = 0; b < 256; ++b)
    vocab[byte_level::fromBytes(std::string(1, static_cast<char>(b)))] = b;
  nlohmann::json mergeList = nlohmann::json::array();
  int next = 256;
  for (const auto& [left, right] : merges) {
    if (!vocab.contains(left + right)) vocab[left + right] = next++;
    mergeList.push_back({left, right});
  }
  return {
      {"version", "1.0"},
      {"added_tokens", nlohmann::json::array()},
      {"normalizer", nullptr},
      {"pre_tokenizer",
       {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}}},
      {"post_processor", nullptr},
      {"decoder",
       {{"type", "ByteLevel"}, {"add_prefix_space", true}, {"trim_offsets", true}, {"use_regex", true}}},
      {"model",
       {{"type", "BPE"},
        {"dropout", nullptr},
        {"unk_token", nullptr},
        {"continuing_subword_prefix", ""},
        {"end_of_word_suffix", ""},
        {"fuse_unk", false},
        {"byte_fallback", false},
        {"vocab", vocab},
        {"merges", mergeList}}},
  };
}

}  // namespace ayar::test
