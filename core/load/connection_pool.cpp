#include "core/load/connection_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <system_error>

#include "core/error.h"
#include "core/load/client_text.h"

namespace ayar {
namespace {

void initCurlOnce() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (result != CURLE_OK) {
    throw Error(std::string("libcurl could not be initialised: ") + curl_easy_strerror(result));
  }
}

}  // namespace

ConnectionPool::ConnectionPool(EventLoop& loop, std::string url, double connectTimeoutS,
                               std::size_t idleLimit)
    : m_loop(loop),
      m_url(std::move(url)),
      m_connectTimeoutS(connectTimeoutS),
      m_idleLimit(std::max<std::size_t>(idleLimit, 1)) {
  initCurlOnce();
  m_multi = curl_multi_init();
  if (!m_multi) throw Error("libcurl could not create a multi handle (out of memory?)");
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &ConnectionPool::onSocket);
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &ConnectionPool::onTimer);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
  // libcurl keeps the connections in its cache while the client uses them; it must never prune one
  // to make room, and must not queue connects behind a per-host or total cap (0 = unlimited).
  curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, static_cast<long>(m_idleLimit * 2 + 16));
  curl_multi_setopt(m_multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
  curl_multi_setopt(m_multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);

  // Loopback never goes through a proxy; other hosts follow the environment's no_proxy.
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    if (const char* value = std::getenv(name); value && *value) {
      m_noProxy = value;
      break;
    }
  }
  m_noProxy += m_noProxy.empty() ? "" : ",";
  m_noProxy += "localhost,127.0.0.1,::1";
}

ConnectionPool::~ConnectionPool() {
  while (!m_connections.empty())
    close(m_connections.back().get());
  curl_multi_cleanup(m_multi);
}

// libcurl's interest in its sockets while it connects them. Once a connection is the client's, the
// pool watches the socket itself and libcurl's calls about it are ignored.
int ConnectionPool::onSocket(CURL*, curl_socket_t socket, int what, void* userp, void*) {
  auto* self = static_cast<ConnectionPool*>(userp);
  if (self->owner(socket)) return 0;
  if (what == CURL_POLL_REMOVE) {
    self->m_loop.remove(socket);
    return 0;
  }
  self->m_loop.add(socket, ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u));
  return 0;
}

int ConnectionPool::onTimer(CURLM*, long timeoutMs, void* userp) {
  auto* self = static_cast<ConnectionPool*>(userp);
  if (timeoutMs < 0) {
    self->m_curlDeadline.reset();
  } else {
    self->m_curlDeadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
  }
  return 0;
}

Connection* ConnectionPool::open(ConnectionTenant* tenant, std::string& error) {
  auto connection = std::make_unique<Connection>();
  connection->easy = curl_easy_init();
  if (!connection->easy) {
    error = "libcurl could not create a connection (out of memory?)";
    return nullptr;
  }
  CURL* easy = connection->easy;
  curl_easy_setopt(easy, CURLOPT_URL, m_url.c_str());
  curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));  // ALPN too
  // Through a proxy, the request must reach the server as sent.
  curl_easy_setopt(easy, CURLOPT_HTTPPROXYTUNNEL, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_NOPROXY, m_noProxy.c_str());
  curl_easy_setopt(easy, CURLOPT_PRIVATE, connection.get());
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, connection->errorBuffer);
  if (m_connectTimeoutS > 0) {
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(m_connectTimeoutS * 1000.0 + 0.5));
  }
  const CURLMcode code = curl_multi_add_handle(m_multi, easy);
  if (code != CURLM_OK) {
    curl_easy_cleanup(easy);
    error = std::string("could not start the request: ") + curl_multi_strerror(code);
    return nullptr;
  }
  connection->index = m_connections.size();
  connection->tenant = tenant;
  tenant->connection = connection.get();
  m_connections.push_back(std::move(connection));
  return m_connections.back().get();
}

Connection* ConnectionPool::reuse(ConnectionTenant* tenant) {
  if (m_idle.empty()) return nullptr;
  Connection* connection = m_idle.back();
  m_idle.pop_back();
  connection->idle = false;
  connection->tenant = tenant;
  tenant->connection = connection;
  return connection;
}

void ConnectionPool::release(Connection* connection, bool reusable) {
  if (connection->tenant) connection->tenant->connection = nullptr;
  connection->tenant = nullptr;
  connection->carriedRequest = true;
  if (reusable && m_idle.size() < m_idleLimit) {
    connection->idle = true;
    m_idle.push_back(connection);
  } else {
    close(connection);
  }
}

