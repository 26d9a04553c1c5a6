#pragma once

#include <span>
#include <vector>

namespace ayar {

// numpy.percentile's default (method="linear"): rank p/100*(n-1), interpolated between the two
// neighbouring order statistics. `sortedValues` must be sorted ascending; p in [0, 100]. Empty
// input gives 0, as vLLM's `np.percentile(values or 0, p)` does.
double percentileLinear(std::span<const double> sortedValues, double p);

// numpy.mean and numpy.std (population, ddof=0); 0 for empty input like vLLM's `values or 0`.
double mean(std::span<const double> values);
double populationStdDev(std::span<const double> values);

}  // namespace ayar
