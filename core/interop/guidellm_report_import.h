#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/interop/imported_run.h"

namespace ayar {

// The runs of a guidellm benchmarks report (`--output-path benchmarks.json`): one per benchmark, so
// a sweep gives several. Read: report schema 2 (guidellm 0.7 and later), schema 1 (0.4 to 0.6) and
// the unversioned reports of 0.3.
//
// When the report keeps every request of a benchmark (no sampling), TTFT, TPOT, E2E latency, the
// counts and the token totals are recomputed from them with vLLM's definitions; guidellm keeps only
// the first and last token time of a request, so ITL and the peak output rate are not available.
// Otherwise guidellm's figures are taken as written, each mapped to the vLLM figure with the same
// per-request definition (guidellm's inter_token_latency_ms is vLLM's TPOT).
std::vector<ImportedRun> importGuidellmReport(const std::filesystem::path& file, const nlohmann::json& root);

}  // namespace ayar
