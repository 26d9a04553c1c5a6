#include "engine/server/http_server.h"

#include <sys/socket.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/error.h"
#include "engine/server/api_error.h"

namespace ayar::engine {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;
using Socket = tcp::socket::rebind_executor<asio::io_context::executor_type>::other;

namespace {

constexpr auto kSweepInterval = std::chrono::milliseconds(200);
// After a response that closes the connection, unread request bytes are drained for this long so that
// closing does not reset the connection before the client has read the response. The time counts from
// the response, whatever the client sends meanwhile.
constexpr auto kLingerTime = std::chrono::seconds(2);
// While a response is being made, what the client sends early (its next requests) is read and kept up
// to this many bytes; beyond them the rest waits in the socket, and only a reset is watched for.
constexpr std::size_t kMaxPipelinedBytes = std::size_t{64} << 10;
constexpr std::size_t kWatchReadBytes = 4096;
// Asks a client that has half-closed whether it is still there to read: a client that closed its socket
// answers any bytes with a reset, one that only shut down its sending side takes them. A client must
// accept 1xx responses before the final one (RFC 9110, section 15.2), so this one is harmless.
constexpr std::string_view kPresenceProbe = "HTTP/1.1 100 Continue\r\n\r\n";

std::string_view reasonPhrase(int status) {
  const auto reason = http::obsolete_reason(static_cast<http::status>(status));
  return {reason.data(), reason.size()};
}

// "1a2b\r\n": the size line of one chunk of a chunked body.
void appendChunkSizeLine(std::string& out, std::size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  char digits[2 * sizeof(std::size_t)];
  std::size_t count = 0;
  do {
    digits[count++] = kHex[size & 0xf];
    size >>= 4;
  } while (size != 0);
  while (count > 0)
    out += digits[--count];
  out += "\r\n";
}

void appendStatusLine(std::string& out, int status) {
  out += "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out += reasonPhrase(status);
  out += "\r\n";
}

}  // namespace

class HttpSession;

struct Worker {
  explicit Worker(std::size_t workerIndex) : index(workerIndex), io(1), sweeper(io) {}
  std::size_t index;
  // Declared before io: destroying io destroys queued handlers, and with them sessions that unregister.
  std::unordered_set<HttpSession*> sessions;  // for the deadline sweep and stop(); only this thread
  asio::io_context io;
  asio::steady_timer sweeper;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> guard;
};

struct HttpServer::Impl {
  Impl(const HttpServerConfig& serverConfig, HttpHandler requestHandler);

  void accept();
  void startSession(Worker& worker, Socket socket);
  void sweep(Worker& worker);
  void closeAll(Worker& worker);

  // Declaration order is destruction order reversed: sessions destroyed with the workers' io_contexts
  // still use the counters, and the acceptor must go before its io_context.
  HttpServerConfig config;
  HttpHandler handler;
  std::atomic<bool> stopping{false};
  std::atomic<std::int64_t> openConnections{0};
  std::size_t nextWorker = 0;
  std::uint16_t boundPort = 0;
  SteadyClock::time_point lastAcceptWarning{};
  std::vector<std::unique_ptr<Worker>> workers;
  tcp::acceptor acceptor;
  asio::steady_timer acceptRetry;
};

class HttpSession final : public HttpConnection, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(HttpServer::Impl& server, Worker& worker, Socket socket)
      : m_server(server), m_worker(worker), m_socket(std::move(socket)) {
    m_worker.sessions.insert(this);
    m_server.openConnections.fetch_add(1, std::memory_order_relaxed);
  }

  ~HttpSession() override {
    m_worker.sessions.erase(this);
    m_server.openConnections.fetch_sub(1, std::memory_order_relaxed);
  }

  void start() { readRequest(); }

