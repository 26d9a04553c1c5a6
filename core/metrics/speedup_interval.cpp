#include "core/metrics/speedup_interval.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/metrics/statistics.h"

namespace ayar {
namespace {

// The bootstrap's random numbers: splitmix64's words (fast, and statistically ample for resampling)
// turned into draws by formulas written here, so that the same figures give the same interval on every
// standard library (their distributions differ).
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : m_state(seed) {}

  // An index in [0, n): the high word of a 64 x 64-bit product (bias n / 2^64, which no run's size
  // makes visible), cheaper than a remainder.
  std::size_t index(std::size_t n) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::size_t>((static_cast<Wide>(bits()) * n) >> 64);
  }

  // Uniform in (0, 1), never 0 or 1: 53 bits and half a step.
  double uniform() { return (static_cast<double>(bits() >> 11) + 0.5) * 0x1.0p-53; }

  // Standard normal (Box-Muller).
  double normal() {
    constexpr double kTwoPi = 6.283185307179586;
    return std::sqrt(-2.0 * std::log(uniform())) * std::cos(kTwoPi * uniform());
  }

  // Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang's squeeze, about one normal a draw).
  double gamma(double shape) {
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      const double x = normal();
      const double t = 1.0 + c * x;
      if (t <= 0.0) continue;
      const double v = t * t * t;
      if (std::log(uniform()) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
    }
  }

  // Beta(a, b) for a, b >= 1.
  double beta(double a, double b) {
    const double x = gamma(a);
    return x / (x + gamma(b));
  }

 private:
  std::uint64_t bits() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t m_state;
};

// The mean of one resample with replacement of `values`, summed as drawn: no copy. Four partial sums,
// so that the additions do not wait on each other.
double resampledMean(std::span<const double> values, Draws& draws) {
  const std::size_t n = values.size();
  double sums[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (double& sum : sums)
      sum += values[draws.index(n)];
  }
  for (; i < n; ++i)
    sums[0] += values[draws.index(n)];
  return (sums[0] + sums[1] + sums[2] + sums[3]) / static_cast<double>(n);
}

// numpy's linear percentile of one resample with replacement of `sorted` (ascending), drawn without
// drawing the resample. A resample is n values sorted[floor(U n)] of n uniforms U, a map that keeps
// order, so its k-th smallest value is sorted[floor(U(k) n)] of the uniforms' k-th smallest, which is
// Beta(k, n - k + 1); the next one above it is the smallest of the n - k uniforms above U(k). Two order
// statistics a resample, whatever n: the same distribution as sorting n draws, in constant time.
double resampledPercentile(std::span<const double> sorted, double p, Draws& draws) {
  const std::size_t n = sorted.size();
  const auto at = [&](double u) { return sorted[std::min(n - 1, static_cast<std::size_t>(u * n))]; };
  const double rank = p / 100.0 * static_cast<double>(n - 1);
  const auto lower = static_cast<std::size_t>(std::floor(rank));  // 0-based: the (lower + 1)-th smallest
  const double k = static_cast<double>(lower + 1);
  const double u = draws.beta(k, static_cast<double>(n) - k + 1.0);
  const double a = at(u);
  if (lower + 1 >= n) return a;
  const double next = u + (1.0 - u) * (1.0 - std::pow(draws.uniform(), 1.0 / (static_cast<double>(n) - k)));
  const double pair[2] = {a, at(next)};
  return percentileLinear(pair, (rank - static_cast<double>(lower)) * 100.0);
}

// One run's side of the bootstrap: its values, sorted once when the statistic is a percentile. It keeps
// a view of them (of its own sorted copy for a percentile), so it is neither copied nor moved.
class ResampledRun {
 public:
  ResampledRun(std::span<const double> values, SampleStatistic statistic)
      : m_mean(statistic == SampleStatistic::Mean) {
    if (m_mean) {
      m_values = values;
      return;
    }
    m_percent = statistic == SampleStatistic::Median ? 50.0 : statistic == SampleStatistic::P90 ? 90.0 : 99.0;
    m_sorted.assign(values.begin(), values.end());
    std::sort(m_sorted.begin(), m_sorted.end());
    m_values = m_sorted;
  }
  ResampledRun(const ResampledRun&) = delete;
  ResampledRun& operator=(const ResampledRun&) = delete;

  double point() const { return m_mean ? mean(m_values) : percentileLinear(m_values, m_percent); }

  double resample(Draws& draws) const {
    return m_mean ? resampledMean(m_values, draws) : resampledPercentile(m_values, m_percent, draws);
  }

 private:
  bool m_mean;
  double m_percent = 0.0;  // a percentile's p
  std::vector<double> m_sorted;
  std::span<const double> m_values;
};

}  // namespace

std::optional<FigureSample> runFigureSample(RunFigure figure) {
  switch (figure) {
    case RunFigure::MeanE2el:
      return FigureSample{LatencyMetric::E2el, SampleStatistic::Mean};
    case RunFigure::MedianE2el:
      return FigureSample{LatencyMetric::E2el, SampleStatistic::Median};
    case RunFigure::P99E2el:
      return FigureSample{LatencyMetric::E2el, SampleStatistic::P99};
    case RunFigure::MeanTtft:
      return FigureSample{LatencyMetric::Ttft, SampleStatistic::Mean};
    case RunFigure::MedianTtft:
      return FigureSample{LatencyMetric::Ttft, SampleStatistic::Median};
    case RunFigure::P99Ttft:
      return FigureSample{LatencyMetric::Ttft, SampleStatistic::P99};
    case RunFigure::MeanTpot:
      return FigureSample{LatencyMetric::Tpot, SampleStatistic::Mean};
    case RunFigure::MedianTpot:
      return FigureSample{LatencyMetric::Tpot, SampleStatistic::Median};
    case RunFigure::P99Tpot:
      return FigureSample{LatencyMetric::Tpot, SampleStatistic::P99};
    case RunFigure::MeanItl:
      return FigureSample{LatencyMetric::Itl, SampleStatistic::Mean};
    case RunFigure::MedianItl:
      return FigureSample{LatencyMetric::Itl, SampleStatistic::Median};
    case RunFigure::P99Itl:
      return FigureSample{LatencyMetric::Itl, SampleStatistic::P99};
    case RunFigure::RequestThroughput:
    case RunFigure::RequestGoodput:
    case RunFigure::OutputThroughput:
    case RunFigure::TotalTokenThroughput:
    case RunFigure::MaxOutputTokensPerS:
      return std::nullopt;
  }
  return std::nullopt;
}

double sampleStatistic(std::span<const double> values, SampleStatistic statistic) {
  return ResampledRun(values, statistic).point();
}

std::optional<SpeedupInterval> bootstrapSpeedup(std::span<const double> baseline,
                                                std::span<const double> candidate, SampleStatistic statistic,
                                                Better better, const BootstrapOptions& options) {
  if (baseline.empty() || candidate.empty() || options.resamples < 100 || !(options.level > 0.0) ||
      !(options.level < 1.0)) {
    return std::nullopt;
  }
  const ResampledRun baselineRun(baseline, statistic);
  const ResampledRun candidateRun(candidate, statistic);
  const std::optional<double> point = speedup(baselineRun.point(), candidateRun.point(), better);
  if (!point) return std::nullopt;
  Draws draws(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int i = 0; i < options.resamples; ++i) {
    const double b = baselineRun.resample(draws);
    const double c = candidateRun.resample(draws);
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
