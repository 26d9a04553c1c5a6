#pragma once

// What the fuzz targets share: a temporary folder for the parsers that read files, the slicing of an
// input into the pieces a network reader is fed, and a check that stops the fuzzer like a crash.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ayar::fuzz {

// The fuzz input as text.
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A folder of this process's own under the system temp dir, removed at exit. A target that reads a
// file writes the input there under a fixed name, since a file's name can decide how it is read.
class TempFolder {
 public:
  static TempFolder& instance();
  const std::filesystem::path& path() const { return m_path; }
  // Writes `bytes` to path()/name, replacing what was there, and returns that path.
  std::filesystem::path write(const std::string& name, std::string_view bytes) const;

  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

 private:
  TempFolder();
  std::filesystem::path m_path;
};

// Cuts `bytes` into consecutive pieces whose lengths come from `seed`, as a reader fed from a socket
// sees them (lengths 1 to 64, some of them 0), so that a state that spans two reads is exercised.
std::vector<std::string_view> slices(std::string_view bytes, std::uint8_t seed);

// The secret scrubber no longer recurses, but its target parses and compares whole documents with
// nlohmann, whose writer and comparison recurse: it skips inputs nested deeper than this, by rule, so
// that the fuzzer's time goes to the scrubber. The importers refuse deep files themselves (core's
// json_input::requireDepthAtMost), so their targets read every input.
inline constexpr std::size_t kScrubberJsonDepthLimit = 1000;

// Stops the fuzzer with `what` when `condition` fails: a property of a parser that must hold whatever
// the input (libFuzzer reports the abort as a crash and keeps the input).
void check(bool condition, const char* what);

}  // namespace ayar::fuzz
