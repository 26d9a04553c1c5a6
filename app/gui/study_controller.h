#pragma once

#include <QObject>
#include <QStringList>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/gui/worker_mailbox.h"
#include "core/load/load_runner.h"
#include "core/study/study_runner.h"

namespace ayar {

// Runs core's StudyRunner on a worker QThread, as RunController does for one run: cell events, stage
// lines and engine log lines are posted into a mailbox by the runner's threads and taken by a 100 ms
// timer on the UI thread (WorkerThreads), which emits at most ten updates a second, and only when something
// changed. Each study run has a token; a replaced one's late events are dropped. stop() cancels: the cell in
// progress goes back to pending and every finished cell stays in the store, so the study resumes.
class StudyController : public QObject {
  Q_OBJECT

 public:
  static constexpr int kUpdateIntervalMs = WorkerThreads::kDrainIntervalMs;

  explicit StudyController(QObject* parent = nullptr);
  ~StudyController() override;  // cancels a study still going and waits for its thread

  // Runs (or resumes: done cells are kept) the stored study `studyId` of the store at `storePath`;
  // returns its token (1, 2, ...).
  quint64 start(const std::filesystem::path& storePath, std::int64_t studyId, StudyRunOptions options = {});
  void stop();
  bool isRunning() const { return m_running; }
  // The study going (or the last one).
  std::int64_t studyId() const { return m_studyId; }
  quint64 currentToken() const { return m_workers.currentToken(); }
  // The running cell's load (zeros between cells and after the end).
  LoadProgress progress() const;

 signals:
  void started(quint64 token, qint64 studyId);
  // Cells started or ended since the last update, in order.
  void cellsChanged(quint64 token, const std::vector<ayar::StudyCell>& cells);
  // The running cell's load changed.
  void progressChanged(quint64 token, const ayar::LoadProgress& progress);
  void stageChanged(quint64 token, const QString& message);
  void engineLog(quint64 token, const QStringList& lines);
  // The study stopped: every cell ran, or it was stopped (`cancelled`), or it failed (`error`).
  void finished(quint64 token, qint64 studyId, bool cancelled, const QString& error);

 private:
  struct Shared;
  void drain();
  void onThreadFinished(const std::shared_ptr<Shared>& shared, const QString& error);

  std::int64_t m_studyId = 0;
  bool m_running = false;
  std::shared_ptr<Shared> m_current;
  LoadProgress m_lastProgress;
  // Last, so that it is destroyed first: it cancels a study still going and waits for its thread.
  WorkerThreads m_workers{[this] { drain(); }};
};

}  // namespace ayar
