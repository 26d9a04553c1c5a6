#include "core/load/http_response.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace ayar {

namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] + 32) : a[i];
    const char y = (b[i] >= 'A' && b[i] <= 'Z') ? static_cast<char>(b[i] + 32) : b[i];
    if (x != y) return false;
  }
  return true;
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Calls onToken for each element of a comma-separated header list, trimmed, empty ones skipped.
template <class OnToken>
void forEachListToken(std::string_view value, OnToken&& onToken) {
  while (!value.empty()) {
    const auto comma = value.find(',');
    const std::string_view token = trimmed(value.substr(0, comma));
    if (!token.empty()) onToken(token);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, 80)) {
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return out;
}

}  // namespace

void HttpResponseParser::reset() {
  *this = HttpResponseParser();
}

void HttpResponseParser::fail(std::string message) {
  m_state = State::Failed;
  m_error = std::move(message);
}

bool HttpResponseParser::takeLine(std::string_view bytes, std::size_t& at, std::string_view& line) {
  const std::size_t lf = bytes.find('\n', at);
  const std::size_t end = lf == std::string_view::npos ? bytes.size() : lf;
  const bool inHeaders = m_state == State::StatusLine || m_state == State::Headers;
  const std::size_t taken = end - at + (lf == std::string_view::npos ? 0 : 1);
  if (inHeaders) {
    m_headerBytes += taken;
    if (m_headerBytes > kMaxHeaderBytes) {
      fail("the response headers are larger than " + std::to_string(kMaxHeaderBytes / 1024) + " KiB");
      return false;
    }
  }
  if (lf == std::string_view::npos) {
    if (m_line.size() + (end - at) > kMaxLineBytes) {
      fail("a line of the response is longer than " + std::to_string(kMaxLineBytes / 1024) + " KiB");
      return false;
    }
    m_line.append(bytes.substr(at, end - at));
    at = end;
    return false;
  }
  if (m_line.empty()) {
    line = bytes.substr(at, end - at);
  } else {
    m_line.append(bytes.substr(at, end - at));
    line = m_line;
  }
  at = lf + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

void HttpResponseParser::onStatusLine(std::string_view line) {
  // HTTP/1.1 200 OK
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || line[8] != ' ' || line[7] < '0' ||
      line[7] > '9') {
    fail("the server did not answer with HTTP/1.x (it sent '" + printable(line) + "')");
    return;
  }
  int status = 0;
  const auto [end, errc] = std::from_chars(line.data() + 9, line.data() + 12, status);
  if (errc != std::errc() || end != line.data() + 12 || status < 100 ||
      (line.size() > 12 && line[12] != ' ')) {
    fail("the response's status line is not valid ('" + printable(line) + "')");
    return;
  }
  m_status = status;
  m_minorVersion = line[7] - '0';
  m_state = State::Headers;
}

void HttpResponseParser::onHeaderLine(std::string_view line) {
  if (line.front() == ' ' || line.front() == '\t')
    return;  // obsolete line folding: part of a value we ignore
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    fail("a response header is not 'name: value' ('" + printable(line) + "')");
    return;
  }
  const std::string_view name = line.substr(0, colon);
  const std::string_view value = trimmed(line.substr(colon + 1));
  if (equalsIgnoringCase(name, "content-length")) {
    std::uint64_t length = 0;
    const auto [end, errc] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (errc != std::errc() || end != value.data() + value.size() || value.empty() ||
        (m_hasContentLength && length != m_remaining)) {
      fail("the response's Content-Length is not valid ('" + printable(value) + "')");
      return;
    }
    m_hasContentLength = true;
    m_remaining = length;
  } else if (equalsIgnoringCase(name, "transfer-encoding")) {
    // Chunked must be the last coding; any other final coding is delimited by the close.
    bool lastIsChunked = false;
    forEachListToken(value,
                     [&](std::string_view token) { lastIsChunked = equalsIgnoringCase(token, "chunked"); });
    m_chunked = lastIsChunked;
    m_bodyEndsAtClose = !lastIsChunked;
  } else if (equalsIgnoringCase(name, "connection")) {
    forEachListToken(value, [&](std::string_view token) {
      if (equalsIgnoringCase(token, "close")) m_sawCloseToken = true;
      if (equalsIgnoringCase(token, "keep-alive")) m_sawKeepAliveToken = true;
    });
  }
}

