#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/engines/engine_launcher.h"
#include "core/store/run_types.h"
#include "core/study/benchmark_run.h"
#include "core/study/study_spec.h"

namespace ayar {

// What a started engine says about itself (GET /version, GET /v1/models), for the report's notes.
struct EngineFacts {
  std::string version;     // empty when the engine has no /version
  bool simulated = false;  // the bundled engine's sim backend
  std::string simProfile;  // its --sim-profile
  std::string device;      // the bundled engine's device
};

// One engine start for a study configuration: started once, checked for health, used by every
// profile of the configuration (warm-up requests go with each run and stay out of its figures),
// then stopped. Its log goes to `logPath`.
class EngineSession {
 public:
  // `tokenizer`: given to a bundled engine as --tokenizer when its flags have none, so that client
  // and server count alike.
  EngineSession(EngineSpec spec, std::filesystem::path logPath, std::filesystem::path bundledEngine = {},
                std::string tokenizer = {});
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // Starts the engine and waits for its health check. Throws ayar::Error (with the command and the
  // last log lines) when it does not start; the engine is stopped then.
  void start();
  void stop();
  // Thread-safe: gives up a start in progress.
  void cancel();

  EngineLauncher& launcher() { return *m_launcher; }
  const EngineFacts& facts() const { return m_facts; }
  const std::filesystem::path& logPath() const { return m_logPath; }

 private:
  std::filesystem::path m_logPath;
  std::unique_ptr<EngineLauncher> m_launcher;
  EngineFacts m_facts;
};

// The last `maxLines` lines of a text file ("" when it cannot be read).
std::string fileTail(const std::filesystem::path& path, std::size_t maxLines = 30);

// Callbacks of a study in progress; each may be empty. They run on the runner's threads.
struct StudyObserver {
  // A cell starts (status running) or ends (done, failed-to-start, failed). `total`: cells so far.
  std::function<void(const StudyCell& cell, int total)> onCellStarted;
  std::function<void(const StudyCell& cell, int total)> onCellFinished;
  // A line about what the study does ("starting the engine of baseline"), in any language.
  std::function<void(const Message& message)> onStage;
  // Passed to every cell's BenchmarkRun (its stages, records and engine log).
  RunObserver run;
};

struct StudyRunOptions {
  // The ayar-engine to run for bundled configurations; empty: beside this executable, else $PATH.
  std::filesystem::path bundledEngine;
};

// The recommended configuration of a study: the one with the best deciding figure over the option
// profiles (geometric mean of its speedups over the baseline, profile by profile); the baseline when
// no configuration beats it or a configuration lacks a figure.
struct StudyRecommendation {
  std::string configuration;
  double speedup = 1.0;  // over the baseline, above 1 when better
};

// A stored cell's run figure: the value of `figure` in the run's summary; none when it has none.
std::optional<double> storedFigure(const StoredRun& run, RunFigure figure);

// Runs a study stored in a results store, cell by cell in order: every configuration (its engine
// started once) on every option profile, then the baseline and the recommended configuration on the
// follow-up profiles. Each finished cell is written to the store at once, so a killed study resumes
// where it stopped: done cells are kept, the others run. A configuration whose engine does not start
// is recorded as failed-to-start with its log, and the study goes on.
class StudyRunner {
 public:
  // Stores a new study (its spec with every profile inline) and its option cells; returns its id.
  static std::int64_t create(const StudySpec& study, const std::filesystem::path& storePath);
  // The study's spec as stored. Throws ayar::Error naming the id when there is no such study.
  static StudySpec loadStored(const std::filesystem::path& storePath, std::int64_t studyId);
  static StudyRecommendation recommend(const StudySpec& study, const std::vector<StudyCell>& cells,
                                       const std::vector<StoredRun>& runs);

  StudyRunner(std::filesystem::path storePath, std::int64_t studyId, StudyRunOptions options = {},
              StudyObserver observer = {});
  ~StudyRunner();

  // Runs every cell not done yet; returns when all have run (or after cancel()). Throws ayar::Error
  // for a store that cannot be read or written.
  void run();
  // Thread-safe: stops the cell in progress soon; the study stays resumable.
  void cancel();
  // The cell in progress' load (zeros between cells).
  LoadProgress progress() const;

 private:
  void runConfiguration(const StudySpec& study, const StudyConfiguration& configuration,
                        std::vector<StudyCell>& cells, const std::vector<std::size_t>& todo, int total);

  std::filesystem::path m_storePath;
  std::int64_t m_studyId;
  StudyRunOptions m_options;
  StudyObserver m_observer;
  std::atomic<bool> m_cancelled{false};
  mutable std::mutex m_mutex;
  BenchmarkRun* m_current = nullptr;   // under m_mutex
  EngineSession* m_session = nullptr;  // under m_mutex
};

}  // namespace ayar
