#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/load/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/report/result_json.h"

namespace ayar {

// One run read from another tool's result file, in Ayar's terms, ready for the store.
struct ImportedRun {
  std::string tool;                      // "vllm", "ayar", "guidellm", "aiperf", "genai-perf"
  std::string toolVersion;               // as the file records it; empty when it does not
  std::string format;                    // the file kind read, e.g. "vllm --save-result --save-detailed"
  std::filesystem::path source;          // the file read
  std::filesystem::path requestsSource;  // the per-request file read beside it, if any
  std::string title;                     // which run of the file, e.g. "benchmark 2 of 4: constant 4 req/s"
  std::optional<double> startedAtS;      // Unix time the run started, when the file says
  ResultSetup setup;
  std::string baseUrl;   // the target, when the file names it
  std::string endpoint;  // "/v1/completions", when the file names it
  RunSummary summary;
  std::vector<RequestRecord> records;  // empty when the file holds no per-request data
  // True when the summary was computed from `records` with Ayar's (vLLM's) definitions; false when
  // the file's own figures were taken as written.
  bool recomputed = false;
  std::vector<std::string> notes;        // how fields were mapped, what the file lacks
  std::vector<std::string> differences;  // written figures that disagree with the recomputed ones
  // A vLLM (or Ayar) result file's object as written, so that exporting it gives it back unchanged.
  nlohmann::ordered_json original;
};

}  // namespace ayar
