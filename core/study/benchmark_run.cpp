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
#include "core/study/request_builder.h"
#include "core/study/server_metrics.h"
#include "core/study/study_report.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar {
namespace {

constexpr const char* kCancelledError = "cancelled";

nlohmann::json lateDispatchesJson(const LateDispatches& late) {
  const auto cause = [](const LateDispatches::Cause& c) {
    return nlohmann::json{{"count", c.count}, {"total_ms", c.totalMs}, {"max_ms", c.maxMs}};
  };
  return {{"threshold_ms", LateDispatches::kLateDispatchS * 1e3},
          {"woke_late", cause(late.wokeLate)},
          {"reading_sockets", cause(late.readingSockets)},
          {"off_cpu", cause(late.offCpu)},
          {"handing_over", cause(late.handingOver)},
          {"dispatching", cause(late.dispatching)},
          {"voluntary_switches", late.voluntarySwitches},
          {"involuntary_switches", late.involuntarySwitches}};
}

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

using StageFunction = std::function<void(const Message&)>;

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

constexpr auto kTokenizeTimeout = std::chrono::seconds(30);
constexpr auto kEngineWatchInterval = std::chrono::milliseconds(100);

// The server's /tokenize of `prompt` (vLLM's API); none when the server has no such route.
std::optional<std::vector<nlohmann::json>> serverTokens(const std::string& baseUrl, const std::string& model,
                                                        const std::string& prompt,
                                                        const std::string& apiKey) {
  const nlohmann::json request = {{"model", model}, {"prompt", prompt}, {"add_special_tokens", false}};
  const HttpProbe probe = httpPost(baseUrl + "/tokenize", request.dump(), kTokenizeTimeout, apiKey);
  if (probe.status != 200) return std::nullopt;
  try {
    const auto json = nlohmann::json::parse(probe.body);
    if (!json.contains("tokens") || !json["tokens"].is_array()) return std::nullopt;
    return json["tokens"].get<std::vector<nlohmann::json>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// Without a tokenizer for a remote server, Ayar counts with Qwen3's. vLLM checks its prompts against
// the server's /tokenize for its random and prefix-repetition sets; Ayar does the same: when the
// server counts the first prompt otherwise, every prompt the server finds longer is cut to its
// length and turned back into text with /detokenize. Without /tokenize, the output says how the
// lengths were counted and how to give the right tokenizer.
void alignPromptsWithServer(BuiltRequests& built, const std::string& baseUrl, const std::string& model,
                            const std::string& apiKey, const StageFunction& stage) {
  if (built.requests.empty()) return;
  LoadRequest& first = built.requests.front();
  const auto firstTokens = serverTokens(baseUrl, model, first.prompt, apiKey);
  if (!firstTokens) {
    stage({MessageText::StageWarning,
           {Message{MessageText::StageNoTokenize, {redactUrlCredentials(baseUrl)}}.asArgument()}});
    return;
  }
  if (firstTokens->size() == static_cast<std::size_t>(first.promptTokens)) {
    stage({MessageText::StageTokenizeAgrees, {}});
    return;
  }
  const std::vector<MessageArgument> counts{std::to_string(firstTokens->size()),
                                            std::to_string(first.promptTokens)};
  if (built.datasetName != "random" && built.datasetName != "prefix-repetition") {
    stage({MessageText::StageWarning, {Message{MessageText::StageTokenizeDiffersKept, counts}.asArgument()}});
    return;
  }
  stage({MessageText::StageTokenizeDiffersCut, counts});
  int cut = 0;
  for (LoadRequest& request : built.requests) {
    const auto tokens = serverTokens(baseUrl, model, request.prompt, apiKey);
    if (!tokens || tokens->size() <= static_cast<std::size_t>(request.promptTokens)) continue;
    const nlohmann::json kept =
        std::vector<nlohmann::json>(tokens->begin(), tokens->begin() + request.promptTokens);
    const HttpProbe probe =
        httpPost(baseUrl + "/detokenize", nlohmann::json{{"model", model}, {"tokens", kept}}.dump(),
                 kTokenizeTimeout, apiKey);
    if (probe.status != 200) continue;
    try {
      request.prompt = nlohmann::json::parse(probe.body).at("prompt").get<std::string>();
      ++cut;
    } catch (const nlohmann::json::exception&) {
    }
  }
  stage({MessageText::StagePromptsCut, {std::to_string(cut), std::to_string(built.requests.size())}});
}

// vLLM's --profile: the server's profiler is switched on before the run and off after it.
void postProfilerSwitch(const std::string& url, const std::string& apiKey, const StageFunction& stage) {
  const HttpProbe probe = httpPost(url, "{}", std::chrono::seconds(60), apiKey);
  if (probe.status == 200) {
    stage({MessageText::StageProfilerDone, {redactUrlCredentials(url)}});
  } else {
    const Message failed{
        MessageText::StageProfilerFailed,
        {redactUrlCredentials(url), probe.status ? "HTTP " + std::to_string(probe.status) : probe.error}};
    stage({MessageText::StageWarning, {failed.asArgument()}});
  }
}

// Python's datetime.isoformat() for a local time: 2026-12-02T10:11:12.123456 (no fraction when it is 0).
std::string isoLocalTime(std::chrono::system_clock::time_point when) {
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(when.time_since_epoch()).count() % 1000000;
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm local{};
  localtime_r(&t, &local);
  char text[48];
  std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
  if (micros != 0) {
    n += static_cast<std::size_t>(
        std::snprintf(text + n, sizeof text - n, ".%06lld", static_cast<long long>(micros)));
  }
  return std::string(text, n);
}

// vLLM's rps_change_events for a ramp-up: the start rate at the start, then each whole rate the ramp
// passes, stamped when the request that reached it was sent.
nlohmann::json rpsChangeEvents(const ArrivalSchedule& schedule, std::span<const RequestRecord> records,
                               std::chrono::system_clock::time_point wallOrigin) {
  const std::vector<double>& rates = schedule.requestRates();
  nlohmann::json events = nlohmann::json::array();
  if (rates.empty()) return events;
  const auto at = [&](double seconds) {
    return wallOrigin + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                            std::chrono::duration<double>(seconds));
  };
  std::vector<double> sentAt(schedule.offsetsS());
  for (const RequestRecord& record : records) {
    if (record.index >= 0 && static_cast<std::size_t>(record.index) < sentAt.size())
      sentAt[static_cast<std::size_t>(record.index)] = record.startS;
  }
  auto last = static_cast<long long>(rates.front());
  events.push_back({{"rps", last}, {"timestamp", isoLocalTime(wallOrigin)}});
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const auto current = static_cast<long long>(rates[i]);
    for (long long rps = last + 1; rps <= current; ++rps)
      events.push_back({{"rps", rps}, {"timestamp", isoLocalTime(at(sentAt[i]))}});
    last = std::max(last, current);
  }
  return events;
}

// What the server says of the models it serves (GET /v1/models), asked once a run: the model to
// ask for when none is given, whether it is simulated, and each model's context length.
struct ServedModels {
  HttpProbe probe;
  nlohmann::json data = nlohmann::json::array();  // the "data" list, when the answer had one

