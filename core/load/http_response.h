#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ayar {

// Receives a response's body bytes, with any chunked framing already removed.
class HttpBodySink {
 public:
  virtual void onBody(std::string_view bytes) = 0;

 protected:
  ~HttpBodySink() = default;
};

// Incremental parser for one HTTP/1.1 response to a POST, fed the bytes read from the connection in
// slices split anywhere. It delimits the body the way RFC 9112 section 6 says: a chunked transfer
// coding, else Content-Length, else the connection's close; 1xx interim responses are skipped, and
// 204 and 304 have no body. It also says whether the connection may carry the next request.
//
// It sits on the streaming client's hot path (one call per read), so body bytes are handed on as views
// into the fed slice, never copied.
class HttpResponseParser {
 public:
  // Limits that turn a runaway or hostile response into an error instead of unbounded memory.
  static constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
  static constexpr std::size_t kMaxLineBytes = 8 * 1024;

  // Parses `bytes`, passing body bytes to `sink`. Returns how many bytes belong to this response; fewer
  // than given only when the response ended (done()) or is malformed (failed()).
  std::size_t feed(std::string_view bytes, HttpBodySink& sink);

  // The connection closed. Ends a body delimited by the close; returns false when the response was not
  // complete (a broken stream), true when it is done.
  bool finishAtClose();

  bool done() const { return m_state == State::Done; }
  bool failed() const { return m_state == State::Failed; }
  const std::string& error() const { return m_error; }
  bool headersDone() const { return m_state > State::Headers && m_state != State::Failed; }
  // The final response's status code; 0 until its status line arrived.
  int status() const { return m_status; }
  // Whether the connection may carry another request once this response is done.
  bool keepAlive() const { return m_keepAlive && !m_bodyEndsAtClose; }
  // Every byte fed so far, framing included: 0 means the server sent nothing at all.
  std::uint64_t bytesReceived() const { return m_bytesReceived; }

  void reset();

 private:
  enum class State { StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Done, Failed };

  // Takes bytes up to the next LF into m_line; true with the complete line (CR and LF removed).
  bool takeLine(std::string_view bytes, std::size_t& at, std::string_view& line);
  void onStatusLine(std::string_view line);
  void onHeaderLine(std::string_view line);
  void onHeadersEnd();
  void onChunkSizeLine(std::string_view line);
  void fail(std::string message);

  State m_state = State::StatusLine;
  std::string m_line;
  std::string m_error;
  int m_status = 0;
  int m_minorVersion = 1;
  bool m_keepAlive = true;
  bool m_chunked = false;
  bool m_bodyEndsAtClose = false;
  bool m_hasContentLength = false;
  bool m_sawCloseToken = false;
  bool m_sawKeepAliveToken = false;
  std::uint64_t m_remaining = 0;  // of the Content-Length body, or of the current chunk
  std::size_t m_headerBytes = 0;
  std::uint64_t m_bytesReceived = 0;
};

}  // namespace ayar
