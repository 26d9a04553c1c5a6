#include "app/gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QPalette>
#include <QPlainTextEdit>
#include <QProxyStyle>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTabWidget>
#include <QTimer>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "app/gui/compare_page.h"
#include "app/gui/history_model.h"
#include "app/gui/history_page.h"
#include "app/gui/language.h"
#include "app/gui/live_page.h"
#include "app/gui/results_page.h"
#include "app/gui/run_controller.h"
#include "app/gui/setup_panel.h"
#include "app/gui/stored_run.h"
#include "app/gui/studies_page.h"
#include "app/gui/study_controller.h"
#include "core/error.h"
#include "core/interop/result_import.h"
#include "core/report/message_text.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/telemetry/gpu_monitor.h"
#include "widgets/engine_flag_form.h"
#include "widgets/form_field.h"

namespace ayar {

namespace {

// Runs (*steps)[next] and the steps after it, each from its own 1 ms timer: a timer, unlike a queued
// call, lets the paint events and timers that came due in between run first. Nothing runs once
// `context` is gone.
void runInSteps(QObject* context, std::shared_ptr<std::vector<std::function<void()>>> steps,
                std::size_t next) {
  if (next >= steps->size()) return;
  QTimer::singleShot(1, context, [context, steps, next] {
    (*steps)[next]();
    runInSteps(context, steps, next + 1);
  });
}

constexpr int kLogLines = 5000;

// A path as a person reads it: the home folder written "~".
QString displayPath(const QString& path) {
  const QString home = QDir::homePath();
  if (home.size() > 1 && path.startsWith(home + QLatin1Char('/')))
    return QStringLiteral("~") + path.mid(home.size());
  return path;
}

// Fusion outlines a check box in the window colour made darker, which on a dark window is black on
// near-black: an unticked box vanishes. This style draws the outline in the text colour, faded.
class VisibleIndicatorStyle : public QProxyStyle {
 public:
  using QProxyStyle::QProxyStyle;

  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if (element != PE_IndicatorCheckBox && element != PE_IndicatorItemViewItemCheck &&
        element != PE_IndicatorRadioButton)
      return;
    QColor outline = option->palette.color(QPalette::Text);
    outline.setAlphaF(0.55F);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, element == PE_IndicatorRadioButton);
    painter->setPen(outline);
    painter->setBrush(Qt::NoBrush);
    const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == PE_IndicatorRadioButton) {
      painter->drawEllipse(box);
    } else {
      painter->drawRoundedRect(box, 1.5, 1.5);
    }
    painter->restore();
  }
};

