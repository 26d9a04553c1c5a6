#include "app/cli/bench_flags.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/engines/engine_launcher.h"
#include "core/error.h"
#include "core/metrics/run_summary.h"
#include "core/store/store_path.h"

namespace ayar::cli {
namespace {

double parseRate(const std::string& text, const std::string& flag) {
  if (text == "inf" || text == "Infinity" || text == "infinity") return ProfileSpec::kInfinity;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  if (!(in >> value) || !in.eof()) throw Error(flag + " must be a number or inf, not \"" + text + "\"");
  return value;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

GoodputSlo parseGoodput(const std::vector<std::string>& items) {
  GoodputSlo slo;
  for (const auto& item : items) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) {
      throw Error("--goodput takes KEY:VALUE pairs such as ttft:300 tpot:50 (milliseconds), not \"" + item +
                  "\"");
    }
    const std::string key = item.substr(0, colon);
    const double value = parseRate(item.substr(colon + 1), "--goodput " + key);
    if (value < 0) throw Error("--goodput " + key + " must not be negative");
    if (key == "ttft")
      slo.ttftMs = value;
    else if (key == "tpot")
      slo.tpotMs = value;
    else if (key == "e2el")
      slo.e2elMs = value;
    else
      throw Error("--goodput knows ttft, tpot and e2el, not \"" + key + "\"");
  }
  return slo;
}

// vLLM's default --request-id-prefix: "bench-", eight random hex digits, "-".
std::string defaultRequestIdPrefix() {
  std::random_device device;
  char text[16];
  std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(device()));
  return std::string("bench-") + text + "-";
}

// vLLM's KEY=VALUE lists (--metadata, --header): split at the first '=', both sides trimmed.
std::vector<std::pair<std::string, std::string>> parsePairs(const std::vector<std::string>& items,
                                                            const std::string& flag) {
  const auto trim = [](std::string text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return std::string();
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
  };
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || trim(item.substr(0, eq)).empty()) {
      throw Error(flag + " takes KEY=VALUE, not \"" + item + "\"");
    }
    pairs.emplace_back(trim(item.substr(0, eq)), trim(item.substr(eq + 1)));
  }
  return pairs;
}

// Whether a flag was given on the command line (not only its default).
struct Given {
  const CLI::App& command;
  bool operator()(const char* name) const { return command.get_option(name)->count() > 0; }
};

// Flags that cannot run here, refused before anything starts.
void refuseUnusable(const BenchFlags& flags) {
  for (const auto& [option, message] : flags.refused) {
    if (option->count() > 0) throw Error(message);
  }
  if (!flags.leftovers.empty()) {
    const std::string& word = flags.leftovers.front();
    std::string message = "unexpected argument \"" + word + "\"";
    const auto profiles = listProfiles();
    if (std::any_of(profiles.begin(), profiles.end(), [&](const ProfileSpec& p) { return p.name == word; }) ||
        word.ends_with(".json")) {
      message += ": load profiles are chosen with --load-profile " + word +
                 " (--profile is vLLM's switch for the server's profiler)";
    }
    throw Error(message);
  }
  if (flags.tokenizerMode != "auto" && flags.tokenizerMode != "hf") {
    throw Error("--tokenizer-mode " + flags.tokenizerMode +
                " is not supported: Ayar reads Hugging Face tokenizer.json files (modes auto and hf)");
  }
}

