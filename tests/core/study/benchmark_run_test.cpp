#include "core/study/benchmark_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/engines/engine_launcher.h"
#include "core/error.h"
#include "core/store/result_store.h"
#include "tests/support/sse_server/sse_test_server.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

RunSpec remoteSpec(const test::SseTestServer& server, const std::filesystem::path& store) {
  RunSpec spec;
  spec.engine.kind = EngineKind::Remote;
  spec.engine.baseUrl = server.baseUrl();
  spec.engine.model = "test-model";
  spec.tokenizer = test::tokenizerDir().string();
  spec.profile.datasetName = "random";
  spec.profile.randomInputLen = 32;
  spec.profile.randomOutputLen = 8;
  spec.profile.numPrompts = 12;
  spec.profile.requestRate = 50;
  spec.storePath = store;
  return spec;
}

// The client's TTFT and TPOT agree with the server's own timings within a millisecond. The server
// runs in this process, so both sides read the same steady clock: each record is matched to the
// request the server received just after the client sent it. On a busy 2-core machine the OS can
// park a thread for a scheduler tick, so one of a few short runs must be clean; a wrong definition
// (TTFT taken after parsing, from the schedule, or from the usage chunk) fails every run.
TEST(BenchmarkRun, MeasuredTtftAndTpotMatchTheServerWithinAMillisecond) {
  test::TempDir dir;
  double worstTtft = 0, worstTpot = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    test::SseTestServer server({.ttftMs = 40, .itlMs = 7, .tokensPerChunk = 1, .recordRequests = true});
    BenchmarkRun run(remoteSpec(server, dir / ("store" + std::to_string(attempt) + ".db")));
    const auto outcomes = run.run();
    ASSERT_EQ(outcomes.size(), 1u);
    const RunOutcome& outcome = outcomes.front();
    ASSERT_EQ(outcome.summary.completed, 12);
    std::vector<test::ServedRequest> streams;
    for (const auto& request : server.servedRequests()) {
      if (request.path == "/v1/completions") streams.push_back(request);
    }
    ASSERT_EQ(streams.size(), 13u);  // the test request first, then the run
    worstTtft = worstTpot = 0;
    for (const auto& record : outcome.records) {
      const auto start = outcome.origin + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(record.startS));
      const auto served = std::min_element(streams.begin(), streams.end(), [&](const auto& a, const auto& b) {
        return std::abs(ms(a.receivedAt - start)) < std::abs(ms(b.receivedAt - start));
      });
      ASSERT_LT(std::abs(ms(served->receivedAt - start)), 50.0);
      ASSERT_EQ(served->chunkSentAt.size(), 8u);
      ASSERT_EQ(record.chunkTimesS.size(), 8u);
      const double serverTtft = ms(served->chunkSentAt.front() - served->receivedAt);
      const double serverTpot = ms(served->chunkSentAt.back() - served->chunkSentAt.front()) / 7.0;
      const double clientTpot = (record.latencyS() - record.ttftS()) * 1000.0 / 7.0;
      worstTtft = std::max(worstTtft, std::abs(record.ttftS() * 1000.0 - serverTtft));
      worstTpot = std::max(worstTpot, std::abs(clientTpot - serverTpot));
    }
    EXPECT_NEAR(outcome.summary.ttft.meanMs, 40.0, 5.0);
    EXPECT_NEAR(outcome.summary.tpot.meanMs, 7.0, 1.0);
    if (worstTtft <= 1.0 * test::kTimingSlack && worstTpot <= 1.0 * test::kTimingSlack) break;
  }
  EXPECT_LE(worstTtft, 1.0 * test::kTimingSlack);
  EXPECT_LE(worstTpot, 1.0 * test::kTimingSlack);
}