  // HttpConnection
  void respond(int status, std::string_view contentType, std::string body,
               std::string_view extraHeaders) override;
  void beginStream(std::string_view contentType) override;
  std::string& streamBuffer() override { return m_streamData; }
  void flush() override { startWrite(); }
  void endStream() override;
  void setCancelHandler(std::function<void()> onCancel) override { m_onCancel = std::move(onCancel); }
  std::size_t worker() const override { return m_worker.index; }
  bool open() const override { return !m_closed; }

  SteadyClock::time_point deadline() const { return m_deadline; }
  void close();

 private:
  void readRequest();
  void onHeader(beast::error_code ec);
  bool refuseHeader(const http::request_parser<http::string_body>::value_type& request);
  void readBody();
  void onRequest(beast::error_code ec);
  void onReadError(beast::error_code ec);
  void respondAndClose(int status, std::string message);
  void appendHead(int status, std::string_view contentType, std::string_view extraHeaders);
  void startWrite();
  void onWrite(beast::error_code ec);
  void finishResponse();
  void watchForDisconnect();
  void onWatchReadable(std::uint64_t generation, beast::error_code ec);
  void watchForReset();
  void probeHalfClosedClient();
  void stopWatching();
  void lingerAndClose();
  void drainUntilClosed();
  void cancelResponse();

  HttpServer::Impl& m_server;
  Worker& m_worker;
  Socket m_socket;
  beast::flat_buffer m_readBuffer;
  std::optional<http::request_parser<http::string_body>> m_parser;
  SteadyClock::time_point m_deadline = SteadyClock::time_point::max();

  bool m_closed = false;
  bool m_responding = false;  // a request was handed to the handler and is not answered yet
  bool m_keepAlive = true;
  bool m_http10 = false;
  bool m_headRequest = false;  // HEAD: the response has its head only
  bool m_headSent = false;
  bool m_chunked = false;
  bool m_endQueued = false;  // the response is complete once what is queued has been written
  bool m_writing = false;
  std::string m_head;         // status line and headers not yet written
  std::string m_streamData;   // body bytes not yet written
  std::string m_writePrefix;  // in flight: head + chunk size line
  std::string m_writeData;    // in flight: body bytes
  std::string_view m_writeSuffix;
  bool m_writeEnds = false;

  // The disconnect watch (see watchForDisconnect). At most one of m_watchRead and m_watchingForReset is
  // pending; a cancelled one finds m_watchGeneration changed and does nothing.
  bool m_watchRead = false;  // a wait for readable bytes
  bool m_watchingForReset = false;
  bool m_peerShutDown = false;  // the client sent its end of stream (it closed, or half-closed)
  bool m_probeSent = false;     // kPresenceProbe was sent for this request
  std::uint64_t m_watchGeneration = 0;
  std::array<char, 4096> m_lingerBuffer{};
  std::function<void()> m_onCancel;
};

