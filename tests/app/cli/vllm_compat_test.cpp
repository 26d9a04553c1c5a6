// `ayar-cli bench` as a drop-in for `vllm bench serve`: for the same command line it sends what
// vLLM's client sends (seen by the loopback test server), prints vLLM's block and writes vLLM's keys.
// What vLLM would send is written out here from vLLM's client code: its request payloads, its
// defaults, and, from tests/vllm/reference_draws.json, the prompts its random dataset draws.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/app/cli/cli_process.h"
#include "tests/support/sse_server/sse_test_server.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using test::runCli;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<test::ServedRequest> generations(const test::SseTestServer& server) {
  std::vector<test::ServedRequest> out;
  for (const auto& served : server.servedRequests()) {
    if (served.path == "/v1/completions" || served.path == "/v1/chat/completions") out.push_back(served);
  }
  return out;
}

// The run's requests (those with an x-request-id) by their id's index.
std::map<int, nlohmann::json> runBodies(const test::SseTestServer& server, const std::string& prefix) {
  std::map<int, nlohmann::json> bodies;
  for (const auto& served : generations(server)) {
    if (served.requestId.rfind(prefix, 0) == 0) {
      bodies[std::stoi(served.requestId.substr(prefix.size()))] = nlohmann::json::parse(served.body);
    }
  }
  return bodies;
}

const nlohmann::json& vllmRandomCase(int seed) {
  static const nlohmann::json reference = [] {
    std::ifstream in(std::string(AYAR_VLLM_REFERENCE_DIR) + "/reference_draws.json");
    return nlohmann::json::parse(in);
  }();
  for (const auto& c : reference["random_dataset"]) {
    if (c["seed"] == seed) return c;
  }
  throw std::runtime_error("no reference case for seed " + std::to_string(seed));
}

