#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/record/request_record.h"

namespace ayar {

struct StreamClientConfig {
  std::string url;     // the endpoint, e.g. http://127.0.0.1:8000/v1/completions
  std::string apiKey;  // sent as "Authorization: Bearer ..."; kept nowhere else, never logged
  // vLLM's --header KEY=VALUE: sent with every request, replacing a header of the same name.
  std::vector<std::pair<std::string, std::string>> headers;
  // vLLM's --request-id-prefix: each request carries "x-request-id: <prefix><index>"; empty: no header.
  std::string requestIdPrefix;
  double requestTimeoutS = 0;  // whole-request limit; 0 = none
  // Idle connections kept for reuse; set it to at least the most requests ever in flight, so that
  // every stream keeps its keep-alive connection.
  std::size_t connectionPoolSize = 64;
  // Counts the generated text's tokens when the server sent no usage; without it the number of
  // chunks with choices stands in. Runs on the client thread.
  std::function<int(std::string_view)> countTokens;
};

// Streaming HTTP/1.1 requests on keep-alive connections, driven by epoll on the thread that calls
// poll(). ONE libcurl multi handle establishes the connections (name resolution, non-blocking connect,
// TLS, a proxy's CONNECT tunnel, TCP_NODELAY) with CURLOPT_CONNECT_ONLY; the client writes each request
// and reads its response on the connection itself, so that no library machinery sits between a read
// and its timestamp. Every body read is timestamped on the steady clock straight after recv returns,
// before any parsing. A keep-alive connection the server closed while idle is retried once on a new
// one. Not thread-safe except wake(): one thread sends and polls.
class StreamClient {
 public:
  using Clock = std::chrono::steady_clock;
  // Called from poll() or abortAll() with each finished request: success or a failure with its reason.
  using FinishedHandler = std::function<void(RequestRecord&&)>;

  StreamClient(StreamClientConfig config, FinishedHandler onFinished);
  ~StreamClient();  // aborts whatever is still in flight without reporting it
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;

  // Times in records are relative to this origin (RequestRecord::startS).
  void setOrigin(Clock::time_point origin);
  Clock::time_point origin() const;

  // Sends one streaming POST. `body` must stay alive and unchanged until the request finishes.
  // `record` brings index, scheduledS, slotWaitS, promptTokens and expectedOutputTokens; startS is
  // stamped here, just before the request goes to a connection, and returned.
  Clock::time_point send(std::string_view body, RequestRecord record);

  // Waits until network activity, libcurl's own timers, `wakeAt` or wake(), handles what is ready
  // and reports finished requests. Returns at once when something is already due, and stops handling
  // ready sockets as soon as `wakeAt` passes or, with `returnOnFinish`, a request finishes (its slot is
  // wanted): the rest are handled by the next call, so a due request is never held up by a batch.
  void poll(Clock::time_point wakeAt, bool returnOnFinish = false);
  // When the last poll() began, when its wait for events ended, and when it returned: the load runner
  // uses them to tell why a request went out after its time.
  struct PollTiming {
    Clock::time_point entered;
    Clock::time_point woke;
    Clock::time_point returned;
  };
  PollTiming lastPollTiming() const;

  // Makes a poll() on another thread return soon. Thread-safe.
  void wake();

  // Aborts every request in flight and reports each as failed with `reason` (e.g. "cancelled").
  void abortAll(std::string_view reason);

  std::size_t inFlight() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ayar
