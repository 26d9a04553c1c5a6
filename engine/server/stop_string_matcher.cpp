#include "engine/server/stop_string_matcher.h"

#include <algorithm>
#include <utility>

#include "engine/server/json_text.h"

namespace ayar::engine {

StopStringMatcher::StopStringMatcher(std::vector<std::string> stopStrings)
    : m_stopStrings(std::move(stopStrings)) {
  for (const std::string& stop : m_stopStrings)
    m_holdBack = std::max(m_holdBack, stop.size() - 1);
}

StopStringMatcher::Result StopStringMatcher::push(std::string_view text, std::string& released) {
  if (m_stopped) return {};
  if (m_stopStrings.empty()) {
    released.append(text);
    return {};
  }
  // Everything before m_held was released with no stop string ending in it, and m_held keeps the last
  // m_holdBack bytes, so any stop string that ends in the new text starts inside m_held + text.
  m_held.append(text);
  std::size_t firstMatch = std::string::npos;
  std::string_view matched;
  for (const std::string& stop : m_stopStrings) {
    const std::size_t at = m_held.find(stop);
    if (at < firstMatch) {
      firstMatch = at;
      matched = stop;
    }
  }
  if (firstMatch != std::string::npos) {
    released.append(m_held, 0, firstMatch);
    m_held.clear();
    m_stopped = true;
    return {true, matched};
  }
  if (m_held.size() > m_holdBack) {
    // Never cut a UTF-8 character in two: a client must never receive half of one.
    const std::size_t releasable = utf8BoundaryAtOrBefore(m_held, m_held.size() - m_holdBack);
    released.append(m_held, 0, releasable);
    m_held.erase(0, releasable);
  }
  return {};
}

void StopStringMatcher::flush(std::string& released) {
  if (!m_stopped) released.append(m_held);
  m_held.clear();
}

}  // namespace ayar::engine