// Where requests go: a running server, 127.0.0.1:8000 as vLLM's client assumes when no target is
// given, unless --engine asks Ayar to start one.
void setTarget(RunSpec& spec, const BenchFlags& flags, const Given& given) {
  const bool targetGiven = given("--base-url") || given("--host") || given("--port");
  const std::string engine = flags.engine.empty() ? std::string("remote") : flags.engine;
  if (engine == "bundled" || engine == "ayar") {
    spec.engine.kind = EngineKind::Bundled;
    spec.engine.engine = "ayar";
    spec.engine.model = flags.model;
    spec.engine.device = flags.device;
    if (flags.model.empty()) {
      // The default model fits the device: qwen3-8b (dummy weights) where the engine picks a GPU,
      // qwen3-tiny on a CPU.
      spec.engine.model = "qwen3-tiny";
      if (flags.device == "auto" || flags.device == "cuda") {
        const std::string picked = bundledEngineDevice(flags.engineExecutable);
        if (picked.starts_with("cuda")) {
          spec.engine.model = "qwen3-8b";
          std::cerr << "no --model given: the bundled engine runs on this machine's GPU (" << picked.substr(5)
                    << "): using qwen3-8b with dummy weights\n";
        }
      }
    }
  } else if (engine == "remote") {
    spec.engine.kind = EngineKind::Remote;
    spec.engine.model = flags.model;
    spec.engine.baseUrl =
        !flags.baseUrl.empty() ? flags.baseUrl : "http://" + flags.host + ":" + std::to_string(flags.port);
  } else {
    spec.engine.kind = EngineKind::External;
    spec.engine.engine = engine == "external" ? "vllm" : engine;
    if (flags.model.empty())
      throw Error("--engine " + engine + " needs --model (the model the engine should serve)");
    spec.engine.model = flags.model;
    spec.engine.device = flags.device;
  }
  if (spec.engine.kind != EngineKind::Remote && targetGiven) {
    throw Error("--base-url, --host and --port point at a running server; with --engine " + engine +
                " Ayar starts the engine itself. Drop them, or use --engine remote");
  }
  spec.engine.servedModelName = flags.servedModelName;
  spec.engine.executable = flags.engineExecutable;
  for (const auto& arg : flags.engineArgs)
    spec.engine.flags.push_back(EngineFlag::fromArgument(arg));
  if (!flags.apiKey.empty()) {
    spec.engine.apiKey = flags.apiKey;
  } else if (const char* env = std::getenv("OPENAI_API_KEY"); env && *env) {
    spec.engine.apiKey = env;
  }
  spec.requestModel = flags.servedModelName;
  spec.tokenizer = flags.tokenizer;
  spec.backend = given("--backend") ? flags.backend : std::string();
  spec.endpoint = flags.endpoint;
}

// What and when to send: the profile, then the flags given on top of it.
void setLoad(RunSpec& spec, const BenchFlags& flags, const Overrides& overrides, const Given& given) {
  const bool datasetFlagGiven = given("--dataset-name") || given("--dataset-path") ||
                                given("--random-input-len") || given("--random-output-len") ||
                                given("--input-len") || given("--output-len");
  std::string profileName = flags.loadProfile;
  if (profileName.empty() && spec.engine.kind == EngineKind::Bundled && !datasetFlagGiven &&
      (spec.engine.device == "cpu" || spec.engine.device == "auto") && spec.engine.model == "qwen3-tiny") {
    profileName = "cpu-quick";
    std::cerr << "no --load-profile given: using cpu-quick, sized for the bundled qwen3-tiny on a CPU\n";
  } else if (profileName.empty() && spec.engine.kind == EngineKind::Bundled && !datasetFlagGiven &&
             flags.model.empty() && spec.engine.model == "qwen3-8b") {
    profileName = "gpu-quick";
    std::cerr << "no --load-profile given: using gpu-quick, 240 ShareGPT-like requests at 8/s\n";
  }
  spec.profile = profileName.empty() ? ProfileSpec{} : loadProfile(profileName);
  for (const auto& [option, apply] : overrides) {
    if (option->count() > 0) apply(spec.profile);
  }
  // vLLM's general lengths, applied over the dataset-specific ones.
  if (given("--input-len")) spec.profile.randomInputLen = flags.inputLen;
  if (given("--output-len")) {
    spec.profile.randomOutputLen = flags.outputLen;
    spec.profile.sharegptOutputLen = flags.outputLen;
    spec.profile.prefixRepetitionOutputLen = flags.outputLen;
  }
  if (given("--request-rate")) spec.profile.requestRate = parseRate(flags.requestRate, "--request-rate");
  if (given("--burstiness")) spec.profile.burstiness = parseRate(flags.burstiness, "--burstiness");
  if (given("--load-mode")) spec.profile.loadMode = parseLoadMode(flags.loadMode);
  if (given("--ramp-up-strategy") && (!given("--ramp-up-start-rps") || !given("--ramp-up-end-rps"))) {
    throw Error("--ramp-up-strategy needs both --ramp-up-start-rps and --ramp-up-end-rps");
  }
  // The API is a part of the load (a profile names it), so the stored profile says what was sent.
  if (given("--backend")) spec.profile.backend = flags.backend;
  if (given("--endpoint")) spec.profile.endpoint = flags.endpoint;
  if (!profileName.empty()) nameEditedProfile(spec.profile, loadProfile(profileName));
  spec.profile.validate();
}

