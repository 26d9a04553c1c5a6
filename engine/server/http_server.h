#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ayar::engine {

struct HttpServerConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8000;  // 0: any free port (see HttpServer::port())
  int ioThreads = 1;
  std::size_t maxBodyBytes = std::size_t{16} << 20;  // larger bodies get 413
  std::size_t maxHeaderBytes = std::size_t{16} << 10;
  // The time a connection may take to deliver one complete request, idle keep-alive time included:
  // a silent or slow client is disconnected after it.
  std::chrono::milliseconds readTimeout{30000};
  // The time one write may take: a client that stops reading is disconnected after it.
  std::chrono::milliseconds writeTimeout{30000};
};

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // the target without its query string
  std::string authorization;
  std::string body;
  // When the whole request had been read: the request's arrival for the engine (TTFT counts from it).
  std::chrono::steady_clock::time_point receivedAt = std::chrono::steady_clock::now();
};

// One client connection, as a handler sees it while it answers one request. Every method must be called
// on the connection's io thread (HttpServer::post(worker(), ...) from elsewhere).
class HttpConnection {
 public:
  virtual ~HttpConnection() = default;

  // A complete response; the connection then reads the client's next request.
  virtual void respond(int status, std::string_view contentType, std::string body,
                       std::string_view extraHeaders = {}) = 0;

  // A streamed response (chunked transfer encoding). Append to streamBuffer(), then flush(): a flush
  // while a write is in flight joins the next write, so a connection has at most one write at a time.
  virtual void beginStream(std::string_view contentType) = 0;
  virtual std::string& streamBuffer() = 0;
  virtual void flush() = 0;
  virtual void endStream() = 0;  // flushes what is left and completes the response

  // Called once when the response cannot complete: the client went away, a write timed out, or the
  // server stops. Not called after the response completed.
  virtual void setCancelHandler(std::function<void()> onCancel) = 0;

  virtual std::size_t worker() const = 0;
  virtual bool open() const = 0;
};

using HttpHandler = std::function<void(const std::shared_ptr<HttpConnection>&, HttpRequest&&)>;

// HTTP/1.1 on Boost.Beast: a fixed number of io threads, each with its own io_context and the
// connections assigned to it (no thread per connection, no locks on the request path), keep-alive,
// body and header limits, read and write deadlines checked by a sweep timer per thread.
class HttpServer {
 public:
  // Binds and listens; throws ayar::Error naming the address when it cannot.
  HttpServer(const HttpServerConfig& config, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const;
  std::size_t workerCount() const;
  std::int64_t openConnections() const;

  // Runs `task` on the io thread of `worker`. Thread-safe.
  void post(std::size_t worker, std::function<void()> task);

  // Runs the io threads (the caller's thread is one of them) until stop() and every connection closed.
  void run();
  // Thread-safe: stops accepting, cancels every open response and closes every connection.
  void stop();

  struct Impl;  // defined in http_server.cpp; public so that its connections can name it

 private:
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ayar::engine
