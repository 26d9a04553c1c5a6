#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/load/load_runner.h"
#include "core/record/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/report/message_text.h"
#include "core/store/run_types.h"
#include "core/study/run_spec.h"

namespace ayar {

struct BuiltRequests;
struct LoadPlan;
class RunWriter;

// What one load test measured.
struct RunOutcome {
  std::string title;  // "rate 4 req/s", "synchronous", ... (sweeps run several)
  RunSummary summary;
  std::vector<RequestRecord> records;            // sorted by index; cancelled requests excluded
  std::chrono::steady_clock::time_point origin;  // the instant the records' startS and scheduledS count from
  nlohmann::ordered_json result;                 // the vLLM-compatible result (detailed)
  std::optional<std::int64_t> storeRunId;
  bool cancelled = false;     // stopped by cancel() before every request was sent
  int cancelledInFlight = 0;  // requests in flight when it was stopped (not in records)
  double requestRate = 0.0;   // the configured rate (inf for all at once)
  double clientCpuS = 0.0;    // CPU time of the client thread
  RunFacts facts;             // how it was measured: simulated server, synthetic dataset
};

// Callbacks a front end (CLI or GUI) gets while a run goes. Each may be empty. They run on the
// run's threads: keep them short and thread-safe.
struct RunObserver {
  // A step of the run: "starting ...", "building the dataset: ...", "running ...", to be said in the
  // reader's language.
  std::function<void(const Message& message)> onStage;
  // Finished records as they arrive (batches from the client thread).
  std::function<void(std::span<const RequestRecord> records)> onRecords;
  // A line of the engine's log, for live views.
  std::function<void(std::string_view line)> onEngineLog;
  // The samples taken once a second (client counts, server gauges from /metrics), as stored.
  std::function<void(std::span<const Sample> samples)> onSamples;
  // More samples to take at each tick and store with the run (a front end's GPU gauges); `tS` is the
  // tick's time from the run's origin. Runs on the sampler thread.
  std::function<std::vector<Sample>(double tS)> extraSamples;
};

// One benchmark from start to end: starts the engine when Ayar owns it, builds the dataset, computes
// the arrival schedule, runs the load (records committed to the store as they finish), samples the
// client's and, when the server exposes /metrics, the server's state once a second, summarises, and
// stops the engine. A sweep runs several load tests against one engine start.
class BenchmarkRun {
 public:
  BenchmarkRun(RunSpec spec, RunObserver observer = {});
  ~BenchmarkRun();
  BenchmarkRun(const BenchmarkRun&) = delete;
  BenchmarkRun& operator=(const BenchmarkRun&) = delete;

  // Blocks until done. Throws ayar::Error for bad input and for an engine that does not start; a run
  // whose requests fail still returns its outcome. After cancel(), returns what was measured. A run
  // with a store that fails before its first request (the engine does not start, the test request
  // fails) is kept there as failed, with the error and the engine log's path, before the throw.
  std::vector<RunOutcome> run();
  // Thread-safe: stops the engine start or the load soon; finished requests are kept.
  void cancel();
  bool cancelled() const { return m_cancelled.load(); }
  // The load test in progress (zeros before it starts).
  LoadProgress progress() const;
  // A line about the dataset ("synthetic ShareGPT-like: no ShareGPT file given"), once built.
  std::string datasetNote() const;
  const RunSpec& spec() const { return m_spec; }
  // The run run() kept as failed when it threw before its first request; nothing otherwise.
  std::optional<std::int64_t> failedRunId() const;

 private:
  struct State;
  struct Target;
  struct MeasuredLoad;
  // run()'s stages, in their order.
  std::vector<RunOutcome> runStages();
  void prepareRequests(Target& target);
  void openEngine(Target& target);
  void connect(Target& target);
  LoadRunnerConfig clientConfig(const Target& target) const;
  // The test request (again every 5 s while the ready check allows) and the warm-ups, before the load.
  void readyCheck(const LoadRunnerConfig& baseConfig, const BuiltRequests& built,
                  const std::string& shownUrl);
  RunOutcome runPlan(const LoadPlan& plan, const Target& target);
  RunInfo planInfo(const LoadPlan& plan, const Target& target) const;
  MeasuredLoad measure(const LoadPlan& plan, const Target& target, RunWriter* writer);
  void stage(const Message& message) const;
  void keepFailedStart(const MessageArgument& error);

  RunSpec m_spec;
  RunObserver m_observer;
  std::atomic<bool> m_cancelled{false};
  std::unique_ptr<State> m_state;
};

}  // namespace ayar