// How the run is measured, labelled and kept.
void setMeasurement(RunSpec& spec, const BenchFlags& flags, const Given& given) {
  spec.summary.percentileMetrics.clear();
  for (const auto& key : splitList(flags.percentileMetrics))
    spec.summary.percentileMetrics.push_back(parseLatencyMetric(key));
  spec.summary.percentiles.clear();
  for (const auto& p : splitList(flags.metricPercentiles))
    spec.summary.percentiles.push_back(parseRate(p, "--metric-percentiles"));
  spec.summary.goodput = parseGoodput(flags.goodput);
  spec.label = flags.label;
  spec.metadata = parsePairs(flags.metadata, "--metadata");
  spec.headers = parsePairs(flags.headers, "--header");
  spec.requestIdPrefix = given("--request-id-prefix") ? flags.requestIdPrefix : defaultRequestIdPrefix();
  if (given("--logprobs")) spec.logprobs = flags.logprobs;
  spec.numWarmups = flags.numWarmups;
  if (given("--ready-check-timeout-sec")) spec.readyCheckTimeoutS = flags.readyCheckTimeoutSec;
  spec.serverProfiler = flags.serverProfiler;
  if (!flags.extraBody.empty()) {
    try {
      spec.extraBody = nlohmann::json::parse(flags.extraBody);
    } catch (const nlohmann::json::exception& e) {
      throw Error("--extra-body is not valid JSON (" + std::string(e.what()) +
                  "): give an object such as '{\"top_k\": 20}'");
    }
  }
  spec.requestTimeoutS = flags.requestTimeout;
  spec.realtimeClient = flags.realtimeClient;
  if (!flags.noStore)
    spec.storePath = flags.store.empty() ? defaultStorePath() : std::filesystem::path(flags.store);
  spec.engineLogPath = flags.engineLog;
}

}  // namespace

RunSpec benchSpec(const BenchFlags& flags, const Overrides& overrides, const CLI::App& command) {
  const Given given{command};
  refuseUnusable(flags);
  RunSpec spec;
  setTarget(spec, flags, given);
  setLoad(spec, flags, overrides, given);
  setMeasurement(spec, flags, given);
  return spec;
}

namespace {

// Declares bench's flags, each in its --help group. A flag that a profile may also set is applied on
// top of the profile only when given (the Overrides).
class BenchOptions {
 public:
  BenchOptions(CLI::App* command, std::shared_ptr<BenchFlags> flags, std::shared_ptr<Overrides> overrides)
      : m_command(command), m_flags(std::move(flags)), m_overrides(std::move(overrides)) {}

  BenchFlags& flags() { return *m_flags; }
  const std::shared_ptr<BenchFlags>& shared() const { return m_flags; }
  void group(std::string name) { m_group = std::move(name); }

  template <typename T>
  CLI::Option* add(const char* name, T& target, const char* help) {
    return m_command->add_option(name, target, help)->group(m_group);
  }
  CLI::Option* addFlag(const char* name, bool& target, const char* help) {
    return m_command->add_flag(name, target, help)->group(m_group);
  }
  template <typename T>
  CLI::Option* profileFlag(const char* name, T& target, const char* help,
                           std::function<void(ProfileSpec&)> apply) {
    CLI::Option* option = add(name, target, help);
    override(option, std::move(apply));
    return option;
  }
  void override(CLI::Option* option, std::function<void(ProfileSpec&)> apply) {
    m_overrides->emplace_back(option, std::move(apply));
  }
  // A vLLM flag for a feature Ayar lacks: refused with what to do instead, never silently ignored,
  // and kept out of --help.
  void refuse(const char* name, bool takesValue, const std::string& advice) {
    CLI::Option* option = takesValue ? m_command->add_option(name) : m_command->add_flag(name);
    option->group("");
    m_flags->refused.emplace_back(option,
                                  std::string(name) + " is not supported by ayar-cli bench: " + advice);
  }

