#include "core/load/stream_client.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "core/error.h"
#include "core/load/http_response.h"
#include "core/load/openai_stream.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using Clock = StreamClient::Clock;

// An error body is read only for its message; a server that sends more is cut off here.
constexpr std::size_t kMaxErrorBodyBytes = 64 * 1024;
// Events handled per poll. Each costs a few microseconds (recv, parse); the runner dispatches due
// requests only between polls, so a small batch keeps dispatch lag well under a millisecond even
// when thousands of streams are ready at once.
constexpr int kMaxEpollEvents = 32;
// A server's error message is kept whole up to this size, then cut: records should stay small.
constexpr std::size_t kMaxMessageBytes = 1000;
// One read takes at most this much; a short read means the socket is empty for now.
constexpr std::size_t kReadBufferBytes = 64 * 1024;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

void initCurlOnce() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (result != CURLE_OK) {
    throw Error(std::string("libcurl could not be initialised: ") + curl_easy_strerror(result));
  }
}

std::string osErrorText(long osErrno) {
  if (osErrno == 0) return {};
  return std::error_code(static_cast<int>(osErrno), std::generic_category()).message();
}

std::string trimmedExcerpt(std::string_view text, std::size_t limit = 300) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

// The message of an OpenAI error body ({"error": {"message": ...}}), vLLM's older top-level form, or
// FastAPI's {"detail": ...}; otherwise the start of the body itself.
std::string errorBodyMessage(const std::string& body) {
  const nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object()) {
    const auto error = json.find("error");
    if (error != json.end()) {
      if (error->is_object()) {
        const auto message = error->find("message");
        if (message != error->end() && message->is_string()) {
          return trimmedExcerpt(message->get<std::string>(), kMaxMessageBytes);
        }
      }
      if (error->is_string()) return trimmedExcerpt(error->get<std::string>(), kMaxMessageBytes);
    }
    for (const char* key : {"message", "detail"}) {
      const auto value = json.find(key);
      if (value == json.end()) continue;
      if (value->is_string()) return trimmedExcerpt(value->get<std::string>(), kMaxMessageBytes);
      return trimmedExcerpt(value->dump(), kMaxMessageBytes);
    }
  }
  return trimmedExcerpt(body);
}

// Where requests go: the Host header and request target of the endpoint URL, and whether TLS is used.
struct Target {
  std::string host;
  std::string path;
  bool tls = false;
};

Target parseTarget(const std::string& url) {
  CURLU* handle = curl_url();
  if (!handle) throw Error("libcurl could not parse the endpoint URL (out of memory?)");
  const CURLUcode code = curl_url_set(handle, CURLUPART_URL, url.c_str(), 0);
  if (code != CURLUE_OK) {
    curl_url_cleanup(handle);
    throw MessageError({MessageText::LoadEndpointInvalid, {url, std::string(curl_url_strerror(code))}});
  }
  auto part = [handle](CURLUPart which) {
    char* value = nullptr;
    if (curl_url_get(handle, which, &value, 0) != CURLUE_OK || !value) return std::string();
    std::string text(value);
    curl_free(value);
    return text;
  };
  Target target;
  const std::string port = part(CURLUPART_PORT);  // empty unless the URL names one
  target.host = part(CURLUPART_HOST) + (port.empty() ? "" : ":" + port);
  target.path = part(CURLUPART_PATH);
  if (target.path.empty()) target.path = "/";
  if (const std::string query = part(CURLUPART_QUERY); !query.empty()) target.path += "?" + query;
  target.tls = part(CURLUPART_SCHEME) == "https";
  curl_url_cleanup(handle);
  return target;
}