  static ServedModels ask(const std::string& baseUrl, const std::string& apiKey) {
    ServedModels models{httpGet(baseUrl + "/v1/models", std::chrono::seconds(10), apiKey)};
    if (models.probe.status != 200) return models;
    try {
      const auto json = nlohmann::json::parse(models.probe.body);
      const auto data = json.find("data");
      if (data != json.end() && data->is_array()) models.data = *data;
    } catch (const std::exception&) {
    }
    return models;
  }

  // The model id the server lists first (what vLLM's client does when no model is given).
  std::string first(const std::string& baseUrl) const {
    if (probe.status != 200) {
      throw MessageError({MessageText::RunModelsUnanswered,
                          {redactUrlCredentials(baseUrl),
                           probe.status ? "HTTP " + std::to_string(probe.status) : probe.error}});
    }
    if (data.empty() || !data.front().is_object() || !data.front().contains("id") ||
        !data.front().at("id").is_string())
      throw MessageError({MessageText::RunModelsEmpty, {redactUrlCredentials(baseUrl)}});
    return data.front().at("id").get<std::string>();
  }

  // The context length the server gives `model` (vLLM's `max_model_len`); none when it does not say.
  std::optional<std::int64_t> contextLength(const std::string& model) const {
    for (const auto& entry : data) {
      if (!entry.is_object() || entry.value("id", std::string()) != model) continue;
      const auto found = entry.find("max_model_len");
      if (found != entry.end() && found->is_number_integer() && found->get<std::int64_t>() > 0)
        return found->get<std::int64_t>();
    }
    return std::nullopt;
  }

