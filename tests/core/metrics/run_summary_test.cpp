#include "core/metrics/run_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.h"

namespace ayar {
namespace {

RequestRecord succeeded(double startS, std::vector<double> chunkTimesS, int outputTokens,
                        int promptTokens = 10) {
  RequestRecord record;
  record.startS = startS;
  record.scheduledS = startS;
  record.chunkTimesS = std::move(chunkTimesS);
  record.outputTokens = outputTokens;
  record.promptTokens = promptTokens;
  record.success = true;
  record.httpStatus = 200;
  return record;
}

RequestRecord failedWith(double startS, std::string error) {
  RequestRecord record;
  record.startS = startS;
  record.scheduledS = startS;
  record.promptTokens = 10;
  record.httpStatus = 500;
  record.error = std::move(error);
  return record;
}

// A result read without its end-to-end latency gets it from the run's requests, at the result's
// percentiles; the sections it reports stay as they were. Without successful requests it stays absent.
TEST(RunSummary, MissingLatenciesAreFilledFromTheRequestsAndOnlyFromThem) {
  const std::vector<RequestRecord> records{succeeded(0.0, {0.1, 0.2, 0.3}, 3),
                                           succeeded(1.0, {0.2, 0.3, 0.7}, 3)};
  RunSummary read;  // as a result file without e2el keys reads
  read.percentileMetrics = {LatencyMetric::Ttft};
  read.percentiles = {99.0};
  read.ttft.meanMs = 123.0;  // the file's own figure stays
  fillMissingLatencies(read, records);
  EXPECT_EQ(read.ttft.meanMs, 123.0);
  EXPECT_TRUE(read.has(LatencyMetric::E2el));
  EXPECT_FALSE(read.reports(LatencyMetric::E2el));
  EXPECT_NEAR(read.e2el.meanMs, 500.0, 1e-9);  // 300 ms and 700 ms
  ASSERT_TRUE(read.e2el.percentileMs(99.0));
  EXPECT_EQ(read.e2el.percentilesMs.size(), 1u);

  RunSummary none;
  none.percentileMetrics = {LatencyMetric::Ttft};
  fillMissingLatencies(none, std::vector<RequestRecord>{failedWith(0.0, "refused")});
  EXPECT_FALSE(none.has(LatencyMetric::E2el));
  fillMissingLatencies(none, {});
  EXPECT_FALSE(none.has(LatencyMetric::E2el));
}

TEST(RunSummary, SingleTokenOutputHasNoTpot) {
  const std::vector<RequestRecord> records{
      succeeded(0.0, {0.5}, 1),
      succeeded(0.0, {0.2, 0.4, 0.6}, 3),
  };
  const RunSummary s = computeRunSummary(records);
  EXPECT_EQ(s.completed, 2);
  ASSERT_EQ(s.tpot.samples, 1u);
  EXPECT_NEAR(s.tpot.meanMs, 200.0, 1e-9);  // (0.6 - 0.2) / (3 - 1)
  EXPECT_NEAR(s.ttft.meanMs, 350.0, 1e-9);  // (500 + 200) / 2
  EXPECT_NEAR(s.e2el.meanMs, 550.0, 1e-9);  // (500 + 600) / 2
  EXPECT_EQ(s.itl.samples, 2u);
  EXPECT_NEAR(s.itl.meanMs, 200.0, 1e-9);
}

TEST(RunSummary, MultiTokenChunksGiveFewerItlsThanTokens) {
  const std::vector<RequestRecord> records{succeeded(0.0, {0.1, 0.3, 0.7}, 9)};
  const RunSummary s = computeRunSummary(records);
  EXPECT_EQ(s.totalOutputTokens, 9);
  EXPECT_NEAR(s.tpot.meanMs, 75.0, 1e-9);  // (0.7 - 0.1) / 8
  ASSERT_EQ(s.itl.samples, 2u);            // three chunks, two gaps, nine tokens
  EXPECT_NEAR(s.itl.meanMs, 300.0, 1e-9);  // 200 and 400
  EXPECT_NEAR(s.itl.medianMs, 300.0, 1e-9);
  EXPECT_NEAR(s.itl.stdMs, 100.0, 1e-9);
}

TEST(RunSummary, FailedRequestsAreExcludedAndCounted) {
  const std::vector<RequestRecord> records{
      succeeded(0.0, {0.25, 1.0}, 2, 10),
      failedWith(0.5, "HTTP 500: boom"),
      failedWith(0.7, "HTTP 500: boom"),
      failedWith(3.0, "timeout"),
  };
  const RunSummary s = computeRunSummary(records);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.failed, 3);
  EXPECT_EQ(s.totalInputTokens, 10);  // failed requests' prompts are not counted, as in vLLM
  EXPECT_EQ(s.totalOutputTokens, 2);
  EXPECT_NEAR(s.ttft.meanMs, 250.0, 1e-9);
  EXPECT_EQ(s.ttft.samples, 1u);
  // The failure at 3.0 s ends the run: duration 3 s.
  EXPECT_DOUBLE_EQ(s.durationS, 3.0);
  EXPECT_DOUBLE_EQ(s.requestThroughput, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.outputThroughput, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.totalTokenThroughput.value(), 12.0 / 3.0);
  ASSERT_EQ(s.errors.size(), 2u);
  EXPECT_EQ(s.errors[0].message, "HTTP 500: boom");
  EXPECT_EQ(s.errors[0].count, 2);
  EXPECT_EQ(s.errors[1].message, "timeout");
  EXPECT_EQ(s.errors[1].count, 1);
}

TEST(RunSummary, KeepsOnlyTheFirstDistinctErrors) {
  std::vector<RequestRecord> records;
  for (int i = 0; i < 5; ++i)
    records.push_back(failedWith(0.0, "error " + std::to_string(i)));
  records.push_back(failedWith(0.0, "error 1"));
  SummaryOptions options;
  options.maxDistinctErrors = 2;
  const RunSummary s = computeRunSummary(records, options);
  EXPECT_EQ(s.failed, 6);
  ASSERT_EQ(s.errors.size(), 2u);
  EXPECT_EQ(s.errors[1].message, "error 1");
  EXPECT_EQ(s.errors[1].count, 2);
}

TEST(RunSummary, PercentilesAndStdMatchNumpy) {
  const std::vector<RequestRecord> records{succeeded(0.0, {1.0}, 1), succeeded(0.0, {2.0}, 1),
                                           succeeded(0.0, {4.0}, 1), succeeded(0.0, {3.0}, 1)};
  const RunSummary s = computeRunSummary(records);
  // TTFTs 1, 2, 3, 4 s: numpy.percentile(..., 90) = 3.7, median 2.5, population std sqrt(1.25).
  EXPECT_NEAR(*s.ttft.percentileMs(90.0), 3700.0, 1e-9);
  EXPECT_NEAR(*s.ttft.percentileMs(50.0), 2500.0, 1e-9);
  EXPECT_NEAR(*s.ttft.percentileMs(95.0), 3850.0, 1e-9);
  EXPECT_NEAR(*s.ttft.percentileMs(99.0), 3970.0, 1e-9);
  EXPECT_NEAR(s.ttft.medianMs, 2500.0, 1e-9);
  EXPECT_NEAR(s.ttft.stdMs, 1118.033988749895, 1e-9);
  EXPECT_FALSE(s.ttft.percentileMs(75.0).has_value());
}

TEST(RunSummary, PeakConcurrencyTreatsTouchingIntervalsAsDisjoint) {
  const std::vector<RequestRecord> records{
      succeeded(0.0, {1.0}, 1),  // [0, 1)
      succeeded(1.0, {1.0}, 1),  // [1, 2)
      succeeded(0.5, {1.0}, 1),  // [0.5, 1.5)
      succeeded(2.0, {1.0}, 1),  // [2, 3)
  };
  EXPECT_EQ(computeRunSummary(records).maxConcurrentRequests, 2);
}

TEST(RunSummary, PeakConcurrencyCountsNestedRequests) {
  const std::vector<RequestRecord> records{succeeded(0.0, {0.1, 5.0}, 2), succeeded(1.0, {0.5}, 1),
                                           succeeded(1.2, {0.1}, 1), succeeded(1.25, {0.01}, 1)};
  EXPECT_EQ(computeRunSummary(records).maxConcurrentRequests, 4);
}

TEST(RunSummary, PeakOutputThroughputBinsFromTheEarliestStart) {
  const std::vector<RequestRecord> records{
      succeeded(0.6, {0.0, 0.3}, 2),       // tokens at 0.6 and 0.9
      succeeded(1.2, {0.1, 0.2, 0.3}, 3),  // tokens at 1.3, 1.4, 1.5
      succeeded(2.0, {0.0}, 1),            // token at 2.0
  };
  // Bins start at 0.6: [0.6, 1.6) holds 5 tokens, [1.6, 2.6) one. (Bins from 0 would give 3.)
  EXPECT_DOUBLE_EQ(computeRunSummary(records).maxOutputTokensPerS.value(), 5.0);
}

TEST(RunSummary, PeakOutputThroughputCountsChunksNotUsageTokens) {
  const std::vector<RequestRecord> records{succeeded(0.0, {0.1, 0.2}, 50)};
  EXPECT_DOUBLE_EQ(computeRunSummary(records).maxOutputTokensPerS.value(), 2.0);
}

TEST(RunSummary, GoodputAppliesEachSlo) {
  const std::vector<RequestRecord> records{
      succeeded(0.0, {0.1, 1.0}, 10),  // TTFT 100 ms, TPOT 100 ms, E2E 1000 ms
      succeeded(0.0, {0.5, 1.0}, 11),  // TTFT 500 ms, TPOT 50 ms,  E2E 1000 ms
      succeeded(0.0, {0.2, 2.0}, 1),   // TTFT 200 ms, TPOT 0 (one token), E2E 2000 ms
  };
  // Duration 2 s.
  SummaryOptions options;
  EXPECT_FALSE(computeRunSummary(records, options).requestGoodput.has_value());

  options.goodput = {};
  options.goodput.ttftMs = 300.0;  // requests 1 and 3
  EXPECT_DOUBLE_EQ(*computeRunSummary(records, options).requestGoodput, 1.0);

  options.goodput = {};
  options.goodput.tpotMs = 80.0;  // requests 2 and 3 (a one-token reply counts as TPOT 0)
  EXPECT_DOUBLE_EQ(*computeRunSummary(records, options).requestGoodput, 1.0);

  options.goodput = {};
  options.goodput.e2elMs = 1000.0;  // requests 1 and 2: equal to the SLO is good
  EXPECT_DOUBLE_EQ(*computeRunSummary(records, options).requestGoodput, 1.0);

  options.goodput = {};
  options.goodput.ttftMs = 300.0;
  options.goodput.tpotMs = 80.0;  // only request 3 meets both
  EXPECT_DOUBLE_EQ(*computeRunSummary(records, options).requestGoodput, 0.5);

  options.goodput = {};
  options.goodput.e2elMs = 5000.0;
  EXPECT_DOUBLE_EQ(*computeRunSummary(records, options).requestGoodput, 1.5);
}

TEST(RunSummary, EmptyRunGivesZeros) {
  const RunSummary s = computeRunSummary({});
  EXPECT_EQ(s.completed, 0);
  EXPECT_EQ(s.failed, 0);
  EXPECT_DOUBLE_EQ(s.durationS, 0.0);
  EXPECT_DOUBLE_EQ(s.requestThroughput, 0.0);
  EXPECT_DOUBLE_EQ(s.ttft.meanMs, 0.0);
  EXPECT_DOUBLE_EQ(*s.ttft.percentileMs(99.0), 0.0);
  EXPECT_DOUBLE_EQ(s.maxOutputTokensPerS.value(), 0.0);
  EXPECT_EQ(s.maxConcurrentRequests, 0);
}

// vLLM divides by its benchmark duration (before the first arrival gap to the return of the last
// request, failed ones included), which the records alone cannot show.
TEST(RunSummary, ThroughputsDivideByTheRunsOwnDurationWhenGiven) {
  const std::vector<RequestRecord> records{succeeded(0.5, {0.1, 0.2}, 2), failedWith(0.8, "timed out")};
  SummaryOptions options;
  options.goodput.ttftMs = 1000;
  EXPECT_DOUBLE_EQ(computeRunSummary(records, options).durationS, 0.3);  // 0.5 to 0.7 and 0.8
  options.durationS = 4.0;
  const RunSummary s = computeRunSummary(records, options);
  EXPECT_DOUBLE_EQ(s.durationS, 4.0);
  EXPECT_DOUBLE_EQ(s.requestThroughput, 1.0 / 4.0);
  EXPECT_DOUBLE_EQ(*s.requestGoodput, 1.0 / 4.0);
  EXPECT_DOUBLE_EQ(s.outputThroughput, 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(s.totalTokenThroughput.value(), 12.0 / 4.0);
}

TEST(RunSummary, AllFailedGivesZeroLatenciesAndCountsFailures) {
  const std::vector<RequestRecord> records{failedWith(0.0, "refused"), failedWith(0.0, "refused")};
  const RunSummary s = computeRunSummary(records);
  EXPECT_EQ(s.completed, 0);
  EXPECT_EQ(s.failed, 2);
  EXPECT_DOUBLE_EQ(s.e2el.meanMs, 0.0);
  EXPECT_DOUBLE_EQ(s.requestThroughput, 0.0);
}

TEST(RunSummary, IgnoresNotANumberTimesInsteadOfCrashing) {
  std::vector<RequestRecord> records{succeeded(0.0, {0.1, 0.2}, 2), succeeded(0.0, {std::nan(""), 0.3}, 2)};
  records.push_back(records[0]);
  records[2].startS = std::nan("");
  const RunSummary s = computeRunSummary(records);
  EXPECT_EQ(s.completed, 3);
  EXPECT_EQ(s.ttft.samples, 2u);  // the NaN TTFT is left out
  EXPECT_NEAR(s.ttft.meanMs, 100.0, 1e-9);
}

TEST(RunSummary, DispatchLagAndSlotWaitAreAyarAdditions) {
  std::vector<RequestRecord> records{succeeded(0.001, {0.1}, 1), succeeded(1.503, {0.1}, 1)};
  records[0].scheduledS = 0.0;  // 1 ms late
  records[1].scheduledS = 1.0;
  records[1].slotWaitS = 0.5;  // 3 ms late after a 500 ms wait for a slot
  const RunSummary s = computeRunSummary(records);
  EXPECT_NEAR(s.dispatchLagMeanMs, 2.0, 1e-9);
  EXPECT_NEAR(s.dispatchLagMedianMs, 2.0, 1e-9);
  EXPECT_NEAR(s.dispatchLagP99Ms, 2.98, 1e-9);
  EXPECT_NEAR(s.dispatchLagMaxMs, 3.0, 1e-9);
  EXPECT_NEAR(s.slotWaitMeanMs, 250.0, 1e-9);
  EXPECT_NEAR(s.slotWaitMaxMs, 500.0, 1e-9);
}

TEST(RunSummary, FlagsOutputCountsFromTheTokenizer) {
  std::vector<RequestRecord> records{succeeded(0.0, {0.1}, 1), succeeded(0.0, {0.1}, 1)};
  EXPECT_FALSE(computeRunSummary(records).outputTokensFromTokenizer);
  records[1].outputTokensFromUsage = false;
  const RunSummary s = computeRunSummary(records);
  EXPECT_TRUE(s.outputTokensFromTokenizer);
  EXPECT_EQ(s.outputTokensFromTokenizerRequests, 1);
}

TEST(RunSummary, KeepsTheRequestedMetricsPercentilesAndConcurrencyCap) {
  SummaryOptions options;
  options.percentileMetrics = {LatencyMetric::Ttft, LatencyMetric::Itl};
  options.percentiles = {99.9};
  options.maxConcurrency = 31;
  const std::vector<RequestRecord> records{succeeded(0.0, {0.1}, 1)};
  const RunSummary s = computeRunSummary(records, options);
  EXPECT_TRUE(s.reports(LatencyMetric::Ttft));
  EXPECT_FALSE(s.reports(LatencyMetric::Tpot));
  EXPECT_EQ(s.maxConcurrency, 31);
  ASSERT_EQ(s.ttft.percentilesMs.size(), 1u);
  EXPECT_NEAR(*s.ttft.percentileMs(99.9), 100.0, 1e-9);
}

TEST(RunSummary, RejectsPercentilesOutsideTheRangeAndNegativeSlos) {
  SummaryOptions options;
  options.percentiles = {101.0};
  EXPECT_THROW(computeRunSummary({}, options), Error);
  options.percentiles = {99.0};
  options.goodput.ttftMs = -1.0;
  EXPECT_THROW(computeRunSummary({}, options), Error);
}

TEST(RunSummary, NamesMetricsAndPercentilesAsVllmDoes) {
  EXPECT_EQ(percentileWord(99.0), "99");
  EXPECT_EQ(percentileWord(99.9), "99.9");
  EXPECT_EQ(percentileWord(50.0), "50");
  EXPECT_EQ(latencyMetricKey(LatencyMetric::E2el), "e2el");
  EXPECT_EQ(parseLatencyMetric("itl"), LatencyMetric::Itl);
  EXPECT_THROW(parseLatencyMetric("latency"), Error);
}

}  // namespace
}  // namespace ayar
