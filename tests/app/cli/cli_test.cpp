// End-to-end tests of `ayar-cli`: the program as a user runs it, against a real ayar-engine process
// (sim backend) or the loopback SSE test server, with a real SQLite store.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/engines/engine_launcher.h"
#include "core/engines/process.h"
#include "core/store/result_store.h"
#include "tests/app/cli/cli_process.h"
#include "tests/support/sse_server/sse_test_server.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using test::runCli;
using test::waitForStoredRequests;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

nlohmann::json readJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::vector<std::string> smallRandom(int prompts, int inputLen, int outputLen) {
  return {"--dataset-name",      "random",
          "--num-prompts",       std::to_string(prompts),
          "--random-input-len",  std::to_string(inputLen),
          "--random-output-len", std::to_string(outputLen)};
}

// `args` followed by a small random dataset's flags.
std::vector<std::string> withRandom(std::vector<std::string> args, int prompts, int inputLen, int outputLen) {
  const auto dataset = smallRandom(prompts, inputLen, outputLen);
  args.insert(args.end(), dataset.begin(), dataset.end());
  return args;
}

// An ayar-engine the test starts itself (for remote-endpoint cases), stopped with the test.
class EngineServer {
 public:
  explicit EngineServer(const std::vector<std::string>& extraArgs, const std::filesystem::path& log) {
    m_port = pickFreePort();
    ProcessOptions options;
    options.args = {AYAR_ENGINE_BIN, "serve",  "qwen3-0.6b",          "--device",
                    "sim",           "--port", std::to_string(m_port)};
    options.args.insert(options.args.end(), extraArgs.begin(), extraArgs.end());
    options.logPath = log;
    m_process = std::make_unique<Process>(options);
    for (int i = 0; i < 300; ++i) {
      if (httpGet(baseUrl() + "/health", std::chrono::milliseconds(200)).status == 200) return;
      if (!m_process->isRunning()) break;
      std::this_thread::sleep_for(
          std::chrono::milliseconds(50));  // polling a process's start-up, not synchronising threads
    }
    ADD_FAILURE() << "ayar-engine did not start:\n" << m_process->tailText();
  }
  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(m_port); }

 private:
  int m_port = 0;
  std::unique_ptr<Process> m_process;
};

// The issue's acceptance check: the sim's fixed timings measured back through the whole program
// within a millisecond. One of three short runs must be clean (a loaded 2-core machine can park a
// thread for a scheduler tick); a wrong definition of TTFT or TPOT fails all three.
TEST(AyarCli, BenchMeasuresTheSimsFixedTimingsWithinAMillisecond) {
  test::TempDir dir;
  double worstTtft = 1e9, worstTpot = 1e9;
  for (int attempt = 0;
       attempt < 3 && (worstTtft > 1.0 * test::kTimingSlack || worstTpot > 1.0 * test::kTimingSlack);
       ++attempt) {
    const std::string name = "r" + std::to_string(attempt) + ".json";
    const auto result =
        runCli(withRandom({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device", "sim",
                           "--engine-arg=--sim-profile=fixed:30,5", "--request-rate", "20", "--save-result",
                           "--save-detailed", "--result-dir", dir.path().string(), "--result-filename", name,
                           "--store", (dir / "store.db").string()},
                          20, 16, 10),
               dir / ("log" + std::to_string(attempt)));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const auto json = readJson(dir / name);
    ASSERT_EQ(json["completed"], 20);
    worstTtft = worstTpot = 0;
    // The first request also opens the run's first connection: its TTFT holds a TCP handshake that
    // the server's clock never sees (about 1 ms on a 2-core VM, with the old and the new client alike).
    for (std::size_t i = 1; i < json["ttfts"].size(); ++i)
      worstTtft = std::max(worstTtft, std::abs(json["ttfts"][i].get<double>() * 1000.0 - 30.0));
    for (std::size_t i = 0; i < json["itls"].size(); ++i) {
      ASSERT_EQ(json["output_lens"][i], 10);
      double sum = 0;
      for (const auto& itl : json["itls"][i])
        sum += itl.get<double>();
      worstTpot = std::max(worstTpot, std::abs(sum * 1000.0 / 9.0 - 5.0));
    }
  }
  EXPECT_LE(worstTtft, 1.0 * test::kTimingSlack);
  EXPECT_LE(worstTpot, 1.0 * test::kTimingSlack);
}