nlohmann::json readJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The random dataset with vLLM's defaults: ignore_eos forced on the OpenAI backends, temperature 0,
// the payloads of vLLM's completions and chat request functions, the prompts of vLLM's random
// dataset for the seed, each run request with x-request-id <prefix><index>.
TEST(VllmCompatibility, ForTheSameRandomCommandLineAyarSendsWhatVllmSends) {
  test::TempDir dir;
  const auto& expected = vllmRandomCase(1234);
  for (const std::string backend : {"openai", "openai-chat"}) {
    SCOPED_TRACE(backend);
    test::SseTestServer server;
    const std::string endpoint = backend == "openai" ? "/v1/completions" : "/v1/chat/completions";
    const auto result = runCli({"bench",
                                "--base-url",
                                server.baseUrl(),
                                "--model",
                                "Qwen/Qwen3-14B",
                                "--backend",
                                backend,
                                "--endpoint",
                                endpoint,
                                "--dataset-name",
                                "random",
                                "--random-input-len",
                                "9",
                                "--random-output-len",
                                "3",
                                "--num-prompts",
                                "8",
                                "--seed",
                                "1234",
                                "--request-id-prefix",
                                "bench-1a2b3c4d-",
                                "--no-store"},
                               dir / ("random-" + backend + ".log"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_TRUE(contains(result.output, "ignore_eos: true is sent with every request")) << result.output;
    EXPECT_TRUE(contains(result.output, "temperature: 0 (greedy) is sent")) << result.output;
    const auto bodies = runBodies(server, "bench-1a2b3c4d-");
    ASSERT_EQ(bodies.size(), 8u);
    for (int i = 0; i < 8; ++i) {
      SCOPED_TRACE(i);
      const auto& sample = expected["prompts"][static_cast<std::size_t>(i)];
      const std::string prompt = sample["prompt"].get<std::string>();
      const int outputLen = sample["expected_output_len"].get<int>();
      nlohmann::json vllm;
      if (backend == "openai") {
        vllm = {{"model", "Qwen/Qwen3-14B"},
                {"prompt", prompt},
                {"repetition_penalty", 1.0},
                {"max_tokens", outputLen},
                {"logprobs", nullptr},
                {"stream", true},
                {"stream_options", {{"include_usage", true}}}};
      } else {
        vllm = {{"model", "Qwen/Qwen3-14B"},
                {"messages", {{{"role", "user"}, {"content", {{{"type", "text"}, {"text", prompt}}}}}}},
                {"max_completion_tokens", outputLen},
                {"stream", true},
                {"stream_options", {{"include_usage", true}}}};
      }
      vllm["ignore_eos"] = true;  // forced for the random dataset
      vllm["temperature"] = 0.0;  // the default sampling parameter
      EXPECT_EQ(bodies.at(i), vllm);
    }
    // The test request is the first request as it is, without a request id.
    const auto served = generations(server);
    ASSERT_EQ(served.size(), 9u);
    EXPECT_EQ(served.front().requestId, "");
    EXPECT_EQ(nlohmann::json::parse(served.front().body), bodies.at(0));
  }
}

// Sampling flags go into every request; --extra-body wins over them, as vLLM merges them. A
// dataset other than random gets no ignore_eos (vLLM forces it for random only).
TEST(VllmCompatibility, SamplingFlagsAndExtraBodyAreMergedAsVllmMergesThem) {
  test::TempDir dir;
  test::SseTestServer server;
  const auto result = runCli({"bench",
                              "--base-url",
                              server.baseUrl(),
                              "--model",
                              "m",
                              "--dataset-name",
                              "prefix_repetition",
                              "--prefix-repetition-prefix-len",
                              "8",
                              "--prefix-repetition-suffix-len",
                              "8",
                              "--prefix-repetition-num-prefixes",
                              "2",
                              "--prefix-repetition-output-len",
                              "3",
                              "--num-prompts",
                              "4",
                              "--temperature",
                              "0.7",
                              "--top-p",
                              "0.9",
                              "--top-k",
                              "20",
                              "--min-p",
                              "0.05",
                              "--extra-body",
                              R"({"top_p": 0.5})",
                              "--request-id-prefix",
                              "r-",
                              "--no-store"},
                             dir / "sampling.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_FALSE(contains(result.output, "ignore_eos: true is sent")) << result.output;
  const auto bodies = runBodies(server, "r-");
  ASSERT_EQ(bodies.size(), 4u);
  for (const auto& [index, body] : bodies) {
    EXPECT_FALSE(body.contains("ignore_eos"));
    EXPECT_EQ(body["temperature"], 0.7);
    EXPECT_EQ(body["top_p"], 0.5);
    EXPECT_EQ(body["top_k"], 20);
    EXPECT_EQ(body["min_p"], 0.05);
    EXPECT_EQ(body["max_tokens"], 3);
  }
}

// Without --base-url, --host or --port, vLLM's client targets 127.0.0.1:8000; so does ayar-cli,
// starting no engine of its own.
TEST(VllmCompatibility, WithoutATargetTheRunGoesTo127001Port8000) {
  test::TempDir dir;
  const auto result = runCli({"bench", "--model", "m", "--num-prompts", "1", "--random-input-len", "8",
                              "--random-output-len", "2", "--no-store"},
                             dir / "default-target.log");
  EXPECT_TRUE(contains(result.output, "127.0.0.1:8000")) << result.output;
  EXPECT_FALSE(contains(result.output, "starting ayar-engine")) << result.output;
}

// vLLM's defaults for the report: TTFT, TPOT and ITL at P99, "Failed requests" always shown.
TEST(VllmCompatibility, TheBlockHasVllmsDefaultMetricsAndLayout) {
  test::TempDir dir;
  test::SseTestServer server;
  const auto result = runCli({"bench", "--base-url", server.baseUrl(), "--model", "m", "--num-prompts", "3",
                              "--random-input-len", "8", "--random-output-len", "3", "--no-store"},
                             dir / "block.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  for (const char* line : {"Failed requests:                         0         \n",
                           "---------------Time to First Token----------------\n", "P99 TTFT (ms):",
                           "P99 TPOT (ms):", "P99 ITL (ms):", "Total token throughput (tok/s):"}) {
    EXPECT_TRUE(contains(result.output, line)) << line << "\n" << result.output;
  }
  for (const char* absent : {"P50", "P90", "E2EL", "Latency(s)"})
    EXPECT_FALSE(contains(result.output, absent)) << absent << "\n" << result.output;
  const auto gpustack = runCli({"bench", "--base-url", server.baseUrl(), "--model", "m", "--num-prompts", "3",
                                "--random-input-len", "8", "--random-output-len", "3", "--no-store",
                                "--percentile-metrics", "ttft,e2el", "--result-style", "gpustack"},
                               dir / "gpustack.log");
  ASSERT_EQ(gpustack.exitCode, 0) << gpustack.output;
  EXPECT_TRUE(contains(gpustack.output, "----------------------Latency---------------------\n"));
  EXPECT_TRUE(contains(gpustack.output, "Total Token throughput (tok/s):"));
}

// Every key vLLM writes, in vLLM's order, with vLLM's types; the detailed lists only with
// --save-detailed; the label names the file; --append-result adds a line.
TEST(VllmCompatibility, TheResultFileHasVllmsKeysInVllmsOrderAndTypes) {
  test::TempDir dir;
  test::SseTestServer server;
  const std::vector<std::string> args = {"bench",
                                         "--base-url",
                                         server.baseUrl(),
                                         "--model",
                                         "org/m",
                                         "--num-prompts",
                                         "3",
                                         "--random-input-len",
                                         "8",
                                         "--random-output-len",
                                         "3",
                                         "--request-rate",
                                         "50",
                                         "--metadata",
                                         "gpu=h200",
                                         "tp=1",
                                         "--no-store",
                                         "--result-dir",
                                         dir.path().string()};
  for (const char* flag : {"--save-result", "--append-result"}) {
    auto run = args;
    run.insert(run.end(), {flag, "--label", "base", "--result-filename", "r.json"});
    const auto result = runCli(run, dir / "result.log");
    ASSERT_EQ(result.exitCode, 0) << result.output;
  }
  std::ifstream in(dir / "r.json");
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  ASSERT_FALSE(second.empty()) << "--append-result adds the second result on its own line";
  const auto json = nlohmann::ordered_json::parse(first);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items())
    keys.push_back(key);
  const std::vector<std::string> vllmKeys = {"date",
                                             "endpoint_type",
                                             "backend",
                                             "label",
                                             "model_id",
                                             "tokenizer_id",
                                             "num_prompts",
                                             "gpu",
                                             "tp",
                                             "request_rate",
                                             "burstiness",
                                             "max_concurrency",
                                             "duration",
                                             "completed",
                                             "failed",
                                             "total_input_tokens",
                                             "total_output_tokens",
                                             "request_throughput",
                                             "request_goodput",
                                             "output_throughput",
                                             "total_token_throughput",
                                             "latencies",
                                             "queue_times",
                                             "max_output_tokens_per_s",
                                             "max_concurrent_requests",
                                             "rtfx",
                                             "mean_ttft_ms",
                                             "median_ttft_ms",
                                             "std_ttft_ms",
                                             "p99_ttft_ms",
                                             "mean_tpot_ms",
                                             "median_tpot_ms",
                                             "std_tpot_ms",
                                             "p99_tpot_ms",
                                             "mean_itl_ms",
                                             "median_itl_ms",
                                             "std_itl_ms",
                                             "p99_itl_ms",
                                             "ayar"};
  EXPECT_EQ(keys, vllmKeys);
  EXPECT_EQ(json["label"], "base");
  EXPECT_TRUE(json["date"].is_string());
  EXPECT_TRUE(json["num_prompts"].is_number_integer());
  EXPECT_EQ(json["request_rate"], 50.0);
  EXPECT_TRUE(json["burstiness"].is_number_float());
  EXPECT_TRUE(json["max_concurrency"].is_null());
  EXPECT_TRUE(json["request_goodput"].is_null());
  EXPECT_TRUE(json["duration"].is_number_float());
  for (const char* count :
       {"completed", "failed", "total_input_tokens", "total_output_tokens", "max_concurrent_requests"})
    EXPECT_TRUE(json[count].is_number_integer()) << count;
  EXPECT_TRUE(json["max_output_tokens_per_s"].is_number_float());
  EXPECT_TRUE(json["rtfx"].is_number_float());
  EXPECT_EQ(json["latencies"].size(), 3u);
  EXPECT_EQ(json["queue_times"].size(), 3u);
  EXPECT_EQ(json["gpu"], "h200");

  auto detailed = args;
  detailed.insert(detailed.end(), {"--save-result", "--save-detailed", "--label", "base"});
  const auto result = runCli(detailed, dir / "detailed.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  std::filesystem::path file;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    // vLLM's name: {label}-{rate}qps-{model's last part}-{date}.json
    if (entry.path().filename().string().rfind("base-50.0qps-m-", 0) == 0) file = entry.path();
  }
  ASSERT_FALSE(file.empty()) << "no base-50.0qps-m-*.json in " << dir.path();
  const auto full = nlohmann::ordered_json::parse(std::ifstream(file));
  std::vector<std::string> lists;
  bool inLists = false;
  for (const auto& [key, value] : full.items()) {
    if (key == "input_lens") inLists = true;
    if (key == "max_output_tokens_per_s") inLists = false;
    if (inLists) lists.push_back(key);
  }
  EXPECT_EQ(lists, (std::vector<std::string>{"input_lens", "output_lens", "ttfts", "itls", "latencies",
                                             "start_times", "queue_times", "generated_texts", "errors"}));
}

TEST(VllmCompatibility, RampUpFlagsChangeTheScheduleAndNameTheFile) {
  test::TempDir dir;
  test::SseTestServer server;
  const auto result = runCli({"bench",
                              "--base-url",
                              server.baseUrl(),
                              "--model",
                              "m",
                              "--num-prompts",
                              "6",
                              "--random-input-len",
                              "8",
                              "--random-output-len",
                              "2",
                              "--ramp-up-strategy",
                              "exponential",
                              "--ramp-up-start-rps",
                              "10",
                              "--ramp-up-end-rps",
                              "40",
                              "--save-result",
                              "--result-dir",
                              dir.path().string(),
                              "--no-store"},
                             dir / "ramp.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  std::filesystem::path file;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().rfind("openai-ramp-up-exponential-10qps-40qps-m-", 0) == 0)
      file = entry.path();
  }
  ASSERT_FALSE(file.empty()) << result.output;
  const auto json = readJson(file);
  EXPECT_EQ(json["ramp_up_strategy"], "exponential");
  EXPECT_EQ(json["ramp_up_start_rps"], 10);
  EXPECT_EQ(json["ramp_up_end_rps"], 40);
  EXPECT_EQ(json["rps_change_events"].front()["rps"], 10);
  EXPECT_EQ(json["rps_change_events"].back()["rps"], 40);
}

// A tokenizer given with --engine bundled is the engine's tokenizer too.
TEST(VllmCompatibility, TheTokenizerIsPassedOnToTheBundledEngine) {
  test::TempDir dir;
  const auto result =
      runCli({"bench", "--engine", "bundled", "--model", "qwen3-0.6b", "--device", "sim",
              "--engine-arg=--sim-profile=fixed:1,1", "--tokenizer", test::tokenizerDir().string(),
              "--num-prompts", "2", "--random-input-len", "8", "--random-output-len", "2", "--no-store"},
             dir / "tokenizer.log");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "--tokenizer " + test::tokenizerDir().string())) << result.output;
}

