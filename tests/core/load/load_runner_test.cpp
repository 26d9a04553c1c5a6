#include "core/load/load_runner.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "tests/support/sse_server/sse_test_server.h"

namespace ayar {
namespace {

using Clock = std::chrono::steady_clock;
using test::ServedRequest;
using test::SseTestServer;
using test::SseTestServerOptions;

constexpr double kOneMs = 1e-3;

// The timing bounds are for optimised builds. Sanitizer builds check the same logic with bounds
// loosened by this factor: ASan slows this code several-fold while the kernel keeps timing real.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr double kTimingSlack = 50;
#else
constexpr double kTimingSlack = 1;
#endif

std::vector<LoadRequest> makeRequests(int count, int maxTokens, const nlohmann::json& directives = nullptr) {
  std::vector<LoadRequest> requests;
  for (int i = 0; i < count; ++i) {
    LoadRequest request;
    request.prompt = "request " + std::to_string(i) + " asks for a few words";
    request.promptTokens = 7;
    request.expectedOutputTokens = maxTokens;
    if (!directives.is_null()) request.extraBody = {{"ayar_test", directives}};
    requests.push_back(std::move(request));
  }
  return requests;
}

LoadRunnerConfig configFor(const SseTestServer& server) {
  LoadRunnerConfig config;
  config.baseUrl = server.baseUrl();
  config.body.model = "test-model";
  config.requestTimeoutS = 20;
  return config;
}

// The request index a served request carried in its prompt ("request <i> ...").
int servedIndex(const ServedRequest& served) {
  const auto body = nlohmann::json::parse(served.body);
  const std::string prompt = body.contains("prompt")
                                 ? body["prompt"].get<std::string>()
                                 : body["messages"][0]["content"][0]["text"].get<std::string>();
  return std::stoi(prompt.substr(prompt.find(' ') + 1));
}

std::map<int, ServedRequest> servedByIndex(const SseTestServer& server) {
  std::map<int, ServedRequest> byIndex;
  for (const ServedRequest& served : server.servedRequests())
    byIndex[servedIndex(served)] = served;
  return byIndex;
}

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Exact peak of [start, start + latency) intervals, a departure before an arrival at the same instant.
int peakConcurrency(const std::vector<RequestRecord>& records) {
  std::vector<std::pair<double, int>> events;
  for (const RequestRecord& record : records) {
    events.emplace_back(record.startS, +1);
    events.emplace_back(record.startS + record.latencyS(), -1);
  }
  std::sort(events.begin(), events.end());
  int current = 0;
  int peak = 0;
  for (const auto& event : events)
    peak = std::max(peak, current += event.second);
  return peak;
}

// This machine is shared: another process can hold both cores for milliseconds at any moment, which
// no client can measure around. A timing property is therefore checked on up to eight short runs and
// holds when one run shows it; `attempt` returns what it found wrong, empty when nothing was.
void expectOnOneOfEightRuns(const std::function<std::string()>& attempt) {
  std::string problems;
  for (int run = 1; run <= 8; ++run) {
    const std::string problem = attempt();
    if (problem.empty()) return;
    problems += "run " + std::to_string(run) + ": " + problem + "\n";
  }
  ADD_FAILURE() << problems;
}

TEST(LoadRunner, MeasuresTtftItlAndE2eWithinOneMillisecondOfTheServer) {
  // A process's first request also pays one-off costs (libcurl and libc symbols bound on first call,
  // first pages touched) worth milliseconds; one request beforehand keeps them out of the comparison.
  {
    SseTestServer warmUp;
    ASSERT_TRUE(runLoad(configFor(warmUp), makeRequests(1, 1), ArrivalSchedule::throughput(1)).at(0).success);
  }
  expectOnOneOfEightRuns([] {
    constexpr int kChunks = 6;
    SseTestServer server({.ttftMs = 20, .itlMs = 5});
    std::vector<RequestRecord> records;
    LoadRunnerConfig config = configFor(server);
    config.sink = [&records](std::vector<RequestRecord>&& batch) {
      for (auto& record : batch)
        records.push_back(std::move(record));
    };
    LoadRunner runner(config);
    // One stream: requests 1..3 reuse request 0's connection, so their TTFT holds no TCP handshake,
    // which the server could not see. Request 0's TTFT is left out for that reason.
    runner.start(makeRequests(4, kChunks), ArrivalSchedule::concurrent(4, 1));
    runner.wait();
    EXPECT_EQ(records.size(), 4u);
    EXPECT_EQ(server.connectionsAccepted(), 1u);
    const auto served = servedByIndex(server);
    std::string problems;
    double worstS = 0;
    auto check = [&](const std::string& what, double clientS, double serverS) {
      const double error = clientS - serverS;
      worstS = std::max(worstS, std::abs(error));
      if (std::abs(error) >= kOneMs * kTimingSlack)
        problems += what + " off by " + std::to_string(error * 1e3) + " ms; ";
    };
    for (const RequestRecord& record : records) {
      EXPECT_TRUE(record.success) << record.error;
      const ServedRequest& request = served.at(static_cast<int>(record.index));
      EXPECT_EQ(record.chunkTimesS.size(), static_cast<std::size_t>(kChunks));
      EXPECT_EQ(request.chunkSentAt.size(), static_cast<std::size_t>(kChunks));
      if (record.chunkTimesS.size() != kChunks || request.chunkSentAt.size() != kChunks) continue;
      EXPECT_EQ(record.outputTokens, kChunks);
      EXPECT_TRUE(record.outputTokensFromUsage);
      EXPECT_EQ(record.promptTokens, 7);
      EXPECT_EQ(record.httpStatus, 200);
      EXPECT_EQ(record.generatedText, " tok tok tok tok tok tok");
      const Clock::time_point start = runner.origin() + std::chrono::duration_cast<Clock::duration>(
                                                            std::chrono::duration<double>(record.startS));
      const std::string name = "request " + std::to_string(record.index) + " ";
      // Every chunk arrived after the server sent it (same clock) and less than 1 ms later.
      for (std::size_t i = 0; i < kChunks; ++i) {
        const double sentS = secondsBetween(start, request.chunkSentAt[i]);
        EXPECT_GE(record.chunkTimesS[i], sentS) << name << "chunk " << i;
        check(name + "chunk " + std::to_string(i) + " arrival", record.chunkTimesS[i], sentS);
      }
      // The figures themselves against the server's own, TTFT and E2E from the request's arrival there.
      for (std::size_t i = 1; i < kChunks; ++i) {
        check(name + "ITL " + std::to_string(i), record.itlS()[i - 1],
              secondsBetween(request.chunkSentAt[i - 1], request.chunkSentAt[i]));
      }
      if (record.index == 0) continue;
      check(name + "TTFT", record.ttftS(), secondsBetween(request.receivedAt, request.chunkSentAt[0]));
      check(name + "E2E", record.latencyS(),
            secondsBetween(request.receivedAt, request.chunkSentAt[kChunks - 1]));
    }
    std::printf("worst client-vs-server timing difference: %.3f ms\n", worstS * 1e3);
    return problems;
  });
}

TEST(LoadRunner, ChatStreamsCountTheRoleChunkForTtft) {
  SseTestServer server({.ttftMs = 5, .itlMs = 1});
  LoadRunnerConfig config = configFor(server);
  config.body.api = ApiKind::ChatCompletions;
  const auto records =
      runLoad(config, makeRequests(3, 4, {{"token_text", "é\"\n"}}), ArrivalSchedule::throughput(3));
  ASSERT_EQ(records.size(), 3u);
  for (const RequestRecord& record : records) {
    ASSERT_TRUE(record.success) << record.error;
    EXPECT_EQ(record.chunkTimesS.size(), 5u);  // the empty role chunk, then 4 tokens
    EXPECT_EQ(record.outputTokens, 4);
    EXPECT_EQ(record.generatedText, "é\"\né\"\né\"\né\"\n");
  }
}

TEST(LoadRunner, MultiTokenChunksGiveFewerChunksThanTokens) {
  SseTestServer server({.tokensPerChunk = 4});
  const auto records = runLoad(configFor(server), makeRequests(2, 10), ArrivalSchedule::throughput(2));
  ASSERT_EQ(records.size(), 2u);
  for (const RequestRecord& record : records) {
    ASSERT_TRUE(record.success) << record.error;
    EXPECT_EQ(record.chunkTimesS.size(), 3u);
    EXPECT_EQ(record.outputTokens, 10);
  }
}

TEST(LoadRunner, NeverExceedsMaxConcurrencyAndRecordsTheSlotWait) {
  SseTestServer server({.ttftMs = 20, .itlMs = 5});
  LoadRunnerConfig config = configFor(server);
  config.maxConcurrency = 3;
  const auto records = runLoad(config, makeRequests(12, 3), ArrivalSchedule::throughput(12));
  ASSERT_EQ(records.size(), 12u);
  EXPECT_EQ(server.peakOpenStreams(), 3u);
  EXPECT_EQ(peakConcurrency(records), 3);
  for (const RequestRecord& record : records) {
    ASSERT_TRUE(record.success) << record.error;
    if (record.index < 3) {
      EXPECT_EQ(record.slotWaitS, 0.0);
    } else {
      EXPECT_GT(record.slotWaitS, 0.025);  // at least one whole request (20 + 2 * 5 ms) ahead of it
    }
    EXPECT_GE(record.dispatchLagS(), 0.0);
  }
}

TEST(LoadRunner, ThreeHundredConcurrentStreamsAreAllInFlightTogether) {
  SseTestServer server;
  // The server holds every stream until 300 are open at once (or gives up after 10 s).
  const auto records = runLoad(configFor(server), makeRequests(300, 2, {{"wait_for_open_streams", 300}}),
                               ArrivalSchedule::throughput(300));
  ASSERT_EQ(records.size(), 300u);
  EXPECT_EQ(server.peakOpenStreams(), 300u);
  EXPECT_EQ(server.connectionsAccepted(), 300u);
  EXPECT_EQ(peakConcurrency(records), 300);
  for (const RequestRecord& record : records)
    EXPECT_TRUE(record.success) << record.error;
}

TEST(LoadRunner, ClosedLoopStartsANewRequestWhenOneFinishes) {
  SseTestServer server({.ttftMs = 10, .itlMs = 2});
  std::vector<RequestRecord> records =
      runLoad(configFor(server), makeRequests(12, 3), ArrivalSchedule::concurrent(12, 3));
  ASSERT_EQ(records.size(), 12u);
  EXPECT_EQ(server.peakOpenStreams(), 3u);
  std::vector<double> ends;
  for (const RequestRecord& record : records) {
    ASSERT_TRUE(record.success) << record.error;
    EXPECT_EQ(record.slotWaitS, 0.0);
    ends.push_back(record.startS + record.latencyS());
  }
  for (const RequestRecord& record : records) {
    if (record.index < 3) {
      EXPECT_EQ(record.scheduledS, 0.0);
      continue;
    }
    // Scheduled when a stream freed up: right after some earlier request's last chunk. (Another
    // stream's end may fall microseconds later, so compare with the latest end not after it.)
    double latestEndBefore = -1;
    for (double end : ends) {
      if (end <= record.scheduledS) latestEndBefore = std::max(latestEndBefore, end);
    }
    // (Loose bounds: this checks what the schedule means; the timing tests check precision.)
    EXPECT_GE(latestEndBefore, 0.0) << "scheduled at " << record.scheduledS << " before any request ended";
    EXPECT_LT(record.scheduledS - latestEndBefore, 0.05);
    EXPECT_GE(record.dispatchLagS(), 0.0);
    EXPECT_LT(record.dispatchLagS(), 0.05);
  }
}

TEST(LoadRunner, SendsEachRequestAtItsScheduledTime) {
  expectOnOneOfEightRuns([] {
    SseTestServer server({.ttftMs = 1, .itlMs = 1});
    const auto records =
        runLoad(configFor(server), makeRequests(40, 2), ArrivalSchedule::atRate(40, 100.0, 1.0, 5));
    EXPECT_EQ(records.size(), 40u);
    std::vector<double> lags;
    double lastScheduledS = 0;
    for (const RequestRecord& record : records) {
      EXPECT_TRUE(record.success) << record.error;
      EXPECT_GE(record.startS, record.scheduledS);
      EXPECT_EQ(record.slotWaitS, 0.0);
      lags.push_back(record.dispatchLagS());
      lastScheduledS = std::max(lastScheduledS, record.scheduledS);
    }
    EXPECT_DOUBLE_EQ(lastScheduledS, 0.4);
    std::sort(lags.begin(), lags.end());
    const double medianS = lags[lags.size() / 2];
    std::printf("dispatch lag median %.3f ms, max %.3f ms\n", medianS * 1e3, lags.back() * 1e3);
    // The tail (p99 <= 1 ms) is bench_client's figure on a quiet machine; under other processes' load
    // the kernel can keep a woken thread off the CPU for a scheduler tick (4 ms), which a test cannot
    // tell from a late client. The median shows the timer itself.
    EXPECT_LT(lags.back(), 0.05 * kTimingSlack);
    return medianS < 0.5 * kOneMs * kTimingSlack
               ? std::string()
               : "the median dispatch lag was " + std::to_string(medianS * 1e3) + " ms";
  });
}

TEST(LoadRunner, AKeepAliveConnectionTheServerClosedCostsNoRequest) {
  // Every other response ends with the server closing the connection unannounced, as an idle timeout
  // does. One stream sends the next request at once, often onto that connection before its close is
  // seen: the client must notice (or retry once on a new connection) and lose nothing.
  SseTestServer server({.itlMs = 1});
  std::vector<LoadRequest> requests = makeRequests(12, 3);
  for (std::size_t i = 0; i < requests.size(); i += 2)
    requests[i].extraBody = {{"ayar_test", {{"close_after_response", true}}}};
  const auto records = runLoad(configFor(server), std::move(requests), ArrivalSchedule::concurrent(12, 1));
  ASSERT_EQ(records.size(), 12u);
  for (const RequestRecord& record : records) {
    EXPECT_TRUE(record.success) << record.index << ": " << record.error;
    EXPECT_EQ(record.chunkTimesS.size(), 3u);
  }
  EXPECT_EQ(server.connectionsAccepted(), 7u) << "one first connection, then a new one after each close";
}

TEST(LoadRunner, ReusesKeepAliveConnections) {
  SseTestServer server;
  const auto records = runLoad(configFor(server), makeRequests(20, 2), ArrivalSchedule::concurrent(20, 2));
  ASSERT_EQ(records.size(), 20u);
  for (const RequestRecord& record : records)
    EXPECT_TRUE(record.success) << record.error;
  EXPECT_EQ(server.connectionsAccepted(), 2u);
}

struct FaultCase {
  nlohmann::json directives;
  int httpStatus;
  std::string errorStart;
};

TEST(LoadRunner, EachFaultIsAFailedRequestWithAClearMessage) {
  SseTestServer server({.itlMs = 1});
  const std::vector<FaultCase> cases = {
      {{{"status", 401}}, 401, "HTTP 401: Unauthorized: the API key is missing or invalid"},
      {{{"status", 404}}, 404, "HTTP 404: The model `test-model` does not exist."},
      {{{"status", 429}}, 429, "HTTP 429: Too many requests"},
      {{{"status", 500}}, 500, "HTTP 500: Internal server error"},
      {{{"error_after_chunks", 2}}, 200, "error in the stream: simulated engine failure after 2 chunks"},
      {{{"drop_after_chunks", 2}}, 200, "the connection broke mid-stream after 2 chunks"},
      {{{"drop_after_chunks", 1}, {"drop_with_reset", true}},
       200,
       "the connection broke mid-stream after 1 chunks"},
      {{{"drop_after_chunks", 0}}, 200, "the connection broke mid-stream after 0 chunks"},
      {{{"no_response", true}}, 0, "timed out after 1 s (the per-request timeout), 0 chunks received"},
      // A server that breaks the protocol: more tokens than the limit, bytes that are not events.
      {{{"extra_tokens", 20000}, {"tokens_per_chunk", 5000}},
       200,
       "protocol error: the server sent 20004 output tokens where the request's "
       "limit was 4"},
      {{{"extra_tokens", 3}, {"usage_completion_tokens", 0}},
       200,
       "protocol error: the server sent 7 output tokens (counting chunks) where the request's limit was 4"},
      {{{"garbage_after_chunks", 1}},
       200,
       "protocol error: the stream holds a line that is not a server-sent event: "
       "\"\\x89PNG\\x1B[31m\\x01\\xFF\\xFE\""},
  };
  std::vector<LoadRequest> requests = makeRequests(static_cast<int>(cases.size()) + 1, 4);
  for (std::size_t i = 0; i < cases.size(); ++i)
    requests[i].extraBody = {{"ayar_test", cases[i].directives}};
  LoadRunnerConfig config = configFor(server);
  config.requestTimeoutS = 1;
  const auto records = runLoad(config, std::move(requests), ArrivalSchedule::throughput(cases.size() + 1));
  ASSERT_EQ(records.size(), cases.size() + 1);
  for (const RequestRecord& record : records) {
    if (record.index == static_cast<std::int64_t>(cases.size())) {
      EXPECT_TRUE(record.success) << "the healthy request next to the faults: " << record.error;
      continue;
    }
    const FaultCase& fault = cases[static_cast<std::size_t>(record.index)];
    SCOPED_TRACE(fault.directives.dump());
    EXPECT_FALSE(record.success);
    EXPECT_EQ(record.httpStatus, fault.httpStatus);
    EXPECT_EQ(record.error.substr(0, fault.errorStart.size()), fault.errorStart) << record.error;
  }
}

// vLLM's benchmark duration: its clock starts before the first arrival gap is slept and stops once
// every request, a failed one too, has returned. Both bounds are lower bounds, so the check cannot
// be upset by a busy machine.
TEST(LoadRunner, DurationRunsFromBeforeTheFirstGapToTheLastFailedRequestsReturn) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.requestTimeoutS = 0.3;
  LoadRunner runner(config);
  // One request at 0.25 s (a constant 4 req/s), never answered: it fails at its timeout.
  runner.start(makeRequests(1, 4, {{"no_response", true}}), ArrivalSchedule::constantRate(1, 4.0));
  runner.wait();
  EXPECT_GE(runner.durationS(), 0.25 + 0.3);
  EXPECT_LT(runner.durationS(), 5.0);
}

// A TCP socket bound to a free port on 127.0.0.1 (no other test can take the port while it is open);
// -1 when the system gave none. `baseUrl` is its address as the client takes it.
int boundLoopbackSocket(std::string& baseUrl) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    return -1;
  }
  baseUrl = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/";
  return fd;
}

