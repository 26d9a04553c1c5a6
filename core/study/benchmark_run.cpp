#include "core/study/benchmark_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <functional>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "core/engines/engine_catalogue.h"
#include "core/engines/engine_launcher.h"
#include "core/error.h"
#include "core/load/arrival_schedule.h"
#include "core/load/openai_request.h"
#include "core/report/result_json.h"
#include "core/store/result_store.h"
#include "core/store/run_writer.h"
#include "core/store/secret_scrubber.h"
#include "core/study/load_plan.h"
#include "core/study/request_builder.h"
#include "core/study/run_result.h"
#include "core/study/run_sampler.h"
#include "core/study/run_server.h"
#include "core/study/study_report.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar {
namespace {

constexpr const char* kCancelledError = "cancelled";

struct RunTokenizer {
  std::shared_ptr<const Tokenizer> tokenizer;
  bool fallback = false;  // the default Qwen3 tokenizer stands in: nobody named one
};

RunTokenizer loadRunTokenizer(const RunSpec& spec) {
  if (!spec.tokenizer.empty()) return {Tokenizer::load(spec.tokenizer), false};
  if (!spec.engine.model.empty() &&
      std::filesystem::exists(std::filesystem::path(spec.engine.model) / "tokenizer.json")) {
    return {Tokenizer::load(spec.engine.model), false};
  }
  const std::filesystem::path path = defaultTokenizerDir();
  if (!std::filesystem::exists(path / "tokenizer.json")) {
    throw MessageError({MessageText::RunNoTokenizer, {path.string()}});
  }
  return {Tokenizer::load(path), true};
}

// vLLM's sampling parameters: those the profile sets, and temperature 0 (greedy) when it sets none,
// as vLLM's client sends them.
nlohmann::json samplingParameters(const ProfileSpec& profile) {
  nlohmann::json sampling = nlohmann::json::object();
  if (profile.topP) sampling["top_p"] = *profile.topP;
  if (profile.topK) sampling["top_k"] = *profile.topK;
  if (profile.minP) sampling["min_p"] = *profile.minP;
  sampling["temperature"] = profile.temperature.value_or(0.0);
  if (profile.frequencyPenalty) sampling["frequency_penalty"] = *profile.frequencyPenalty;
  if (profile.presencePenalty) sampling["presence_penalty"] = *profile.presencePenalty;
  if (profile.repetitionPenalty) sampling["repetition_penalty"] = *profile.repetitionPenalty;
  return sampling;
}

}  // namespace

namespace {

// The error of a load whose engine (one Ayar started) died under it.
MessageError engineDiedError(const EngineLauncher& launcher, const ProcessExit& death, long long finished,
                             long long count) {
  const std::string log = launcher.logPath().empty() ? std::string("-") : launcher.logPath().string();
  return MessageError(
      {MessageText::RunEngineDied,
       {launcher.engineTemplate().displayName,
        death.signal || death.exitCode >= 0 ? death.describe() : std::string("its exit status was lost"),
        countArgument(finished), countArgument(count), log}});
}

// The API and path the requests go to: the run's own, else its profile's, else completions.
std::pair<std::string, std::string> requestApi(const RunSpec& spec) {
  const std::string backend = !spec.backend.empty()           ? spec.backend
                              : !spec.profile.backend.empty() ? spec.profile.backend
                                                              : std::string("openai");
  const std::string endpoint = !spec.endpoint.empty() ? spec.endpoint
                               : !spec.profile.endpoint.empty()
                                   ? spec.profile.endpoint
                                   : std::string(defaultEndpointPath(parseBackendName(backend)));
  return {backend, endpoint};
}

}  // namespace

struct BenchmarkRun::State {
  mutable std::mutex mutex;
  LoadRunner* runner = nullptr;  // the load in progress, under mutex
  EngineLauncher* launcher = nullptr;
  std::string datasetNote;
  // For a run that fails before its first request: when it started, where the engine's log went,
  // and whether a run is in the store already (then it says what happened itself).
  double startedAt = 0.0;
  std::filesystem::path engineLog;
  bool stored = false;
  std::optional<std::int64_t> failedRunId;  // under mutex
};

BenchmarkRun::BenchmarkRun(RunSpec spec, RunObserver observer)
    : m_spec(std::move(spec)), m_observer(std::move(observer)), m_state(std::make_unique<State>()) {}

