#include "core/report/result_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

std::vector<RequestRecord> sampleRecords() {
  RequestRecord a;
  a.index = 1;
  a.scheduledS = 0.25;
  a.slotWaitS = 0.125;
  a.startS = 0.5;
  a.chunkTimesS = {0.25, 0.5, 1.0};
  a.promptTokens = 12;
  a.outputTokens = 5;
  a.expectedOutputTokens = 5;
  a.success = true;
  a.httpStatus = 200;
  a.generatedText = "Merhaba d\xC3\xBCnya, \"quoted\"";
  RequestRecord b;  // listed first but index 0
  b.index = 0;
  b.startS = 0.0;
  b.chunkTimesS = {0.125, 0.75};
  b.promptTokens = 7;
  b.outputTokens = 2;
  b.outputTokensFromUsage = false;
  b.expectedOutputTokens = 4;
  b.success = true;
  b.httpStatus = 200;
  b.generatedText = "hi";
  RequestRecord c;
  c.index = 2;
  c.scheduledS = 1.0;
  c.startS = 1.0;
  c.promptTokens = 9;
  c.httpStatus = 503;
  c.error = "HTTP 503: overloaded";
  return {a, b, c};
}

ResultSetup sampleSetup() {
  ResultSetup setup;
  setup.date = "20250101-120000";
  setup.label = "baseline";
  setup.modelId = "Qwen/Qwen3-0.6B";
  setup.tokenizerId = "Qwen/Qwen3-0.6B";
  setup.numPrompts = 3;
  setup.requestRate = 4.0;
  setup.burstiness = 1.0;
  setup.maxConcurrency = 2;
  setup.metadata = {{"tp", "1"}, {"version", "0.11.0"}};
  return setup;
}

SummaryOptions sampleOptions() {
  SummaryOptions options;
  options.percentiles = {50, 99, 99.9};
  options.goodput.ttftMs = 200.0;
  options.maxConcurrency = 2;
  return options;
}

TEST(ResultJson, WritesVllmKeysInVllmOrder) {
  const auto records = sampleRecords();
  const RunSummary summary = computeRunSummary(records, sampleOptions());
  const auto json = resultJson(sampleSetup(), summary, records, false);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items())
    keys.push_back(key);
  const std::vector<std::string> expectedStart{"date",
                                               "endpoint_type",
                                               "backend",
                                               "label",
                                               "model_id",
                                               "tokenizer_id",
                                               "num_prompts",
                                               "tp",
                                               "version",
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
                                               "max_output_tokens_per_s",
                                               "max_concurrent_requests",
                                               "rtfx",
                                               "mean_ttft_ms",
                                               "median_ttft_ms",
                                               "std_ttft_ms",
                                               "p50_ttft_ms",
                                               "p99_ttft_ms",
                                               "p99.9_ttft_ms",
                                               "mean_tpot_ms"};
  ASSERT_GE(keys.size(), expectedStart.size());
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + expectedStart.size()), expectedStart);
  EXPECT_EQ(keys.back(), "ayar");
  EXPECT_TRUE(json.contains("p99.9_e2el_ms"));
  EXPECT_FALSE(json.contains("ttfts"));  // not detailed
  EXPECT_EQ(json["date"], "20250101-120000");
  EXPECT_EQ(json["request_rate"], 4.0);
  EXPECT_EQ(json["max_concurrency"], 2);
  EXPECT_EQ(json["completed"], 2);
  EXPECT_EQ(json["failed"], 1);
  EXPECT_EQ(json["total_input_tokens"], 19);
}

TEST(ResultJson, WritesVllmsRampUpKeysAfterMaxConcurrencyAndItsRateChangesAfterRtfx) {
  ResultSetup setup = sampleSetup();
  setup.rampUpStrategy = "linear";
  setup.rampUpStartRps = 1;
  setup.rampUpEndRps = 2;
  setup.rpsChangeEvents = {{{"rps", 1}, {"timestamp", "2026-12-02T10:00:00"}},
                           {{"rps", 2}, {"timestamp", "2026-12-02T10:00:01.500000"}}};
  const auto json = resultJson(setup, RunSummary{}, {}, false);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items())
    keys.push_back(key);
  const auto at = [&](const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) - keys.begin();
  };
  EXPECT_EQ(at("ramp_up_strategy"), at("max_concurrency") + 1);
  EXPECT_EQ(at("ramp_up_end_rps"), at("duration") - 1);
  EXPECT_EQ(at("rps_change_events"), at("rtfx") + 1);
  EXPECT_EQ(json["ramp_up_start_rps"], 1);
  EXPECT_EQ(json["rps_change_events"][1]["rps"], 2);
}

