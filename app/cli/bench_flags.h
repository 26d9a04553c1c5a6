#pragma once

// ayar-cli bench's flags: what they hold, how they are declared (vllm bench serve's names and
// meanings, in --help groups), and the run they ask for.

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/study/profile_spec.h"
#include "core/study/run_spec.h"

namespace ayar::cli {

struct BenchFlags {
  std::string baseUrl;
  std::string host = "127.0.0.1";
  int port = 8000;
  std::string endpoint;
  std::string backend;
  std::string model;
  std::string servedModelName;
  std::string tokenizer;
  std::string tokenizerMode = "auto";
  std::string engine;
  std::string device = "auto";
  std::vector<std::string> engineArgs;
  std::string engineExecutable;
  std::string engineLog;
  std::string apiKey;
  std::vector<std::string> headers;
  std::string loadProfile;
  bool serverProfiler = false;
  std::string requestRate = "inf";
  std::string burstiness = "1.0";
  std::string loadMode = "rate";
  std::string percentileMetrics = "ttft,tpot,itl";
  std::string metricPercentiles = "99";
  std::vector<std::string> goodput;
  bool saveResult = false;
  bool saveDetailed = false;
  bool appendResult = false;
  std::string resultDir;
  std::string resultFilename;
  std::string resultStyle = "vllm";
  std::vector<std::string> metadata;
  std::string label;
  std::string extraBody;
  std::string requestIdPrefix;
  std::string store;
  bool noStore = false;
  double requestTimeout = 6 * 3600.0;
  int numWarmups = 0;
  int readyCheckTimeoutSec = 0;
  int logprobs = 0;
  bool disableTqdm = false;
  bool realtimeClient = false;
  bool accepted = false;  // vLLM switches that change nothing here (--trust-remote-code, ...)
  std::vector<std::string> leftovers;
  // The values of the flags a profile may also set (applied only when given).
  ProfileSpec values;
  int sharegptOutputLen = 0;
  int inputLen = 0;
  int outputLen = 0;
  double temperature = 0.0;
  double topP = 1.0;
  int topK = 0;
  double minP = 0.0;
  double frequencyPenalty = 0.0;
  double presencePenalty = 0.0;
  double repetitionPenalty = 1.0;
  int maxConcurrency = 0;
  bool ignoreEos = false;
  // vLLM flags Ayar does not support, each with the message saying what to do instead.
  std::vector<std::pair<CLI::Option*, std::string>> refused;
};

using Overrides = std::vector<std::pair<CLI::Option*, std::function<void(ProfileSpec&)>>>;

// Declares every flag of `command` into `flags`; a flag a profile may also set adds its override.
void declareBenchFlags(CLI::App* command, const std::shared_ptr<BenchFlags>& flags,
                       const std::shared_ptr<Overrides>& overrides);

// The run the flags given to `command` ask for, or an ayar::Error naming the flag that cannot be.
RunSpec benchSpec(const BenchFlags& flags, const Overrides& overrides, const CLI::App& command);

}  // namespace ayar::cli