BenchmarkRun::~BenchmarkRun() = default;

void BenchmarkRun::cancel() {
  m_cancelled = true;
  std::lock_guard lock(m_state->mutex);
  if (m_state->runner) m_state->runner->cancel();
  if (m_state->launcher) m_state->launcher->cancelStart();
}

LoadProgress BenchmarkRun::progress() const {
  std::lock_guard lock(m_state->mutex);
  return m_state->runner ? m_state->runner->progress() : LoadProgress{};
}

std::optional<std::int64_t> BenchmarkRun::failedRunId() const {
  std::lock_guard lock(m_state->mutex);
  return m_state->failedRunId;
}

std::string BenchmarkRun::datasetNote() const {
  std::lock_guard lock(m_state->mutex);
  return m_state->datasetNote;
}

std::vector<RunOutcome> BenchmarkRun::run() {
  // Input that cannot run is refused before anything starts, and is not a run.
  m_spec.profile.validate();
  m_spec.engine.validate();
  if (!m_spec.extraBody.is_object())
    throw MessageError({MessageText::LoadExtraNotObject,
                        {Message{MessageText::LoadExtraBodyAll, {}}.asArgument(), m_spec.extraBody.dump()}});
  m_state->startedAt =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  try {
    return runStages();
  } catch (const std::exception& e) {
    if (!m_cancelled) keepFailedStart(errorArgument(e));
    throw;
  }
}

void BenchmarkRun::keepFailedStart(const MessageArgument& error) {
  const RunSpec& spec = m_spec;
  if (spec.storePath.empty() || m_state->stored) return;
  FinishedRun run;
  RunInfo& info = run.info;
  writeRunSetup(spec, info);
  std::tie(info.backend, info.endpoint) = requestApi(spec);
  if (spec.engine.kind == EngineKind::Remote) info.baseUrl = redactUrlCredentials(spec.engine.baseUrl);
  info.servedModelName = spec.requestModel;
  if (!m_state->engineLog.empty()) info.engine["log"] = m_state->engineLog.string();
  info.notes = error.english;
  info.config = {
      {"error", error.english}, {"error_tr", error.turkish}, {"percentiles", spec.summary.percentiles}};
  run.status = RunStatus::Failed;
  run.createdAt = m_state->startedAt;
  run.finishedAt = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  try {
    const std::int64_t id = ResultStore(spec.storePath).addFinishedRun(run);
    std::lock_guard lock(m_state->mutex);
    m_state->failedRunId = id;
  } catch (const std::exception&) {
    // The store cannot take it either: the caller still reports the run's own error.
  }
}

void BenchmarkRun::readyCheck(const LoadRunnerConfig& baseConfig, const BuiltRequests& built,
                              const std::string& shownUrl) {
  const RunSpec& spec = m_spec;
  if (built.requests.empty() || m_cancelled) return;
  // The first request first, as vLLM's client sends it: a wrong model, key or endpoint stops here
  // with the server's own words instead of failing every request, and its one-time costs
  // (connection, the server's first tokenization) stay out of the measurement. vLLM's ready check
  // sends it again every 5 s until it succeeds or the time is up.
  if (spec.readyCheckTimeoutS.value_or(1.0) > 0) {
    stage({MessageText::StageTestRequest, {}});
    LoadRunnerConfig config = baseConfig;
    config.maxConcurrency = 0;
    config.requestTimeoutS = std::min(spec.requestTimeoutS, 600.0);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(spec.readyCheckTimeoutS.value_or(0.0)));
    for (;;) {
      const auto records = runLoad(config, {built.requests.front()}, ArrivalSchedule::throughput(1));
      if (!records.empty() && records.front().success) break;
      const std::string reason = records.empty() ? "no answer" : records.front().error;
      const auto retryAt = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      if (m_cancelled || !spec.readyCheckTimeoutS || retryAt >= deadline) {
        throw MessageError({MessageText::RunTestRequestFailed, {shownUrl + config.endpointPath, reason}});
      }
      stage({MessageText::StageNotReady, {reason}});
      while (std::chrono::steady_clock::now() < retryAt && !m_cancelled)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a retry interval, polled for cancel
    }
  }
  if (spec.numWarmups > 0 && !m_cancelled) {
    stage({MessageText::StageWarmingUp, {std::to_string(spec.numWarmups)}});
    runLoad(baseConfig,
            std::vector<LoadRequest>(static_cast<std::size_t>(spec.numWarmups), built.requests.front()),
            ArrivalSchedule::throughput(static_cast<std::size_t>(spec.numWarmups)));
  }
}