TEST(LoadRunner, ConnectionRefusedIsAFailedRequestNamingTheCause) {
  // A bound socket that does not listen: connecting to it is refused.
  LoadRunnerConfig config;
  const int socketFd = boundLoopbackSocket(config.baseUrl);
  ASSERT_GE(socketFd, 0);
  const auto records = runLoad(config, makeRequests(2, 4), ArrivalSchedule::throughput(2));
  ::close(socketFd);
  ASSERT_EQ(records.size(), 2u);
  for (const RequestRecord& record : records) {
    EXPECT_FALSE(record.success);
    EXPECT_EQ(record.httpStatus, 0);
    EXPECT_EQ(record.error.rfind("could not connect (Connection refused)", 0), 0u) << record.error;
  }
}

// A server past its limits, as an engine out of file descriptors looks from the client: a listen queue
// of two, and each connection it does accept reset or closed before any response. Thousands of requests
// sent at once then meet refused or reset connects, resets and timeouts all together. Each must come
// back as one failed record with a message, and the client must live through it (a connection closed
// in the middle of its set-up once corrupted the client's heap here).
TEST(LoadRunner, AnOverloadedServerCostsFailedRequestsNeverTheClient) {
  LoadRunnerConfig config;
  const int listener = boundLoopbackSocket(config.baseUrl);
  ASSERT_GE(listener, 0);
  ASSERT_EQ(::listen(listener, 2), 0);
  std::atomic<bool> stop{false};
  std::atomic<int> accepted{0};
  std::thread server([&] {
    while (!stop) {
      pollfd ready{listener, POLLIN, 0};
      if (::poll(&ready, 1, 20) <= 0) continue;
      const int connection = ::accept(listener, nullptr, nullptr);
      if (connection < 0) continue;
      const int n = ++accepted;
      if (n % 2 == 0) {  // reset at once
        const linger abortive{1, 0};
        ::setsockopt(connection, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
      } else {  // read what came, then a plain close without a response
        char buffer[4096];
        (void)::recv(connection, buffer, sizeof buffer, MSG_DONTWAIT);
      }
      ::close(connection);
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // a slow accept loop
    }
  });
  constexpr int kRequests = 3000;
  config.body.model = "test-model";
  config.requestTimeoutS = 0.5 * kTimingSlack;
  const Clock::time_point started = Clock::now();
  const auto records = runLoad(config, makeRequests(kRequests, 4), ArrivalSchedule::throughput(kRequests));
  const double seconds = secondsBetween(started, Clock::now());
  stop = true;
  server.join();
  ::close(listener);

  ASSERT_EQ(records.size(), static_cast<std::size_t>(kRequests));
  std::set<std::int64_t> indexes;
  for (const RequestRecord& record : records) {
    indexes.insert(record.index);
    EXPECT_FALSE(record.success) << record.index;
    EXPECT_EQ(record.httpStatus, 0) << record.index;
    EXPECT_FALSE(record.error.empty()) << record.index;
  }
  EXPECT_EQ(indexes.size(), static_cast<std::size_t>(kRequests)) << "each request exactly once";
  EXPECT_GT(accepted.load(), 0) << "the server took some connections: the test reached its resets";
  EXPECT_LT(seconds, 60.0 * kTimingSlack);
}

TEST(LoadRunner, CancelStopsPromptlyAndKeepsFinishedRecords) {
  SseTestServer server({.itlMs = 50});
  std::vector<LoadRequest> requests = makeRequests(10, 100000);
  for (int i = 0; i < 3; ++i)
    requests[static_cast<std::size_t>(i)].expectedOutputTokens = 2;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<RequestRecord> records;
  LoadRunnerConfig config = configFor(server);
  config.maxConcurrency = 4;
  config.sink = [&](std::vector<RequestRecord>&& batch) {
    std::lock_guard lock(mutex);
    for (auto& record : batch)
      records.push_back(std::move(record));
    changed.notify_all();
  };
  LoadRunner runner(config);
  runner.start(std::move(requests), ArrivalSchedule::throughput(10));
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(20), [&] { return records.size() >= 3; }));
  }
  const LoadProgress before = runner.progress();
  EXPECT_EQ(before.completed, 3u);
  EXPECT_EQ(before.sent, 7u);  // the three short ones freed slots for three more long ones
  EXPECT_EQ(before.inFlight, 4u);
  const Clock::time_point cancelledAt = Clock::now();
  runner.cancel();
  runner.wait();
  EXPECT_LT(secondsBetween(cancelledAt, Clock::now()), 0.2);
  ASSERT_EQ(records.size(), 7u);
  int cancelled = 0;
  for (const RequestRecord& record : records) {
    if (record.index < 3) {
      EXPECT_TRUE(record.success) << record.error;
    } else {
      EXPECT_FALSE(record.success);
      EXPECT_EQ(record.error, "cancelled");
      ++cancelled;
    }
  }
  EXPECT_EQ(cancelled, 4);
  const LoadProgress after = runner.progress();
  EXPECT_EQ(after.sent, 7u);
  EXPECT_EQ(after.completed, 3u);
  EXPECT_EQ(after.failed, 4u);
  EXPECT_EQ(after.inFlight, 0u);
  EXPECT_LE(server.servedRequests().size(), 7u);  // the three unsent never reached the server
}