  // True when the server says what it serves is simulated (the bundled engine's sim backend).
  bool simulated() const {
    for (const auto& model : data) {
      if (!model.is_object()) continue;
      if (model.value("simulated", false)) return true;
      const auto owner = model.find("owned_by");
      if (owner != model.end() && owner->is_string() && owner->get<std::string>() == "ayar-sim") return true;
    }
    return false;
  }
};

// The fields that set a request's length, to name in an error.
std::string lengthFields(const ProfileSpec& profile) {
  if (profile.datasetName == "random") return "--random-input-len / --random-output-len";
  if (profile.datasetName == "prefix-repetition")
    return "--prefix-repetition-prefix-len / --prefix-repetition-suffix-len / --prefix-repetition-output-len";
  return "--sharegpt-output-len";
}

// Refuses a run whose longest request the server cannot take, before any is sent: each would fail
// alone, and the run would measure errors.
void checkContext(const BuiltRequests& built, const ProfileSpec& profile, const ServedModels& models,
                  const std::string& model) {
  const std::optional<std::int64_t> context = models.contextLength(model);
  if (!context || built.requests.empty()) return;
  const auto longest = std::max_element(built.requests.begin(), built.requests.end(),
                                        [](const LoadRequest& a, const LoadRequest& b) {
                                          return std::int64_t{a.promptTokens} + a.expectedOutputTokens <
                                                 std::int64_t{b.promptTokens} + b.expectedOutputTokens;
                                        });
  if (std::int64_t{longest->promptTokens} + longest->expectedOutputTokens <= *context) return;
  throw MessageError({MessageText::RunBeyondContext,
                      {countArgument(longest->promptTokens), countArgument(longest->expectedOutputTokens),
                       model, countArgument(*context), lengthFields(profile)}});
}

std::string formatRate(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", rate);
  return text;
}

// A rate as a load's label writes it, in each language: "2.5" and "2,5".
MessageArgument rateArgument(double rate) {
  std::string english = formatRate(rate), turkish = english;
  for (char& c : turkish) {
    if (c == '.') c = ',';
  }
  return {english, turkish};
}

struct LoadPlan {
  LoadPlan(Message label_, ArrivalSchedule schedule_, double requestRate_)
      : label(std::move(label_)),
        title(label.in(ReportLanguage::English)),
        schedule(std::move(schedule_)),
        requestRate(requestRate_) {}
  Message label;
  std::string title;  // the label in English, as the store and the result file keep it
  ArrivalSchedule schedule;
  double requestRate;  // for the result file: inf when all at once
};

// The set-up part of a load test's result file, as vLLM writes it (rps_change_events aside, which
// need the run's records).
ResultSetup resultSetup(const RunSpec& spec, const RunInfo& info, const LoadPlan& plan, std::size_t requests,
                        std::optional<int> maxConcurrency, const nlohmann::json& metadata) {
  const ProfileSpec& profile = spec.profile;
  ResultSetup setup;
  setup.backend = info.backend;
  setup.label = spec.label.empty() ? std::nullopt : std::optional<std::string>(spec.label);
  setup.modelId = info.servedModelName;
  setup.tokenizerId = info.tokenizer;
  setup.numPrompts = static_cast<int>(requests);
  setup.requestRate = plan.requestRate;
  setup.burstiness = profile.burstiness;
  setup.maxConcurrency = maxConcurrency;
  setup.metadata = metadata;
  if (!profile.rampUpStrategy.empty() && profile.loadMode == LoadMode::Rate) {
    setup.rampUpStrategy = profile.rampUpStrategy;
    setup.rampUpStartRps = profile.rampUpStartRps;
    setup.rampUpEndRps = profile.rampUpEndRps;
  }
  return setup;
}

// Ayar's own object in a result file: how the run was set up and measured (engine, profile, dataset,
// simulated or not, the client's cost and late dispatches, the samples taken).
nlohmann::json ayarObject(const RunInfo& info, const BuiltRequests& built, const RunOutcome& outcome,
                          const LoadRunner& runner, const std::vector<Sample>& samples) {
  std::size_t chunks = 0;
  for (const auto& record : outcome.records)
    chunks += record.chunkTimesS.size();
  nlohmann::json samplesJson = nlohmann::json::object();
  for (const auto& sample : samples)
    samplesJson[sample.name].push_back({sample.tS, sample.value});
  return {
      {"engine", info.engine},
      {"profile", info.profile},
      {"dataset", {{"name", built.datasetName}, {"synthetic", built.synthetic}, {"note", built.note}}},
      {"simulated", outcome.facts.simulated},
      {"load", outcome.title},
      {"cancelled", outcome.cancelled},
      {"cancelled_in_flight", outcome.cancelledInFlight},
      {"client",
       {{"cpu_s", outcome.clientCpuS},
        {"realtime", runner.realtimeGranted()},
        {"chunks", chunks},
        {"cpu_s_per_1000_chunks", chunks ? outcome.clientCpuS * 1000.0 / static_cast<double>(chunks) : 0.0},
        {"late_dispatches", lateDispatchesJson(runner.lateDispatches())}}},
      {"samples", samplesJson},
  };
}

// Once a second while a load test runs: the client's counts and, where the server has /metrics, its
// queue and KV cache, stored and handed to the observer as they are taken. With an engine to watch,
// it also looks every 100 ms whether the engine still runs; one that died is noted (`engineDied` set
// first, so the records cut short say why) and the load stopped. Owns its thread: stop() joins it.
class RunSampler {
 public:
  RunSampler(LoadRunner& runner, EngineLauncher* watched, std::atomic<bool>& engineDied, std::string baseUrl,
             std::string apiKey, RunWriter* writer, const RunObserver& observer)
      : m_runner(runner),
        m_watched(watched),
        m_engineDied(engineDied),
        m_baseUrl(std::move(baseUrl)),
        m_apiKey(std::move(apiKey)),
        m_writer(writer),
        m_observer(observer),
        m_thread([this] { loop(); }) {}
  ~RunSampler() { stop(); }
  RunSampler(const RunSampler&) = delete;
  RunSampler& operator=(const RunSampler&) = delete;

