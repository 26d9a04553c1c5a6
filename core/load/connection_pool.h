#pragma once

#include <curl/curl.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/load/event_loop.h"

namespace ayar {

struct Connection;

// What a connection carries: the client's request on it. The pool unlinks both sides when it closes
// the connection.
struct ConnectionTenant {
  Connection* connection = nullptr;
};

// One keep-alive connection. Its easy handle stays in the multi handle for the connection's whole
// life: removing it is what closes a CONNECT_ONLY connection.
struct Connection {
  CURL* easy = nullptr;
  int fd = -1;                  // known once connected; from then on the client watches it
  bool carriedRequest = false;  // it has finished a request before, so the server may have closed it
  bool idle = false;
  bool watchingWrite = false;
  ConnectionTenant* tenant = nullptr;
  std::size_t index = 0;  // in the pool's list
  char errorBuffer[CURL_ERROR_SIZE] = {};
};

// The load client's connections to one endpoint. libcurl's multi handle establishes each (name
// resolution, non-blocking connect, TLS, a proxy's CONNECT tunnel, TCP_NODELAY) with
// CURLOPT_CONNECT_ONLY and keeps it until the pool closes it; once connected, the socket is the
// client's: the pool watches it on the event loop for reading, and the client reads and writes it.
// Idle connections are kept up to a limit for the next request.
class ConnectionPool {
 public:
  using Clock = std::chrono::steady_clock;

  // `url`: the endpoint; `connectTimeoutS` bounds a connect (0: none); `idleLimit`: idle connections
  // kept (at least 1). Throws ayar::Error when libcurl cannot start.
  ConnectionPool(EventLoop& loop, std::string url, double connectTimeoutS, std::size_t idleLimit);
  ~ConnectionPool();  // closes every connection
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // Starts a new connection for `tenant`; handleConnects() says when it is connected or failed. Null
  // with `error` set when libcurl cannot start one.
  Connection* open(ConnectionTenant* tenant, std::string& error);
  // An idle keep-alive connection given to `tenant`; null when none is idle.
  Connection* reuse(ConnectionTenant* tenant);
  // The tenant is done with its connection: kept idle when `reusable` and the pool has room, else
  // closed.
  void release(Connection* connection, bool reusable);
  void close(Connection* connection);

  // The connection that owns a socket the client watches; null for libcurl's own sockets.
  Connection* owner(int fd) const {
    return fd >= 0 && static_cast<std::size_t>(fd) < m_byFd.size() ? m_byFd[static_cast<std::size_t>(fd)]
                                                                   : nullptr;
  }
  // Watch the connection's socket for writing too (a request the socket did not take whole), or not.
  void watchWrite(Connection* connection, bool write);

  // A ready socket of libcurl's (one it is connecting).
  void onCurlSocket(int fd, std::uint32_t events);
  // libcurl's next deadline of its own (connect timeouts, retries); none when it has none.
  std::optional<Clock::time_point> curlDeadline() const { return m_curlDeadline; }
  // Lets libcurl act on its deadline when it is due.
  void runCurlTimeoutIfDue(Clock::time_point now);
  // Each connection libcurl finished setting up since the last call: `connected(connection)` once its
  // socket is the client's, or, once the pool has closed one that failed, `failed(tenant, why)` for
  // the tenant it had. A connection whose tenant left while it connected is closed.
  void handleConnects(const std::function<void(Connection*)>& connected,
                      const std::function<void(ConnectionTenant*, const std::string&)>& failed);

 private:
  static int onSocket(CURL*, curl_socket_t socket, int what, void* userp, void*);
  static int onTimer(CURLM*, long timeoutMs, void* userp);
  bool takeOver(Connection* connection);
  std::string describeConnectError(CURLcode code, Connection* connection) const;

  EventLoop& m_loop;
  const std::string m_url;
  const double m_connectTimeoutS;
  const std::size_t m_idleLimit;
  std::string m_noProxy;
  CURLM* m_multi = nullptr;
  std::optional<Clock::time_point> m_curlDeadline;
  std::vector<std::unique_ptr<Connection>> m_connections;
  std::vector<Connection*> m_idle;
  std::vector<Connection*> m_byFd;  // connections the client reads, by socket
};

}  // namespace ayar