TEST(LoadRunner, SendsTheApiKeyAsBearerAndKeepsItOutOfRecords) {
  SseTestServer server;
  const std::string key = "sk-ayar-secret-4242";
  LoadRunnerConfig config = configFor(server);
  config.apiKey = key;
  std::vector<LoadRequest> requests = makeRequests(3, 2);
  requests[1].extraBody = {{"ayar_test", {{"status", 401}}}};
  requests[2].extraBody = {{"ayar_test", {{"error_after_chunks", 1}}}};
  const auto records = runLoad(config, std::move(requests), ArrivalSchedule::throughput(3));
  ASSERT_EQ(records.size(), 3u);
  for (const ServedRequest& served : server.servedRequests()) {
    EXPECT_EQ(served.authorization, "Bearer " + key);
    EXPECT_EQ(served.body.find(key), std::string::npos);
  }
  for (const RequestRecord& record : records) {
    EXPECT_EQ(record.error.find(key), std::string::npos) << record.error;
    EXPECT_EQ(record.generatedText.find(key), std::string::npos);
  }
  EXPECT_TRUE(std::any_of(records.begin(), records.end(), [](const RequestRecord& r) { return r.success; }));
}

TEST(LoadRunner, CountsTokensWithTheHookWhenUsageIsAbsent) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.body.extraBody = {{"stream_options", {{"include_usage", false}}}};
  config.countTokens = [](std::string_view text) { return static_cast<int>(text.size()); };
  const auto records = runLoad(config, makeRequests(2, 5), ArrivalSchedule::throughput(2));
  ASSERT_EQ(records.size(), 2u);
  for (const RequestRecord& record : records) {
    ASSERT_TRUE(record.success) << record.error;
    EXPECT_FALSE(record.outputTokensFromUsage);
    EXPECT_EQ(record.outputTokens, 20);  // " tok" x 5, counted by the hook
    EXPECT_EQ(record.promptTokens, 7);   // the client's own count
  }
}