  void stop() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }
  // After stop(): every sample taken, and how the watched engine ended if it died.
  const std::vector<Sample>& samples() const { return m_samples; }
  std::optional<ProcessExit> engineDeath() const { return m_engineDeath; }

 private:
  void loop() {
    bool serverMetrics = true;
    std::unique_lock lock(m_mutex);
    for (int tick = 1; !m_stop; ++tick) {
      const auto due = m_runner.origin() + std::chrono::seconds(tick);
      // Woken every 100 ms to look at the engine, once a second to sample.
      for (;;) {
        const auto wake =
            m_watched ? std::min(due, std::chrono::steady_clock::now() + kEngineWatchInterval) : due;
        if (m_wake.wait_until(lock, wake, [&] { return m_stop; })) break;
        if (m_watched && !m_engineDeath && !m_watched->isRunning()) {
          const Process* process = m_watched->process();
          m_engineDeath = process && process->exitStatus() ? *process->exitStatus() : ProcessExit{};
          m_engineDied = true;
          m_runner.cancel();
        }
        if (std::chrono::steady_clock::now() >= due) break;
      }
      if (m_stop) break;
      lock.unlock();
      std::vector<Sample> batch = take(serverMetrics);
      lock.lock();
      m_samples.insert(m_samples.end(), batch.begin(), batch.end());
    }
  }

