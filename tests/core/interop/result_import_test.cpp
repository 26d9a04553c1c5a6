// Reading other tools' result files (tests/core/interop/fixtures, see its README) into runs.
#include "core/interop/result_import.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "core/interop/import_summary.h"
#include "core/report/message_text.h"
#include "core/report/result_json.h"
#include "core/report/text_block.h"
#include "core/store/result_store.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

const std::filesystem::path kFixtures = AYAR_INTEROP_FIXTURES;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string messageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

nlohmann::json readJson(const std::filesystem::path& path) {
  return nlohmann::json::parse(readText(path));
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines)
    out += line + "\n";
  return out;
}

// Messages as the English reader gets them.
std::string joined(const std::vector<Message>& messages) {
  std::vector<std::string> lines;
  for (const Message& message : messages)
    lines.push_back(message.in(ReportLanguage::English));
  return joined(lines);
}

double localTime(int year, int month, int day, int hour, int minute, int second) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  return static_cast<double>(std::mktime(&tm));
}

// --- vLLM ------------------------------------------------------------------------------------------

TEST(VllmImport, DetailedFileIsRecomputedFromItsRequestsAndAgreesWithEveryWrittenFigure) {
  const auto runs = readImportedRuns(kFixtures / "vllm_detailed.json");
  ASSERT_EQ(runs.size(), 1u);
  const ImportedRun& run = runs[0];
  EXPECT_EQ(run.tool, "vllm");
  EXPECT_TRUE(run.recomputed);
  EXPECT_TRUE(run.differences.empty()) << joined(run.differences);
  ASSERT_EQ(run.records.size(), 4u);

  const nlohmann::json file = readJson(kFixtures / "vllm_detailed.json");
  const RunSummary& s = run.summary;
  EXPECT_EQ(s.completed, 3);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.totalInputTokens, 63);
  EXPECT_EQ(s.totalOutputTokens, 10);
  EXPECT_DOUBLE_EQ(s.durationS, 0.5731);  // vLLM's own clock, not the requests' span
  EXPECT_NEAR(s.requestThroughput, file["request_throughput"].get<double>(), 1e-12);
  EXPECT_NEAR(s.tpot.meanMs, file["mean_tpot_ms"].get<double>(), 1e-9);  // single-token reply left out
  EXPECT_NEAR(s.itl.percentileMs(99).value(), file["p99_itl_ms"].get<double>(), 1e-9);
  EXPECT_NEAR(s.e2el.percentileMs(50).value(), file["p50_e2el_ms"].get<double>(), 1e-9);
  EXPECT_EQ(s.percentileMetrics.size(), 4u);
  EXPECT_EQ(s.percentiles, (std::vector<double>{50.0, 99.0}));
  EXPECT_EQ(s.maxConcurrency, 2);

  EXPECT_FALSE(run.records[2].success);
  EXPECT_EQ(run.records[2].error, "HTTP 500: Internal Server Error");
  EXPECT_EQ(run.records[1].chunkTimesS.size(), 3u);
  EXPECT_DOUBLE_EQ(run.records[3].slotWaitS, 0.052);  // vLLM's queue_times
  EXPECT_EQ(run.records[0].generatedText, "Merhaba dünya, iyi");
  EXPECT_EQ(run.setup.metadata, (std::vector<std::pair<std::string, std::string>>{{"tp", "1"}}));
  EXPECT_EQ(run.startedAtS, localTime(2026, 12, 1, 14, 30, 5));
}

TEST(VllmImport, FileWithoutPerRequestListsTakesTheWrittenFigures) {
  const auto runs = readImportedRuns(kFixtures / "vllm_summary.json");
  ASSERT_EQ(runs.size(), 1u);
  const nlohmann::json file = readJson(kFixtures / "vllm_summary.json");
  EXPECT_FALSE(runs[0].recomputed);
  EXPECT_TRUE(runs[0].records.empty());
  EXPECT_EQ(runs[0].summary.tpot.percentileMs(99), file["p99_tpot_ms"].get<double>());
  EXPECT_EQ(runs[0].summary.completed, 3);
  EXPECT_TRUE(contains(joined(runs[0].notes), "--save-detailed")) << joined(runs[0].notes);
}

TEST(VllmImport, AppendedFileGivesOneRunPerResultIncludingAnInfiniteBurstiness) {
  const auto runs = readImportedRuns(kFixtures / "vllm_appended.json");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].title, "result 1 of 2");
  EXPECT_EQ(runs[0].setup.requestRate, 4.0);
  EXPECT_TRUE(std::isinf(runs[1].setup.requestRate));
  EXPECT_TRUE(std::isinf(runs[1].setup.burstiness));
  EXPECT_EQ(runs[1].summary.completed, 2);
  EXPECT_EQ(runs[1].startedAtS, localTime(2026, 12, 1, 15, 1, 12));
}