// vLLM counts a streamed request as successful once a chunk with choices arrived and the stream
// ended cleanly, with or without the [DONE] line.
TEST(LoadRunner, AStreamThatEndsWithoutDoneSucceedsAsInVllm) {
  SseTestServer server;
  const auto records =
      runLoad(configFor(server), makeRequests(2, 4, {{"no_done", true}}), ArrivalSchedule::throughput(2));
  ASSERT_EQ(records.size(), 2u);
  for (const RequestRecord& record : records) {
    EXPECT_TRUE(record.success) << record.error;
    EXPECT_EQ(record.chunkTimesS.size(), 4u);
    EXPECT_EQ(record.outputTokens, 4);
  }
}

// A usage chunk that says 0 completion tokens is as good as none: the text is counted, as vLLM does.
TEST(LoadRunner, UsageOfZeroCompletionTokensFallsBackToTheTokenCounter) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.countTokens = [](std::string_view text) { return static_cast<int>(text.size()); };
  const auto records =
      runLoad(config, makeRequests(1, 3, {{"usage_completion_tokens", 0}}), ArrivalSchedule::throughput(1));
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].success) << records[0].error;
  EXPECT_FALSE(records[0].outputTokensFromUsage);
  EXPECT_EQ(records[0].outputTokens, 12);  // " tok" x 3
}

