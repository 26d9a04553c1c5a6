#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/report/message_text.h"
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
  std::vector<Message> notes;        // how fields were mapped, what the file lacks
  std::vector<Message> differences;  // written figures that disagree with the recomputed ones
  // False when the file does not say when each request started (a vLLM file without start_times):
  // the records' start times are then 0, not the run's, and are not stored as if they were.
  bool startTimesKnown = true;
  // A vLLM result file's object exactly as written (its bytes), so that exporting it gives it back
  // unchanged; empty for other files, and for one that holds a secret (kept redacted instead).
  std::string originalText;
  // The same object parsed, kept instead when its bytes cannot be (the store redacts its secrets),
  // and for an Ayar result file (exported without its "ayar" object).
  nlohmann::ordered_json original;
};

}  // namespace ayar
