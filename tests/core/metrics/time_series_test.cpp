#include "core/metrics/time_series.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"

namespace ayar {
namespace {

std::vector<RequestRecord> threeRequests() {
  RequestRecord a;  // starts 0.2; chunks at 0.5, 1.1, 1.7; TTFT 300 ms
  a.startS = 0.2;
  a.chunkTimesS = {0.3, 0.9, 1.5};
  a.success = true;
  RequestRecord b;  // starts 1.5; chunks at 1.7, 2.5; TTFT 200 ms
  b.startS = 1.5;
  b.chunkTimesS = {0.2, 1.0};
  b.success = true;
  RequestRecord c;  // fails at 0.4 without a chunk
  c.startS = 0.4;
  c.error = "refused";
  return {a, b, c};
}

TEST(TimeSeries, CountsStartsCompletionsTokensAndTtftPerSecond) {
  const TimeSeries series = computeTimeSeries(threeRequests());
  ASSERT_EQ(series.bins.size(), 3u);

  const TimeSeriesBin& first = series.bins[0];
  EXPECT_DOUBLE_EQ(first.startS, 0.0);
  EXPECT_EQ(first.requestsStarted, 2);
  EXPECT_EQ(first.requestsCompleted, 0);
  EXPECT_EQ(first.requestsFailed, 1);
  EXPECT_EQ(first.requestsInFlight, 1);  // a, at t = 1
  EXPECT_DOUBLE_EQ(first.outputTokensPerS, 1.0);
  ASSERT_TRUE(first.meanTtftMs.has_value());
  EXPECT_NEAR(*first.meanTtftMs, 300.0, 1e-9);

  const TimeSeriesBin& second = series.bins[1];
  EXPECT_EQ(second.requestsStarted, 1);
  EXPECT_EQ(second.requestsCompleted, 1);
  EXPECT_EQ(second.requestsInFlight, 1);  // b, at t = 2
  EXPECT_DOUBLE_EQ(second.outputTokensPerS, 3.0);
  EXPECT_NEAR(*second.meanTtftMs, 200.0, 1e-9);

  const TimeSeriesBin& third = series.bins[2];
  EXPECT_EQ(third.requestsStarted, 0);
  EXPECT_EQ(third.requestsCompleted, 1);
  EXPECT_EQ(third.requestsInFlight, 0);
  EXPECT_DOUBLE_EQ(third.outputTokensPerS, 1.0);
  EXPECT_FALSE(third.meanTtftMs.has_value());
}

TEST(TimeSeries, WiderBinsDivideTokensByTheBinWidth) {
  const TimeSeries series = computeTimeSeries(threeRequests(), 2.0);
  ASSERT_EQ(series.bins.size(), 2u);
  EXPECT_EQ(series.bins[0].requestsStarted, 3);
  EXPECT_EQ(series.bins[0].requestsInFlight, 1);           // b, at t = 2
  EXPECT_DOUBLE_EQ(series.bins[0].outputTokensPerS, 2.0);  // 4 chunks in 2 s
  EXPECT_NEAR(*series.bins[0].meanTtftMs, 250.0, 1e-9);
  EXPECT_DOUBLE_EQ(series.bins[1].startS, 2.0);
  EXPECT_DOUBLE_EQ(series.bins[1].outputTokensPerS, 0.5);
}

TEST(TimeSeries, RequestEndingExactlyAtABinEndIsNoLongerInFlight) {
  RequestRecord r;
  r.startS = 0.5;
  r.chunkTimesS = {0.5};  // ends at 1.0
  r.success = true;
  const TimeSeries series = computeTimeSeries(std::vector<RequestRecord>{r});
  ASSERT_EQ(series.bins.size(), 2u);
  EXPECT_EQ(series.bins[0].requestsInFlight, 0);
  EXPECT_EQ(series.bins[1].requestsCompleted, 1);
}

TEST(TimeSeries, EmptyRecordsGiveNoBins) {
  EXPECT_TRUE(computeTimeSeries({}).bins.empty());
}

TEST(TimeSeries, RejectsBadBinWidthsAndAbsurdSpans) {
  EXPECT_THROW(computeTimeSeries({}, 0.0), Error);
  EXPECT_THROW(computeTimeSeries({}, -1.0), Error);
  RequestRecord far;
  far.startS = 1e12;
  EXPECT_THROW(computeTimeSeries(std::vector<RequestRecord>{far}), Error);
}

}  // namespace
}  // namespace ayar