// vLLM's --request-id-prefix and --header: each request carries x-request-id <prefix><index>, and
// a header given by the user replaces the client's own of the same name.
TEST(LoadRunner, SendsRequestIdsAndTheUsersHeadersAsVllmDoes) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.apiKey = "sk-own";
  config.headers = {{"authorization", "Bearer from-header"}};
  config.requestIdPrefix = "bench-1a2b3c4d-";
  const auto records = runLoad(config, makeRequests(3, 2), ArrivalSchedule::throughput(3));
  ASSERT_EQ(records.size(), 3u);
  std::set<std::string> ids;
  for (const auto& [index, served] : servedByIndex(server)) {
    EXPECT_EQ(served.requestId, "bench-1a2b3c4d-" + std::to_string(index));
    EXPECT_EQ(served.authorization, "Bearer from-header");
    ids.insert(served.requestId);
  }
  EXPECT_EQ(ids.size(), 3u);
  config.headers = {{"bad header", "x"}};
  EXPECT_THROW(runLoad(config, makeRequests(1, 2), ArrivalSchedule::throughput(1)), Error);
}

TEST(LoadRunner, HandsRecordsToTheSinkInBatches) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.sinkBatchSize = 8;
  config.sinkIntervalS = 10;  // only the batch size or the end of the run flushes
  std::vector<std::size_t> batchSizes;
  std::size_t total = 0;
  config.sink = [&](std::vector<RequestRecord>&& batch) {
    batchSizes.push_back(batch.size());
    total += batch.size();
  };
  LoadRunner runner(config);
  runner.start(makeRequests(50, 2), ArrivalSchedule::concurrent(50, 5));
  runner.wait();
  EXPECT_EQ(total, 50u);
  EXPECT_GE(batchSizes.size(), 7u);
  for (std::size_t size : batchSizes)
    EXPECT_LE(size, 8u);
  const LoadProgress progress = runner.progress();
  EXPECT_EQ(progress.total, 50u);
  EXPECT_EQ(progress.completed, 50u);
  EXPECT_GT(runner.clientThreadCpuS(), 0.0);
  EXPECT_TRUE(runner.finished());
}

