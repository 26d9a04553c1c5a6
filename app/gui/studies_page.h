#pragma once

#include <QWidget>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/engines/engine_catalogue.h"
#include "core/load/load_runner.h"
#include "core/report/report_text.h"
#include "core/store/run_types.h"
#include "core/study/study_spec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace ayar {

class ResultStore;
class StudyController;
class StudyGridModel;
class StudyGridView;
class StudyListModel;

// The Studies area: every study in the store (name, state, cells done, started); run a preset or a
// study file, resume a stopped or interrupted study, stop the one going (finished cells are kept);
// the shown study's grid of configurations x profiles filling in as cells run (a done cell opens its
// run); and, once cells are done, its report: the recommended configuration with its serving
// command, and core's study report in the report language chosen here, exported as PDF, HTML,
// Markdown, CSV or JSON.
class StudiesPage : public QWidget {
  Q_OBJECT

 public:
  StudiesPage(StudyController* controller, QWidget* parent = nullptr);

  void setStore(ResultStore* store);
  // Stores a study from a preset's name or a study file and runs it; its id, or -1 (and failed()).
  // Why it could not start (a bad file, another study running) is also said on the page, under the
  // buttons that start it, in the UI language, until the next start.
  qint64 startStudy(const QString& presetOrFile);
  // What the page says of the last start that failed (empty when it did not).
  QString startErrorText() const;
  // Continues a stopped or interrupted study; false (and failed()) when it cannot.
  bool resumeStudy(qint64 id);
  void stopStudy();
  // Shows a stored study's grid and, when cells are done and it is not running, its report.
  bool showStudy(qint64 id);
  void refreshList();
  // Writes the shown study's report in the chosen report language; the format follows the suffix
  // (.pdf, .html, .md, .csv, .json). An error message, empty on success, when message() says where
  // the report was written.
  QString exportReport(const QString& path);
  void setReportLanguage(ReportLanguage language);
  // The language the report is shown and exported in: the UI's until one is picked beside it.
  ReportLanguage reportLanguage() const;

  qint64 shownStudy() const { return m_shown; }
  StudyListModel* listModel() const { return m_list; }
  QTableView* studyTable() const { return m_table; }
  StudyGridModel* gridModel() const { return m_grid; }
  StudyGridView* gridView() const { return m_gridView; }
  QTextBrowser* reportView() const { return m_report; }
  QLabel* recommendationLabel() const { return m_recommendation; }
  QLineEdit* servingCommand() const { return m_command; }
  QPushButton* resumeButton() const { return m_resume; }
  QPushButton* stopButton() const { return m_stop; }

 signals:
  void openRunRequested(qint64 run);
  void failed(const QString& message);
  void message(const QString& message);
  // The study run from this page ended (every cell ran, it was stopped, or it failed).
  void studyFinished(qint64 study, bool cancelled, const QString& error);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  // The constructor's parts, in order.
  void makeWidgets();
  void layOut();
  void connectActions();
  void connectController();
  void exportChosen();
  void retranslate();
  void refillPresets();
  void updateButtons();
  void refreshGrid();
  void showReport();
  void showProgress(const LoadProgress& progress);
  void onCellsChanged(const std::vector<StudyCell>& cells);
  void onFinished(qint64 study, bool cancelled, const QString& error);
  ReportLanguage uiLanguage() const;
  std::optional<StoredStudy> storedStudy(qint64 id) const;
  bool runningShown() const;

  StudyController* m_controller;
  ResultStore* m_store = nullptr;
  EngineCatalogue m_catalogue;
  StudyListModel* m_list = nullptr;
  QTableView* m_table = nullptr;
  QComboBox* m_preset = nullptr;
  QPushButton* m_runPreset = nullptr;
  QPushButton* m_runFile = nullptr;
  QPushButton* m_resume = nullptr;
  QPushButton* m_stop = nullptr;
  QLabel* m_heading = nullptr;
  QLabel* m_progress = nullptr;
  QLabel* m_startError = nullptr;
  std::optional<MessageArgument> m_startProblem;  // why the last start failed; retranslated
  bool m_startBlockedByRunning = false;
  void showStartError();
  StudyGridModel* m_grid = nullptr;
  StudyGridView* m_gridView = nullptr;
  QLabel* m_recommendation = nullptr;
  QLabel* m_commandLabel = nullptr;
  QLineEdit* m_command = nullptr;
  QLabel* m_reportLanguageLabel = nullptr;
  QComboBox* m_reportLanguage = nullptr;
  bool m_reportLanguageChosen = false;  // until the user picks one, the report follows the UI language
  QPushButton* m_export = nullptr;
  QTextBrowser* m_report = nullptr;

  qint64 m_shown = -1;
  std::optional<StudySpec> m_spec;  // the shown study's
  std::string m_recommended;        // the shown study's recommended configuration, once known
  double m_speedup = 1.0;
  std::optional<StudyCell> m_runningCell;
  int m_cellTotal = 0;
};

}  // namespace ayar
