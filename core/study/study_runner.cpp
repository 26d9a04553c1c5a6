#include "core/study/study_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "core/report/result_json.h"
#include "core/store/result_store.h"

namespace ayar {

namespace {

const char* const kOptionsPhase = "options";
const char* const kFollowUpPhase = "follow-up";

std::string safeFileName(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    out += plain ? c : '_';
  }
  return out;
}

const StudyConfiguration* findConfiguration(const std::vector<StudyConfiguration>& configurations,
                                            const std::string& name) {
  for (const StudyConfiguration& configuration : configurations) {
    if (configuration.name == name) return &configuration;
  }
  return nullptr;
}

const ProfileSpec* findProfile(const StudySpec& study, const StudyCell& cell) {
  const auto& list = cell.phase == kFollowUpPhase ? study.followUpProfiles : study.profiles;
  for (const ProfileSpec& profile : list) {
    if (profile.name == cell.profile) return &profile;
  }
  return nullptr;
}

// A variant that starts the engine exactly as the baseline does (its flags are the engine's defaults,
// or the baseline's own) would spend its cells measuring the baseline again: refused at creation,
// naming the variant, before hours of GPU time go into it.
void refuseVariantsThatChangeNothing(const StudySpec& study, const EngineCatalogue& catalogue) {
  const auto settings = [&](const EngineSpec& engine) -> std::optional<std::map<std::string, std::string>> {
    if (engine.kind == EngineKind::Remote) return std::nullopt;
    const EngineTemplate* found = catalogue.find(engine.engine);
    if (!found) return std::nullopt;
    return effectiveFlags(*found, engine.flags);
  };
  const std::vector<StudyConfiguration> configurations = study.configurations();
  const auto baseline = std::find_if(configurations.begin(), configurations.end(),
                                     [](const StudyConfiguration& c) { return c.baseline; });
  if (baseline == configurations.end()) return;
  const auto baseSettings = settings(baseline->engine);
  if (!baseSettings) return;
  for (const StudyConfiguration& variant : configurations) {
    if (variant.baseline) continue;
    EngineSpec a = variant.engine, b = baseline->engine;
    a.flags.clear();
    b.flags.clear();
    if (!(a == b)) continue;  // another engine, model or device
    if (settings(variant.engine) != baseSettings) continue;
    const std::string flags = flagListText(variant.engine.flags);
    throw MessageError({MessageText::StudyVariantSameAsBaseline,
                        {study.name, variant.name,
                         flags.empty() ? Message{MessageText::StudyNoFlags, {}}.asArgument() : flags}});
  }
}

// Beats the study's heartbeat in the store every two seconds while the runner works, so that a runner
// that died on another host (a shared store) is seen as such; stops with the runner.
class StudyHeartbeat {
 public:
  StudyHeartbeat(ResultStore& store, std::int64_t studyId)
      : m_thread([this, &store, studyId] {
          std::unique_lock lock(m_mutex);
          while (!m_wake.wait_for(lock, std::chrono::seconds(2), [this] { return m_stop; })) {
            lock.unlock();
            try {
              store.beatStudy(studyId);
            } catch (const Error&) {
              // A busy or read-only file: the next beat tries again.
            }
            lock.lock();
          }
        }) {}
  ~StudyHeartbeat() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }
  StudyHeartbeat(const StudyHeartbeat&) = delete;
  StudyHeartbeat& operator=(const StudyHeartbeat&) = delete;

 private:
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::thread m_thread;
};

}  // namespace

std::string fileTail(const std::filesystem::path& path, std::size_t maxLines) {
  std::ifstream in(path);
  if (!in) return {};
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (lines.size() > maxLines) lines.pop_front();
  }
  std::string out;
  for (const std::string& kept : lines)
    out += kept + "\n";
  return out;
}

EngineSession::EngineSession(EngineSpec spec, std::filesystem::path logPath,
                             std::filesystem::path bundledEngine, std::string tokenizer)
    : m_logPath(std::move(logPath)) {
  const bool hasTokenizer = std::any_of(spec.flags.begin(), spec.flags.end(),
                                        [](const EngineFlag& flag) { return flag.name == "--tokenizer"; });
  if (spec.kind == EngineKind::Bundled && !tokenizer.empty() && !hasTokenizer)
    spec.flags.push_back(EngineFlag::option("--tokenizer", std::filesystem::absolute(tokenizer).string()));
  LaunchOptions options;
  options.logPath = m_logPath;
  options.bundledEngine = std::move(bundledEngine);
  if (!m_logPath.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(m_logPath.parent_path(), ec);
  }
  m_launcher = std::make_unique<EngineLauncher>(std::move(spec), EngineCatalogue::loadDefault(), options);
}

