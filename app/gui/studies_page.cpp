#include "app/gui/studies_page.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/gui/history_model.h"
#include "app/gui/study_controller.h"
#include "app/gui/study_list_model.h"
#include "app/gui/study_report_charts.h"
#include "app/report/report_export.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "core/report/report_document.h"
#include "core/store/result_store.h"
#include "core/study/study_report.h"
#include "core/study/study_runner.h"
#include "widgets/study_grid_model.h"
#include "widgets/study_grid_view.h"

namespace ayar {

namespace {

QString fromUtf8(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The save dialog's filters, in the order of ReportFileFormat, and the suffix each adds to a name
// typed without one.
const char* const kSuffixes[] = {".pdf", ".html", ".md", ".csv", ".json"};

}  // namespace

StudiesPage::StudiesPage(StudyController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller) {
  m_catalogue = EngineCatalogue::loadDefault();
  makeWidgets();
  layOut();
  connectActions();
  connectController();
  retranslate();
}

void StudiesPage::makeWidgets() {
  m_list = new StudyListModel(this);
  m_table = new QTableView(this);
  m_table->setObjectName(QStringLiteral("studyList"));
  m_table->setModel(m_list);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(StudyListModel::Name, QHeaderView::Stretch);

  m_preset = new QComboBox(this);
  m_preset->setObjectName(QStringLiteral("studyPreset"));
  m_preset->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_runPreset = new QPushButton(this);
  m_runPreset->setObjectName(QStringLiteral("runPreset"));
  m_runFile = new QPushButton(this);
  m_resume = new QPushButton(this);
  m_resume->setObjectName(QStringLiteral("resumeStudy"));
  m_stop = new QPushButton(this);
  m_stop->setObjectName(QStringLiteral("stopStudy"));

  m_heading = new QLabel(this);
  m_heading->setObjectName(QStringLiteral("studyHeading"));
  m_heading->setWordWrap(true);
  QFont headingFont = m_heading->font();
  headingFont.setBold(true);
  m_heading->setFont(headingFont);
  m_progress = new QLabel(this);
  m_progress->setObjectName(QStringLiteral("studyProgress"));
  m_grid = new StudyGridModel(this);
  m_gridView = new StudyGridView(this);
  m_gridView->setObjectName(QStringLiteral("studyGrid"));
  m_gridView->setGridModel(m_grid);

  m_recommendation = new QLabel(this);
  m_recommendation->setObjectName(QStringLiteral("studyRecommendation"));
  m_recommendation->setWordWrap(true);
  m_recommendation->setFont(headingFont);
  m_commandLabel = new QLabel(this);
  m_command = new QLineEdit(this);
  m_command->setObjectName(QStringLiteral("studyServingCommand"));
  m_command->setReadOnly(true);
  m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_reportLanguageLabel = new QLabel(this);
  m_reportLanguage = new QComboBox(this);
  // Each language named in itself; the report's language is independent of the UI's.
  m_reportLanguage->addItem(QStringLiteral("English"), QStringLiteral("en"));
  m_reportLanguage->addItem(QStringLiteral("Türkçe"), QStringLiteral("tr"));
  m_export = new QPushButton(this);
  m_export->setObjectName(QStringLiteral("exportStudyReport"));
  m_report = new QTextBrowser(this);
  m_report->setObjectName(QStringLiteral("studyReport"));
  m_report->setOpenLinks(false);
  // The report is a page, as it prints: dark text on white in either theme.
  QPalette paper = m_report->palette();
  paper.setColor(QPalette::Base, Qt::white);
  paper.setColor(QPalette::Text, QColor(28, 28, 28));
  m_report->setPalette(paper);
}

void StudiesPage::layOut() {
  // Four studies show at once (more scroll); the grid takes the height of its rows; the report the rest.
  m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                          4 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
  auto* actions = new QVBoxLayout;
  actions->addWidget(m_preset);
  actions->addWidget(m_runPreset);
  actions->addWidget(m_runFile);
  actions->addStretch(1);
  actions->addWidget(m_resume);
  actions->addWidget(m_stop);
  auto* top = new QHBoxLayout;
  top->addWidget(m_table, 1);
  top->addLayout(actions);

  auto* reportHead = new QGridLayout;
  reportHead->addWidget(m_recommendation, 0, 0, 1, 2);
  reportHead->addWidget(m_reportLanguageLabel, 0, 2);
  reportHead->addWidget(m_reportLanguage, 0, 3);
  reportHead->addWidget(m_export, 0, 4);
  reportHead->addWidget(m_commandLabel, 1, 0);
  reportHead->addWidget(m_command, 1, 1, 1, 4);
  reportHead->setColumnStretch(1, 1);

  m_startError = new QLabel(this);
  m_startError->setObjectName(QStringLiteral("studyStartError"));
  m_startError->setStyleSheet(QStringLiteral("color: #d73c32"));
  m_startError->setWordWrap(true);
  m_startError->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_startError->hide();

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_startError);
  layout->addSpacing(6);
  layout->addWidget(m_heading);
  layout->addWidget(m_progress);
  layout->addWidget(m_gridView);
  layout->addSpacing(6);
  layout->addLayout(reportHead);
  layout->addWidget(m_report, 1);
}

void StudiesPage::connectActions() {
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (const StudyListEntry* entry = m_list->studyAt(current.row())) {
              if (entry->study.id != m_shown) showStudy(entry->study.id);
            }
            updateButtons();
          });
  connect(m_preset, &QComboBox::currentIndexChanged, this,
          [this] { m_preset->setToolTip(m_preset->currentData(Qt::ToolTipRole).toString()); });
  connect(m_runPreset, &QPushButton::clicked, this, [this] {
    if (m_preset->currentIndex() >= 0) startStudy(m_preset->currentData().toString());
  });
  connect(m_runFile, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Run a study file"), QString(),
                                                      tr("Study files (*.json);;All files (*)"));
    if (!file.isEmpty()) startStudy(file);
  });
  connect(m_resume, &QPushButton::clicked, this, [this] {
    if (const StudyListEntry* entry = m_list->studyAt(m_table->currentIndex().row()))
      resumeStudy(entry->study.id);
  });
  connect(m_stop, &QPushButton::clicked, this, &StudiesPage::stopStudy);
  connect(m_gridView, &StudyGridView::runActivated, this, &StudiesPage::openRunRequested);
  connect(m_reportLanguage, &QComboBox::activated, this, [this] {
    m_reportLanguageChosen = true;
    showReport();
  });
  connect(m_export, &QPushButton::clicked, this, &StudiesPage::exportChosen);
}

