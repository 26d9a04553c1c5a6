#include "core/load/stream_client.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstdio>
#include <deque>
#include <optional>
#include <system_error>

#include "core/load/client_text.h"
#include "core/load/connection_pool.h"
#include "core/load/event_loop.h"
#include "core/load/http_response.h"
#include "core/load/openai_stream.h"
#include "core/load/record_finisher.h"
#include "core/load/request_head.h"

namespace ayar {

namespace {

using Clock = StreamClient::Clock;

// An error body is read only for its message; a server that sends more is cut off here.
constexpr std::size_t kMaxErrorBodyBytes = 64 * 1024;
// One read takes at most this much; a short read means the socket is empty for now.
constexpr std::size_t kReadBufferBytes = 64 * 1024;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

// How the work splits: the ConnectionPool has libcurl establish connections (name resolution,
// non-blocking connect, TLS, a proxy's CONNECT tunnel) and keep each until the pool closes it. The
// client then speaks HTTP/1.1 on the connection itself: it writes the request with curl_easy_send
// and reads the response straight from the socket (through curl_easy_recv under TLS) into
// HttpResponseParser and the SSE reader. This keeps libcurl's transfer machinery off the per-chunk
// path, while libcurl still does everything that is hard to get right about connecting. Each request
// is a Transfer: written, read, then finished into its record (finishRecord), once.
struct StreamClient::Impl {
  struct Transfer final : ConnectionTenant, HttpBodySink {
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
  HttpTarget target;
  std::string headPrefix;  // the request head up to the per-request lines (x-request-id, Content-Length)
  // Destroyed in the reverse order: the pool closes its connections while their transfers and the
  // loop that watches them still exist.
  std::vector<std::unique_ptr<Transfer>> transfers;
  EventLoop loop;
  ConnectionPool pool;
  Clock::time_point origin = Clock::now();
  std::vector<Transfer*> idle;
  std::vector<Transfer*> active;
  std::deque<Deadline> deadlines;  // in send order, which is deadline order: every request has the same limit
  std::uint64_t nextSerial = 0;
  std::uint64_t finishedCount = 0;
  Clock::time_point lastReadAt;  // the clock as last read for a timestamp: poll() reuses it for free
  StreamClient::PollTiming pollTiming;
  std::vector<char> readBuffer = std::vector<char>(kReadBufferBytes);

  Impl(StreamClientConfig clientConfig, FinishedHandler handler)
      : config(std::move(clientConfig)),
        onFinished(std::move(handler)),
        target(parseHttpTarget(config.url)),
        headPrefix(requestHeadPrefix(target, config.apiKey, config.headers)),
        pool(loop, config.url, config.requestTimeoutS, config.connectionPoolSize) {}

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

  Clock::time_point send(std::string_view body, RequestRecord record) {
    Transfer* transfer = acquire();
    transfer->record = std::move(record);
    if (transfer->record.expectedOutputTokens > 0) {
      transfer->reader.reserve(static_cast<std::size_t>(transfer->record.expectedOutputTokens));
    }
    writeRequest(transfer->request, headPrefix, config.requestIdPrefix, transfer->record.index, body);
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
    Connection* connection = fresh ? nullptr : pool.reuse(transfer);
    if (!connection) {
      std::string error;
      connection = pool.open(transfer, error);
      if (!connection) {
        finish(transfer, std::move(error));
        return;
      }
    }
    if (connection->fd >= 0) sendMore(transfer);  // else once libcurl has connected it
  }

