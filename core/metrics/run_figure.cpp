#include "core/metrics/run_figure.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

struct FigureInfo {
  RunFigure figure;
  std::string_view key;
  Better better;
};

constexpr FigureInfo kFigures[] = {
    {RunFigure::MeanE2el, "mean_e2el_ms", Better::Lower},
    {RunFigure::MedianE2el, "median_e2el_ms", Better::Lower},
    {RunFigure::P99E2el, "p99_e2el_ms", Better::Lower},
    {RunFigure::MeanTtft, "mean_ttft_ms", Better::Lower},
    {RunFigure::MedianTtft, "median_ttft_ms", Better::Lower},
    {RunFigure::P99Ttft, "p99_ttft_ms", Better::Lower},
    {RunFigure::MeanTpot, "mean_tpot_ms", Better::Lower},
    {RunFigure::MedianTpot, "median_tpot_ms", Better::Lower},
    {RunFigure::P99Tpot, "p99_tpot_ms", Better::Lower},
    {RunFigure::MeanItl, "mean_itl_ms", Better::Lower},
    {RunFigure::MedianItl, "median_itl_ms", Better::Lower},
    {RunFigure::P99Itl, "p99_itl_ms", Better::Lower},
    {RunFigure::RequestThroughput, "request_throughput", Better::Higher},
    {RunFigure::RequestGoodput, "request_goodput", Better::Higher},
    {RunFigure::OutputThroughput, "output_throughput", Better::Higher},
    {RunFigure::TotalTokenThroughput, "total_token_throughput", Better::Higher},
    {RunFigure::MaxOutputTokensPerS, "max_output_tokens_per_s", Better::Higher},
};
static_assert(std::size(kFigures) == std::size(kAllRunFigures));

constexpr bool tableInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kFigures); ++i)
    if (kFigures[i].figure != kAllRunFigures[i] || static_cast<std::size_t>(kFigures[i].figure) != i)
      return false;
  return true;
}
static_assert(tableInEnumOrder(), "kFigures must list every RunFigure in declaration order");

const FigureInfo& info(RunFigure figure) {
  return kFigures[static_cast<std::size_t>(figure)];
}

bool positiveFinite(double v) {
  return std::isfinite(v) && v > 0.0;
}

}  // namespace

std::string_view runFigureKey(RunFigure figure) {
  return info(figure).key;
}

RunFigure parseRunFigure(std::string_view key) {
  for (const FigureInfo& figure : kFigures)
    if (figure.key == key) return figure.figure;
  std::string known;
  for (const FigureInfo& figure : kFigures) {
    if (!known.empty()) known += ", ";
    known += figure.key;
  }
  throw MessageError({MessageText::FigureUnknown, {std::string(key), known}});
}

Better runFigureBetter(RunFigure figure) {
  return info(figure).better;
}

bool runFigureIsLatency(RunFigure figure) {
  return info(figure).key.ends_with("_ms");
}

std::optional<double> runFigureValue(const RunSummary& summary, RunFigure figure) {
  // A latency the summary does not hold is absent: a result file without it says nothing of it.
  const auto held = [&](LatencyMetric metric) { return summary.has(metric); };
  switch (figure) {
    case RunFigure::MeanE2el:
    case RunFigure::MedianE2el:
    case RunFigure::P99E2el:
      if (!held(LatencyMetric::E2el)) return std::nullopt;
      break;
    case RunFigure::MeanTtft:
    case RunFigure::MedianTtft:
    case RunFigure::P99Ttft:
      if (!held(LatencyMetric::Ttft)) return std::nullopt;
      break;
    case RunFigure::MeanTpot:
    case RunFigure::MedianTpot:
    case RunFigure::P99Tpot:
      if (!held(LatencyMetric::Tpot)) return std::nullopt;
      break;
    case RunFigure::MeanItl:
    case RunFigure::MedianItl:
    case RunFigure::P99Itl:
      if (!held(LatencyMetric::Itl)) return std::nullopt;
      break;
    default:
      break;
  }
  switch (figure) {
    case RunFigure::MeanE2el:
      return summary.e2el.meanMs;
    case RunFigure::MedianE2el:
      return summary.e2el.medianMs;
    case RunFigure::P99E2el:
      return summary.e2el.percentileMs(99.0);
    case RunFigure::MeanTtft:
      return summary.ttft.meanMs;
    case RunFigure::MedianTtft:
      return summary.ttft.medianMs;
    case RunFigure::P99Ttft:
      return summary.ttft.percentileMs(99.0);
    case RunFigure::MeanTpot:
      return summary.tpot.meanMs;
    case RunFigure::MedianTpot:
      return summary.tpot.medianMs;
    case RunFigure::P99Tpot:
      return summary.tpot.percentileMs(99.0);
    case RunFigure::MeanItl:
      return summary.itl.meanMs;
    case RunFigure::MedianItl:
      return summary.itl.medianMs;
    case RunFigure::P99Itl:
      return summary.itl.percentileMs(99.0);
    case RunFigure::RequestThroughput:
      return summary.requestThroughput;
    case RunFigure::RequestGoodput:
      return summary.requestGoodput;
    case RunFigure::OutputThroughput:
      return summary.outputThroughput;
    case RunFigure::TotalTokenThroughput:
      return summary.totalTokenThroughput;
    case RunFigure::MaxOutputTokensPerS:
      return summary.maxOutputTokensPerS;
  }
  return std::nullopt;
}

std::optional<double> speedup(double baseline, double candidate, Better better) {
  if (!positiveFinite(baseline) || !positiveFinite(candidate)) return std::nullopt;
  return better == Better::Lower ? baseline / candidate : candidate / baseline;
}

std::optional<double> speedup(const RunSummary& baseline, const RunSummary& candidate, RunFigure figure) {
  const std::optional<double> b = runFigureValue(baseline, figure);
  const std::optional<double> c = runFigureValue(candidate, figure);
  if (!b || !c) return std::nullopt;
  return speedup(*b, *c, runFigureBetter(figure));
}

std::optional<double> relativeChange(double baseline, double candidate) {
  if (!positiveFinite(baseline) || !std::isfinite(candidate)) return std::nullopt;
  return (candidate - baseline) / baseline;
}

}  // namespace ayar