void BenchmarkRun::stage(const Message& message) const {
  if (m_observer.onStage) m_observer.onStage(message);
}

// What the stages of a run share once the engine answers.
struct BenchmarkRun::Target {
  std::string backend;   // the API the requests speak ("openai", "openai-chat", ...)
  std::string endpoint;  // the path they go to
  RunTokenizer tokenizer;
  BuiltRequests built;
  EngineSpec engineSpec;  // as started: a tokenizer added, or the one a study's engine session runs
  std::optional<EngineLauncher> ownLauncher;
  EngineLauncher* launcher = nullptr;  // ownLauncher's, or the engine session's
  std::string baseUrl;
  std::string shownUrl;  // baseUrl with a key in its userinfo ("http://user:KEY@host") redacted
  std::string apiKey;
  std::string requestModel;
  nlohmann::json metadata;  // --metadata, an entry named like a secret redacted
  bool simulated = false;
  LoadRunnerConfig client;  // every load's settings but its sink
};

// One load test as measured, before it is summarised.
struct BenchmarkRun::MeasuredLoad {
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  std::exception_ptr error;  // the load's own, or the death of the engine Ayar started
  double clientCpuS = 0.0;
  double durationS = 0.0;
  std::chrono::steady_clock::time_point origin;
  std::chrono::system_clock::time_point wallOrigin;  // origin on the wall clock
  ClientConduct conduct;
};

std::vector<RunOutcome> BenchmarkRun::runStages() {
  Target target;
  std::tie(target.backend, target.endpoint) = requestApi(m_spec);
  prepareRequests(target);
  if (m_cancelled) return {};

  // cancel() reaches the engine start while the run holds a launcher, and never after.
  struct LauncherReset {
    State& state;
    ~LauncherReset() {
      std::lock_guard lock(state.mutex);
      state.launcher = nullptr;
    }
  } launcherReset{*m_state};
  openEngine(target);
  connect(target);
  target.client = clientConfig(target);
  readyCheck(target.client, target.built, target.shownUrl);
  target.client.requestIdPrefix = m_spec.requestIdPrefix;
  const StageFunction stageFunction = [this](const Message& message) { stage(message); };
  if (m_spec.serverProfiler)
    postProfilerSwitch(target.baseUrl + "/start_profile", target.apiKey, stageFunction);

  const std::size_t count = target.built.requests.size();
  std::vector<LoadPlan> plans = loadPlans(m_spec.profile, count);
  std::vector<RunOutcome> outcomes;
  for (std::size_t planIndex = 0; planIndex < plans.size() && !m_cancelled; ++planIndex) {
    const LoadPlan plan = plans[planIndex];  // a copy: a sweep appends to plans below
    outcomes.push_back(runPlan(plan, target));
    // A sweep adds its rates once the synchronous and throughput runs have shown the range.
    if (m_spec.profile.loadMode == LoadMode::Sweep && planIndex == 1) {
      for (LoadPlan& rate : sweepPlans(m_spec.profile, count, outcomes[0].summary.requestThroughput,
                                       outcomes[1].summary.requestThroughput))
        plans.push_back(std::move(rate));
    }
  }

  if (m_spec.serverProfiler)
    postProfilerSwitch(target.baseUrl + "/stop_profile", target.apiKey, stageFunction);
  if (!m_spec.startedEngine) {
    if (m_spec.engine.kind != EngineKind::Remote) stage({MessageText::StageStopping, {}});
    target.launcher->stop();
  }
  return outcomes;
}

void BenchmarkRun::prepareRequests(Target& target) {
  const ProfileSpec& profile = m_spec.profile;
  stage({MessageText::StageLoadingTokenizer, {}});
  target.tokenizer = loadRunTokenizer(m_spec);
  stage({MessageText::StageBuildingDataset,
         {MessageArgument(describeProfile(profile, ReportLanguage::English),
                          describeProfile(profile, ReportLanguage::Turkish))}});
  target.built = buildRequests(profile, target.tokenizer.tokenizer);
  {
    std::lock_guard lock(m_state->mutex);
    m_state->datasetNote = target.built.note;
  }
  if (!target.built.noteText.empty()) stage(target.built.noteText);
}