QPalette darkPalette() {
  QPalette p;
  const QColor window(40, 42, 46), base(30, 31, 34), text(225, 226, 228), disabled(130, 130, 135);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(44, 46, 51));
  p.setColor(QPalette::ToolTipBase, QColor(55, 57, 62));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, QColor(150, 150, 155));
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(52, 54, 59));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 110, 100));
  p.setColor(QPalette::Highlight, QColor(45, 110, 180));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(110, 170, 240));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("ayarMainWindow"));
  const std::filesystem::path storePath = options.storePath.empty() ? defaultStorePath() : options.storePath;
  m_store = std::make_unique<ResultStore>(storePath);
  m_catalogue = EngineCatalogue::loadDefault();
  m_gpu = std::make_unique<GpuMonitor>();
  m_language = new Language(this);
  m_controller = new RunController(this);
  m_studyController = new StudyController(this);
  if (m_gpu->available()) {
    GpuMonitor* gpu = m_gpu.get();
    m_controller->setExtraSampler([gpu](double tS) { return gpu->sample(tS); });
  }
  m_history = new HistoryModel(this);

  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName(QStringLiteral("areas"));
  m_tabs->setDocumentMode(true);
  m_live = new LivePage(m_controller, m_tabs);
  m_live->setGpuAvailable(m_gpu->available());
  m_results = new ResultsPage(m_tabs);
  m_compare = new ComparePage(m_history, m_tabs);
  m_compare->setStore(m_store.get());
  m_historyPage = new HistoryPage(m_history, m_tabs);
  m_studiesPage = new StudiesPage(m_studyController, m_tabs);
  m_studiesPage->setStore(m_store.get());
  m_tabs->addTab(m_live, QString());
  m_tabs->addTab(m_results, QString());
  m_tabs->addTab(m_compare, QString());
  m_tabs->addTab(m_historyPage, QString());
  m_tabs->addTab(m_studiesPage, QString());
  setCentralWidget(m_tabs);

  m_setup = new SetupPanel(m_catalogue, this);
  m_setupDock = new QDockWidget(this);
  m_setupDock->setObjectName(QStringLiteral("setupDock"));
  m_setupDock->setWidget(m_setup);
  // Closable, so that the View menu's Setup entry can hide and show it.
  m_setupDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                           QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, m_setupDock);

  m_log = new QPlainTextEdit(this);
  m_log->setObjectName(QStringLiteral("engineLog"));
  m_log->setReadOnly(true);
  m_log->setMaximumBlockCount(kLogLines);
  m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_logDock = new QDockWidget(this);
  m_logDock->setObjectName(QStringLiteral("logDock"));
  m_logDock->setWidget(m_log);
  addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
  resizeDocks({m_logDock}, {140}, Qt::Vertical);
  resizeDocks({m_setupDock}, {440}, Qt::Horizontal);

  m_status = new QLabel(this);
  statusBar()->addWidget(m_status, 1);
  setAcceptDrops(true);
  buildMenus();

  connect(m_setup, &SetupPanel::startRequested, this, &MainWindow::startRun);
  connect(m_live, &LivePage::stopRequested, this, &MainWindow::stopRun);
  connect(m_controller, &RunController::finished, this, &MainWindow::onRunFinished);
  const auto logStage = [this](quint64, const QString& message) {
    m_log->appendPlainText(QStringLiteral("[ayar] ") + message);
  };
  connect(m_controller, &RunController::stageChanged, this, logStage);
  connect(m_controller, &RunController::engineLog, this, [this](quint64, const QStringList& lines) {
    QString text = lines.join(QLatin1Char('\n'));
    if (!m_runApiKey.empty()) text.replace(QString::fromStdString(m_runApiKey), QStringLiteral("***"));
    m_log->appendPlainText(text);
  });
  connect(m_studyController, &StudyController::stageChanged, this, logStage);
  connect(m_studyController, &StudyController::engineLog, this, [this](quint64, const QStringList& lines) {
    m_log->appendPlainText(lines.join(QLatin1Char('\n')));
  });
  connect(m_studyController, &StudyController::started, this, [this] { m_log->clear(); });
  connect(m_studiesPage, &StudiesPage::openRunRequested, this, &MainWindow::openRun);
  connect(m_studiesPage, &StudiesPage::failed, this, &MainWindow::showMessage);
  connect(m_studiesPage, &StudiesPage::message, this, &MainWindow::showMessage);
  connect(m_studiesPage, &StudiesPage::studyFinished, this, [this] { refreshHistory(); });
  connect(m_historyPage, &HistoryPage::openRequested, this, &MainWindow::openRun);
  connect(m_historyPage, &HistoryPage::compareRequested, this, &MainWindow::compareRuns);
  connect(m_historyPage, &HistoryPage::setUpAgainRequested, this, &MainWindow::setUpAgain);
  connect(m_historyPage, &HistoryPage::refreshRequested, this, &MainWindow::refreshHistory);
  connect(m_historyPage, &HistoryPage::importRequested, this, [this] {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import result files"), QString(), tr("Result files (*.json *.jsonl);;All files (*)"));
    if (!files.isEmpty()) importFiles(files);
  });
  connect(m_historyPage, &HistoryPage::deleteRequested, this, [this](const std::vector<qint64>& runs) {
    for (qint64 id : runs)
      m_store->deleteRun(id);
    refreshHistory();
  });
  connect(m_compare, &ComparePage::failed, this, &MainWindow::showMessage);
  connect(m_compare, &ComparePage::message, this, &MainWindow::showMessage);
  connect(m_language, &Language::changed, this, [this] { saveSettings(); });

  restoreSettings(options);
  // The translators post LanguageChange to every widget: deliver them now, so that the window is in
  // its language when the constructor returns, not at the first pass of the event loop.
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
  const int interrupted = m_store->markInterruptedRuns();
  refreshHistory();
  retranslate();
  if (interrupted > 0)
    showMessage(tr("%n run(s) were interrupted when Ayar last stopped; their finished requests are kept.",
                   nullptr, interrupted));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  m_fileMenu = menuBar()->addMenu(QString());
  m_importAction = m_fileMenu->addAction(QString(), this, [this] {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import result files"));
    if (!files.isEmpty()) importFiles(files);
  });
  m_importAction->setShortcut(QKeySequence::Open);
  m_fileMenu->addSeparator();
  m_quitAction = m_fileMenu->addAction(QString(), this, &QWidget::close);
  m_quitAction->setShortcut(QKeySequence::Quit);

  m_viewMenu = menuBar()->addMenu(QString());
  auto* themes = new QActionGroup(this);
  m_lightAction = m_viewMenu->addAction(QString(), this, [this] { setDarkTheme(false); });
  m_darkAction = m_viewMenu->addAction(QString(), this, [this] { setDarkTheme(true); });
  for (QAction* a : {m_lightAction, m_darkAction}) {
    a->setCheckable(true);
    themes->addAction(a);
  }
  m_viewMenu->addSeparator();
  m_viewMenu->addAction(m_setupDock->toggleViewAction());
  m_viewMenu->addAction(m_logDock->toggleViewAction());

  m_languageMenu = menuBar()->addMenu(QString());
  auto* languages = new QActionGroup(this);
  // Each language is named in itself, so that a user who cannot read the current one finds theirs.
  m_turkishAction = m_languageMenu->addAction(QStringLiteral("Türkçe"), this,
                                              [this] { setLanguage(QStringLiteral("tr")); });
  m_englishAction = m_languageMenu->addAction(QStringLiteral("English"), this,
                                              [this] { setLanguage(QStringLiteral("en")); });
  for (QAction* a : {m_turkishAction, m_englishAction}) {
    a->setCheckable(true);
    languages->addAction(a);
  }
}