void HttpSession::readRequest() {
  if (m_closed) return;
  // A client that half-closed has had all its requests answered once nothing of theirs is left.
  if (m_peerShutDown && m_readBuffer.size() == 0) return close();
  m_parser.emplace();
  m_parser->header_limit(static_cast<std::uint32_t>(m_server.config.maxHeaderBytes));
  m_parser->body_limit(static_cast<std::uint64_t>(m_server.config.maxBodyBytes));
  m_headRequest = false;
  m_deadline = SteadyClock::now() + m_server.config.readTimeout;
  http::async_read_header(
      m_socket, m_readBuffer, *m_parser,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
}

void HttpSession::onHeader(beast::error_code ec) {
  if (ec) return onReadError(ec);
  const auto& request = m_parser->get();
  m_headRequest = request.method() == http::verb::head;
  m_http10 = request.version() < 11;
  if (refuseHeader(request)) return;
  const auto expect = request[http::field::expect];
  if (!expect.empty() && beast::iequals(expect, "100-continue")) {
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    asio::async_write(m_socket, asio::buffer(kContinue.data(), kContinue.size()),
                      [self = shared_from_this()](beast::error_code writeError, std::size_t) {
                        if (writeError) return self->close();
                        self->readBody();
                      });
    return;
  }
  readBody();
}

// What RFC 9112 and RFC 9110 make a server refuse before it reads a body. Answers (and closes: the
// body is not read) and returns true for a refused request.
bool HttpSession::refuseHeader(const http::request_parser<http::string_body>::value_type& request) {
  const std::size_t hosts = request.count(http::field::host);
  if (hosts > 1) {
    respondAndClose(400, "The request has " + std::to_string(hosts) +
                             " Host headers: send exactly one (RFC 9112, section 3.2).");
    return true;
  }
  if (hosts == 0 && !m_http10) {
    respondAndClose(400,
                    "An HTTP/1.1 request needs a Host header: send one, e.g. 'Host: 127.0.0.1' "
                    "(RFC 9112, section 3.2).");
    return true;
  }
  if (const std::size_t keys = request.count(http::field::authorization); keys > 1) {
    respondAndClose(400,
                    "The request has " + std::to_string(keys) + " Authorization headers: send exactly one.");
    return true;
  }
  // The codings of every Transfer-Encoding line in order, as one list (empty list elements dropped).
  std::vector<std::string> codings;
  for (auto [field, end] = request.equal_range(http::field::transfer_encoding); field != end; ++field) {
    const std::string_view value(field->value().data(), field->value().size());
    for (std::size_t at = 0; at <= value.size();) {
      std::size_t comma = value.find(',', at);
      if (comma == std::string_view::npos) comma = value.size();
      std::string_view coding = value.substr(at, comma - at);
      while (!coding.empty() && (coding.front() == ' ' || coding.front() == '\t'))
        coding.remove_prefix(1);
      while (!coding.empty() && (coding.back() == ' ' || coding.back() == '\t'))
        coding.remove_suffix(1);
      if (!coding.empty()) codings.emplace_back(coding);
      at = comma + 1;
    }
  }
  if (codings.empty()) return false;
  std::string named;
  for (const std::string& coding : codings)
    named += (named.empty() ? "" : ", ") + coding;
  if (m_http10) {
    respondAndClose(400, "An HTTP/1.0 request cannot have a Transfer-Encoding (" + named +
                             "): send a Content-Length instead (RFC 9112, section 6.1).");
    return true;
  }
  if (!beast::iequals(codings.back(), "chunked")) {
    respondAndClose(400, "The request's Transfer-Encoding (" + named +
                             ") does not end with chunked, so its body has no known length: send a "
                             "Content-Length or chunked (RFC 9112, section 6.3).");
    return true;
  }
  if (codings.size() > 1) {
    respondAndClose(501, "The request's Transfer-Encoding (" + named +
                             ") is not implemented: ayar-engine reads a plain body with a "
                             "Content-Length, or chunked alone; send the body without other codings.");
    return true;
  }
  return false;
}

void HttpSession::readBody() {
  if (m_closed) return;
  http::async_read(m_socket, m_readBuffer, *m_parser,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onRequest(ec); });
}

void HttpSession::onReadError(beast::error_code ec) {
  if (m_closed) return;
  if (ec == http::error::body_limit) {
    return respondAndClose(413, "The request body is larger than the server accepts (" +
                                    std::to_string(m_server.config.maxBodyBytes) +
                                    " bytes, --max-request-body-bytes): send a smaller request.");
  }
  if (ec == http::error::header_limit) {
    return respondAndClose(431, "The request headers are larger than the server accepts (" +
                                    std::to_string(m_server.config.maxHeaderBytes) + " bytes).");
  }
  if (ec == http::error::partial_message) {
    // The client ended its side in the middle of a request; it may still read the answer.
    m_peerShutDown = true;
    if (m_parser && m_parser->is_header_done()) {
      if (const auto length = m_parser->content_length()) {
        const std::uint64_t received = *length - m_parser->content_length_remaining().value_or(0);
        return respondAndClose(400, "The request body ended after " + std::to_string(received) + " of the " +
                                        std::to_string(*length) +
                                        " bytes its Content-Length announced: send the whole body.");
      }
      return respondAndClose(400,
                             "The chunked request body ended before its last chunk: send the whole "
                             "body, ended by a chunk of size 0.");
    }
    return respondAndClose(400,
                           "The request ended in the middle of its header: send the whole header, "
                           "ended by an empty line.");
  }
  if (ec.category() == beast::error_code(http::error::bad_target).category() &&
      ec != http::error::end_of_stream) {
    return respondAndClose(400, "The request is not valid HTTP/1.1 (" + ec.message() + ").");
  }
  close();  // end of stream, reset, timeout: nothing to answer
}