TEST(AyarCli, BenchPrintsTheBlockStoresTheRunAndRunsCommandsReadIt) {
  test::TempDir dir;
  const std::string store = (dir / "store.db").string();
  const auto result = runCli(withRandom({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device",
                                         "sim", "--engine-arg=--sim-profile=fixed:5,1", "--label", "baseline",
                                         "--store", store, "--metadata", "gpu=none"},
                                        8, 32, 4),
                             dir / "bench.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "============ Serving Benchmark Result ============"));
  EXPECT_TRUE(contains(result.output, "Successful requests:                     8"));
  EXPECT_TRUE(contains(result.output, "SIMULATED"));

  const auto list = runCli({"runs", "list", "--store", store}, dir / "list.log");
  ASSERT_EQ(list.exitCode, 0) << list.output;
  EXPECT_TRUE(contains(list.output, "baseline"));
  EXPECT_TRUE(contains(list.output, "completed"));

  const auto show = runCli({"runs", "show", "1", "--store", store}, dir / "show.log");
  ASSERT_EQ(show.exitCode, 0) << show.output;
  EXPECT_TRUE(contains(show.output, "SIMULATED"));
  EXPECT_TRUE(contains(show.output, "engine log: " + (dir / "logs").string()))
      << show.output;  // beside the store
  EXPECT_FALSE(std::filesystem::is_empty(dir / "logs"));
  EXPECT_TRUE(contains(show.output, "Successful requests:                     8"));

  const auto exported =
      runCli({"runs", "export", "1", "--store", store, "-o", (dir / "e.json").string()}, dir / "e.log");
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  const auto json = readJson(dir / "e.json");
  EXPECT_EQ(json["completed"], 8);
  EXPECT_EQ(json["ttfts"].size(), 8u);  // detailed
  EXPECT_EQ(json["gpu"], "none");
  EXPECT_TRUE(json["ayar"]["simulated"].get<bool>());

  const auto csv = runCli({"runs", "export", "1", "--format", "csv", "--store", store}, dir / "csv.log");
  ASSERT_EQ(csv.exitCode, 0);
  EXPECT_TRUE(contains(csv.output, "index,scheduled_s,start_s,ttft_ms"));
  EXPECT_EQ(std::count(csv.output.begin(), csv.output.end(), '\n'), 9);

  const auto missing = runCli({"runs", "show", "99", "--store", store}, dir / "missing.log");
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_TRUE(contains(missing.output, "no run 99"));
}

// 200 requests at 5 req/s against `server`: a run that is still going when the test stops it.
test::CliProcess startLongRun(const test::SseTestServer& server, const std::filesystem::path& store,
                              const std::filesystem::path& log) {
  return test::CliProcess(withRandom({"bench", "--base-url", server.baseUrl(), "--model", "m",
                                      "--request-rate", "5", "--store", store.string()},
                                     200, 16, 5),
                          log);
}

TEST(AyarCli, CtrlCStopsCleanlyAndStillPrintsAndStoresWhatWasMeasured) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 20, .tokensPerChunk = 1, .recordRequests = false});
  const auto store = dir / "store.db";
  test::CliProcess cli = startLongRun(server, store, dir / "bench.log");
  waitForStoredRequests(store, 3, cli);
  cli.signal(SIGINT);
  EXPECT_EQ(cli.wait(std::chrono::seconds(30)), 130);
  const std::string output = cli.output();
  EXPECT_TRUE(contains(output, "Serving Benchmark Result")) << output;
  EXPECT_TRUE(contains(output, "Stopped by the user")) << output;
  ResultStore reader(store);
  const auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs.front().status, RunStatus::Cancelled);
  const auto stored = reader.loadRequests(runs.front().id);
  EXPECT_GE(stored.size(), 3u);
  EXPECT_LT(stored.size(), 200u);
}

TEST(AyarCli, AKilledRunKeepsItsRequestsAndListsAsInterrupted) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 20, .tokensPerChunk = 1, .recordRequests = false});
  const auto store = dir / "store.db";
  test::CliProcess cli = startLongRun(server, store, dir / "bench.log");
  waitForStoredRequests(store, 4, cli);
  cli.signal(SIGKILL);
  EXPECT_EQ(cli.wait(std::chrono::seconds(30)), 128 + SIGKILL);
  const auto list = runCli({"runs", "list", "--store", store.string()}, dir / "list.log");
  EXPECT_TRUE(contains(list.output, "interrupted")) << list.output;
  // Its figures are those of the requests it kept, as `runs show` prints them, not "-".
  const std::size_t at = list.output.find("interrupted");
  const std::string row = list.output.substr(at, list.output.find('\n', at) - at);
  EXPECT_EQ(row.find(" -"), std::string::npos) << row;
  ResultStore reader(store);
  EXPECT_GE(reader.loadRequests(reader.listRuns().front().id).size(), 4u);
  // An interrupted run still exports: the result is rebuilt from the stored requests.
  const auto exported = runCli(
      {"runs", "export", "1", "--store", store.string(), "-o", (dir / "e.json").string()}, dir / "e.log");
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  EXPECT_GE(readJson(dir / "e.json")["completed"].get<int>(), 4);
}