// The study's progress and end, from the controller, for the study this page started.
void StudiesPage::connectController() {
  connect(m_controller, &StudyController::cellsChanged, this,
          [this](quint64 token, const std::vector<StudyCell>& cells) {
            if (token == m_controller->currentToken()) onCellsChanged(cells);
          });
  connect(m_controller, &StudyController::progressChanged, this,
          [this](quint64 token, const LoadProgress& progress) {
            if (token == m_controller->currentToken()) showProgress(progress);
          });
  connect(m_controller, &StudyController::finished, this,
          [this](quint64 token, qint64 study, bool cancelled, const QString& error) {
            if (token == m_controller->currentToken()) onFinished(study, cancelled, error);
          });
}

// Export: the file and format the user picks (a name typed without a suffix gets the chosen filter's).
void StudiesPage::exportChosen() {
  if (m_shown < 0) return;
  QString filter;
  const QStringList filters{tr("PDF (*.pdf)"), tr("HTML (*.html)"), tr("Markdown (*.md)"), tr("CSV (*.csv)"),
                            tr("JSON (*.json)")};
  const QString name = QStringLiteral("%1-%2.pdf")
                           .arg(m_spec ? QString::fromStdString(m_spec->name) : QStringLiteral("study"),
                                QString::number(m_shown));
  QString path = QFileDialog::getSaveFileName(this, tr("Export the study report"), name,
                                              filters.join(QStringLiteral(";;")), &filter);
  if (path.isEmpty()) return;
  const int chosen = static_cast<int>(filters.indexOf(filter));
  if (QFileInfo(path).suffix().isEmpty() && chosen >= 0) path += QLatin1String(kSuffixes[chosen]);
  const QString error = exportReport(path);
  if (!error.isEmpty()) emit failed(error);
}