TEST(VllmImport, AWrittenFigureTheRequestsDoNotGiveIsReported) {
  test::TempDir dir;
  nlohmann::ordered_json file = nlohmann::ordered_json::parse(readText(kFixtures / "vllm_detailed.json"));
  file["p99_ttft_ms"] = 75.0;
  writeText(dir / "edited.json", file.dump());
  const auto runs = readImportedRuns(dir / "edited.json");
  ASSERT_EQ(runs[0].differences.size(), 1u) << joined(runs[0].differences);
  EXPECT_TRUE(contains(joined(runs[0].differences), "p99_ttft_ms: the file says 75"))
      << joined(runs[0].differences);
  // Ayar's figure is the one the requests give.
  EXPECT_NEAR(runs[0].summary.ttft.percentileMs(99).value(), 60.78, 1e-9);  // 45, 50, 61 ms
}

TEST(VllmImport, AyarsOwnResultFileKeepsItsScheduledTimes) {
  test::TempDir dir;
  std::vector<RequestRecord> records(2);
  for (int i = 0; i < 2; ++i) {
    records[i].index = i;
    records[i].scheduledS = 0.5 * i;
    records[i].startS = 0.5 * i + 0.002;
    records[i].chunkTimesS = {0.03, 0.04, 0.05};
    records[i].outputTokens = 3;
    records[i].promptTokens = 10;
    records[i].success = true;
    records[i].httpStatus = 200;
  }
  ResultSetup setup;
  setup.modelId = "qwen3-0.6b";
  setup.numPrompts = 2;
  writeResultFile(dir / "ayar.json", setup, computeRunSummary(records), records, /*detailed=*/true,
                  {{"simulated", true}});
  const auto runs = readImportedRuns(dir / "ayar.json");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].tool, "ayar");
  EXPECT_TRUE(runs[0].differences.empty()) << joined(runs[0].differences);
  EXPECT_NEAR(runs[0].summary.dispatchLagMaxMs, 2.0, 1e-9);
}

// --- guidellm --------------------------------------------------------------------------------------