// The engine: started here for bundled and external specs, checked for remote ones, taken as it runs
// from a study's engine session.
void BenchmarkRun::openEngine(Target& target) {
  const RunSpec& spec = m_spec;
  const EngineCatalogue catalogue = EngineCatalogue::loadDefault();
  LaunchOptions launchOptions;
  launchOptions.logPath = spec.engineLogPath;
  if (launchOptions.logPath.empty() && !spec.storePath.empty() && spec.engine.kind != EngineKind::Remote) {
    // Kept beside the store, named after the start, so that a stored run's engine log can be found.
    launchOptions.logPath = spec.storePath.parent_path() / "logs" /
                            ("engine-" + formatResultDate(std::chrono::system_clock::now()) + "-" +
                             std::to_string(::getpid()) + ".log");
    std::error_code ec;
    std::filesystem::create_directories(launchOptions.logPath.parent_path(), ec);
  }
  launchOptions.bundledEngine = spec.bundledEngine;
  m_state->engineLog = spec.startedEngine ? spec.startedEngine->logPath() : launchOptions.logPath;
  launchOptions.onLogLine = m_observer.onEngineLog;
  // A tokenizer given for a bundled engine is the engine's too, so that both count alike.
  target.engineSpec = spec.engine;
  const bool engineHasTokenizer =
      std::any_of(target.engineSpec.flags.begin(), target.engineSpec.flags.end(),
                  [](const EngineFlag& flag) { return flag.name == "--tokenizer"; });
  if (target.engineSpec.kind == EngineKind::Bundled && !spec.tokenizer.empty() && !engineHasTokenizer) {
    target.engineSpec.flags.push_back(
        EngineFlag::option("--tokenizer", std::filesystem::absolute(spec.tokenizer).string()));
  }
  if (spec.startedEngine) {
    target.launcher = spec.startedEngine;
    target.engineSpec = target.launcher->spec();
  } else {
    target.launcher = &target.ownLauncher.emplace(target.engineSpec, catalogue, launchOptions);
  }
  EngineLauncher& launcher = *target.launcher;
  for (const auto& warning : launcher.flagWarnings())
    stage({MessageText::StageWarning, {warning.text.asArgument()}});
  {
    std::lock_guard lock(m_state->mutex);
    m_state->launcher = &launcher;
  }
  if (spec.startedEngine) {
    stage({MessageText::StageUsingEngine, {redactUrlCredentials(launcher.baseUrl())}});
    return;
  }
  if (spec.engine.kind == EngineKind::Remote) {
    stage({MessageText::StageChecking, {redactUrlCredentials(spec.engine.normalizedBaseUrl())}});
    launcher.start();
    return;
  }
  stage({MessageText::StageStarting, {launcher.engineTemplate().displayName, spec.engine.model}});
  launcher.start();
  stage(
      {MessageText::StageEngineReady, {redactUrlCredentials(launcher.baseUrl()), launcher.displayCommand()}});
}

// The server as the requests will meet it: its address, key and model, whether it is simulated, and
// the prompts checked against its tokenizer and context.
void BenchmarkRun::connect(Target& target) {
  const RunSpec& spec = m_spec;
  target.baseUrl = target.launcher->baseUrl();
  target.shownUrl = redactUrlCredentials(target.baseUrl);
  target.metadata = redactSecretValues(spec.metadata);
  target.apiKey = spec.engine.resolveApiKey();
  target.requestModel = spec.requestModel;
  if (target.requestModel.empty()) target.requestModel = spec.engine.servedModelName;
  if (target.requestModel.empty()) target.requestModel = spec.engine.model;
  const ServedModels served = ServedModels::ask(target.baseUrl, target.apiKey);
  if (target.requestModel.empty()) target.requestModel = served.first(target.baseUrl);
  target.simulated = served.simulated();
  if (target.simulated) stage({MessageText::StageSimulated, {}});

  if (target.tokenizer.fallback && spec.engine.kind == EngineKind::Remote) {
    alignPromptsWithServer(target.built, target.baseUrl, target.requestModel, target.apiKey,
                           [this](const Message& message) { stage(message); });
  }
  checkContext(target.built, spec.profile, served, target.requestModel);
}

