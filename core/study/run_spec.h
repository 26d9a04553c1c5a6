#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/engines/engine_spec.h"
#include "core/metrics/run_summary.h"
#include "core/store/run_types.h"
#include "core/study/profile_spec.h"

namespace ayar {

class EngineLauncher;

// Everything one benchmark needs: where requests go (an engine Ayar starts, or a remote endpoint),
// what and when to send (the profile), how to summarise, and where to keep the results.
struct RunSpec {
  // Bundled or external: Ayar starts it and stops it afterwards. Remote: engine.baseUrl is used.
  EngineSpec engine;
  // "openai" (/v1/completions) | "openai-chat" (/v1/chat/completions). Empty: the profile's, else
  // "openai". A default here would override every chat profile with the completions request shape.
  std::string backend;
  std::string endpoint;  // the API path; empty: the profile's, else the backend's default
  // The model name sent in requests (vLLM's --served-model-name, else --model). Empty: the engine's.
  std::string requestModel;
  // A tokenizer.json file or a folder holding one. Empty: the model folder's, else the default Qwen3
  // (checked against a remote server's /tokenize when it has one).
  std::string tokenizer;
  ProfileSpec profile;
  SummaryOptions summary;
  // Merged into every request body last (vLLM's --extra-body), e.g. {"chat_template_kwargs": {...}}.
  nlohmann::json extraBody = nlohmann::json::object();
  std::string label;
  std::vector<std::pair<std::string, std::string>> metadata;  // --metadata KEY=VALUE
  double requestTimeoutS = 6 * 3600.0;
  // vLLM's --header KEY=VALUE entries, sent with every request. Not stored: they may hold secrets.
  std::vector<std::pair<std::string, std::string>> headers;
  // vLLM's --request-id-prefix: request i carries "x-request-id: <prefix><i>"; empty: no such header.
  std::string requestIdPrefix;
  std::optional<int> logprobs;  // vLLM's --logprobs (completions)
  // vLLM's --num-warmups: copies of the test request sent (under the concurrency cap) before the run.
  int numWarmups = 0;
  // vLLM's --ready-check-timeout-sec: the test request is retried every 5 s for this long; 0 skips it.
  // Unset: one try.
  std::optional<double> readyCheckTimeoutS;
  // vLLM's --profile: POST /start_profile before the run and /stop_profile after it.
  bool serverProfiler = false;
  // Ask for real-time priority for the client thread (LoadRunnerConfig::realtimeClient).
  bool realtimeClient = false;
  // The results store; empty: do not store.
  std::filesystem::path storePath;
  // Where the engine's log goes; empty: a file in the temp folder.
  std::filesystem::path engineLogPath;
  // The ayar-engine to run for a bundled engine; empty: next to this executable, else $PATH.
  std::filesystem::path bundledEngine;
  // An engine the caller started and keeps running (a study's EngineSession, started once for all
  // the profiles of a configuration): the run sends its requests there, records `engine` as the
  // configuration, and neither starts nor stops it. Null: the run starts and stops its own.
  EngineLauncher* startedEngine = nullptr;
  // The study this run is a cell of: stored as a part of it.
  std::optional<std::int64_t> studyId;
};

// A run's set-up as the store keeps it, and back. writeRunSetup() fills what a RunSpec says of the
// run into RunInfo: its label, kind and study, the model, the profile and the engine spec (never its
// API key: EngineSpec's JSON leaves it out). runSpecOf() gives the spec that starts the same run
// again; what the run recorded beside its spec (the engine's command line, its log, whether it was
// simulated) is not part of it. An imported run, or one written by Ayar without a set-up, has none.
void writeRunSetup(const RunSpec& spec, RunInfo& info);
std::optional<RunSpec> runSpecOf(const StoredRun& run);

}  // namespace ayar