TEST(LoadRunner, LateDispatchesAreCountedWithWhatTheClientThreadWasDoing) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.sinkBatchSize = 1;
  // A sink that holds the client thread for 20 ms per record, while a request is due every 2 ms.
  std::vector<RequestRecord> records;
  config.sink = [&records](std::vector<RequestRecord>&& batch) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (auto& record : batch)
      records.push_back(std::move(record));
  };
  LoadRunner runner(config);
  runner.start(makeRequests(40, 1), ArrivalSchedule::constantRate(40, 500.0));
  runner.wait();
  ASSERT_EQ(records.size(), 40u);
  const LateDispatches& late = runner.lateDispatches();
  std::size_t lateRecords = 0;
  for (const RequestRecord& record : records)
    lateRecords += record.startS - record.scheduledS > LateDispatches::kLateDispatchS ? 1 : 0;
  const std::size_t counted = late.wokeLate.count + late.readingSockets.count + late.offCpu.count +
                              late.handingOver.count + late.dispatching.count;
  EXPECT_EQ(counted, lateRecords);
  EXPECT_GT(late.handingOver.count, 0u);
  EXPECT_GT(late.handingOver.maxMs, 1.0);
  EXPECT_GT(late.voluntarySwitches, 0);
}

// The kernel's table size for this process's descriptors (the FDSize line of /proc/self/status).
long descriptorTableSize(const std::string& statusPath = "/proc/self/status") {
  std::FILE* file = std::fopen(statusPath.c_str(), "r");
  if (!file) return -1;
  char line[256];
  long size = -1;
  while (std::fgets(line, sizeof line, file))
    if (std::sscanf(line, "FDSize: %ld", &size) == 1) break;
  std::fclose(file);
  return size;
}