LoadRunnerConfig BenchmarkRun::clientConfig(const Target& target) const {
  const RunSpec& spec = m_spec;
  const ProfileSpec& profile = spec.profile;
  LoadRunnerConfig config;
  config.baseUrl = target.baseUrl;
  config.endpointPath = target.endpoint;
  config.body.api = parseBackendName(target.backend);
  config.body.model = target.requestModel;
  config.body.logprobs = spec.logprobs;
  config.body.ignoreEos = profile.ignoreEos || target.built.forcesIgnoreEos;
  if (target.built.forcesIgnoreEos && !profile.ignoreEos) stage({MessageText::StageIgnoreEosForced, {}});
  config.body.extraBody = samplingParameters(profile);
  if (!profile.temperature && !spec.extraBody.contains("temperature")) stage({MessageText::StageGreedy, {}});
  for (const auto& [key, value] : spec.extraBody.items())
    config.body.extraBody[key] = value;
  config.apiKey = target.apiKey;
  config.headers = spec.headers;
  config.maxConcurrency = profile.maxConcurrency.value_or(0);
  config.requestTimeoutS = spec.requestTimeoutS;
  config.realtimeClient = spec.realtimeClient;
  config.countTokens = [tokenizer = target.tokenizer.tokenizer](std::string_view text) {
    return static_cast<int>(tokenizer->encode(text).size());
  };
  return config;
}

// One load test: stored as it goes when there is a store, then summarised and written as vLLM's result
// file. A load that failed (or whose engine died) is stored as failed with its error, then thrown.
RunOutcome BenchmarkRun::runPlan(const LoadPlan& plan, const Target& target) {
  const RunSpec& spec = m_spec;
  const std::size_t count = target.built.requests.size();
  stage({MessageText::StageRunning,
         {plan.label.asArgument(), std::to_string(count), target.shownUrl + target.endpoint}});
  const RunInfo info = planInfo(plan, target);
  std::unique_ptr<RunWriter> writer;
  if (!spec.storePath.empty()) {
    writer = std::make_unique<RunWriter>(spec.storePath, info);
    m_state->stored = true;
  }
  MeasuredLoad load = measure(plan, target, writer.get());

  RunOutcome outcome;
  outcome.title = plan.title;
  outcome.requestRate = plan.requestRate;
  outcome.clientCpuS = load.clientCpuS;
  outcome.origin = load.origin;
  outcome.cancelled = m_cancelled.load();
  outcome.facts.simulated = target.simulated;
  outcome.facts.syntheticDataset = target.built.synthetic;
  outcome.records = std::move(load.records);
  if (outcome.cancelled) {
    // Requests cut short by the user are not failures of the server: keep them out of the figures.
    const auto cut =
        std::remove_if(outcome.records.begin(), outcome.records.end(),
                       [](const RequestRecord& r) { return !r.success && r.error == kCancelledError; });
    outcome.cancelledInFlight = static_cast<int>(outcome.records.end() - cut);
    outcome.records.erase(cut, outcome.records.end());
  }
  std::sort(outcome.records.begin(), outcome.records.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.index < b.index; });

  SummaryOptions summaryOptions = spec.summary;
  summaryOptions.maxConcurrency = spec.profile.maxConcurrency;
  if (!load.error) summaryOptions.durationS = load.durationS;
  if (plan.schedule.mode() == ArrivalSchedule::Mode::ClosedLoop)
    summaryOptions.maxConcurrency = plan.schedule.closedLoopStreams();
  outcome.summary = computeRunSummary(outcome.records, summaryOptions);

  ResultSetup setup = resultSetup(spec, info, plan, count, summaryOptions.maxConcurrency, target.metadata);
  if (!spec.profile.rampUpStrategy.empty() && spec.profile.loadMode == LoadMode::Rate)
    setup.rpsChangeEvents = rpsChangeEvents(plan.schedule, outcome.records, load.wallOrigin);
  const nlohmann::json ayarJson = ayarObject(info, target.built, outcome, load.conduct, load.samples);
  outcome.result = resultJson(setup, outcome.summary, outcome.records, /*detailed=*/true, ayarJson);

  if (writer) {
    const RunStatus status = outcome.cancelled ? RunStatus::Cancelled
                             : load.error || (outcome.summary.completed == 0 && count > 0)
                                 ? RunStatus::Failed
                                 : RunStatus::Completed;
    writer->finish(status, resultJson(setup, outcome.summary, {}, /*detailed=*/false, ayarJson),
                   outcome.result);
    outcome.storeRunId = writer->runId();
    if (load.error) {
      try {
        std::rethrow_exception(load.error);
      } catch (const std::exception& e) {
        ResultStore(spec.storePath).setFailure(writer->runId(), errorArgument(e));
      }
    }
  }
  if (load.error) std::rethrow_exception(load.error);
  return outcome;
}

