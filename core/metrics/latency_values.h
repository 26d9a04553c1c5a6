#pragma once

#include <map>
#include <span>
#include <vector>

#include "core/metrics/run_summary.h"
#include "core/metrics/speedup_interval.h"
#include "core/record/request_record.h"

namespace ayar {

// The per-request values behind one latency distribution, in milliseconds, as computeRunSummary takes
// them: successful requests only; TTFT and E2E latency one per request; TPOT one per request with more
// than one output token; ITL every gap between chunks. In record order. For histograms and CDFs.
std::vector<double> latencyValuesMs(std::span<const RequestRecord> records, LatencyMetric metric);

// Every metric's values, for a comparison's confidence intervals.
using LatencyValuesByMetric = std::map<LatencyMetric, std::vector<double>>;
LatencyValuesByMetric latencyValuesByMetric(std::span<const RequestRecord> records);

// The bootstrap interval (bootstrapSpeedup) of a latency figure's ratio between two runs, from the values
// behind it; nothing for a throughput, or when either run lacks the values.
std::optional<SpeedupInterval> figureSpeedupInterval(const LatencyValuesByMetric& baseline,
                                                     const LatencyValuesByMetric& candidate, RunFigure figure,
                                                     const BootstrapOptions& options = {});
// Whether figureSpeedupInterval has something to resample for this figure: a per-request figure whose
// values both runs have (cheap; the caller can show that an interval is coming before computing it).
bool figureHasSpeedupInterval(const LatencyValuesByMetric& baseline, const LatencyValuesByMetric& candidate,
                              RunFigure figure);

}  // namespace ayar
