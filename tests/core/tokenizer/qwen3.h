#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar::test {

// The real Qwen3 tokenizer, loaded once per test process (loading takes a noticeable fraction of a
// second, and it is immutable, so sharing it is exactly what production code does too).
const Tokenizer& qwen3();

// tests/core/tokenizer in the source tree: corpus/ and fixtures/ live there.
std::filesystem::path tokenizerTestDataDir();

std::string readFileBytes(const std::filesystem::path& file);
nlohmann::json readJson(const std::filesystem::path& file);
void writeFileBytes(const std::filesystem::path& file, const std::string& bytes);

// A minimal byte-level BPE tokenizer.json: the 256 byte tokens (ids 0-255, in byte order) plus one
// token per merge result, in merge order (ids 256...). `merges` are pairs of byte-level strings.
nlohmann::json tinyTokenizerJson(const std::vector<std::pair<std::string, std::string>>& merges);

}  // namespace ayar::test