void ConnectionPool::close(Connection* connection) {
  if (connection->tenant) {
    connection->tenant->connection = nullptr;
    connection->tenant = nullptr;
  }
  if (connection->idle) m_idle.erase(std::find(m_idle.begin(), m_idle.end(), connection));
  if (connection->fd >= 0) {
    m_loop.remove(connection->fd);
    m_byFd[static_cast<std::size_t>(connection->fd)] = nullptr;
  }
  curl_multi_remove_handle(m_multi, connection->easy);  // closes a CONNECT_ONLY connection
  curl_easy_cleanup(connection->easy);
  const std::size_t index = connection->index;
  if (index + 1 != m_connections.size()) {
    m_connections[index] = std::move(m_connections.back());
    m_connections[index]->index = index;
  }
  m_connections.pop_back();
}

void ConnectionPool::watchWrite(Connection* connection, bool write) {
  m_loop.modify(connection->fd, EPOLLIN | EPOLLRDHUP | (write ? EPOLLOUT : 0u));
  connection->watchingWrite = write;
}

// libcurl finished connecting: the socket is the client's from now on. False when libcurl has no socket
// for the connection any more (it found the connection closed already): the socket indexes m_byFd, so a
// missing one must never be taken over.
bool ConnectionPool::takeOver(Connection* connection) {
  curl_socket_t fd = CURL_SOCKET_BAD;
  // CURL_SOCKET_BAD is -1: below zero is no socket.
  if (curl_easy_getinfo(connection->easy, CURLINFO_ACTIVESOCKET, &fd) != CURLE_OK || fd < 0) return false;
  connection->fd = fd;
  if (m_byFd.size() <= static_cast<std::size_t>(fd)) m_byFd.resize(static_cast<std::size_t>(fd) + 1, nullptr);
  m_byFd[static_cast<std::size_t>(fd)] = connection;
  m_loop.add(fd, EPOLLIN | EPOLLRDHUP);
  return true;
}

void ConnectionPool::onCurlSocket(int fd, std::uint32_t events) {
  int action = 0;
  if (events & (EPOLLIN | EPOLLHUP)) action |= CURL_CSELECT_IN;
  if (events & EPOLLOUT) action |= CURL_CSELECT_OUT;
  if (events & EPOLLERR) action |= CURL_CSELECT_ERR;
  int running = 0;
  curl_multi_socket_action(m_multi, fd, action, &running);
}

void ConnectionPool::runCurlTimeoutIfDue(Clock::time_point now) {
  if (!m_curlDeadline || now < *m_curlDeadline) return;
  m_curlDeadline.reset();
  int running = 0;
  curl_multi_socket_action(m_multi, CURL_SOCKET_TIMEOUT, 0, &running);
}

std::string ConnectionPool::describeConnectError(CURLcode code, Connection* connection) const {
  long osErrno = 0;
  curl_easy_getinfo(connection->easy, CURLINFO_OS_ERRNO, &osErrno);
  const std::string detail = connection->errorBuffer[0] ? connection->errorBuffer : curl_easy_strerror(code);
  const std::string cause = osErrno ? " (" + osErrorText(osErrno) + ")" : "";
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return "timed out after " + secondsText(m_connectTimeoutS) +
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

void ConnectionPool::handleConnects(
    const std::function<void(Connection*)>& connected,
    const std::function<void(ConnectionTenant*, const std::string&)>& failed) {
  int left = 0;
  while (CURLMsg* message = curl_multi_info_read(m_multi, &left)) {
    if (message->msg != CURLMSG_DONE) continue;
    Connection* connection = nullptr;
    curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &connection);
    const CURLcode result = message->data.result;
    if (result != CURLE_OK) {
      ConnectionTenant* tenant = connection->tenant;
      const std::string why = describeConnectError(result, connection);
      close(connection);
      if (tenant) failed(tenant, why);
      continue;
    }
    if (!takeOver(connection)) {
      ConnectionTenant* tenant = connection->tenant;
      close(connection);
      if (tenant) failed(tenant, "could not connect: the connection was closed as soon as it was made");
      continue;
    }
    if (connection->tenant) {
      connected(connection);
    } else {
      close(connection);  // its request went away while it connected
    }
  }
}

}  // namespace ayar
