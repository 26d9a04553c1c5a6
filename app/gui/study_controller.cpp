#include "app/gui/study_controller.h"

#include "core/report/message_text.h"
#include "widgets/form_field.h"

namespace ayar {

// What a study's threads post for the UI thread; drain() takes it all.
struct StudyMail {
  std::vector<StudyCell> cells;
  std::vector<std::string> stages;
  QStringList log;
};

// One study run: its runner, its mailbox and whether stop() asked it to end.
struct StudyController::Shared {
  std::unique_ptr<StudyRunner> runner;
  Mailbox<StudyMail> mail;
  bool cancelled = false;  // on the UI thread only
};

namespace {

bool sameProgress(const LoadProgress& a, const LoadProgress& b) {
  return a.total == b.total && a.sent == b.sent && a.inFlight == b.inFlight && a.completed == b.completed &&
         a.failed == b.failed;
}

}  // namespace

StudyController::StudyController(QObject* parent) : QObject(parent) {}

StudyController::~StudyController() = default;

quint64 StudyController::start(const std::filesystem::path& storePath, std::int64_t studyId,
                               StudyRunOptions options) {
  if (m_current) m_current->runner->cancel();  // whatever it still delivers is dropped by token
  auto shared = std::make_shared<Shared>();
  std::weak_ptr<Shared> weak = shared;
  StudyObserver observer;
  const auto cellEvent = [weak](const StudyCell& cell, int) {
    if (auto s = weak.lock()) s->mail.post([&](StudyMail& m) { m.cells.push_back(cell); });
  };
  observer.onCellStarted = cellEvent;
  observer.onCellFinished = cellEvent;
  // What core says goes out in the UI's language of the moment the study starts.
  const ReportLanguage language = uiReportLanguage();
  observer.onStage = [weak, language](const Message& message) {
    if (auto s = weak.lock()) s->mail.post([&](StudyMail& m) { m.stages.push_back(message.in(language)); });
  };
  observer.run.onStage = observer.onStage;
  observer.run.onEngineLog = [weak](std::string_view line) {
    if (auto s = weak.lock()) {
      s->mail.post([&](StudyMail& m) {
        m.log.append(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
      });
    }
  };
  shared->runner = std::make_unique<StudyRunner>(storePath, studyId, std::move(options), std::move(observer));

  m_current = shared;
  m_studyId = studyId;
  m_lastProgress = {};
  m_running = true;
  const quint64 token = m_workers.start(
      QStringLiteral("ayar-study-"),
      [shared, language] {
        QString error;
        try {
          shared->runner->run();
        } catch (const std::exception& e) {
          error = QString::fromStdString(errorText(e, language));
        }
        return error;
      },
      [shared] { shared->runner->cancel(); },
      [this, shared](const QString& error) { onThreadFinished(shared, error); });
  emit started(token, studyId);
  return token;
}

void StudyController::stop() {
  if (m_current && m_running) {
    m_current->cancelled = true;
    m_current->runner->cancel();
  }
}

LoadProgress StudyController::progress() const {
  return m_running ? m_lastProgress : LoadProgress{};
}

void StudyController::drain() {
  if (!m_current) return;
  StudyMail mail = m_current->mail.take();
  const quint64 token = m_workers.currentToken();
  for (const auto& stage : mail.stages)
    emit stageChanged(token, QString::fromStdString(stage));
  if (!mail.log.isEmpty()) emit engineLog(token, mail.log);
  if (!mail.cells.empty()) emit cellsChanged(token, mail.cells);
  const LoadProgress now = m_running ? m_current->runner->progress() : LoadProgress{};
  if (!sameProgress(now, m_lastProgress)) {
    m_lastProgress = now;
    emit progressChanged(token, now);
  }
}

void StudyController::onThreadFinished(const std::shared_ptr<Shared>& shared, const QString& error) {
  // Only the current study's end comes here (WorkerThreads drops a replaced one's); the timer stopped.
  const quint64 token = m_workers.currentToken();
  m_running = false;
  drain();
  emit finished(token, m_studyId, shared->cancelled, error);
}

}  // namespace ayar