 private:
  CLI::App* m_command;
  std::shared_ptr<BenchFlags> m_flags;
  std::shared_ptr<Overrides> m_overrides;
  std::string m_group;
};

// The server and how requests reach it.
void addTargetOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  o.group("Target");
  o.add("--base-url", f.baseUrl, "Server or API base URL (e.g. http://gpu-box:8000)");
  o.add("--host", f.host, "Server host (default 127.0.0.1)");
  o.add("--port", f.port, "Server port (default 8000)")->check(CLI::Range(1, 65535));
  o.add("--endpoint", f.endpoint,
        "API path (default: /v1/completions for openai, /v1/chat/completions for openai-chat)");
  o.add("--backend", f.backend,
        "openai (/v1/completions) or openai-chat (/v1/chat/completions); vllm = openai")
      ->transform([](std::string s) { return s == "vllm" ? std::string("openai") : s; })
      ->check(CLI::IsMember({"openai", "openai-chat"}));
  o.add("--model", f.model,
        "Model: the served id for a running server (default: the first it lists); a preset (qwen3-tiny, "
        "qwen3-8b, ...) or a folder for an engine Ayar starts");
  o.add("--served-model-name", f.servedModelName, "Model name used in the API requests (default: --model)");
  o.add("--tokenizer", f.tokenizer,
        "tokenizer.json or a folder holding one (default: the model folder's, else the Qwen3 tokenizer, "
        "checked "
        "against the server's /tokenize); passed on to an engine Ayar starts");
  o.add("--tokenizer-mode", f.tokenizerMode, "auto or hf (Ayar reads Hugging Face tokenizer.json files)");
  o.add("--api-key", f.apiKey,
        "Bearer key for the server (default: $OPENAI_API_KEY); never printed or stored");
  o.add("--header", f.headers, "KEY=VALUE headers sent with every request (not stored)");
  o.add("--request-timeout", f.requestTimeout,
        "Seconds one request may take before it counts as failed (default 21600)")
      ->check(CLI::PositiveNumber);
  o.add("--ready-check-timeout-sec", f.readyCheckTimeoutSec,
        "Retry the test request every 5 s for this long; 0 skips it (default: one try)")
      ->check(CLI::NonNegativeNumber);
  o.add("--request-id-prefix", f.requestIdPrefix,
        "Each request carries x-request-id: <prefix><index> (default: bench-<8 random hex digits>-)");
}

// An engine Ayar starts.
void addEngineOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  o.group("Engine");
  o.add("--engine", f.engine,
        "Start an engine: bundled (ayar-engine), or vllm, sglang, tensorrt-llm; remote (the default) uses a "
        "running server at --base-url, else --host:--port");
  o.add("--device", f.device, "Device of a started engine: auto, cuda, cpu, sim (default auto)");
  o.add("--engine-arg", f.engineArgs,
        "A flag for the started engine, written --engine-arg=--max-num-seqs=8 (repeatable)");
  o.add("--engine-executable", f.engineExecutable,
        "The engine program to run instead of the template's (a venv's vllm, say)");
  o.add("--engine-log", f.engineLog,
        "File for the started engine's log (default: a file in the temp folder)");
  o.addFlag("--profile", f.serverProfiler,
            "vLLM's switch: POST /start_profile before the run and /stop_profile after it (load profiles: "
            "--load-profile)");
}

