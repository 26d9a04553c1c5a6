#include "engine/scheduler/engine_loop.h"

#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "engine/backend/sim/sim_backend.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

using namespace std::chrono_literals;

// Records what the loop delivers to one request; waits for it from the test thread.
class Collector {
 public:
  GenerationSink sink() {
    return [this](GenerationEvent&& event) {
      std::lock_guard lock(m_mutex);
      if (event.finish != FinishReason::kNone) m_finished = true;
      m_events.push_back(std::move(event));
      m_changed.notify_all();
    };
  }
  bool waitFinished(std::chrono::milliseconds timeout = 20s) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [this] { return m_finished; });
  }
  bool waitEvents(std::size_t count, std::chrono::milliseconds timeout = 20s) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_events.size() >= count; });
  }
  std::vector<GenerationEvent> events() {
    std::lock_guard lock(m_mutex);
    return m_events;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<GenerationEvent> m_events;
  bool m_finished = false;
};

SchedulerConfig smallConfig() {
  SchedulerConfig config;
  config.numBlocks = 1024;
  config.blockSize = 16;
  config.maxNumSeqs = 64;
  config.maxNumBatchedTokens = 2048;
  config.maxModelLen = 4096;
  return config;
}

std::unique_ptr<EngineLoop> makeLoop(const std::string& profile,
                                     const SchedulerConfig& config = smallConfig()) {
  const std::optional<ModelConfig> model = findModelPreset("qwen3-tiny");
  EXPECT_TRUE(model.has_value());
  return std::make_unique<EngineLoop>(makeSimBackend(*model, SimProfile::parse(profile), 7), config);
}

GenerationRequest request(const std::string& id, int promptLength, int maxTokens, std::int32_t first = 1) {
  GenerationRequest r;
  r.requestId = id;
  r.promptTokens.resize(static_cast<std::size_t>(promptLength));
  std::iota(r.promptTokens.begin(), r.promptTokens.end(), first);
  r.maxTokens = maxTokens;
  r.ignoreEos = true;
  return r;
}