void StudiesPage::setStore(ResultStore* store) {
  m_store = store;
  refreshList();
}

ReportLanguage StudiesPage::uiLanguage() const {
  return QLocale().language() == QLocale::Turkish ? ReportLanguage::Turkish : ReportLanguage::English;
}

ReportLanguage StudiesPage::reportLanguage() const {
  return m_reportLanguage->currentData().toString() == QLatin1String("tr") ? ReportLanguage::Turkish
                                                                           : ReportLanguage::English;
}

void StudiesPage::setReportLanguage(ReportLanguage language) {
  m_reportLanguage->setCurrentIndex(language == ReportLanguage::Turkish ? 1 : 0);
  m_reportLanguageChosen = true;
  showReport();
}

void StudiesPage::retranslate() {
  m_runPreset->setText(tr("Run preset"));
  m_runPreset->setToolTip(tr("Run the study preset chosen above (resources/studies)"));
  m_runFile->setText(tr("Run a study file…"));
  m_runFile->setToolTip(tr("A study JSON file: a baseline, its variants, the profiles, the deciding figure"));
  m_resume->setText(tr("Resume"));
  m_resume->setToolTip(tr("Continue the selected stopped or interrupted study; finished cells are kept"));
  m_stop->setText(tr("Stop"));
  m_stop->setToolTip(tr("Stop the study: the cell in progress is cut, finished cells are kept"));
  m_commandLabel->setText(tr("Serving command"));
  m_reportLanguageLabel->setText(tr("Report language"));
  m_export->setText(tr("Export report…"));
  m_export->setToolTip(tr("PDF, HTML, Markdown, CSV or JSON, in the report language beside it"));
  m_report->setPlaceholderText(
      tr("The smoke preset shows a whole study in about a minute on any machine: two configurations of "
         "the bundled engine's timing simulator, each on a small profile, then the faster one beside "
         "the baseline on a second profile."));
  m_grid->setLanguage(uiLanguage(), QLocale());
  showStartError();
  if (!m_reportLanguageChosen)
    m_reportLanguage->setCurrentIndex(uiLanguage() == ReportLanguage::Turkish ? 1 : 0);
  refillPresets();
  refreshList();
  refreshGrid();
  showReport();
}

void StudiesPage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void StudiesPage::refillPresets() {
  const QString chosen = m_preset->currentData().toString();
  m_preset->clear();
  const std::string language(reportLanguageCode(uiLanguage()));
  for (const std::string& name : listStudyPresets()) {
    QString title;
    try {
      title = QString::fromStdString(localized(loadStudy(name).title, language, std::string()));
    } catch (const Error&) {
      // A broken preset still lists; running it says what is wrong.
    }
    m_preset->addItem(QString::fromStdString(name), QString::fromStdString(name));
    m_preset->setItemData(m_preset->count() - 1, title, Qt::ToolTipRole);
  }
  const int index = m_preset->findData(chosen.isEmpty() ? QStringLiteral("smoke") : chosen);
  if (index >= 0) m_preset->setCurrentIndex(index);
  m_preset->setToolTip(m_preset->currentData(Qt::ToolTipRole).toString());
}

