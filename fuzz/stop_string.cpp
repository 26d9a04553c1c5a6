// The engine's stop-string matcher, fed generated text piece by piece. The input is split at NUL
// bytes: the first 1-4 fields (the first byte says how many) are the stop strings, the rest the
// pieces. As the engine gives it, every stop string is non-empty and every piece is valid UTF-8.
// What it releases is the text up to the first stop string, never one that holds a stop string, and
// it holds back no more than a stop string's length (and a cut character).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tokenizer/utf8.h"
#include "engine/server/stop_string_matcher.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ayar::fuzz::check;
  if (size == 0) return 0;
  const std::size_t stopCount = 1 + data[0] % 4;
  std::vector<std::string> fields;
  std::string_view rest = ayar::fuzz::asText(data + 1, size - 1);
  while (true) {
    const std::size_t nul = rest.find('\0');
    fields.push_back(ayar::utf8::replaceInvalid(rest.substr(0, nul)));
    if (nul == std::string_view::npos) break;
    rest.remove_prefix(nul + 1);
  }
  std::vector<std::string> stops;
  std::size_t longest = 0;
  for (std::size_t i = 0; i < fields.size() && i < stopCount; ++i) {
    if (fields[i].empty()) continue;
    stops.push_back(fields[i]);
    longest = std::max(longest, fields[i].size());
  }
  if (stops.empty()) return 0;

  ayar::engine::StopStringMatcher matcher(stops);
  std::string released;
  std::string pushed;
  ayar::engine::StopStringMatcher::Result result;
  for (std::size_t i = stopCount; i < fields.size() && !result.stopped; ++i) {
    pushed += fields[i];
    result = matcher.push(fields[i], released);
    if (!result.stopped) {
      check(released.size() + longest + 3 > pushed.size(), "no more than a stop string is held back");
    }
  }
  matcher.flush(released);
  for (const std::string& stop : stops)
    check(released.find(stop) == std::string::npos, "released text holds no stop string");
  if (result.stopped) {
    check(std::find(stops.begin(), stops.end(), result.matched) != stops.end(), "the match is a stop string");
    check(pushed.compare(0, released.size(), released) == 0 &&
              pushed.compare(released.size(), result.matched.size(), result.matched) == 0,
          "a stop releases the text before the stop string");
  } else {
    check(released == pushed, "without a stop everything is released");
  }
  return 0;
}