TEST(GuidellmImport, ReportWithEveryRequestGivesOneRecomputedRunPerBenchmark) {
  const auto runs = readImportedRuns(kFixtures / "guidellm_benchmarks.json");
  ASSERT_EQ(runs.size(), 2u);
  const ImportedRun& sync = runs[0];
  EXPECT_EQ(sync.tool, "guidellm");
  EXPECT_EQ(sync.toolVersion, "0.7.3");
  EXPECT_EQ(sync.title, "benchmark 1 of 2: synchronous");
  EXPECT_TRUE(sync.recomputed);
  EXPECT_EQ(sync.setup.maxConcurrency, 1);
  EXPECT_EQ(sync.setup.modelId, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(sync.setup.backend, "openai-chat");
  EXPECT_EQ(sync.baseUrl, "http://localhost:8000");
  EXPECT_EQ(sync.summary.completed, 3);
  EXPECT_FALSE(sync.summary.reports(LatencyMetric::Itl));  // guidellm keeps no chunk times
  EXPECT_DOUBLE_EQ(sync.startedAtS.value(), 1796134200.100);

  const ImportedRun& constant = runs[1];
  EXPECT_EQ(constant.setup.requestRate, 4.0);
  EXPECT_TRUE(std::isinf(constant.setup.burstiness));  // evenly spaced arrivals
  EXPECT_EQ(constant.summary.completed, 3);
  EXPECT_EQ(constant.summary.failed, 1);
  EXPECT_EQ(constant.summary.totalInputTokens, 3 * 128);
  EXPECT_EQ(constant.summary.totalOutputTokens, 8 + 16 + 11);
  EXPECT_NEAR(constant.summary.durationS, 0.913, 1e-6);
  // Epoch seconds as doubles carry about 0.2 us, hence the 1 us (1e-3 ms) bounds.
  // TTFT 52, 40, 51 ms; TPOT (last - first) / (output - 1): 98/7, 120/15, 111/10 ms; E2E 150, 160, 162.
  EXPECT_NEAR(constant.summary.ttft.meanMs, (52.0 + 40.0 + 51.0) / 3.0, 1e-3);
  EXPECT_NEAR(constant.summary.tpot.meanMs, (14.0 + 8.0 + 11.1) / 3.0, 1e-3);
  EXPECT_NEAR(constant.summary.e2el.percentileMs(50).value(), 160.0, 1e-3);
  ASSERT_EQ(constant.records.size(), 4u);
  EXPECT_FALSE(constant.records[2].success);
  EXPECT_TRUE(contains(constant.records[2].error, "503")) << constant.records[2].error;
}

TEST(GuidellmImport, SampledReportTakesGuidellmsFiguresAsWritten) {
  const auto runs = readImportedRuns(kFixtures / "guidellm_sampled.json");
  ASSERT_EQ(runs.size(), 1u);
  const nlohmann::json metrics = readJson(kFixtures / "guidellm_sampled.json")["benchmarks"][0]["metrics"];
  const ImportedRun& run = runs[0];
  EXPECT_FALSE(run.recomputed);
  EXPECT_TRUE(run.records.empty());
  EXPECT_EQ(run.summary.completed, 3);
  EXPECT_EQ(run.summary.failed, 1);
  EXPECT_EQ(run.summary.ttft.meanMs, metrics["time_to_first_token_ms"]["successful"]["mean"].get<double>());
  EXPECT_EQ(run.summary.tpot.percentileMs(99),
            metrics["inter_token_latency_ms"]["successful"]["percentiles"]["p99"].get<double>());
  EXPECT_NEAR(run.summary.e2el.percentileMs(90).value(),
              metrics["request_latency"]["successful"]["percentiles"]["p90"].get<double>() * 1000.0, 1e-9);
  EXPECT_EQ(run.summary.totalOutputTokens, 35);
  EXPECT_NEAR(run.summary.requestThroughput, 3 / 0.913, 1e-5);
  EXPECT_TRUE(contains(joined(run.notes), "sample")) << joined(run.notes);
}

TEST(GuidellmImport, Version03ReportIsRead) {
  const auto runs = readImportedRuns(kFixtures / "guidellm_v0_3_benchmarks.json");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].toolVersion, "");
  EXPECT_TRUE(runs[0].recomputed);
  EXPECT_EQ(runs[0].setup.maxConcurrency, 2);  // concurrent, 2 streams
  EXPECT_EQ(runs[0].setup.modelId, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(runs[0].summary.completed, 3);
  EXPECT_NEAR(runs[0].summary.ttft.percentileMs(50).value(), 40.0, 1e-3);
}

// --- AIPerf and genai-perf --------------------------------------------------------------------------

TEST(ProfileExportImport, AiperfSummaryWithItsRequestsBesideItIsRecomputedAndAgrees) {
  const auto runs = readImportedRuns(kFixtures / "aiperf" / "profile_export_aiperf.json");
  ASSERT_EQ(runs.size(), 1u);
  const ImportedRun& run = runs[0];
  EXPECT_EQ(run.tool, "aiperf");
  EXPECT_EQ(run.requestsSource.filename(), "profile_export.jsonl");
  EXPECT_TRUE(run.recomputed);
  EXPECT_TRUE(run.differences.empty()) << joined(run.differences);
  ASSERT_EQ(run.records.size(), 4u);  // the warm-up request left out
  EXPECT_EQ(run.summary.completed, 3);
  EXPECT_EQ(run.summary.failed, 1);
  EXPECT_TRUE(run.summary.reports(LatencyMetric::Itl));
  EXPECT_EQ(run.records[1].chunkTimesS.size(), 5u);
  EXPECT_EQ(run.records[2].error, "HTTPError: Internal Server Error");
  EXPECT_EQ(run.records[2].httpStatus, 500);
  EXPECT_EQ(run.setup.maxConcurrency, 2);
  EXPECT_EQ(run.setup.modelId, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(run.setup.backend, "openai-chat");
  EXPECT_EQ(run.endpoint, "/v1/chat/completions");
  EXPECT_EQ(run.startedAtS, localTime(2026, 12, 1, 14, 30, 1));
}

TEST(ProfileExportImport, AiperfRequestsFileAloneIsRecomputedOverItsOwnSpan) {
  test::TempDir dir;
  std::filesystem::copy_file(kFixtures / "aiperf" / "profile_export.jsonl", dir / "profile_export.jsonl");
  const auto runs = readImportedRuns(dir / "profile_export.jsonl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].recomputed);
  EXPECT_EQ(runs[0].summary.completed, 3);
  // First start to last answer: request 4 starts 0.75 s after request 1 and answers in 35.25 ms.
  EXPECT_NEAR(runs[0].summary.durationS, 0.749999877 + 0.03525, 1e-9);
  EXPECT_DOUBLE_EQ(runs[0].startedAtS.value(), 1796135401.000000123);
}

TEST(ProfileExportImport, GenaiPerfExportTakesItsFiguresByDefinition) {
  const auto runs = readImportedRuns(kFixtures / "genai_perf" / "profile_export_genai_perf.json");
  ASSERT_EQ(runs.size(), 1u);
  const ImportedRun& run = runs[0];
  EXPECT_EQ(run.tool, "genai-perf");
  EXPECT_FALSE(run.recomputed);
  EXPECT_EQ(run.setup.maxConcurrency, 4);
  EXPECT_EQ(run.summary.completed, 40);
  EXPECT_EQ(run.summary.tpot.meanMs, 17.75);  // genai-perf's inter_token_latency is vLLM's TPOT
  EXPECT_EQ(run.summary.e2el.percentileMs(99), 129.0);
  EXPECT_EQ(run.summary.ttft.medianMs, 30.0);
  EXPECT_NEAR(run.summary.durationS, 40 / 3.9, 1e-12);
  EXPECT_EQ(run.summary.totalInputTokens, 8000);
  EXPECT_FALSE(run.summary.reports(LatencyMetric::Itl));
}

// --- bad and foreign files ---------------------------------------------------------------------------

TEST(ResultImport, AForeignJsonFileIsRefusedNamingItAndTheFormatsKnown) {
  test::TempDir dir;
  writeText(dir / "other.json", R"({"hello": "world"})");
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "other.json"); });
  EXPECT_TRUE(contains(message, (dir / "other.json").string())) << message;
  EXPECT_TRUE(contains(message, "not a result file")) << message;
  EXPECT_TRUE(contains(message, "guidellm")) << message;
}

