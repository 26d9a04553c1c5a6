#include "core/metrics/run_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/error.h"
#include "core/metrics/statistics.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

constexpr double kMsPerS = 1000.0;

LatencyStats describeSeconds(std::vector<double> valuesS, std::span<const double> percentiles) {
  // A NaN would break the sort's ordering; times from a steady clock never are, files might be.
  std::erase_if(valuesS, [](double v) { return std::isnan(v); });
  std::sort(valuesS.begin(), valuesS.end());
  LatencyStats stats;
  stats.samples = valuesS.size();
  stats.meanMs = mean(valuesS) * kMsPerS;
  stats.stdMs = populationStdDev(valuesS) * kMsPerS;
  stats.medianMs = percentileLinear(valuesS, 50.0) * kMsPerS;
  for (double p : percentiles)
    stats.percentilesMs.push_back({p, percentileLinear(valuesS, p) * kMsPerS});
  return stats;
}

double endS(const RequestRecord& record) {
  return record.startS + record.latencyS();
}

// Largest number of token arrivals in one 1 s bin counted from `originS`. Sorting the bin numbers
// instead of filling an array keeps memory bounded whatever the span of the run.
double peakTokensPerSecond(std::span<const RequestRecord> records, double originS) {
  std::vector<std::int64_t> bins;
  for (const RequestRecord& record : records) {
    if (!record.success || record.chunkTimesS.empty()) continue;
    // vLLM rebuilds token times as start + ttft, then adds each ITL in turn.
    const auto addToken = [&](double tokenTime) {
      const double bin = std::floor(tokenTime - originS);
      if (std::isfinite(bin) && std::fabs(bin) < 9e15) bins.push_back(static_cast<std::int64_t>(bin));
    };
    double tokenTime = record.startS + record.ttftS();
    addToken(tokenTime);
    for (std::size_t i = 1; i < record.chunkTimesS.size(); ++i) {
      tokenTime += record.chunkTimesS[i] - record.chunkTimesS[i - 1];
      addToken(tokenTime);
    }
  }
  std::sort(bins.begin(), bins.end());
  std::size_t best = 0;
  for (std::size_t i = 0; i < bins.size();) {
    std::size_t j = i;
    while (j < bins.size() && bins[j] == bins[i])
      ++j;
    best = std::max(best, j - i);
    i = j;
  }
  return static_cast<double>(best);
}

int peakConcurrency(std::span<const RequestRecord> records) {
  // (time, +1 arrival / -1 departure); sorting puts -1 first at equal times, so touching
  // intervals [a, b) and [b, c) never overlap.
  std::vector<std::pair<double, int>> events;
  for (const RequestRecord& record : records) {
    if (!record.success || std::isnan(record.startS) || std::isnan(endS(record))) continue;
    events.emplace_back(record.startS, +1);
    events.emplace_back(endS(record), -1);
  }
  std::sort(events.begin(), events.end());
  int current = 0;
  int peak = 0;
  for (const auto& [time, delta] : events) {
    current += delta;
    peak = std::max(peak, current);
  }
  return peak;
}

void validate(const SummaryOptions& options) {
  for (double p : options.percentiles) {
    if (!(p >= 0.0 && p <= 100.0)) {
      throw MessageError({MessageText::SummaryPercentile, {decimalArgument(percentileWord(p))}});
    }
  }
  const auto checkSlo = [](const std::optional<double>& slo, std::string_view name) {
    if (slo && !(*slo >= 0.0)) {
      throw MessageError(
          {MessageText::SummarySloNegative, {std::string(name), decimalArgument(percentileWord(*slo))}});
    }
  };
  if (options.durationS && !(*options.durationS >= 0.0)) {
    throw MessageError(
        {MessageText::SummaryDurationNegative, {decimalArgument(percentileWord(*options.durationS))}});
  }
  checkSlo(options.goodput.ttftMs, "ttft");
  checkSlo(options.goodput.tpotMs, "tpot");
  checkSlo(options.goodput.e2elMs, "e2el");
}

}  // namespace