  std::vector<Sample> take(bool& serverMetrics) {
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_runner.origin()).count();
    const LoadProgress p = m_runner.progress();
    std::vector<Sample> batch{{t, "client.sent", static_cast<double>(p.sent)},
                              {t, "client.in_flight", static_cast<double>(p.inFlight)},
                              {t, "client.completed", static_cast<double>(p.completed)},
                              {t, "client.failed", static_cast<double>(p.failed)}};
    if (serverMetrics) {
      const HttpProbe probe = httpGet(m_baseUrl + "/metrics", std::chrono::milliseconds(500), m_apiKey);
      if (probe.status == 200) {
        for (const auto& [name, value] : parseServerMetrics(probe.body).values)
          batch.push_back({t, name, value});
      } else if (probe.status == 404 || probe.status == 401) {
        serverMetrics = false;  // not exposed: do not ask every second
      }
    }
    if (m_observer.extraSamples) {
      auto extra = m_observer.extraSamples(t);
      batch.insert(batch.end(), extra.begin(), extra.end());
    }
    if (m_writer) m_writer->addSamples(batch);
    if (m_observer.onSamples) m_observer.onSamples(batch);
    return batch;
  }

  LoadRunner& m_runner;
  EngineLauncher* m_watched;
  std::atomic<bool>& m_engineDied;
  const std::string m_baseUrl;
  const std::string m_apiKey;
  RunWriter* m_writer;
  const RunObserver& m_observer;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::vector<Sample> m_samples;
  std::optional<ProcessExit> m_engineDeath;
  std::thread m_thread;  // last: started once every member above is ready
};

// What to run: one load test, or a sweep's first two (its rates follow from them: sweepPlans).
std::vector<LoadPlan> loadPlans(const ProfileSpec& profile, std::size_t count) {
  std::vector<LoadPlan> plans;
  switch (profile.loadMode) {
    case LoadMode::Rate:
      if (!profile.rampUpStrategy.empty()) {
        plans.emplace_back(Message{MessageText::LoadRampUp,
                                   {profile.rampUpStrategy, std::to_string(profile.rampUpStartRps),
                                    std::to_string(profile.rampUpEndRps)}},
                           ArrivalSchedule::rampUp(count, profile.rampUpStrategy, profile.rampUpStartRps,
                                                   profile.rampUpEndRps, profile.burstiness, profile.seed),
                           ProfileSpec::kInfinity);
        break;
      }
      plans.emplace_back(
          std::isinf(profile.requestRate)
              ? Message{MessageText::LoadAllAtOnce, {}}
              : Message{MessageText::LoadRate, {rateArgument(profile.requestRate)}},
          ArrivalSchedule::atRate(count, profile.requestRate, profile.burstiness, profile.seed),
          profile.requestRate);
      break;
    case LoadMode::Concurrent:
      plans.emplace_back(Message{MessageText::LoadConcurrent, {std::to_string(profile.concurrency)}},
                         ArrivalSchedule::concurrent(count, profile.concurrency), ProfileSpec::kInfinity);
      break;
    case LoadMode::Throughput:
      plans.emplace_back(Message{MessageText::LoadThroughput, {}}, ArrivalSchedule::throughput(count),
                         ProfileSpec::kInfinity);
      break;
    case LoadMode::Sweep:
      plans.emplace_back(Message{MessageText::LoadSynchronous, {}}, ArrivalSchedule::concurrent(count, 1),
                         ProfileSpec::kInfinity);
      plans.emplace_back(Message{MessageText::LoadThroughput, {}}, ArrivalSchedule::throughput(count),
                         ProfileSpec::kInfinity);
      break;
  }

  return plans;
}

// A sweep's rates, once its synchronous and throughput runs have shown the range.
std::vector<LoadPlan> sweepPlans(const ProfileSpec& profile, std::size_t count, double low, double high) {
  std::vector<LoadPlan> plans;
  for (double rate : sweepRates(low, high, profile.sweepPoints))
    plans.emplace_back(Message{MessageText::LoadRate, {rateArgument(rate)}},
                       ArrivalSchedule::constantRate(count, rate), rate);
  return plans;
}

}  // namespace