void HttpResponseParser::onHeadersEnd() {
  if (m_status < 200 && m_status != 101) {
    // An interim response (100 Continue, 103 Early Hints): the real one follows.
    const std::uint64_t received = m_bytesReceived;
    const std::size_t headerBytes = m_headerBytes;
    reset();
    m_bytesReceived = received;
    m_headerBytes = headerBytes;
    return;
  }
  m_keepAlive = m_minorVersion >= 1 ? !m_sawCloseToken : (m_sawKeepAliveToken && !m_sawCloseToken);
  if (m_status == 204 || m_status == 304) {
    m_state = State::Done;
  } else if (m_chunked) {
    m_state = State::ChunkSize;  // Transfer-Encoding wins over Content-Length
  } else if (m_bodyEndsAtClose || !m_hasContentLength) {
    m_bodyEndsAtClose = true;
    m_state = State::Body;
  } else {
    m_state = m_remaining == 0 ? State::Done : State::Body;
  }
}

void HttpResponseParser::onChunkSizeLine(std::string_view line) {
  const std::string_view size = trimmed(line.substr(0, line.find(';')));  // chunk extensions are ignored
  std::uint64_t bytes = 0;
  const auto [end, errc] = std::from_chars(size.data(), size.data() + size.size(), bytes, 16);
  if (size.empty() || errc != std::errc() || end != size.data() + size.size()) {
    fail("the response's chunked framing is broken (chunk size '" + printable(line) + "')");
    return;
  }
  m_remaining = bytes;
  m_state = bytes == 0 ? State::Trailers : State::ChunkData;
}

std::size_t HttpResponseParser::feed(std::string_view bytes, HttpBodySink& sink) {
  std::size_t at = 0;
  std::string_view line;
  while (at < bytes.size() && m_state != State::Done && m_state != State::Failed) {
    const std::size_t before = at;
    switch (m_state) {
      case State::StatusLine:
      case State::Headers:
      case State::ChunkSize:
      case State::ChunkDataEnd:
      case State::Trailers: {
        const State state = m_state;
        if (!takeLine(bytes, at, line)) break;
        if (state == State::StatusLine) {
          if (!line.empty()) onStatusLine(line);  // a stray empty line before the response is tolerated
        } else if (state == State::Headers) {
          if (line.empty()) {
            onHeadersEnd();
          } else {
            onHeaderLine(line);
          }
        } else if (state == State::ChunkSize) {
          onChunkSizeLine(line);
        } else if (state == State::ChunkDataEnd) {
          if (!line.empty()) {
            fail("the response's chunked framing is broken (no line end after a chunk)");
          } else {
            m_state = State::ChunkSize;
          }
        } else if (line.empty()) {
          m_state = State::Done;  // the end of the trailer section
        }
        m_line.clear();
        break;
      }
      case State::Body:
      case State::ChunkData: {
        std::size_t take = bytes.size() - at;
        if (m_state == State::ChunkData || !m_bodyEndsAtClose) {
          take = static_cast<std::size_t>(std::min<std::uint64_t>(take, m_remaining));
          m_remaining -= take;
        }
        sink.onBody(bytes.substr(at, take));
        at += take;
        if (m_remaining == 0 && !m_bodyEndsAtClose) {
          m_state = m_state == State::ChunkData ? State::ChunkDataEnd : State::Done;
        }
        break;
      }
      case State::Done:
      case State::Failed:
        break;
    }
    m_bytesReceived += at - before;
  }
  return at;
}

bool HttpResponseParser::finishAtClose() {
  if (m_state == State::Body && m_bodyEndsAtClose) m_state = State::Done;
  return m_state == State::Done;
}

}  // namespace ayar