void MainWindow::retranslate() {
  setWindowTitle(tr("Ayar — LLM serving workbench"));
  m_tabs->setTabText(LiveArea, tr("Live"));
  m_tabs->setTabText(ResultsArea, tr("Results"));
  m_tabs->setTabText(CompareArea, tr("Compare"));
  m_tabs->setTabText(HistoryArea, tr("History"));
  m_tabs->setTabText(StudiesArea, tr("Studies"));
  m_setupDock->setWindowTitle(tr("Setup"));
  m_logDock->setWindowTitle(tr("Engine log"));
  m_fileMenu->setTitle(tr("&File"));
  m_importAction->setText(tr("&Import results…"));
  m_quitAction->setText(tr("&Quit"));
  m_viewMenu->setTitle(tr("&View"));
  m_lightAction->setText(tr("Light theme"));
  m_darkAction->setText(tr("Dark theme"));
  m_languageMenu->setTitle(tr("&Language"));
  m_turkishAction->setChecked(m_language->current() == QLatin1String("tr"));
  m_englishAction->setChecked(m_language->current() != QLatin1String("tr"));
  if (m_lastMessage.isEmpty())
    m_status->setText(tr("Store: %1").arg(displayPath(QString::fromStdString(m_store->path().string()))));
}

void MainWindow::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && m_fileMenu) retranslate();
  QMainWindow::changeEvent(event);
}

void MainWindow::showMessage(const QString& message) {
  m_lastMessage = message;
  m_status->setText(message);
}

QString MainWindow::statusText() const {
  return m_status->text();
}

void MainWindow::showArea(Area area) {
  m_tabs->setCurrentIndex(area);
}

bool MainWindow::startRun() {
  if (!m_setup->check()) {
    m_setupDock->show();
    showMessage(
        tr("Cannot start: %1").arg(m_setup->problemsLabel()->text().section(QLatin1Char('\n'), 0, 0)));
    return false;
  }
  RunSpec spec;
  try {
    spec = m_setup->runSpec();
  } catch (const Error& e) {
    showMessage(tr("Cannot start: %1").arg(QString::fromStdString(errorText(e, uiReportLanguage()))));
    return false;
  }
  spec.storePath = m_store->path();
  m_runApiKey = spec.engine.apiKey;
  m_log->clear();
  m_setup->setRunning(true);
  m_controller->start(std::move(spec));
  showArea(LiveArea);
  showMessage(tr("Run started"));
  return true;
}

