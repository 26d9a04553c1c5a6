#include "core/metrics/run_figure.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/error.h"

namespace ayar {
namespace {

TEST(RunFigure, EveryKeyParsesBackToItsFigure) {
  std::set<std::string> keys;
  for (RunFigure figure : kAllRunFigures) {
    const std::string key(runFigureKey(figure));
    EXPECT_TRUE(keys.insert(key).second) << "duplicate key " << key;
    EXPECT_EQ(parseRunFigure(key), figure) << key;
  }
}

TEST(RunFigure, UnknownKeyIsAnErrorThatNamesItAndTheChoices) {
  try {
    parseRunFigure("mean_latency");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'mean_latency'"), std::string::npos) << message;
    EXPECT_NE(message.find("mean_e2el_ms"), std::string::npos) << message;
    EXPECT_NE(message.find("total_token_throughput"), std::string::npos) << message;
  }
}

TEST(RunFigure, LatenciesAreBetterLowerAndRatesHigher) {
  for (RunFigure figure : kAllRunFigures) {
    const bool latency = runFigureIsLatency(figure);
    EXPECT_EQ(runFigureBetter(figure), latency ? Better::Lower : Better::Higher) << runFigureKey(figure);
  }
  EXPECT_TRUE(runFigureIsLatency(RunFigure::P99Itl));
  EXPECT_FALSE(runFigureIsLatency(RunFigure::TotalTokenThroughput));
}

TEST(RunFigure, ValuesComeFromTheMatchingSummaryFields) {
  RunSummary summary;
  summary.percentileMetrics.assign(std::begin(kAllLatencyMetrics), std::end(kAllLatencyMetrics));
  summary.e2el.meanMs = 2090.0;
  summary.e2el.medianMs = 2000.0;
  summary.e2el.percentilesMs = {{50.0, 2000.0}, {99.0, 4100.0}};
  summary.ttft.meanMs = 41.12;
  summary.tpot.percentilesMs = {{99.0, 7.5}};
  summary.itl.medianMs = 1.3;
  summary.totalTokenThroughput = 6595.66;
  summary.outputThroughput = 3173.92;
  summary.requestThroughput = 15.74;
  summary.maxOutputTokensPerS = 8890.0;

  EXPECT_EQ(runFigureValue(summary, RunFigure::MeanE2el), 2090.0);
  EXPECT_EQ(runFigureValue(summary, RunFigure::MedianE2el), 2000.0);
  EXPECT_EQ(runFigureValue(summary, RunFigure::P99E2el), 4100.0);
  EXPECT_EQ(runFigureValue(summary, RunFigure::MeanTtft), 41.12);
  EXPECT_EQ(runFigureValue(summary, RunFigure::P99Tpot), 7.5);
  EXPECT_EQ(runFigureValue(summary, RunFigure::MedianItl), 1.3);
  EXPECT_EQ(runFigureValue(summary, RunFigure::TotalTokenThroughput), 6595.66);
  EXPECT_EQ(runFigureValue(summary, RunFigure::OutputThroughput), 3173.92);
  EXPECT_EQ(runFigureValue(summary, RunFigure::RequestThroughput), 15.74);
  EXPECT_EQ(runFigureValue(summary, RunFigure::MaxOutputTokensPerS), 8890.0);
  // Not computed: no p99 of TTFT, no goodput without an SLO.
  EXPECT_FALSE(runFigureValue(summary, RunFigure::P99Ttft));
  EXPECT_FALSE(runFigureValue(summary, RunFigure::RequestGoodput));
  summary.requestGoodput = 12.0;
  EXPECT_EQ(runFigureValue(summary, RunFigure::RequestGoodput), 12.0);
}

// A latency the summary does not hold (a result file written without it) is absent, not 0: vLLM
// leaves out end-to-end latency unless asked, and a comparison must not print "0.00" for it.
TEST(RunFigure, ALatencyTheSummaryDoesNotHoldIsAbsent) {
  RunSummary summary;
  summary.percentileMetrics = {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl};
  summary.ttft.meanMs = 40.0;
  EXPECT_EQ(runFigureValue(summary, RunFigure::MeanTtft), 40.0);
  for (RunFigure figure : {RunFigure::MeanE2el, RunFigure::MedianE2el, RunFigure::P99E2el})
    EXPECT_FALSE(runFigureValue(summary, figure)) << runFigureKey(figure);
  EXPECT_FALSE(speedup(summary, summary, RunFigure::MeanE2el));
  // Computed from requests, it is held even when not among the reported metrics.
  summary.e2el.samples = 3;
  summary.e2el.meanMs = 900.0;
  EXPECT_EQ(runFigureValue(summary, RunFigure::MeanE2el), 900.0);
}

TEST(RunFigure, SpeedupIsBaselineOverCandidateForLatencyAndTheInverseForRates) {
  // The seeds: mean latency 2.09 s -> 1.65 s reads 1.26x faster.
  EXPECT_NEAR(*speedup(2.09, 1.65, Better::Lower), 1.2667, 1e-4);
  // Throughput 6595.66 -> 10426.27 tok/s: 1.58x.
  EXPECT_NEAR(*speedup(6595.66, 10426.27, Better::Higher), 1.5808, 1e-4);
  EXPECT_LT(*speedup(2.62, 2.69, Better::Lower), 1.0);
  EXPECT_DOUBLE_EQ(*speedup(3.0, 3.0, Better::Higher), 1.0);
}

TEST(RunFigure, SpeedupOfZeroMissingOrNonFiniteValuesIsNothing) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(speedup(0.0, 1.0, Better::Lower));
  EXPECT_FALSE(speedup(1.0, 0.0, Better::Higher));
  EXPECT_FALSE(speedup(-1.0, 1.0, Better::Lower));
  EXPECT_FALSE(speedup(nan, 1.0, Better::Lower));
  EXPECT_FALSE(speedup(1.0, inf, Better::Lower));

  RunSummary baseline;
  RunSummary candidate;
  baseline.percentileMetrics = candidate.percentileMetrics = {LatencyMetric::E2el};
  baseline.e2el.meanMs = 50.0;
  candidate.e2el.meanMs = 40.0;
  EXPECT_DOUBLE_EQ(*speedup(baseline, candidate, RunFigure::MeanE2el), 1.25);
  EXPECT_FALSE(speedup(baseline, candidate, RunFigure::RequestGoodput));
}

TEST(RunFigure, RelativeChangeIsSignedAndNeedsAPositiveBaseline) {
  EXPECT_NEAR(*relativeChange(6595.66, 10426.27), 0.5808, 1e-4);
  EXPECT_NEAR(*relativeChange(2.0, 1.5), -0.25, 1e-12);
  EXPECT_FALSE(relativeChange(0.0, 1.0));
}

}  // namespace
}  // namespace ayar