std::string_view latencyMetricKey(LatencyMetric metric) {
  switch (metric) {
    case LatencyMetric::Ttft:
      return "ttft";
    case LatencyMetric::Tpot:
      return "tpot";
    case LatencyMetric::Itl:
      return "itl";
    case LatencyMetric::E2el:
      return "e2el";
  }
  return "ttft";
}

LatencyMetric parseLatencyMetric(std::string_view key) {
  for (LatencyMetric metric : kAllLatencyMetrics) {
    if (latencyMetricKey(metric) == key) return metric;
  }
  throw MessageError({MessageText::SummaryMetricUnknown, {std::string(key)}});
}

std::optional<double> LatencyStats::percentileMs(double p) const {
  for (const PercentileValue& entry : percentilesMs) {
    if (entry.percentile == p) return entry.value;
  }
  return std::nullopt;
}

const LatencyStats& RunSummary::stats(LatencyMetric metric) const {
  switch (metric) {
    case LatencyMetric::Ttft:
      return ttft;
    case LatencyMetric::Tpot:
      return tpot;
    case LatencyMetric::Itl:
      return itl;
    case LatencyMetric::E2el:
      return e2el;
  }
  return ttft;
}

LatencyStats& RunSummary::stats(LatencyMetric metric) {
  return const_cast<LatencyStats&>(std::as_const(*this).stats(metric));
}

bool RunSummary::reports(LatencyMetric metric) const {
  return std::find(percentileMetrics.begin(), percentileMetrics.end(), metric) != percentileMetrics.end();
}

bool RunSummary::has(LatencyMetric metric) const {
  return reports(metric) || stats(metric).samples > 0;
}

void fillMissingLatencies(RunSummary& summary, std::span<const RequestRecord> records) {
  bool missing = false;
  for (LatencyMetric metric : kAllLatencyMetrics)
    missing = missing || !summary.has(metric);
  if (!missing || records.empty()) return;
  SummaryOptions options;
  if (!summary.percentiles.empty()) options.percentiles = summary.percentiles;
  const RunSummary computed = computeRunSummary(records, options);
  for (LatencyMetric metric : kAllLatencyMetrics) {
    if (!summary.has(metric) && computed.stats(metric).samples > 0)
      summary.stats(metric) = computed.stats(metric);
  }
}

std::string percentileWord(double p) {
  if (std::isfinite(p) && p == std::trunc(p) && std::fabs(p) < 1e15) {
    return std::to_string(static_cast<long long>(p));
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, p);
  return std::string(buffer, result.ptr);
}