  // Writes what the socket takes of the request; returns false when that failed and ended the transfer.
  bool sendMore(Transfer* transfer) {
    Connection* connection = transfer->connection;
    while (transfer->sent < transfer->request.size()) {
      std::size_t written = 0;
      const CURLcode code = curl_easy_send(connection->easy, transfer->request.data() + transfer->sent,
                                           transfer->request.size() - transfer->sent, &written);
      if (code == CURLE_AGAIN) {
        if (!connection->watchingWrite) pool.watchWrite(connection, true);
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
    if (connection->watchingWrite) pool.watchWrite(connection, false);
    return true;
  }

  // One read of the connection's socket into `buffer`: the bytes it got, or that it closed (with the
  // system's error, 0 for an orderly close); none when the socket is empty for now.
  struct Read {
    std::size_t got = 0;
    bool closed = false;
    int osError = 0;
  };
  std::optional<Read> readOnce(Connection* connection, char* buffer, std::size_t capacity) const {
    Read read;
    if (!target.tls) {
      for (;;) {
        const ssize_t n = ::recv(connection->fd, buffer, capacity, 0);
        if (n >= 0) {
          read.got = static_cast<std::size_t>(n);
          read.closed = n == 0;
          return read;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
        if (errno == EINTR) continue;
        read.osError = errno;
        read.closed = true;
        return read;
      }
    }
    const CURLcode code = curl_easy_recv(connection->easy, buffer, capacity, &read.got);
    if (code == CURLE_AGAIN) return std::nullopt;
    if (code != CURLE_OK) {
      long osErrno = 0;
      curl_easy_getinfo(connection->easy, CURLINFO_OS_ERRNO, &osErrno);
      read.osError = static_cast<int>(osErrno);
      read.closed = true;
    } else {
      read.closed = read.got == 0;
    }
    return read;
  }

  // The socket is readable (or closed). Timestamps come first, straight after each read, before parsing.
  void onReadable(Connection* connection) {
    auto* transfer = static_cast<Transfer*>(connection->tenant);
    if (!transfer) {
      pool.close(connection);  // an idle keep-alive connection that the server closed (or spoke on)
      return;
    }
    char* buffer = readBuffer.data();
    const std::size_t capacity = readBuffer.size();
    for (;;) {
      const std::optional<Read> read = readOnce(connection, buffer, capacity);
      if (!read) return;
      const Clock::time_point now = Clock::now();
      lastReadAt = now;
      if (read->closed) {
        connectionEnded(transfer, read->osError);
        return;
      }
      transfer->arrivalS = secondsBetween(transfer->start, now);
      const std::size_t used = transfer->response.feed(std::string_view(buffer, read->got), *transfer);
      if (transfer->response.failed()) {
        pool.close(connection);
        finish(transfer, "the server's response is not valid HTTP/1.1: " + transfer->response.error());
        return;
      }
      if (transfer->response.done()) {
        pool.release(connection, /*reusable=*/used == read->got && transfer->response.keepAlive());
        finish(transfer, std::nullopt);
        return;
      }
      // Plain sockets are level-triggered: what a short read left is reported again. TLS may hold
      // decrypted bytes that the socket no longer shows, so it is read until it would block.
      if (!target.tls && read->got < capacity) return;
    }
  }

  // The connection closed or failed under a transfer.
  void connectionEnded(Transfer* transfer, int osError) {
    const bool carriedRequest = transfer->connection->carriedRequest;
    pool.close(transfer->connection);
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

  // Turns what the transfer collected into its record, recycles the transfer and reports the record.
  void finish(Transfer* transfer, std::optional<std::string> failure) {
    RequestRecord record =
        finishRecord(std::move(transfer->record),
                     {transfer->response.status(), std::move(transfer->errorBody), std::move(failure)},
                     transfer->reader, config.countTokens);
    release(transfer);
    ++finishedCount;
    onFinished(std::move(record));
  }

  void expireDeadlines(Clock::time_point now) {
    while (!deadlines.empty() && deadlines.front().at <= now) {
      const Deadline deadline = deadlines.front();
      deadlines.pop_front();
      Transfer* transfer = deadline.transfer;
      if (transfer->serial != deadline.serial) continue;  // finished already
      if (transfer->connection) pool.close(transfer->connection);
      finish(transfer, "timed out after " + secondsText(config.requestTimeoutS) +
                           " s (the per-request timeout), " +
                           std::to_string(transfer->reader.chunkTimesS().size()) + " chunks received");
    }
  }

  void handleConnects() {
    pool.handleConnects(
        [this](Connection* connection) { sendMore(static_cast<Transfer*>(connection->tenant)); },
        [this](ConnectionTenant* tenant, const std::string& why) {
          finish(static_cast<Transfer*>(tenant), why);
        });
  }

  void poll(Clock::time_point wakeAt, bool returnOnFinish) {
    pollTiming.entered = Clock::now();
    Clock::time_point deadline = wakeAt;
    if (const auto curl = pool.curlDeadline(); curl && *curl < deadline) deadline = *curl;
    if (!deadlines.empty() && deadlines.front().at < deadline) deadline = deadlines.front().at;
    const std::span<const epoll_event> ready = loop.wait(deadline);
    pollTiming.woke = Clock::now();
    const std::uint64_t finishedBefore = finishedCount;
    for (std::size_t i = 0; i < ready.size(); ++i) {
      // The caller has a request to send: return to it at once. The sockets not handled yet are still
      // readable, so the next wait (level-triggered) reports them again; nothing is lost.
      if (i > 0 && (lastReadAt >= wakeAt || (returnOnFinish && finishedCount != finishedBefore))) break;
      const int fd = ready[i].data.fd;
      const std::uint32_t flags = ready[i].events;
      if (Connection* connection = pool.owner(fd)) {
        auto* transfer = static_cast<Transfer*>(connection->tenant);
        if ((flags & EPOLLOUT) && transfer && transfer->sent < transfer->request.size() &&
            !sendMore(transfer)) {
          continue;
        }
        if (flags & (EPOLLIN | EPOLLHUP | EPOLLERR | EPOLLRDHUP)) onReadable(connection);
      } else {
        pool.onCurlSocket(fd, flags);
      }
    }
    const Clock::time_point now = Clock::now();
    pool.runCurlTimeoutIfDue(now);
    handleConnects();
    expireDeadlines(now);
    pollTiming.returned = Clock::now();
  }

  void abortAll(std::string_view reason) {
    const std::vector<Transfer*> aborted = active;
    for (Transfer* transfer : aborted) {
      if (transfer->connection) pool.close(transfer->connection);
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
  m_impl->loop.wake();
}

void StreamClient::abortAll(std::string_view reason) {
  m_impl->abortAll(reason);
}
std::size_t StreamClient::inFlight() const {
  return m_impl->active.size();
}

}  // namespace ayar