TEST(ResultJson, WritesInfiniteRateAsTheStringInfLikeVllm) {
  ResultSetup setup = sampleSetup();
  setup.requestRate = std::numeric_limits<double>::infinity();
  setup.burstiness = std::numeric_limits<double>::infinity();
  setup.maxConcurrency.reset();
  setup.label.reset();
  const auto json = resultJson(setup, RunSummary{}, {}, false);
  EXPECT_EQ(json["request_rate"], "inf");
  EXPECT_EQ(json["burstiness"], "inf");
  EXPECT_TRUE(json["max_concurrency"].is_null());
  EXPECT_TRUE(json["label"].is_null());
  EXPECT_TRUE(json["request_goodput"].is_null());
}

TEST(ResultJson, DetailedListsFollowRequestOrder) {
  const auto records = sampleRecords();
  const auto json = resultJson(sampleSetup(), computeRunSummary(records), records, true);
  EXPECT_EQ(json["input_lens"], (std::vector<int>{7, 12, 9}));
  EXPECT_EQ(json["output_lens"], (std::vector<int>{2, 5, 0}));  // failed requests count 0, as vLLM
  EXPECT_EQ(json["ttfts"][0], 0.125);
  EXPECT_EQ(json["itls"][1], (std::vector<double>{0.25, 0.5}));
  EXPECT_TRUE(json["itls"][2].empty());
  EXPECT_EQ(json["errors"][2], "HTTP 503: overloaded");
  EXPECT_EQ(json["errors"][0], "");
  EXPECT_EQ(json["start_times"][1], 0.5);
  EXPECT_EQ(json["ayar"]["requests"]["scheduled_times"][1], 0.25);
}