TEST(ResultImport, TextThatIsNotJsonIsRefusedNamingTheFile) {
  test::TempDir dir;
  writeText(dir / "notes.txt", "============ Serving Benchmark Result ============\n");
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "notes.txt"); });
  EXPECT_TRUE(contains(message, (dir / "notes.txt").string() + ": not a JSON file")) << message;
}

TEST(ResultImport, AGuidellmBenchmarkWithoutMetricsNamesTheField) {
  test::TempDir dir;
  nlohmann::json report = readJson(kFixtures / "guidellm_sampled.json");
  report["benchmarks"][0].erase("metrics");
  writeText(dir / "benchmarks.json", report.dump());
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "benchmarks.json"); });
  EXPECT_TRUE(contains(message, "field 'benchmarks[0].metrics' is missing")) << message;
  EXPECT_TRUE(contains(message, "guidellm")) << message;
}

TEST(ResultImport, AnAiperfRecordWithoutItsStartNamesTheLineAndField) {
  test::TempDir dir;
  std::string text = readText(kFixtures / "aiperf" / "profile_export.jsonl");
  const std::size_t secondLine = text.find('\n') + 1;
  const std::size_t key = text.find("\"request_start_ns\"", secondLine);
  text.replace(key, std::string("\"request_start_ns\"").size(), "\"request_begin_ns\"");
  writeText(dir / "profile_export.jsonl", text);
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "profile_export.jsonl"); });
  EXPECT_TRUE(contains(message, ":2: field 'metadata.request_start_ns' is missing")) << message;
}

// Found by fuzzing: a start before 1970 (a negative request_start_ns) beside a real one overflowed the
// difference that gives each request's start. A negative start cannot be true: refused, named.
TEST(ResultImport, AnAiperfRecordThatStartsBefore1970IsRefused) {
  test::TempDir dir;
  std::string text = readText(kFixtures / "aiperf" / "profile_export.jsonl");
  const std::size_t secondLine = text.find('\n') + 1;
  const std::size_t key =
      text.find("\"request_start_ns\": ", secondLine) + std::string("\"request_start_ns\": ").size();
  const std::size_t end = text.find_first_of(",}", key);
  text.replace(key, end - key, "-8650589969959551616");
  writeText(dir / "profile_export.jsonl", text);
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "profile_export.jsonl"); });
  EXPECT_TRUE(contains(message, ":2: field 'metadata.request_start_ns' is -8650589969959551616")) << message;
  EXPECT_TRUE(contains(message, "cannot be true")) << message;
}

