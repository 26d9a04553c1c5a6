#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ayar::engine {

// Finds stop strings in generated text that arrives piece by piece (one token's text at a time), so
// a stop string split across tokens is still found. Like vLLM, it holds back the last
// (longest stop string - 1) bytes, since they could be the start of a stop string, and releases them
// once they cannot be; the text is cut before the stop string.
class StopStringMatcher {
 public:
  explicit StopStringMatcher(std::vector<std::string> stopStrings = {});

  struct Result {
    bool stopped = false;
    std::string_view matched;  // the stop string found, when stopped
  };

  // Adds `text` and appends to `released` whatever is now known not to be part of a stop string.
  // After a stop, further calls release nothing.
  Result push(std::string_view text, std::string& released);
  // Releases everything held (the generation ended without a stop string).
  void flush(std::string& released);

  bool active() const { return !m_stopStrings.empty(); }
  bool stopped() const { return m_stopped; }

 private:
  std::vector<std::string> m_stopStrings;
  std::size_t m_holdBack = 0;  // longest stop string - 1
  std::string m_held;
  bool m_stopped = false;
};

}  // namespace ayar::engine