TEST(EngineLoop, StreamsEachTokenThenEndsWithTheCounts) {
  Collector collector;
  auto loop = makeLoop("fixed:0,0");
  ASSERT_EQ(loop->submit(request("a", 20, 8), collector.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(collector.waitFinished());
  const auto events = collector.events();
  ASSERT_EQ(events.size(), 8u);
  for (std::size_t i = 0; i < events.size(); ++i) {
    ASSERT_EQ(events[i].tokens.size(), 1u);
    EXPECT_GE(events[i].tokens[0], 0);
    EXPECT_LT(events[i].tokens[0], 151643);
    EXPECT_EQ(events[i].completionTokens, static_cast<int>(i + 1));
    EXPECT_EQ(events[i].promptTokens, 20);
    EXPECT_EQ(events[i].finish, i + 1 == events.size() ? FinishReason::kLength : FinishReason::kNone);
  }
  EXPECT_TRUE(loop->backend().simulated());
  EXPECT_EQ(loop->config().numBlocks, 1024);
}

TEST(EngineLoop, StepLogHasOneLinePerStepWithTheBatchMakeUp) {
  test::TempDir dir;
  const std::string path = (dir / "steps.csv").string();
  const std::optional<ModelConfig> model = findModelPreset("qwen3-tiny");
  ASSERT_TRUE(model.has_value());
  EngineLoop loop(makeSimBackend(*model, SimProfile::parse("fixed:0,0"), 7), smallConfig(), path);
  Collector collector;
  ASSERT_EQ(loop.submit(request("a", 20, 8), collector.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(collector.waitFinished());

  std::ifstream file(path);
  std::string line;
  ASSERT_TRUE(std::getline(file, line));
  EXPECT_EQ(line,
            "start_ms,duration_ms,sequences,decodes,prefill_sequences,new_tokens,context_tokens,first_tokens,"
            "first_token_wait_ms,waiting");
  std::vector<std::vector<double>> rows;
  while (std::getline(file, line)) {
    std::vector<double> fields;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      fields.push_back(std::stod(cell));
    ASSERT_EQ(fields.size(), 10u) << line;
    rows.push_back(fields);
  }
  // The prefill of 20 tokens samples the first token; seven decodes follow, each one token further on.
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[0][2], 1);   // sequences
  EXPECT_EQ(rows[0][3], 0);   // decodes
  EXPECT_EQ(rows[0][4], 1);   // prefill chunks
  EXPECT_EQ(rows[0][5], 20);  // new tokens
  EXPECT_EQ(rows[0][6], 20);  // context
  EXPECT_EQ(rows[0][7], 1);   // a first token
  EXPECT_GE(rows[0][8], 0.0);
  EXPECT_LT(rows[0][8], 5000.0);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GE(rows[i][0], rows[i - 1][0]);  // start times in order
    EXPECT_GE(rows[i][1], 0.0);
    EXPECT_EQ(rows[i][3], 1);
    EXPECT_EQ(rows[i][5], 1);
    EXPECT_EQ(rows[i][6], 20 + static_cast<double>(i));
    EXPECT_EQ(rows[i][7], 0);
    EXPECT_EQ(rows[i][9], 0);
  }
}

TEST(EngineLoop, AStepLogThatCannotBeCreatedIsRefusedNamingTheFlagAndThePath) {
  const std::optional<ModelConfig> model = findModelPreset("qwen3-tiny");
  ASSERT_TRUE(model.has_value());
  try {
    EngineLoop loop(makeSimBackend(*model, SimProfile::parse("fixed:0,0"), 7), smallConfig(),
                    "/nonexistent-folder/steps.csv");
    FAIL() << "the loop started without its step log";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--step-log /nonexistent-folder/steps.csv"), std::string::npos)
        << error.what();
  }
}

TEST(EngineLoop, ServesRequestsSubmittedFromManyThreadsAndAccountsForEveryToken) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 50;
  std::vector<Collector> collectors(kThreads * kPerThread);
  auto loop = makeLoop("fixed:0,0");
  std::vector<std::thread> submitters;
  for (int t = 0; t < kThreads; ++t) {
    submitters.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const int n = t * kPerThread + i;
        EXPECT_EQ(loop->submit(request("r" + std::to_string(n), 5 + n % 40, 1 + n % 17),
                               collectors[static_cast<std::size_t>(n)].sink()),
                  EngineLoop::SubmitResult::kAccepted);
      }
    });
  }
  for (std::thread& submitter : submitters)
    submitter.join();
  std::uint64_t promptTokens = 0;
  std::uint64_t generated = 0;
  for (int n = 0; n < kThreads * kPerThread; ++n) {
    Collector& collector = collectors[static_cast<std::size_t>(n)];
    ASSERT_TRUE(collector.waitFinished()) << "request " << n;
    const auto events = collector.events();
    EXPECT_EQ(events.size(), static_cast<std::size_t>(1 + n % 17));
    EXPECT_EQ(events.back().finish, FinishReason::kLength);
    EXPECT_EQ(events.back().completionTokens, 1 + n % 17);
    promptTokens += static_cast<std::uint64_t>(5 + n % 40);
    generated += static_cast<std::uint64_t>(1 + n % 17);
  }
  const EngineStats stats = loop->stats();
  EXPECT_EQ(stats.promptTokensTotal, promptTokens);
  EXPECT_EQ(stats.generationTokensTotal, generated);
  EXPECT_EQ(stats.running, 0);
  EXPECT_EQ(stats.waiting, 0);
  EXPECT_EQ(stats.freeBlocks, stats.numBlocks);
  EXPECT_EQ(stats.kvCacheUsage, 0.0);
  EXPECT_GT(stats.stepsTotal, 0u);
}

