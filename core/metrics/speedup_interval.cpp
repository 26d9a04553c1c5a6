#include "core/metrics/speedup_interval.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/metrics/statistics.h"

namespace ayar {
namespace {

// An index in [0, n) from 64 random bits: the remainder, whose bias (n / 2^64) no run's size makes
// visible, and the same on every standard library, unlike uniform_int_distribution.
std::size_t drawIndex(std::mt19937_64& random, std::size_t n) {
  return static_cast<std::size_t>(random() % n);
}

// The statistic of values already sorted ascending (numpy's linear percentile for the median and
// the tails).
double statisticOfSorted(std::span<const double> sorted, SampleStatistic statistic) {
  if (statistic == SampleStatistic::Mean) return mean(sorted);
  const double p = statistic == SampleStatistic::Median ? 50.0
                   : statistic == SampleStatistic::P90  ? 90.0
                                                        : 99.0;
  return percentileLinear(sorted, p);
}

// One resample with replacement of `values`, drawn into `scratch` (reused across resamples) and sorted
// there when the statistic needs order: no copy a resample.
double resampledStatistic(std::span<const double> values, SampleStatistic statistic, std::mt19937_64& random,
                          std::vector<double>& scratch) {
  scratch.resize(values.size());
  for (double& value : scratch)
    value = values[drawIndex(random, values.size())];
  if (statistic != SampleStatistic::Mean) std::sort(scratch.begin(), scratch.end());
  return statisticOfSorted(scratch, statistic);
}

}  // namespace

double sampleStatistic(std::span<const double> values, SampleStatistic statistic) {
  if (statistic == SampleStatistic::Mean) return mean(values);
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return statisticOfSorted(sorted, statistic);
}

std::optional<SpeedupInterval> bootstrapSpeedup(std::span<const double> baseline,
                                                std::span<const double> candidate, SampleStatistic statistic,
                                                Better better, const BootstrapOptions& options) {
  if (baseline.empty() || candidate.empty() || options.resamples < 100 || !(options.level > 0.0) ||
      !(options.level < 1.0)) {
    return std::nullopt;
  }
  const std::optional<double> point =
      speedup(sampleStatistic(baseline, statistic), sampleStatistic(candidate, statistic), better);
  if (!point) return std::nullopt;
  std::mt19937_64 random(options.seed);
  std::vector<double> scratch;
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double b = resampledStatistic(baseline, statistic, random, scratch);
    const double c = resampledStatistic(candidate, statistic, random, scratch);
    if (const std::optional<double> ratio = speedup(b, c, better)) ratios.push_back(*ratio);
  }
  // A resample whose statistic is 0 (a run of mostly zero values) says nothing; too many such, and
  // the interval would rest on a biased few.
  if (ratios.size() < static_cast<std::size_t>(options.resamples) * 9 / 10) return std::nullopt;
  std::sort(ratios.begin(), ratios.end());
  SpeedupInterval interval;
  interval.speedup = *point;
  interval.low = percentileLinear(ratios, 50.0 * (1.0 - options.level));
  interval.high = percentileLinear(ratios, 50.0 * (1.0 + options.level));
  interval.level = options.level;
  interval.resamples = options.resamples;
  return interval;
}

}  // namespace ayar
