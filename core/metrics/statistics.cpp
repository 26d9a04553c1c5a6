#include "core/metrics/statistics.h"

#include <cassert>
#include <cmath>

namespace ayar {

double percentileLinear(std::span<const double> sortedValues, double p) {
  assert(p >= 0.0 && p <= 100.0);
  if (sortedValues.empty()) return 0.0;
  const double rank = p / 100.0 * static_cast<double>(sortedValues.size() - 1);
  const double lowerRank = std::floor(rank);
  const auto lower = static_cast<std::size_t>(lowerRank);
  const std::size_t upper = lower + 1 < sortedValues.size() ? lower + 1 : lower;
  const double fraction = rank - lowerRank;
  // numpy's _lerp: a + (b - a) * t, switched to b - (b - a) * (1 - t) for t >= 0.5 so that the
  // result is exact at both ends.
  const double a = sortedValues[lower];
  const double b = sortedValues[upper];
  const double diff = b - a;
  return fraction >= 0.5 ? b - diff * (1.0 - fraction) : a + diff * fraction;
}

double mean(std::span<const double> values) {
  if (values.empty()) return 0.0;
  double sum = 0.0;
  for (double v : values)
    sum += v;
  return sum / static_cast<double>(values.size());
}

double populationStdDev(std::span<const double> values) {
  if (values.empty()) return 0.0;
  const double m = mean(values);
  double squares = 0.0;
  for (double v : values)
    squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size()));
}

}  // namespace ayar