EngineSession::~EngineSession() {
  stop();
}

void EngineSession::start() {
  m_launcher->start();
  m_logPath = m_launcher->logPath();
  const std::string apiKey = m_launcher->spec().resolveApiKey();
  const HttpProbe version = httpGet(m_launcher->baseUrl() + "/version", std::chrono::seconds(5), apiKey);
  if (version.status == 200) {
    const auto json = nlohmann::json::parse(version.body, nullptr, false);
    if (json.is_object() && json.contains("version") && json["version"].is_string())
      m_facts.version = json["version"].get<std::string>();
  }
  const HttpProbe models = httpGet(m_launcher->baseUrl() + "/v1/models", std::chrono::seconds(5), apiKey);
  if (models.status == 200) {
    const auto json = nlohmann::json::parse(models.body, nullptr, false);
    if (json.is_object() && json.contains("data") && json["data"].is_array() && !json["data"].empty()) {
      const auto& card = json["data"][0];
      m_facts.simulated = card.value("simulated", false) || card.value("owned_by", "") == "ayar-sim";
      if (card.contains("ayar") && card["ayar"].is_object()) {
        m_facts.device = card["ayar"].value("device", "");
        m_facts.simProfile = card["ayar"].value("sim_profile", "");
      }
    }
  }
}

void EngineSession::stop() {
  if (m_launcher) m_launcher->stop();
}

void EngineSession::cancel() {
  if (m_launcher) m_launcher->cancelStart();
}

std::optional<double> storedFigure(const StoredRun& run, RunFigure figure) {
  const std::string key(runFigureKey(figure));
  if (!run.summary.is_object() || !run.summary.contains(key) || !run.summary[key].is_number())
    return std::nullopt;
  return run.summary[key].get<double>();
}

std::int64_t StudyRunner::create(const StudySpec& study, const std::filesystem::path& storePath) {
  study.validate();
  refuseVariantsThatChangeNothing(study, EngineCatalogue::loadDefault());
  ResultStore store(storePath);
  const std::int64_t id = store.createStudy(study.name, studyToJson(study));
  std::vector<StudyCell> cells;
  for (const StudyConfiguration& configuration : study.configurations()) {
    for (const ProfileSpec& profile : study.profiles) {
      StudyCell cell;
      cell.index = static_cast<int>(cells.size());
      cell.configuration = configuration.name;
      cell.profile = profile.name;
      cell.phase = kOptionsPhase;
      cells.push_back(cell);
    }
  }
  store.addStudyCells(id, cells);
  return id;
}

StudySpec StudyRunner::loadStored(const std::filesystem::path& storePath, std::int64_t studyId) {
  ResultStore store(storePath);
  const auto stored = store.findStudy(studyId);
  if (!stored) {
    throw MessageError({MessageText::StudyNotInStore, {std::to_string(studyId), storePath.string()}});
  }
  return studyFromJson(stored->spec,
                       Message{MessageText::StudySourceStored, {std::to_string(studyId)}}.asArgument());
}

StudyRecommendation StudyRunner::recommend(const StudySpec& study, const std::vector<StudyCell>& cells,
                                           const std::vector<StoredRun>& runs) {
  std::map<std::int64_t, const StoredRun*> byId;
  for (const StoredRun& run : runs)
    byId[run.id] = &run;
  // (configuration, profile) -> the deciding figure of its done option cell.
  std::map<std::pair<std::string, std::string>, double> figures;
  for (const StudyCell& cell : cells) {
    if (cell.phase != kOptionsPhase || cell.status != CellStatus::Done || !cell.runId) continue;
    const auto run = byId.find(*cell.runId);
    if (run == byId.end()) continue;
    if (const auto value = storedFigure(*run->second, study.decidingFigure))
      figures[{cell.configuration, cell.profile}] = *value;
  }
  StudyRecommendation best{study.baselineName, 1.0};
  for (const StudyConfiguration& configuration : study.configurations()) {
    if (configuration.baseline) continue;
    double logSum = 0.0;
    bool complete = true;
    for (const ProfileSpec& profile : study.profiles) {
      const auto base = figures.find({study.baselineName, profile.name});
      const auto mine = figures.find({configuration.name, profile.name});
      std::optional<double> ratio;
      if (base != figures.end() && mine != figures.end())
        ratio = speedup(base->second, mine->second, runFigureBetter(study.decidingFigure));
      if (!ratio) {
        complete = false;
        break;
      }
      logSum += std::log(*ratio);
    }
    if (!complete) continue;
    const double score = std::exp(logSum / static_cast<double>(study.profiles.size()));
    if (score > best.speedup) best = {configuration.name, score};
  }
  return best;
}