RunSummary computeRunSummary(std::span<const RequestRecord> records, const SummaryOptions& options) {
  validate(options);
  RunSummary summary;
  summary.maxConcurrency = options.maxConcurrency;
  summary.percentileMetrics = options.percentileMetrics;
  summary.percentiles = options.percentiles;

  std::vector<double> ttfts, tpots, allTpots, itls, e2els;
  std::vector<double> dispatchLags, slotWaits;
  double firstStartS = 0.0, lastEndS = 0.0, firstSuccessfulStartS = 0.0;
  bool anySuccess = false;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RequestRecord& record = records[i];
    firstStartS = i == 0 ? record.startS : std::min(firstStartS, record.startS);
    lastEndS = i == 0 ? endS(record) : std::max(lastEndS, endS(record));
    dispatchLags.push_back(record.dispatchLagS());
    slotWaits.push_back(record.slotWaitS);

    if (!record.success) {
      ++summary.failed;
      const std::string message = record.error.empty() ? "(no error message)" : record.error;
      auto found = std::find_if(summary.errors.begin(), summary.errors.end(),
                                [&](const ErrorCount& e) { return e.message == message; });
      if (found != summary.errors.end()) {
        ++found->count;
      } else if (summary.errors.size() < options.maxDistinctErrors) {
        summary.errors.push_back({message, 1});
      }
      continue;
    }
    firstSuccessfulStartS = anySuccess ? std::min(firstSuccessfulStartS, record.startS) : record.startS;
    anySuccess = true;
    ++summary.completed;
    *summary.totalInputTokens += record.promptTokens;
    summary.totalOutputTokens += record.outputTokens;
    if (!record.outputTokensFromUsage) {
      summary.outputTokensFromTokenizer = true;
      ++summary.outputTokensFromTokenizerRequests;
    }
    double tpot = 0.0;  // vLLM counts a single-token reply as TPOT 0 for goodput only
    if (record.outputTokens > 1) {
      tpot = (record.latencyS() - record.ttftS()) / (record.outputTokens - 1);
      tpots.push_back(tpot);
    }
    allTpots.push_back(tpot);
    for (std::size_t c = 1; c < record.chunkTimesS.size(); ++c) {
      itls.push_back(record.chunkTimesS[c] - record.chunkTimesS[c - 1]);
    }
    ttfts.push_back(record.ttftS());
    e2els.push_back(record.latencyS());
  }

  if (options.goodput.any()) {
    int good = 0;
    for (std::size_t i = 0; i < ttfts.size(); ++i) {
      // vLLM: a request is good when every given SLO >= its value.
      const bool meetsTtft = !options.goodput.ttftMs || *options.goodput.ttftMs / kMsPerS >= ttfts[i];
      const bool meetsTpot = !options.goodput.tpotMs || *options.goodput.tpotMs / kMsPerS >= allTpots[i];
      const bool meetsE2el = !options.goodput.e2elMs || *options.goodput.e2elMs / kMsPerS >= e2els[i];
      if (meetsTtft && meetsTpot && meetsE2el) ++good;
    }
    summary.requestGoodput = static_cast<double>(good);
  }

  summary.durationS = options.durationS ? *options.durationS : records.empty() ? 0.0 : lastEndS - firstStartS;
  const double d = summary.durationS;
  const auto perSecond = [d](double amount) { return d > 0.0 ? amount / d : 0.0; };
  summary.requestThroughput = perSecond(summary.completed);
  if (summary.requestGoodput) summary.requestGoodput = perSecond(*summary.requestGoodput);
  summary.outputThroughput = perSecond(static_cast<double>(summary.totalOutputTokens));
  summary.totalTokenThroughput =
      perSecond(static_cast<double>(*summary.totalInputTokens + summary.totalOutputTokens));

  summary.maxOutputTokensPerS = anySuccess ? peakTokensPerSecond(records, firstSuccessfulStartS) : 0.0;
  summary.maxConcurrentRequests = anySuccess ? peakConcurrency(records) : 0;

  summary.ttft = describeSeconds(std::move(ttfts), options.percentiles);
  summary.tpot = describeSeconds(std::move(tpots), options.percentiles);
  summary.itl = describeSeconds(std::move(itls), options.percentiles);
  summary.e2el = describeSeconds(std::move(e2els), options.percentiles);

  std::erase_if(dispatchLags, [](double v) { return std::isnan(v); });
  std::sort(dispatchLags.begin(), dispatchLags.end());
  summary.dispatchLagMeanMs = mean(dispatchLags) * kMsPerS;
  summary.dispatchLagMedianMs = percentileLinear(dispatchLags, 50.0) * kMsPerS;
  summary.dispatchLagP99Ms = percentileLinear(dispatchLags, 99.0) * kMsPerS;
  summary.dispatchLagMaxMs = dispatchLags.empty() ? 0.0 : dispatchLags.back() * kMsPerS;
  summary.slotWaitMeanMs = mean(slotWaits) * kMsPerS;
  summary.slotWaitMaxMs =
      slotWaits.empty() ? 0.0 : *std::max_element(slotWaits.begin(), slotWaits.end()) * kMsPerS;
  return summary;
}

}  // namespace ayar