void MainWindow::stopRun() {
  if (!m_controller->isRunning()) return;
  m_controller->stop();
  showMessage(tr("Stopping: requests in flight end, everything finished is kept"));
}

void MainWindow::onRunFinished(quint64, qint64 storeRunId, bool cancelled, const QString& error) {
  if (!error.isEmpty()) {
    m_setup->setRunning(false);
    refreshHistory();
    m_log->appendPlainText(QStringLiteral("[ayar] ") + error);
    // Kept in the store as failed: shown where results are read, with its error and engine log.
    if (storeRunId >= 0 && openRun(storeRunId)) showArea(ResultsArea);
    showMessage(tr("The run failed: %1").arg(error));
    emit runFinished(storeRunId, error);
    return;
  }
  // The end of a run is shown in steps, each in its own pass of the event loop: the result charts built,
  // the Results tab shown (and drawn), the history read again. Painting and input come between them, so
  // the window does not freeze for their sum after a large run. The Start button comes back with the last
  // step, so no new run replaces the outcome in between.
  std::vector<std::function<void()>> steps;
  if (!m_controller->outcomes().empty()) {
    steps.emplace_back([this, storeRunId, cancelled] { showOutcome(storeRunId, cancelled); });
    steps.emplace_back([this] { showArea(ResultsArea); });
  }
  steps.emplace_back([this] { refreshHistory(); });
  steps.emplace_back([this, storeRunId, cancelled] {
    m_setup->setRunning(false);
    if (storeRunId >= 0) {
      showMessage(cancelled ? tr("Run #%1 stopped; what was measured is kept").arg(storeRunId)
                            : tr("Run #%1 finished").arg(storeRunId));
    }
    emit runFinished(storeRunId, QString());
  });
  runInSteps(this, std::make_shared<std::vector<std::function<void()>>>(std::move(steps)), 0);
}

void MainWindow::showOutcome(qint64 storeRunId, bool cancelled) {
  // The outcome in memory is what the store holds: no reading it back (a second for 50,000 requests).
  const RunOutcome& outcome = m_controller->outcomes().back();
  const RunSpec& spec = m_controller->spec();
  StoredRun run;
  run.id = storeRunId;
  run.info.label = spec.label;
  run.info.model = spec.engine.model;
  run.info.servedModelName = spec.engine.servedModelName;
  const QString name = storeRunId >= 0 ? HistoryModel::runName(run) : QString::fromStdString(outcome.title);
  m_results->showRun(
      name, outcome.records, outcome.summary,
      std::isfinite(outcome.requestRate) ? std::optional<double>(outcome.requestRate) : std::nullopt,
      cancelled ? RunStatus::Cancelled : RunStatus::Completed, &m_controller->sortedLatencyValues());
  m_results->setRunFacts(runFactsOfResult(outcome.result));
}

bool MainWindow::openRun(qint64 id) {
  try {
    const LoadedRun run = loadStoredRun(*m_store, id);
    m_results->showRun(run.name, run.records, run.summary, run.requestRate, run.run.status);
    m_results->setRunFacts(run.facts);
    m_results->setRunNotes(run.notes, !run.records.empty(),
                           QString::fromStdString(run.run.info.engine.value("log", std::string())));
    showArea(ResultsArea);
    return true;
  } catch (const Error& e) {
    showMessage(QString::fromStdString(errorText(e, uiReportLanguage())));
    return false;
  }
}

bool MainWindow::setUpAgain(qint64 id) {
  const auto run = m_store->findRun(id);
  if (!run) {
    showMessage(tr("Run #%1 is not in the store").arg(id));
    return false;
  }
  const std::optional<RunSpec> spec = runSpecOf(*run);
  if (!spec) {
    showMessage(tr("Run #%1 was not made by Ayar: it has no set-up to repeat").arg(id));
    return false;
  }
  m_setup->setRunSpec(*spec);
  showMessage(tr("Run #%1's set-up is in Setup: change what you like and start it").arg(id));
  return true;
}

