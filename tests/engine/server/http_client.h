#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace ayar::test {

struct HttpReply {
  long status = 0;  // 0: no response (transport error)
  std::string body;
  std::string headers;
  std::string error;  // libcurl's message on a transport error
};

// One request with libcurl's easy interface.
HttpReply httpRequest(const std::string& method, const std::string& url, const std::string& body = {},
                      const std::vector<std::string>& headers = {},
                      std::chrono::milliseconds timeout = std::chrono::seconds(20));
inline HttpReply httpGet(const std::string& url, const std::vector<std::string>& headers = {}) {
  return httpRequest("GET", url, {}, headers);
}
inline HttpReply httpPost(const std::string& url, const std::string& body,
                          const std::vector<std::string>& headers = {}) {
  return httpRequest("POST", url, body, headers);
}

// Many POSTs at once through one libcurl multi handle (one connection each).
std::vector<HttpReply> httpPostConcurrently(const std::string& url, const std::vector<std::string>& bodies,
                                            std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The payloads of the `data: ` lines of an SSE body, in order ("[DONE]" included).
std::vector<std::string> sseData(const std::string& body);

// A plain TCP connection to 127.0.0.1, for what a well-behaved HTTP client never sends.
class RawConnection {
 public:
  explicit RawConnection(int port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void send(const std::string& bytes);
  // Sends without waiting; false once the connection refuses bytes (the server closed it).
  bool trySend(const std::string& bytes);
  // shutdown(SHUT_WR): the server reads an end of stream, and this side can still read.
  void shutdownWrite();
  // Reads until `needle` was received, the peer closed, or the timeout; returns everything read so far.
  std::string readUntil(const std::string& needle,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Reads until `needle` was received `count` times (or the peer closed, or the timeout).
  std::string readUntilCount(const std::string& needle, std::size_t count,
                             std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Reads until the peer closes the connection; false on timeout.
  bool readUntilClosed(std::string& received, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  void close();

 private:
  int m_fd = -1;
  std::string m_received;
};

// A request head and JSON body, written by hand.
std::string rawPost(const std::string& path, const std::string& body, const std::string& extraHeaders = {});

}  // namespace ayar::test
