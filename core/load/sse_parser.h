#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace ayar {

// Incremental parser for a `text/event-stream` body (the WHATWG server-sent events format): fed byte
// slices as they arrive, split anywhere, it calls back once per dispatched event with the event's data.
// Handles LF, CRLF and CR line ends (a CRLF split across two slices included), comment lines (":..."),
// several `data:` lines joined with "\n", the optional single space after the colon and a leading BOM;
// the other fields (event, id, retry) are ignored because OpenAI streams carry everything in `data`.
//
// It runs once per chunk on the client's hot path, so an event whose lines arrive in one slice is
// handed over as a view into that slice, without a copy.
class SseParser {
 public:
  // Beyond this many buffered bytes of one line or event the stream is flagged as malformed instead
  // of growing without bound.
  static constexpr std::size_t kMaxEventBytes = std::size_t{16} << 20;

  // Calls onEvent(std::string_view data) for each event these bytes complete. The view is valid only
  // during the call.
  template <class OnEvent>
  void feed(std::string_view bytes, OnEvent&& onEvent);

  // True once a line or event went past kMaxEventBytes; later bytes are ignored.
  bool overflowed() const { return m_overflowed; }
  // The first line that is not an event-stream line (not a field of the format: data, event, id,
  // retry, a comment or a blank line), cut to 64 bytes; empty while there is none. The format says
  // to ignore such lines, and they are ignored; an OpenAI server never sends them, so a client
  // counts them as the server breaking the protocol (random bytes in the body, another format).
  const std::string& foreignLine() const { return m_foreignLine; }

  // Forgets everything, ready for a new stream.
  void reset();

 private:
  template <class OnEvent>
  void processLine(std::string_view line, bool lineOutlivesCall, OnEvent& onEvent);
  void keepPendingData();
  bool appendBounded(std::string& buffer, std::string_view bytes);

  std::string m_line;           // a line whose end has not arrived yet
  std::string m_data;           // the current event's data when it cannot stay a view
  std::string_view m_dataView;  // the current event's only data line, still inside the fed slice
  bool m_dataIsView = false;
  bool m_hasData = false;        // a `data` field was seen since the last dispatch
  bool m_skipLeadingLf = false;  // the last slice ended in CR: an LF first in the next one ends nothing
  bool m_atStreamStart = true;   // a BOM may open the first line
  bool m_overflowed = false;
  std::string m_foreignLine;
};

template <class OnEvent>
void SseParser::feed(std::string_view bytes, OnEvent&& onEvent) {
  if (m_overflowed) return;
  std::size_t pos = 0;
  const std::size_t size = bytes.size();
  const char* data = bytes.data();
  if (m_skipLeadingLf && size > 0) {
    if (data[0] == '\n') pos = 1;
    m_skipLeadingLf = false;
  }
  while (pos < size) {
    // The line ends at the first LF, or at an earlier CR: memchr twice beats a byte loop on long lines.
    const char* lf = static_cast<const char*>(std::memchr(data + pos, '\n', size - pos));
    const std::size_t searchEnd = lf ? static_cast<std::size_t>(lf - data) : size;
    const char* cr = static_cast<const char*>(std::memchr(data + pos, '\r', searchEnd - pos));
    const char* eol = cr ? cr : lf;
    if (!eol) {
      if (!appendBounded(m_line, bytes.substr(pos))) return;
      break;
    }
    const std::size_t eolPos = static_cast<std::size_t>(eol - data);
    if (m_line.empty()) {
      processLine(bytes.substr(pos, eolPos - pos), true, onEvent);
    } else {
      if (!appendBounded(m_line, bytes.substr(pos, eolPos - pos))) return;
      processLine(m_line, false, onEvent);
      m_line.clear();
    }
    if (m_overflowed) return;
    if (*eol == '\r') {
      if (eolPos + 1 == size) {
        m_skipLeadingLf = true;
        pos = size;
      } else {
        pos = eolPos + (data[eolPos + 1] == '\n' ? 2 : 1);
      }
    } else {
      pos = eolPos + 1;
    }
  }
  keepPendingData();
}

template <class OnEvent>
void SseParser::processLine(std::string_view line, bool lineOutlivesCall, OnEvent& onEvent) {
  if (m_atStreamStart) {
    m_atStreamStart = false;
    if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  }
  if (line.empty()) {
    if (m_hasData) {
      const std::string_view eventData = m_dataIsView ? m_dataView : std::string_view(m_data);
      onEvent(eventData);
    }
    m_data.clear();
    m_dataView = {};
    m_dataIsView = false;
    m_hasData = false;
    return;
  }
  if (line[0] == ':') return;  // comment, e.g. a keep-alive ping
  const std::size_t colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  if (field != "data") {
    if (m_foreignLine.empty() && field != "event" && field != "id" && field != "retry")
      m_foreignLine = std::string(line.substr(0, 64));
    return;
  }
  std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  if (!m_hasData) {
    m_hasData = true;
    if (lineOutlivesCall) {
      m_dataView = value;
      m_dataIsView = true;
    } else {
      appendBounded(m_data, value);
    }
    return;
  }
  keepPendingData();
  if (appendBounded(m_data, "\n")) appendBounded(m_data, value);
}

}  // namespace ayar
