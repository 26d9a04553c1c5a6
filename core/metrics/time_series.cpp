#include "core/metrics/time_series.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr double kMaxBins = 1e7;

}  // namespace

TimeSeries computeTimeSeries(std::span<const RequestRecord> records, double binSeconds, double originS) {
  if (!(binSeconds > 0.0) || !std::isfinite(binSeconds)) {
    throw MessageError({MessageText::SeriesBinWidth, {decimalArgument(std::to_string(binSeconds))}});
  }
  TimeSeries series;
  series.originS = originS;
  series.binSeconds = binSeconds;

  double lastEventS = originS;
  for (const RequestRecord& record : records) {
    lastEventS = std::max({lastEventS, record.startS, record.startS + record.latencyS()});
  }
  const double span = (lastEventS - originS) / binSeconds;
  if (!std::isfinite(span) || span >= kMaxBins) {
    throw MessageError({MessageText::SeriesTooLong,
                        {decimalArgument(std::to_string(lastEventS - originS)),
                         decimalArgument(std::to_string(binSeconds))}});
  }
  if (records.empty()) return series;
  const auto binCount = static_cast<std::size_t>(std::floor(span)) + 1;
  series.bins.resize(binCount);
  for (std::size_t b = 0; b < binCount; ++b)
    series.bins[b].startS = static_cast<double>(b) * binSeconds;

  const auto binOf = [&](double timeS) -> std::optional<std::size_t> {
    const double offset = (timeS - originS) / binSeconds;
    if (!(offset >= 0.0)) return std::nullopt;
    return std::min(static_cast<std::size_t>(offset), binCount - 1);
  };

  std::vector<double> ttftSumS(binCount, 0.0);
  std::vector<int> ttftCount(binCount, 0);
  std::vector<int> chunkCount(binCount, 0);
  // In flight at the end of bin b: start <= end(b) < finish. Counted with a difference array over
  // the bins whose end lies in [start, finish).
  std::vector<int> inFlightDelta(binCount + 1, 0);

  for (const RequestRecord& record : records) {
    const double finishS = record.startS + record.latencyS();
    if (auto b = binOf(record.startS)) ++series.bins[*b].requestsStarted;
    if (auto b = binOf(finishS)) {
      if (record.success) {
        ++series.bins[*b].requestsCompleted;
      } else {
        ++series.bins[*b].requestsFailed;
      }
    }
    if (!record.chunkTimesS.empty()) {
      if (auto b = binOf(record.startS + record.ttftS())) {
        ttftSumS[*b] += record.ttftS();
        ++ttftCount[*b];
      }
      for (double chunkS : record.chunkTimesS) {
        if (auto b = binOf(record.startS + chunkS)) ++chunkCount[*b];
      }
    }
    // First bin whose end (origin + (b+1)*w) is >= start, and first whose end is >= finish.
    const auto firstBinEndingAtOrAfter = [&](double timeS) -> std::size_t {
      const double k = std::ceil((timeS - originS) / binSeconds) - 1.0;
      if (!(k >= 0.0)) return 0;  // before the origin, or not a number
      return k >= static_cast<double>(binCount) ? binCount : static_cast<std::size_t>(k);
    };
    const std::size_t from = firstBinEndingAtOrAfter(record.startS);
    const std::size_t to = firstBinEndingAtOrAfter(finishS);
    if (from < to) {
      ++inFlightDelta[from];
      --inFlightDelta[to];
    }
  }
  int inFlight = 0;
  for (std::size_t b = 0; b < binCount; ++b) {
    inFlight += inFlightDelta[b];
    TimeSeriesBin& bin = series.bins[b];
    bin.requestsInFlight = inFlight;
    bin.outputTokensPerS = chunkCount[b] / binSeconds;
    if (ttftCount[b] > 0) bin.meanTtftMs = ttftSumS[b] / ttftCount[b] * 1000.0;
  }
  return series;
}

}  // namespace ayar