bool sameHeaderName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The header lines every request shares, as vLLM's client sets them: its own, then the user's
// --header entries, each replacing one of the same name.
std::string headerLines(const StreamClientConfig& config) {
  for (const auto& [name, value] : config.headers) {
    if (name.empty() || name.find_first_of(":\r\n ") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos) {
      throw MessageError({MessageText::LoadHeaderInvalid, {name}});
    }
  }
  std::vector<std::pair<std::string, std::string>> headers{
      {"User-Agent", "ayar"}, {"Accept", "*/*"}, {"Content-Type", "application/json"}};
  if (!config.apiKey.empty()) headers.emplace_back("Authorization", "Bearer " + config.apiKey);
  for (const auto& given : config.headers) {
    std::erase_if(headers, [&](const auto& header) { return sameHeaderName(header.first, given.first); });
    headers.push_back(given);
  }
  std::string lines;
  for (const auto& [name, value] : headers)
    lines += name + ": " + value + "\r\n";
  return lines;
}

}  // namespace

// How the work splits: libcurl's multi handle establishes connections (name resolution, non-blocking
// connect, TLS, a proxy's CONNECT tunnel) with CURLOPT_CONNECT_ONLY, and keeps each one until the
// client closes it. The client then speaks HTTP/1.1 on the connection itself: it writes the request
// with curl_easy_send and reads the response straight from the socket (through curl_easy_recv under
// TLS) into HttpResponseParser and the SSE reader. This keeps libcurl's transfer machinery, which
// costs about 4 us of CPU per chunk on top of the read itself, off the per-chunk path (see
// docs/BENCHMARKS.md), while libcurl still does everything that is hard to get right about connecting.
struct StreamClient::Impl {
  struct Transfer;

  // One keep-alive connection. Its easy handle stays in the multi handle for the connection's whole
  // life: removing it is what closes a CONNECT_ONLY connection.
  struct Connection {
    CURL* easy = nullptr;
    int fd = -1;                  // known once connected; from then on the client watches it
    bool carriedRequest = false;  // it has finished a request before, so the server may have closed it
    bool idle = false;
    bool watchingWrite = false;
    Transfer* transfer = nullptr;
    std::size_t index = 0;  // in Impl::connections
    char errorBuffer[CURL_ERROR_SIZE] = {};
  };

  struct Transfer final : HttpBodySink {
    Connection* connection = nullptr;
    OpenAiStreamReader reader;
    RequestRecord record;
    Clock::time_point start;
    std::string request;  // head and body, exactly as written
    std::size_t sent = 0;
    HttpResponseParser response;
    std::string errorBody;
    double arrivalS = 0;  // of the bytes being parsed now, relative to start
    bool retried = false;
    std::uint64_t serial = 0;  // 0 while idle; tells a stale deadline from a live one
    std::size_t activeIndex = 0;

    void onBody(std::string_view bytes) override {
      const int status = response.status();
      if (status >= 200 && status < 300) {
        reader.feed(bytes, arrivalS);
      } else if (errorBody.size() < kMaxErrorBodyBytes) {
        errorBody.append(bytes.substr(0, kMaxErrorBodyBytes - errorBody.size()));
      }
    }
  };

  struct Deadline {
    Clock::time_point at;
    Transfer* transfer;
    std::uint64_t serial;
  };

  StreamClientConfig config;
  FinishedHandler onFinished;
  Target target;
  std::string headPrefix;  // the request head up to the per-request lines (x-request-id, Content-Length)
  CURLM* multi = nullptr;
  int epollFd = -1;
  int timerFd = -1;
  int wakeFd = -1;
  Clock::time_point origin = Clock::now();
  std::optional<Clock::time_point> curlDeadline;
  std::optional<Clock::time_point> armedDeadline;
  std::string noProxy;
  std::vector<std::unique_ptr<Transfer>> transfers;
  std::vector<Transfer*> idle;
  std::vector<Transfer*> active;
  std::vector<std::unique_ptr<Connection>> connections;
  std::vector<Connection*> idleConnections;
  std::vector<Connection*> byFd;   // connections the client reads, by socket
  std::deque<Deadline> deadlines;  // in send order, which is deadline order: every request has the same limit
  std::uint64_t nextSerial = 0;
  std::uint64_t finishedCount = 0;
  Clock::time_point lastReadAt;  // the clock as last read for a timestamp: poll() reuses it for free
  StreamClient::PollTiming pollTiming;
  std::vector<char> readBuffer = std::vector<char>(kReadBufferBytes);
  epoll_event events[kMaxEpollEvents] = {};

