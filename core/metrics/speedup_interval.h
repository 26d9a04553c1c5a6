#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"

namespace ayar {

// Which per-request statistic a figure is: the mean, the median or a high percentile of the requests'
// values (TTFT, TPOT, ITL or end-to-end latency).
enum class SampleStatistic { Mean, Median, P90, P99 };

// The per-request values and the statistic behind a figure: mean TTFT is the mean of the TTFT values.
struct FigureSample {
  LatencyMetric metric = LatencyMetric::Ttft;
  SampleStatistic statistic = SampleStatistic::Mean;
};

// Nothing for the throughputs and goodput: each is one figure of a whole run (tokens over its
// duration), not a statistic of its requests, so only repeated runs can say how much it varies.
std::optional<FigureSample> runFigureSample(RunFigure figure);

// How sure a speedup is. `speedup` is speedup(): above 1 the candidate is better. `low` and `high` are
// the ends of the confidence interval of the same ratio at `level` (0.95: the 95% interval).
struct SpeedupInterval {
  double speedup = 0.0;
  double low = 0.0;
  double high = 0.0;
  double level = 0.0;
  int resamples = 0;
  // The interval leaves 1 out: the difference is more than the runs' own spread.
  bool clear() const { return low > 1.0 || high < 1.0; }
};

struct BootstrapOptions {
  int resamples = 1000;
  double level = 0.95;
  std::uint64_t seed = 0x41796172;  // the same figures give the same interval every time
};

// The percentile bootstrap of the ratio: each run's requests are resampled with replacement (the two
// runs independently), the statistic is taken of each resample, and the ratio's quantiles at (1 -
// level) / 2 and (1 + level) / 2 over the resamples are the interval. It assumes the requests of a run
// are exchangeable draws of one configuration's behaviour; drift within a run widens nothing, so
// repeated runs (interleaved) are the stronger test. Nothing when either side is empty, or a statistic
// is not positive and finite, or the options are out of range (resamples < 100, level outside (0, 1)).
// A median's or tail's resample is drawn as just the two order statistics its percentile needs (the same
// distribution as sorting n draws), so its cost is one sort of each run; a mean's is one pass over the
// run's values a resample. bench_speedup_interval prints both.
std::optional<SpeedupInterval> bootstrapSpeedup(std::span<const double> baseline,
                                                std::span<const double> candidate, SampleStatistic statistic,
                                                Better better, const BootstrapOptions& options = {});

// The statistic of `values` as the run summary computes it (numpy's mean and linear percentiles).
double sampleStatistic(std::span<const double> values, SampleStatistic statistic);

}  // namespace ayar
