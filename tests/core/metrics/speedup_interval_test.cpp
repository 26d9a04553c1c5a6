#include "core/metrics/speedup_interval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/metrics/statistics.h"

namespace ayar {
namespace {

// Latencies as serving runs have them: log-normal, a long right tail.
std::vector<double> latencies(std::mt19937_64& random, std::size_t count, double medianMs,
                              double sigma = 0.5) {
  std::lognormal_distribution<double> draw(std::log(medianMs), sigma);
  std::vector<double> values(count);
  for (double& value : values)
    value = draw(random);
  return values;
}

TEST(SpeedupInterval, TheSameFiguresGiveTheSameIntervalAndHoldTheirSpeedup) {
  std::mt19937_64 random(7);
  const auto baseline = latencies(random, 400, 20.0);
  const auto candidate = latencies(random, 400, 18.0);
  const auto first = bootstrapSpeedup(baseline, candidate, SampleStatistic::Mean, Better::Lower);
  const auto again = bootstrapSpeedup(baseline, candidate, SampleStatistic::Mean, Better::Lower);
  ASSERT_TRUE(first && again);
  EXPECT_EQ(first->low, again->low);
  EXPECT_EQ(first->high, again->high);
  EXPECT_DOUBLE_EQ(first->speedup, mean(baseline) / mean(candidate));
  EXPECT_LT(first->low, first->speedup);
  EXPECT_GT(first->high, first->speedup);
  EXPECT_EQ(first->level, 0.95);
  EXPECT_EQ(first->resamples, 1000);
}

// Two runs of one configuration: the 95% interval holds 1 in about 95% of seeded trials (at least 90 of
// 100: a correct interval falls below that about once in 50 seed sets). That the interval is not
// simply wide is ATenPercentChangeIsFound's part.
TEST(SpeedupInterval, TwoRunsOfOneConfigurationAreMostlyNoClearDifference) {
  for (const SampleStatistic statistic : {SampleStatistic::Mean, SampleStatistic::Median}) {
    std::mt19937_64 random(11);
    int noClearDifference = 0;
    for (int trial = 0; trial < 100; ++trial) {
      const auto baseline = latencies(random, 300, 25.0);
      const auto candidate = latencies(random, 300, 25.0);
      BootstrapOptions options;
      options.resamples = 400;
      options.seed = static_cast<std::uint64_t>(trial) + 1;
      const auto interval = bootstrapSpeedup(baseline, candidate, statistic, Better::Lower, options);
      ASSERT_TRUE(interval);
      noClearDifference += interval->clear() ? 0 : 1;
    }
    EXPECT_GE(noClearDifference, 90) << static_cast<int>(statistic);
  }
}

// A candidate 10% faster, 1,000 requests a run: found (the interval above 1) in at least 95 of 100
// trials by the mean, and never called slower.
TEST(SpeedupInterval, ATenPercentChangeIsFound) {
  std::mt19937_64 random(13);
  int found = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const auto baseline = latencies(random, 1000, 25.0);
    const auto candidate = latencies(random, 1000, 25.0 / 1.1);
    BootstrapOptions options;
    options.resamples = 400;
    options.seed = static_cast<std::uint64_t>(trial) + 1;
    const auto interval =
        bootstrapSpeedup(baseline, candidate, SampleStatistic::Mean, Better::Lower, options);
    ASSERT_TRUE(interval);
    EXPECT_FALSE(interval->high < 1.0) << "trial " << trial;
    found += interval->low > 1.0 ? 1 : 0;
  }
  EXPECT_GE(found, 95);
}

TEST(SpeedupInterval, HigherIsBetterFiguresAndHighPercentiles) {
  std::mt19937_64 random(17);
  const auto baseline = latencies(random, 2000, 100.0, 0.2);
  std::vector<double> doubled = baseline;
  for (double& value : doubled)
    value *= 2.0;
  const auto higher = bootstrapSpeedup(baseline, doubled, SampleStatistic::P99, Better::Higher);
  ASSERT_TRUE(higher);
  EXPECT_NEAR(higher->speedup, 2.0, 1e-12);
  EXPECT_NEAR(higher->low, 2.0, 0.3);
  EXPECT_TRUE(higher->clear());
  const auto lower = bootstrapSpeedup(baseline, doubled, SampleStatistic::P90, Better::Lower);
  ASSERT_TRUE(lower);
  EXPECT_NEAR(lower->speedup, 0.5, 1e-12);
  EXPECT_LT(lower->high, 1.0);
}

// The percentile bootstrap by brute force: draw each resample, sort it, take its percentile.
std::pair<double, double> bruteForceInterval(const std::vector<double>& baseline,
                                             const std::vector<double>& candidate, double p, int resamples) {
  std::mt19937_64 random(99);
  const auto statistic = [&](const std::vector<double>& values) {
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    std::vector<double> resample(values.size());
    for (double& value : resample)
      value = values[pick(random)];
    std::sort(resample.begin(), resample.end());
    return percentileLinear(resample, p);
  };
  std::vector<double> ratios;
  for (int i = 0; i < resamples; ++i)
    ratios.push_back(statistic(baseline) / statistic(candidate));
  std::sort(ratios.begin(), ratios.end());
  return {percentileLinear(ratios, 2.5), percentileLinear(ratios, 97.5)};
}

// A percentile's resamples are drawn as two order statistics (constant time a resample), not as n
// values sorted: the interval is the brute-force bootstrap's, within the spread of either's own draws.
TEST(SpeedupInterval, PercentileResamplesDrawnAsOrderStatisticsMatchSortedResamples) {
  std::mt19937_64 random(23);
  const auto baseline = latencies(random, 1500, 30.0);
  const auto candidate = latencies(random, 1200, 27.0);
  for (const auto& [statistic, p] :
       {std::pair{SampleStatistic::Median, 50.0}, std::pair{SampleStatistic::P90, 90.0},
        std::pair{SampleStatistic::P99, 99.0}}) {
    BootstrapOptions options;
    options.resamples = 4000;
    const auto interval = bootstrapSpeedup(baseline, candidate, statistic, Better::Lower, options);
    ASSERT_TRUE(interval);
    const auto [low, high] = bruteForceInterval(baseline, candidate, p, 4000);
    const double width = high - low;
    EXPECT_NEAR(interval->low, low, 0.08 * width) << "p" << p;
    EXPECT_NEAR(interval->high, high, 0.08 * width) << "p" << p;
  }
}

// Each latency figure names its requests' values and statistic; a throughput, one figure of a whole
// run, has none.
TEST(SpeedupInterval, LatencyFiguresNameTheirSampleAndThroughputsHaveNone) {
  const auto p99Ttft = runFigureSample(RunFigure::P99Ttft);
  ASSERT_TRUE(p99Ttft);
  EXPECT_EQ(p99Ttft->metric, LatencyMetric::Ttft);
  EXPECT_EQ(p99Ttft->statistic, SampleStatistic::P99);
  const auto medianItl = runFigureSample(RunFigure::MedianItl);
  ASSERT_TRUE(medianItl);
  EXPECT_EQ(medianItl->metric, LatencyMetric::Itl);
  EXPECT_EQ(medianItl->statistic, SampleStatistic::Median);
  for (const RunFigure figure : kAllRunFigures)
    EXPECT_EQ(runFigureSample(figure).has_value(), runFigureIsLatency(figure)) << runFigureKey(figure);
}

TEST(SpeedupInterval, NothingFromEmptyOrZeroFiguresOrBadOptions) {
  const std::vector<double> some = {1.0, 2.0, 3.0};
  const std::vector<double> zeros = {0.0, 0.0, 0.0};
  EXPECT_FALSE(bootstrapSpeedup({}, some, SampleStatistic::Mean, Better::Lower));
  EXPECT_FALSE(bootstrapSpeedup(some, {}, SampleStatistic::Mean, Better::Lower));
  EXPECT_FALSE(bootstrapSpeedup(zeros, some, SampleStatistic::Mean, Better::Lower));
  BootstrapOptions few;
  few.resamples = 10;
  EXPECT_FALSE(bootstrapSpeedup(some, some, SampleStatistic::Mean, Better::Lower, few));
  BootstrapOptions certain;
  certain.level = 1.0;
  EXPECT_FALSE(bootstrapSpeedup(some, some, SampleStatistic::Mean, Better::Lower, certain));
}

}  // namespace
}  // namespace ayar