// A load test's run as the store keeps it: the set-up as it ran and the server it met.
RunInfo BenchmarkRun::planInfo(const LoadPlan& plan, const Target& target) const {
  const RunSpec& spec = m_spec;
  RunInfo info;
  RunSpec started = spec;  // as it ran: a study's engine session may have set its engine spec
  started.engine = target.engineSpec;
  writeRunSetup(started, info);
  info.backend = target.backend;
  info.baseUrl = target.shownUrl;
  info.endpoint = target.endpoint;
  if (info.model.empty()) info.model = target.requestModel;
  info.servedModelName = target.requestModel;
  info.tokenizer = target.tokenizer.tokenizer->sourcePath().string();
  info.dataset = target.built.datasetName;
  info.engine["command"] = target.launcher->displayCommand();
  info.engine["simulated"] = target.simulated;
  if (!target.launcher->logPath().empty()) info.engine["log"] = target.launcher->logPath().string();
  info.config = {{"load", plan.title},
                 {"extra_body", spec.extraBody},
                 {"request_timeout_s", spec.requestTimeoutS},
                 {"metadata", target.metadata},
                 {"percentiles", spec.summary.percentiles}};
  return info;
}

// Sends the plan's load and gathers what finishes, sampling once a second beside it. Each finished
// request goes to the observer and the store as it arrives.
BenchmarkRun::MeasuredLoad BenchmarkRun::measure(const LoadPlan& plan, const Target& target,
                                                 RunWriter* writer) {
  MeasuredLoad load;
  std::mutex recordsMutex;
  load.records.reserve(target.built.requests.size());
  std::atomic<bool> engineDied{false};  // set before the runner is stopped for it
  LoadRunnerConfig config = target.client;
  config.sink = [&](std::vector<RequestRecord>&& batch) {
    if (engineDied) {
      // Requests cut short when the engine died failed because of it, not by anyone's choice.
      for (RequestRecord& record : batch) {
        if (!record.success && record.error == kCancelledError)
          record.error = "the engine stopped during the request";
      }
    }
    if (m_observer.onRecords) m_observer.onRecords(batch);
    if (writer) writer->addRecords(batch);
    std::lock_guard lock(recordsMutex);
    for (auto& record : batch)
      load.records.push_back(std::move(record));
  };

  LoadRunner runner(config);
  runner.start(target.built.requests, plan.schedule);
  load.wallOrigin =
      std::chrono::system_clock::now() - std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                             std::chrono::steady_clock::now() - runner.origin());
  if (m_spec.realtimeClient && !runner.realtimeGranted())
    stage({MessageText::StageWarning, {Message{MessageText::StageNoRealtime, {}}.asArgument()}});
  {
    std::lock_guard lock(m_state->mutex);
    m_state->runner = &runner;
  }
  if (m_cancelled) runner.cancel();

  // An engine Ayar started that dies mid-run ends the run there: the rest of the schedule would
  // only meet refused connections, and the run would read as a server that fails requests.
  RunSampler sampler(runner, m_spec.engine.kind != EngineKind::Remote ? target.launcher : nullptr, engineDied,
                     target.baseUrl, target.apiKey, writer, m_observer);
  try {
    runner.wait();
  } catch (...) {
    load.error = std::current_exception();
  }
  sampler.stop();
  {
    std::lock_guard lock(m_state->mutex);
    m_state->runner = nullptr;
  }
  load.samples = sampler.samples();
  load.clientCpuS = runner.clientThreadCpuS();
  load.durationS = runner.durationS();
  load.origin = runner.origin();
  load.conduct = {runner.realtimeGranted(), runner.lateDispatches()};

  std::lock_guard lock(recordsMutex);
  if (const std::optional<ProcessExit> death = sampler.engineDeath(); death && !load.error) {
    const auto finished = std::count_if(load.records.begin(), load.records.end(),
                                        [](const RequestRecord& record) { return record.success; });
    load.error = std::make_exception_ptr(engineDiedError(
        *target.launcher, *death, finished, static_cast<long long>(target.built.requests.size())));
  }
  return load;
}

}  // namespace ayar