TEST(BenchmarkRun, StoresTheRunItsRequestsAndSamples) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 5, .itlMs = 150, .tokensPerChunk = 1, .recordRequests = false});
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.label = "baseline";
  spec.profile.numPrompts = 4;
  spec.profile.randomOutputLen = 10;  // ~1.4 s per request: the sampler takes at least one sample
  spec.metadata = {{"gpu", "none"}};
  BenchmarkRun run(spec);
  const auto outcomes = run.run();
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_TRUE(outcomes.front().storeRunId);
  ResultStore store(dir / "store.db");
  const auto detail = store.loadRun(*outcomes.front().storeRunId);
  ASSERT_TRUE(detail);
  EXPECT_EQ(detail->run.status, RunStatus::Completed);
  EXPECT_EQ(detail->run.info.label, "baseline");
  EXPECT_EQ(detail->requests.size(), 4u);
  EXPECT_EQ(detail->run.summary.value("completed", 0), 4);
  EXPECT_EQ(detail->run.result.value("gpu", ""), "none");
  const bool hasInFlight = std::any_of(detail->samples.begin(), detail->samples.end(),
                                       [](const Sample& s) { return s.name == "client.in_flight"; });
  EXPECT_TRUE(hasInFlight);
}

// A profile that says "chat" is sent as chat when the run spec leaves the API to it (the GUI, studies
// and searches build specs that way); a spec that names an API wins over the profile.
TEST(BenchmarkRun, TheProfilesApiShapesTheRequestsUnlessTheRunNamesOne) {
  test::TempDir dir;
  for (const bool runNamesCompletions : {false, true}) {
    test::SseTestServer server({.ttftMs = 1, .itlMs = 1, .tokensPerChunk = 1, .recordRequests = true});
    RunSpec spec = remoteSpec(server, dir / ("store" + std::to_string(runNamesCompletions) + ".db"));
    spec.profile.backend = "openai-chat";
    spec.profile.endpoint = "/v1/chat/completions";
    spec.profile.numPrompts = 3;
    if (runNamesCompletions) {
      spec.backend = "openai";
      spec.endpoint = "/v1/completions";
    }
    BenchmarkRun run(spec);
    const auto outcomes = run.run();
    ASSERT_EQ(outcomes.size(), 1u);
    EXPECT_EQ(outcomes.front().summary.completed, 3);
    std::vector<test::ServedRequest> served;
    for (const auto& request : server.servedRequests()) {
      if (request.path.ends_with("completions")) served.push_back(request);
    }
    ASSERT_EQ(served.size(), 4u);  // the test request, then the run
    for (const auto& request : served) {
      const auto body = nlohmann::json::parse(request.body);
      if (runNamesCompletions) {
        EXPECT_EQ(request.path, "/v1/completions");
        EXPECT_TRUE(body.contains("prompt")) << request.body;
      } else {
        EXPECT_EQ(request.path, "/v1/chat/completions");
        EXPECT_TRUE(body.contains("messages")) << request.body;
      }
    }
  }
}

// A front end sees each sample batch as it is taken, and its own gauges (GPU) go into the store
// beside the client's.
TEST(BenchmarkRun, ObserverSeesEverySampleBatchAndItsExtraSamplesAreStored) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 5, .itlMs = 150, .tokensPerChunk = 1, .recordRequests = false});
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 2;
  spec.profile.randomOutputLen = 10;  // ~1.4 s: at least one tick
  std::mutex mutex;
  std::vector<Sample> seen;
  RunObserver observer;
  observer.extraSamples = [](double tS) { return std::vector<Sample>{{tS, "gpu.utilization", 42.0}}; };
  observer.onSamples = [&](std::span<const Sample> batch) {
    std::lock_guard lock(mutex);
    seen.insert(seen.end(), batch.begin(), batch.end());
  };
  BenchmarkRun run(spec, observer);
  const auto outcomes = run.run();
  ASSERT_TRUE(outcomes.front().storeRunId);
  const auto seenGpu =
      std::count_if(seen.begin(), seen.end(), [](const Sample& s) { return s.name == "gpu.utilization"; });
  EXPECT_GE(seenGpu, 1);
  EXPECT_TRUE(
      std::any_of(seen.begin(), seen.end(), [](const Sample& s) { return s.name == "client.in_flight"; }));
  ResultStore store(dir / "store.db");
  const auto stored = store.loadSamples(*outcomes.front().storeRunId);
  const auto storedGpu = std::count_if(stored.begin(), stored.end(), [](const Sample& s) {
    return s.name == "gpu.utilization" && s.value == 42.0;
  });
  EXPECT_EQ(storedGpu, seenGpu);
}