TEST(EngineLoop, AbortEndsTheRequestWithAFinalAbortAndFreesItsBlocksAtOnce) {
  Collector collector;
  auto loop = makeLoop("fixed:0,20");
  ASSERT_EQ(loop->submit(request("long", 100, 1000), collector.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(collector.waitEvents(2));
  EXPECT_LT(loop->stats().freeBlocks, loop->stats().numBlocks);
  loop->abort("long");
  loop->abort("no-such-request");
  ASSERT_TRUE(collector.waitFinished());
  const auto events = collector.events();
  EXPECT_EQ(events.back().finish, FinishReason::kAbort);
  EXPECT_TRUE(events.back().tokens.empty());
  EXPECT_EQ(events.back().completionTokens, static_cast<int>(events.size()) - 1);
  EXPECT_EQ(events.back().promptTokens, 100);
  const EngineStats stats = loop->stats();
  EXPECT_EQ(stats.freeBlocks, stats.numBlocks);
  EXPECT_EQ(stats.running, 0);
  EXPECT_EQ(stats.generationTokensTotal, events.size() - 1);
}

TEST(EngineLoop, RefusesRequestsBeyondMaxWaitingWithQueueFull) {
  Collector first;
  std::vector<Collector> queued(3);
  {
    SchedulerConfig config = smallConfig();
    config.maxNumSeqs = 1;
    config.maxWaiting = 2;
    auto loop = makeLoop("fixed:0,1000", config);
    ASSERT_EQ(loop->submit(request("first", 10, 100), first.sink()), EngineLoop::SubmitResult::kAccepted);
    ASSERT_TRUE(first.waitEvents(1));  // running: the others can only wait behind it
    EXPECT_EQ(loop->submit(request("q0", 10, 10), queued[0].sink()), EngineLoop::SubmitResult::kAccepted);
    EXPECT_EQ(loop->submit(request("q1", 10, 10), queued[1].sink()), EngineLoop::SubmitResult::kAccepted);
    EXPECT_EQ(loop->submit(request("q2", 10, 10), queued[2].sink()), EngineLoop::SubmitResult::kQueueFull);
  }
  ASSERT_TRUE(first.waitFinished(0ms));
  EXPECT_EQ(first.events().back().finish, FinishReason::kAbort);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(queued[static_cast<std::size_t>(i)].waitFinished(0ms));
    EXPECT_EQ(queued[static_cast<std::size_t>(i)].events().size(), 1u);
  }
  EXPECT_TRUE(queued[2].events().empty());  // a refused request hears nothing
}

TEST(EngineLoop, RefusesWhatCanNeverRunAndRejectsEmptyRequests) {
  Collector collector;
  SchedulerConfig config = smallConfig();
  config.numBlocks = 4;  // 64 KV slots
  config.maxModelLen = 100;
  auto loop = makeLoop("fixed:0,0", config);
  EXPECT_EQ(loop->submit(request("long", 90, 11), collector.sink()), EngineLoop::SubmitResult::kTooLong);
  EXPECT_EQ(loop->submit(request("big", 60, 10), collector.sink()), EngineLoop::SubmitResult::kTooLong);
  EXPECT_THROW(loop->submit(request("empty", 0, 10), collector.sink()), Error);
  EXPECT_THROW(loop->submit(request("none", 5, 0), collector.sink()), Error);
  EXPECT_EQ(loop->submit(request("ok", 60, 5), collector.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(collector.waitFinished());
  EXPECT_EQ(collector.events().size(), 5u);
}

TEST(EngineLoop, DestructorGivesEveryUnfinishedRequestAFinalAbort) {
  std::vector<Collector> collectors(20);
  {
    auto loop = makeLoop("fixed:0,1000");
    for (std::size_t i = 0; i < collectors.size(); ++i) {
      ASSERT_EQ(loop->submit(request("r" + std::to_string(i), 30, 50), collectors[i].sink()),
                EngineLoop::SubmitResult::kAccepted);
    }
    ASSERT_TRUE(collectors[0].waitEvents(1));
  }
  for (Collector& collector : collectors) {
    ASSERT_TRUE(collector.waitFinished(0ms));
    const auto events = collector.events();
    EXPECT_EQ(events.back().finish, FinishReason::kAbort);
    EXPECT_EQ(events.back().completionTokens, static_cast<int>(events.size()) - 1);
  }
}

TEST(EngineLoop, ReportsPrefixCacheHitsForARepeatedPrompt) {
  Collector first;
  Collector second;
  auto loop = makeLoop("fixed:0,0");
  ASSERT_EQ(loop->submit(request("a", 64, 4), first.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(first.waitFinished());
  ASSERT_EQ(loop->submit(request("b", 64, 4), second.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(second.waitFinished());
  EXPECT_EQ(first.events().back().cachedPromptTokens, 0);
  EXPECT_EQ(second.events().back().cachedPromptTokens, 48);  // 3 full blocks; the 4th is recomputed
  const EngineStats stats = loop->stats();
  EXPECT_EQ(stats.prefixCacheQueries, 128u);
  EXPECT_EQ(stats.prefixCacheHits, 48u);
}

TEST(EngineLoop, PreemptsUnderMemoryPressureAndStillFinishesEveryRequest) {
  std::vector<Collector> collectors(10);
  SchedulerConfig config = smallConfig();
  config.numBlocks = 8;  // 128 slots; each request grows to 89 tokens
  auto loop = makeLoop("fixed:0,0", config);
  for (std::size_t i = 0; i < collectors.size(); ++i) {
    ASSERT_EQ(loop->submit(request("r" + std::to_string(i), 30, 60, static_cast<std::int32_t>(i * 1000)),
                           collectors[i].sink()),
              EngineLoop::SubmitResult::kAccepted);
  }
  for (Collector& collector : collectors) {
    ASSERT_TRUE(collector.waitFinished());
    EXPECT_EQ(collector.events().size(), 60u);
    EXPECT_EQ(collector.events().back().finish, FinishReason::kLength);
  }
  const EngineStats stats = loop->stats();
  EXPECT_GT(stats.preemptionsTotal, 0u);
  EXPECT_EQ(stats.generationTokensTotal, 600u);
  EXPECT_EQ(stats.freeBlocks, 8);
}

TEST(EngineLoop, ASinkThatThrowsIsTreatedAsADisconnect) {
  Collector healthy;
  int calls = 0;
  auto loop = makeLoop("fixed:0,0");
  ASSERT_EQ(loop->submit(request("bad", 10, 50),
                         [&calls](GenerationEvent&&) {
                           ++calls;
                           throw std::runtime_error("client went away");
                         }),
            EngineLoop::SubmitResult::kAccepted);
  ASSERT_EQ(loop->submit(request("good", 10, 50), healthy.sink()), EngineLoop::SubmitResult::kAccepted);
  ASSERT_TRUE(healthy.waitFinished());
  EXPECT_EQ(healthy.events().size(), 50u);
  loop.reset();
  EXPECT_LT(calls, 50);  // aborted after its first failure (plus the final abort event)
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

TEST(EngineLoop, WaitsWithoutSpinningWhileTokensAreNotDue) {
  Collector collector;
  auto loop = makeLoop("fixed:60000,0");
  ASSERT_EQ(loop->submit(request("slow", 10, 5), collector.sink()), EngineLoop::SubmitResult::kAccepted);
  const double cpuBefore = processCpuSeconds();
  std::this_thread::sleep_for(200ms);  // a measurement window, not synchronisation
  const double cpuUsed = processCpuSeconds() - cpuBefore;
  EXPECT_LT(cpuUsed, 0.02) << "the idle loop burnt " << cpuUsed * 1e3 << " ms of CPU in 200 ms";
  EXPECT_TRUE(collector.events().empty());
}

}  // namespace
}  // namespace ayar::engine