  Impl(StreamClientConfig clientConfig, FinishedHandler handler)
      : config(std::move(clientConfig)), onFinished(std::move(handler)) {
    initCurlOnce();
    target = parseTarget(config.url);
    headPrefix = "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host + "\r\n" + headerLines(config);
    epollFd = epoll_create1(EPOLL_CLOEXEC);
    timerFd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epollFd < 0 || timerFd < 0 || wakeFd < 0) {
      const int savedErrno = errno;
      closeFds();
      throw MessageError({MessageText::LoadNoEventLoop, {osErrorText(savedErrno)}});
    }
    for (int fd : {timerFd, wakeFd}) {
      epoll_event event{};
      event.events = EPOLLIN;
      event.data.fd = fd;
      epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &event);
    }
    multi = curl_multi_init();
    if (!multi) {
      closeFds();
      throw Error("libcurl could not create a multi handle (out of memory?)");
    }
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    // libcurl keeps the connections in its cache while the client uses them; it must never prune one
    // to make room, and must not queue connects behind a per-host or total cap (0 = unlimited).
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS,
                      static_cast<long>(std::max<std::size_t>(config.connectionPoolSize, 1) * 2 + 16));
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);

    // Loopback never goes through a proxy; other hosts follow the environment's no_proxy.
    for (const char* name : {"no_proxy", "NO_PROXY"}) {
      if (const char* value = std::getenv(name); value && *value) {
        noProxy = value;
        break;
      }
    }
    noProxy += noProxy.empty() ? "" : ",";
    noProxy += "localhost,127.0.0.1,::1";
  }

  ~Impl() {
    while (!connections.empty())
      closeConnection(connections.back().get());
    curl_multi_cleanup(multi);
    closeFds();
  }

  void closeFds() {
    for (int* fd : {&epollFd, &timerFd, &wakeFd}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
  }

  Connection* owner(int fd) const {
    return fd >= 0 && static_cast<std::size_t>(fd) < byFd.size() ? byFd[static_cast<std::size_t>(fd)]
                                                                 : nullptr;
  }

  // libcurl's interest in its sockets while it connects them. Once a connection is the client's, it
  // watches the socket itself and libcurl's calls about it are ignored.
  static int onSocket(CURL*, curl_socket_t socket, int what, void* userp, void*) {
    auto* self = static_cast<Impl*>(userp);
    if (self->owner(socket)) return 0;
    if (what == CURL_POLL_REMOVE) {
      epoll_ctl(self->epollFd, EPOLL_CTL_DEL, socket, nullptr);
      return 0;
    }
    epoll_event event{};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    event.data.fd = socket;
    if (epoll_ctl(self->epollFd, EPOLL_CTL_ADD, socket, &event) != 0 && errno == EEXIST) {
      epoll_ctl(self->epollFd, EPOLL_CTL_MOD, socket, &event);
    }
    return 0;
  }

  static int onTimer(CURLM*, long timeoutMs, void* userp) {
    auto* self = static_cast<Impl*>(userp);
    if (timeoutMs < 0) {
      self->curlDeadline.reset();
    } else {
      self->curlDeadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    }
    return 0;
  }

  Transfer* acquire() {
    if (!idle.empty()) {
      Transfer* transfer = idle.back();
      idle.pop_back();
      return transfer;
    }
    transfers.push_back(std::make_unique<Transfer>());
    return transfers.back().get();
  }

  void release(Transfer* transfer) {
    Transfer* last = active.back();
    active[transfer->activeIndex] = last;
    last->activeIndex = transfer->activeIndex;
    active.pop_back();
    transfer->reader.reset();
    transfer->response.reset();
    transfer->errorBody.clear();
    transfer->request.clear();
    transfer->serial = 0;
    transfer->record = RequestRecord();
    idle.push_back(transfer);
  }

  // Starts a new connection; libcurl reports it connected (or failed) through handleCompletions().
  Connection* openConnection(std::string& error) {
    auto connection = std::make_unique<Connection>();
    connection->easy = curl_easy_init();
    if (!connection->easy) {
      error = "libcurl could not create a connection (out of memory?)";
      return nullptr;
    }
    CURL* easy = connection->easy;
    curl_easy_setopt(easy, CURLOPT_URL, config.url.c_str());
    curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));  // ALPN too
    curl_easy_setopt(easy, CURLOPT_HTTPPROXYTUNNEL,
                     1L);  // through a proxy, the request must reach the server as sent
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_NOPROXY, noProxy.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, connection.get());
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, connection->errorBuffer);
    if (config.requestTimeoutS > 0) {
      curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                       static_cast<long>(config.requestTimeoutS * 1000.0 + 0.5));
    }
    const CURLMcode code = curl_multi_add_handle(multi, easy);
    if (code != CURLM_OK) {
      curl_easy_cleanup(easy);
      error = std::string("could not start the request: ") + curl_multi_strerror(code);
      return nullptr;
    }
    connection->index = connections.size();
    connections.push_back(std::move(connection));
    return connections.back().get();
  }

  void closeConnection(Connection* connection) {
    if (connection->transfer) {
      connection->transfer->connection = nullptr;
      connection->transfer = nullptr;
    }
    if (connection->idle) {
      idleConnections.erase(std::find(idleConnections.begin(), idleConnections.end(), connection));
    }
    if (connection->fd >= 0) {
      epoll_ctl(epollFd, EPOLL_CTL_DEL, connection->fd, nullptr);
      byFd[static_cast<std::size_t>(connection->fd)] = nullptr;
    }
    curl_multi_remove_handle(multi, connection->easy);  // closes a CONNECT_ONLY connection
    curl_easy_cleanup(connection->easy);
    const std::size_t index = connection->index;
    if (index + 1 != connections.size()) {
      connections[index] = std::move(connections.back());
      connections[index]->index = index;
    }
    connections.pop_back();
  }

  void watch(Connection* connection, bool write) {
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP | (write ? EPOLLOUT : 0u);
    event.data.fd = connection->fd;
    epoll_ctl(epollFd, EPOLL_CTL_MOD, connection->fd, &event);
    connection->watchingWrite = write;
  }

  // libcurl finished connecting: the socket is the client's from now on.
  void takeOver(Connection* connection) {
    curl_socket_t fd = CURL_SOCKET_BAD;
    curl_easy_getinfo(connection->easy, CURLINFO_ACTIVESOCKET, &fd);
    connection->fd = fd;
    if (byFd.size() <= static_cast<std::size_t>(fd)) byFd.resize(static_cast<std::size_t>(fd) + 1, nullptr);
    byFd[static_cast<std::size_t>(fd)] = connection;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (epoll_ctl(epollFd, EPOLL_CTL_ADD, fd, &event) != 0 && errno == EEXIST) {
      epoll_ctl(epollFd, EPOLL_CTL_MOD, fd, &event);
    }
  }

  Clock::time_point send(std::string_view body, RequestRecord record) {
    Transfer* transfer = acquire();
    transfer->record = std::move(record);
    if (transfer->record.expectedOutputTokens > 0) {
      transfer->reader.reserve(static_cast<std::size_t>(transfer->record.expectedOutputTokens));
    }
    transfer->request.reserve(headPrefix.size() + config.requestIdPrefix.size() + 64 + body.size());
    transfer->request = headPrefix;
    if (!config.requestIdPrefix.empty()) {
      transfer->request += "x-request-id: ";
      transfer->request += config.requestIdPrefix;
      transfer->request += std::to_string(transfer->record.index);
      transfer->request += "\r\n";
    }
    transfer->request += "Content-Length: ";
    transfer->request += std::to_string(body.size());
    transfer->request += "\r\n\r\n";
    transfer->request += body;
    transfer->sent = 0;
    transfer->retried = false;
    transfer->serial = ++nextSerial;
    transfer->activeIndex = active.size();
    active.push_back(transfer);
    transfer->start = Clock::now();
    transfer->record.startS = secondsBetween(origin, transfer->start);
    if (config.requestTimeoutS > 0) {
      const auto limit =
          std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config.requestTimeoutS));
      deadlines.push_back({transfer->start + limit, transfer, transfer->serial});
    }
    const Clock::time_point start = transfer->start;
    attach(transfer, /*fresh=*/false);  // may finish (and recycle) the transfer at once
    return start;
  }

  // Gives the transfer a connection: an idle keep-alive one unless `fresh`, else a new one.
  void attach(Transfer* transfer, bool fresh) {
    Connection* connection = nullptr;
    if (!fresh && !idleConnections.empty()) {
      connection = idleConnections.back();
      idleConnections.pop_back();
      connection->idle = false;
    } else {
      std::string error;
      connection = openConnection(error);
      if (!connection) {
        finish(transfer, std::move(error));
        return;
      }
    }
    connection->transfer = transfer;
    transfer->connection = connection;
    if (connection->fd >= 0) writeRequest(transfer);  // else once libcurl has connected it
  }

  // Writes what the socket takes of the request; returns false when that failed and ended the transfer.
  bool writeRequest(Transfer* transfer) {
    Connection* connection = transfer->connection;
    while (transfer->sent < transfer->request.size()) {
      std::size_t written = 0;
      const CURLcode code = curl_easy_send(connection->easy, transfer->request.data() + transfer->sent,
                                           transfer->request.size() - transfer->sent, &written);
      if (code == CURLE_AGAIN) {
        if (!connection->watchingWrite) watch(connection, true);
        return true;
      }
      if (code != CURLE_OK) {
        long osErrno = 0;
        curl_easy_getinfo(connection->easy, CURLINFO_OS_ERRNO, &osErrno);
        connectionEnded(transfer, static_cast<int>(osErrno));
        return false;
      }
      transfer->sent += written;
    }
    if (connection->watchingWrite) watch(connection, false);
    return true;
  }

  // The socket is readable (or closed). Timestamps come first, straight after each read, before parsing.
  void onReadable(Connection* connection) {
    Transfer* transfer = connection->transfer;
    if (!transfer) {
      closeConnection(connection);  // an idle keep-alive connection that the server closed (or spoke on)
      return;
    }
    char* buffer = readBuffer.data();
    const std::size_t capacity = readBuffer.size();
    for (;;) {
      std::size_t got = 0;
      int osError = 0;
      bool closed = false;
      if (!target.tls) {
        const ssize_t read = ::recv(connection->fd, buffer, capacity, 0);
        if (read < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK) return;
          if (errno == EINTR) continue;
          osError = errno;
          closed = true;
        } else {
          got = static_cast<std::size_t>(read);
          closed = read == 0;
        }
      } else {
        const CURLcode code = curl_easy_recv(connection->easy, buffer, capacity, &got);
        if (code == CURLE_AGAIN) return;
        if (code != CURLE_OK) {
          long osErrno = 0;
          curl_easy_getinfo(connection->easy, CURLINFO_OS_ERRNO, &osErrno);
          osError = static_cast<int>(osErrno);
          closed = true;
        } else {
          closed = got == 0;
        }
      }
      const Clock::time_point now = Clock::now();
      lastReadAt = now;
      if (closed) {
        connectionEnded(transfer, osError);
        return;
      }
      transfer->arrivalS = secondsBetween(transfer->start, now);
      const std::size_t used = transfer->response.feed(std::string_view(buffer, got), *transfer);
      if (transfer->response.failed()) {
        closeConnection(connection);
        finish(transfer, "the server's response is not valid HTTP/1.1: " + transfer->response.error());
        return;
      }
      if (transfer->response.done()) {
        responseDone(transfer, /*reusable=*/used == got && transfer->response.keepAlive());
        return;
      }
      // Plain sockets are level-triggered: what a short read left is reported again. TLS may hold
      // decrypted bytes that the socket no longer shows, so it is read until it would block.
      if (!target.tls && got < capacity) return;
    }
  }

  void responseDone(Transfer* transfer, bool reusable) {
    Connection* connection = transfer->connection;
    connection->transfer = nullptr;
    transfer->connection = nullptr;
    connection->carriedRequest = true;
    if (reusable && idleConnections.size() < std::max<std::size_t>(config.connectionPoolSize, 1)) {
      connection->idle = true;
      idleConnections.push_back(connection);
    } else {
      closeConnection(connection);
    }
    finish(transfer, std::nullopt);
  }

  // The connection closed or failed under a transfer.
  void connectionEnded(Transfer* transfer, int osError) {
    Connection* connection = transfer->connection;
    const bool carriedRequest = connection->carriedRequest;
    closeConnection(connection);
    if (transfer->response.finishAtClose()) {  // a body delimited by the close
      finish(transfer, std::nullopt);
      return;
    }
    const std::string cause = osError ? " (" + osErrorText(osError) + ")" : "";
    if (transfer->response.bytesReceived() == 0) {
      if (carriedRequest && !transfer->retried) {
        // A keep-alive connection that the server closed while it sat idle: retry once on a new one,
        // as browsers and libcurl do. The request keeps its start time.
        transfer->retried = true;
        transfer->sent = 0;
        attach(transfer, /*fresh=*/true);
        return;
      }
      finish(transfer, "the server closed the connection without a response" + cause);
      return;
    }
    finish(transfer, "the connection broke mid-stream after " +
                         std::to_string(transfer->reader.chunkTimesS().size()) + " chunks" + cause);
  }

  // How many output tokens the server sent: its usage count, else at least one a chunk with text.
  static std::int64_t tokensSent(const OpenAiStreamReader& reader) {
    if (reader.completionTokens() > 0) return reader.completionTokens();
    return static_cast<std::int64_t>(reader.textChunkCount());
  }

  // Moves what the transfer collected into its record, decides success, and reports it.
  void finish(Transfer* transfer, std::optional<std::string> failure) {
    RequestRecord record = std::move(transfer->record);
    OpenAiStreamReader& reader = transfer->reader;
    const int status = transfer->response.status();
    record.httpStatus = status;
    record.chunkTimesS = reader.takeChunkTimes();
    record.generatedText = reader.takeText();
    const std::size_t chunks = record.chunkTimesS.size();
    if (!failure) {
      if (status < 200 || status >= 300) {
        const std::string message = errorBodyMessage(transfer->errorBody);
        failure =
            "HTTP " + std::to_string(status) + (message.empty() ? " with an empty body" : ": " + message);
      } else if (reader.failed()) {
        failure = reader.error();
      } else if (chunks == 0) {
        failure =
            "stream ended early: no chunk with choices (" + std::to_string(reader.eventCount()) + " events)";
      } else if (const std::int64_t sent = tokensSent(reader);
                 record.maxTokens > 0 && sent > record.maxTokens) {
        failure = "protocol error: the server sent " + std::to_string(sent) + " output tokens" +
                  (reader.completionTokens() > 0 ? "" : " (counting chunks)") +
                  " where the request's limit was " + std::to_string(record.maxTokens);
      }
      // A stream that ended cleanly after chunks with choices but without [DONE] succeeded, as vLLM
      // counts it.
    }
    record.success = !failure;
    record.error = failure ? std::move(*failure) : std::string();
    // vLLM counts the text with the tokenizer when usage is missing or says 0.
    if (reader.completionTokens() > 0) {
      record.outputTokens = static_cast<int>(reader.completionTokens());
      record.outputTokensFromUsage = true;
    } else {
      record.outputTokensFromUsage = false;
      record.outputTokens =
          config.countTokens ? config.countTokens(record.generatedText) : static_cast<int>(chunks);
    }
    if (reader.promptTokens() >= 0) record.promptTokens = static_cast<int>(reader.promptTokens());
    release(transfer);
    ++finishedCount;
    onFinished(std::move(record));
  }

  std::string describeConnectError(CURLcode code, Connection* connection) {
    long osErrno = 0;
    curl_easy_getinfo(connection->easy, CURLINFO_OS_ERRNO, &osErrno);
    const std::string detail =
        connection->errorBuffer[0] ? connection->errorBuffer : curl_easy_strerror(code);
    const std::string cause = osErrno ? " (" + osErrorText(osErrno) + ")" : "";
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        return "timed out after " + formatSeconds(config.requestTimeoutS) +
               " s (the per-request timeout) while connecting: " + detail;
      case CURLE_COULDNT_CONNECT:
        return "could not connect" + cause + ": " + detail;
      case CURLE_COULDNT_RESOLVE_HOST:
        return "could not resolve the host: " + detail;
      case CURLE_COULDNT_RESOLVE_PROXY:
        return "could not resolve the proxy: " + detail;
      default:
        return std::string("could not connect (") + curl_easy_strerror(code) + ")" + cause + ": " + detail;
    }
  }

  // libcurl reports each connection it finished connecting, or failed to.
  void handleCompletions() {
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      Connection* connection = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &connection);
      const CURLcode result = message->data.result;
      if (result != CURLE_OK) {
        Transfer* transfer = connection->transfer;
        const std::string failure = describeConnectError(result, connection);
        closeConnection(connection);
        if (transfer) finish(transfer, failure);
        continue;
      }
      takeOver(connection);
      if (connection->transfer) {
        writeRequest(connection->transfer);
      } else {
        closeConnection(connection);  // its request went away while it connected
      }
    }
  }

  static std::string formatSeconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", seconds);
    return text;
  }

  void expireDeadlines(Clock::time_point now) {
    while (!deadlines.empty() && deadlines.front().at <= now) {
      const Deadline deadline = deadlines.front();
      deadlines.pop_front();
      Transfer* transfer = deadline.transfer;
      if (transfer->serial != deadline.serial) continue;  // finished already
      if (transfer->connection) closeConnection(transfer->connection);
      finish(transfer, "timed out after " + formatSeconds(config.requestTimeoutS) +
                           " s (the per-request timeout), " +
                           std::to_string(transfer->reader.chunkTimesS().size()) + " chunks received");
    }
  }

  void armTimer(Clock::time_point deadline) {
    // A timer already set to fire no later than needed will do: at worst poll() wakes early once and
    // finds nothing due. Re-arming on every poll (libcurl moves its deadline by microseconds with each
    // call) would cost a system call per chunk.
    if (armedDeadline && *armedDeadline <= deadline) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
    itimerspec spec{};
    spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;  // 0 disarms
    timerfd_settime(timerFd, TFD_TIMER_ABSTIME, &spec, nullptr);
    armedDeadline = deadline;
  }

  void runCurlTimeoutIfDue(Clock::time_point now) {
    if (!curlDeadline || now < *curlDeadline) return;
    curlDeadline.reset();
    int running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
  }

  void poll(Clock::time_point wakeAt, bool returnOnFinish) {
    pollTiming.entered = Clock::now();
    Clock::time_point deadline = wakeAt;
    if (curlDeadline && *curlDeadline < deadline) deadline = *curlDeadline;
    if (!deadlines.empty() && deadlines.front().at < deadline) deadline = deadlines.front().at;
    int timeoutMs = -1;
    if (deadline <= Clock::now()) {
      timeoutMs = 0;
    } else if (deadline != Clock::time_point::max()) {
      armTimer(deadline);
    }
    int ready = epoll_wait(epollFd, events, kMaxEpollEvents, timeoutMs);
    if (ready < 0) ready = 0;  // EINTR: just look again
    pollTiming.woke = Clock::now();
    const std::uint64_t finishedBefore = finishedCount;
    for (int i = 0; i < ready; ++i) {
      // The caller has a request to send: return to it at once. The sockets not handled yet are still
      // readable, so the next epoll_wait (level-triggered) reports them again; nothing is lost.
      if (i > 0 && (lastReadAt >= wakeAt || (returnOnFinish && finishedCount != finishedBefore))) break;
      const int fd = events[i].data.fd;
      const std::uint32_t flags = events[i].events;
      std::uint64_t counter = 0;
      if (fd == timerFd) {
        if (::read(timerFd, &counter, sizeof counter) > 0) armedDeadline.reset();
      } else if (fd == wakeFd) {
        [[maybe_unused]] const auto ignored = ::read(wakeFd, &counter, sizeof counter);
      } else if (Connection* connection = owner(fd)) {
        Transfer* transfer = connection->transfer;
        if ((flags & EPOLLOUT) && transfer && transfer->sent < transfer->request.size() &&
            !writeRequest(transfer)) {
          continue;
        }
        if (flags & (EPOLLIN | EPOLLHUP | EPOLLERR | EPOLLRDHUP)) onReadable(connection);
      } else {
        int action = 0;
        if (flags & (EPOLLIN | EPOLLHUP)) action |= CURL_CSELECT_IN;
        if (flags & EPOLLOUT) action |= CURL_CSELECT_OUT;
        if (flags & EPOLLERR) action |= CURL_CSELECT_ERR;
        int running = 0;
        curl_multi_socket_action(multi, fd, action, &running);
      }
    }
    const Clock::time_point now = Clock::now();
    runCurlTimeoutIfDue(now);
    handleCompletions();
    expireDeadlines(now);
    pollTiming.returned = Clock::now();
  }

  void abortAll(std::string_view reason) {
    const std::vector<Transfer*> aborted = active;
    for (Transfer* transfer : aborted) {
      if (transfer->connection) closeConnection(transfer->connection);
      finish(transfer, std::string(reason));
    }
  }
};

StreamClient::StreamClient(StreamClientConfig config, FinishedHandler onFinished)
    : m_impl(std::make_unique<Impl>(std::move(config), std::move(onFinished))) {}

StreamClient::~StreamClient() = default;

void StreamClient::setOrigin(Clock::time_point origin) {
  m_impl->origin = origin;
}
StreamClient::Clock::time_point StreamClient::origin() const {
  return m_impl->origin;
}
StreamClient::Clock::time_point StreamClient::send(std::string_view body, RequestRecord record) {
  return m_impl->send(body, std::move(record));
}
void StreamClient::poll(Clock::time_point wakeAt, bool returnOnFinish) {
  m_impl->poll(wakeAt, returnOnFinish);
}

StreamClient::PollTiming StreamClient::lastPollTiming() const {
  return m_impl->pollTiming;
}

void StreamClient::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto ignored = ::write(m_impl->wakeFd, &one, sizeof one);
}

void StreamClient::abortAll(std::string_view reason) {
  m_impl->abortAll(reason);
}
std::size_t StreamClient::inFlight() const {
  return m_impl->active.size();
}

}  // namespace ayar