TEST(BenchmarkRun, CancelKeepsWhatFinishedAndMarksTheRunCancelled) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 20, .tokensPerChunk = 1, .recordRequests = false});
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 40;
  spec.profile.requestRate = 10;  // four seconds of arrivals
  spec.profile.randomOutputLen = 5;
  std::mutex mutex;
  std::condition_variable cv;
  std::size_t finished = 0;
  RunObserver observer;
  observer.onRecords = [&](std::span<const RequestRecord> records) {
    std::lock_guard lock(mutex);
    finished += records.size();
    cv.notify_all();
  };
  BenchmarkRun run(spec, observer);
  std::thread canceller([&] {
    std::unique_lock lock(mutex);
    cv.wait_for(lock, std::chrono::seconds(20), [&] { return finished >= 3; });
    lock.unlock();
    run.cancel();
  });
  const auto outcomes = run.run();
  canceller.join();
  ASSERT_EQ(outcomes.size(), 1u);
  const RunOutcome& outcome = outcomes.front();
  EXPECT_TRUE(outcome.cancelled);
  EXPECT_GE(outcome.summary.completed, 3);
  EXPECT_LT(outcome.summary.completed + outcome.cancelledInFlight, 40);
  EXPECT_EQ(outcome.summary.failed, 0);  // cut requests are not server failures
  ResultStore store(dir / "store.db");
  const auto stored = store.findRun(*outcome.storeRunId);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->status, RunStatus::Cancelled);
}

TEST(BenchmarkRun, AFailingTestRequestStopsTheRunWithTheServersError) {
  test::TempDir dir;
  test::SseTestServer server;
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 5;
  spec.extraBody = {{"ayar_test", {{"status", 500}}}};
  BenchmarkRun run(spec);
  try {
    run.run();
    FAIL() << "a server that fails every request must stop the run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test request"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("500"), std::string::npos) << e.what();
  }
  const auto served = server.servedRequests();
  const auto generations = std::count_if(
      served.begin(), served.end(), [](const test::ServedRequest& r) { return r.path == "/v1/completions"; });
  EXPECT_EQ(generations, 1) << "only the test request goes out";
  // The run is kept as failed, with the error, so that History shows what happened.
  ResultStore store(dir / "store.db");
  const auto runs = store.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs.front().status, RunStatus::Failed);
  EXPECT_NE(runs.front().info.notes.find("test request"), std::string::npos) << runs.front().info.notes;
  EXPECT_EQ(runs.front().info.endpoint, "/v1/completions");
  EXPECT_EQ(runs.front().storedRequests, 0);
}

// A bundled engine that does not start leaves a failed run with the error and its log's path; input
// refused before anything starts leaves nothing.
TEST(BenchmarkRun, AnEngineThatDoesNotStartIsKeptAsAFailedRunWithItsLog) {
  test::TempDir dir;
  RunSpec spec;
  spec.engine.kind = EngineKind::Bundled;
  spec.engine.engine = "ayar";
  spec.engine.device = "sim";
  spec.engine.model = "no-such-model-preset";
  spec.tokenizer = test::tokenizerDir().string();
  spec.profile.numPrompts = 2;
  spec.profile.randomInputLen = 8;
  spec.profile.randomOutputLen = 2;
  spec.label = "broken";
  spec.storePath = dir / "store.db";
  EXPECT_THROW(BenchmarkRun(spec).run(), Error);
  ResultStore store(dir / "store.db");
  auto runs = store.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs.front().status, RunStatus::Failed);
  EXPECT_EQ(runs.front().info.label, "broken");
  EXPECT_FALSE(runs.front().info.notes.empty());
  const std::string log = runs.front().info.engine.value("log", std::string());
  EXPECT_TRUE(std::filesystem::is_regular_file(log)) << log;

  spec.profile.numPrompts = 0;  // refused before anything starts
  EXPECT_THROW(BenchmarkRun(spec).run(), Error);
  EXPECT_EQ(store.listRuns().size(), 1u);
}

