#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/load/request_record.h"
#include "core/metrics/run_summary.h"

// What every importer does with a file's figures: recompute them from its requests, check the
// written ones against them, read its times.
namespace ayar::import_summary {

// The summary of `records` with vLLM's definitions. `durationS`, when the file measured it (the
// tool's own clock from first send to last answer, which the requests alone cannot give), replaces
// the span of the requests, and every throughput is divided by it instead.
RunSummary recompute(std::span<const RequestRecord> records, std::vector<LatencyMetric> metrics,
                     std::vector<double> percentiles, std::optional<int> maxConcurrency,
                     std::optional<double> durationS);

// Sets the duration and the throughputs that divide by it.
void setDuration(RunSummary& summary, double durationS);

// The figures `written` holds that `recomputed` does not reproduce (beyond rounding), one line each:
// "p99_ttft_ms: the file says 12.3, its requests give 12.5". Metrics `written` does not report, and
// the keys in `notWritten`, are not compared.
std::vector<std::string> differences(const RunSummary& written, const RunSummary& recomputed,
                                     const std::vector<std::string>& notWritten = {});

// Seconds since the Unix epoch of a local time written as `format` (strptime's), e.g. vLLM's
// "%Y%m%d-%H%M%S"; fractional seconds after the parsed text (".123456") are added. Nullopt when the
// text does not have that form.
std::optional<double> parseLocalTime(std::string_view text, const char* format);

}  // namespace ayar::import_summary