// ayar-cli killed with SIGKILL cannot stop the engine it started: the engine notices on its own that
// its parent is gone and stops, rather than hold its port and memory for nobody.
TEST(AyarCli, TheBundledEngineStopsWhenAyarCliIsKilled) {
  test::TempDir dir;
  const auto store = dir / "store.db";
  test::CliProcess cli(
      withRandom({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device", "sim",
                  "--engine-arg=--sim-profile=fixed:1,20", "--request-rate", "5", "--store", store.string()},
                 200, 16, 5),
      dir / "bench.log");
  waitForStoredRequests(store, 2, cli);
  const std::string engineUrl = ResultStore(store).listRuns().front().info.baseUrl;
  ASSERT_EQ(httpGet(engineUrl + "/health", std::chrono::seconds(2)).status, 200);
  cli.signal(SIGKILL);
  cli.wait(std::chrono::seconds(30));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int status = 200;
  while (status != 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // polling another process's shutdown
    status = httpGet(engineUrl + "/health", std::chrono::milliseconds(500)).status;
  }
  EXPECT_EQ(status, 0) << "the engine at " << engineUrl << " still answers after its parent died";
}

TEST(AyarCli, TheApiKeyIsSentButNeverPrintedOrStored) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 1, .tokensPerChunk = 1, .recordRequests = true});
  const std::string key = "sk-test-4f9a2b7c1d";
  const auto result =
      runCli(withRandom({"bench", "--base-url", server.baseUrl(), "--model", "m", "--api-key", key, "--store",
                         (dir / "store.db").string(), "--save-result", "--save-detailed", "--result-dir",
                         dir.path().string(), "--result-filename", "r.json"},
                        3, 8, 2),
             dir / "bench.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  bool sent = false;
  for (const auto& request : server.servedRequests())
    sent |= request.authorization == "Bearer " + key;
  EXPECT_TRUE(sent);
  EXPECT_FALSE(contains(result.output, key));
  for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
    std::ifstream in(file.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    EXPECT_FALSE(contains(bytes.str(), key)) << file.path();
  }
}

// --metadata entries named like secrets and a key in the URL's userinfo are redacted in everything
// printed and written, as --api-key and --extra-body's secrets are.
TEST(AyarCli, SecretsInMetadataAndInTheUrlAreNeitherPrintedNorStored) {
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 1, .tokensPerChunk = 1, .recordRequests = true});
  const std::string urlKey = "sk-url-9e8d7c";
  std::string url = server.baseUrl();
  url.insert(url.find("://") + 3, "user:" + urlKey + "@");
  const std::vector<std::string> secrets = {urlKey, "sk-meta-1a2b", "tok-meta-3c4d", "pw-meta-5e6f"};
  const auto result =
      runCli(withRandom({"bench", "--base-url", url, "--model", "m", "--metadata", "api_key=sk-meta-1a2b",
                         "token=tok-meta-3c4d", "password=pw-meta-5e6f", "tp=1", "--store",
                         (dir / "store.db").string(), "--save-result", "--save-detailed", "--result-dir",
                         dir.path().string(), "--result-filename", "r.json"},
                        3, 8, 2),
             dir / "bench.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_FALSE(server.servedRequests().empty());
  for (const std::string& secret : secrets)
    EXPECT_FALSE(contains(result.output, secret)) << secret << "\n" << result.output;
  EXPECT_TRUE(contains(result.output, "[redacted]@127.0.0.1")) << result.output;
  const nlohmann::json saved = readJson(dir / "r.json");
  EXPECT_EQ(saved["api_key"], "[redacted]");
  EXPECT_EQ(saved["tp"], "1");
  for (const char* format : {"json", "vllm"}) {
    const auto exported =
        runCli({"runs", "export", "1", "--format", format, "--store", (dir / "store.db").string(), "-o",
                (dir / (std::string("export.") + format)).string()},
               dir / "export.log");
    ASSERT_EQ(exported.exitCode, 0) << exported.output;
  }
  const auto show = runCli({"runs", "show", "1", "--store", (dir / "store.db").string()}, dir / "show.log");
  ASSERT_EQ(show.exitCode, 0) << show.output;
  for (const std::string& secret : secrets)
    EXPECT_FALSE(contains(show.output, secret)) << secret << "\n" << show.output;
  for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
    std::ifstream in(file.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    for (const std::string& secret : secrets)
      EXPECT_FALSE(contains(bytes.str(), secret)) << secret << " in " << file.path();
  }
}