TEST(BenchmarkRun, RequestsThatFailDuringTheRunAreCountedAndStored) {
  test::TempDir dir;
  test::SseTestServer server;
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 30;
  spec.profile.randomOutputLen = 4;
  spec.profile.randomRangeRatio = 0.5;  // 2..6 chunks: those past 3 are dropped
  spec.extraBody = {{"ayar_test", {{"drop_after_chunks", 3}}}};
  spec.readyCheckTimeoutS = 0;  // the test request is the first request, which may be a long one
  BenchmarkRun run(spec);
  const auto outcomes = run.run();
  ASSERT_EQ(outcomes.size(), 1u);
  const RunSummary& summary = outcomes.front().summary;
  EXPECT_GT(summary.completed, 0);
  EXPECT_GT(summary.failed, 0);
  EXPECT_EQ(summary.completed + summary.failed, 30);
  ASSERT_FALSE(summary.errors.empty());
  EXPECT_NE(summary.errors.front().message.find("mid-stream"), std::string::npos);
  ResultStore store(dir / "store.db");
  const auto stored = store.loadRun(*outcomes.front().storeRunId);
  EXPECT_EQ(stored->run.status, RunStatus::Completed);
  EXPECT_EQ(stored->requests.size(), 30u);
}

std::vector<test::ServedRequest> generations(const test::SseTestServer& server) {
  std::vector<test::ServedRequest> out;
  for (const auto& served : server.servedRequests()) {
    if (served.path == "/v1/completions" || served.path == "/v1/chat/completions") out.push_back(served);
  }
  return out;
}

// As vLLM's client: the test request and the warm-ups are the first request as it is, without a
// request id; then every request of the run carries x-request-id <prefix><index>.
TEST(BenchmarkRun, SendsTheTestRequestThenWarmUpsThenTheRunWithRequestIds) {
  test::TempDir dir;
  test::SseTestServer server;
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 4;
  spec.profile.requestRate = ProfileSpec::kInfinity;
  spec.numWarmups = 2;
  spec.requestIdPrefix = "bench-0000abcd-";
  BenchmarkRun run(spec);
  ASSERT_EQ(run.run().front().summary.completed, 4);
  const auto served = generations(server);
  ASSERT_EQ(served.size(), 1u + 2u + 4u);
  std::map<std::string, nlohmann::json> byId;
  for (std::size_t i = 3; i < served.size(); ++i)
    byId[served[i].requestId] = nlohmann::json::parse(served[i].body);
  ASSERT_EQ(byId.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(byId.count("bench-0000abcd-" + std::to_string(i))) << i;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(served[i].requestId, "");
    EXPECT_EQ(nlohmann::json::parse(served[i].body), byId["bench-0000abcd-0"]);
  }
}

TEST(BenchmarkRun, AReadyCheckTimeoutOfZeroSkipsTheTestRequest) {
  test::TempDir dir;
  test::SseTestServer server;
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 3;
  spec.readyCheckTimeoutS = 0;
  BenchmarkRun run(spec);
  run.run();
  EXPECT_EQ(generations(server).size(), 3u);
}

std::vector<std::string> stagesOf(RunSpec spec) {
  std::vector<std::string> stages;
  std::mutex mutex;
  RunObserver observer;
  observer.onStage = [&](const Message& message) {
    std::lock_guard lock(mutex);
    stages.push_back(message.in(ReportLanguage::English));
  };
  BenchmarkRun run(std::move(spec), observer);
  run.run();
  return stages;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(part) != std::string::npos; });
}

// Without --tokenizer, lengths are the Qwen3 tokenizer's. A server without /tokenize gets a line
// saying so and how to give the right tokenizer; one whose /tokenize counts otherwise gets its
// prompts cut to length with its own /tokenize and /detokenize, as vLLM aligns them.
TEST(BenchmarkRun, WithoutATokenizerTheServersTokenizeChecksAndAlignsThePrompts) {
  test::TempDir dir;
  {
    test::SseTestServer server;
    RunSpec spec = remoteSpec(server, dir / "store.db");
    spec.tokenizer.clear();
    spec.profile.numPrompts = 3;
    const auto stages = stagesOf(spec);
    EXPECT_TRUE(anyContains(stages, "counted with the Qwen3 tokenizer")) << ::testing::PrintToString(stages);
    EXPECT_TRUE(anyContains(stages, "--tokenizer"));
  }
  test::SseTestServer bytes({.byteTokenizer = true});
  RunSpec spec = remoteSpec(bytes, dir / "store.db");
  spec.tokenizer.clear();
  spec.profile.numPrompts = 3;
  const auto stages = stagesOf(spec);
  EXPECT_TRUE(anyContains(stages, "cutting the prompts")) << ::testing::PrintToString(stages);
  for (const auto& served : generations(bytes)) {
    const auto prompt = nlohmann::json::parse(served.body)["prompt"].get<std::string>();
    EXPECT_LE(prompt.size(), 32u + 2u) << prompt;  // 32 bytes, a cut character turned into U+FFFD at most
  }
}