StudyRunner::StudyRunner(std::filesystem::path storePath, std::int64_t studyId, StudyRunOptions options,
                         StudyObserver observer)
    : m_storePath(std::move(storePath)),
      m_studyId(studyId),
      m_options(std::move(options)),
      m_observer(std::move(observer)) {}

StudyRunner::~StudyRunner() = default;

void StudyRunner::cancel() {
  m_cancelled = true;
  std::lock_guard lock(m_mutex);
  if (m_current) m_current->cancel();
  if (m_session) m_session->cancel();
}

LoadProgress StudyRunner::progress() const {
  std::lock_guard lock(m_mutex);
  return m_current ? m_current->progress() : LoadProgress{};
}

void StudyRunner::run() {
  const StudySpec study = loadStored(m_storePath, m_studyId);
  const std::vector<StudyConfiguration> configurations = study.configurations();
  ResultStore store(m_storePath);
  store.setStudyStatus(m_studyId, RunStatus::Running);
  const StudyHeartbeat heartbeat(store, m_studyId);
  const auto stage = [&](const Message& message) {
    if (m_observer.onStage) m_observer.onStage(message);
  };

  // Two passes: the option cells, then (once the recommendation is known) the follow-up cells.
  for (int pass = 0; pass < 2 && !m_cancelled; ++pass) {
    std::vector<StudyCell> cells = store.listStudyCells(m_studyId);
    if (pass == 1) {
      if (study.followUpProfiles.empty()) break;
      RunFilter filter;
      filter.studyId = m_studyId;
      const StudyRecommendation recommendation = recommend(study, cells, store.listRuns(filter));
      stage({MessageText::StudyRecommended, {recommendation.configuration}});
      std::vector<std::string> names{study.baselineName};
      if (recommendation.configuration != study.baselineName) names.push_back(recommendation.configuration);
      std::vector<StudyCell> added;
      int next = cells.empty() ? 0 : cells.back().index + 1;
      for (const std::string& name : names) {
        for (const ProfileSpec& profile : study.followUpProfiles) {
          const bool exists = std::any_of(cells.begin(), cells.end(), [&](const StudyCell& cell) {
            return cell.phase == kFollowUpPhase && cell.configuration == name && cell.profile == profile.name;
          });
          if (exists) continue;
          StudyCell cell;
          cell.index = next++;
          cell.configuration = name;
          cell.profile = profile.name;
          cell.phase = kFollowUpPhase;
          added.push_back(cell);
        }
      }
      store.addStudyCells(m_studyId, added);
      cells = store.listStudyCells(m_studyId);
    }
    const int total = static_cast<int>(cells.size());
    // Consecutive cells of one configuration share an engine start.
    std::size_t i = 0;
    while (i < cells.size() && !m_cancelled) {
      const bool inPass = (pass == 0) == (cells[i].phase == kOptionsPhase);
      const bool todo = cells[i].status == CellStatus::Pending || cells[i].status == CellStatus::Running;
      if (!inPass || !todo) {
        ++i;
        continue;
      }
      std::vector<std::size_t> group;
      const std::string name = cells[i].configuration;
      while (i < cells.size() && cells[i].configuration == name &&
             ((pass == 0) == (cells[i].phase == kOptionsPhase))) {
        if (cells[i].status == CellStatus::Pending || cells[i].status == CellStatus::Running)
          group.push_back(i);
        ++i;
      }
      const StudyConfiguration* configuration = findConfiguration(configurations, name);
      if (!configuration) {
        throw MessageError({MessageText::StudyCellConfiguration,
                            {std::to_string(m_studyId), std::to_string(cells[group.front()].index), name}});
      }
      runConfiguration(study, *configuration, cells, group, total);
    }
  }
  if (m_cancelled) {
    store.setStudyStatus(m_studyId, RunStatus::Cancelled);
    return;
  }
  const auto cells = store.listStudyCells(m_studyId);
  const bool anyDone = std::any_of(cells.begin(), cells.end(),
                                   [](const StudyCell& cell) { return cell.status == CellStatus::Done; });
  store.setStudyStatus(m_studyId, anyDone ? RunStatus::Completed : RunStatus::Failed);
}

