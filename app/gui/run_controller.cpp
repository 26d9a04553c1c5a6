#include "app/gui/run_controller.h"

#include <algorithm>
#include <chrono>
#include <iterator>

#include "core/error.h"
#include "core/metrics/latency_values.h"
#include "core/report/message_text.h"
#include "widgets/form_field.h"

namespace ayar {

// What a run's threads post for the UI thread; drain() takes it all.
struct RunMail {
  std::vector<RequestRecord> records;
  std::vector<Sample> samples;
  std::vector<std::string> stages;
  QStringList log;
};

// One run: the run itself, when it started and ended, and its mailbox.
struct RunController::Shared {
  std::unique_ptr<BenchmarkRun> run;
  std::chrono::steady_clock::time_point startedAt = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point endedAt;  // set on the UI thread when its thread ended
  Mailbox<RunMail> mail;
};

// What the run's thread ends with.
struct RunController::Result {
  std::vector<RunOutcome> outcomes;
  std::vector<std::vector<double>> sortedValues;
  QString error;
  std::chrono::steady_clock::time_point endedAt;
};

RunController::RunController(QObject* parent) : QObject(parent) {}

RunController::~RunController() = default;

quint64 RunController::start(RunSpec spec) {
  if (m_current) {
    // A new run replaces the one going: cancel it; whatever it still delivers is dropped by token.
    m_current->run->cancel();
  }
  auto shared = std::make_shared<Shared>();
  m_spec = spec;
  RunObserver observer;
  std::weak_ptr<Shared> weak = shared;
  observer.onRecords = [weak](std::span<const RequestRecord> batch) {
    if (auto s = weak.lock())
      s->mail.post([&](RunMail& m) { m.records.insert(m.records.end(), batch.begin(), batch.end()); });
  };
  observer.onSamples = [weak](std::span<const Sample> batch) {
    if (auto s = weak.lock())
      s->mail.post([&](RunMail& m) { m.samples.insert(m.samples.end(), batch.begin(), batch.end()); });
  };
  // What core says goes out in the UI's language of the moment the run starts.
  const ReportLanguage language = uiReportLanguage();
  observer.onStage = [weak, language](const Message& message) {
    if (auto s = weak.lock()) s->mail.post([&](RunMail& m) { m.stages.push_back(message.in(language)); });
  };
  observer.onEngineLog = [weak](std::string_view line) {
    if (auto s = weak.lock()) {
      s->mail.post([&](RunMail& m) {
        m.log.append(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
      });
    }
  };
  // This machine's GPUs belong to the run only when the engine serves from here.
  if (runsOnThisMachine(spec.engine)) observer.extraSamples = m_extraSampler;
  shared->run = std::make_unique<BenchmarkRun>(std::move(spec), std::move(observer));

  m_current = shared;
  m_records.clear();
  m_samples.clear();
  m_outcomes.clear();
  m_sortedValues.clear();
  m_lastProgress = {};
  m_running = true;
  const quint64 token = m_workers.start(
      QStringLiteral("ayar-run-"),
      [shared, language] {
        Result result;
        try {
          result.outcomes = shared->run->run();
          if (!result.outcomes.empty()) {
            for (LatencyMetric metric : kAllLatencyMetrics) {
              result.sortedValues.push_back(latencyValuesMs(result.outcomes.back().records, metric));
              std::sort(result.sortedValues.back().begin(), result.sortedValues.back().end());
            }
          }
        } catch (const std::exception& e) {
          result.error = QString::fromStdString(errorText(e, language));
        }
        result.endedAt = std::chrono::steady_clock::now();
        return result;
      },
      [shared] { shared->run->cancel(); },
      [this, shared](Result result) { onThreadFinished(shared, std::move(result)); });
  emit started(token);
  return token;
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
  RunMail mail = m_current->mail.take();
  const quint64 token = m_workers.currentToken();
  if (m_running) {
    const LoadProgress p = m_current->run->progress();
    if (p.total > 0) m_lastProgress = p;
  }
  for (const auto& stage : mail.stages)
    emit stageChanged(token, QString::fromStdString(stage));
  if (!mail.log.isEmpty()) emit engineLog(token, mail.log);
  if (mail.records.empty() && mail.samples.empty()) return;
  const std::size_t firstRecord = m_records.size();
  const std::size_t firstSample = m_samples.size();
  m_records.insert(m_records.end(), std::make_move_iterator(mail.records.begin()),
                   std::make_move_iterator(mail.records.end()));
  m_samples.insert(m_samples.end(), mail.samples.begin(), mail.samples.end());
  emit updated(token, firstRecord, firstSample);
}

void RunController::onThreadFinished(const std::shared_ptr<Shared>& shared, Result result) {
  // Only the current run's end comes here (WorkerThreads drops a replaced one's); the timer stopped.
  const quint64 token = m_workers.currentToken();
  drain();
  m_running = false;
  shared->endedAt = result.endedAt;
  qint64 storeRunId = -1;
  bool cancelled = shared->run->cancelled();
  m_outcomes = std::move(result.outcomes);
  m_sortedValues = std::move(result.sortedValues);
  const QString error = result.error;
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
  emit finished(token, storeRunId, cancelled, error);
}

}  // namespace ayar
