#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "core/record/request_record.h"

namespace ayar {

// The result file vLLM's own tooling reads for a stored run: the keys `vllm bench serve
// --save-result --save-detailed` writes, with vLLM's types, in vLLM's order, without Ayar's "ayar"
// object. `storedResult` is the run's result JSON as the store keeps it, `records` its requests. A
// run imported from a vLLM result file gives back that file's object exactly as it was written.
// Throws ayar::Error when the stored result is not a result.
nlohmann::ordered_json vllmResultOf(const nlohmann::json& storedResult,
                                    std::span<const RequestRecord> records);

// The bytes of the vLLM result file object a run was imported from, exactly as the file held them
// (a trailing newline included when the file had one), when the store kept them; nullopt for other
// runs and for a file that held a secret (its object is kept redacted instead).
std::optional<std::string> importedOriginalText(const nlohmann::json& storedResult);

// The text Python's json.dump writes for `result`: ", " and ": " between items, non-ASCII as \u
// escapes, and a non-finite float (held as the string "Infinity", "-Infinity" or "NaN" under a
// numeric key, vLLM's burstiness for one) as the bare token Python writes and reads.
std::string vllmResultText(const nlohmann::ordered_json& result);

}  // namespace ayar
