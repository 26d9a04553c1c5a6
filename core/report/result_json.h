#pragma once

#include <chrono>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"

namespace ayar {

// The run's set-up as `vllm bench serve --save-result` records it.
struct ResultSetup {
  std::string date;                // vLLM's "%Y%m%d-%H%M%S" in local time; empty: now
  std::string backend = "openai";  // written as "backend" and, as vLLM does, "endpoint_type"
  std::optional<std::string> label;
  std::string modelId;
  std::string tokenizerId;
  int numPrompts = 0;
  double requestRate = std::numeric_limits<double>::infinity();
  double burstiness = 1.0;
  std::optional<int> maxConcurrency;
  // `--metadata KEY=VALUE` entries, written as top-level string fields like vLLM.
  std::vector<std::pair<std::string, std::string>> metadata;
  // vLLM's --ramp-up-strategy and its rates, written (after max_concurrency) for a ramp-up run only,
  // with rps_change_events: {"rps": n, "timestamp": ISO local time} each time the whole rate rose.
  std::optional<std::string> rampUpStrategy;
  int rampUpStartRps = 0;
  int rampUpEndRps = 0;
  nlohmann::json rpsChangeEvents;  // null, or vLLM's list
};

// Everything a result file holds, as read back.
struct ResultFile {
  ResultSetup setup;
  RunSummary summary;
  // Detailed files only (input_lens, output_lens, ttfts, itls, ...): one record per request, chunk
  // times rebuilt from ttft + cumulative itls, start times shifted so the earliest is 0.
  std::vector<RequestRecord> records;
  nlohmann::json ayar;  // the "ayar" object (null when absent, as in files vLLM wrote)
};

// Builds the result JSON with vLLM's keys in vLLM's order. `records` are written as the detailed
// lists when `detailed` is set (sorted by index, as vLLM lists requests in input order). `ayar` is
// the caller's free-form object (engine spec, profile, client overhead, simulated flag, ...); the
// writer adds its own "summary" (dispatch lag, slot wait, tokenizer counts, errors) and, for detailed
// files, "requests" (scheduled times, slot waits, HTTP statuses) unless the caller set those keys.
//
// Infinite rates: vLLM writes request_rate as the string "inf" (its code does so explicitly); an
// infinite burstiness, which Python would write as the non-JSON token Infinity, is written as the
// string "inf" too. The reader accepts either form.
nlohmann::ordered_json resultJson(const ResultSetup& setup, const RunSummary& summary,
                                  std::span<const RequestRecord> records, bool detailed,
                                  const nlohmann::json& ayar = nlohmann::json::object());

// A detailed result as vLLM saves it without --save-detailed: its per-request lists left out
// (input_lens, output_lens, start_times, ttfts, itls, generated_texts, errors; vLLM keeps latencies and
// queue_times), and Ayar's per-request extras with them. With `detailed`, the result as it is.
nlohmann::ordered_json resultForFile(nlohmann::ordered_json detailedResult, bool detailed);

// Writes resultJson(...) to `path` (UTF-8, one line as json.dump does). Throws ayar::Error naming
// the path when it cannot be written.
void writeResultFile(const std::filesystem::path& path, const ResultSetup& setup, const RunSummary& summary,
                     std::span<const RequestRecord> records, bool detailed,
                     const nlohmann::json& ayar = nlohmann::json::object());

// Parses one result object, tolerant of files vLLM wrote: missing optional keys, null label and
// request_goodput, "inf" or Infinity/NaN tokens, percentile keys such as "p99.9_ttft_ms", metadata
// fields. `sourceName` names the input in errors.
ResultFile parseResultJson(std::string_view text, std::string_view sourceName = "result JSON");

// The result objects of a text as written (one, or several appended by --append-result), Python's
// bare Infinity/-Infinity/NaN tokens read as strings. For readers that keep every key as it is
// (imports, round trips); readResultObject then reads one into Ayar's types. Throws ayar::Error
// naming `sourceName` for text that is not JSON or holds nothing.
std::vector<nlohmann::ordered_json> parseResultObjects(std::string_view text, std::string_view sourceName);
ResultFile readResultObject(const nlohmann::ordered_json& root, std::string_view sourceName);

// Reads every result in a file: one object, or several appended by --append-result (one per line).
// Throws ayar::Error naming the path for a missing file or content that is not a result.
std::vector<ResultFile> readResultFiles(const std::filesystem::path& path);
// The last result in the file (the newest when results were appended).
ResultFile readResultFile(const std::filesystem::path& path);

// vLLM's file date: datetime.now().strftime("%Y%m%d-%H%M%S"), in local time.
std::string formatResultDate(std::chrono::system_clock::time_point when);

}  // namespace ayar