// A ShareGPT-format file with `count` two-turn conversations of varied lengths.
void writeShareGpt(const std::filesystem::path& path, int count) {
  nlohmann::json entries = nlohmann::json::array();
  for (int i = 0; i < count; ++i) {
    std::string question = "Question " + std::to_string(i) + ":";
    for (int w = 0; w < 5 + i % 40; ++w)
      question += " word" + std::to_string((i * 7 + w) % 97);
    std::string answer = "Answer:";
    for (int w = 0; w < 5 + (i * 3) % 60; ++w)
      answer += " reply" + std::to_string((i + w) % 89);
    entries.push_back({{"id", std::to_string(i)},
                       {"conversations",
                        {{{"from", "human"}, {"value", question}}, {{"from", "gpt"}, {"value", answer}}}}});
  }
  std::ofstream(path) << entries.dump();
}

// The `vllm bench serve` lines of the seed studies run as they are, pointed at the test server.
TEST(VllmCompatibility, TheSeedStudiesCommandLinesRunAsTheyAre) {
  test::TempDir dir;
  test::SseTestServer server;
  writeShareGpt(dir / "ShareGPT_V3_unfiltered_cleaned_split.json", 1200);
  const std::vector<std::string> seedLines[] = {
      {"--model", "Qwen/Qwen3-14B", "--backend", "openai-chat", "--endpoint", "/v1/chat/completions",
       "--dataset-name", "sharegpt", "--dataset-path", "ShareGPT_V3_unfiltered_cleaned_split.json",
       "--num-prompts", "1000"},
      {"--model", "Qwen/Qwen3-14B", "--backend", "openai-chat", "--endpoint", "/v1/chat/completions",
       "--dataset-name", "random", "--random-input-len", "4000", "--random-output-len", "200",
       "--num-prompts", "500", "--seed", "42"},
  };
  int line = 0;
  for (const auto& seedLine : seedLines) {
    std::vector<std::string> args = {"bench"};
    args.insert(args.end(), seedLine.begin(), seedLine.end());
    args.insert(args.end(), {"--base-url", server.baseUrl(), "--no-store"});
    const auto result =
        runCli(args, dir / ("seed" + std::to_string(++line) + ".log"), std::chrono::seconds(300), dir.path());
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_TRUE(contains(result.output, "============ Serving Benchmark Result ============"))
        << result.output;
  }
  const auto served = generations(server);
  for (const auto& request : served)
    EXPECT_EQ(nlohmann::json::parse(request.body)["model"], "Qwen/Qwen3-14B");
  EXPECT_EQ(served.size(), 1u + 1000u + 1u + 500u);  // each run's test request, then its requests
}

}  // namespace
}  // namespace ayar
