#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/latency_values.h"
#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/report_document.h"

namespace ayar {

// How a run was set up, as the comparison's "what differs" reads it: each value as text, flags by their
// catalogue name in one form (effectiveFlags), so that two spellings of one setting agree.
struct RunSetup {
  bool recorded = false;  // an import that wrote none of this leaves it false
  std::string engine;     // "ayar", "vllm", ...
  std::string model;
  std::string device;
  std::map<std::string, std::string> flags;         // the flags the run gave
  std::map<std::string, std::string> flagDefaults;  // its engine's defaults, where the catalogue has one
  std::map<std::string, std::string> profile;       // the load profile's fields
};

// What differs between a baseline's set-up and its candidates': a row per engine, model, device, engine
// flag or load-profile field in which a recorded candidate differs from the baseline, its cells the
// setting and then each run's value (baseline first) worded in `language`: a flag left unset as
// "default (8192)" where the engine's default is known, "engine default" where the engine decides; a
// run that recorded no set-up "not recorded". `data` holds the same as values ({"setting", "baseline",
// "candidates"}, null where unknown). Not `compared` when the baseline recorded no set-up.
struct SetupDifferences {
  bool compared = false;
  std::vector<std::vector<std::string>> rows;
  nlohmann::json data = nlohmann::json::array();
};
SetupDifferences setupDifferences(const RunSetup& baseline, const std::vector<const RunSetup*>& candidates,
                                  ReportLanguage language);

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
  RunSetup setup;
};

// The figures the seed documents compare: mean latency, TTFT, TPOT, throughput.
std::vector<RunFigure> defaultComparisonFigures();

// A comparison as a report: the runs; what differs between the baseline and the candidates (one table,
// a column per run: engine, model, device, each engine flag and load-profile field in which a candidate
// differs, an unset flag named by its default; data "differences": [{"setting", "baseline",
// "candidates": [...]}], a value null where it is not known); one seed-style table per candidate (scenario |
// baseline | candidate | ratio, the ratio worded as formatSpeedup does), each run's result block, and the
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