TEST(LoadRunner, GrowsTheDescriptorTableBeforeTheFirstRequest) {
  // Growing the table while connections open stalls the opening thread for an RCU grace period; the
  // runner grows it once, before time 0, for every connection the run can hold at once.
  SseTestServer server;
  constexpr std::size_t kRequests = 5000;
  LoadRunner runner(configFor(server));
  runner.start(makeRequests(kRequests, 1), ArrivalSchedule::constantRate(kRequests, 1.0));
  const long size = descriptorTableSize();
  runner.cancel();
  runner.wait();
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  const long wanted = static_cast<long>(std::min<rlim_t>(kRequests + 64, limit.rlim_cur));
  EXPECT_GE(size, wanted);
}

TEST(LoadRunner, SinkExceptionsStopTheRunAndReachTheCaller) {
  SseTestServer server;
  LoadRunnerConfig config = configFor(server);
  config.sinkBatchSize = 1;
  config.sink = [](std::vector<RequestRecord>&&) { throw Error("the results store is full"); };
  LoadRunner runner(config);
  runner.start(makeRequests(5, 2), ArrivalSchedule::throughput(5));
  EXPECT_THROW(runner.wait(), Error);
}

TEST(LoadRunner, BadInputIsAUserError) {
  LoadRunnerConfig config;
  config.baseUrl = "127.0.0.1:8000";
  EXPECT_THROW(LoadRunner(config).start(makeRequests(1, 1), ArrivalSchedule::throughput(1)), Error);
  config.baseUrl = "";
  EXPECT_THROW(LoadRunner(config).start(makeRequests(1, 1), ArrivalSchedule::throughput(1)), Error);
  config.baseUrl = "http://127.0.0.1:8000";
  EXPECT_THROW(LoadRunner(config).start(makeRequests(2, 1), ArrivalSchedule::throughput(3)), Error);
  config.body.extraBody = "not an object";
  EXPECT_THROW(LoadRunner(config).start(makeRequests(1, 1), ArrivalSchedule::throughput(1)), Error);
}

TEST(LoadRunner, AnEmptyRunFinishesAtOnce) {
  LoadRunnerConfig config;
  EXPECT_TRUE(runLoad(config, {}, ArrivalSchedule::throughput(0)).empty());
}

}  // namespace
}  // namespace ayar
