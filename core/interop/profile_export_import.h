#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/interop/imported_run.h"

namespace ayar {

// One run from a profile export of AIPerf (profile_export_aiperf.json) or genai-perf
// (profile_export_genai_perf.json), the two share a layout: one object per metric with "unit",
// "avg", "p1".."p99", "min", "max", "std", and the command's "input_config". `summary` is that file's
// object (null when only the per-request file is given). `records` is AIPerf's per-request
// profile_export.jsonl, when there is one: then every figure is recomputed from it with vLLM's
// definitions (AIPerf keeps TTFT and every inter-chunk gap), the duration is the export's own, and
// the written figures are checked against the recomputed ones. Without it the written figures are
// taken, mapped by definition: time_to_first_token is TTFT, inter_token_latency ((latency - TTFT) /
// (output tokens - 1)) is vLLM's TPOT, inter_chunk_latency is ITL, request_latency is E2E latency.
// `tool` is "aiperf" or "genai-perf".
ImportedRun importProfileExport(const std::string& tool,
                                const std::optional<std::filesystem::path>& summaryFile,
                                const nlohmann::json& summary,
                                const std::optional<std::filesystem::path>& recordsFile);

}  // namespace ayar