// The load profile and the dataset.
void addDatasetOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  ProfileSpec& v = f.values;
  const std::shared_ptr<BenchFlags>& flags = o.shared();
  o.group("Profile and dataset");
  o.add("--load-profile", f.loadProfile,
        "A load profile from resources/profiles (sharegpt-8rps, random-2k-100, ...) or a profile JSON file; "
        "other flags override it");
  o.profileFlag("--dataset-name", v.datasetName,
                "sharegpt, random, prefix_repetition or synthetic-sharegpt (default random)",
                [flags](ProfileSpec& p) { p.datasetName = flags->values.datasetName; })
      ->transform(
          [](std::string s) { return s == "prefix_repetition" ? std::string("prefix-repetition") : s; })
      ->check(CLI::IsMember({"sharegpt", "random", "prefix-repetition", "synthetic-sharegpt"}));
  o.profileFlag("--dataset-path", v.datasetPath,
                "ShareGPT JSON file (without one, ShareGPT uses the synthetic ShareGPT-like set)",
                [flags](ProfileSpec& p) { p.datasetPath = flags->values.datasetPath; });
  o.profileFlag("--num-prompts", v.numPrompts, "Number of requests (default 1000)",
                [flags](ProfileSpec& p) { p.numPrompts = flags->values.numPrompts; });
  o.add("--input-len", f.inputLen, "Input tokens: sets --random-input-len");
  o.add("--output-len", f.outputLen,
        "Output tokens: sets --random-, --sharegpt- and --prefix-repetition-output-len");
  o.profileFlag("--sharegpt-output-len", f.sharegptOutputLen,
                "Output tokens of every ShareGPT request (default: the dataset's)",
                [flags](ProfileSpec& p) { p.sharegptOutputLen = flags->sharegptOutputLen; });
  o.profileFlag("--random-input-len", v.randomInputLen, "Prompt tokens of the random dataset (default 1024)",
                [flags](ProfileSpec& p) { p.randomInputLen = flags->values.randomInputLen; });
  o.profileFlag("--random-output-len", v.randomOutputLen, "Output tokens of the random dataset (default 128)",
                [flags](ProfileSpec& p) { p.randomOutputLen = flags->values.randomOutputLen; });
  o.profileFlag("--random-range-ratio", v.randomRangeRatio, "Lengths uniform in [L(1-r), L(1+r)] (default 0)",
                [flags](ProfileSpec& p) { p.randomRangeRatio = flags->values.randomRangeRatio; });
  o.profileFlag("--random-prefix-len", v.randomPrefixLen,
                "Tokens of a prefix every random prompt shares (default 0)",
                [flags](ProfileSpec& p) { p.randomPrefixLen = flags->values.randomPrefixLen; });
  o.profileFlag("--prefix-repetition-prefix-len", v.prefixRepetitionPrefixLen,
                "Shared-prefix dataset: prefix tokens (default 256)", [flags](ProfileSpec& p) {
                  p.prefixRepetitionPrefixLen = flags->values.prefixRepetitionPrefixLen;
                });
  o.profileFlag("--prefix-repetition-suffix-len", v.prefixRepetitionSuffixLen,
                "Shared-prefix dataset: tokens after the prefix (default 256)", [flags](ProfileSpec& p) {
                  p.prefixRepetitionSuffixLen = flags->values.prefixRepetitionSuffixLen;
                });
  o.profileFlag("--prefix-repetition-num-prefixes", v.prefixRepetitionNumPrefixes,
                "Shared-prefix dataset: how many prefixes (default 10)", [flags](ProfileSpec& p) {
                  p.prefixRepetitionNumPrefixes = flags->values.prefixRepetitionNumPrefixes;
                });
  o.profileFlag("--prefix-repetition-output-len", v.prefixRepetitionOutputLen,
                "Shared-prefix dataset: output tokens (default 128)", [flags](ProfileSpec& p) {
                  p.prefixRepetitionOutputLen = flags->values.prefixRepetitionOutputLen;
                });
  o.override(o.addFlag("--ignore-eos", f.ignoreEos,
                       "Ask the server for exactly the asked output length (vLLM's ignore_eos; "
                       "forced for the random dataset)"),
             [](ProfileSpec& p) { p.ignoreEos = true; });
  o.profileFlag("--seed", v.seed,
                "Seed of the dataset and the arrival schedule, as vLLM draws them (default 0)",
                [flags](ProfileSpec& p) { p.seed = flags->values.seed; });
}