TEST(ResultImport, VllmListsOfUnequalLengthNameTheList) {
  test::TempDir dir;
  nlohmann::ordered_json file = nlohmann::ordered_json::parse(readText(kFixtures / "vllm_detailed.json"));
  file["ttfts"].erase(file["ttfts"].begin());
  writeText(dir / "short.json", file.dump());
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "short.json"); });
  EXPECT_TRUE(contains(message, "'ttfts' has 3 entries")) << message;
}

// --- what cannot be true, and what a file does not say -------------------------------------------------

nlohmann::ordered_json readOrdered(const std::filesystem::path& path) {
  return nlohmann::ordered_json::parse(readText(path));
}

TEST(ResultImport, DeeplyNestedJsonIsRefusedBeforeAnythingRecursesNamingTheFileAndTheLimit) {
  test::TempDir dir;
  writeText(dir / "deep.json", std::string(100000, '['));
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "deep.json"); });
  EXPECT_TRUE(contains(message, (dir / "deep.json").string())) << message;
  EXPECT_TRUE(contains(message, "more than 100 levels deep")) << message;

  // The same in a per-request line of AIPerf's.
  writeText(dir / "profile_export.jsonl", "{\"metadata\": " + std::string(5000, '[') + "\n");
  const std::string line = messageOf([&] { (void)readImportedRuns(dir / "profile_export.jsonl"); });
  EXPECT_TRUE(contains(line, "profile_export.jsonl:1:")) << line;
  EXPECT_TRUE(contains(line, "levels deep")) << line;

  // Brackets inside strings are text, not nesting.
  nlohmann::ordered_json file = readOrdered(kFixtures / "vllm_detailed.json");
  file["generated_texts"][0] = std::string(500, '[');
  writeText(dir / "brackets.json", file.dump());
  EXPECT_EQ(readImportedRuns(dir / "brackets.json").size(), 1u);
}

TEST(ResultImport, AFileOverTheSizeLimitIsRefusedNamingItsSizeAndTheLimit) {
  ImportLimits limits;
  limits.maxFileBytes = 1024;
  const auto file = kFixtures / "vllm_detailed.json";
  const std::string message = messageOf([&] { (void)readImportedRuns(file, limits); });
  EXPECT_TRUE(contains(message, file.string() + " is 0.0 MB")) << message;
  EXPECT_TRUE(contains(message, "at most 0.0 MB")) << message;
  try {
    (void)readImportedRuns(file, limits);
  } catch (const MessageError& e) {
    EXPECT_TRUE(contains(e.message().in(ReportLanguage::Turkish), "büyüklüğünde")) << e.what();
  }
  EXPECT_EQ(readImportedRuns(file).size(), 1u);  // the default limit takes it
}

TEST(VllmImport, AValueThatCannotBeTrueIsRefusedNamingItsField) {
  test::TempDir dir;
  const nlohmann::ordered_json good = readOrdered(kFixtures / "vllm_detailed.json");
  const std::vector<std::pair<std::function<void(nlohmann::ordered_json&)>, std::string>> cases = {
      {[](auto& f) { f["output_lens"][1] = -3; }, "'output_lens[1]' is -3"},
      {[](auto& f) { f["input_lens"][0] = 1e30; }, "'input_lens[0]' is 1e+30"},
      {[](auto& f) { f["ttfts"][0] = -0.01; }, "'ttfts[0]' is -0.01"},
      {[](auto& f) { f["ttfts"][2] = nullptr; }, "'ttfts[2]' is null"},
      {[](auto& f) { f["itls"][1][0] = nullptr; }, "'itls[1][0]' is null"},
      {[](auto& f) { f["itls"][1][0] = -0.5; }, "'itls[1][0]' is -0.5"},
      {[](auto& f) { f["completed"] = -1; }, "'completed' is -1"},
      {[](auto& f) { f["total_input_tokens"] = 1e30; }, "'total_input_tokens' is 1e+30"},
      {[](auto& f) { f["duration"] = -0.5; }, "'duration' is -0.5"},
      {[](auto& f) { f["p99_ttft_ms"] = "NaN"; }, "'p99_ttft_ms' is NaN"},
      {[](auto& f) { f["queue_times"][0] = -1.0; }, "'queue_times[0]' is -1"},
      {[](auto& f) { f["max_concurrency"] = 200000000002.0; }, "'max_concurrency' is 2"},
      {[](auto& f) { f["max_concurrency"] = -4; }, "'max_concurrency' is -4"},
      {[](auto& f) { f["max_concurrency"] = 2.5; }, "'max_concurrency' is 2.5"},
  };
  for (const auto& [edit, expected] : cases) {
    nlohmann::ordered_json file = good;
    edit(file);
    writeText(dir / "bad.json", file.dump());
    const std::string message = messageOf([&] { (void)readImportedRuns(dir / "bad.json"); });
    EXPECT_TRUE(contains(message, (dir / "bad.json").string() + ": field " + expected)) << message;
    EXPECT_TRUE(contains(message, "cannot be true")) << message;
  }
}

