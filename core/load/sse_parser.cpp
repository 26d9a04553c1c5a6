#include "core/load/sse_parser.h"

namespace ayar {

void SseParser::reset() {
  m_line.clear();
  m_data.clear();
  m_dataView = {};
  m_dataIsView = false;
  m_hasData = false;
  m_skipLeadingLf = false;
  m_atStreamStart = true;
  m_overflowed = false;
  m_foreignLine.clear();
}

void SseParser::keepPendingData() {
  // The view points into the slice being fed, which the caller may reuse once feed() returns.
  if (!m_dataIsView) return;
  m_dataIsView = false;
  m_data.assign(m_dataView);
  m_dataView = {};
}

bool SseParser::appendBounded(std::string& buffer, std::string_view bytes) {
  if (buffer.size() + bytes.size() > kMaxEventBytes) {
    m_overflowed = true;
    return false;
  }
  buffer.append(bytes);
  return true;
}

}  // namespace ayar
