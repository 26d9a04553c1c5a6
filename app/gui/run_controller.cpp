#include "app/gui/run_controller.h"

#include <QThread>
#include <algorithm>
#include <chrono>
#include <iterator>
#include <mutex>

#include "core/error.h"
#include "core/metrics/latency_values.h"
#include "core/report/message_text.h"
#include "widgets/form_field.h"

namespace ayar {

// What a run's threads hand to the UI thread. Everything below the mutex is taken by drain().
struct RunController::Shared {
  quint64 token = 0;
  std::unique_ptr<BenchmarkRun> run;
  std::chrono::steady_clock::time_point startedAt = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point endedAt;
  std::mutex mutex;
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  std::vector<std::string> stages;
  QStringList log;
  bool done = false;
  std::vector<RunOutcome> outcomes;
  std::vector<std::vector<double>> sortedValues;
  QString error;
};

RunController::RunController(QObject* parent) : QObject(parent) {
  m_timer.setInterval(kUpdateIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, &RunController::drain);
}

RunController::~RunController() {
  for (auto& [shared, thread] : m_threads) {
    shared->run->cancel();
    thread->wait();
    delete thread;
  }
}

quint64 RunController::start(RunSpec spec) {
  if (m_current) {
    // A new run replaces the one going: cancel it; whatever it still delivers is dropped by token.
    m_current->run->cancel();
  }
  auto shared = std::make_shared<Shared>();
  shared->token = ++m_token;
  m_spec = spec;
  RunObserver observer;
  std::weak_ptr<Shared> weak = shared;
  observer.onRecords = [weak](std::span<const RequestRecord> batch) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->records.insert(s->records.end(), batch.begin(), batch.end());
    }
  };
  observer.onSamples = [weak](std::span<const Sample> batch) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->samples.insert(s->samples.end(), batch.begin(), batch.end());
    }
  };
  // What core says goes out in the UI's language of the moment the run starts.
  const ReportLanguage language = uiReportLanguage();
  observer.onStage = [weak, language](const Message& message) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->stages.push_back(message.in(language));
    }
  };
  observer.onEngineLog = [weak](std::string_view line) {
    if (auto s = weak.lock()) {
      std::lock_guard lock(s->mutex);
      s->log.append(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
    }
  };
  // This machine's GPUs belong to the run only when the engine serves from here.
  if (runsOnThisMachine(spec.engine)) observer.extraSamples = m_extraSampler;
  shared->run = std::make_unique<BenchmarkRun>(std::move(spec), std::move(observer));

  QThread* thread = QThread::create([shared, language] {
    std::vector<RunOutcome> outcomes;
    std::vector<std::vector<double>> sortedValues;
    QString error;
    try {
      outcomes = shared->run->run();
      if (!outcomes.empty()) {
        for (LatencyMetric metric : kAllLatencyMetrics) {
          sortedValues.push_back(latencyValuesMs(outcomes.back().records, metric));
          std::sort(sortedValues.back().begin(), sortedValues.back().end());
        }
      }
    } catch (const std::exception& e) {
      error = QString::fromStdString(errorText(e, language));
    }
    std::lock_guard lock(shared->mutex);
    shared->outcomes = std::move(outcomes);
    shared->sortedValues = std::move(sortedValues);
    shared->error = error;
    shared->done = true;
    shared->endedAt = std::chrono::steady_clock::now();
  });
  thread->setObjectName(QStringLiteral("ayar-run-%1").arg(shared->token));
  connect(thread, &QThread::finished, this, [this, shared] { onThreadFinished(shared); });
  m_threads.emplace_back(shared, thread);
  m_current = shared;
  m_records.clear();
  m_samples.clear();
  m_outcomes.clear();
  m_sortedValues.clear();
  m_lastProgress = {};
  m_running = true;
  thread->start();
  m_timer.start();
  emit started(shared->token);
  return shared->token;
}

void RunController::stop() {
  if (m_current && m_running) m_current->run->cancel();
}

LoadProgress RunController::progress() const {
  if (!m_current || !m_running) return m_lastProgress;
  const LoadProgress p = m_current->run->progress();
  return p.total > 0 ? p : m_lastProgress;
}

double RunController::elapsedS() const {
  if (!m_current) return 0.0;
  const auto end = m_running ? std::chrono::steady_clock::now() : m_current->endedAt;
  return std::chrono::duration<double>(end - m_current->startedAt).count();
}

void RunController::drain() {
  if (!m_current) return;
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  std::vector<std::string> stages;
  QStringList log;
  {
    std::lock_guard lock(m_current->mutex);
    records.swap(m_current->records);
    samples.swap(m_current->samples);
    stages.swap(m_current->stages);
    log.swap(m_current->log);
  }
  const quint64 token = m_current->token;
  if (m_running) {
    const LoadProgress p = m_current->run->progress();
    if (p.total > 0) m_lastProgress = p;
  }
  for (const auto& stage : stages)
    emit stageChanged(token, QString::fromStdString(stage));
  if (!log.isEmpty()) emit engineLog(token, log);
  if (records.empty() && samples.empty()) return;
  const std::size_t firstRecord = m_records.size();
  const std::size_t firstSample = m_samples.size();
  m_records.insert(m_records.end(), std::make_move_iterator(records.begin()),
                   std::make_move_iterator(records.end()));
  m_samples.insert(m_samples.end(), samples.begin(), samples.end());
  emit updated(token, firstRecord, firstSample);
}

void RunController::onThreadFinished(const std::shared_ptr<Shared>& shared) {
  auto it =
      std::find_if(m_threads.begin(), m_threads.end(), [&](const auto& t) { return t.first == shared; });
  if (it != m_threads.end()) {
    it->second->deleteLater();
    m_threads.erase(it);
  }
  if (shared != m_current) return;  // a replaced run: its results are stale
  drain();
  m_timer.stop();
  m_running = false;
  qint64 storeRunId = -1;
  bool cancelled = shared->run->cancelled();
  QString error;
  {
    std::lock_guard lock(shared->mutex);
    m_outcomes = std::move(shared->outcomes);
    m_sortedValues = std::move(shared->sortedValues);
    error = shared->error;
  }
  if (!error.isEmpty()) {
    if (const auto failed = shared->run->failedRunId()) storeRunId = *failed;
  }
  if (!m_outcomes.empty()) {
    const RunOutcome& last = m_outcomes.back();
    if (last.storeRunId) storeRunId = *last.storeRunId;
    cancelled = cancelled || last.cancelled;
    // The final counts: the last live sample may predate the last requests.
    m_lastProgress.completed = static_cast<std::size_t>(last.summary.completed);
    m_lastProgress.failed = static_cast<std::size_t>(last.summary.failed);
    m_lastProgress.sent = m_lastProgress.completed + m_lastProgress.failed;
    m_lastProgress.inFlight = 0;
    if (!cancelled) m_lastProgress.total = m_lastProgress.sent;
  }
  emit finished(shared->token, storeRunId, cancelled, error);
}

}  // namespace ayar
