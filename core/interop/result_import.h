#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/interop/imported_run.h"
#include "core/store/run_types.h"

namespace ayar {

// The runs in another tool's result file, whichever it is:
//   - `vllm bench serve --save-result` JSON, with or without --save-detailed, appended or not (and
//     Ayar's own result files);
//   - guidellm's benchmarks report (JSON);
//   - AIPerf's profile_export_aiperf.json (with profile_export.jsonl beside it when there) or that
//     per-request .jsonl alone;
//   - genai-perf's profile_export_genai_perf.json.
// Throws ayar::Error naming the file, and the field where one is wrong, for a file that cannot be
// read, is not JSON, or is none of these.
std::vector<ImportedRun> readImportedRuns(const std::filesystem::path& file);

// The store's form of an imported run: status completed (failed when no request succeeded), the
// run's own start time (else the file's modification time), and Ayar's summary and detailed result
// JSON. RunInfo::config["imported"] marks it: {tool, version, format, file, requests_file, title,
// recomputed, notes, differences}. A vLLM file's object as written is kept in the result's
// "ayar.imported_original" so that it can be exported back unchanged.
FinishedRun toFinishedRun(const ImportedRun& run);

// The import mark of a stored run (see toFinishedRun), null when the run was not imported.
const nlohmann::json* importMarkOf(const RunInfo& info);

}  // namespace ayar
