#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/record/request_record.h"
#include "core/report/message_text.h"

namespace ayar {

enum class RunStatus { Running, Completed, Interrupted, Failed, Cancelled };
enum class RunKind { Bench, StudyPart };

// The words the store and the command line use: "running", "completed", ..., "bench", "study-part".
std::string_view toString(RunStatus status);
std::string_view toString(RunKind kind);
// Throws ayar::Error naming the word and listing the valid ones.
RunStatus parseRunStatus(std::string_view text);
RunKind parseRunKind(std::string_view text);

// What a run is, written when it starts. The JSON fields are stored as text with secrets (API keys,
// tokens, passwords, credentials in URLs) replaced by "[redacted]" (see secret_scrubber.h).
struct RunInfo {
  RunKind kind = RunKind::Bench;
  std::optional<std::int64_t> studyId;  // set for the parts of a study
  std::string label;
  std::string backend;  // "openai", "openai-chat", "vllm", ... as the result JSON names it
  std::string baseUrl;
  std::string endpoint;  // "/v1/completions"
  std::string model;
  std::string servedModelName;
  std::string tokenizer;
  std::string dataset;
  std::string notes;
  nlohmann::json profile = nlohmann::json::object();  // dataset, schedule, request count, ...
  nlohmann::json engine = nlohmann::json::object();   // engine spec and flags
  nlohmann::json config = nlohmann::json::object();   // every run setting
};

// A run as the store holds it.
struct StoredRun {
  std::int64_t id = 0;  // the short id the command line shows
  std::string uuid;     // stable across files (export, merge)
  RunInfo info;
  RunStatus status = RunStatus::Running;
  double createdAt = 0.0;             // seconds since the Unix epoch
  std::optional<double> finishedAt;   // set with every final status
  std::optional<double> heartbeatAt;  // last sign of life from the writing process
  std::int64_t pid = 0;               // the writing process, on `hostname`
  std::string hostname;
  nlohmann::json summary;           // RunSummary as JSON; null until finished
  nlohmann::json result;            // vLLM-compatible result; null until finished or not loaded
  std::int64_t storedRequests = 0;  // requests in the store for this run
};

// How a run was measured, beside its figures: every view and export of them says so.
struct RunFacts {
  bool simulated = false;         // ayar-engine's timing simulator answered, not a model on a device
  bool syntheticDataset = false;  // the prompts came from the synthetic ShareGPT-like set
};
// What a stored run recorded of how it was measured (its engine record, its result's "ayar" object,
// its dataset); an imported run is neither unless its file says so.
RunFacts runFacts(const StoredRun& run);
// The same, from a result object as a run writes it ({"ayar": {"simulated", "dataset": {...}}}).
RunFacts runFactsOfResult(const nlohmann::json& result);
RunFacts runFactsOfResult(const nlohmann::ordered_json& result);

// What a person reads beside a run's figures, each text in both languages (a view shows the one it is
// in): an imported file's notes (what it lacked, how it was read) and the figures it wrote that its
// requests do not give; and why a failed run failed. A run stored before both languages were kept
// has its English text in both.
struct RunNotes {
  std::vector<MessageArgument> notes;
  std::optional<MessageArgument> failure;  // set for a failed run with an error
};
RunNotes runNotes(const StoredRun& run);

// What a stored run's set-up says of its engine (fields empty where it says nothing: a remote endpoint
// has no command or device, an import no engine at all).
struct RunEngineFacts {
  std::string kind;     // "bundled", "external" or "remote"
  std::string engine;   // the template: "ayar", "vllm", ...
  std::string device;   // a started engine's --device
  std::string baseUrl;  // a remote endpoint's
  std::string command;  // the command that started it, as shown
  std::string logPath;  // the engine's log
  // Each flag as given, with its value when it has one.
  std::vector<std::pair<std::string, std::optional<std::string>>> flags;
};
RunEngineFacts runEngineFacts(const StoredRun& run);

// Where an imported run came from; none for a run Ayar measured.
struct RunImportFacts {
  std::string tool;     // "vllm", "guidellm", ...
  std::string version;  // empty when the file and the user did not say
  std::string file;
  std::string requestsFile;  // the per-request file read beside it, if any
  bool recomputed = false;   // figures recomputed from its requests, not taken as written
  // What it lacked and how it was read, and the figures it wrote that its requests do not give; each
  // in both languages (English in both for a run stored before Turkish was kept).
  std::vector<MessageArgument> notes;
  std::vector<MessageArgument> differences;
};
std::optional<RunImportFacts> runImportFacts(const RunInfo& info);

// The load profile as lists name it: a shipped profile's name, or the one it was edited from; both
// empty for a profile made by hand or an import.
struct RunProfileName {
  std::string name;
  std::string editedFrom;
};
RunProfileName runProfileName(const StoredRun& run);

// One point of a time series recorded during a run, e.g. {"client.in_flight", 12.5 s, 31}.
struct Sample {
  double tS = 0.0;  // seconds after the run's origin, like RequestRecord::startS
  std::string name;
  double value = 0.0;
  bool operator==(const Sample&) const = default;
};

// A run that ran and finished elsewhere, added to the store in one piece (an import from another
// tool's result file).
struct FinishedRun {
  RunInfo info;
  RunStatus status = RunStatus::Completed;
  double createdAt = 0.0;   // when it started, seconds since the Unix epoch
  double finishedAt = 0.0;  // when it ended
  std::vector<RequestRecord> requests;
  std::vector<Sample> samples;
  nlohmann::json summary;
  nlohmann::json result;
};

// Filters for listing runs; every set field must match. Newest first.
struct RunFilter {
  std::optional<std::string> label;  // exact
  std::optional<std::string> model;  // exact, against the model or the served model name
  std::optional<RunStatus> status;
  std::optional<std::int64_t> studyId;
  int limit = 0;            // 0: all
  bool withResult = false;  // load result JSON too (it can be large); the summary always comes
};

// Everything about one run: `runs show` and `runs export`.
struct RunDetail {
  StoredRun run;
  std::vector<RequestRecord> requests;  // by index
  std::vector<Sample> samples;          // by name, then time
};

struct StoredStudy {
  std::int64_t id = 0;
  std::string uuid;
  std::string name;
  double createdAt = 0.0;
  RunStatus status = RunStatus::Running;
  nlohmann::json spec;
};

// The state of one cell of a study: waiting, running, measured, or its engine did not start (the
// study goes on without it), or its run failed.
enum class CellStatus { Pending, Running, Done, FailedToStart, Failed };
// "pending", "running", "done", "failed-to-start", "failed".
std::string_view toString(CellStatus status);
CellStatus parseCellStatus(std::string_view text);

// One cell of a study: a configuration run on a profile.
struct StudyCell {
  int index = 0;  // the order the cells run in, from 0
  std::string configuration;
  std::string profile;
  std::string phase = "options";  // "options" (every configuration) or "follow-up" (baseline and recommended)
  CellStatus status = CellStatus::Pending;
  std::optional<std::int64_t> runId;
  std::string error;      // why it failed
  std::string engineLog;  // the last lines of the log of an engine that did not start
};

}  // namespace ayar