TEST(ProfileExportImport, AnAiperfRecordWithANegativeTimeIsRefusedNamingTheLineAndField) {
  test::TempDir dir;
  std::string text = readText(kFixtures / "aiperf" / "profile_export.jsonl");
  const std::size_t second = text.find('\n') + 1;
  const std::size_t ttft = text.find("\"time_to_first_token\"", second);
  const std::size_t value = text.find("\"value\": ", ttft) + 9;
  text.insert(value, "-");
  writeText(dir / "profile_export.jsonl", text);
  const std::string message = messageOf([&] { (void)readImportedRuns(dir / "profile_export.jsonl"); });
  EXPECT_TRUE(contains(message, ":2: field 'metrics.time_to_first_token.value' is -")) << message;
}

TEST(VllmImport, WithoutStartTimesThePeaksAreAbsentNotComputedFromMadeUpStarts) {
  test::TempDir dir;
  nlohmann::ordered_json file = readOrdered(kFixtures / "vllm_detailed.json");
  file.erase("start_times");
  writeText(dir / "no_starts.json", file.dump());
  const auto runs = readImportedRuns(dir / "no_starts.json");
  ASSERT_EQ(runs.size(), 1u);
  const ImportedRun& run = runs[0];
  EXPECT_FALSE(run.summary.maxConcurrentRequests.has_value());
  EXPECT_FALSE(run.summary.maxOutputTokensPerS.has_value());
  EXPECT_TRUE(contains(joined(run.notes), "no start_times")) << joined(run.notes);
  // The written peaks are not "contradicted" by figures that do not exist.
  EXPECT_TRUE(run.differences.empty()) << joined(run.differences);
  EXPECT_EQ(run.summary.completed, 3);  // what the requests do give is there

  const FinishedRun stored = toFinishedRun(run);
  EXPECT_TRUE(stored.result["max_concurrent_requests"].is_null());
  EXPECT_TRUE(stored.result["max_output_tokens_per_s"].is_null());
  EXPECT_FALSE(stored.result.contains("start_times"));
  const ResultFile back = parseResultJson(stored.result.dump(), "stored");
  EXPECT_FALSE(back.summary.maxConcurrentRequests.has_value());
  const std::string block = formatServingBenchmarkResult(back.summary);
  EXPECT_FALSE(contains(block, "Peak concurrent requests")) << block;
  EXPECT_FALSE(contains(block, "Peak output token throughput")) << block;
  EXPECT_TRUE(contains(block, "Successful requests:")) << block;
}

TEST(VllmImport, AKeyTheFileLacksIsAbsentNotAFigureOfZeroThatDiffers) {
  test::TempDir dir;
  nlohmann::ordered_json file = readOrdered(kFixtures / "vllm_detailed.json");
  for (const char* key : {"max_output_tokens_per_s", "max_concurrent_requests", "total_token_throughput",
                          "std_ttft_ms", "request_throughput"})
    file.erase(key);
  file["p99_ttft_ms"] = 75.0;
  writeText(dir / "older.json", file.dump());
  const auto runs = readImportedRuns(dir / "older.json");
  ASSERT_EQ(runs[0].differences.size(), 1u) << joined(runs[0].differences);
  EXPECT_TRUE(contains(joined(runs[0].differences), "p99_ttft_ms")) << joined(runs[0].differences);

  // Without --save-detailed, a figure the file lacks stays absent and is not printed as 0.00.
  nlohmann::ordered_json summary = readOrdered(kFixtures / "vllm_summary.json");
  summary.erase("max_output_tokens_per_s");
  summary.erase("total_input_tokens");
  writeText(dir / "summary.json", summary.dump());
  const auto written = readImportedRuns(dir / "summary.json");
  EXPECT_FALSE(written[0].summary.maxOutputTokensPerS.has_value());
  EXPECT_FALSE(written[0].summary.totalInputTokens.has_value());
  const std::string block = formatServingBenchmarkResult(written[0].summary);
  EXPECT_FALSE(contains(block, "Peak output token throughput")) << block;
  EXPECT_FALSE(contains(block, "Total input tokens")) << block;
}

