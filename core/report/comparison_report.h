#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/metrics/latency_values.h"
#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/report_document.h"

namespace ayar {

// A run as a comparison report names and shows it.
struct ComparisonReportRun {
  std::string name;  // "#12 baseline (qwen3-8b)"
  RunSummary summary;
  std::optional<double> requestRate;  // the configured rate, for the result block's line
  bool simulated = false;             // measured on ayar-engine's timing simulator
  bool syntheticDataset = false;      // its prompts came from the synthetic ShareGPT-like set
  // Its requests' latencies (latencyValuesByMetric), behind the ratios' confidence intervals; empty
  // when the requests are not at hand (a result file without per-request detail).
  LatencyValuesByMetric requestValuesMs;
};

// The figures the seed documents compare: mean latency, TTFT, TPOT, throughput.
std::vector<RunFigure> defaultComparisonFigures();

// A comparison as a report: the runs, one seed-style table per candidate (scenario | baseline |
// candidate | ratio, the ratio worded as formatSpeedup does), each run's result block, and the
// figures behind the tables under data ({"baseline", "candidates": [{"name", "figures": {key:
// {"baseline", "candidate", "speedup", "interval"}}}]}). Where both runs have their requests' values,
// a latency ratio carries its bootstrap confidence interval (bootstrapSpeedup, default options): a
// column of its own, "no clear difference" in the ratio's words when the interval holds 1, the method in
// a note, and {"low", "high", "level", "resamples", "clear"} in the data (null without one). Every phrase
// from the catalogue; the tables' numbers as `locale` writes them (the result blocks stay vLLM's, in the C
// locale).
ReportDocument buildComparisonReport(const ComparisonReportRun& baseline,
                                     const std::vector<ComparisonReportRun>& candidates,
                                     const ReportLocale& locale,
                                     const std::vector<RunFigure>& figures = defaultComparisonFigures());

}  // namespace ayar
