#pragma once

#include <span>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"

namespace ayar {

// The per-request values behind one latency distribution, in milliseconds, as computeRunSummary takes
// them: successful requests only; TTFT and E2E latency one per request; TPOT one per request with more
// than one output token; ITL every gap between chunks. In record order. For histograms and CDFs.
std::vector<double> latencyValuesMs(std::span<const RequestRecord> records, LatencyMetric metric);

}  // namespace ayar