TEST(ProfileExportImport, AGenaiPerfSummaryWithoutACountOrADurationIsRefusedNotStoredAsAnEmptyRun) {
  test::TempDir dir;
  nlohmann::json file = readJson(kFixtures / "genai_perf" / "profile_export_genai_perf.json");
  file.erase("request_count");
  writeText(dir / "profile_export_genai_perf.json", file.dump());
  std::string message = messageOf([&] { (void)readImportedRuns(dir / "profile_export_genai_perf.json"); });
  EXPECT_TRUE(contains(message, "has no request_count")) << message;
  EXPECT_TRUE(contains(message, "Nothing was stored")) << message;

  file = readJson(kFixtures / "genai_perf" / "profile_export_genai_perf.json");
  file.erase("request_throughput");
  writeText(dir / "profile_export_genai_perf.json", file.dump());
  message = messageOf([&] { (void)readImportedRuns(dir / "profile_export_genai_perf.json"); });
  EXPECT_TRUE(contains(message, "neither benchmark_duration, request_throughput")) << message;
}

TEST(ProfileExportImport, AiperfsLaterConfigIsReadAndAMissingInputTotalIsAbsent) {
  test::TempDir dir;
  nlohmann::json file = readJson(kFixtures / "aiperf" / "profile_export_aiperf.json");
  file["input_config"]["endpoint"].erase("url");
  file["input_config"]["endpoint"]["urls"] = {"http://gpu-box:8000"};
  file["input_config"]["loadgen"]["concurrency"] = 8;
  file.erase("total_isl");
  file.erase("input_sequence_length");
  // Alone, without its per-request file: the written figures are taken.
  writeText(dir / "profile_export_aiperf.json", file.dump());
  const auto runs = readImportedRuns(dir / "profile_export_aiperf.json");
  ASSERT_EQ(runs.size(), 1u);
  const ImportedRun& run = runs[0];
  EXPECT_FALSE(run.recomputed);
  EXPECT_EQ(run.setup.modelId, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(run.baseUrl, "http://gpu-box:8000");
  EXPECT_EQ(run.setup.maxConcurrency, 8);
  EXPECT_FALSE(run.summary.totalInputTokens.has_value());
  EXPECT_FALSE(run.summary.totalTokenThroughput.has_value());
  EXPECT_FALSE(run.summary.maxConcurrentRequests.has_value());
  EXPECT_GT(run.summary.outputThroughput, 0.0);
  EXPECT_TRUE(contains(joined(run.notes), "total_isl")) << joined(run.notes);
  const FinishedRun stored = toFinishedRun(run);
  EXPECT_TRUE(stored.result["total_input_tokens"].is_null());
  EXPECT_TRUE(stored.result["total_token_throughput"].is_null());
}

TEST(ResultImport, AnImportedRunsDateIsTheToolsOwnStartNotTheTimeOfTheImport) {
  const auto guidellm = readImportedRuns(kFixtures / "guidellm_benchmarks.json");
  const FinishedRun stored = toFinishedRun(guidellm[1]);
  const auto started = std::chrono::system_clock::time_point(std::chrono::seconds(1796134201));
  EXPECT_EQ(stored.result["date"], formatResultDate(started));
  EXPECT_EQ(stored.summary["date"], formatResultDate(started));

  const auto aiperf = readImportedRuns(kFixtures / "aiperf" / "profile_export_aiperf.json");
  EXPECT_EQ(toFinishedRun(aiperf[0]).result["date"], "20261201-143001");
}

// --- guidellm's measured window -----------------------------------------------------------------------

TEST(GuidellmImport, WarmUpRequestsOutsideTheMeasuredWindowAreLeftOutNotTakenForASample) {
  test::TempDir dir;
  nlohmann::json report = readJson(kFixtures / "guidellm_benchmarks.json");
  nlohmann::json& bench = report["benchmarks"][1];
  nlohmann::json warmup = bench["requests"]["successful"][0];
  for (auto& [key, value] : warmup["info"]["timings"].items()) {
    if (value.is_number_float()) value = value.get<double>() - 0.5;  // before the window opens
  }
  bench["requests"]["successful"].insert(bench["requests"]["successful"].begin(), warmup);
  bench["warmup_duration"] = 0.5;
  writeText(dir / "benchmarks.json", report.dump());

  const auto runs = readImportedRuns(dir / "benchmarks.json");
  const ImportedRun& run = runs[1];
  EXPECT_TRUE(run.recomputed) << joined(run.notes);
  EXPECT_EQ(run.records.size(), 4u);
  EXPECT_EQ(run.summary.completed, 3);
  EXPECT_TRUE(contains(joined(run.notes), "warm-up and cool-down")) << joined(run.notes);
  EXPECT_FALSE(contains(joined(run.notes), "sample")) << joined(run.notes);
}

TEST(GuidellmImport, RecomputedFiguresAreCheckedAgainstTheReportsOwn) {
  const auto runs = readImportedRuns(kFixtures / "guidellm_benchmarks.json");
  for (const ImportedRun& run : runs)
    EXPECT_TRUE(run.differences.empty()) << joined(run.differences);

  test::TempDir dir;
  nlohmann::json report = readJson(kFixtures / "guidellm_benchmarks.json");
  report["benchmarks"][1]["metrics"]["time_to_first_token_ms"]["successful"]["mean"] = 99.0;
  report["benchmarks"][1]["metrics"]["output_token_count"]["successful"]["total_sum"] = 40.0;
  writeText(dir / "benchmarks.json", report.dump());
  const auto edited = readImportedRuns(dir / "benchmarks.json");
  const std::string lines = joined(edited[1].differences);
  EXPECT_TRUE(contains(lines, "mean_ttft_ms: the file says 99")) << lines;
  EXPECT_TRUE(contains(lines, "total_output_tokens: the file says 40, its requests give 35")) << lines;
  EXPECT_EQ(edited[1].differences.size(), 2u) << lines;
}

// --- into the store -----------------------------------------------------------------------------------

TEST(ResultImport, AnImportedRunIsStoredAtItsOwnTimeMarkedWithToolVersionAndFile) {
  test::TempDir dir;
  auto runs = readImportedRuns(kFixtures / "guidellm_benchmarks.json");
  ResultStore store(dir / "ayar.db");
  const std::int64_t id = store.addFinishedRun(toFinishedRun(runs[1]));
  const auto detail = store.loadRun(id);
  ASSERT_TRUE(detail);
  const StoredRun& run = detail->run;
  EXPECT_EQ(run.status, RunStatus::Completed);
  EXPECT_DOUBLE_EQ(run.createdAt, 1796134201.0);
  EXPECT_NEAR(run.finishedAt.value(), 1796134201.913, 1e-6);
  EXPECT_EQ(run.info.model, "Qwen/Qwen3-0.6B");
  const nlohmann::json* mark = importMarkOf(run.info);
  ASSERT_NE(mark, nullptr);
  EXPECT_EQ((*mark)["tool"], "guidellm");
  EXPECT_EQ((*mark)["version"], "0.7.3");
  EXPECT_EQ((*mark)["file"], (kFixtures / "guidellm_benchmarks.json").string());
  EXPECT_TRUE((*mark)["recomputed"].get<bool>());
  EXPECT_EQ(detail->requests.size(), 4u);
  EXPECT_EQ(run.summary["completed"], 3);
  EXPECT_EQ(run.result["ayar"]["imported"]["tool"], "guidellm");
  // Ayar's own result file of the run reads back with the same figures.
  const ResultFile back = parseResultJson(run.result.dump(), "stored");
  EXPECT_NEAR(back.summary.tpot.meanMs, runs[1].summary.tpot.meanMs, 1e-12);
  EXPECT_EQ(importMarkOf(RunInfo{}), nullptr);
}

// Found by fuzzing: a duration of 28 million years put the run's start (its file's time less the
// duration) beyond what the clock holds, and converting it was undefined behaviour. A start or an end
// outside 1970-2262 is refused with the field named, before anything is stored.
TEST(ResultImport, ADurationOrDateOutsideTheClocksYearsIsRefused) {
  test::TempDir dir;
  writeText(
      dir / "long.json",
      R"({"backend": "openai-chat", "label": null, "max_concurrency": 2, "duration": 896777618360001})");
  const auto runs = readImportedRuns(dir / "long.json");
  ASSERT_EQ(runs.size(), 1u);
  const std::string message = messageOf([&] { (void)toFinishedRun(runs.front()); });
  EXPECT_TRUE(contains(message, "field 'duration' is 8.967776184e+14")) << message;
  EXPECT_TRUE(contains(message, "1970 to 2262")) << message;

  writeText(dir / "future.json", R"({"date": "99999101-120000", "duration": 10, "completed": 1})");
  const auto future = readImportedRuns(dir / "future.json");
  ASSERT_EQ(future.size(), 1u);
  if (future.front().startedAtS) {
    const std::string far = messageOf([&] { (void)toFinishedRun(future.front()); });
    EXPECT_TRUE(contains(far, "field 'date'")) << far;
  }
}

}  // namespace
}  // namespace ayar