void MainWindow::compareRuns(qint64 baseline, const std::vector<qint64>& candidates) {
  try {
    m_compare->compare(baseline, std::vector<std::int64_t>(candidates.begin(), candidates.end()));
    showArea(CompareArea);
  } catch (const Error& e) {
    showMessage(QString::fromStdString(errorText(e, uiReportLanguage())));
  }
}

std::vector<qint64> MainWindow::importFiles(const QStringList& files, QStringList* errors) {
  std::vector<qint64> ids;
  for (const QString& file : files) {
    try {
      for (const ImportedRun& run : readImportedRuns(file.toStdString()))
        ids.push_back(m_store->addFinishedRun(toFinishedRun(run)));
    } catch (const Error& e) {
      const QString message = QString::fromStdString(errorText(e, uiReportLanguage()));
      if (errors) errors->append(message);
      showMessage(message);
    }
  }
  refreshHistory();
  if (!ids.empty()) {
    showMessage(tr("Imported %n run(s)", nullptr, static_cast<int>(ids.size())));
    showArea(HistoryArea);
  }
  return ids;
}

void MainWindow::refreshHistory() {
  try {
    std::map<std::int64_t, std::string> studyNames;
    for (const StoredStudy& study : m_store->listStudies())
      studyNames.emplace(study.id, study.name);
    m_history->setRuns(m_store->listRuns(), std::move(studyNames));
  } catch (const Error& e) {
    showMessage(QString::fromStdString(errorText(e, uiReportLanguage())));
  }
}

void MainWindow::setLanguage(const QString& code) {
  m_language->apply(code);
  m_lastMessage.clear();  // a message in the old language would stay untranslated
  // Qt posts LanguageChange to every widget: deliver them now, so that the window is in the new
  // language when this returns.
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
  retranslate();
}

void MainWindow::setDarkTheme(bool dark) {
  m_dark = dark;
  QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
  QApplication::setStyle(dark ? new VisibleIndicatorStyle(fusion) : fusion);
  QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
  m_live->setDark(dark);
  m_results->setDark(dark);
  m_compare->setDark(dark);
  m_darkAction->setChecked(dark);
  m_lightAction->setChecked(!dark);
  saveSettings();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList files;
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) files.append(url.toLocalFile());
  }
  if (!files.isEmpty()) {
    importFiles(files);
    event->acceptProposedAction();
  }
}

void MainWindow::saveSettings() {
  if (m_restoring) return;
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("ui/language"), m_language->current());
  settings.setValue(QStringLiteral("ui/dark"), m_dark);
  m_setup->saveSettings(settings);
}

void MainWindow::restoreSettings(const MainWindowOptions& options) {
  QSettings settings;
  const QString language =
      !options.language.isEmpty()
          ? options.language
          : settings.value(QStringLiteral("ui/language"), Language::systemDefault()).toString();
  m_language->apply(language);
  setDarkTheme(settings.value(QStringLiteral("ui/dark"), false).toBool());
  if (settings.contains(QStringLiteral("setup/engine"))) {
    m_setup->restoreSettings(settings);
  } else {
    // First start: a run that works on any machine, the bundled engine's timing simulator.
    RunSpec demo;
    demo.engine.device = "sim";
    demo.engine.model = "qwen3-0.6b";
    demo.engine.flags = {EngineFlag::option("--sim-profile", "h200")};
    try {
      demo.profile = loadProfile("cpu-quick");
    } catch (const Error&) {
    }
    demo.label = "demo";
    m_setup->setRunSpec(demo);
  }
  if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
    // First start: as large as the work wants, never larger than the screen (1366x768 laptops).
    QSize size(1400, 900);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
      size = size.boundedTo(screen->availableGeometry().size() * 0.95);
    resize(size);
  }
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  m_restoring = false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  m_historyPage->commitDeletes();
  saveSettings();
  if (m_controller->isRunning()) m_controller->stop();
  if (m_studyController->isRunning()) m_studyController->stop();
  QMainWindow::closeEvent(event);
}

}  // namespace ayar
