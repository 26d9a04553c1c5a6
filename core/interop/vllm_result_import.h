#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "core/interop/imported_run.h"

namespace ayar {

// The runs of a result file written by `vllm bench serve --save-result` (one per object: a file
// grown with --append-result holds several), or by Ayar (such files carry an "ayar" object). With
// --save-detailed's per-request lists the figures are recomputed from them (the duration is the
// file's: vLLM's clock, which the requests alone cannot give) and checked against the written ones;
// without them the written figures are taken. `objects` are the file's objects as
// parseResultObjects read them, `texts` the same objects as written (json_input::topLevelTexts), kept
// so that an export gives the file's own bytes back.
std::vector<ImportedRun> importVllmResults(const std::filesystem::path& file,
                                           const std::vector<nlohmann::ordered_json>& objects,
                                           const std::vector<std::string_view>& texts);

}  // namespace ayar
