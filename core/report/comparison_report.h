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
  bool syntheticDataset = false;      // its prompts came from the synthetic ShareGPT-like set
};

// The figures the seed documents compare: mean latency, TTFT, TPOT, throughput.
std::vector<RunFigure> defaultComparisonFigures();

// A comparison as a report: the runs, one seed-style table per candidate (scenario | baseline |
// candidate | ratio, the ratio worded as formatSpeedup does), each run's result block, and the
// figures behind the tables under data ({"baseline", "candidates": [{"name", "figures": {key:
// {"baseline", "candidate", "speedup"}}}]}). Every phrase from the catalogue; the tables' numbers as
// `locale` writes them (the result blocks stay vLLM's, in the C locale).
ReportDocument buildComparisonReport(const ComparisonReportRun& baseline,
                                     const std::vector<ComparisonReportRun>& candidates,
                                     const ReportLocale& locale,
                                     const std::vector<RunFigure>& figures = defaultComparisonFigures());

}  // namespace ayar