void HttpSession::onRequest(beast::error_code ec) {
  if (ec) return onReadError(ec);
  auto& parsed = m_parser->get();
  HttpRequest request;
  request.receivedAt = SteadyClock::now();
  request.method = std::string(parsed.method_string());
  const std::string_view target(parsed.target().data(), parsed.target().size());
  request.path = std::string(target.substr(0, target.find('?')));
  const auto authorization = parsed[http::field::authorization];
  request.authorization.assign(authorization.data(), authorization.size());
  request.body = std::move(parsed.body());
  m_keepAlive = parsed.keep_alive();
  m_http10 = parsed.version() < 11;
  m_headRequest = parsed.method() == http::verb::head;
  m_parser.reset();

  m_deadline = SteadyClock::time_point::max();  // the engine may take its time
  m_responding = true;
  m_headSent = false;
  m_chunked = false;
  m_endQueued = false;
  m_probeSent = false;
  m_onCancel = nullptr;
  watchForDisconnect();
  try {
    m_server.handler(shared_from_this(), std::move(request));
  } catch (const std::exception& error) {
    // A handler bug must not take the server down; answer 500 when nothing was sent yet.
    std::fprintf(stderr, "ERROR ayar-engine: request handler failed: %s\n", error.what());
    if (m_responding && !m_headSent && m_head.empty()) {
      ApiError internal{
          500, "Internal server error: " + std::string(error.what()), "InternalServerError", {}};
      respond(500, "application/json", internal.toJson(), {});
    } else {
      close();
    }
  }
}

void HttpSession::respondAndClose(int status, std::string message) {
  m_keepAlive = false;
  m_responding = true;
  m_headSent = false;
  m_chunked = false;
  const char* type = status == 413   ? "PayloadTooLarge"
                     : status == 501 ? "NotImplementedError"
                                     : "BadRequestError";
  ApiError error{status, std::move(message), type, {}};
  respond(status, "application/json", error.toJson(), {});
}

void HttpSession::appendHead(int status, std::string_view contentType, std::string_view extraHeaders) {
  appendStatusLine(m_head, status);
  m_head += "Content-Type: ";
  m_head += contentType;
  m_head += "\r\n";
  if (!m_keepAlive) m_head += "Connection: close\r\n";
  m_head += extraHeaders;
}

void HttpSession::respond(int status, std::string_view contentType, std::string body,
                          std::string_view extraHeaders) {
  assert(m_responding && !m_headSent && m_head.empty());
  if (m_closed) return;
  appendHead(status, contentType, extraHeaders);
  m_head += "Content-Length: ";
  m_head += std::to_string(body.size());
  m_head += "\r\n\r\n";
  if (!m_headRequest) m_streamData = std::move(body);  // HEAD: the head GET would have, without the body
  m_endQueued = true;
  startWrite();
}

void HttpSession::beginStream(std::string_view contentType) {
  assert(m_responding && !m_headSent && m_head.empty());
  if (m_http10) {
    // HTTP/1.0 has no chunked encoding: the body runs until the connection closes.
    m_keepAlive = false;
    appendHead(200, contentType, "Cache-Control: no-cache\r\n\r\n");
    return;
  }
  m_chunked = true;
  appendHead(200, contentType, "Cache-Control: no-cache\r\n");
  m_head += "Transfer-Encoding: chunked\r\n\r\n";
}

