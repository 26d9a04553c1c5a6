#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/load/arrival_schedule.h"
#include "core/load/late_dispatch.h"
#include "core/load/openai_request.h"
#include "core/record/request_record.h"

namespace ayar {

// One request of a run, as the dataset produced it.
struct LoadRequest {
  std::string prompt;
  int promptTokens = 0;          // the client's count, used when the server sends no usage
  int expectedOutputTokens = 0;  // sent as max_tokens / max_completion_tokens when > 0
  nlohmann::json extraBody;      // null, or an object merged into this request's body last
};

struct LoadRunnerConfig {
  std::string baseUrl = "http://127.0.0.1:8000";  // scheme, host and port; a trailing "/" is fine
  std::string endpointPath;                       // empty: the API's default (/v1/completions, ...)
  RequestBodyOptions body;                        // api kind, model, ignore_eos, logprobs, extra body
  std::string apiKey;  // sent as a bearer token; never logged, never put in a record
  std::vector<std::pair<std::string, std::string>> headers;  // StreamClientConfig::headers
  std::string requestIdPrefix;                               // StreamClientConfig::requestIdPrefix
  int maxConcurrency = 0;               // 0 = no cap; time waiting for a slot goes to slotWaitS
  double requestTimeoutS = 6 * 3600.0;  // per request, as vLLM's client; 0 = none
  // Finished records are handed over from the client thread in batches of at most sinkBatchSize,
  // as soon as that many are waiting or the oldest has waited sinkIntervalS, and at the end:
  std::size_t sinkBatchSize = 64;
  double sinkIntervalS = 0.05;
  std::function<void(std::vector<RequestRecord>&&)> sink;
  // Counts output tokens when the server sends no usage (the record says so); without it the number of
  // chunks with choices stands in. Runs on the client thread.
  std::function<int(std::string_view)> countTokens;
  // Runs the client thread under SCHED_FIFO (needs root or CAP_SYS_NICE). On a machine whose cores are
  // busy (a local engine, other jobs), the OS then never parks the client behind other work, which
  // keeps dispatch lag under a millisecond. When refused, the run goes on at normal priority and
  // realtimeGranted() says so.
  bool realtimeClient = false;
};

// A thread-safe snapshot of a run in progress.
struct LoadProgress {
  std::size_t total = 0;
  std::size_t sent = 0;
  std::size_t inFlight = 0;
  std::size_t completed = 0;  // finished successfully
  std::size_t failed = 0;
};

// Runs one load test: sends each request at its scheduled time through one libcurl multi handle on
// its own thread (a timer on that thread, no thread per request), honours --max-concurrency, and
// hands finished RequestRecords to the sink in batches. Times are seconds from origin().
class LoadRunner {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LoadRunner(LoadRunnerConfig config);
  ~LoadRunner();  // cancels a run still going and waits for its thread
  LoadRunner(const LoadRunner&) = delete;
  LoadRunner& operator=(const LoadRunner&) = delete;

  // Builds every request body, then starts the client thread and returns once that thread has taken
  // the run's origin (time 0 of the schedule) as its dispatch loop begins. Bad input (sizes differ, empty
  // URL, bad extra body, too few file descriptors for the concurrency) is an ayar::Error thrown here. One run
  // per LoadRunner.
  void start(std::vector<LoadRequest> requests, const ArrivalSchedule& schedule);
  // Stops the run soon, from any thread: requests in flight end as failed with error "cancelled",
  // unsent ones are never sent (and get no record); finished records still reach the sink.
  void cancel();
  // Waits for the run to end. Rethrows what the sink or the token counter threw.
  void wait();
  bool finished() const { return m_finished.load(std::memory_order_acquire); }

  LoadProgress progress() const;
  // The steady-clock instant that scheduledS and startS count from (valid once start() returned).
  Clock::time_point origin() const { return m_origin; }
  // CPU time the client thread used, for the client-overhead figure (valid after wait()).
  double clientThreadCpuS() const { return m_clientThreadCpuS; }
  // Why requests went out late (valid after wait()).
  const LateDispatches& lateDispatches() const { return m_late.counts(); }
  // vLLM's benchmark duration: from the origin, taken before the first arrival gap is waited out, to
  // the moment every request (failed ones included) had returned. Valid after wait().
  double durationS() const { return m_durationS; }
  // Whether the client thread got the real-time priority it asked for (valid once start() returned).
  bool realtimeGranted() const { return m_realtimeGranted.load(); }

 private:
  struct Run;
  void runLoop(Run& run);

  LoadRunnerConfig m_config;
  std::unique_ptr<Run> m_run;
  std::thread m_thread;
  std::atomic<bool> m_cancelled{false};
  std::atomic<bool> m_finished{false};
  Clock::time_point m_origin;
  std::mutex m_clientMutex;  // cancel() may wake the client while the run thread tears it down
  std::atomic<std::size_t> m_total{0};
  std::atomic<std::size_t> m_sent{0};
  std::atomic<std::size_t> m_inFlight{0};
  std::atomic<std::size_t> m_completed{0};
  std::atomic<std::size_t> m_failed{0};
  double m_clientThreadCpuS = 0;
  LateDispatchTally m_late;
  double m_durationS = 0;
  std::atomic<bool> m_realtimeGranted{false};
  std::exception_ptr m_error;
};

// Runs a whole load test and returns every record (in finishing order). For tests and simple callers;
// config.sink, when set, is still called.
std::vector<RequestRecord> runLoad(LoadRunnerConfig config, std::vector<LoadRequest> requests,
                                   const ArrivalSchedule& schedule);

}  // namespace ayar