TEST(ResultJson, RoundTripsSummaryRecordsAndAyarObject) {
  test::TempDir dir;
  const auto records = sampleRecords();
  const RunSummary summary = computeRunSummary(records, sampleOptions());
  const nlohmann::json ayar = {{"engine", {{"kind", "bundled"}, {"flags", {"--max-num-seqs", "8"}}}},
                               {"simulated", true}};
  writeResultFile(dir / "run.json", sampleSetup(), summary, records, true, ayar);

  const ResultFile file = readResultFile(dir / "run.json");
  EXPECT_EQ(file.setup.date, "20250101-120000");
  EXPECT_EQ(file.setup.backend, "openai");
  EXPECT_EQ(file.setup.label, "baseline");
  EXPECT_EQ(file.setup.modelId, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(file.setup.numPrompts, 3);
  EXPECT_EQ(file.setup.requestRate, 4.0);
  EXPECT_EQ(file.setup.maxConcurrency, 2);
  EXPECT_EQ(file.setup.metadata,
            (std::vector<std::pair<std::string, std::string>>{{"tp", "1"}, {"version", "0.11.0"}}));

  const RunSummary& s = file.summary;
  EXPECT_EQ(s.completed, summary.completed);
  EXPECT_EQ(s.failed, summary.failed);
  EXPECT_EQ(s.durationS, summary.durationS);
  EXPECT_EQ(s.totalInputTokens, summary.totalInputTokens);
  EXPECT_EQ(s.totalOutputTokens, summary.totalOutputTokens);
  EXPECT_EQ(s.requestThroughput, summary.requestThroughput);
  EXPECT_EQ(s.requestGoodput, summary.requestGoodput);
  EXPECT_EQ(s.outputThroughput, summary.outputThroughput);
  EXPECT_EQ(s.totalTokenThroughput, summary.totalTokenThroughput);
  EXPECT_EQ(s.maxOutputTokensPerS, summary.maxOutputTokensPerS);
  EXPECT_EQ(s.maxConcurrentRequests, summary.maxConcurrentRequests);
  EXPECT_EQ(s.maxConcurrency, summary.maxConcurrency);
  EXPECT_EQ(s.percentiles, summary.percentiles);
  EXPECT_EQ(s.percentileMetrics, summary.percentileMetrics);
  for (LatencyMetric metric : kAllLatencyMetrics) {
    SCOPED_TRACE(std::string(latencyMetricKey(metric)));
    EXPECT_EQ(s.stats(metric).meanMs, summary.stats(metric).meanMs);
    EXPECT_EQ(s.stats(metric).medianMs, summary.stats(metric).medianMs);
    EXPECT_EQ(s.stats(metric).stdMs, summary.stats(metric).stdMs);
    ASSERT_EQ(s.stats(metric).percentilesMs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(s.stats(metric).percentilesMs[i].percentile,
                summary.stats(metric).percentilesMs[i].percentile);
      EXPECT_EQ(s.stats(metric).percentilesMs[i].value, summary.stats(metric).percentilesMs[i].value);
    }
  }
  EXPECT_EQ(s.dispatchLagP99Ms, summary.dispatchLagP99Ms);
  EXPECT_EQ(s.slotWaitMaxMs, summary.slotWaitMaxMs);
  EXPECT_TRUE(s.outputTokensFromTokenizer);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].message, "HTTP 503: overloaded");

  EXPECT_EQ(file.ayar["engine"]["kind"], "bundled");
  EXPECT_EQ(file.ayar["simulated"], true);

  ASSERT_EQ(file.records.size(), 3u);
  for (const RequestRecord& original : records) {
    SCOPED_TRACE(original.index);
    const RequestRecord& r = file.records[static_cast<std::size_t>(original.index)];
    EXPECT_EQ(r.index, original.index);
    EXPECT_EQ(r.scheduledS, original.scheduledS);
    EXPECT_EQ(r.slotWaitS, original.slotWaitS);
    EXPECT_EQ(r.startS, original.startS);
    ASSERT_EQ(r.chunkTimesS.size(), original.chunkTimesS.size());
    for (std::size_t i = 0; i < r.chunkTimesS.size(); ++i)
      EXPECT_NEAR(r.chunkTimesS[i], original.chunkTimesS[i], 1e-12);
    EXPECT_EQ(r.promptTokens, original.promptTokens);
    EXPECT_EQ(r.outputTokens, original.outputTokens);
    EXPECT_EQ(r.outputTokensFromUsage, original.outputTokensFromUsage);
    EXPECT_EQ(r.expectedOutputTokens, original.expectedOutputTokens);
    EXPECT_EQ(r.success, original.success);
    EXPECT_EQ(r.httpStatus, original.httpStatus);
    EXPECT_EQ(r.error, original.error);
    EXPECT_EQ(r.generatedText, original.generatedText);
  }
  // The records give back the same figures.
  const RunSummary again = computeRunSummary(file.records, sampleOptions());
  EXPECT_NEAR(again.ttft.meanMs, summary.ttft.meanMs, 1e-9);
  EXPECT_NEAR(again.e2el.stdMs, summary.e2el.stdMs, 1e-9);
}

TEST(ResultJson, ReplacesInvalidUtf8InGeneratedText) {
  test::TempDir dir;
  std::vector<RequestRecord> records = sampleRecords();
  records[0].generatedText = "broken \xC3";
  writeResultFile(dir / "run.json", sampleSetup(), computeRunSummary(records), records, true);
  const ResultFile file = readResultFile(dir / "run.json");
  EXPECT_EQ(file.records[1].generatedText, "broken \xEF\xBF\xBD");
}

// Shaped like `vllm bench serve --save-result --save-detailed` output (json.dump of a dict), with
// the non-JSON Infinity token Python writes for an infinite float.
constexpr const char* kVllmFile =
    R"({"date": "20250918-101530", "endpoint_type": "openai", "backend": "openai", "label": null,)"
    R"( "model_id": "Qwen/Qwen3-14B", "tokenizer_id": "Qwen/Qwen3-14B", "num_prompts": 2, "gpu": "H100",)"
    R"( "request_rate": "inf", "burstiness": Infinity, "max_concurrency": null, "duration": 2.5,)"
    R"( "completed": 2, "failed": 0, "total_input_tokens": 30, "total_output_tokens": 5,)"
    R"( "request_throughput": 0.8, "request_goodput": null, "output_throughput": 2.0,)"
    R"( "total_token_throughput": 14.0, "input_lens": [10, 20], "output_lens": [2, 3],)"
    R"( "ttfts": [0.5, 0.25], "itls": [[0.5], [0.25, 0.25]], "generated_texts": ["a b", "c d e"],)"
    R"( "errors": ["", ""], "max_output_tokens_per_s": 5.0, "max_concurrent_requests": 2,)"
    R"( "mean_ttft_ms": 375.0, "median_ttft_ms": 375.0, "std_ttft_ms": 125.0, "p99_ttft_ms": 497.5,)"
    R"( "mean_tpot_ms": 375.0, "median_tpot_ms": 375.0, "std_tpot_ms": 125.0, "p99_tpot_ms": 497.5,)"
    R"( "mean_itl_ms": 333.3, "median_itl_ms": 250.0, "std_itl_ms": 117.8, "p99_itl_ms": 495.0})";