// vLLM's ramp-up: the rate rises from the start to the end rate; the result names the ramp and
// lists each whole rate it passed with the time it was reached.
TEST(BenchmarkRun, ARampUpRunRecordsVllmsRampKeysAndRateChanges) {
  test::TempDir dir;
  test::SseTestServer server;
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.requestRate = ProfileSpec::kInfinity;
  spec.profile.rampUpStrategy = "linear";
  spec.profile.rampUpStartRps = 20;
  spec.profile.rampUpEndRps = 40;
  spec.profile.numPrompts = 10;
  BenchmarkRun run(spec);
  const auto outcomes = run.run();
  const auto& result = outcomes.front().result;
  EXPECT_EQ(result["ramp_up_strategy"], "linear");
  EXPECT_EQ(result["ramp_up_start_rps"], 20);
  EXPECT_EQ(result["ramp_up_end_rps"], 40);
  EXPECT_EQ(result["request_rate"], "inf");
  const auto& events = result["rps_change_events"];
  ASSERT_EQ(events.size(), 21u);  // 20, 21, ..., 40
  EXPECT_EQ(events.front()["rps"], 20);
  EXPECT_EQ(events.back()["rps"], 40);
  EXPECT_EQ(events.back()["timestamp"].get<std::string>().substr(10, 1), "T");
}

TEST(BenchmarkRun, SweepRunsSynchronousThroughputAndTheRatesBetween) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 2, .itlMs = 2, .tokensPerChunk = 1, .recordRequests = false});
  RunSpec spec = remoteSpec(server, dir / "store.db");
  spec.profile.numPrompts = 6;
  spec.profile.randomOutputLen = 3;
  spec.profile.loadMode = LoadMode::Sweep;
  spec.profile.sweepPoints = 2;
  BenchmarkRun run(spec);
  const auto outcomes = run.run();
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(outcomes[0].title, "synchronous");
  EXPECT_EQ(outcomes[1].title, "throughput");
  EXPECT_EQ(outcomes[0].summary.maxConcurrentRequests, 1);
  for (const auto& outcome : outcomes)
    EXPECT_EQ(outcome.summary.completed, 6);
  EXPECT_GT(outcomes[2].requestRate, outcomes[0].summary.requestThroughput);
  EXPECT_LT(outcomes[3].requestRate, outcomes[1].summary.requestThroughput);
  ResultStore store(dir / "store.db");
  EXPECT_EQ(store.listRuns().size(), 4u);
}

TEST(BenchmarkRun, UnreachableEndpointIsAnErrorNamingTheUrl) {
  test::TempDir dir;
  RunSpec spec;
  spec.engine.kind = EngineKind::Remote;
  spec.engine.baseUrl = "http://127.0.0.1:1";
  spec.engine.model = "m";
  spec.tokenizer = test::tokenizerDir().string();
  spec.profile.numPrompts = 2;
  spec.profile.randomInputLen = 8;
  spec.storePath = dir / "store.db";
  BenchmarkRun run(spec);
  try {
    run.run();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:1"), std::string::npos) << e.what();
  }
}

TEST(BenchmarkRun, MissingTokenizerSaysHowToGetOne) {
  RunSpec spec;
  spec.engine.kind = EngineKind::Remote;
  spec.engine.baseUrl = "http://127.0.0.1:1";
  spec.engine.model = "m";
  spec.tokenizer = "/nonexistent/tokenizer.json";
  BenchmarkRun run(spec);
  try {
    run.run();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/tokenizer.json"), std::string::npos) << e.what();
  }
}

// How ayar-cli chooses its default model: it asks the engine it would start what `--device auto` picks.
// The real engine answers "cpu <why>" here and "cuda <GPU>" on a GPU host; an engine that cannot be
// run gives an empty answer (the CPU default then), never an exception.
TEST(BundledEngineDevice, ReportsTheEnginesOwnAnswerAndNothingForAMissingEngine) {
  const std::string line = bundledEngineDevice(AYAR_ENGINE_BIN);
  EXPECT_TRUE(line.starts_with("cuda ") || line.starts_with("cpu ")) << line;
  EXPECT_EQ(bundledEngineDevice("/nonexistent/ayar-engine"), "");
}

}  // namespace
}  // namespace ayar
