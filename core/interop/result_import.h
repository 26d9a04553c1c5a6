#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/interop/imported_run.h"
#include "core/report/json_input.h"
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
// read, is not JSON, or is none of these, and for a figure that cannot be true (a negative count or
// time, null inside a list, NaN).
std::vector<ImportedRun> readImportedRuns(const std::filesystem::path& file);

// A file is held in memory several times over while it is read and stored (text, parsed values,
// requests, the stored result), so a larger one is refused before reading rather than exhausting
// memory. docs/IMPORT_EXPORT.md states the limit.
inline constexpr std::uintmax_t kMaxImportFileBytes = std::uintmax_t{256} << 20;

struct ImportLimits {
  std::uintmax_t maxFileBytes = kMaxImportFileBytes;  // each file read, the per-request file too
  std::size_t maxDepth = json_input::kMaxDepth;       // nesting of arrays and objects
};

// The same with other limits (tests use small ones). A file over a limit is refused with a
// MessageError naming it, its size (or nesting) and the limit; running out of memory all the same
// is reported as such (MessageText::ImportOutOfMemory), never an abort.
std::vector<ImportedRun> readImportedRuns(const std::filesystem::path& file, const ImportLimits& limits);

// The store's form of an imported run: status completed (failed when no request succeeded), the
// run's own start time (else the file's modification time), and Ayar's summary and detailed result
// JSON. RunInfo::config["imported"] marks it: {tool, version, format, file, requests_file, title,
// recomputed, notes, differences}. A vLLM file's object as written is kept in the result's
// "ayar.imported_original_text" (its bytes) so that it can be exported back unchanged. The result's
// "date" is the run's own start time, as vLLM writes it.
FinishedRun toFinishedRun(const ImportedRun& run);

// The import mark of a stored run as written (see toFinishedRun), null when the run was not imported.
// Views read it typed, through runImportFacts (core/store/run_types.h).
const nlohmann::json* importMarkOf(const RunInfo& info);

}  // namespace ayar