// Sampling parameters sent in every request.
void addSamplingOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  const std::shared_ptr<BenchFlags>& flags = o.shared();
  o.group("Sampling (sent in every request)");
  o.profileFlag("--temperature", f.temperature,
                "Sampling temperature (default 0: greedy, as vLLM's client sends)",
                [flags](ProfileSpec& p) { p.temperature = flags->temperature; });
  o.profileFlag("--top-p", f.topP, "Top-p sampling", [flags](ProfileSpec& p) { p.topP = flags->topP; });
  o.profileFlag("--top-k", f.topK, "Top-k sampling", [flags](ProfileSpec& p) { p.topK = flags->topK; });
  o.profileFlag("--min-p", f.minP, "Min-p sampling", [flags](ProfileSpec& p) { p.minP = flags->minP; });
  o.profileFlag("--frequency-penalty", f.frequencyPenalty, "Frequency penalty",
                [flags](ProfileSpec& p) { p.frequencyPenalty = flags->frequencyPenalty; });
  o.profileFlag("--presence-penalty", f.presencePenalty, "Presence penalty",
                [flags](ProfileSpec& p) { p.presencePenalty = flags->presencePenalty; });
  o.profileFlag("--repetition-penalty", f.repetitionPenalty, "Repetition penalty",
                [flags](ProfileSpec& p) { p.repetitionPenalty = flags->repetitionPenalty; });
  o.add("--logprobs", f.logprobs, "Log-probabilities per token to ask for (completions)");
  o.add("--extra-body,--extra-request-body", f.extraBody,
        "A JSON object merged into every request body, e.g. '{\"top_k\": 20}'");
}

// When requests are sent.
void addArrivalOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  ProfileSpec& v = f.values;
  const std::shared_ptr<BenchFlags>& flags = o.shared();
  o.group("Arrivals");
  o.add("--request-rate", f.requestRate, "Requests per second, or inf to send all at once (default inf)");
  o.add("--burstiness", f.burstiness,
        "Gamma shape of the gaps: 1 = Poisson, inf = constant rate (default 1)");
  o.profileFlag(
       "--ramp-up-strategy", v.rampUpStrategy,
       "Raise the rate during the run: linear or exponential, from --ramp-up-start-rps to --ramp-up-end-rps",
       [flags](ProfileSpec& p) { p.rampUpStrategy = flags->values.rampUpStrategy; })
      ->check(CLI::IsMember({"linear", "exponential"}));
  o.profileFlag("--ramp-up-start-rps", v.rampUpStartRps, "The ramp-up's first rate (req/s)",
                [flags](ProfileSpec& p) { p.rampUpStartRps = flags->values.rampUpStartRps; });
  o.profileFlag("--ramp-up-end-rps", v.rampUpEndRps, "The ramp-up's last rate (req/s)",
                [flags](ProfileSpec& p) { p.rampUpEndRps = flags->values.rampUpEndRps; });
  o.profileFlag("--max-concurrency", f.maxConcurrency,
                "Most requests in flight at once (slot waits are recorded apart)",
                [flags](ProfileSpec& p) { p.maxConcurrency = flags->maxConcurrency; });
  o.add("--num-warmups", f.numWarmups, "Copies of the test request sent before the measured run (default 0)")
      ->check(CLI::NonNegativeNumber);
  o.add(
       "--load-mode", f.loadMode,
       "rate (default), concurrent (a closed loop of --concurrency streams), throughput (all at once), sweep")
      ->check(CLI::IsMember({"rate", "concurrent", "throughput", "sweep"}));
  o.profileFlag("--concurrency", v.concurrency, "Streams for --load-mode concurrent (default 1)",
                [flags](ProfileSpec& p) { p.concurrency = flags->values.concurrency; });
  o.profileFlag("--sweep-points", v.sweepPoints,
                "Rates between synchronous and throughput for --load-mode sweep (default 5)",
                [flags](ProfileSpec& p) { p.sweepPoints = flags->values.sweepPoints; });
}