namespace {

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

std::vector<RunOutcome> BenchmarkRun::runStages() {
  const RunSpec& spec = m_spec;
  const ProfileSpec& profile = spec.profile;
  const auto stage = [this](const Message& message) { this->stage(message); };

  const auto [backend, endpoint] = requestApi(spec);
  const ApiKind api = parseBackendName(backend);

  stage({MessageText::StageLoadingTokenizer, {}});
  const RunTokenizer tokenizerSource = loadRunTokenizer(spec);
  const std::shared_ptr<const Tokenizer>& tokenizer = tokenizerSource.tokenizer;

  stage({MessageText::StageBuildingDataset,
         {MessageArgument(describeProfile(profile, ReportLanguage::English),
                          describeProfile(profile, ReportLanguage::Turkish))}});
  BuiltRequests built = buildRequests(profile, tokenizer);
  {
    std::lock_guard lock(m_state->mutex);
    m_state->datasetNote = built.note;
  }
  if (!built.noteText.empty()) stage(built.noteText);
  if (m_cancelled) return {};

  // The engine: started here for bundled and external specs, checked for remote ones.
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
  EngineSpec engineSpec = spec.engine;
  const bool engineHasTokenizer =
      std::any_of(engineSpec.flags.begin(), engineSpec.flags.end(),
                  [](const EngineFlag& flag) { return flag.name == "--tokenizer"; });
  if (engineSpec.kind == EngineKind::Bundled && !spec.tokenizer.empty() && !engineHasTokenizer) {
    engineSpec.flags.push_back(
        EngineFlag::option("--tokenizer", std::filesystem::absolute(spec.tokenizer).string()));
  }
  std::optional<EngineLauncher> ownLauncher;
  if (!spec.startedEngine) ownLauncher.emplace(engineSpec, catalogue, launchOptions);
  EngineLauncher& launcher = spec.startedEngine ? *spec.startedEngine : *ownLauncher;
  if (spec.startedEngine) engineSpec = launcher.spec();
  for (const auto& warning : launcher.flagWarnings())
    stage({MessageText::StageWarning, {warning.text.asArgument()}});
  {
    std::lock_guard lock(m_state->mutex);
    m_state->launcher = &launcher;
  }
  struct LauncherReset {
    State& state;
    ~LauncherReset() {
      std::lock_guard lock(state.mutex);
      state.launcher = nullptr;
    }
  } launcherReset{*m_state};
  if (spec.startedEngine) {
    stage({MessageText::StageUsingEngine, {redactUrlCredentials(launcher.baseUrl())}});
  } else if (spec.engine.kind == EngineKind::Remote) {
    stage({MessageText::StageChecking, {redactUrlCredentials(spec.engine.normalizedBaseUrl())}});
  } else {
    stage({MessageText::StageStarting, {launcher.engineTemplate().displayName, spec.engine.model}});
  }
  if (!spec.startedEngine) launcher.start();
  if (spec.engine.kind != EngineKind::Remote && !spec.startedEngine) {
    stage({MessageText::StageEngineReady,
           {redactUrlCredentials(launcher.baseUrl()), launcher.displayCommand()}});
  }
  const std::string baseUrl = launcher.baseUrl();
  // A key in the URL's userinfo ("http://user:KEY@host") is sent, never shown or stored.
  const std::string shownUrl = redactUrlCredentials(baseUrl);
  // --metadata entries are labels written into the result; one named like a secret is kept
  // redacted, as --extra-body's are.
  const auto metadata = redactSecretValues(spec.metadata);
  const std::string apiKey = spec.engine.resolveApiKey();
  std::string requestModel = spec.requestModel;
  if (requestModel.empty()) requestModel = spec.engine.servedModelName;
  if (requestModel.empty()) requestModel = spec.engine.model;
  const ServedModels served = ServedModels::ask(baseUrl, apiKey);
  if (requestModel.empty()) requestModel = served.first(baseUrl);
  const bool simulated = served.simulated();
  if (simulated) stage({MessageText::StageSimulated, {}});

  if (tokenizerSource.fallback && spec.engine.kind == EngineKind::Remote) {
    alignPromptsWithServer(built, baseUrl, requestModel, apiKey, stage);
  }
  checkContext(built, profile, served, requestModel);

  LoadRunnerConfig baseConfig;
  baseConfig.baseUrl = baseUrl;
  baseConfig.endpointPath = endpoint;
  baseConfig.body.api = api;
  baseConfig.body.model = requestModel;
  baseConfig.body.logprobs = spec.logprobs;
  baseConfig.body.ignoreEos = profile.ignoreEos || built.forcesIgnoreEos;
  if (built.forcesIgnoreEos && !profile.ignoreEos) {
    stage({MessageText::StageIgnoreEosForced, {}});
  }
  baseConfig.body.extraBody = samplingParameters(profile);
  if (!profile.temperature && !spec.extraBody.contains("temperature")) {
    stage({MessageText::StageGreedy, {}});
  }
  for (const auto& [key, value] : spec.extraBody.items())
    baseConfig.body.extraBody[key] = value;
  baseConfig.apiKey = apiKey;
  baseConfig.headers = spec.headers;
  baseConfig.maxConcurrency = profile.maxConcurrency.value_or(0);
  baseConfig.requestTimeoutS = spec.requestTimeoutS;
  baseConfig.realtimeClient = spec.realtimeClient;
  baseConfig.countTokens = [tokenizer](std::string_view text) {
    return static_cast<int>(tokenizer->encode(text).size());
  };

  readyCheck(baseConfig, built, shownUrl);
  baseConfig.requestIdPrefix = spec.requestIdPrefix;
  if (spec.serverProfiler) postProfilerSwitch(baseUrl + "/start_profile", apiKey, stage);

  // What to run: one load test, or a sweep's several.
  const std::size_t count = built.requests.size();
  std::vector<LoadPlan> plans = loadPlans(profile, count);

  std::vector<RunOutcome> outcomes;
  for (std::size_t planIndex = 0; planIndex < plans.size() && !m_cancelled; ++planIndex) {
    const LoadPlan plan = plans[planIndex];  // a copy: a sweep appends to plans below
    stage({MessageText::StageRunning, {plan.label.asArgument(), std::to_string(count), shownUrl + endpoint}});

    RunInfo info;
    RunSpec started = spec;  // as it ran: a study's engine session may have set its engine spec
    started.engine = engineSpec;
    writeRunSetup(started, info);
    info.backend = backend;
    info.baseUrl = shownUrl;
    info.endpoint = endpoint;
    if (info.model.empty()) info.model = requestModel;
    info.servedModelName = requestModel;
    info.tokenizer = tokenizer->sourcePath().string();
    info.dataset = built.datasetName;
    info.engine["command"] = launcher.displayCommand();
    info.engine["simulated"] = simulated;
    if (!launcher.logPath().empty()) info.engine["log"] = launcher.logPath().string();
    info.config = {{"load", plan.title},
                   {"extra_body", spec.extraBody},
                   {"request_timeout_s", spec.requestTimeoutS},
                   {"metadata", metadata},
                   {"percentiles", spec.summary.percentiles}};
    std::unique_ptr<RunWriter> writer;
    if (!spec.storePath.empty()) {
      writer = std::make_unique<RunWriter>(spec.storePath, info);
      m_state->stored = true;
    }

    std::mutex recordsMutex;
    std::vector<RequestRecord> records;
    records.reserve(count);

    std::atomic<bool> engineDied{false};  // set before the runner is stopped for it
    LoadRunnerConfig config = baseConfig;
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
        records.push_back(std::move(record));
    };

    LoadRunner runner(config);
    runner.start(built.requests, plan.schedule);
    const auto wallOrigin =
        std::chrono::system_clock::now() - std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                               std::chrono::steady_clock::now() - runner.origin());
    if (spec.realtimeClient && !runner.realtimeGranted()) {
      stage({MessageText::StageWarning, {Message{MessageText::StageNoRealtime, {}}.asArgument()}});
    }
    {
      std::lock_guard lock(m_state->mutex);
      m_state->runner = &runner;
    }
    if (m_cancelled) runner.cancel();

