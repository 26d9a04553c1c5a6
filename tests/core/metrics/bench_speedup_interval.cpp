// What a comparison's confidence intervals cost: bootstrapSpeedup (1,000 resamples, the report's
// default) of two runs of N log-normal latencies, for each statistic a report uses. One line a size and
// statistic: milliseconds per interval. A report computes one interval per latency figure and candidate.
// Usage: bench_speedup_interval [largest N, default 1000000]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/metrics/speedup_interval.h"

namespace {

std::vector<double> latencies(std::mt19937_64& random, std::size_t count, double medianMs) {
  std::lognormal_distribution<double> draw(std::log(medianMs), 0.5);
  std::vector<double> values(count);
  for (double& value : values)
    value = draw(random);
  return values;
}

const char* name(ayar::SampleStatistic statistic) {
  switch (statistic) {
    case ayar::SampleStatistic::Mean:
      return "mean";
    case ayar::SampleStatistic::Median:
      return "median";
    case ayar::SampleStatistic::P90:
      return "p90";
    case ayar::SampleStatistic::P99:
      return "p99";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t largest = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  std::mt19937_64 random(1);
  std::printf("%10s %8s %12s %10s\n", "values", "statistic", "ms/interval", "ns/value");
  for (std::size_t count = 1000; count <= largest; count *= 10) {
    const auto baseline = latencies(random, count, 40.0);
    const auto candidate = latencies(random, count, 38.0);
    for (const auto statistic :
         {ayar::SampleStatistic::Mean, ayar::SampleStatistic::Median, ayar::SampleStatistic::P99}) {
      const auto start = std::chrono::steady_clock::now();
      const auto interval = ayar::bootstrapSpeedup(baseline, candidate, statistic, ayar::Better::Lower);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (!interval) return 1;
      // Each of the 1,000 resamples draws both runs' values once.
      const double perValue = ms * 1e6 / (2.0 * static_cast<double>(count) * interval->resamples);
      std::printf("%10zu %8s %12.1f %10.2f\n", count, name(statistic), ms, perValue);
    }
  }
  return 0;
}