void HttpSession::endStream() {
  assert(m_responding);
  m_endQueued = true;
  startWrite();
}

void HttpSession::startWrite() {
  if (m_closed || m_writing) return;
  const bool ends = m_endQueued;
  if (m_head.empty() && m_streamData.empty() && !ends) return;

  m_writePrefix.clear();
  m_writePrefix.swap(m_head);
  m_writeData.clear();
  m_writeData.swap(m_streamData);
  if (m_headRequest) m_writeData.clear();
  m_writeSuffix = {};
  if (m_chunked && !m_headRequest) {
    if (!m_writeData.empty()) {
      appendChunkSizeLine(m_writePrefix, m_writeData.size());
      m_writeSuffix = ends ? std::string_view("\r\n0\r\n\r\n") : std::string_view("\r\n");
    } else if (ends) {
      m_writeSuffix = "0\r\n\r\n";
    }
  }
  m_writeEnds = ends;
  m_endQueued = false;
  m_headSent = true;
  m_writing = true;
  m_deadline = SteadyClock::now() + m_server.config.writeTimeout;
  const std::array<asio::const_buffer, 3> buffers = {
      asio::buffer(m_writePrefix), asio::buffer(m_writeData),
      asio::buffer(m_writeSuffix.data(), m_writeSuffix.size())};
  asio::async_write(m_socket, buffers,
                    [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onWrite(ec); });
}

void HttpSession::onWrite(beast::error_code ec) {
  m_writing = false;
  if (ec) return close();
  m_deadline = SteadyClock::time_point::max();
  if (m_writeEnds) return finishResponse();
  startWrite();  // what the handler appended meanwhile
}

void HttpSession::finishResponse() {
  m_responding = false;
  m_onCancel = nullptr;
  m_chunked = false;
  // Release what a long response made these buffers hold.
  if (m_writeData.capacity() > (std::size_t{1} << 16)) std::string().swap(m_writeData);
  if (!m_keepAlive) return lingerAndClose();
  stopWatching();
  readRequest();
}

// While a request is answered, the connection goes on reading, so that a client that goes away cancels
// its request instead of leaving it to run:
// - bytes the client sends early (its next requests) are kept for later, up to kMaxPipelinedBytes;
// - a reset, or any error on the socket, cancels the response;
// - an end of stream does not: the client may have half-closed after a complete request and still be
//   reading. Whether it is still there shows when something is written to it: a closed socket answers
//   with a reset. A streamed response writes as it goes; before anything of the response has been
//   written, an HTTP/1.1 client is sent kPresenceProbe. An HTTP/1.0 client cannot be sent a 1xx, so
//   its request runs to its end, and the final write finds out.
// The watch waits for readiness and then reads without blocking, so that cancelling it when the
// response is done never loses bytes a read had taken but not yet handed over.
void HttpSession::watchForDisconnect() {
  if (m_closed || !m_responding || m_watchRead) return;
  if (m_peerShutDown) {
    watchForReset();
    return probeHalfClosedClient();
  }
  if (m_readBuffer.size() >= kMaxPipelinedBytes) return watchForReset();
  m_watchRead = true;
  m_socket.async_wait(Socket::wait_read,
                      [self = shared_from_this(), generation = m_watchGeneration](beast::error_code ec) {
                        self->onWatchReadable(generation, ec);
                      });
}

