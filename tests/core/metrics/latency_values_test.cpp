#include "core/metrics/latency_values.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/metrics/statistics.h"

namespace ayar {
namespace {

RequestRecord record(std::vector<double> chunks, int outputTokens, bool success = true) {
  RequestRecord r;
  r.chunkTimesS = std::move(chunks);
  r.outputTokens = outputTokens;
  r.success = success;
  return r;
}

TEST(LatencyValues, EachMetricTakesTheValuesItsSummaryFigureIsComputedFrom) {
  const std::vector<RequestRecord> records{record({0.010, 0.015, 0.030}, 3), record({0.020}, 1),
                                           record({0.5, 0.6}, 2, false)};
  EXPECT_EQ(latencyValuesMs(records, LatencyMetric::Ttft), (std::vector<double>{10.0, 20.0}));
  EXPECT_EQ(latencyValuesMs(records, LatencyMetric::E2el), (std::vector<double>{30.0, 20.0}));
  const auto tpot = latencyValuesMs(records, LatencyMetric::Tpot);  // single-token replies have none
  ASSERT_EQ(tpot.size(), 1u);
  EXPECT_NEAR(tpot[0], 10.0, 1e-9);
  const auto itl = latencyValuesMs(records, LatencyMetric::Itl);
  ASSERT_EQ(itl.size(), 2u);
  EXPECT_NEAR(itl[0], 5.0, 1e-9);
  EXPECT_NEAR(itl[1], 15.0, 1e-9);
  // The same values make the summary's figures.
  const RunSummary summary = computeRunSummary(records);
  for (LatencyMetric metric : kAllLatencyMetrics) {
    auto values = latencyValuesMs(records, metric);
    EXPECT_NEAR(mean(values), summary.stats(metric).meanMs, 1e-9);
  }
}

}  // namespace
}  // namespace ayar
