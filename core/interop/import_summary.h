#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/report/message_text.h"

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

// The keys (vLLM's names: "completed", "p99_ttft_ms", ...) a file wrote a figure under.
using WrittenKeys = std::set<std::string, std::less<>>;

// The figures `written` holds that `recomputed` does not reproduce (beyond rounding), one message each
// (ImportDifference: "p99_ttft_ms: the file says 12.3, its requests give 12.5"). Only the keys in
// `writtenKeys` are compared: a figure the file does not write is absent, not 0, and so is one either side
// lacks.
std::vector<Message> differences(const RunSummary& written, const RunSummary& recomputed,
                                 const WrittenKeys& writtenKeys);

// The keys of a file's object whose value is not null.
WrittenKeys keysOf(const nlohmann::ordered_json& object);

// Seconds since the Unix epoch of a local time written as `format` (strptime's), e.g. vLLM's
// "%Y%m%d-%H%M%S"; fractional seconds after the parsed text (".123456") are added. Nullopt when the
// text does not have that form.
std::optional<double> parseLocalTime(std::string_view text, const char* format);

}  // namespace ayar::import_summary
