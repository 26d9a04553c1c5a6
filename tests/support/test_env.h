#pragma once

#include <filesystem>
#include <string>

namespace ayar::test {

// Timing bounds are for optimised builds. Sanitizer builds check the same definitions with bounds
// loosened by this factor: AddressSanitizer slows the code under test several-fold while the clock
// keeps real time. Gross errors (TTFT from the wrong event: tens of milliseconds) still fail.
// Memory bounds likewise: AddressSanitizer's shadow memory and quarantine add tens of MiB to a process
// that allocates little, so a bound meant to catch gigabytes is loosened by kMemorySlack there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr double kTimingSlack = 10.0;
inline constexpr double kMemorySlack = 4.0;
#else
inline constexpr double kTimingSlack = 1.0;
inline constexpr double kMemorySlack = 1.0;
#endif

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