void HttpSession::onWatchReadable(std::uint64_t generation, beast::error_code ec) {
  if (generation != m_watchGeneration) return;  // cancelled
  m_watchRead = false;
  if (m_closed) return;
  if (ec) return close();
  const auto space = m_readBuffer.prepare(kWatchReadBytes);
  const ssize_t received = ::recv(m_socket.native_handle(), space.data(), space.size(), MSG_DONTWAIT);
  if (received > 0) {
    m_readBuffer.commit(static_cast<std::size_t>(received));
  } else if (received == 0) {
    m_peerShutDown = true;
  } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
    return close();  // reset: the client is gone
  }
  watchForDisconnect();
}

void HttpSession::watchForReset() {
  if (m_watchingForReset) return;
  m_watchingForReset = true;
  m_socket.async_wait(Socket::wait_error,
                      [self = shared_from_this(), generation = m_watchGeneration](beast::error_code ec) {
                        if (generation != self->m_watchGeneration) return;  // cancelled
                        self->m_watchingForReset = false;
                        if (!ec) self->close();  // reset or error: the client is gone
                      });
}

void HttpSession::probeHalfClosedClient() {
  if (m_http10 || m_headSent || m_writing || m_probeSent || m_closed) return;
  m_probeSent = true;
  m_writing = true;
  m_deadline = SteadyClock::now() + m_server.config.writeTimeout;
  asio::async_write(m_socket, asio::buffer(kPresenceProbe.data(), kPresenceProbe.size()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      self->m_writing = false;
                      if (ec || self->m_closed) return self->close();
                      self->m_deadline = SteadyClock::time_point::max();
                      self->startWrite();  // what the handler queued meanwhile
                    });
}

void HttpSession::stopWatching() {
  if (!m_watchRead && !m_watchingForReset) return;
  m_watchRead = false;
  m_watchingForReset = false;
  ++m_watchGeneration;
  beast::error_code ignored;
  m_socket.cancel(ignored);  // only the watch is pending: the response is fully written
}

void HttpSession::lingerAndClose() {
  stopWatching();
  beast::error_code ignored;
  m_socket.shutdown(Socket::shutdown_send, ignored);
  m_deadline = SteadyClock::now() + kLingerTime;
  drainUntilClosed();
}

void HttpSession::drainUntilClosed() {
  m_socket.async_read_some(asio::buffer(m_lingerBuffer),
                           [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             if (ec) return self->close();
                             self->drainUntilClosed();
                           });
}

void HttpSession::cancelResponse() {
  if (!m_responding) return;
  m_responding = false;
  auto onCancel = std::move(m_onCancel);
  m_onCancel = nullptr;
  if (onCancel) onCancel();
}

void HttpSession::close() {
  if (m_closed) return;
  m_closed = true;
  m_deadline = SteadyClock::time_point::max();
  beast::error_code ignored;
  m_socket.shutdown(Socket::shutdown_both, ignored);
  m_socket.close(ignored);
  cancelResponse();
}

HttpServer::Impl::Impl(const HttpServerConfig& serverConfig, HttpHandler requestHandler)
    : config(serverConfig),
      handler(std::move(requestHandler)),
      workers([&] {
        std::vector<std::unique_ptr<Worker>> list;
        for (int i = 0; i < std::max(1, serverConfig.ioThreads); ++i) {
          list.push_back(std::make_unique<Worker>(static_cast<std::size_t>(i)));
        }
        return list;
      }()),
      acceptor(workers.front()->io),
      acceptRetry(workers.front()->io) {}

void HttpServer::Impl::accept() {
  Worker& target = *workers[nextWorker];
  nextWorker = (nextWorker + 1) % workers.size();
  acceptor.async_accept(target.io.get_executor(), [this, &target](beast::error_code ec, Socket socket) {
    if (stopping.load() || !acceptor.is_open()) return;
    if (ec) {
      // Out of file descriptors (or a transient error): wait a little instead of spinning, and say so
      // at most once a second.
      const auto now = SteadyClock::now();
      if (now - lastAcceptWarning > std::chrono::seconds(1)) {
        lastAcceptWarning = now;
        std::fprintf(stderr, "WARNING ayar-engine: accepting a connection failed (%s); retrying\n",
                     ec.message().c_str());
      }
      acceptRetry.expires_after(std::chrono::milliseconds(100));
      acceptRetry.async_wait([this](beast::error_code timerError) {
        if (!timerError) accept();
      });
      return;
    }
    asio::post(target.io,
               [this, &target, s = std::move(socket)]() mutable { startSession(target, std::move(s)); });
    accept();
  });
}