TEST(ResultJson, ReadsFilesWrittenByVllm) {
  const ResultFile file = parseResultJson(kVllmFile, "vllm.json");
  EXPECT_EQ(file.setup.backend, "openai");
  EXPECT_FALSE(file.setup.label.has_value());
  EXPECT_TRUE(std::isinf(file.setup.requestRate));
  EXPECT_TRUE(std::isinf(file.setup.burstiness));
  EXPECT_FALSE(file.setup.maxConcurrency.has_value());
  EXPECT_EQ(file.setup.metadata, (std::vector<std::pair<std::string, std::string>>{{"gpu", "H100"}}));
  EXPECT_EQ(file.summary.completed, 2);
  EXPECT_FALSE(file.summary.requestGoodput.has_value());
  EXPECT_EQ(file.summary.percentileMetrics,
            (std::vector<LatencyMetric>{LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl}));
  EXPECT_EQ(file.summary.percentiles, std::vector<double>{99.0});
  EXPECT_EQ(*file.summary.itl.percentileMs(99.0), 495.0);
  EXPECT_TRUE(file.ayar.is_null());
  ASSERT_EQ(file.records.size(), 2u);
  EXPECT_EQ(file.records[1].promptTokens, 20);
  EXPECT_EQ(file.records[1].outputTokens, 3);
  EXPECT_EQ(file.records[1].chunkTimesS, (std::vector<double>{0.25, 0.5, 0.75}));
  EXPECT_TRUE(file.records[1].success);
  EXPECT_EQ(file.records[0].generatedText, "a b");
}

TEST(ResultJson, ReadsAppendedResultsAndReturnsTheLast) {
  test::TempDir dir;
  const auto path = dir / "appended.json";
  {
    std::ofstream out(path);
    out << kVllmFile << "\n"
        << R"({"completed": 7, "duration": 1.0, "failed": 1})";
  }
  const auto all = readResultFiles(path);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].summary.completed, 2);
  EXPECT_EQ(readResultFile(path).summary.completed, 7);
  EXPECT_EQ(readResultFile(path).summary.failed, 1);
}

TEST(ResultJson, ErrorsNameTheFileAndTheProblem) {
  test::TempDir dir;
  const auto missing = dir / "missing.json";
  try {
    readResultFile(missing);
    FAIL() << "no error for a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json"), std::string::npos) << e.what();
  }
  const auto broken = dir / "broken.json";
  std::ofstream(broken) << R"({"completed": 1,)";
  try {
    readResultFile(broken);
    FAIL() << "no error for broken JSON";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseResultJson("[1, 2]", "list.json"), Error);
  EXPECT_THROW(parseResultJson(R"({"model": "x"})", "other.json"), Error);
  EXPECT_THROW(parseResultJson(R"({"completed": "many", "duration": 1})", "bad.json"), Error);
  EXPECT_THROW(parseResultJson("", "empty.json"), Error);
  EXPECT_THROW(parseResultJson(R"({"completed": 1, "ttfts": [NaN], "errors": [""]})", "nan.json"), Error);
  EXPECT_THROW(parseResultJson(R"({"completed": 1, "ttfts": [0.1], "input_lens": [1, 2]})", "lists.json"),
               Error);
}

TEST(ResultJson, WritesTheDateAsVllmDoes) {
  const std::string date = formatResultDate(std::chrono::system_clock::now());
  ASSERT_EQ(date.size(), 15u);  // YYYYmmdd-HHMMSS
  EXPECT_EQ(date[8], '-');
  for (std::size_t i = 0; i < date.size(); ++i) {
    if (i != 8) {
      EXPECT_TRUE(date[i] >= '0' && date[i] <= '9') << date;
    }
  }
}

}  // namespace
}  // namespace ayar