void StudyRunner::runConfiguration(const StudySpec& study, const StudyConfiguration& configuration,
                                   std::vector<StudyCell>& cells, const std::vector<std::size_t>& todo,
                                   int total) {
  ResultStore store(m_storePath);
  const auto stage = [&](const Message& message) {
    if (m_observer.onStage) m_observer.onStage(message);
  };
  const auto finishCell = [&](StudyCell& cell) {
    store.updateStudyCell(m_studyId, cell);
    if (m_observer.onCellFinished) m_observer.onCellFinished(cell, total);
  };
  const std::filesystem::path logPath =
      configuration.engine.kind == EngineKind::Remote
          ? std::filesystem::path()
          : m_storePath.parent_path() / "logs" /
                ("study-" + std::to_string(m_studyId) + "-" + safeFileName(configuration.name) + "-" +
                 formatResultDate(std::chrono::system_clock::now()) + "-" + std::to_string(::getpid()) +
                 ".log");

  std::unique_ptr<EngineSession> session;
  std::string startError;
  MessageArgument startErrorText(std::string{});  // the same, in each language
  try {
    session = std::make_unique<EngineSession>(configuration.engine, logPath, m_options.bundledEngine,
                                              study.tokenizer);
    {
      std::lock_guard lock(m_mutex);
      m_session = session.get();
    }
    stage({MessageText::StudyStartingEngine, {configuration.name}});
    if (!m_cancelled) session->start();
  } catch (const Error& error) {
    startError = error.what();
    startErrorText = {errorText(error, ReportLanguage::English), errorText(error, ReportLanguage::Turkish)};
  }
  {
    std::lock_guard lock(m_mutex);
    m_session = nullptr;
  }
  if (m_cancelled) return;
  if (!startError.empty()) {
    stage({MessageText::StudyEngineFailed, {configuration.name, startErrorText}});
    const std::string log = logPath.empty() ? std::string() : fileTail(logPath);
    for (std::size_t index : todo) {
      StudyCell& cell = cells[index];
      cell.status = CellStatus::FailedToStart;
      cell.error = startError;
      cell.engineLog = log;
      cell.runId.reset();
      finishCell(cell);
    }
    return;
  }
  stage({MessageText::StudyEngineReady, {configuration.name, session->launcher().displayCommand()}});

  for (std::size_t index : todo) {
    if (m_cancelled) break;
    StudyCell& cell = cells[index];
    const ProfileSpec* profile = findProfile(study, cell);
    if (!profile) {
      throw MessageError({MessageText::StudyCellProfile,
                          {std::to_string(m_studyId), std::to_string(cell.index), cell.profile}});
    }
    cell.status = CellStatus::Running;
    store.updateStudyCell(m_studyId, cell);
    if (m_observer.onCellStarted) m_observer.onCellStarted(cell, total);

    RunSpec spec;
    spec.engine = configuration.engine;
    spec.tokenizer = study.tokenizer;
    spec.profile = *profile;
    spec.summary.goodput = study.slo;
    spec.label = study.name + ": " + configuration.name + " @ " + profile->name;
    spec.numWarmups = study.warmupRequests;
    spec.storePath = m_storePath;
    spec.startedEngine = &session->launcher();
    spec.studyId = m_studyId;
    spec.metadata.emplace_back("study_configuration", configuration.name);
    spec.metadata.emplace_back("study_profile", profile->name);
    if (!session->facts().version.empty())
      spec.metadata.emplace_back("engine_version", session->facts().version);
    if (!session->facts().simProfile.empty())
      spec.metadata.emplace_back("sim_profile", session->facts().simProfile);
    BenchmarkRun run(spec, m_observer.run);
    {
      std::lock_guard lock(m_mutex);
      m_current = &run;
    }
    try {
      const std::vector<RunOutcome> outcomes = run.run();
      if (m_cancelled) {
        cell.status = CellStatus::Pending;
        cell.runId.reset();
        store.updateStudyCell(m_studyId, cell);
      } else if (outcomes.empty() || !outcomes.back().storeRunId) {
        cell.status = CellStatus::Failed;
        cell.error = "the run produced no result";
        finishCell(cell);
      } else {
        cell.runId = outcomes.back().storeRunId;
        cell.status = outcomes.back().summary.completed > 0 ? CellStatus::Done : CellStatus::Failed;
        if (cell.status == CellStatus::Failed) {
          cell.error = outcomes.back().summary.errors.empty()
                           ? std::string("every request failed")
                           : outcomes.back().summary.errors.front().message;
        }
        finishCell(cell);
      }
    } catch (const std::exception& error) {
      // Any failure of one cell (bad input, a dead engine, memory) is that cell's, with its reason;
      // the study goes on with the next.
      cell.status = m_cancelled ? CellStatus::Pending : CellStatus::Failed;
      cell.error = error.what();
      if (m_cancelled) {
        store.updateStudyCell(m_studyId, cell);
      } else {
        finishCell(cell);
      }
    }
    {
      std::lock_guard lock(m_mutex);
      m_current = nullptr;
    }
  }
  stage({MessageText::StudyStoppingEngine, {configuration.name}});
  session->stop();
}

}  // namespace ayar
