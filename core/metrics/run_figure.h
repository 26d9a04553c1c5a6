#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/metrics/run_summary.h"

namespace ayar {

// A per-run figure that runs are compared on: what a study decides by, what a comparison table lists.
enum class RunFigure {
  MeanE2el,
  MedianE2el,
  P99E2el,
  MeanTtft,
  MedianTtft,
  P99Ttft,
  MeanTpot,
  MedianTpot,
  P99Tpot,
  MeanItl,
  MedianItl,
  P99Itl,
  RequestThroughput,
  RequestGoodput,
  OutputThroughput,
  TotalTokenThroughput,
  MaxOutputTokensPerS,
};

inline constexpr RunFigure kAllRunFigures[] = {
    RunFigure::MeanE2el,
    RunFigure::MedianE2el,
    RunFigure::P99E2el,
    RunFigure::MeanTtft,
    RunFigure::MedianTtft,
    RunFigure::P99Ttft,
    RunFigure::MeanTpot,
    RunFigure::MedianTpot,
    RunFigure::P99Tpot,
    RunFigure::MeanItl,
    RunFigure::MedianItl,
    RunFigure::P99Itl,
    RunFigure::RequestThroughput,
    RunFigure::RequestGoodput,
    RunFigure::OutputThroughput,
    RunFigure::TotalTokenThroughput,
    RunFigure::MaxOutputTokensPerS,
};

// Which way is better: latencies fall, throughputs rise.
enum class Better { Lower, Higher };

// The key of the figure in vLLM's result JSON ("mean_e2el_ms", "total_token_throughput", ...), which is
// also how study files and command lines name it.
std::string_view runFigureKey(RunFigure figure);
// Parses a result key; throws ayar::Error naming the text and listing the keys it accepts.
RunFigure parseRunFigure(std::string_view key);
Better runFigureBetter(RunFigure figure);
// True for the figures in milliseconds (latencies); false for rates per second.
bool runFigureIsLatency(RunFigure figure);

// The figure's value in its key's unit (ms for latencies, per second for rates), or nothing when the
// summary lacks it (no goodput SLO given, a percentile that was not computed).
std::optional<double> runFigureValue(const RunSummary& summary, RunFigure figure);

// How many times better the candidate is than the baseline: baseline/candidate for figures where
// lower is better, candidate/baseline where higher is. Above 1 the candidate is better. Nothing when a
// value is not positive and finite (a ratio of a zero or missing figure says nothing).
std::optional<double> speedup(double baseline, double candidate, Better better);
std::optional<double> speedup(const RunSummary& baseline, const RunSummary& candidate, RunFigure figure);

// (candidate - baseline) / baseline, signed: +0.581 for the seeds' "+58.1%". Nothing when the
// baseline is not positive and finite.
std::optional<double> relativeChange(double baseline, double candidate);

}  // namespace ayar
