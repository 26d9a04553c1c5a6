#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/request_record.h"

namespace ayar {

// The four per-request latency figures vLLM reports percentiles for.
enum class LatencyMetric { Ttft, Tpot, Itl, E2el };

inline constexpr LatencyMetric kAllLatencyMetrics[] = {LatencyMetric::Ttft, LatencyMetric::Tpot,
                                                       LatencyMetric::Itl, LatencyMetric::E2el};

// vLLM's names: "ttft", "tpot", "itl", "e2el" (as in --percentile-metrics and the result keys).
std::string_view latencyMetricKey(LatencyMetric metric);
// Parses one of vLLM's names; throws ayar::Error naming the text and the allowed names.
LatencyMetric parseLatencyMetric(std::string_view key);

// Service level objectives for goodput, in milliseconds (vLLM's --goodput ttft:300 tpot:50 ...).
struct GoodputSlo {
  std::optional<double> ttftMs;
  std::optional<double> tpotMs;
  std::optional<double> e2elMs;
  bool any() const { return ttftMs || tpotMs || e2elMs; }
};

struct SummaryOptions {
  // Which metrics the text block and result JSON report (vLLM's --percentile-metrics). All four are
  // always computed.
  std::vector<LatencyMetric> percentileMetrics{std::begin(kAllLatencyMetrics), std::end(kAllLatencyMetrics)};
  // vLLM's --metric-percentiles, each in [0, 100].
  std::vector<double> percentiles{50.0, 90.0, 95.0, 99.0};
  GoodputSlo goodput;
  // The configured --max-concurrency, reported as given (not measured).
  std::optional<int> maxConcurrency;
  // The run's duration as vLLM measures it (LoadRunner::durationS): from before the first arrival gap
  // to the return of the last request, failed ones included. Absent (a run rebuilt from its stored
  // requests), it is the records' span: the first start to the last end.
  std::optional<double> durationS;
  // How many distinct error messages to keep.
  std::size_t maxDistinctErrors = 10;
};

struct PercentileValue {
  double percentile = 0.0;  // e.g. 99 or 99.9
  double value = 0.0;
};

// One latency distribution in milliseconds, like vLLM's mean_/median_/std_/pNN_ fields.
struct LatencyStats {
  double meanMs = 0.0;
  double medianMs = 0.0;
  double stdMs = 0.0;  // population standard deviation (numpy.std)
  std::vector<PercentileValue> percentilesMs;
  std::size_t samples = 0;  // how many values went in (0: every figure is 0, as vLLM reports it)

  // The value for percentile `p` if it was computed.
  std::optional<double> percentileMs(double p) const;
};

struct ErrorCount {
  std::string message;
  int count = 0;
};

// Every per-run figure of a result (docs/VLLM_COMPATIBILITY.md lists them key by key). Definitions follow
// vLLM's calculate_metrics exactly, except where noted.
struct RunSummary {
  int completed = 0;
  int failed = 0;
  // SummaryOptions::durationS when given (vLLM's benchmark_duration), else min(startS) to
  // max(startS + latencyS) over all requests.
  double durationS = 0.0;
  // Successful requests only, as vLLM. Absent (like the optional figures below) only for a run
  // imported from a file that does not give it: a figure a file cannot support is never made up.
  std::optional<std::int64_t> totalInputTokens = 0;
  std::int64_t totalOutputTokens = 0;  // successful requests only
  // Throughputs divide by durationS; 0 when the duration is 0.
  double requestThroughput = 0.0;
  std::optional<double> requestGoodput;  // set when any SLO was given
  double outputThroughput = 0.0;
  std::optional<double> totalTokenThroughput = 0.0;  // absent when totalInputTokens is
  // Largest number of chunks (each counted as one token) in a 1 s bin from the earliest successful
  // start, token times rebuilt as start + TTFT + cumulative ITLs (vLLM's max_output_tokens_per_s).
  // Absent for an import whose requests have no start times or chunk times.
  std::optional<double> maxOutputTokensPerS = 0.0;
  // Exact sweep over [start, start + E2E) of successful requests, a departure counted before an
  // arrival at the same instant. vLLM counts a request in every 1 s bin it touches, which
  // overstates the peak; Ayar reports the exact figure under the same key. Absent for an import
  // whose requests have no start times.
  std::optional<int> maxConcurrentRequests = 0;
  std::optional<int> maxConcurrency;  // the configured cap, when set

  std::vector<LatencyMetric> percentileMetrics;  // as requested, for the report
  std::vector<double> percentiles;               // as requested
  LatencyStats ttft;
  LatencyStats tpot;  // requests with more than one output token only
  LatencyStats itl;
  LatencyStats e2el;

  // Ayar's additions.
  double dispatchLagMeanMs = 0.0;
  double dispatchLagMedianMs = 0.0;
  double dispatchLagP99Ms = 0.0;
  double dispatchLagMaxMs = 0.0;
  double slotWaitMeanMs = 0.0;
  double slotWaitMaxMs = 0.0;
  // Some successful request had no usage.completion_tokens, so its output count came from the
  // tokenizer (vLLM does the same silently).
  bool outputTokensFromTokenizer = false;
  int outputTokensFromTokenizerRequests = 0;
  std::vector<ErrorCount> errors;  // the first distinct messages, in order of first appearance

  const LatencyStats& stats(LatencyMetric metric) const;
  LatencyStats& stats(LatencyMetric metric);
  bool reports(LatencyMetric metric) const;
  // True when the summary holds the metric's figures: reported (a result file's keys, the requested
  // percentile metrics) or computed from requests. A figure it does not hold is absent, never 0.
  bool has(LatencyMetric metric) const;
};

// Fills the latency figures `summary` does not hold (a result written without them: vLLM's default
// leaves out end-to-end latency) from the run's requests, at the summary's percentiles; what the
// requests cannot give (no successful request) stays absent. The sections a result block prints are
// unchanged.
void fillMissingLatencies(RunSummary& summary, std::span<const RequestRecord> records);

// Aggregates finished requests the way vLLM's calculate_metrics does. Records may come in any
// order. Throws ayar::Error for a percentile outside [0, 100] or a negative SLO.
RunSummary computeRunSummary(std::span<const RequestRecord> records, const SummaryOptions& options = {});

// "50" for 50.0, "99.9" for 99.9: how vLLM writes a percentile in labels and keys
// (str(int(p)) if int(p) == p else str(p)).
std::string percentileWord(double p);

}  // namespace ayar
