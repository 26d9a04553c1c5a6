#include "core/interop/import_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace ayar::import_summary {

namespace {

std::string shortNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

bool sameFigure(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

void setDuration(RunSummary& summary, double durationS) {
  const auto perSecond = [durationS](double amount) { return durationS > 0.0 ? amount / durationS : 0.0; };
  if (summary.requestGoodput) summary.requestGoodput = *summary.requestGoodput * summary.durationS;
  summary.durationS = durationS;
  summary.requestThroughput = perSecond(summary.completed);
  summary.outputThroughput = perSecond(static_cast<double>(summary.totalOutputTokens));
  summary.totalTokenThroughput =
      summary.totalInputTokens
          ? std::optional(
                perSecond(static_cast<double>(*summary.totalInputTokens + summary.totalOutputTokens)))
          : std::nullopt;
  if (summary.requestGoodput) summary.requestGoodput = perSecond(*summary.requestGoodput);
}

RunSummary recompute(std::span<const RequestRecord> records, std::vector<LatencyMetric> metrics,
                     std::vector<double> percentiles, std::optional<int> maxConcurrency,
                     std::optional<double> durationS) {
  SummaryOptions options;
  options.percentileMetrics = std::move(metrics);
  options.percentiles = std::move(percentiles);
  options.maxConcurrency = maxConcurrency;
  RunSummary summary = computeRunSummary(records, options);
  if (durationS) setDuration(summary, *durationS);
  return summary;
}

std::vector<Message> differences(const RunSummary& written, const RunSummary& recomputed,
                                 const WrittenKeys& writtenKeys) {
  std::vector<Message> out;
  const auto check = [&](const std::string& key, std::optional<double> a, std::optional<double> b) {
    if (!writtenKeys.contains(key) || !a || !b) return;
    if (!sameFigure(*a, *b)) {
      out.push_back({MessageText::ImportDifference,
                     {key, decimalArgument(shortNumber(*a)), decimalArgument(shortNumber(*b))}});
    }
  };
  const auto number = [](const auto& value) -> std::optional<double> {
    if (value) return static_cast<double>(*value);
    return std::nullopt;
  };
  check("completed", written.completed, recomputed.completed);
  check("failed", written.failed, recomputed.failed);
  check("total_input_tokens", number(written.totalInputTokens), number(recomputed.totalInputTokens));
  check("total_output_tokens", static_cast<double>(written.totalOutputTokens),
        static_cast<double>(recomputed.totalOutputTokens));
  check("request_throughput", written.requestThroughput, recomputed.requestThroughput);
  check("output_throughput", written.outputThroughput, recomputed.outputThroughput);
  check("total_token_throughput", written.totalTokenThroughput, recomputed.totalTokenThroughput);
  check("max_output_tokens_per_s", written.maxOutputTokensPerS, recomputed.maxOutputTokensPerS);
  check("max_concurrent_requests", number(written.maxConcurrentRequests),
        number(recomputed.maxConcurrentRequests));
  for (LatencyMetric metric : written.percentileMetrics) {
    if (!recomputed.reports(metric)) continue;
    const std::string key(latencyMetricKey(metric));
    const LatencyStats& a = written.stats(metric);
    const LatencyStats& b = recomputed.stats(metric);
    check("mean_" + key + "_ms", a.meanMs, b.meanMs);
    check("median_" + key + "_ms", a.medianMs, b.medianMs);
    check("std_" + key + "_ms", a.stdMs, b.stdMs);
    for (const PercentileValue& p : a.percentilesMs)
      check("p" + percentileWord(p.percentile) + "_" + key + "_ms", p.value, b.percentileMs(p.percentile));
  }
  return out;
}

WrittenKeys keysOf(const nlohmann::ordered_json& object) {
  WrittenKeys keys;
  if (!object.is_object()) return keys;
  for (const auto& [key, value] : object.items()) {
    if (!value.is_null()) keys.insert(key);
  }
  return keys;
}

std::optional<double> parseLocalTime(std::string_view text, const char* format) {
  const std::string copy(text);
  std::tm tm{};
  const char* end = strptime(copy.c_str(), format, &tm);
  if (end == nullptr) return std::nullopt;
  double fraction = 0.0;
  if (*end == '.') {
    char* after = nullptr;
    fraction = std::strtod(end, &after);
    end = after;
  }
  if (*end != '\0') return std::nullopt;
  tm.tm_isdst = -1;  // the file's local time, daylight saving as it was then
  const std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<double>(t) + fraction;
}

}  // namespace ayar::import_summary
