#include "app/gui/study_controller.h"

#include <QThread>
#include <algorithm>
#include <mutex>

#include "core/report/message_text.h"
#include "widgets/form_field.h"

namespace ayar {

// What a study's threads hand to the UI thread. Everything below the mutex is taken by drain().
struct StudyController::Shared {
  quint64 token = 0;
  std::unique_ptr<StudyRunner> runner;
  std::mutex mutex;
  std::vector<StudyCell> cells;
  std::vector<std::string> stages;
  QStringList log;
  bool cancelled = false;
  QString error;
};

namespace {

bool sameProgress(const LoadProgress& a, const LoadProgress& b) {
  return a.total == b.total && a.sent == b.sent && a.inFlight == b.inFlight && a.completed == b.completed &&
         a.failed == b.failed;
}

}  // namespace

StudyController::StudyController(QObject* parent) : QObject(parent) {
  m_timer.setInterval(kUpdateIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, &StudyController::drain);
}

StudyController::~StudyController() {
  for (auto& [shared, thread] : m_threads) {
    shared->runner->cancel();
    thread->wait();
    delete thread;
  }
}

quint64 StudyController::start(const std::filesystem::path& storePath, std::int64_t studyId,
                               StudyRunOptions options) {
  if (m_current) m_current->runner->cancel();  // whatever it still delivers is dropped by token
  auto shared = std::make_shared<Shared>();
  shared->token = ++m_token;
  std::weak_ptr<Shared> weak = shared;
  StudyObserver observer;
  const auto cellEvent = [weak](const StudyCell& cell, int) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->cells.push_back(cell);
    }
  };
  observer.onCellStarted = cellEvent;
  observer.onCellFinished = cellEvent;
  // What core says goes out in the UI's language of the moment the study starts.
  const ReportLanguage language = uiReportLanguage();
  observer.onStage = [weak, language](const Message& message) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->stages.push_back(message.in(language));
    }
  };
  observer.run.onStage = observer.onStage;
  observer.run.onEngineLog = [weak](std::string_view line) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->log.append(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
    }
  };
  shared->runner = std::make_unique<StudyRunner>(storePath, studyId, std::move(options), std::move(observer));

  QThread* thread = QThread::create([shared, language] {
    QString error;
    try {
      shared->runner->run();
    } catch (const std::exception& e) {
      error = QString::fromStdString(errorText(e, language));
    }
    std::lock_guard lock(shared->mutex);
    shared->error = error;
  });
  thread->setObjectName(QStringLiteral("ayar-study-%1").arg(shared->token));
  connect(thread, &QThread::finished, this, [this, shared] { onThreadFinished(shared); });
  m_threads.emplace_back(shared, thread);
  m_current = shared;
  m_studyId = studyId;
  m_lastProgress = {};
  m_running = true;
  thread->start();
  m_timer.start();
  emit started(shared->token, studyId);
  return shared->token;
}

void StudyController::stop() {
  if (m_current && m_running) {
    {
      std::lock_guard lock(m_current->mutex);
      m_current->cancelled = true;
    }
    m_current->runner->cancel();
  }
}

LoadProgress StudyController::progress() const {
  return m_running ? m_lastProgress : LoadProgress{};
}

void StudyController::drain() {
  if (!m_current) return;
  std::vector<StudyCell> cells;
  std::vector<std::string> stages;
  QStringList log;
  {
    std::lock_guard lock(m_current->mutex);
    cells.swap(m_current->cells);
    stages.swap(m_current->stages);
    log.swap(m_current->log);
  }
  const quint64 token = m_current->token;
  for (const auto& stage : stages)
    emit stageChanged(token, QString::fromStdString(stage));
  if (!log.isEmpty()) emit engineLog(token, log);
  if (!cells.empty()) emit cellsChanged(token, cells);
  const LoadProgress now = m_running ? m_current->runner->progress() : LoadProgress{};
  if (!sameProgress(now, m_lastProgress)) {
    m_lastProgress = now;
    emit progressChanged(token, now);
  }
}

void StudyController::onThreadFinished(const std::shared_ptr<Shared>& shared) {
  auto it =
      std::find_if(m_threads.begin(), m_threads.end(), [&](const auto& t) { return t.first == shared; });
  if (it != m_threads.end()) {
    it->second->deleteLater();
    m_threads.erase(it);
  }
  if (shared != m_current) return;  // a replaced study: its events are stale
  m_running = false;
  drain();
  m_timer.stop();
  bool cancelled = false;
  QString error;
  {
    std::lock_guard lock(shared->mutex);
    cancelled = shared->cancelled;
    error = shared->error;
  }
  emit finished(shared->token, m_studyId, cancelled, error);
}

}  // namespace ayar
