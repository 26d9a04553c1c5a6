// Key for key, Ayar's summary gives what vLLM's calculate_metrics gives for the same per-request
// records: the expected values come from tests/vllm/make_golden_metrics.py, which restates vLLM's
// calculation with numpy (see that script), over hand-made records (failures, one-token and
// multi-token outputs, goodput SLOs, a last request that times out) and a real run's.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/metrics/run_summary.h"
#include "core/report/result_json.h"

namespace ayar {
namespace {

std::vector<RequestRecord> recordsOf(const nlohmann::json& json) {
  std::vector<RequestRecord> records;
  for (const auto& item : json) {
    RequestRecord record;
    record.index = static_cast<std::int64_t>(records.size());
    record.startS = item["start_s"].get<double>();
    record.scheduledS = record.startS;
    record.chunkTimesS = item["chunk_times_s"].get<std::vector<double>>();
    record.outputTokens = item["output_tokens"].get<int>();
    record.promptTokens = item["prompt_tokens"].get<int>();
    record.success = item["success"].get<bool>();
    record.error = item["error"].get<std::string>();
    records.push_back(std::move(record));
  }
  return records;
}

TEST(GoldenMetrics, AyarsSummaryGivesVllmsFiguresKeyForKey) {
  std::ifstream in(std::string(AYAR_VLLM_REFERENCE_DIR) + "/golden_metrics.json");
  const auto golden = nlohmann::json::parse(in);
  for (const auto& c : golden["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::vector<RequestRecord> records = recordsOf(c["records"]);
    SummaryOptions options;
    options.percentiles = c["percentiles"].get<std::vector<double>>();
    options.durationS = c["duration_s"].get<double>();
    for (const auto& [name, slo] : c["goodput"].items()) {
      (name == "ttft"   ? options.goodput.ttftMs
       : name == "tpot" ? options.goodput.tpotMs
                        : options.goodput.e2elMs) = slo.get<double>();
    }
    const RunSummary summary = computeRunSummary(records, options);
    const auto ayar = resultJson(ResultSetup{}, summary, records, /*detailed=*/true);
    for (const auto& [key, expected] : c["vllm"].items()) {
      SCOPED_TRACE(key);
      ASSERT_TRUE(ayar.contains(key));
      const auto& actual = ayar[key];
      if (expected.is_null() || expected.is_array() || expected.is_number_integer()) {
        EXPECT_EQ(actual, expected);
      } else {
        const double want = expected.get<double>();
        EXPECT_NEAR(actual.get<double>(), want, 1e-12 * std::max(1.0, std::fabs(want)));
      }
    }
  }
}

}  // namespace
}  // namespace ayar
