#pragma once

#include <filesystem>
#include <string>

namespace ayar::test {

// The real Qwen3 tokenizer folder (tokenizer.json + tokenizer_config.json) that scripts/setup.sh
// fetched. Tests that need it fail with a message saying how to get it; they never skip.
std::filesystem::path tokenizerDir();

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

 private:
  std::filesystem::path m_path;
};

}  // namespace ayar::test