void HttpServer::Impl::startSession(Worker& worker, Socket socket) {
  if (stopping.load()) return;  // the socket closes as it goes out of scope
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);  // SSE chunks are small and must not wait for Nagle
  std::make_shared<HttpSession>(*this, worker, std::move(socket))->start();
}

void HttpServer::Impl::sweep(Worker& worker) {
  const auto now = SteadyClock::now();
  std::vector<std::shared_ptr<HttpSession>> expired;
  for (HttpSession* session : worker.sessions) {
    if (session->deadline() <= now) expired.push_back(session->shared_from_this());
  }
  for (const auto& session : expired)
    session->close();
  worker.sweeper.expires_after(kSweepInterval);
  worker.sweeper.async_wait([this, &worker](beast::error_code ec) {
    if (!ec && !stopping.load()) sweep(worker);
  });
}

void HttpServer::Impl::closeAll(Worker& worker) {
  std::vector<std::shared_ptr<HttpSession>> sessions;
  for (HttpSession* session : worker.sessions)
    sessions.push_back(session->shared_from_this());
  for (const auto& session : sessions)
    session->close();
  worker.sweeper.cancel();
  worker.guard.reset();
}

HttpServer::HttpServer(const HttpServerConfig& config, HttpHandler handler)
    : m_impl(std::make_unique<Impl>(config, std::move(handler))) {
  beast::error_code ec;
  const auto address = asio::ip::make_address(config.host, ec);
  if (ec) {
    throw Error("--host " + config.host + " is not an IP address: give one such as 127.0.0.1 or 0.0.0.0.");
  }
  const tcp::endpoint endpoint(address, config.port);
  auto& acceptor = m_impl->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw Error("Cannot listen on " + config.host + ":" + std::to_string(config.port) + " (" + ec.message() +
                "): choose another --port or stop what uses it");
  }
  m_impl->boundPort = acceptor.local_endpoint().port();
}

HttpServer::~HttpServer() = default;

std::uint16_t HttpServer::port() const {
  return m_impl->boundPort;
}

std::size_t HttpServer::workerCount() const {
  return m_impl->workers.size();
}

std::int64_t HttpServer::openConnections() const {
  return m_impl->openConnections.load(std::memory_order_relaxed);
}

void HttpServer::post(std::size_t worker, std::function<void()> task) {
  asio::post(m_impl->workers[worker]->io, std::move(task));
}

void HttpServer::run() {
  Impl& impl = *m_impl;
  for (auto& worker : impl.workers) {
    worker->guard.emplace(worker->io.get_executor());
    Worker* target = worker.get();
    asio::post(worker->io, [&impl, target] { impl.sweep(*target); });
  }
  asio::post(impl.workers.front()->io, [&impl] { impl.accept(); });
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < impl.workers.size(); ++i) {
    threads.emplace_back([worker = impl.workers[i].get()] { worker->io.run(); });
  }
  impl.workers.front()->io.run();
  for (auto& thread : threads)
    thread.join();
}

void HttpServer::stop() {
  Impl& impl = *m_impl;
  if (impl.stopping.exchange(true)) return;
  asio::post(impl.workers.front()->io, [&impl] {
    beast::error_code ignored;
    impl.acceptor.close(ignored);
    impl.acceptRetry.cancel();
  });
  for (auto& worker : impl.workers) {
    Worker* target = worker.get();
    asio::post(worker->io, [&impl, target] { impl.closeAll(*target); });
  }
}

}  // namespace ayar::engine
