#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/load/request_record.h"

namespace ayar {

struct StreamClientConfig {
  std::string url;             // the endpoint, e.g. http://127.0.0.1:8000/v1/completions
  std::string apiKey;          // sent as "Authorization: Bearer ..."; kept nowhere else, never logged
  double requestTimeoutS = 0;  // whole-request limit; 0 = none
  // Idle connections kept for reuse; set it to at least the most requests ever in flight, so that
  // every stream keeps its keep-alive connection (libcurl would otherwise keep 4 per transfer added).
  std::size_t connectionPoolSize = 64;
  // Counts the generated text's tokens when the server sent no usage; without it the number of
  // chunks with choices stands in. Runs on the client thread.
  std::function<int(std::string_view)> countTokens;
};

// Streaming HTTP/1.1 requests through ONE libcurl multi handle, driven by epoll with curl's socket
// interface on the thread that calls poll(). Keep-alive connections, TCP_NODELAY, no Expect: 100.
// Every body byte is timestamped on the steady clock at the top of the write callback, before any
// parsing. Not thread-safe except wake(): one thread sends and polls.
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
  // stamped here, just before the transfer is handed to libcurl.
  void send(std::string_view body, RequestRecord record);

  // Waits until network activity, libcurl's own timers, `wakeAt` or wake(), handles what is ready
  // and reports finished requests. Returns at once when something is already due.
  void poll(Clock::time_point wakeAt);
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