    // An engine Ayar started that dies mid-run ends the run there: the rest of the schedule would
    // only meet refused connections, and the run would read as a server that fails requests.
    RunSampler sampler(runner, spec.engine.kind != EngineKind::Remote ? &launcher : nullptr, engineDied,
                       baseUrl, apiKey, writer.get(), m_observer);

    std::exception_ptr loadError;
    try {
      runner.wait();
    } catch (...) {
      loadError = std::current_exception();
    }
    sampler.stop();
    const std::optional<ProcessExit> engineDeath = sampler.engineDeath();
    const std::vector<Sample>& samples = sampler.samples();
    {
      std::lock_guard lock(m_state->mutex);
      m_state->runner = nullptr;
    }

    if (engineDeath && !loadError) {
      std::size_t finished = 0;
      {
        std::lock_guard lock(recordsMutex);
        for (const RequestRecord& record : records)
          finished += record.success ? 1 : 0;
      }
      const std::string log = launcher.logPath().empty() ? std::string("-") : launcher.logPath().string();
      loadError = std::make_exception_ptr(MessageError(
          {MessageText::RunEngineDied,
           {launcher.engineTemplate().displayName,
            engineDeath->signal || engineDeath->exitCode >= 0 ? engineDeath->describe()
                                                              : std::string("its exit status was lost"),
            countArgument(static_cast<long long>(finished)), countArgument(static_cast<long long>(count)),
            log}}));
    }

