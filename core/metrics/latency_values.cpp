#include "core/metrics/latency_values.h"

namespace ayar {

std::vector<double> latencyValuesMs(std::span<const RequestRecord> records, LatencyMetric metric) {
  constexpr double kMsPerS = 1000.0;
  std::vector<double> out;
  out.reserve(records.size());
  for (const RequestRecord& record : records) {
    if (!record.success) continue;
    switch (metric) {
      case LatencyMetric::Ttft:
        out.push_back(record.ttftS() * kMsPerS);
        break;
      case LatencyMetric::Tpot:
        if (record.outputTokens > 1)
          out.push_back((record.latencyS() - record.ttftS()) / (record.outputTokens - 1) * kMsPerS);
        break;
      case LatencyMetric::Itl:
        for (std::size_t c = 1; c < record.chunkTimesS.size(); ++c)
          out.push_back((record.chunkTimesS[c] - record.chunkTimesS[c - 1]) * kMsPerS);
        break;
      case LatencyMetric::E2el:
        out.push_back(record.latencyS() * kMsPerS);
        break;
    }
  }
  return out;
}

LatencyValuesByMetric latencyValuesByMetric(std::span<const RequestRecord> records) {
  LatencyValuesByMetric values;
  for (const LatencyMetric metric : kAllLatencyMetrics)
    values[metric] = latencyValuesMs(records, metric);
  return values;
}

bool figureHasSpeedupInterval(const LatencyValuesByMetric& baseline, const LatencyValuesByMetric& candidate,
                              RunFigure figure) {
  const std::optional<FigureSample> sample = runFigureSample(figure);
  if (!sample) return false;
  const auto b = baseline.find(sample->metric);
  const auto c = candidate.find(sample->metric);
  return b != baseline.end() && c != candidate.end() && !b->second.empty() && !c->second.empty();
}

std::optional<SpeedupInterval> figureSpeedupInterval(const LatencyValuesByMetric& baseline,
                                                     const LatencyValuesByMetric& candidate, RunFigure figure,
                                                     const BootstrapOptions& options) {
  const std::optional<FigureSample> sample = runFigureSample(figure);
  if (!sample) return std::nullopt;
  const auto b = baseline.find(sample->metric);
  const auto c = candidate.find(sample->metric);
  if (b == baseline.end() || c == candidate.end()) return std::nullopt;
  return bootstrapSpeedup(b->second, c->second, sample->statistic, runFigureBetter(figure), options);
}

}  // namespace ayar