TEST(AyarCli, BadInputGetsAMessageThatNamesItAndSaysWhatToDo) {
  test::TempDir dir;
  const auto store = (dir / "store.db").string();
  auto expectError = [&](const std::vector<std::string>& args, int code, const std::string& message) {
    const auto result = runCli(args, dir / "bad.log");
    EXPECT_EQ(result.exitCode, code) << result.output;
    EXPECT_TRUE(contains(result.output, message)) << "expected \"" << message << "\" in:\n" << result.output;
  };
  expectError({"bench", "--load-profile", "nope", "--store", store}, 1, "no profile named \"nope\"");
  expectError({"bench", "--profile", "cpu-quick", "--store", store}, 1, "--load-profile cpu-quick");
  expectError({"bench", "--use-beam-search", "--store", store}, 1, "--use-beam-search is not supported");
  expectError({"bench", "--ramp-up-strategy", "linear", "--store", store}, 1, "--ramp-up-start-rps");
  expectError({"bench", "--base-url", "http://127.0.0.1:1", "--model", "m", "--store", store}, 1,
              "127.0.0.1:1");
  expectError({"bench", "--base-url", "http://127.0.0.1:1", "--extra-body", "{oops", "--store", store}, 1,
              "--extra-body is not valid JSON");
  expectError({"bench", "--port", "0"}, 2, "--port");
  expectError(
      {"bench", "--tokenizer", "/nonexistent/tok", "--base-url", "http://127.0.0.1:1", "--store", store}, 1,
      "/nonexistent/tok");
  expectError({"bench", "--dataset-name", "sharegpt", "--dataset-path", "/nonexistent/sg.json", "--base-url",
               "http://127.0.0.1:1", "--store", store},
              1, "/nonexistent/sg.json");
  expectError({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device", "sim",
               "--engine-arg=--max-num-seqs=-3", "--store", store},
              1, "--max-num-seqs");
}

TEST(AyarCli, ServerErrorsStopTheRunAtTheTestRequestWithTheServersWords) {
  test::TempDir dir;
  test::SseTestServer server;
  const auto store = (dir / "store.db").string();
  for (const int status : {429, 500, 503}) {
    const auto result =
        runCli(withRandom({"bench", "--base-url", server.baseUrl(), "--model", "m", "--store", store,
                           "--extra-body", "{\"ayar_test\": {\"status\": " + std::to_string(status) + "}}"},
                          3, 8, 2),
               dir / "bad.log");
    EXPECT_EQ(result.exitCode, 1) << result.output;
    EXPECT_TRUE(contains(result.output, "test request")) << result.output;
    EXPECT_TRUE(contains(result.output, std::to_string(status))) << result.output;
  }
}

// Requests whose output runs past three chunks lose their connection; the shorter ones succeed. The
// run completes, counts the failures and names them.
TEST(AyarCli, PartialFailuresAreCountedAndTheFirstErrorsShown) {
  test::TempDir dir;
  test::SseTestServer server;
  const auto result = runCli({"bench",
                              "--base-url",
                              server.baseUrl(),
                              "--model",
                              "m",
                              "--no-store",
                              "--dataset-name",
                              "random",
                              "--num-prompts",
                              "30",
                              "--random-input-len",
                              "8",
                              "--random-output-len",
                              "4",
                              "--random-range-ratio",
                              "0.5",
                              "--ready-check-timeout-sec",
                              "0",
                              "--extra-body",
                              R"({"ayar_test": {"drop_after_chunks": 3}})"},
                             dir / "partial.log");
  EXPECT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "Failed requests:")) << result.output;
  EXPECT_TRUE(contains(result.output, "requests failed; the first errors")) << result.output;
  EXPECT_TRUE(contains(result.output, "mid-stream")) << result.output;
}

TEST(AyarCli, MissingKeyAndUnknownModelAgainstTheEngineAreExplained) {
  test::TempDir dir;
  EngineServer engine({"--api-key", "right-key", "--sim-profile", "fixed:1,1"}, dir / "engine.log");
  const auto store = (dir / "store.db").string();
  const auto noKey =
      runCli(withRandom({"bench", "--base-url", engine.baseUrl(), "--model", "qwen3-0.6b", "--store", store},
                        2, 8, 2),
             dir / "nokey.log");
  EXPECT_EQ(noKey.exitCode, 1) << noKey.output;
  EXPECT_TRUE(contains(noKey.output, "401") || contains(noKey.output, "API key")) << noKey.output;

  const auto wrongModel = runCli(withRandom({"bench", "--base-url", engine.baseUrl(), "--model",
                                             "no-such-model", "--api-key", "right-key", "--store", store},
                                            2, 8, 2),
                                 dir / "model.log");
  EXPECT_EQ(wrongModel.exitCode, 1) << wrongModel.output;
  EXPECT_TRUE(contains(wrongModel.output, "404")) << wrongModel.output;
  EXPECT_TRUE(contains(wrongModel.output, "no-such-model")) << wrongModel.output;
}

}  // namespace
}  // namespace ayar