    RunOutcome outcome;
    outcome.title = plan.title;
    outcome.requestRate = plan.requestRate;
    outcome.clientCpuS = runner.clientThreadCpuS();
    outcome.origin = runner.origin();
    outcome.cancelled = m_cancelled.load();
    outcome.facts.simulated = simulated;
    outcome.facts.syntheticDataset = built.synthetic;
    {
      std::lock_guard lock(recordsMutex);
      outcome.records = std::move(records);
    }
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
    summaryOptions.maxConcurrency = profile.maxConcurrency;
    if (!loadError) summaryOptions.durationS = runner.durationS();
    if (plan.schedule.mode() == ArrivalSchedule::Mode::ClosedLoop) {
      summaryOptions.maxConcurrency = plan.schedule.closedLoopStreams();
    }
    outcome.summary = computeRunSummary(outcome.records, summaryOptions);

    ResultSetup setup = resultSetup(spec, info, plan, count, summaryOptions.maxConcurrency, metadata);
    if (!profile.rampUpStrategy.empty() && profile.loadMode == LoadMode::Rate)
      setup.rpsChangeEvents = rpsChangeEvents(plan.schedule, outcome.records, wallOrigin);

    const nlohmann::json ayarJson = ayarObject(info, built, outcome, runner, samples);
    outcome.result = resultJson(setup, outcome.summary, outcome.records, /*detailed=*/true, ayarJson);

    if (writer) {
      const RunStatus status = outcome.cancelled ? RunStatus::Cancelled
                               : loadError || (outcome.summary.completed == 0 && count > 0)
                                   ? RunStatus::Failed
                                   : RunStatus::Completed;
      nlohmann::json summaryJson = resultJson(setup, outcome.summary, {}, /*detailed=*/false, ayarJson);
      writer->finish(status, summaryJson, outcome.result);
      outcome.storeRunId = writer->runId();
      if (loadError) {
        try {
          std::rethrow_exception(loadError);
        } catch (const std::exception& e) {
          ResultStore(spec.storePath).setFailure(writer->runId(), errorArgument(e));
        }
      }
    }
    if (loadError) std::rethrow_exception(loadError);
    outcomes.push_back(std::move(outcome));

    // A sweep adds its rates once the synchronous and throughput runs have shown the range.
    if (profile.loadMode == LoadMode::Sweep && planIndex == 1) {
      for (LoadPlan& rate : sweepPlans(profile, count, outcomes[0].summary.requestThroughput,
                                       outcomes[1].summary.requestThroughput))
        plans.push_back(std::move(rate));
    }
  }

  if (spec.serverProfiler) postProfilerSwitch(baseUrl + "/stop_profile", apiKey, stage);
  if (!spec.startedEngine) {
    if (spec.engine.kind != EngineKind::Remote) stage({MessageText::StageStopping, {}});
    launcher.stop();
  }
  return outcomes;
}

}  // namespace ayar
