#pragma once

#include <optional>
#include <string>
#include <vector>

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
};

// The figures the seed documents compare: mean latency, TTFT, TPOT, throughput.
std::vector<RunFigure> defaultComparisonFigures();

// A comparison as a report: the runs, one seed-style table per candidate (scenario | baseline |
// candidate | ratio, the ratio worded as formatSpeedup does), each run's result block, and the
// figures behind the tables under data ({"baseline", "candidates": [{"name", "figures": {key:
// {"baseline", "candidate", "speedup"}}}]}). Numbers in the C locale, every phrase from the catalogue.
ReportDocument buildComparisonReport(const ComparisonReportRun& baseline,
                                     const std::vector<ComparisonReportRun>& candidates,
                                     ReportLanguage language,
                                     const std::vector<RunFigure>& figures = defaultComparisonFigures());

}  // namespace ayar