void StudiesPage::updateButtons() {
  const bool running = m_controller->isRunning();
  const StudyListEntry* entry = m_list->studyAt(m_table->currentIndex().row());
  const bool resumable =
      entry && (entry->study.status == RunStatus::Interrupted || entry->study.status == RunStatus::Cancelled);
  m_runPreset->setEnabled(!running && m_preset->count() > 0);
  m_runFile->setEnabled(!running);
  m_resume->setEnabled(!running && resumable);
  m_stop->setEnabled(running);
  m_export->setEnabled(m_shown >= 0 && !runningShown() && m_grid->count(CellStatus::Done) > 0);
}

bool StudiesPage::runningShown() const {
  return m_controller->isRunning() && m_controller->studyId() == m_shown;
}

void StudiesPage::refreshList() {
  if (!m_store) return;
  try {
    m_list->setStudies(StudyListModel::read(*m_store, std::string(reportLanguageCode(uiLanguage()))));
  } catch (const Error& e) {
    emit failed(QString::fromStdString(errorText(e, uiLanguage())));
  }
  const int row = m_list->rowOfStudy(m_shown);
  if (row >= 0) {
    const QSignalBlocker blocker(m_table->selectionModel());
    m_table->selectionModel()->setCurrentIndex(
        m_list->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }
  updateButtons();
}

std::optional<StoredStudy> StudiesPage::storedStudy(qint64 id) const {
  if (!m_store || id < 0) return std::nullopt;
  return m_store->findStudy(id);
}

qint64 StudiesPage::startStudy(const QString& presetOrFile) {
  if (!m_store) return -1;
  m_startProblem.reset();
  m_startBlockedByRunning = false;
  if (m_controller->isRunning()) {
    m_startBlockedByRunning = true;
    showStartError();
    emit failed(startErrorText());
    return -1;
  }
  qint64 id = -1;
  try {
    const StudySpec spec = loadStudy(presetOrFile.toStdString());
    id = StudyRunner::create(spec, m_store->path());
  } catch (const Error& e) {
    m_startProblem = errorArgument(e);
    showStartError();
    emit failed(startErrorText());
    return -1;
  }
  showStartError();
  m_controller->start(m_store->path(), id);
  showStudy(id);
  refreshList();
  emit message(tr("Study #%1 started").arg(id));
  return id;
}

void StudiesPage::showStartError() {
  QString text;
  if (m_startBlockedByRunning) {
    text = tr("A study is running: stop it before starting another.");
  } else if (m_startProblem) {
    text = tr("Cannot start the study: %1").arg(QString::fromStdString(m_startProblem->in(uiLanguage())));
  }
  m_startError->setText(text);
  m_startError->setVisible(!text.isEmpty());
}

QString StudiesPage::startErrorText() const {
  return m_startError->isHidden() ? QString() : m_startError->text();
}

bool StudiesPage::resumeStudy(qint64 id) {
  if (!m_store) return false;
  if (m_controller->isRunning()) {
    emit failed(tr("A study is running: stop it before resuming another."));
    return false;
  }
  const auto study = storedStudy(id);
  if (!study) {
    emit failed(tr("Study #%1 is not in the store").arg(id));
    return false;
  }
  if (study->status == RunStatus::Running || study->status == RunStatus::Completed) {
    emit failed(tr("Study #%1 is %2: only a stopped or interrupted study resumes")
                    .arg(id)
                    .arg(HistoryModel::statusText(study->status)));
    return false;
  }
  m_controller->start(m_store->path(), id);
  showStudy(id);
  refreshList();
  emit message(tr("Study #%1 resumed: finished cells are kept").arg(id));
  return true;
}

void StudiesPage::stopStudy() {
  if (!m_controller->isRunning()) return;
  m_controller->stop();
  emit message(tr("Stopping the study: the cell in progress is cut, finished cells are kept"));
}

bool StudiesPage::showStudy(qint64 id) {
  if (!m_store) return false;
  StudySpec spec;
  try {
    spec = StudyRunner::loadStored(m_store->path(), id);
  } catch (const Error& e) {
    emit failed(QString::fromStdString(errorText(e, uiLanguage())));
    return false;
  }
  m_shown = id;
  m_spec = spec;
  m_recommended.clear();
  m_runningCell.reset();
  m_grid->setStudy(spec);
  m_grid->setLanguage(uiLanguage(), QLocale());
  refreshGrid();
  showReport();
  const int row = m_list->rowOfStudy(id);
  if (row >= 0 && m_table->currentIndex().row() != row) {
    const QSignalBlocker blocker(m_table->selectionModel());
    m_table->selectionModel()->setCurrentIndex(
        m_list->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }
  updateButtons();
  return true;
}

void StudiesPage::refreshGrid() {
  if (!m_store || m_shown < 0 || !m_spec) {
    m_heading->setText(tr("No study shown: run a preset or a study file, or choose a study in the list."));
    m_progress->clear();
    m_progress->hide();
    m_gridView->hide();
    return;
  }
  std::vector<StudyCell> cells;
  std::vector<StoredRun> runs;
  std::optional<StoredStudy> study;
  try {
    study = m_store->findStudy(m_shown);
    cells = m_store->listStudyCells(m_shown);
    RunFilter filter;
    filter.studyId = m_shown;
    runs = m_store->listRuns(filter);
  } catch (const Error& e) {
    emit failed(QString::fromStdString(errorText(e, uiLanguage())));
    return;
  }
  std::map<std::int64_t, double> figures;
  for (const StoredRun& run : runs) {
    if (const auto value = storedFigure(run, m_spec->decidingFigure)) figures[run.id] = *value;
  }
  m_grid->setCells(cells, figures);
  m_gridView->show();
  m_cellTotal = static_cast<int>(cells.size());
  // The recommendation once every option cell has run (follow-up cells exist from then on).
  const bool optionsDone = std::none_of(cells.begin(), cells.end(), [](const StudyCell& cell) {
    return cell.phase == "options" &&
           (cell.status == CellStatus::Pending || cell.status == CellStatus::Running);
  });
  if (optionsDone && !cells.empty()) {
    const StudyRecommendation recommendation = StudyRunner::recommend(*m_spec, cells, runs);
    m_recommended = recommendation.configuration;
    m_speedup = recommendation.speedup;
  } else {
    m_recommended.clear();
  }
  m_grid->setRecommended(m_recommended);

  const std::string language(reportLanguageCode(uiLanguage()));
  QString heading = QStringLiteral("#%1 %2").arg(m_shown).arg(QString::fromStdString(m_spec->name));
  const std::string title = localized(m_spec->title, language, std::string());
  if (!title.empty()) heading += QStringLiteral(" — ") + QString::fromStdString(title);
  if (study) heading += QStringLiteral(" · ") + HistoryModel::statusText(study->status);
  heading += QStringLiteral(" · ") + tr("%1 of %2 cells done")
                                         .arg(QLocale().toString(m_grid->count(CellStatus::Done)))
                                         .arg(QLocale().toString(m_grid->cellCount()));
  m_heading->setText(heading);
  if (!runningShown()) {
    m_progress->clear();
    m_progress->hide();
  }
}

void StudiesPage::onCellsChanged(const std::vector<StudyCell>& cells) {
  for (const StudyCell& cell : cells) {
    if (cell.status == CellStatus::Running) {
      m_runningCell = cell;
    } else if (m_runningCell && m_runningCell->index == cell.index) {
      m_runningCell.reset();
    }
  }
  m_grid->setRunningProgress(0.0);
  if (m_controller->studyId() == m_shown) refreshGrid();
  refreshList();
  showProgress(m_controller->progress());
}

void StudiesPage::showProgress(const LoadProgress& progress) {
  if (!runningShown()) return;
  const std::size_t finished = progress.completed + progress.failed;
  m_grid->setRunningProgress(
      progress.total > 0 ? static_cast<double>(finished) / static_cast<double>(progress.total) : 0.0);
  QString text;
  if (m_runningCell) {
    text = tr("Cell %1 of %2: %3 on %4")
               .arg(m_runningCell->index + 1)
               .arg(m_cellTotal)
               .arg(QString::fromStdString(m_runningCell->configuration),
                    QString::fromStdString(m_runningCell->profile));
    if (progress.total > 0)
      text += QStringLiteral(" — ") + tr("%1 of %2 requests finished")
                                          .arg(QLocale().toString(static_cast<qulonglong>(finished)))
                                          .arg(QLocale().toString(static_cast<qulonglong>(progress.total)));
  } else {
    text = tr("Starting the next configuration's engine…");
  }
  m_progress->setText(text);
  m_progress->show();
}

void StudiesPage::onFinished(qint64 study, bool cancelled, const QString& error) {
  m_runningCell.reset();
  m_grid->setRunningProgress(0.0);
  refreshList();
  if (study == m_shown) {
    refreshGrid();
    showReport();
  }
  updateButtons();
  if (!error.isEmpty()) {
    emit failed(tr("Study #%1 failed: %2").arg(study).arg(error));
  } else if (cancelled) {
    emit message(tr("Study #%1 stopped; finished cells are kept. Resume continues it.").arg(study));
  } else {
    emit message(tr("Study #%1 finished").arg(study));
  }
  emit studyFinished(study, cancelled, error);
}

void StudiesPage::showReport() {
  const bool ready =
      m_store && m_shown >= 0 && m_spec && !runningShown() && m_grid->count(CellStatus::Done) > 0;
  updateButtons();
  if (!ready) {
    m_recommendation->setText(m_shown >= 0 && runningShown()
                                  ? tr("The report appears here when the study has finished.")
                                  : tr("The report appears here once a study has finished cells."));
    m_command->clear();
    m_command->setEnabled(false);
    m_report->clear();
    return;
  }
  const std::string language(reportLanguageCode(uiLanguage()));
  const StudyConfiguration* recommended = nullptr;
  const std::vector<StudyConfiguration> configurations = m_spec->configurations();
  for (const StudyConfiguration& configuration : configurations) {
    if (configuration.name == m_recommended) recommended = &configuration;
  }
  if (!recommended) {
    m_recommendation->setText(tr("No recommendation yet: the study has option cells left to run."));
    m_command->clear();
    m_command->setEnabled(false);
  } else {
    const QString name = QString::fromStdString(localized(recommended->title, language, recommended->name));
    if (recommended->baseline) {
      m_recommendation->setText(tr("Recommended: %1 (no option beat the baseline)").arg(name));
    } else {
      m_recommendation->setText(
          tr("Recommended: %1, %2 (%3)")
              .arg(name,
                   QString::fromStdString(
                       formatSpeedup(m_speedup, uiLanguage(), !runFigureIsLatency(m_spec->decidingFigure))),
                   fromUtf8(runFigureLabel(m_spec->decidingFigure, uiLanguage()))));
    }
    m_command->setText(QString::fromStdString(servingCommandLine(recommended->engine, m_catalogue)));
    m_command->setCursorPosition(0);
    m_command->setEnabled(true);
  }
  try {
    m_report->setHtml(QString::fromStdString(
        renderHtml(buildStudyReport(m_store->path(), m_shown, reportLanguage()), HtmlDialect::QtRichText)));
  } catch (const Error& e) {
    m_report->setPlainText(QString::fromStdString(errorText(e, uiLanguage())));
  }
}

QString StudiesPage::exportReport(const QString& path) {
  if (!m_store || m_shown < 0) return tr("Choose a study first, then export its report.");
  try {
    writeStudyReportFile(m_store->path(), m_shown, reportLanguage(), path, reportFileFormatFor(path));
  } catch (const Error& e) {
    return QString::fromStdString(errorText(e, uiLanguage()));
  }
  emit message(tr("Report written to %1").arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())));
  return {};
}

}  // namespace ayar
