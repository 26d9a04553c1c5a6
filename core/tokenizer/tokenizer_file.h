#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ayar {

// A tokenizer.json read in one pass: the large model.vocab and model.merges go straight into flat
// lists (building JSON values for 150k entries each would cost most of the load time); everything
// else is kept as JSON.
// The vocab and merge strings are views into `text` (or, for strings with JSON escapes, into
// `unescaped`), so they live as long as the TokenizerFile.
struct TokenizerFile {
  TokenizerFile() = default;
  TokenizerFile(const TokenizerFile&) = delete;
  TokenizerFile& operator=(const TokenizerFile&) = delete;

  nlohmann::json settings;  // the document without model.vocab and model.merges
  bool hasVocab = false;
  bool hasMerges = false;
  std::vector<std::pair<std::string_view, std::int64_t>> vocab;       // token as written -> id, in file order
  std::vector<std::pair<std::string_view, std::string_view>> merges;  // by rank

  std::string text;                   // the file's bytes
  std::deque<std::string> unescaped;  // strings that held escapes, decoded
};

// Throws ayar::Error naming `file` when it cannot be read, is not JSON, or when a vocab entry or a
// merge is malformed.
void readTokenizerFile(const std::filesystem::path& file, TokenizerFile& out);

// Reads a whole (small) JSON file; throws ayar::Error naming it.
nlohmann::json readJsonFile(const std::filesystem::path& file);

}  // namespace ayar
