#pragma once

#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/worker_mailbox.h"
#include "core/load/load_runner.h"
#include "core/record/request_record.h"
#include "core/store/run_types.h"
#include "core/study/benchmark_run.h"
#include "core/study/run_spec.h"

namespace ayar {

// Runs core's BenchmarkRun on a worker QThread and hands what it measures to the UI thread: finished
// records, samples and engine log lines are posted into a mailbox by the run's threads and taken
// by a 100 ms timer on the UI thread (WorkerThreads), which emits updated() at most ten times a second, and
// only when something arrived. Each run has a token; starting a new run cancels the old one and drops
// whatever it still delivers. stop() cancels the run and keeps what was measured (the store keeps it too).
class RunController : public QObject {
  Q_OBJECT

 public:
  static constexpr int kUpdateIntervalMs = WorkerThreads::kDrainIntervalMs;

  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // cancels a run still going and waits for its thread

  // Starts a run and returns its token (1, 2, ...).
  quint64 start(RunSpec spec);
  void stop();
  bool isRunning() const { return m_running; }
  quint64 currentRun() const { return m_workers.currentToken(); }

  // The current (or last) run's data on the UI thread: records in arrival order, samples by time.
  const std::vector<RequestRecord>& records() const { return m_records; }
  const std::vector<Sample>& samples() const { return m_samples; }
  // The run's counts; after it ended, the last counts it had.
  LoadProgress progress() const;
  // Seconds since the run started (frozen when it ends).
  double elapsedS() const;
  const RunSpec& spec() const { return m_spec; }
  // The outcome of the run that finished last (empty before, and after a failed run).
  const std::vector<RunOutcome>& outcomes() const { return m_outcomes; }
  // The last outcome's per-request values of each latency metric (kAllLatencyMetrics order), sorted
  // on the worker thread so that showing a large run's distributions does not stall the window.
  const std::vector<std::vector<double>>& sortedLatencyValues() const { return m_sortedValues; }
  // Gauges taken once a second on the sampler thread and stored with the run (GPU figures).
  void setExtraSampler(std::function<std::vector<Sample>(double)> sampler) {
    m_extraSampler = std::move(sampler);
  }

 signals:
  void started(quint64 run);
  void stageChanged(quint64 run, const QString& message);
  // New records or samples arrived; the first index in records() that is new.
  void updated(quint64 run, std::size_t firstNewRecord, std::size_t firstNewSample);
  void engineLog(quint64 run, const QStringList& lines);
  // The run ended: stored as `storeRunId` (-1 when not stored), `error` empty unless it failed.
  void finished(quint64 run, qint64 storeRunId, bool cancelled, const QString& error);

 private:
  struct Shared;
  struct Result;
  void drain();
  void onThreadFinished(const std::shared_ptr<Shared>& shared, Result result);

  bool m_running = false;
  RunSpec m_spec;
  std::shared_ptr<Shared> m_current;
  std::vector<RequestRecord> m_records;
  std::vector<Sample> m_samples;
  std::vector<RunOutcome> m_outcomes;
  std::vector<std::vector<double>> m_sortedValues;
  LoadProgress m_lastProgress;
  std::function<std::vector<Sample>(double)> m_extraSampler;
  // Last, so that it is destroyed first: it cancels a run still going and waits for its thread.
  WorkerThreads m_workers{[this] { drain(); }};
};

}  // namespace ayar