// What is measured, printed, saved and stored.
void addResultOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  o.group("Metrics and results");
  o.add("--percentile-metrics", f.percentileMetrics,
        "Comma-separated: ttft,tpot,itl,e2el (default ttft,tpot,itl)");
  o.add("--metric-percentiles", f.metricPercentiles, "Comma-separated percentiles (default 99)");
  o.add("--goodput", f.goodput, "SLOs as KEY:VALUE in ms, e.g. --goodput ttft:300 tpot:50");
  o.add("--result-style", f.resultStyle,
        "vllm (vllm bench serve's block, the default) or gpustack (the studies' block: end-to-end latency "
        "first, "
        "in seconds)")
      ->check(CLI::IsMember({"vllm", "gpustack"}));
  o.addFlag("--save-result", f.saveResult, "Write the vLLM-compatible result JSON");
  o.addFlag("--save-detailed", f.saveDetailed,
            "Include the per-request lists (ttfts, itls, texts, errors) in the result JSON");
  o.addFlag("--append-result", f.appendResult, "Append the result JSON to the file as a new line");
  o.add("--result-dir", f.resultDir, "Folder for the result JSON (default: the current folder)");
  o.add("--result-filename", f.resultFilename, "File name of the result JSON (default: vLLM's pattern)");
  o.add("--metadata", f.metadata, "KEY=VALUE pairs written into the result");
  o.add("--label", f.label, "A label for the run, shown in lists, reports and the result file's name");
  o.add("--store", f.store, "Results store file (default: ~/.local/share/ayar/ayar.db)");
  o.addFlag("--no-store", f.noStore, "Do not write the run into the results store");
  o.addFlag("--disable-tqdm", f.disableTqdm, "No progress display");
  o.addFlag(
      "--realtime-client", f.realtimeClient,
      "Run the client thread at real-time priority (root or CAP_SYS_NICE): keeps dispatch lag low when a "
      "local engine shares the cores");
}

// vLLM flags that change nothing here, accepted so that its command lines run.
void addAcceptedOptions(BenchOptions& o) {
  BenchFlags& f = o.flags();
  o.group("vLLM flags accepted with no effect here");
  o.addFlag("--trust-remote-code", f.accepted, "Ayar runs no model code from a hub: nothing to trust");
  o.addFlag("--no-stream", f.accepted, "Ayar reads dataset files whole");
  o.addFlag("--no-oversample", f.accepted, "Ayar never repeats dataset entries to reach --num-prompts");
  o.addFlag("--skip-chat-template", f.accepted, "Ayar's datasets apply no chat template on the client");
}

// vLLM flags for features Ayar lacks.
void addRefusedOptions(BenchOptions& o) {
  o.refuse("--use-beam-search", false, "leave it out; Ayar sends sampled requests only");
  o.refuse("--lora-modules", true, "give the LoRA adapter's served name as --model");
  o.refuse("--lora-assignment", true, "give the LoRA adapter's served name as --model");
  o.refuse("--probe-request-rate", true,
           "run a second ayar-cli bench at a low --request-rate beside this one");
  o.refuse("--self-timed", false,
           "Ayar has no timed_trace dataset; use --request-rate or --ramp-up-strategy");
  o.refuse("--no-self-timed", false,
           "Ayar has no timed_trace dataset; use --request-rate or --ramp-up-strategy");
  o.refuse("--insecure", false, "use http:// or a certificate the system trusts");
  o.refuse("--skip-tokenizer-init", false, "Ayar always counts tokens; leave it out");
  o.refuse("--chat-template-kwargs", true,
           "for the server, send it in the body: --extra-body '{\"chat_template_kwargs\": {...}}'");
  o.refuse("--disable-shuffle", false, "Ayar orders ShareGPT as vLLM's shuffle with --seed does");
  for (const char* name : {"--plot-timeline", "--plot-dataset-stats"}) {
    o.refuse(name, false, "ayar-cli runs export ID --format csv gives the per-request times to plot");
  }
  o.refuse("--timeline-itl-thresholds", true,
           "ayar-cli runs export ID --format csv gives the per-request times to plot");
  for (const char* name :
       {"--custom-output-len", "--spec-bench-output-len", "--spec-bench-category", "--sonnet-input-len",
        "--sonnet-output-len", "--sonnet-prefix-len", "--hf-subset", "--hf-split", "--hf-name",
        "--hf-output-len", "--random-batch-size", "--blazedit-min-distance", "--blazedit-max-distance"}) {
    o.refuse(name, true,
             "its dataset is not one of Ayar's (sharegpt, random, prefix_repetition, synthetic-sharegpt)");
  }
}

}  // namespace

void declareBenchFlags(CLI::App* command, const std::shared_ptr<BenchFlags>& flags,
                       const std::shared_ptr<Overrides>& overrides) {
  BenchOptions options(command, flags, overrides);
  addTargetOptions(options);
  addEngineOptions(options);
  addDatasetOptions(options);
  addSamplingOptions(options);
  addArrivalOptions(options);
  addResultOptions(options);
  addAcceptedOptions(options);
  addRefusedOptions(options);
  command->add_option("words", flags->leftovers)->group("");
}

}  // namespace ayar::cli
