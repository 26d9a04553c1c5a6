#include "tests/engine/server/http_client.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <stdexcept>

namespace ayar::test {

namespace {

struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~CurlGlobal() { curl_global_cleanup(); }
};

void ensureCurl() {
  static CurlGlobal global;
}

std::size_t appendTo(char* data, std::size_t size, std::size_t count, void* target) {
  static_cast<std::string*>(target)->append(data, size * count);
  return size * count;
}

struct EasyRequest {
  CURL* handle = nullptr;
  curl_slist* headerList = nullptr;
  HttpReply reply;
  std::string body;

  EasyRequest(const std::string& method, const std::string& url, std::string requestBody,
              const std::vector<std::string>& headers, std::chrono::milliseconds timeout)
      : body(std::move(requestBody)) {
    ensureCurl();
    handle = curl_easy_init();
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (method == "POST" || !body.empty()) {
      curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
      curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    }
    headerList = curl_slist_append(headerList, "Content-Type: application/json");
    for (const std::string& header : headers)
      headerList = curl_slist_append(headerList, header.c_str());
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headerList);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, appendTo);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &reply.body);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, appendTo);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &reply.headers);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_PROXY, "");
  }
  ~EasyRequest() {
    curl_slist_free_all(headerList);
    curl_easy_cleanup(handle);
  }
  void finish(CURLcode code) {
    if (code != CURLE_OK) {
      reply.error = curl_easy_strerror(code);
      reply.status = 0;
      return;
    }
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &reply.status);
  }
};

}  // namespace

HttpReply httpRequest(const std::string& method, const std::string& url, const std::string& body,
                      const std::vector<std::string>& headers, std::chrono::milliseconds timeout) {
  EasyRequest request(method, url, body, headers, timeout);
  request.finish(curl_easy_perform(request.handle));
  return request.reply;
}

std::vector<HttpReply> httpPostConcurrently(const std::string& url, const std::vector<std::string>& bodies,
                                            std::chrono::milliseconds timeout) {
  ensureCurl();
  CURLM* multi = curl_multi_init();
  curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);
  std::vector<std::unique_ptr<EasyRequest>> requests;
  for (const std::string& body : bodies) {
    requests.push_back(std::make_unique<EasyRequest>("POST", url, body, std::vector<std::string>{}, timeout));
    curl_easy_setopt(requests.back()->handle, CURLOPT_PRIVATE, requests.back().get());
    curl_multi_add_handle(multi, requests.back()->handle);
  }
  int running = 1;
  while (running > 0) {
    curl_multi_perform(multi, &running);
    int messages = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &messages)) {
      if (message->msg != CURLMSG_DONE) continue;
      EasyRequest* request = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &request);
      request->finish(message->data.result);
    }
    if (running > 0) curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
  }
  std::vector<HttpReply> replies;
  for (auto& request : requests) {
    curl_multi_remove_handle(multi, request->handle);
    replies.push_back(request->reply);
  }
  requests.clear();
  curl_multi_cleanup(multi);
  return replies;
}

std::vector<std::string> sseData(const std::string& body) {
  std::vector<std::string> data;
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    const std::string line = body.substr(at, end - at);
    if (line.rfind("data: ", 0) == 0) data.push_back(line.substr(6));
    at = end + 1;
  }
  return data;
}

RawConnection::RawConnection(int port) {
  m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(m_fd);
    throw std::runtime_error("connect to 127.0.0.1:" + std::to_string(port) + " failed");
  }
  const int one = 1;
  ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

RawConnection::~RawConnection() {
  close();
}

void RawConnection::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the server may close early (413): what it answered is still readable
    sent += static_cast<std::size_t>(n);
  }
}

bool RawConnection::trySend(const std::string& bytes) {
  ssize_t n = -1;
  do {
    n = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  return n >= 0;
}

void RawConnection::shutdownWrite() {
  ::shutdown(m_fd, SHUT_WR);
}

std::string RawConnection::readUntil(const std::string& needle, std::chrono::milliseconds timeout) {
  return readUntilCount(needle, 1, timeout);
}

std::string RawConnection::readUntilCount(const std::string& needle, std::size_t count,
                                          std::chrono::milliseconds timeout) {
  const auto found = [&] {
    std::size_t seen = 0;
    for (std::size_t at = m_received.find(needle); at != std::string::npos;
         at = m_received.find(needle, at + 1)) {
      ++seen;
    }
    return seen >= count;
  };
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buffer[8192];
  while (!found()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd pfd{m_fd, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    m_received.append(buffer, static_cast<std::size_t>(n));
  }
  return m_received;
}

bool RawConnection::readUntilClosed(std::string& received, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buffer[8192];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd pfd{m_fd, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      received = m_received;
      return true;  // closed (or reset)
    }
    m_received.append(buffer, static_cast<std::size_t>(n));
  }
  received = m_received;
  return false;
}

void RawConnection::close() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

std::string rawPost(const std::string& path, const std::string& body, const std::string& extraHeaders) {
  return "POST " + path +
         " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extraHeaders + "\r\n" + body;
}

}  // namespace ayar::test
